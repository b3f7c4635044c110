// Package ratelimit is the request rate-limiting port and Firmo's limit policy.
//
// Limits are per organisation and endpoint, counted in fixed one-minute windows aligned
// to the wall clock (a window starts at a whole minute), so every Lambda instance that
// shares the counters agrees on the window without talking to the others.
//
// Adapters: memlimit (in-process, the local composition) and kvlimit (counters in the
// kv.Store, shared across Lambda instances through DynamoDB). Both pass the contract
// suite ratelimittest.Run.
//
// The policy (Limit) is one table: a base per-minute figure per endpoint, the API reference's CRM
// figures among them and DefaultBase for every other endpoint, times a plan multiplier.
package ratelimit

import (
	"context"
	"time"

	"github.com/firmoapi/firmo/shared/account"
)

// Window is the length of one counting window.
const Window = time.Minute

// Decision is the outcome of counting one request.
type Decision struct {
	Allowed   bool
	Limit     int       // requests allowed in the window
	Remaining int       // requests left in the window after this one (0 when refused)
	Reset     time.Time // when the current window ends and the count starts again
}

// RetryAfter is how long a refused caller should wait, at least one second.
func (d Decision) RetryAfter(now time.Time) time.Duration {
	wait := d.Reset.Sub(now)
	if wait < time.Second {
		return time.Second
	}
	return wait
}

// Limiter counts requests per key in fixed windows of length Window.
// Errors: apperr.ErrInvalid for an empty key or a limit below 1; storage errors otherwise.
type Limiter interface {
	// Allow counts one request against key and says whether it fits within limit.
	Allow(ctx context.Context, key string, limit int) (Decision, error)
}

// WindowStart is the start of the window holding t.
func WindowStart(t time.Time) time.Time { return t.UTC().Truncate(Window) }

// Decide turns the count of requests so far in the window starting at start (this one
// included) into a Decision. Adapters share it so they answer alike.
func Decide(count int64, limit int, start time.Time) Decision {
	d := Decision{Allowed: count <= int64(limit), Limit: limit, Reset: start.Add(Window)}
	if d.Allowed {
		d.Remaining = limit - int(count)
	}
	return d
}

// DefaultBase is the per-minute base of every endpoint the table below does not list,
// for the FREE plan; a route may set its own base (httpapi.Route.RateLimit).
const DefaultBase = 120

// baseLimits are the API reference's CRM figures (requests per minute, before the plan
// multiplier), keyed by route pattern. They win over a route's own setting, because the
// spec fixes them.
var baseLimits = map[string]int{
	"GET /v1/crm/connections":              20,
	"GET /v1/crm/{provider}/authorize":     10,
	"POST /v1/crm/{provider}/suppress":     5,
	"DELETE /v1/crm/{provider}/connection": 10,
}

// multipliers scale the base by plan: FREE 1x, STARTER 2x, PRO 5x, ENTERPRISE 20x.
var multipliers = map[account.Plan]int{
	account.PlanFree:       1,
	account.PlanStarter:    2,
	account.PlanPro:        5,
	account.PlanEnterprise: 20,
}

// Multiplier is the plan's factor on base limits; an unknown plan counts as FREE.
func Multiplier(p account.Plan) int {
	if m, ok := multipliers[p]; ok {
		return m
	}
	return 1
}

// Base is the per-minute base of a route pattern ("GET /v1/crm/connections"): the
// spec's figure when it has one, else routeBase when positive, else DefaultBase.
func Base(pattern string, routeBase int) int {
	if b, ok := baseLimits[pattern]; ok {
		return b
	}
	if routeBase > 0 {
		return routeBase
	}
	return DefaultBase
}

// Limit is the per-minute limit of a route pattern for an organisation on plan p.
func Limit(p account.Plan, pattern string, routeBase int) int {
	return Base(pattern, routeBase) * Multiplier(p)
}
