package llm

import (
	"encoding/json"
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/firmoapi/firmo/shared/apperr"
)

// VendorError is what an adapter knows about a failed call.
type VendorError struct {
	Status     int
	Code       string // vendor error code ("insufficient_quota", "rate_limit_exceeded", ...)
	Type       string // vendor error type ("invalid_request_error", "overloaded_error", ...)
	Message    string // vendor message; never contains the key (vendors do not echo it)
	RetryAfter time.Duration
}

// Classify turns a vendor failure into the port's error kinds: 401/403 are ErrAuth
// (not retryable); out of credit or quota (OpenAI's 429 insufficient_quota, 402, and
// Anthropic's "credit balance is too low") is ErrOutOfCredits; other 429s, 5xx and
// Anthropic's 529 overloaded are apperr.Retryable (with the vendor's Retry-After), so
// whoever retries them (the task engine) needs no knowledge of LLM vendors; 404 is
// ErrBadModel.
func Classify(provider string, e VendorError) error {
	msg := strings.TrimSpace(e.Message)
	if len(msg) > 300 {
		msg = msg[:300] + "..."
	}
	detail := fmt.Sprintf("%s answered HTTP %d", provider, e.Status)
	if msg != "" {
		detail += ": " + msg
	}
	lower := strings.ToLower(e.Code + " " + e.Type + " " + msg)
	switch {
	case e.Code == "insufficient_quota" || e.Status == http.StatusPaymentRequired ||
		strings.Contains(lower, "credit balance") || strings.Contains(lower, "insufficient_quota") || strings.Contains(lower, "billing"):
		return fmt.Errorf("%w (%s)", ErrOutOfCredits, detail)
	case e.Status == http.StatusUnauthorized || e.Status == http.StatusForbidden:
		// Vendors echo part of a wrong key in this message ("Incorrect API key
		// provided: sk-...abcd"): leave it out so no response or log shows it.
		return fmt.Errorf("%w (%s answered HTTP %d)", ErrAuth, provider, e.Status)
	case e.Status == http.StatusTooManyRequests:
		return apperr.Retryable(fmt.Errorf("%w (%s)", ErrRateLimited, detail), e.RetryAfter)
	case e.Status == http.StatusNotFound:
		return fmt.Errorf("%w (%s)", ErrBadModel, detail)
	case e.Status >= 500 || e.Status == 408 || e.Status == 0:
		return apperr.Retryable(fmt.Errorf("%w (%s)", ErrProvider, detail), e.RetryAfter)
	default:
		return fmt.Errorf("%w (%s)", ErrProvider, detail)
	}
}

// RetryAfter parses a Retry-After header (seconds or HTTP date); 0 when absent.
func RetryAfter(h http.Header, now time.Time) time.Duration {
	v := strings.TrimSpace(h.Get("Retry-After"))
	if v == "" {
		return 0
	}
	if s, err := strconv.ParseFloat(v, 64); err == nil && s >= 0 {
		return time.Duration(s * float64(time.Second))
	}
	if t, err := http.ParseTime(v); err == nil && t.After(now) {
		return t.Sub(now)
	}
	return 0
}

// SchemaInstruction is the sentence adapters add to the system prompt when a request
// gives a JSONSchema, so a vendor without structured output still learns the shape.
func SchemaInstruction(schema map[string]any) string {
	b, err := json.Marshal(schema)
	if err != nil {
		return "Answer with one JSON object and nothing else."
	}
	return "Answer with one JSON object and nothing else, valid against this JSON Schema: " + string(b)
}

// JSONInstruction is the sentence adapters add to the system prompt when a request
// asks for JSONFields, so every vendor gets the same instruction.
func JSONInstruction(fields []string) string {
	q := make([]string, len(fields))
	for i, f := range fields {
		q[i] = strconv.Quote(f)
	}
	return "Answer with one JSON object and nothing else. Its keys are exactly: " + strings.Join(q, ", ") +
		". Each value is a string; use an empty string when the answer is unknown."
}
