// Package ratelimittest is the contract test suite of the ratelimit.Limiter port. Every
// adapter runs it.
package ratelimittest

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/firmoapi/firmo/shared/apperr"
	"github.com/firmoapi/firmo/shared/ratelimit"
)

// Clock is a settable clock shared by a test and the limiter under test.
type Clock struct{ ns atomic.Int64 }

// NewClock returns a clock set to t.
func NewClock(t time.Time) *Clock {
	c := &Clock{}
	c.Set(t)
	return c
}

// Now reads the clock.
func (c *Clock) Now() time.Time { return time.Unix(0, c.ns.Load()).UTC() }

// Set moves the clock to t.
func (c *Clock) Set(t time.Time) { c.ns.Store(t.UnixNano()) }

// Run runs the contract against limiters made by newLimiter, which must read the time
// from now. Each subtest uses its own keys, so one backing store may be shared.
func Run(t *testing.T, newLimiter func(t *testing.T, now func() time.Time) ratelimit.Limiter) {
	t.Helper()
	ctx := context.Background()
	n := 0
	key := func(name string) string { n++; return fmt.Sprintf("%s|%s|%d", t.Name(), name, n) }
	// 10:00:30 UTC: the window is [10:00, 10:01).
	start := time.Date(2030, 1, 2, 10, 0, 30, 0, time.UTC)

	t.Run("CountsUpToTheLimit", func(t *testing.T) {
		clock := NewClock(start)
		l := newLimiter(t, clock.Now)
		k := key("count")
		wantReset := time.Date(2030, 1, 2, 10, 1, 0, 0, time.UTC)
		for i := 1; i <= 5; i++ {
			d, err := l.Allow(ctx, k, 3)
			if err != nil {
				t.Fatal(err)
			}
			want := ratelimit.Decision{Allowed: i <= 3, Limit: 3, Remaining: max(0, 3-i), Reset: wantReset}
			if !d.Reset.Equal(want.Reset) || d.Allowed != want.Allowed || d.Limit != want.Limit || d.Remaining != want.Remaining {
				t.Fatalf("request %d: got %+v, want %+v", i, d, want)
			}
		}
	})

	t.Run("NewWindowStartsAgain", func(t *testing.T) {
		clock := NewClock(start)
		l := newLimiter(t, clock.Now)
		k := key("window")
		for i := 0; i < 2; i++ {
			l.Allow(ctx, k, 2)
		}
		if d, _ := l.Allow(ctx, k, 2); d.Allowed {
			t.Fatal("third request in a window of 2 was allowed")
		}
		clock.Set(start.Add(29*time.Second + 999*time.Millisecond)) // 10:00:59.999, same window
		if d, _ := l.Allow(ctx, k, 2); d.Allowed {
			t.Fatal("request at the end of the full window was allowed")
		}
		clock.Set(start.Add(30 * time.Second)) // 10:01:00, next window
		d, err := l.Allow(ctx, k, 2)
		if err != nil || !d.Allowed || d.Remaining != 1 || !d.Reset.Equal(time.Date(2030, 1, 2, 10, 2, 0, 0, time.UTC)) {
			t.Fatalf("first request of the next window: %+v, %v", d, err)
		}
		clock.Set(start.Add(10 * time.Minute)) // after a pause: a fresh window again
		if d, _ := l.Allow(ctx, k, 2); !d.Allowed || d.Remaining != 1 {
			t.Fatalf("after a pause: %+v", d)
		}
	})

	t.Run("KeysAreIndependent", func(t *testing.T) {
		clock := NewClock(start)
		l := newLimiter(t, clock.Now)
		a, b := key("a"), key("b")
		if d, _ := l.Allow(ctx, a, 1); !d.Allowed {
			t.Fatal("first request on a refused")
		}
		if d, _ := l.Allow(ctx, a, 1); d.Allowed {
			t.Fatal("second request on a allowed")
		}
		if d, _ := l.Allow(ctx, b, 1); !d.Allowed {
			t.Fatal("key b was limited by key a's requests")
		}
	})

	t.Run("LimitChangeAppliesToTheSameCount", func(t *testing.T) {
		// A plan upgrade mid-window raises the limit at once: the count is kept per key,
		// the limit is the caller's.
		clock := NewClock(start)
		l := newLimiter(t, clock.Now)
		k := key("upgrade")
		l.Allow(ctx, k, 1)
		if d, _ := l.Allow(ctx, k, 1); d.Allowed {
			t.Fatal("second request under limit 1 allowed")
		}
		if d, _ := l.Allow(ctx, k, 10); !d.Allowed || d.Remaining != 7 {
			t.Fatalf("after raising the limit to 10: %+v, want allowed with 7 left", d)
		}
	})

	t.Run("BadArguments", func(t *testing.T) {
		l := newLimiter(t, NewClock(start).Now)
		for _, c := range []struct {
			key   string
			limit int
		}{{"", 5}, {key("zero"), 0}, {key("neg"), -1}} {
			if _, err := l.Allow(ctx, c.key, c.limit); !errors.Is(err, apperr.ErrInvalid) {
				t.Errorf("Allow(%q, %d): err = %v, want ErrInvalid", c.key, c.limit, err)
			}
		}
	})

	t.Run("ConcurrentRequestsNeverExceedTheLimit", func(t *testing.T) {
		clock := NewClock(start)
		l := newLimiter(t, clock.Now)
		k := key("concurrent")
		const workers, each, limit = 8, 10, 25
		var allowed atomic.Int64
		var wg sync.WaitGroup
		errs := make(chan error, workers*each)
		for w := 0; w < workers; w++ {
			wg.Add(1)
			go func() {
				defer wg.Done()
				for i := 0; i < each; i++ {
					d, err := l.Allow(ctx, k, limit)
					if err != nil {
						errs <- err
						return
					}
					if d.Allowed {
						allowed.Add(1)
					}
				}
			}()
		}
		wg.Wait()
		close(errs)
		for err := range errs {
			t.Fatal(err)
		}
		if got := allowed.Load(); got != limit {
			t.Fatalf("%d concurrent requests with limit %d: %d allowed", workers*each, limit, got)
		}
	})
}
