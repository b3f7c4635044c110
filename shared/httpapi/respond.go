// Package httpapi is Firmo's HTTP layer: the route table per endpoint family,
// middleware (request ids, recovery, access log, body limit, authentication), strict
// JSON decoding, query parameter helpers, and the one JSON error shape.
//
// Handlers decode and validate requests into typed values, call a domain service and
// encode the answer; domain code never sees *http.Request.
package httpapi

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"log/slog"
	"net/http"
	"strconv"
	"time"

	"github.com/firmoapi/firmo/shared/apperr"
)

// ErrorBody is the one JSON error shape of every error response.
type ErrorBody struct {
	Error ErrorDetail `json:"error"`
}

// ErrorDetail is the content of ErrorBody.
type ErrorDetail struct {
	Code      string `json:"code"`
	Message   string `json:"message"`
	Field     string `json:"field,omitempty"`
	RequestID string `json:"request_id"`
}

// WriteJSON writes v as the JSON body with the status.
func WriteJSON(w http.ResponseWriter, status int, v any) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		status = http.StatusInternalServerError
		buf.Reset()
		buf.WriteString(`{"error":{"code":"internal_error","message":"The response could not be encoded."}}` + "\n")
	}
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	w.Write(buf.Bytes())
}

// WriteError answers err in the JSON error shape through the status table of apperr.
// Internal detail is logged with the request id, never sent.
func WriteError(w http.ResponseWriter, r *http.Request, log *slog.Logger, err error) {
	rid := RequestID(r.Context())
	if ClientGone(r, err) {
		// The client went away (Ctrl-C, a closed connection): nobody reads the answer and
		// the server did nothing wrong. 499 is the access log's "client closed request".
		log.InfoContext(r.Context(), "client disconnected", "request_id", rid, "err", err.Error())
		w.WriteHeader(StatusClientClosedRequest)
		return
	}
	d := apperr.Describe(err)
	if d.Internal || d.Status >= 500 {
		log.ErrorContext(r.Context(), "request failed", "request_id", rid, "status", d.Status, "err", err.Error())
	}
	if d.RetryAfter > 0 || d.Status == http.StatusTooManyRequests || d.Status == http.StatusServiceUnavailable {
		secs := int((d.RetryAfter + time.Second - 1) / time.Second)
		if secs < 1 {
			secs = 1
		}
		w.Header().Set("Retry-After", strconv.Itoa(secs))
	}
	WriteJSON(w, d.Status, ErrorBody{Error: ErrorDetail{Code: d.Code, Message: d.Message, Field: d.Field, RequestID: rid}})
}

// StatusClientClosedRequest is the access log's status of a request whose client
// disconnected before its answer (nginx's 499; never seen by a client).
const StatusClientClosedRequest = 499

// ClientGone reports whether err is the request's own context ending because its
// client disconnected (or gave up), not a failure of the server.
func ClientGone(r *http.Request, err error) bool {
	return errors.Is(err, context.Canceled) && errors.Is(r.Context().Err(), context.Canceled)
}

type ctxKey int

const (
	ridKey ctxKey = iota
	principalKey
)

// RequestID returns the id of the request being served.
func RequestID(ctx context.Context) string {
	s, _ := ctx.Value(ridKey).(string)
	return s
}
