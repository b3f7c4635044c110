package emailpattern

import (
	"fmt"
	"strings"

	"github.com/firmoapi/firmo/shared/apperr"
)

// Template is a local-part pattern in canonical form: placeholders {first}, {last}, {f}
// (first initial) and {l} (last initial) joined by nothing or one of ". _ -", for
// example "{first}.{last}" or "{f}{last}".
type Template string

// token is one element of a template: a placeholder or a separator.
type token string

const (
	tokFirst token = "{first}"
	tokLast  token = "{last}"
	tokF     token = "{f}"
	tokL     token = "{l}"
)

// CommonTemplates are the corporate patterns tried when nothing better is known, most
// common first (the order follows published surveys of corporate address formats:
// first.last and flast dominate, then firstlast, first, f.last and the rest).
var CommonTemplates = []Template{
	"{first}.{last}",
	"{f}{last}",
	"{first}{last}",
	"{first}",
	"{f}.{last}",
	"{first}_{last}",
	"{last}{f}",
	"{last}.{first}",
	"{first}.{l}",
	"{last}",
	"{first}{l}",
	"{first}-{last}",
	"{l}.{first}",
	"{f}_{last}",
	"{last}{first}",
	"{last}_{first}",
	"{last}-{first}",
	"{f}-{last}",
	"{last}.{f}",
	"{f}{l}",
	"{l}{first}",
	"{first}_{l}",
	"{last}_{f}",
}

// verifyTemplates is how many of CommonTemplates the default verify round tries.
const verifyTemplates = 9

// ParseTemplate reads a local-part pattern in template form ("{first}.{last}", also
// "{first_initial}", "{last_initial}", any case, optionally followed by "@domain") or
// in the short form used by pattern names ("first.last", "flast", "f.last", "lastf",
// "first.l"). The error names field.
func ParseTemplate(field, s string) (Template, error) {
	raw := strings.ToLower(strings.TrimSpace(s))
	if at := strings.IndexByte(raw, '@'); at >= 0 {
		raw = raw[:at]
	}
	if raw == "" {
		return "", apperr.Invalid(field, "the pattern is empty")
	}
	toks, err := tokenize(raw)
	if err != nil {
		return "", apperr.Invalid(field, "%q is not a pattern: %v; use placeholders {first}, {last}, {f}, {l} joined by nothing, '.', '_' or '-' (for example {first}.{last} or flast)", s, err)
	}
	return Template(joinTokens(toks)), nil
}

var placeholders = map[string]token{
	"{first}": tokFirst, "{last}": tokLast, "{f}": tokF, "{l}": tokL,
	"{first_initial}": tokF, "{last_initial}": tokL, "{fi}": tokF, "{li}": tokL,
	"{firstname}": tokFirst, "{lastname}": tokLast, "{first_name}": tokFirst, "{last_name}": tokLast,
}

// tokenize splits a template or a short pattern name into tokens. Short names are read
// greedily: "first" and "last" before the initials "f" and "l", so "flast" is {f}{last}.
func tokenize(s string) ([]token, error) {
	var toks []token
	names := 0
	for len(s) > 0 {
		switch {
		case s[0] == '{':
			end := strings.IndexByte(s, '}')
			if end < 0 {
				return nil, fmt.Errorf("unclosed {")
			}
			tok, ok := placeholders[s[:end+1]]
			if !ok {
				return nil, fmt.Errorf("unknown placeholder %s", s[:end+1])
			}
			toks, s = append(toks, tok), s[end+1:]
			names++
		case s[0] == '.' || s[0] == '_' || s[0] == '-':
			if len(toks) == 0 || isSep(toks[len(toks)-1]) {
				return nil, fmt.Errorf("a separator must sit between two names")
			}
			toks, s = append(toks, token(s[:1])), s[1:]
		case strings.HasPrefix(s, "first"):
			toks, s = append(toks, tokFirst), s[len("first"):]
			names++
		case strings.HasPrefix(s, "last"):
			toks, s = append(toks, tokLast), s[len("last"):]
			names++
		case s[0] == 'f':
			toks, s = append(toks, tokF), s[1:]
			names++
		case s[0] == 'l':
			toks, s = append(toks, tokL), s[1:]
			names++
		default:
			return nil, fmt.Errorf("unexpected %q", s[:1])
		}
	}
	if names == 0 {
		return nil, fmt.Errorf("it has no name placeholder")
	}
	if names > 3 {
		return nil, fmt.Errorf("it has more than three name placeholders")
	}
	if isSep(toks[len(toks)-1]) {
		return nil, fmt.Errorf("it ends with a separator")
	}
	return toks, nil
}

func isSep(t token) bool { return t == "." || t == "_" || t == "-" }

func joinTokens(toks []token) string {
	var b strings.Builder
	for _, t := range toks {
		b.WriteString(string(t))
	}
	return b.String()
}

func (t Template) tokens() []token {
	toks, err := tokenize(string(t))
	if err != nil {
		return nil
	}
	return toks
}

// Apply builds a local part from the template and one spelling of each name. It
// returns "" when the template needs a name that is empty.
func (t Template) Apply(first, last string) string {
	var b strings.Builder
	for _, tok := range t.tokens() {
		var part string
		switch tok {
		case tokFirst:
			part = first
		case tokLast:
			part = last
		case tokF:
			part = initial(first)
		case tokL:
			part = initial(last)
		default:
			b.WriteString(string(tok))
			continue
		}
		if part == "" {
			return ""
		}
		b.WriteString(part)
	}
	return b.String()
}

func initial(s string) string {
	if s == "" {
		return ""
	}
	return s[:1]
}
