package httpapi

import (
	"net/url"
	"strconv"
	"strings"

	"github.com/firmoapi/firmo/shared/apperr"
)

// Query is the validated query string of a request. Build it with ParseQuery, which
// rejects parameters the endpoint does not know.
type Query struct{ v url.Values }

// ParseQuery checks that every parameter is among allowed (422 naming the first
// unknown one, in sorted order so the answer is stable).
func ParseQuery(values url.Values, allowed ...string) (Query, error) {
	ok := make(map[string]bool, len(allowed))
	for _, a := range allowed {
		ok[a] = true
	}
	var unknown []string
	for name := range values {
		if !ok[name] {
			unknown = append(unknown, name)
		}
	}
	if len(unknown) > 0 {
		sortStrings(unknown)
		return Query{}, apperr.Invalid(unknown[0], "unknown query parameter %q", unknown[0])
	}
	return Query{v: values}, nil
}

func sortStrings(s []string) {
	for i := 1; i < len(s); i++ {
		for j := i; j > 0 && s[j] < s[j-1]; j-- {
			s[j], s[j-1] = s[j-1], s[j]
		}
	}
}

// Has reports whether the parameter was given.
func (q Query) Has(name string) bool { _, ok := q.v[name]; return ok }

// String returns the trimmed value of a single-valued parameter; repeating it is a 422.
func (q Query) String(name string) (string, error) {
	vals := q.v[name]
	switch len(vals) {
	case 0:
		return "", nil
	case 1:
		return strings.TrimSpace(vals[0]), nil
	}
	return "", apperr.Invalid(name, "give %s once", name)
}

// Required returns a single-valued parameter that must be present and non-blank.
func (q Query) Required(name string) (string, error) {
	s, err := q.String(name)
	if err != nil {
		return "", err
	}
	if s == "" {
		return "", apperr.Invalid(name, "%s is required", name)
	}
	return s, nil
}

// List returns a list parameter: repeated (?a=1&a=2) and comma-separated (?a=1,2)
// forms are both accepted, and mixed. Blank items are dropped.
func (q Query) List(name string) []string {
	var out []string
	for _, v := range q.v[name] {
		for _, item := range strings.Split(v, ",") {
			if item = strings.TrimSpace(item); item != "" {
				out = append(out, item)
			}
		}
	}
	return out
}

// Int returns an integer parameter in [min, max], or def when absent.
func (q Query) Int(name string, def, min, max int) (int, error) {
	s, err := q.String(name)
	if err != nil || s == "" {
		return def, err
	}
	n, err := strconv.Atoi(s)
	if err != nil {
		return 0, apperr.Invalid(name, "%s must be an integer, not %q", name, s)
	}
	if n < min || n > max {
		return 0, apperr.Invalid(name, "%s must be between %d and %d, not %d", name, min, max, n)
	}
	return n, nil
}

// Bool returns a boolean parameter (true/false/1/0), or def when absent.
func (q Query) Bool(name string, def bool) (bool, error) {
	s, err := q.String(name)
	if err != nil || s == "" {
		return def, err
	}
	b, err := strconv.ParseBool(strings.ToLower(s))
	if err != nil {
		return false, apperr.Invalid(name, "%s must be true or false, not %q", name, s)
	}
	return b, nil
}
