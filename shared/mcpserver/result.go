package mcpserver

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"sort"
	"strings"
	"unicode/utf8"

	"github.com/firmoapi/firmo/shared/client"
)

// toolError turns a failed API call into the error a tool returns, which the SDK sends
// as a tool result with IsError set: the agent reads the API's status, code, argument and
// message, and a hint of what to do. Any other failure (the server unreachable) is
// reported the same way, never as a protocol error.
func toolError(op string, err error) error {
	var e *client.Error
	if !errors.As(err, &e) {
		if errors.Is(err, context.DeadlineExceeded) || errors.Is(err, context.Canceled) {
			return fmt.Errorf("%s: the call was cut short (%v); try again", op, err)
		}
		return fmt.Errorf("%s: the Firmo API could not be reached: %v", op, err)
	}
	var b strings.Builder
	fmt.Fprintf(&b, "%s: the Firmo API answered %d", op, e.Status)
	if e.Code != "" {
		fmt.Fprintf(&b, " %s", e.Code)
	}
	if e.Field != "" {
		fmt.Fprintf(&b, " for argument %q", e.Field)
	}
	switch {
	case e.Message != "":
		fmt.Fprintf(&b, ": %s", e.Message)
	case len(e.Body) > 0:
		fmt.Fprintf(&b, ": %.200s", strings.TrimSpace(string(e.Body)))
	}
	if hint := hintFor(e); hint != "" {
		fmt.Fprintf(&b, " (%s)", hint)
	}
	if e.RequestID != "" {
		fmt.Fprintf(&b, " [request %s]", e.RequestID)
	}
	return errors.New(b.String())
}

func hintFor(e *client.Error) string {
	switch {
	case e.Field != "" && (e.Status == 400 || e.Status == 422):
		return fmt.Sprintf("fix %s and call again", e.Field)
	case e.Status == 401:
		return "the API key (FIRMO_API_KEY) is missing or invalid"
	case e.Status == 402:
		return "the organisation has too few credits; nothing was charged"
	case e.Status == 403:
		return "the key's plan or role does not allow this call"
	case e.Status == 429 || e.Status == 503:
		if e.RetryAfter > 0 {
			return fmt.Sprintf("try again in %.0f s", e.RetryAfter.Seconds())
		}
		return "try again shortly"
	}
	return ""
}

// mustJSON encodes a value known to encode.
func mustJSON(v any) json.RawMessage {
	b, err := json.Marshal(v)
	if err != nil {
		panic(fmt.Sprintf("mcpserver: encode %T: %v", v, err))
	}
	return b
}

// clip shortens s to at most n runes, marking the cut.
func clip(s string, n int) string {
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	r := []rune(s)
	return strings.TrimSpace(string(r[:n])) + "…"
}

// firstN returns at most n items of xs.
func firstN[T any](xs []T, n int) []T {
	if len(xs) > n {
		return xs[:n]
	}
	return xs
}

// topKeys returns the keys of m with the highest values, at most n, best first (ties
// by key, so answers are stable).
func topKeys(m map[string]float64, n int) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Slice(keys, func(i, j int) bool {
		if m[keys[i]] != m[keys[j]] {
			return m[keys[i]] > m[keys[j]]
		}
		return keys[i] < keys[j]
	})
	return firstN(keys, n)
}

// trimValue shortens a decoded JSON value for an agent: long strings are clipped, long
// arrays cut to their first items, deep nesting summarised.
func trimValue(v any, depth int) any {
	switch x := v.(type) {
	case string:
		return clip(x, 300)
	case []any:
		if depth > 3 {
			return fmt.Sprintf("[%d items]", len(x))
		}
		out := make([]any, 0, min(len(x), 10))
		for _, it := range firstN(x, 10) {
			out = append(out, trimValue(it, depth+1))
		}
		if len(x) > 10 {
			out = append(out, fmt.Sprintf("… %d more", len(x)-10))
		}
		return out
	case map[string]any:
		if depth > 3 {
			return fmt.Sprintf("{%d fields}", len(x))
		}
		out := make(map[string]any, len(x))
		for k, it := range x {
			out[k] = trimValue(it, depth+1)
		}
		return out
	}
	return v
}
