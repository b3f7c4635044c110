package billing

import (
	"context"
	"fmt"

	"github.com/firmoapi/firmo/shared/apperr"
)

// A charge is recorded under the route that was called ("POST /v1/bulkmatch"), and
// that route travels in the context rather than as an argument: the HTTP server puts
// the called route there for every authenticated request, and the task engine keeps
// it with a task and puts it back when the task's records run, so the handlers and
// domains that charge never name an endpoint and cannot name the wrong one.

type routeKey struct{}

// WithRoute returns ctx carrying the route pattern that charges made under it are
// recorded as (the ledger's and usage report's endpoint).
func WithRoute(ctx context.Context, pattern string) context.Context {
	return context.WithValue(ctx, routeKey{}, pattern)
}

// RouteOf is the route WithRoute put in ctx, "" when none.
func RouteOf(ctx context.Context) string {
	r, _ := ctx.Value(routeKey{}).(string)
	return r
}

// routeFor is the route a charge in ctx is recorded under. None is a wiring bug (a
// code path that charges outside a request or a task), never the client's fault:
// an internal error, rather than a ledger entry no endpoint accounts for.
func routeFor(ctx context.Context) (string, error) {
	r := RouteOf(ctx)
	if r == "" {
		return "", fmt.Errorf("charge made outside any route (no billing.WithRoute in the context): %w", apperr.ErrInternal)
	}
	return r, nil
}
