// Package kvlimit is the adapter of the ratelimit.Limiter port on the kv.Store, so
// that every Lambda instance counts against the same DynamoDB counters.
//
// Each key's window is one item, "ratelimit#<key>" / "w#<unix seconds of the window
// start>", counted with an atomic ADD. The first request of a window deletes the key's
// older window items, so a key keeps at most two items (DynamoDB Local stand-ins have no
// TTL expiry, and the port has no TTL either).
package kvlimit

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/firmoapi/firmo/shared/apperr"
	"github.com/firmoapi/firmo/shared/kv"
	"github.com/firmoapi/firmo/shared/ratelimit"
)

const (
	pkPrefix = "ratelimit#"
	skPrefix = "w#"
	counter  = "n"
)

// Limiter counts requests in a kv.Store.
type Limiter struct {
	store kv.Store
	now   func() time.Time
}

var _ ratelimit.Limiter = (*Limiter)(nil)

// New returns a limiter on store, reading the time from now (time.Now outside tests).
func New(store kv.Store, now func() time.Time) *Limiter {
	return &Limiter{store: store, now: now}
}

// Allow implements ratelimit.Limiter.
func (l *Limiter) Allow(ctx context.Context, key string, limit int) (ratelimit.Decision, error) {
	if key == "" || limit < 1 {
		return ratelimit.Decision{}, fmt.Errorf("rate limit key %q, limit %d: %w", key, limit, apperr.ErrInvalid)
	}
	start := ratelimit.WindowStart(l.now())
	k := kv.Key{PK: pkPrefix + key, SK: windowSK(start)}
	n, err := l.store.Add(ctx, k, counter, 1, kv.AddCond{})
	if err != nil {
		return ratelimit.Decision{}, fmt.Errorf("count request for %s: %w", key, err)
	}
	if n == 1 {
		l.dropOlder(ctx, k)
	}
	return ratelimit.Decide(n, limit, start), nil
}

// windowSK sorts windows in time order: fixed-width seconds.
func windowSK(start time.Time) string { return fmt.Sprintf("%s%012d", skPrefix, start.Unix()) }

// dropOlder deletes the key's windows before current. It is housekeeping: a failure
// leaves a stale item that the next window's first request deletes, so errors are ignored.
func (l *Limiter) dropOlder(ctx context.Context, current kv.Key) {
	page, err := l.store.Query(ctx, current.PK, kv.QueryOptions{Prefix: skPrefix, Limit: 10})
	if err != nil {
		return
	}
	for _, it := range page.Items {
		if strings.Compare(it.SK, current.SK) < 0 {
			l.store.Delete(ctx, it.Key, kv.Cond{})
		}
	}
}
