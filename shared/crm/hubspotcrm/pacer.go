package hubspotcrm

import (
	"context"
	"errors"
	"net/http"
	"time"

	"golang.org/x/time/rate"
)

// pacer keeps one connection's calls under HubSpot's rolling limit. A token bucket
// of burst b refilled at r per second lets through at most b + r*window calls in
// any window; b is a tenth of the limit and r fills the rest up to nine tenths, so
// the client stays clear of the limit even when network delays bunch its calls up.
type pacer struct {
	lim   *rate.Limiter
	now   func() time.Time
	sleep func(ctx context.Context, d time.Duration) error
	used  time.Time
}

func newPacer(limit int, window time.Duration, now func() time.Time, sleep func(context.Context, time.Duration) error) *pacer {
	burst := max(limit/10, 1)
	budget := max(float64(limit)*0.9-float64(burst), 1)
	return &pacer{
		lim: rate.NewLimiter(rate.Limit(budget/window.Seconds()), burst),
		now: now, sleep: sleep,
	}
}

// wait returns once a call may go, or ctx's error.
func (p *pacer) wait(ctx context.Context) error {
	now := p.now()
	r := p.lim.ReserveN(now, 1)
	if !r.OK() {
		return errors.New("hubspot: rate limiter refused a single call")
	}
	if d := r.DelayFrom(now); d > 0 {
		if err := p.sleep(ctx, d); err != nil {
			r.CancelAt(p.now())
			return err
		}
	}
	return nil
}

// pacerFor returns the pacer of the connection whose HTTP client is hc. HubSpot
// counts per account, and the service hands each connection its own client; pacers
// idle for two windows are dropped.
func (c *Client) pacerFor(hc *http.Client) *pacer {
	c.mu.Lock()
	defer c.mu.Unlock()
	now := c.opts.Now()
	if len(c.limiters) > 64 {
		for k, p := range c.limiters {
			if now.Sub(p.used) > 2*c.opts.RateWindow {
				delete(c.limiters, k)
			}
		}
	}
	p, ok := c.limiters[hc]
	if !ok {
		p = newPacer(c.opts.RateLimit, c.opts.RateWindow, c.opts.Now, c.opts.Sleep)
		c.limiters[hc] = p
	}
	p.used = now
	return p
}
