package httpapi

import (
	"bytes"
	"fmt"
	"net/http"
	"strings"

	"github.com/firmoapi/firmo/shared/apperr"
	"github.com/firmoapi/firmo/shared/billing"
)

// CodeResponseTooLarge is the error code of a response too large for the platform
// serving it (see ResponseLimit).
const CodeResponseTooLarge = "response_too_large"

// ResponseLimit bounds the responses of a platform that cannot carry more: AWS Lambda
// returns at most 6 MB from a synchronous invocation, counted on the JSON document its
// runtime sends back (escaping, base64 and headers included), and turns anything
// bigger into an error API Gateway answers as a 500. The local server has no limit.
type ResponseLimit struct {
	// Max is the largest response the platform carries, as Size counts it.
	Max int
	// Size measures a complete response as the platform carries it.
	Size func(status int, header http.Header, body []byte) int
}

// limitResponse holds each response whole (the platform sends nothing before the
// handler returns anyway) and, when the platform could not carry it, answers 422
// response_too_large instead: a clear error naming what to lower, never a 500 or a
// truncated body. 422 rather than 413: 413 is about the request's content (and is
// this API's answer to an oversized body), while here a valid request asks for more
// than this deployment can return at once; like a range violation, the error names the
// parameter to change.
func (s *Server) limitResponse(limit ResponseLimit, routeOf func(*http.Request) (Route, bool), next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		hw := &heldWriter{header: w.Header()}
		// The charges made while answering are held: an answer refused below is
		// charged nothing.
		ctx, held := billing.Hold(r.Context())
		next.ServeHTTP(hw, r.WithContext(ctx))
		if hw.status == 0 {
			hw.status = http.StatusOK
		}
		size := limit.Size(hw.status, w.Header(), hw.body.Bytes())
		if size <= limit.Max {
			w.WriteHeader(hw.status)
			if hw.body.Len() > 0 {
				w.Write(hw.body.Bytes())
			}
			return
		}
		rt, found := routeOf(r)
		pattern := ""
		if found {
			pattern = rt.Pattern()
		}
		gzipped := strings.EqualFold(w.Header().Get("Content-Encoding"), "gzip")
		// gzip helps only where the request refused it and the body is text.
		suggestGzip := !gzipped && !AcceptsGzip(r.Header) && compressible(w.Header().Get("Content-Type"))
		s.log.WarnContext(r.Context(), "response over the platform's limit; answered "+CodeResponseTooLarge,
			"request_id", RequestID(r.Context()), "route", pattern, "status", hw.status, "size", size, "limit", limit.Max, "gzip", gzipped)
		// The representation headers described the dropped body; the others (request
		// id, credits charged, rate limits, Vary) still hold.
		for _, k := range []string{"Content-Encoding", "Content-Length", "Content-Type", "Content-Disposition", "ETag", "Last-Modified"} {
			w.Header().Del(k)
		}
		if s.refunds != nil {
			if err := s.refunds.Refund(ctx, held); err != nil {
				s.log.ErrorContext(ctx, "refund the charges of a response too large", "request_id", RequestID(ctx), "err", err)
			}
		}
		SetCreditsCharged(w, 0)
		WriteError(w, r, s.log, responseTooLarge(rt, size, limit.Max, suggestGzip))
	})
}

// responseTooLarge says how big the response was and what would make it fit: gzip
// when it would help, then the parameters the route declares as bounding its size
// (Route.SizeParams), or a generic hint.
func responseTooLarge(rt Route, size, max int, suggestGzip bool) *apperr.Error {
	var fixes []string
	if suggestGzip {
		fixes = append(fixes, "send Accept-Encoding: gzip")
	}
	field := ""
	if len(rt.SizeParams) > 0 {
		field = rt.SizeParams[0]
		fixes = append(fixes, "lower "+strings.Join(rt.SizeParams, " or "))
	} else {
		fixes = append(fixes, "ask for less in one request")
	}
	return &apperr.Error{Kind: apperr.ErrInvalid, Code: CodeResponseTooLarge, Field: field, Message: fmt.Sprintf(
		"The response would be %.1f MB, over the %.0f MB this deployment can return at once; %s.",
		float64(size)/(1<<20), float64(max)/(1<<20), strings.Join(fixes, ", or "))}
}

// heldWriter keeps a whole response: the header map is the real writer's (nothing is
// sent before WriteHeader on it), the status and body are held.
type heldWriter struct {
	header http.Header
	status int
	body   bytes.Buffer
}

func (w *heldWriter) Header() http.Header { return w.header }

func (w *heldWriter) WriteHeader(code int) {
	if w.status == 0 && code >= 200 { // informational statuses cannot go through the platform
		w.status = code
	}
}

func (w *heldWriter) Write(b []byte) (int, error) {
	if w.status == 0 {
		w.status = http.StatusOK
	}
	return w.body.Write(b)
}

// Flush does nothing: the platform sends the response when the handler returns.
func (w *heldWriter) Flush() {}
