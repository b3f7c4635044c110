package title

import (
	"fmt"
	"strings"

	"github.com/firmoapi/firmo/shared/apperr"
)

// Limits on a title filter, so that one request cannot make matching expensive.
const (
	MaxTerms   = 100 // terms per filter
	MaxTermLen = 200 // bytes per term
)

// Query is a parsed contact-search title filter (the API reference's `title` and `negate_title`).
//
// Each item of the filter is one term, and terms are OR-ed: a title matches when any term
// matches. A term prefixed with "+" is required: a title matches only when every required
// term matches and, if the filter also has optional terms, at least one of those. A filter
// of required terms only is an AND of them.
//
// A term matches on word boundaries, ignoring case and accents: "cto" matches "CTO" and
// "C.T.O." but not "Director". An unquoted term of several words matches when all its
// words occur in the title, in any order ("sales manager" matches "Manager, Sales"). A
// quoted term ("\"head of sales\"") matches only that exact phrase.
//
// Unquoted terms expand C-suite acronyms and their spelled-out forms both ways: "CTO"
// matches "Chief Technology Officer" and "Chief Technical Officer", and "Chief Technology
// Officer" matches "CTO". An acronym with several readings expands to all of them ("CCO":
// Chief Commercial and Chief Customer Officer); a spelled-out form expands to its own
// synonyms and its acronym only, so "Chief Customer Officer" matches "CCO" but not "Chief
// Commercial Officer". VP, SVP, EVP and AVP expand to their Vice President forms the same
// way. Quoted terms never expand: "\"CTO\"" matches only the word CTO.
//
// The zero Query matches nothing; build one with ParseQuery.
type Query struct {
	terms []Term
}

// Term is one parsed term of a Query.
type Term struct {
	text     string
	required bool
	quoted   bool
	groups   [][][]string // all groups must match; a group matches when any of its phrases does
}

// Text returns the term as given, without its "+" prefix and quotes.
func (t Term) Text() string { return t.text }

// Required reports whether the term had a "+" prefix.
func (t Term) Required() bool { return t.required }

// Quoted reports whether the term was a quoted phrase.
func (t Term) Quoted() bool { return t.quoted }

// Groups returns what the term needs, for building a search-engine query: every group
// must occur in the title, and a group occurs when any of its normalized phrases does
// (as consecutive words). A quoted term is one group of one phrase.
func (t Term) Groups() [][]string {
	out := make([][]string, len(t.groups))
	for i, g := range t.groups {
		for _, phrase := range g {
			out[i] = append(out[i], strings.Join(phrase, " "))
		}
	}
	return out
}

// ParseQuery parses the items of a title filter. A blank list, a blank term, a term
// with no letters or digits, misplaced quotes and terms over the limits are rejected with
// an apperr.Invalid error on the field "title".
func ParseQuery(items []string) (Query, error) {
	if len(items) == 0 {
		return Query{}, apperr.Invalid("title", "give at least one title term")
	}
	if len(items) > MaxTerms {
		return Query{}, apperr.Invalid("title", "give at most %d title terms", MaxTerms)
	}
	q := Query{terms: make([]Term, 0, len(items))}
	for i, item := range items {
		t, err := parseTerm(item)
		if err != nil {
			return Query{}, fmt.Errorf("title term %d: %w", i+1, err)
		}
		q.terms = append(q.terms, t)
	}
	return q, nil
}

// Terms returns the parsed terms in the order given.
func (q Query) Terms() []Term { return append([]Term(nil), q.terms...) }

// Match reports whether a job title satisfies the query.
func (q Query) Match(title string) bool {
	if len(q.terms) == 0 {
		return false
	}
	toks := tokens(title)
	anyOptional, optionalMatched := false, false
	for _, t := range q.terms {
		ok := t.match(toks)
		if t.required {
			if !ok {
				return false
			}
			continue
		}
		anyOptional = true
		optionalMatched = optionalMatched || ok
	}
	return !anyOptional || optionalMatched
}

func (t Term) match(toks []string) bool {
	for _, g := range t.groups {
		if !anyPhrase(toks, g) {
			return false
		}
	}
	return true
}

func anyPhrase(toks []string, phrases [][]string) bool {
	for _, p := range phrases {
		if containsPhrase(toks, p) {
			return true
		}
	}
	return false
}

// quoteRunes are the quote marks a term may be wrapped in; typographic quotes arrive
// from text pasted out of documents.
const quoteRunes = "\"“”„«»"

func parseTerm(item string) (Term, error) {
	s := strings.TrimSpace(item)
	if len(s) > MaxTermLen {
		return Term{}, apperr.Invalid("title", "a title term is longer than %d characters", MaxTermLen)
	}
	var t Term
	if rest, ok := strings.CutPrefix(s, "+"); ok {
		t.required = true
		s = strings.TrimSpace(rest)
		if strings.HasPrefix(s, "+") {
			return Term{}, apperr.Invalid("title", "a title term takes at most one + prefix")
		}
	}
	if s == "" {
		return Term{}, apperr.Invalid("title", "a title term is empty")
	}
	if inner, ok := unquote(s); ok {
		t.quoted = true
		s = strings.TrimSpace(inner)
		if s == "" {
			return Term{}, apperr.Invalid("title", "a quoted title term is empty")
		}
	}
	if strings.ContainsAny(s, quoteRunes) {
		return Term{}, apperr.Invalid("title", "quotes must enclose a whole title term, as in \"head of sales\"")
	}
	t.text = s
	toks := tokens(s)
	if len(toks) == 0 {
		return Term{}, apperr.Invalid("title", "the title term %q has no letters or digits", s)
	}
	if t.quoted {
		t.groups = [][][]string{{toks}}
	} else {
		t.groups = expand(compiled(), toks)
	}
	return t, nil
}

// unquote strips one pair of quote marks enclosing s.
func unquote(s string) (string, bool) {
	r := []rune(s)
	if len(r) >= 2 && strings.ContainsRune(quoteRunes, r[0]) && strings.ContainsRune(quoteRunes, r[len(r)-1]) {
		return string(r[1 : len(r)-1]), true
	}
	return "", false
}

// expand turns the words of an unquoted term into groups: a spelled-out role form
// becomes one group of its synonyms and acronym, an acronym one group of itself and its
// forms, and any other word a group of itself.
func expand(ix *index, toks []string) [][][]string {
	var groups [][][]string
	for i := 0; i < len(toks); {
		if form := ix.formAt(toks, i); form != nil {
			r := ix.byForm[strings.Join(form, " ")]
			groups = append(groups, roleAlternatives(r.acronym, []*role{r}))
			i += len(form)
			continue
		}
		if roles := ix.byAcronym[toks[i]]; len(roles) > 0 {
			groups = append(groups, roleAlternatives(toks[i], roles))
		} else {
			groups = append(groups, [][]string{{toks[i]}})
		}
		i++
	}
	return groups
}

// formAt returns the longest spelled-out role form at position i of toks.
func (ix *index) formAt(toks []string, i int) []string {
	for _, f := range ix.formFirst[toks[i]] {
		if hasPhraseAt(toks, i, f) {
			return f
		}
	}
	return nil
}

func roleAlternatives(acronym string, roles []*role) [][]string {
	var alts [][]string
	if acronym != "" {
		alts = append(alts, []string{acronym})
	}
	for _, r := range roles {
		for _, f := range r.forms {
			alts = append(alts, strings.Fields(f))
		}
	}
	return alts
}
