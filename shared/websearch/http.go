package websearch

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strings"
)

// maxAnswer bounds the answer of a search API read into memory.
const maxAnswer = 4 << 20

// Endpoint is what a search API adapter holds: the API key, the base URL without a
// trailing slash, and the HTTP client (the guarded one in production).
type Endpoint struct {
	Key, Base string
	HTTP      *http.Client
}

// EndpointDeps are what an Endpoint is made from.
type EndpointDeps struct {
	// Key is the API key.
	Key string
	// Base is the API's base URL (a stand-in's in tests); "" means DefaultBase.
	Base string
	// DefaultBase is the provider's own base URL.
	DefaultBase string
	// HTTP sends the requests (the guarded client in production).
	HTTP *http.Client
}

// NewEndpoint makes an Endpoint.
func NewEndpoint(d EndpointDeps) Endpoint {
	if d.Base == "" {
		d.Base = d.DefaultBase
	}
	return Endpoint{Key: d.Key, Base: strings.TrimRight(d.Base, "/"), HTTP: d.HTTP}
}

// Call sends req with client and decodes an HTTP 200 JSON answer into out: the part
// every search API adapter shares. A transport failure and an unreadable or
// undecodable answer are ErrUnavailable, other statuses go through Classify, and a
// request whose context ended returns the context's error. provider names the API in
// the errors.
func Call(client *http.Client, provider string, req *http.Request, out any) error {
	resp, err := client.Do(req)
	if err != nil {
		if ctxErr := req.Context().Err(); ctxErr != nil {
			return ctxErr
		}
		return fmt.Errorf("%w (%s: %v)", ErrUnavailable, provider, err)
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(io.LimitReader(resp.Body, maxAnswer))
	if err != nil {
		return fmt.Errorf("%w (%s: reading the answer: %v)", ErrUnavailable, provider, err)
	}
	if resp.StatusCode != http.StatusOK {
		return Classify(provider, resp.StatusCode, string(body))
	}
	if err := json.Unmarshal(body, out); err != nil {
		return fmt.Errorf("%w (%s: undecodable answer: %v)", ErrUnavailable, provider, err)
	}
	return nil
}

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
