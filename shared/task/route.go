package task

import (
	"context"
	"errors"

	"github.com/firmoapi/firmo/shared/apperr"
	"github.com/firmoapi/firmo/shared/billing"
)

// A task's records run long after the request that submitted it, often in another
// process (the SQS worker on AWS), yet what they deliver is charged to that request's
// route. So Submit keeps the route of its context (billing.WithRoute, set by the HTTP
// server) in the task's meta item, and Handle puts it back in the context of every
// record: the processors charge without knowing which route they serve.

// legacyRoutes are the routes the charging kinds were billed under, by kind name,
// before the engine kept the submitting route. A task stored then has no route of its
// own and charges under its kind's, as it did, rather than failing. One label changes:
// email_find tasks submitted by POST /v1/email/find kept their route in their
// parameters, which the engine does not read, so the last of their charges are
// recorded under the batch route (credits and dedupe are the same). Nothing new
// belongs here: every task stored now has its route, and once the tasks stored before
// have ended this table can go.
var legacyRoutes = map[string]string{
	"gen_process":          "POST /v1/gen/process",
	"gen_process_personas": "POST /v1/gen/process-personas",
	"email_find":           "POST /v1/email/find/batch",
	"bulkmatch":            "POST /v1/bulkmatch",
}

// chargeRoute is the route the task's charges are recorded under: the one that
// submitted it, else (a task stored before routes were recorded, or submitted outside
// any route) its kind's legacy route, else "" and its charges are refused.
func (t Task) chargeRoute() string {
	if t.Route != "" {
		return t.Route
	}
	return legacyRoutes[t.Kind]
}

// withRoute returns ctx carrying the route t's charges are recorded under. It
// replaces whatever route ctx had, even with none: a task's charges never take the
// route of the request or worker that happens to run them.
func (t Task) withRoute(ctx context.Context) context.Context {
	return billing.WithRoute(ctx, t.chargeRoute())
}

// RouteContext returns ctx carrying the route that submitted task r, for work charged
// on the task's behalf outside its records (bulk match bills its results when a status
// request delivers them, and records them under the submitting route as its records
// are). Another organisation's task is not found.
func (e *Engine) RouteContext(ctx context.Context, r Ref) (context.Context, error) {
	t, _, err := e.store.getMeta(ctx, r)
	if errors.Is(err, apperr.ErrNotFound) {
		return ctx, notFound(r)
	}
	if err != nil {
		return ctx, err
	}
	return t.withRoute(ctx), nil
}
