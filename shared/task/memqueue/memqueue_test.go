package memqueue_test

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/firmoapi/firmo/shared/task"
	"github.com/firmoapi/firmo/shared/task/memqueue"
)

// recorder is a handler that records what it handled and how many ran at once per lane.
type recorder struct {
	delay time.Duration
	fail  func(m task.Message, attempt int) error

	mu       sync.Mutex
	order    []string
	attempts map[string]int
	active   map[string]int
	max      map[string]int
}

func newRecorder(delay time.Duration) *recorder {
	return &recorder{delay: delay, attempts: map[string]int{}, active: map[string]int{}, max: map[string]int{}}
}

func (r *recorder) Handle(ctx context.Context, m task.Message) error {
	r.mu.Lock()
	r.attempts[m.Key]++
	attempt := r.attempts[m.Key]
	r.active[m.Provider]++
	r.max[m.Provider] = max(r.max[m.Provider], r.active[m.Provider])
	r.mu.Unlock()
	defer func() {
		r.mu.Lock()
		r.active[m.Provider]--
		r.mu.Unlock()
	}()
	if r.delay > 0 {
		select {
		case <-time.After(r.delay):
		case <-ctx.Done():
			return ctx.Err()
		}
	}
	if r.fail != nil {
		if err := r.fail(m, attempt); err != nil {
			return err
		}
	}
	r.mu.Lock()
	r.order = append(r.order, m.Key)
	r.mu.Unlock()
	return nil
}

func (r *recorder) handled() []string {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]string(nil), r.order...)
}

func msgs(taskID, provider string, n int) []task.Message {
	out := make([]task.Message, n)
	for i := range out {
		out[i].Ref.OrgID, out[i].Ref.TaskID = "o", taskID
		out[i].Key, out[i].Index, out[i].Provider = fmt.Sprintf("%s-%d", taskID, i), i, provider
	}
	return out
}

func waitFor(t *testing.T, cond func() bool) {
	t.Helper()
	for deadline := time.Now().Add(10 * time.Second); !cond(); time.Sleep(2 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatal("condition not met within 10 s")
		}
	}
}

func closeQueue(t *testing.T, q *memqueue.Queue) {
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		q.Close(ctx)
	})
}

func TestLanesBoundConcurrencyPerProvider(t *testing.T) {
	rec := newRecorder(5 * time.Millisecond)
	q := memqueue.New(memqueue.Options{Workers: 5, Lanes: map[string]int{"slow": 2}})
	closeQueue(t, q)
	q.Run(rec)
	ctx := context.Background()
	q.Send(ctx, msgs("a", "slow", 30))
	q.Send(ctx, msgs("b", "fast", 30))
	waitFor(t, func() bool { return len(rec.handled()) == 60 })
	if rec.max["slow"] != 2 || rec.max["fast"] != 5 {
		t.Fatalf("most at once: slow %d (lane of 2), fast %d (default 5)", rec.max["slow"], rec.max["fast"])
	}
}

// TestTasksTakeTurns: a small task sent after a large one is not held back by it.
func TestTasksTakeTurns(t *testing.T) {
	rec := newRecorder(0)
	q := memqueue.New(memqueue.Options{Workers: 1})
	closeQueue(t, q)
	ctx := context.Background()
	q.Send(ctx, msgs("big", "", 100))
	q.Send(ctx, msgs("small", "", 2))
	q.Run(rec)
	waitFor(t, func() bool { return len(rec.handled()) == 102 })
	order := rec.handled()
	for i, k := range order[:4] {
		want := []string{"big-0", "small-0", "big-1", "small-1"}[i]
		if k != want {
			t.Fatalf("first handled = %v, want big and small alternating", order[:4])
		}
	}
}

func TestFailedMessagesAreRetriedThenDropped(t *testing.T) {
	rec := newRecorder(0)
	rec.fail = func(m task.Message, attempt int) error {
		if m.Key == "t-0" && attempt < 3 || m.Key == "t-1" {
			return errors.New("store busy")
		}
		return nil
	}
	q := memqueue.New(memqueue.Options{Workers: 2, Attempts: 4, RetryDelay: time.Millisecond})
	closeQueue(t, q)
	q.Run(rec)
	q.Send(context.Background(), msgs("t", "", 3))
	waitFor(t, func() bool {
		rec.mu.Lock()
		defer rec.mu.Unlock()
		return rec.attempts["t-1"] == 4 && len(rec.order) == 2
	})
	time.Sleep(20 * time.Millisecond)
	rec.mu.Lock()
	defer rec.mu.Unlock()
	if rec.attempts["t-0"] != 3 || rec.attempts["t-1"] != 4 || rec.attempts["t-2"] != 1 {
		t.Fatalf("attempts = %v; want t-0 3 (ok on the third), t-1 4 (dropped after Attempts), t-2 1", rec.attempts)
	}
	if s := q.Stats(); s.Pending != 0 || s.InFlight != 0 {
		t.Fatalf("stats = %+v", s)
	}
}

// TestCloseDrainsInFlight: Close lets running messages finish, drops waiting ones and
// refuses new ones.
func TestCloseDrainsInFlight(t *testing.T) {
	rec := newRecorder(50 * time.Millisecond)
	q := memqueue.New(memqueue.Options{Workers: 2})
	q.Run(rec)
	q.Send(context.Background(), msgs("d", "", 10))
	waitFor(t, func() bool { return q.Stats().InFlight == 2 })
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if err := q.Close(ctx); err != nil {
		t.Fatal(err)
	}
	if got := rec.handled(); len(got) != 2 {
		t.Fatalf("handled %v after Close; want the 2 in flight finished, the rest left", got)
	}
	if err := q.Send(context.Background(), msgs("e", "", 1)); !errors.Is(err, memqueue.ErrClosed) {
		t.Fatalf("Send after Close = %v", err)
	}
}

// TestCloseCutsShortAfterItsDeadline: handlers still running when Close's context ends
// see their context cancelled.
func TestCloseCutsShortAfterItsDeadline(t *testing.T) {
	var cut atomic.Int32
	h := handlerFunc(func(ctx context.Context, m task.Message) error {
		<-ctx.Done()
		cut.Add(1)
		return ctx.Err()
	})
	q := memqueue.New(memqueue.Options{Workers: 3})
	q.Run(h)
	q.Send(context.Background(), msgs("x", "", 3))
	waitFor(t, func() bool { return q.Stats().InFlight == 3 })
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Millisecond)
	defer cancel()
	if err := q.Close(ctx); !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("Close = %v, want its deadline", err)
	}
	if cut.Load() != 3 {
		t.Fatalf("%d handlers cut short, want 3", cut.Load())
	}
}

type handlerFunc func(ctx context.Context, m task.Message) error

func (f handlerFunc) Handle(ctx context.Context, m task.Message) error { return f(ctx, m) }
