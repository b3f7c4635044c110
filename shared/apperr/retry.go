package apperr

import (
	"context"
	"errors"
	"time"
)

// retryable marks a failure as transient. It is unexported so that there is one way
// to say "retry me" (Retryable) and one way to ask (IsRetryable, RetryAfter).
type retryable struct {
	err   error
	after time.Duration
}

// Error is the wrapped error's text unchanged: the mark is a classification, and
// callers that show a failure's text (task error cells, connection tests) should not
// have to strip a prefix.
func (r *retryable) Error() string { return r.err.Error() }

// Unwrap keeps the wrapped chain visible to errors.Is and errors.As.
func (r *retryable) Unwrap() error { return r.err }

// Is makes every retryable error an ErrUnavailable, so the HTTP layer answers it as a
// 503 with Retry-After without knowing about this type.
func (r *retryable) Is(target error) bool { return target == ErrUnavailable }

// Retryable marks err as a transient failure worth retrying (a rate limit, a timeout,
// a 5xx of a provider). after is the provider's hint (Retry-After), 0 when it gave
// none; a negative hint counts as none. Retryable(nil, d) is nil.
//
// The result is an ErrUnavailable for errors.Is, and errors.Is/As still see err's
// chain. Through Describe it answers 503 with the hint as Retry-After and the kind's
// generic message, never err's text; an *Error inside err keeps its status and
// message (the hint is added), and an ErrInternal inside stays a 500 (see table).
func Retryable(err error, after time.Duration) error {
	if err == nil {
		return nil
	}
	return &retryable{err: err, after: max(after, 0)}
}

// IsRetryable reports whether err is worth retrying as it is: it is (or wraps)
// ErrUnavailable, which includes every Retryable error, ErrRateLimited,
// context.DeadlineExceeded (the attempt ran out of time, the next may not), or
// ErrConflict.
//
// ErrConflict counts because it means another writer got in between: a failed
// conditional write, a request id being charged concurrently. Retrying the whole unit
// of work re-reads and then usually succeeds. The kind also covers uniqueness
// violations (a user with this email exists) that no retry fixes; those cost a
// retrier a few bounded attempts before the same error is reported, which is cheaper
// than losing a record to a race. Code that owns an optimistic read-modify-write
// loop still retries it locally, where it can re-read at once.
//
// context.Canceled does not count: the caller gave up, and nobody waits for a retry.
func IsRetryable(err error) bool {
	if err == nil {
		return false
	}
	return errors.Is(err, ErrUnavailable) || errors.Is(err, ErrRateLimited) ||
		errors.Is(err, ErrConflict) || errors.Is(err, context.DeadlineExceeded)
}

// RetryAfter is the retry hint err carries: the after of a Retryable wrapper or the
// RetryAfter of an *Error, whichever comes first in err's chain with a positive value
// (the outer layer knows more about the failure); 0 when none does. errors.Join and
// multiple %w are searched depth-first, in order, as errors.Is does.
func RetryAfter(err error) time.Duration {
	switch e := err.(type) {
	case nil:
		return 0
	case *retryable:
		if e.after > 0 {
			return e.after
		}
	case *Error:
		if e.RetryAfter > 0 {
			return e.RetryAfter
		}
	}
	switch u := err.(type) {
	case interface{ Unwrap() error }:
		return RetryAfter(u.Unwrap())
	case interface{ Unwrap() []error }:
		for _, inner := range u.Unwrap() {
			if d := RetryAfter(inner); d > 0 {
				return d
			}
		}
	}
	return 0
}
