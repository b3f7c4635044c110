// Package apperr defines the sentinel error kinds shared by every Firmo package
// and the single table that maps them to HTTP statuses and error codes.
//
// Domain code wraps a kind with context (fmt.Errorf("get task %s: %w", id, apperr.ErrNotFound))
// or builds a richer *Error with a field name and a client-facing message.
package apperr

import (
	"errors"
	"fmt"
	"net/http"
	"time"
)

// Kind is a category of failure. Kinds are comparable sentinels used with errors.Is.
type Kind struct{ name string }

func (k *Kind) Error() string { return k.name }

// The kinds. Each maps to exactly one HTTP status in Status.
var (
	ErrInvalid         = &Kind{"invalid"}          // request shape: 422 validation_error
	ErrBadRequest      = &Kind{"bad request"}      // business rule: 400
	ErrUnauthorized    = &Kind{"unauthorized"}     // 401
	ErrPaymentRequired = &Kind{"payment required"} // 402 insufficient credits
	ErrForbidden       = &Kind{"forbidden"}        // 403 wrong role
	ErrPlanRequired    = &Kind{"plan required"}    // 403 plan tier too low
	ErrNotFound        = &Kind{"not found"}        // 404
	ErrMethod          = &Kind{"method not allowed"}
	ErrConflict        = &Kind{"conflict"}       // 409; also a failed conditional write
	ErrTooLarge        = &Kind{"too large"}      // 413
	ErrRateLimited     = &Kind{"rate limited"}   // 429
	ErrUnavailable     = &Kind{"unavailable"}    // 503 dependency down
	ErrInternal        = &Kind{"internal error"} // 500
)

type kindInfo struct {
	status int
	code   string
}

// table is the one mapping from kind to HTTP status and default error code.
var table = map[*Kind]kindInfo{
	ErrInvalid:         {http.StatusUnprocessableEntity, "validation_error"},
	ErrBadRequest:      {http.StatusBadRequest, "bad_request"},
	ErrUnauthorized:    {http.StatusUnauthorized, "unauthorized"},
	ErrPaymentRequired: {http.StatusPaymentRequired, "insufficient_credits"},
	ErrForbidden:       {http.StatusForbidden, "forbidden"},
	ErrPlanRequired:    {http.StatusForbidden, "plan_required"},
	ErrNotFound:        {http.StatusNotFound, "not_found"},
	ErrMethod:          {http.StatusMethodNotAllowed, "method_not_allowed"},
	ErrConflict:        {http.StatusConflict, "conflict"},
	ErrTooLarge:        {http.StatusRequestEntityTooLarge, "payload_too_large"},
	ErrRateLimited:     {http.StatusTooManyRequests, "rate_limited"},
	ErrUnavailable:     {http.StatusServiceUnavailable, "service_unavailable"},
	ErrInternal:        {http.StatusInternalServerError, "internal_error"},
}

// Error is a client-facing error: a kind plus an optional specific code, message,
// offending field and retry hint. Its message is safe to show to API users.
type Error struct {
	Kind       *Kind
	Code       string        // overrides the kind's default code, e.g. TYPED_NO_TYPED_COLUMNS
	Message    string        // one clear sentence for the API user
	Field      string        // the offending parameter, dotted for nested fields
	RetryAfter time.Duration // for 429 and 503
}

func (e *Error) Error() string {
	if e.Field != "" {
		return fmt.Sprintf("%s: %s (%s)", e.Kind.name, e.Message, e.Field)
	}
	return fmt.Sprintf("%s: %s", e.Kind.name, e.Message)
}

// Unwrap lets errors.Is(err, apperr.ErrNotFound) see through an *Error.
func (e *Error) Unwrap() error { return e.Kind }

// New builds an *Error of the given kind with a client-facing message.
func New(kind *Kind, msg string) *Error { return &Error{Kind: kind, Message: msg} }

// Invalid reports a request-shape violation on one field (422 validation_error).
func Invalid(field, format string, args ...any) *Error {
	return &Error{Kind: ErrInvalid, Field: field, Message: fmt.Sprintf(format, args...)}
}

// BadRequest reports a business-rule violation (400) with an optional specific code.
func BadRequest(code, format string, args ...any) *Error {
	return &Error{Kind: ErrBadRequest, Code: code, Message: fmt.Sprintf(format, args...)}
}

// NotFound reports an unknown resource (404).
func NotFound(format string, args ...any) *Error {
	return &Error{Kind: ErrNotFound, Message: fmt.Sprintf(format, args...)}
}

// Response is what the HTTP layer needs to answer an error.
type Response struct {
	Status     int
	Code       string
	Message    string
	Field      string
	RetryAfter time.Duration
	Internal   bool // message must not be shown; log the error instead
}

// Describe maps any error to its HTTP answer through the one table. Errors that carry
// no kind are internal: their text is never shown to the client.
func Describe(err error) Response {
	var e *Error
	if errors.As(err, &e) && e.Kind != nil {
		info := table[e.Kind]
		code := info.code
		if e.Code != "" {
			code = e.Code
		}
		msg := e.Message
		if msg == "" {
			msg = defaultMessage(e.Kind)
		}
		return Response{Status: info.status, Code: code, Message: msg, Field: e.Field, RetryAfter: e.RetryAfter, Internal: info.status >= 500 && e.Message == ""}
	}
	for kind, info := range table {
		if errors.Is(err, kind) {
			if info.status >= 500 {
				return Response{Status: info.status, Code: info.code, Message: defaultMessage(kind), Internal: true}
			}
			// A bare wrapped sentinel: its wrapping context is written for developers,
			// so show the kind's generic sentence rather than internal detail.
			return Response{Status: info.status, Code: info.code, Message: defaultMessage(kind)}
		}
	}
	return Response{Status: http.StatusInternalServerError, Code: "internal_error", Message: defaultMessage(ErrInternal), Internal: true}
}

// Status returns the HTTP status for err.
func Status(err error) int { return Describe(err).Status }

func defaultMessage(k *Kind) string {
	switch k {
	case ErrInvalid:
		return "The request is invalid."
	case ErrBadRequest:
		return "The request cannot be processed."
	case ErrUnauthorized:
		return "A valid API key is required: send it in the x-service-key header or as Authorization: Bearer <key>."
	case ErrPaymentRequired:
		return "The organisation does not have enough credits for this request."
	case ErrForbidden:
		return "Your role does not allow this operation."
	case ErrPlanRequired:
		return "Your plan does not include this endpoint."
	case ErrNotFound:
		return "The requested resource was not found."
	case ErrMethod:
		return "This method is not allowed on this path."
	case ErrConflict:
		return "The resource was changed by another request; retry."
	case ErrTooLarge:
		return "The request body is too large."
	case ErrRateLimited:
		return "Rate limit exceeded; retry after the time given in Retry-After."
	case ErrUnavailable:
		return "A dependency is temporarily unavailable; retry after the time given in Retry-After."
	default:
		return "An internal error occurred; quote the request id when reporting it."
	}
}
