package apperr

import (
	"errors"
	"fmt"
	"net/http"
	"testing"
)

func TestDescribe(t *testing.T) {
	tests := []struct {
		name         string
		err          error
		wantStatus   int
		wantCode     string
		wantField    string
		wantInternal bool
	}{
		{"invalid field", Invalid("max_records", "must be between 20 and 10000"), 422, "validation_error", "max_records", false},
		{"wrapped invalid", fmt.Errorf("decode: %w", Invalid("domain", "is required")), 422, "validation_error", "domain", false},
		{"bad request with code", BadRequest("TYPED_NO_TYPED_COLUMNS", "no judgment"), 400, "TYPED_NO_TYPED_COLUMNS", "", false},
		{"wrapped sentinel not found", fmt.Errorf("get task 1: %w", ErrNotFound), 404, "not_found", "", false},
		{"plan", &Error{Kind: ErrPlanRequired, Message: "needs STARTER"}, 403, "plan_required", "", false},
		{"forbidden", ErrForbidden, 403, "forbidden", "", false},
		{"unknown error is internal", errors.New("boom: db password wrong"), 500, "internal_error", "", true},
		{"unavailable sentinel is internal", fmt.Errorf("dial: %w", ErrUnavailable), 503, "service_unavailable", "", true},
		{"rate limited", ErrRateLimited, http.StatusTooManyRequests, "rate_limited", "", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := Describe(tt.err)
			if got.Status != tt.wantStatus || got.Code != tt.wantCode || got.Field != tt.wantField || got.Internal != tt.wantInternal {
				t.Errorf("Describe() = %+v, want status %d code %s field %q internal %v", got, tt.wantStatus, tt.wantCode, tt.wantField, tt.wantInternal)
			}
			if got.Message == "" {
				t.Error("empty message")
			}
		})
	}
}

func TestInternalTextNeverShown(t *testing.T) {
	got := Describe(fmt.Errorf("query: secret detail: %w", ErrInternal))
	if got.Message != defaultMessage(ErrInternal) {
		t.Errorf("internal detail leaked: %q", got.Message)
	}
}

func TestIsThroughError(t *testing.T) {
	err := fmt.Errorf("ctx: %w", Invalid("x", "bad"))
	if !errors.Is(err, ErrInvalid) {
		t.Fatal("errors.Is does not see the kind")
	}
}
