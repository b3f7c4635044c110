// Package apperr defines the sentinel error kinds shared by every Firmo package
// and the single table that maps them to HTTP statuses and error codes.
//
// Domain code wraps a kind with context (fmt.Errorf("get task %s: %w", id, apperr.ErrNotFound))
// or builds a richer *Error with a field name and a client-facing message. A transient
// failure is marked with Retryable; every retrier (the task engine, the Step Functions
// steps) asks IsRetryable and RetryAfter, so adapters need not know who retries them.
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
	kind   *Kind
	status int
	code   string
}

// table is the one mapping from kind to HTTP status and default error code. It is
// ordered: when an error wraps several kinds (fmt.Errorf("%w: %w", ...), errors.Join,
// Retryable), the first row it matches decides the answer, so the answer never
// depends on map order. Server-side failures come first, most severe first, because
// they make whatever else the chain says untrustworthy: a bug (500), a dependency
// down (503; every Retryable error matches it), throttling (429). Then who the caller
// is (401), what they may do (403 role, 403 plan, 402 credits), the request's shape
// (405, 413, 422, 400), and last the state of the resource (404, 409).
var table = []kindInfo{
	{ErrInternal, http.StatusInternalServerError, "internal_error"},
	{ErrUnavailable, http.StatusServiceUnavailable, "service_unavailable"},
	{ErrRateLimited, http.StatusTooManyRequests, "rate_limited"},
	{ErrUnauthorized, http.StatusUnauthorized, "unauthorized"},
	{ErrForbidden, http.StatusForbidden, "forbidden"},
	{ErrPlanRequired, http.StatusForbidden, "plan_required"},
	{ErrPaymentRequired, http.StatusPaymentRequired, "insufficient_credits"},
	{ErrMethod, http.StatusMethodNotAllowed, "method_not_allowed"},
	{ErrTooLarge, http.StatusRequestEntityTooLarge, "payload_too_large"},
	{ErrInvalid, http.StatusUnprocessableEntity, "validation_error"},
	{ErrBadRequest, http.StatusBadRequest, "bad_request"},
	{ErrNotFound, http.StatusNotFound, "not_found"},
	{ErrConflict, http.StatusConflict, "conflict"},
}

// internal is the answer to an error of no known kind.
var internal = kindInfo{ErrInternal, http.StatusInternalServerError, "internal_error"}

// infoOf returns k's row; a kind missing from the table (a zero &Kind{} built
// elsewhere) is answered as internal rather than with status 0.
func infoOf(k *Kind) kindInfo {
	for _, info := range table {
		if info.kind == k {
			return info
		}
	}
	return internal
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
// no kind are internal: their text is never shown to the client. An *Error anywhere
// in the chain is its author's deliberate answer and wins over bare kinds; otherwise
// the first row of the table the error matches decides. RetryAfter is the hint the
// error carries (see RetryAfter), whichever way the status was found.
func Describe(err error) Response {
	var e *Error
	if errors.As(err, &e) && e.Kind != nil {
		info := infoOf(e.Kind)
		code := info.code
		if e.Code != "" {
			code = e.Code
		}
		msg := e.Message
		if msg == "" {
			msg = defaultMessage(info.kind)
		}
		return Response{Status: info.status, Code: code, Message: msg, Field: e.Field, RetryAfter: RetryAfter(err), Internal: info.status >= 500 && e.Message == ""}
	}
	info := internal
	for _, row := range table {
		if errors.Is(err, row.kind) {
			info = row
			break
		}
	}
	// A bare wrapped sentinel's text is written for developers (and a 5xx's may hold
	// internal detail), so the client gets the kind's generic sentence.
	return Response{Status: info.status, Code: info.code, Message: defaultMessage(info.kind), RetryAfter: RetryAfter(err), Internal: info.status >= 500}
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
