package emailpattern

import (
	"strings"
	"unicode"

	"golang.org/x/text/unicode/norm"
)

// foldSpecial maps letters that Unicode decomposition does not reduce to ASCII. Mail
// systems build addresses from the ASCII spelling people type, so ß becomes "ss" and
// ø becomes "o" rather than being dropped.
var foldSpecial = map[rune]string{
	'ß': "ss", 'ẞ': "ss",
	'ø': "o", 'Ø': "o",
	'æ': "ae", 'Æ': "ae",
	'œ': "oe", 'Œ': "oe",
	'ł': "l", 'Ł': "l",
	'đ': "d", 'Đ': "d",
	'ð': "d", 'Ð': "d",
	'þ': "th", 'Þ': "th",
	'ı': "i",
	'ħ': "h", 'Ħ': "h",
	'ŀ': "l", 'Ŀ': "l",
	'ŉ': "n",
	'ĸ': "k",
}

// translit is the transliterated spelling of letters that folding reduces to their
// base letter (ü -> ue where folding gives u, ø -> oe where it gives o, å -> aa): mail
// systems use both, "s.muller" at one company and "s.mueller" at the next, so both are
// candidates (Candidates), the domain's known addresses deciding which comes first
// (Spelling).
var translit = map[rune]string{
	'ä': "ae", 'Ä': "ae",
	'ö': "oe", 'Ö': "oe",
	'ü': "ue", 'Ü': "ue",
	'ø': "oe", 'Ø': "oe",
	'å': "aa", 'Å': "aa",
}

// Spelling is how a domain's addresses write letters with two ASCII spellings (see
// translit), learned from its known addresses (Learned.Spelling).
type Spelling int

const (
	SpellingUnknown        Spelling = iota // no address shows it: folded first
	SpellingFolded                         // "muller"
	SpellingTransliterated                 // "mueller"
)

// spellingOf reports how local writes name ("First Last"): SpellingUnknown when the
// name has no letter with two spellings or local shows neither.
func spellingOf(name, local string) Spelling {
	vote := SpellingUnknown
	for _, part := range strings.Fields(name) {
		f, t := fold(part, nil), fold(part, translit)
		if f == t || f == "" {
			continue
		}
		switch {
		case strings.Contains(local, t):
			return SpellingTransliterated
		case strings.Contains(local, f):
			vote = SpellingFolded
		}
	}
	return vote
}

// Fold lowercases s and reduces it to ASCII letters and digits as used in e-mail local
// parts: diacritics are removed (é -> e, ü -> u), special letters spelt out (ß -> ss,
// ø -> o, æ -> ae), and every other character (spaces, hyphens, apostrophes, non-Latin
// scripts) dropped.
func Fold(s string) string { return fold(s, nil) }

func fold(s string, extra map[rune]string) string {
	var b strings.Builder
	for _, r := range s {
		if rep, ok := extra[r]; ok {
			b.WriteString(rep)
			continue
		}
		if rep, ok := foldSpecial[r]; ok {
			b.WriteString(rep)
			continue
		}
		for _, d := range norm.NFD.String(string(r)) {
			d = unicode.ToLower(d)
			if d < 0x80 && (d >= 'a' && d <= 'z' || d >= '0' && d <= '9') {
				b.WriteRune(d)
			}
		}
	}
	return b.String()
}

// particles are lowercase surname prefixes ("van der Berg", "de la Cruz") that some
// companies keep in addresses and others drop.
var particles = map[string]bool{
	"van": true, "von": true, "der": true, "den": true, "de": true, "del": true, "della": true,
	"di": true, "da": true, "du": true, "la": true, "le": true, "dos": true, "das": true,
	"do": true, "ter": true, "ten": true, "bin": true, "al": true, "el": true, "st": true,
	"zu": true, "af": true, "av": true, "y": true, "e": true,
}

// nameForms are the spellings of one name (first or last) that addresses use, best first.
// The first form joins every part ("Mary-Jane" -> "maryjane", "van der Berg" ->
// "vanderberg"); later forms keep only the main part ("mary", "berg") or the hyphens
// ("mary-jane").
type nameForms []string

// forms returns the spellings of a name; with both, the transliterated spelling of its
// letters that have two (translit) is added after the folded one, or before it when
// translitFirst. An empty result means the name has no usable letters.
func forms(raw string, both, translitFirst bool, isLast bool) nameForms {
	var out nameForms
	add := func(s string) {
		if s == "" {
			return
		}
		for _, have := range out {
			if have == s {
				return
			}
		}
		out = append(out, s)
	}
	folds := []map[rune]string{nil}
	switch {
	case both && translitFirst:
		folds = []map[rune]string{translit, nil}
	case both:
		folds = append(folds, translit)
	}
	for _, extra := range folds {
		parts := splitName(raw, extra)
		if len(parts) == 0 {
			continue
		}
		add(strings.Join(parts, ""))
		if len(parts) > 1 {
			main := mainParts(parts, isLast)
			add(main[0])
			if isLast && len(main) > 1 {
				add(main[len(main)-1])
			}
			add(strings.Join(main, ""))
			add(strings.Join(parts, "-"))
		}
	}
	return out
}

// splitName splits a name into folded parts on spaces, hyphens, dots, commas and
// underscores; apostrophes inside a part are dropped ("O'Brien" -> "obrien").
func splitName(raw string, extra map[rune]string) []string {
	fields := strings.FieldsFunc(raw, func(r rune) bool {
		return unicode.IsSpace(r) || r == '-' || r == '‐' || r == '–' || r == '.' || r == ',' || r == '_'
	})
	var parts []string
	for _, f := range fields {
		if p := fold(f, extra); p != "" {
			parts = append(parts, p)
		}
	}
	return parts
}

// mainParts drops surname particles ("van", "der") from a last name; a first name keeps
// all its parts. When nothing but particles remains, the parts are kept as they are.
func mainParts(parts []string, isLast bool) []string {
	if !isLast {
		return parts
	}
	var out []string
	for _, p := range parts {
		if !particles[p] {
			out = append(out, p)
		}
	}
	if len(out) == 0 {
		return parts
	}
	return out
}
