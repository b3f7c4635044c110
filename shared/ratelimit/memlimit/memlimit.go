// Package memlimit is the in-process adapter of the ratelimit.Limiter port, for the
// local composition where one process serves every request.
package memlimit

import (
	"context"
	"fmt"
	"sync"
	"time"

	"github.com/firmoapi/firmo/shared/apperr"
	"github.com/firmoapi/firmo/shared/ratelimit"
)

// Limiter counts requests in memory. It is safe for concurrent use.
type Limiter struct {
	now func() time.Time

	mu     sync.Mutex
	window time.Time        // the current window; counts of older windows are dropped
	counts map[string]int64 // key -> requests in the current window
}

var _ ratelimit.Limiter = (*Limiter)(nil)

// New returns a limiter reading the time from now (time.Now outside tests).
func New(now func() time.Time) *Limiter {
	return &Limiter{now: now, counts: map[string]int64{}}
}

// Allow implements ratelimit.Limiter.
func (l *Limiter) Allow(ctx context.Context, key string, limit int) (ratelimit.Decision, error) {
	if key == "" || limit < 1 {
		return ratelimit.Decision{}, fmt.Errorf("rate limit key %q, limit %d: %w", key, limit, apperr.ErrInvalid)
	}
	start := ratelimit.WindowStart(l.now())
	l.mu.Lock()
	// Windows are global and fixed, so one reset per minute drops every old count and
	// the map never holds more than the keys seen in the current minute.
	if !start.Equal(l.window) {
		if start.After(l.window) {
			l.window = start
			clear(l.counts)
		} else {
			start = l.window // the clock stepped back: keep counting in the newer window
		}
	}
	l.counts[key]++
	n := l.counts[key]
	l.mu.Unlock()
	return ratelimit.Decide(n, limit, start), nil
}
