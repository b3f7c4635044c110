package namematch

import (
	"strings"
	"unicode"
	"unicode/utf8"

	"golang.org/x/text/unicode/norm"

	"github.com/firmoapi/firmo/shared/apperr"
)

// MaxNameRunes bounds a name to match (longer input is a 422, not truncated).
const MaxNameRunes = 300

// Name is a company name reduced to the tokens matching compares.
type Name struct {
	// Tokens are the comparison tokens in order: folded, without punctuation,
	// connectors or legal forms, initials merged, abbreviations expanded unless the
	// name was normalized for strict matching.
	Tokens []string
}

// String is the tokens joined by single spaces: the name's normalized form.
func (n Name) String() string { return strings.Join(n.Tokens, " ") }

// Joined is the tokens without spaces ("coca cola" and "cocacola" meet here).
func (n Name) Joined() string { return strings.Join(n.Tokens, "") }

// Acronym is the first letters of a name of three or more tokens, skipping
// stopwords ("International Business Machines" gives "ibm"); "" otherwise. Two-letter
// acronyms are not kept: they collide with far too many names.
func (n Name) Acronym() string {
	var b strings.Builder
	count := 0
	for _, t := range n.Tokens {
		if stopwords[t] {
			continue
		}
		r, _ := utf8.DecodeRuneInString(t)
		if !unicode.IsLetter(r) {
			return ""
		}
		b.WriteRune(r)
		count++
	}
	if count < 3 {
		return ""
	}
	return b.String()
}

// ParseName validates and normalizes the name parameter: a name with no letter or
// digit (empty after whitespace and punctuation are stripped) or longer than
// MaxNameRunes is a 422 naming field. expand selects abbreviation expansion (off in
// strict mode).
func ParseName(field, raw string, expand bool) (Name, error) {
	if utf8.RuneCountInString(raw) > MaxNameRunes {
		return Name{}, apperr.Invalid(field, "%s is at most %d characters", field, MaxNameRunes)
	}
	if !utf8.ValidString(raw) {
		return Name{}, apperr.Invalid(field, "%s must be valid UTF-8", field)
	}
	n := Normalize(raw, expand)
	if len(n.Tokens) == 0 {
		return Name{}, apperr.Invalid(field, "%s must contain a letter or a digit once whitespace and punctuation are stripped", field)
	}
	return n, nil
}

// Normalize reduces a company name to its comparison tokens:
//
//  1. Unicode folding: compatibility decomposition, accents dropped, lower case, and
//     the letters that do not decompose written out (ß ss, æ ae, œ oe, ø o, ł l, đ d, þ th).
//  2. Punctuation: apostrophes vanish ("McDonald's" is "mcdonalds"); every other
//     non-letter, non-digit is a separator. "&" or "+" written between two short
//     words without spaces joins them ("AT&T" is "att", "P&G" is "pg").
//  3. Connectors ("&", "+", "and", "und", "et", "y", "e", "en", "och", "og") between
//     two words are dropped, so "Rossi & Bianchi" = "Rossi and Bianchi" = "Rossi Bianchi".
//  4. Initials: a run of single letters is one token ("A.B.C." and "A B C" are "abc",
//     "J. P. Morgan" is "jp morgan"), so a name of initials never becomes a row of
//     one-letter tokens that would match everything.
//  5. A leading "the" and leading legal forms (PT, OOO, ...) are dropped, then legal
//     forms at the end, repeatedly ("Foo Holdings Co., Ltd." loses "co ltd"; "Müller
//     GmbH & Co. KG" loses "kg", "co", "gmbh"). A name is never reduced to nothing: a
//     name that is only a legal form keeps it.
//  6. With expand, abbreviations and variants become one canonical word ("Intl" and
//     "Int'l" are "international", "Mfg" is "manufacturing", "Technologies" is
//     "technology"); see abbreviations.
func Normalize(raw string, expand bool) Name {
	toks := tokenize(fold(raw))
	toks = dropConnectors(toks)
	toks = mergeInitials(toks)
	toks = stripLegal(toks)
	if expand {
		for i, t := range toks {
			if e, ok := abbreviations[t]; ok {
				toks[i] = e
			}
		}
	}
	return Name{Tokens: toks}
}

// letters that NFKD does not decompose into a base letter and a mark.
var foldLetters = strings.NewReplacer("ß", "ss", "ẞ", "ss", "æ", "ae", "Æ", "ae", "œ", "oe", "Œ", "oe",
	"ø", "o", "Ø", "o", "ł", "l", "Ł", "l", "đ", "d", "Đ", "d", "ð", "d", "Ð", "d", "þ", "th", "Þ", "th", "ı", "i")

// fold lower-cases s and removes accents.
func fold(s string) string {
	s = foldLetters.Replace(s)
	s = norm.NFKD.String(s)
	var b strings.Builder
	b.Grow(len(s))
	for _, r := range s {
		if unicode.Is(unicode.Mn, r) {
			continue
		}
		b.WriteRune(unicode.ToLower(r))
	}
	return b.String()
}

func isApostrophe(r rune) bool {
	return r == '\'' || r == '’' || r == 'ʼ' || r == '`' || r == '´' || r == '‘'
}

func isWord(r rune) bool { return unicode.IsLetter(r) || unicode.IsDigit(r) }

// connector is the token tokenize emits for "&" and "+".
const connector = "&"

// tokenize splits folded text into words and connector tokens.
func tokenize(s string) []string {
	var toks []string
	var cur strings.Builder
	flush := func() {
		if cur.Len() > 0 {
			toks = append(toks, cur.String())
			cur.Reset()
		}
	}
	rs := []rune(s)
	for i := 0; i < len(rs); i++ {
		r := rs[i]
		switch {
		case isWord(r):
			cur.WriteRune(r)
		case isApostrophe(r):
			// Inside a word an apostrophe vanishes; elsewhere it separates.
			if !(cur.Len() > 0 && i+1 < len(rs) && isWord(rs[i+1])) {
				flush()
			}
		case r == '&' || r == '+':
			if tightAmpersand(rs, i, cur.String()) {
				continue // "AT&T": the two sides stay one word
			}
			flush()
			toks = append(toks, connector)
		default:
			flush()
		}
	}
	flush()
	return toks
}

// tightAmpersand reports whether the "&" at rs[i] joins two short words written
// without spaces ("AT&T", "P&G", "H&M"): the word before (cur) and the word after
// are at most two characters.
func tightAmpersand(rs []rune, i int, cur string) bool {
	if cur == "" || utf8.RuneCountInString(cur) > 2 || i+1 >= len(rs) || !isWord(rs[i+1]) {
		return false
	}
	n := 0
	for j := i + 1; j < len(rs) && isWord(rs[j]); j++ {
		n++
	}
	return n <= 2
}

// connectors are the words for "and" dropped between two words.
var connectors = map[string]bool{connector: true, "and": true, "und": true, "et": true, "y": true, "e": true, "en": true, "och": true, "og": true}

func dropConnectors(toks []string) []string {
	out := toks[:0:0]
	for i, t := range toks {
		if connectors[t] {
			between := i > 0 && i+1 < len(toks) && !connectors[toks[i-1]] && !connectors[toks[i+1]]
			single := len(t) == 1 && t != connector
			// A one-letter connector ("e", "y") only counts between real words, so the
			// initials of "E. Y. Partners" stay initials.
			if t == connector || (between && (!single || (len(toks[i-1]) > 1 && len(toks[i+1]) > 1))) {
				continue
			}
		}
		out = append(out, t)
	}
	return out
}

// mergeInitials joins runs of two or more single letters into one token.
func mergeInitials(toks []string) []string {
	out := toks[:0:0]
	for i := 0; i < len(toks); {
		j := i
		for j < len(toks) && singleLetter(toks[j]) {
			j++
		}
		if j-i >= 2 {
			out = append(out, strings.Join(toks[i:j], ""))
			i = j
			continue
		}
		out = append(out, toks[i])
		i++
	}
	return out
}

func singleLetter(t string) bool {
	r, n := utf8.DecodeRuneInString(t)
	return n == len(t) && unicode.IsLetter(r)
}

// stripLegal drops a leading article and legal forms at both ends, keeping at least
// one token.
func stripLegal(toks []string) []string {
	for len(toks) > 1 && (toks[0] == "the" || legalPrefixes[toks[0]]) {
		toks = toks[1:]
	}
	for len(toks) > 1 {
		n := legalSuffixLen(toks)
		if n == 0 || n >= len(toks) {
			break
		}
		toks = toks[:len(toks)-n]
	}
	return stripLegalAffixes(toks)
}

// stripLegalAffixes drops legal forms written inside a word, as Japanese, Chinese and
// Korean names do ("トヨタ自動車株式会社", "株式会社トヨタ"), keeping a non-empty word.
func stripLegalAffixes(toks []string) []string {
	if len(toks) == 0 {
		return toks
	}
	for _, a := range legalAffixes {
		last := toks[len(toks)-1]
		if len(last) > len(a) && strings.HasSuffix(last, a) {
			toks[len(toks)-1] = strings.TrimSuffix(last, a)
			break
		}
	}
	for _, a := range legalAffixes {
		if len(toks[0]) > len(a) && strings.HasPrefix(toks[0], a) {
			toks[0] = strings.TrimPrefix(toks[0], a)
			break
		}
	}
	return toks
}

// legalSuffixLen is the token count of the longest legal form ending toks, 0 if none.
func legalSuffixLen(toks []string) int {
	for n := min(maxLegalTokens, len(toks)-1); n >= 1; n-- {
		if legalForms[strings.Join(toks[len(toks)-n:], " ")] {
			return n
		}
	}
	return 0
}
