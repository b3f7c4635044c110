package llm

import (
	"errors"
	"math"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/firmoapi/firmo/shared/apperr"
)

func TestPriceOfLongestPrefix(t *testing.T) {
	cases := []struct {
		provider, model string
		wantIn          float64
		wantSearch      bool
		known           bool
	}{
		{"openai", "gpt-4o-mini-2024-07-18", 0.15, false, true},
		{"openai", "gpt-4o-2024-08-06", 2.50, false, true},
		{"openai", "gpt-4o-mini-search-preview", 0.15, true, true},
		{"anthropic", "claude-sonnet-4-20250514", 3.00, true, true},
		{"anthropic", "claude-3-haiku-20240307", 0, false, false},
		{"custom", "gpt-4o", 0, false, false},
	}
	for _, c := range cases {
		t.Run(c.model, func(t *testing.T) {
			p, ok := PriceOf(c.provider, c.model)
			if ok != c.known || p.InputPerMTok != c.wantIn || SupportsWebSearch(c.provider, c.model) != c.wantSearch {
				t.Fatalf("got %+v %v", p, ok)
			}
		})
	}
	if got, want := Cost("anthropic", "claude-3-5-haiku-latest", 1_000_000, 500_000, 3), 0.80+2.00+0.03; math.Abs(got-want) > 1e-9 {
		t.Fatalf("Cost = %v, want %v", got, want)
	}
	for p, models := range Catalogue() {
		for _, m := range models {
			if _, ok := PriceOf(p, m.Name); !ok {
				t.Errorf("catalogue model %s/%s has no price", p, m.Name)
			}
		}
	}
}

func TestClassify(t *testing.T) {
	cases := []struct {
		name      string
		e         VendorError
		want      error
		retryable bool
	}{
		{"auth", VendorError{Status: 401, Message: "Incorrect API key provided: sk-abc...wxyz"}, ErrAuth, false},
		{"quota", VendorError{Status: 429, Code: "insufficient_quota"}, ErrOutOfCredits, false},
		{"402", VendorError{Status: 402}, ErrOutOfCredits, false},
		{"rate", VendorError{Status: 429, RetryAfter: 3 * time.Second}, ErrRateLimited, true},
		{"overloaded", VendorError{Status: 529}, ErrProvider, true},
		{"model", VendorError{Status: 404}, ErrBadModel, false},
		{"bad", VendorError{Status: 400, Message: "bad max_tokens"}, ErrProvider, false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			err := Classify("x", c.e)
			if !errors.Is(err, c.want) || apperr.IsRetryable(err) != c.retryable {
				t.Fatalf("got %v", err)
			}
			if got := apperr.RetryAfter(err); got != c.e.RetryAfter {
				t.Fatalf("RetryAfter = %v, want the vendor's %v", got, c.e.RetryAfter)
			}
			if c.name == "auth" && contains(err.Error(), "wxyz") {
				t.Fatalf("auth error echoes the key: %v", err)
			}
		})
	}
	h := http.Header{}
	h.Set("Retry-After", "12")
	if got := RetryAfter(h, time.Now()); got != 12*time.Second {
		t.Fatalf("RetryAfter = %v", got)
	}
}

func contains(s, sub string) bool { return strings.Contains(s, sub) }
