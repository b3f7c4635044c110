package memo

import (
	"context"
	"errors"
	"sync"
	"testing"
)

type mapStore struct {
	mu    sync.Mutex
	m     map[string][]byte
	saves int
}

func (s *mapStore) Load(_ context.Context, k string) ([]byte, bool, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	v, ok := s.m[k]
	return v, ok, nil
}

func (s *mapStore) Save(_ context.Context, k string, v []byte) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.saves++
	if _, ok := s.m[k]; !ok {
		s.m[k] = v
	}
	return nil
}

// TestDoReplaysFinishedCalls runs a unit twice over one store: the second run replays
// each finished call in order (identical calls by occurrence), calls again the one that
// failed, and a context without a scope always calls.
func TestDoReplaysFinishedCalls(t *testing.T) {
	st := &mapStore{m: map[string][]byte{}}
	calls := 0
	answer := func(v string, fail bool) func() (string, error) {
		return func() (string, error) {
			calls++
			if fail {
				return "", errors.New("cut short")
			}
			return v, nil
		}
	}
	run := func(failLast bool) []string {
		ctx := With(context.Background(), NewScope(st))
		var got []string
		for i, step := range []struct{ key, val string }{{"a", "first"}, {"a", "second"}, {"b", "third"}} {
			v, replayed, err := Do(ctx, Key(step.key), answer(step.val, failLast && i == 2))
			got = append(got, v+map[bool]string{true: "(replayed)", false: ""}[replayed]+map[bool]string{true: "(err)", false: ""}[err != nil])
		}
		return got
	}
	first := run(true)
	if want := "[first second (err)]"; fmtSlice(first) != want || calls != 3 {
		t.Fatalf("first run %v with %d calls, want %s with 3", first, calls, want)
	}
	second := run(false)
	if want := "[first(replayed) second(replayed) third]"; fmtSlice(second) != want || calls != 4 {
		t.Fatalf("second run %v with %d calls in all, want %s with 4", second, calls, want)
	}
	if _, replayed, _ := Do(context.Background(), Key("a"), answer("x", false)); replayed || calls != 5 {
		t.Fatalf("without a scope Do must call: replayed %v, calls %d", replayed, calls)
	}
}

func fmtSlice(s []string) string {
	out := "["
	for i, v := range s {
		if i > 0 {
			out += " "
		}
		out += v
	}
	return out + "]"
}
