package crmfake

import (
	"context"
	"sync"
	"time"
)

// window is a rolling rate limit: at most limit requests within any span of length
// per, as HubSpot's "ten-secondly rolling" limit. It keeps the times of the last
// limit requests served; requests it refuses are not counted.
type window struct {
	mu     sync.Mutex
	limit  int
	per    time.Duration
	served []time.Time // ring of the last limit served requests
	next   int         // ring position of the oldest once full
	most   int         // most requests seen within one span
}

func newWindow(limit int, per time.Duration) *window {
	return &window{limit: limit, per: per, served: make([]time.Time, 0, limit)}
}

// admit serves a request at now or reports how long until one would be served.
func (w *window) admit(now time.Time) (wait time.Duration, refused bool) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if len(w.served) == w.limit {
		oldest := w.served[w.next]
		if now.Sub(oldest) < w.per {
			return oldest.Add(w.per).Sub(now), true
		}
		w.served[w.next] = now
		w.next = (w.next + 1) % w.limit
	} else {
		w.served = append(w.served, now)
	}
	w.most = max(w.most, w.inSpan(now))
	return 0, false
}

// inSpan counts the served requests within the span ending at now.
func (w *window) inSpan(now time.Time) int {
	n := 0
	for _, t := range w.served {
		if now.Sub(t) < w.per {
			n++
		}
	}
	return n
}

func (w *window) remaining(now time.Time) int {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.limit - w.inSpan(now)
}

func (w *window) maxSeen() int {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.most
}

// VirtualClock is a clock that moves only when someone sleeps on it. A test hands
// its Now to a fake and its Now and Sleep to the client under test, so a snapshot
// that waits out minutes of rate limits runs in the time its HTTP calls take, and
// the fake still checks every request against the rate window exactly.
type VirtualClock struct {
	mu  sync.Mutex
	now time.Time
}

// NewVirtualClock starts a clock at start.
func NewVirtualClock(start time.Time) *VirtualClock { return &VirtualClock{now: start} }

// Now is the clock's current time.
func (c *VirtualClock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.now
}

// Sleep moves the clock d forward at once, unless ctx is already done.
func (c *VirtualClock) Sleep(ctx context.Context, d time.Duration) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	c.Advance(d)
	return nil
}

// Advance moves the clock d forward.
func (c *VirtualClock) Advance(d time.Duration) {
	if d <= 0 {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	c.now = c.now.Add(d)
}
