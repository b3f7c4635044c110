package apperr

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"testing"
	"time"
)

var errCause = errors.New("dial tcp 10.0.0.7:5432: password authentication failed for user firmo")

func TestRetryable(t *testing.T) {
	inner := &Error{Kind: ErrRateLimited, Message: "slow down"}
	tests := []struct {
		name      string
		err       error
		wantIs    []error // errors.Is must hold for each
		wantText  string
		wantAfter time.Duration
	}{
		{"plain cause", Retryable(errCause, 3*time.Second), []error{errCause, ErrUnavailable}, errCause.Error(), 3 * time.Second},
		{"wrapped sentinel", Retryable(fmt.Errorf("get x: %w", ErrNotFound), 0), []error{ErrNotFound, ErrUnavailable}, "get x: not found", 0},
		{"app error inside", Retryable(inner, time.Second), []error{inner, ErrRateLimited, ErrUnavailable}, inner.Error(), time.Second},
		{"negative hint is none", Retryable(errCause, -time.Second), []error{errCause, ErrUnavailable}, errCause.Error(), 0},
		{"rewrapped", fmt.Errorf("call: %w", Retryable(errCause, time.Minute)), []error{errCause, ErrUnavailable}, "call: " + errCause.Error(), time.Minute},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			for _, target := range tt.wantIs {
				if !errors.Is(tt.err, target) {
					t.Errorf("errors.Is(%v, %v) = false, want true", tt.err, target)
				}
			}
			if got := tt.err.Error(); got != tt.wantText {
				t.Errorf("Error() = %q, want %q", got, tt.wantText)
			}
			if got := RetryAfter(tt.err); got != tt.wantAfter {
				t.Errorf("RetryAfter() = %v, want %v", got, tt.wantAfter)
			}
			if !IsRetryable(tt.err) {
				t.Error("IsRetryable() = false, want true")
			}
		})
	}
}

func TestRetryableKeepsAs(t *testing.T) {
	inner := Invalid("domain", "is required")
	var got *Error
	if !errors.As(Retryable(inner, 0), &got) || got != inner {
		t.Fatalf("errors.As found %v, want the wrapped *Error", got)
	}
	if u := errors.Unwrap(Retryable(errCause, 0)); u != errCause {
		t.Fatalf("errors.Unwrap = %v, want the wrapped error", u)
	}
}

func TestRetryableNil(t *testing.T) {
	if err := Retryable(nil, time.Second); err != nil {
		t.Fatalf("Retryable(nil) = %v, want nil", err)
	}
}

func TestIsRetryable(t *testing.T) {
	tests := []struct {
		name string
		err  error
		want bool
	}{
		{"nil", nil, false},
		{"unknown error", errCause, false},
		{"retryable", Retryable(errCause, 0), true},
		{"unavailable sentinel", fmt.Errorf("put: %w: %w", ErrUnavailable, errCause), true},
		{"unavailable app error", &Error{Kind: ErrUnavailable, Message: "down"}, true},
		{"rate limited", &Error{Kind: ErrRateLimited, Message: "slow down"}, true},
		{"conflict: a failed conditional write", fmt.Errorf("put k: condition failed: %w", ErrConflict), true},
		{"deadline exceeded", fmt.Errorf("call: %w", context.DeadlineExceeded), true},
		{"joined with an unavailable", errors.Join(errCause, ErrUnavailable), true},
		{"canceled: nobody waits", fmt.Errorf("call: %w", context.Canceled), false},
		{"internal", fmt.Errorf("bug: %w", ErrInternal), false},
		{"not found", NotFound("no task %s", "t1"), false},
		{"invalid", Invalid("x", "bad"), false},
		{"payment required", ErrPaymentRequired, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := IsRetryable(tt.err); got != tt.want {
				t.Errorf("IsRetryable(%v) = %v, want %v", tt.err, got, tt.want)
			}
		})
	}
}

func TestRetryAfter(t *testing.T) {
	tests := []struct {
		name string
		err  error
		want time.Duration
	}{
		{"nil", nil, 0},
		{"no hint anywhere", fmt.Errorf("x: %w", ErrUnavailable), 0},
		{"retryable without hint", Retryable(errCause, 0), 0},
		{"retryable hint", Retryable(errCause, 2*time.Second), 2 * time.Second},
		{"app error hint", &Error{Kind: ErrUnavailable, RetryAfter: 5 * time.Minute}, 5 * time.Minute},
		{"wrapped app error hint", fmt.Errorf("match: %w", &Error{Kind: ErrRateLimited, RetryAfter: 7 * time.Second}), 7 * time.Second},
		{"outer hint wins", Retryable(&Error{Kind: ErrUnavailable, RetryAfter: time.Second}, time.Minute), time.Minute},
		{"outer without hint defers to inner", Retryable(&Error{Kind: ErrUnavailable, RetryAfter: time.Second}, 0), time.Second},
		{"joined: first hint in order", errors.Join(errCause, Retryable(errCause, 3*time.Second), &Error{Kind: ErrRateLimited, RetryAfter: time.Hour}), 3 * time.Second},
		{"multiple %w", fmt.Errorf("%w; %w", errCause, Retryable(errCause, 4*time.Second)), 4 * time.Second},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := RetryAfter(tt.err); got != tt.want {
				t.Errorf("RetryAfter(%v) = %v, want %v", tt.err, got, tt.want)
			}
		})
	}
}

// TestDescribeRetryable: a retryable error answers 503 with its hint and the kind's
// generic sentence; the wrapped text, written for the logs, never reaches the client.
func TestDescribeRetryable(t *testing.T) {
	tests := []struct {
		name         string
		err          error
		wantStatus   int
		wantCode     string
		wantMessage  string
		wantAfter    time.Duration
		wantInternal bool
	}{
		{"plain cause", Retryable(errCause, 3*time.Second), 503, "service_unavailable", defaultMessage(ErrUnavailable), 3 * time.Second, true},
		{"rewrapped cause", fmt.Errorf("charge: %w", Retryable(errCause, 0)), 503, "service_unavailable", defaultMessage(ErrUnavailable), 0, true},
		{"retry outranks a client kind", Retryable(fmt.Errorf("lookup: %w", ErrNotFound), time.Second), 503, "service_unavailable", defaultMessage(ErrUnavailable), time.Second, true},
		{"a bug stays a 500", Retryable(fmt.Errorf("index: %w", ErrInternal), time.Second), 500, "internal_error", defaultMessage(ErrInternal), time.Second, true},
		{"app error keeps its answer and gains the hint", Retryable(&Error{Kind: ErrRateLimited, Message: "The embedding provider is rate limiting requests."}, 2*time.Second),
			http.StatusTooManyRequests, "rate_limited", "The embedding provider is rate limiting requests.", 2 * time.Second, false},
		{"app error's own hint", &Error{Kind: ErrUnavailable, Message: "Index down.", RetryAfter: 9 * time.Second}, 503, "service_unavailable", "Index down.", 9 * time.Second, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := Describe(tt.err)
			want := Response{Status: tt.wantStatus, Code: tt.wantCode, Message: tt.wantMessage, RetryAfter: tt.wantAfter, Internal: tt.wantInternal}
			if got != want {
				t.Errorf("Describe() = %+v, want %+v", got, want)
			}
		})
	}
}

// allKinds lists every declared kind; the table must hold each exactly once.
var allKinds = []*Kind{ErrInvalid, ErrBadRequest, ErrUnauthorized, ErrPaymentRequired, ErrForbidden, ErrPlanRequired,
	ErrNotFound, ErrMethod, ErrConflict, ErrTooLarge, ErrRateLimited, ErrUnavailable, ErrInternal}

func TestTableCoversEveryKindOnce(t *testing.T) {
	seen := map[*Kind]int{}
	for _, row := range table {
		seen[row.kind]++
	}
	for _, k := range allKinds {
		if seen[k] != 1 {
			t.Errorf("kind %q is in the table %d times, want 1", k, seen[k])
		}
	}
	if len(table) != len(allKinds) {
		t.Errorf("table has %d rows for %d kinds", len(table), len(allKinds))
	}
}

// TestDescribePrecedence: an error wrapping two kinds maps to the one earlier in the
// table, whichever order it wraps them in and however often it is asked (a map
// iterated in random order once made this flaky).
func TestDescribePrecedence(t *testing.T) {
	for i, first := range table {
		for _, second := range table[i+1:] {
			wraps := map[string]error{
				"first then second": fmt.Errorf("%w: %w", first.kind, second.kind),
				"second then first": fmt.Errorf("%w: %w", second.kind, first.kind),
				"joined":            errors.Join(second.kind, first.kind),
				"nested":            fmt.Errorf("outer: %w", fmt.Errorf("%w: inner: %w", second.kind, first.kind)),
			}
			for how, err := range wraps {
				t.Run(fmt.Sprintf("%s over %s/%s", first.kind, second.kind, how), func(t *testing.T) {
					for range 20 {
						got := Describe(err)
						if got.Status != first.status || got.Code != first.code {
							t.Fatalf("Describe(%v) = %d %s, want %d %s", err, got.Status, got.Code, first.status, first.code)
						}
					}
				})
			}
		}
	}
}

// TestDescribeSpotPrecedence pins the orders that matter most, so a reordering of the
// table is a deliberate act.
func TestDescribeSpotPrecedence(t *testing.T) {
	tests := []struct {
		name       string
		err        error
		wantStatus int
	}{
		{"outage over not found", fmt.Errorf("%w: %w", ErrNotFound, ErrUnavailable), http.StatusServiceUnavailable},
		{"bug over outage", errors.Join(ErrUnavailable, ErrInternal), http.StatusInternalServerError},
		{"unauthorized over forbidden", fmt.Errorf("%w: %w", ErrForbidden, ErrUnauthorized), http.StatusUnauthorized},
		{"forbidden over not found", fmt.Errorf("%w: %w", ErrNotFound, ErrForbidden), http.StatusForbidden},
		{"invalid over conflict", fmt.Errorf("%w: %w", ErrConflict, ErrInvalid), http.StatusUnprocessableEntity},
		{"outage over conflict", fmt.Errorf("%w: %w", ErrConflict, ErrUnavailable), http.StatusServiceUnavailable},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := Describe(tt.err).Status; got != tt.wantStatus {
				t.Errorf("Describe(%v).Status = %d, want %d", tt.err, got, tt.wantStatus)
			}
		})
	}
}

func TestDescribeUnknownKindIsInternal(t *testing.T) {
	got := Describe(&Error{Kind: &Kind{"made up"}})
	if got.Status != http.StatusInternalServerError || got.Code != "internal_error" || !got.Internal {
		t.Fatalf("Describe(unknown kind) = %+v, want an internal 500", got)
	}
}
