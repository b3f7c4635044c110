package httpapi

import (
	"fmt"
	"net/http"
	"strconv"
	"time"

	"github.com/firmoapi/firmo/shared/account"
	"github.com/firmoapi/firmo/shared/apperr"
	"github.com/firmoapi/firmo/shared/ratelimit"
)

// Rate-limit response headers, on every authenticated response while limits are on.
const (
	HeaderRateLimit     = "X-RateLimit-Limit"     // requests allowed per minute
	HeaderRateRemaining = "X-RateLimit-Remaining" // requests left in the current minute
	HeaderRateReset     = "X-RateLimit-Reset"     // Unix time (seconds) the current minute ends
)

// UseRateLimits turns on per-organisation, per-endpoint limits counted by l (memlimit
// locally, kvlimit on AWS); nil turns them off. Limits follow ratelimit.Limit: the
// route's base (Route.RateLimit, or the ratelimit table) times the plan multiplier.
func (s *Server) UseRateLimits(l ratelimit.Limiter) { s.limiter = l }

// rateLimit counts the request against the caller's organisation and the route, sets
// the rate-limit headers, and refuses (429 with Retry-After) beyond the limit.
func (s *Server) rateLimit(w http.ResponseWriter, r *http.Request, rt Route, p account.Principal) error {
	if s.limiter == nil {
		return nil
	}
	pattern := rt.Pattern()
	limit := ratelimit.Limit(p.Org.Plan, pattern, rt.RateLimit)
	d, err := s.limiter.Allow(r.Context(), p.Org.ID+" "+pattern, limit)
	if err != nil {
		// Limits protect the service; they are not worth an outage of their own, so a
		// failing counter store lets the request through (and says so in the log).
		s.log.WarnContext(r.Context(), "rate limiter unavailable; request allowed", "request_id", RequestID(r.Context()), "err", err.Error())
		return nil
	}
	h := w.Header()
	h.Set(HeaderRateLimit, strconv.Itoa(d.Limit))
	h.Set(HeaderRateRemaining, strconv.Itoa(d.Remaining))
	h.Set(HeaderRateReset, strconv.FormatInt(d.Reset.Unix(), 10))
	if d.Allowed {
		return nil
	}
	wait := d.RetryAfter(time.Now())
	return &apperr.Error{Kind: apperr.ErrRateLimited, RetryAfter: wait, Message: fmt.Sprintf(
		"Rate limit exceeded: %s allows %d requests per minute on the %s plan; retry in %d seconds.",
		pattern, d.Limit, p.Org.Plan, int((wait+time.Second-1)/time.Second))}
}
