package httpapi

import (
	"net/http"
	"strconv"
	"time"

	"github.com/firmoapi/firmo/shared/apperr"
)

// Gate decides whether a route is served now: a non-nil error (an apperr 503 with
// RetryAfter, say) is answered in the JSON error shape instead of calling the route.
// `firmo serve` gates the routes that need the demo world while it is loading
// (shared/cli).
type Gate func(rt Route) error

// UseGate puts g in front of every route; call it before the first Handler serves.
// nil serves every route.
func (s *Server) UseGate(g Gate) { s.gate = g }

// writeGated answers a gate's refusal as WriteError does, without logging it: a
// server that is loading refuses every poll of /readyz, which is no failure.
func writeGated(w http.ResponseWriter, r *http.Request, err error) {
	d := apperr.Describe(err)
	if d.RetryAfter > 0 {
		w.Header().Set("Retry-After", strconv.Itoa(int((d.RetryAfter+time.Second-1)/time.Second)))
	}
	WriteJSON(w, d.Status, ErrorBody{Error: ErrorDetail{Code: d.Code, Message: d.Message, Field: d.Field, RequestID: RequestID(r.Context())}})
}
