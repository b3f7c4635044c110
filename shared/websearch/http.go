package websearch

import (
	"fmt"
	"net/http"
	"strings"
)

// Classify turns a search API's HTTP failure into the port's errors: 401/403 ErrAuth;
// 402, or a body that speaks of credits or quota, ErrOutOfCredits; 429, 5xx and
// transport failures ErrUnavailable. body is the start of the response (no key in it:
// the APIs take keys in headers and do not echo them).
func Classify(provider string, status int, body string) error {
	if len(body) > 300 {
		body = body[:300] + "..."
	}
	detail := fmt.Sprintf("%s answered HTTP %d", provider, status)
	lower := strings.ToLower(body)
	switch {
	case status == http.StatusPaymentRequired || strings.Contains(lower, "credit") || strings.Contains(lower, "quota"):
		return fmt.Errorf("%w (%s: %s)", ErrOutOfCredits, detail, strings.TrimSpace(body))
	case status == http.StatusUnauthorized || status == http.StatusForbidden:
		return fmt.Errorf("%w (%s)", ErrAuth, detail)
	case status == http.StatusTooManyRequests || status >= 500:
		return fmt.Errorf("%w (%s)", ErrUnavailable, detail)
	default:
		return fmt.Errorf("search provider request failed (%s: %s)", detail, strings.TrimSpace(body))
	}
}

// StripTags removes the <strong> highlighting some APIs put into snippets.
func StripTags(s string) string {
	var b strings.Builder
	in := false
	for _, r := range s {
		switch {
		case r == '<':
			in = true
		case r == '>' && in:
			in = false
		case !in:
			b.WriteRune(r)
		}
	}
	return b.String()
}
