package websearch_test

import (
	"context"
	"errors"
	"testing"

	"github.com/firmoapi/firmo/shared/websearch"
)

// scripted answers each query with its error (nil: one hit).
type scripted map[string]error

func (s scripted) Search(_ context.Context, q string, _ int) ([]websearch.Result, error) {
	if err := s[q]; err != nil {
		return nil, err
	}
	return []websearch.Result{{URL: "https://x.example/" + q}}, nil
}

func TestRunQueries(t *testing.T) {
	ctx := context.Background()
	fail := errors.New("timeout")
	for _, c := range []struct {
		name             string
		errs             scripted
		hits, exec, succ int
		stopped          error
	}{
		{"all answer", scripted{}, 3, 3, 3, nil},
		{"a failure is skipped", scripted{"b": fail}, 2, 3, 2, nil},
		{"out of credits stops, counted", scripted{"b": websearch.ErrOutOfCredits}, 1, 2, 1, websearch.ErrOutOfCredits},
		{"open circuit stops, not counted", scripted{"b": websearch.ErrCircuitOpen}, 1, 1, 1, websearch.ErrCircuitOpen},
	} {
		t.Run(c.name, func(t *testing.T) {
			r := websearch.RunQueries(ctx, c.errs, websearch.KindSerper, []string{"a", "b", "c"}, 5)
			if len(r.Hits) != c.hits || r.Executed != c.exec || r.Succeeded != c.succ || !errors.Is(r.Stopped, c.stopped) && r.Stopped != c.stopped {
				t.Errorf("run %+v; want %d hits, %d executed, %d succeeded, stopped %v", r, c.hits, c.exec, c.succ, c.stopped)
			}
			if want := float64(c.exec) * websearch.Prices[websearch.KindSerper]; r.CostUSD != want {
				t.Errorf("cost %v, want %v", r.CostUSD, want)
			}
		})
	}
}
