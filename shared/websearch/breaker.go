package websearch

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"time"
)

// BreakerOptions tune a circuit breaker. Zero values take the defaults noted.
type BreakerOptions struct {
	Failures int           // consecutive failures that open the breaker; default 5
	CoolDown time.Duration // how long an open breaker refuses calls; default 30 s
	Now      func() time.Time
}

// Breaker is a circuit breaker over one provider. After Failures consecutive failures
// it opens: calls fail at once with ErrCircuitOpen until CoolDown has passed, then one
// trial call is let through (half-open); its success closes the breaker. Out of
// credits opens it at once: retrying cannot help until someone tops up the account.
// Errors caused by the caller's own context (cancellation) do not count.
type Breaker struct {
	opts BreakerOptions

	mu       sync.Mutex
	failures int
	openTill time.Time
	trial    bool
	lastErr  error
}

// NewBreaker returns a closed breaker.
func NewBreaker(o BreakerOptions) *Breaker {
	if o.Failures <= 0 {
		o.Failures = 5
	}
	if o.CoolDown <= 0 {
		o.CoolDown = 30 * time.Second
	}
	if o.Now == nil {
		o.Now = time.Now
	}
	return &Breaker{opts: o}
}

// Wrap returns s guarded by the breaker.
func (b *Breaker) Wrap(s Searcher) Searcher { return guarded{b: b, s: s} }

type guarded struct {
	b *Breaker
	s Searcher
}

func (g guarded) Search(ctx context.Context, query string, n int) ([]Result, error) {
	if err := g.b.allow(); err != nil {
		return nil, err
	}
	res, err := g.s.Search(ctx, query, n)
	g.b.record(ctx, err)
	return res, err
}

func (b *Breaker) allow() error {
	b.mu.Lock()
	defer b.mu.Unlock()
	now := b.opts.Now()
	if b.openTill.IsZero() {
		return nil
	}
	if now.Before(b.openTill) || b.trial {
		if errors.Is(b.lastErr, ErrOutOfCredits) {
			return fmt.Errorf("%w (%w)", ErrCircuitOpen, ErrOutOfCredits)
		}
		return ErrCircuitOpen
	}
	b.trial = true // half-open: this call is the trial
	return nil
}

func (b *Breaker) record(ctx context.Context, err error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	wasTrial := b.trial
	b.trial = false
	if err == nil {
		b.failures, b.openTill, b.lastErr = 0, time.Time{}, nil
		return
	}
	if ctx.Err() != nil && errors.Is(err, ctx.Err()) {
		return
	}
	b.failures++
	b.lastErr = err
	if wasTrial || b.failures >= b.opts.Failures || errors.Is(err, ErrOutOfCredits) || errors.Is(err, ErrAuth) {
		b.openTill = b.opts.Now().Add(b.opts.CoolDown)
	}
}

// State reports "closed", "open" or "half-open" (tests and diagnostics).
func (b *Breaker) State() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	switch {
	case b.openTill.IsZero():
		return "closed"
	case b.opts.Now().Before(b.openTill) && !b.trial:
		return "open"
	default:
		return "half-open"
	}
}
