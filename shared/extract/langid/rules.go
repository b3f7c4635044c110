package langid

import (
	"iter"
	"strings"
	"unicode"
	"unicode/utf8"
)

// words lower-cases text and splits it as lingua does: every Han, Hangul, Hiragana
// or Katakana character is a word of its own (those scripts do not separate words),
// any other run of letters is a word, and everything else separates them. A run
// that starts with another letter keeps going through such characters.
func words(text string) []string {
	text = strings.ToLower(text)
	var out []string
	for i := 0; i < len(text); {
		r, n := utf8.DecodeRuneInString(text[i:])
		switch {
		case isSyllabic(r):
			out = append(out, text[i:i+n])
		case unicode.IsLetter(r):
			n = letterRun(text[i:])
			out = append(out, text[i:i+n])
		}
		i += n
	}
	return out
}

func isSyllabic(r rune) bool {
	return unicode.In(r, unicode.Han, unicode.Hangul, unicode.Hiragana, unicode.Katakana)
}

// letterRun returns the length in bytes of the letters that start s.
func letterRun(s string) int {
	for i, r := range s {
		if !unicode.IsLetter(r) {
			return i
		}
	}
	return len(s)
}

// trigrams yields the trigrams of a word, letter by letter; words shorter than three
// letters have none.
func trigrams(w string) iter.Seq[string] {
	return func(yield func(string) bool) {
		var starts [3]int // byte offsets of the last three letters
		n := 0
		for i := range w {
			if n >= 3 && !yield(w[starts[n%3]:i]) {
				return
			}
			starts[n%3] = i
			n++
		}
		if n >= 3 {
			yield(w[starts[n%3]:])
		}
	}
}

// Word verdicts of the unique-letter rule beyond the seven languages: lingua counts
// Han and kana as Chinese and Japanese, languages this detector never answers.
const (
	chinese = numLangs + iota
	japanese
	unknown
	numVerdicts
)

// uniqueLetters are the letters only one of the languages uses, from lingua's list.
// lingua also lists "¿¡" for Spanish, but they are punctuation and never inside a
// word, so they cannot count.
var uniqueLetters = map[rune]lang{'ß': deu}

// uniqueLetterRule is lingua's first rule: each word votes for the language its
// unique letters (or its Han or kana characters) point to, and a language with more
// votes than any other settles the text, unless half the words or more have no vote.
// settled reports whether the rule decided; ok whether it decided on one of the
// seven languages rather than on none.
func uniqueLetterRule(ws []string) (l lang, settled, ok bool) {
	var votes [numVerdicts]int
	for _, w := range ws {
		votes[wordVerdict(w)]++
	}
	if float64(votes[unknown]) < float64(len(ws))/2 {
		votes[unknown] = 0
	}
	top, topVotes, tied := unknown, 0, false
	for v, n := range votes {
		switch {
		case n > topVotes:
			top, topVotes, tied = lang(v), n, false
		case n == topVotes && n > 0:
			tied = true
		}
	}
	if topVotes == 0 || tied || top == unknown {
		return 0, false, false
	}
	return top, true, top < numLangs
}

// wordVerdict is the language one word votes for: the one most of its characters
// point to, Japanese for a mix of Han and kana, or unknown.
func wordVerdict(w string) lang {
	var counts [numVerdicts]int
	for _, r := range w {
		switch {
		case unicode.Is(unicode.Han, r):
			counts[chinese]++
		case unicode.In(r, unicode.Hiragana, unicode.Katakana):
			counts[japanese]++
		default:
			if l, ok := uniqueLetters[r]; ok {
				counts[l]++
			}
		}
	}
	if counts[chinese] > 0 && counts[japanese] > 0 {
		return japanese
	}
	top, topCount, tied := unknown, 0, false
	for v, n := range counts {
		switch {
		case n > topCount:
			top, topCount, tied = lang(v), n, false
		case n == topCount && n > 0:
			tied = true
		}
	}
	// A word of Han or kana alone votes for a language lingua was not asked about,
	// which it counts as no vote.
	if tied || top >= numLangs {
		return unknown
	}
	return top
}

// scripts are the alphabets lingua's second rule tells apart, in its order.
var scripts = [...]*unicode.RangeTable{
	unicode.Arabic, unicode.Armenian, unicode.Bengali, unicode.Cyrillic,
	unicode.Devanagari, unicode.Georgian, unicode.Greek, unicode.Gujarati,
	unicode.Gurmukhi, unicode.Han, unicode.Hangul, unicode.Hebrew,
	unicode.Hiragana, unicode.Katakana, unicode.Latin, unicode.Tamil,
	unicode.Telugu, unicode.Thai,
}

// candidates is lingua's second rule: the languages that remain possible given the
// script most words are written in and the accented letters they use.
func candidates(ws []string) langSet {
	switch s := dominantScript(ws); {
	case s < 0:
		return allLangs
	case scripts[s] == unicode.Latin:
		return byAccents(ws)
	default:
		return 0 // all seven languages are written in Latin script
	}
}

// dominantScript returns the index of the script the most words are wholly written
// in, or -1 when there is none to tell: no word is in a single script, or every
// script found counts as many words. Where Latin ties another script for the most,
// lingua picks either at random; Latin is taken here, which keeps an answer possible.
func dominantScript(ws []string) int {
	var counts [len(scripts)]int
	for _, w := range ws {
		if s := wordScript(w); s >= 0 {
			counts[s]++
		}
	}
	top, found, uneven := -1, 0, false
	for s, n := range counts {
		if n == 0 {
			continue
		}
		if found++; top >= 0 && n != counts[top] {
			uneven = true
		}
		if top < 0 || n > counts[top] || (n == counts[top] && scripts[s] == unicode.Latin) {
			top = s
		}
	}
	if found > 1 && !uneven {
		return -1
	}
	return top
}

// wordScript returns the index of the script every letter of w belongs to, or -1.
func wordScript(w string) int {
	for s, table := range scripts {
		if allIn(w, table) {
			return s
		}
	}
	return -1
}

func allIn(w string, table *unicode.RangeTable) bool {
	for _, r := range w {
		if !unicode.Is(table, r) {
			return false
		}
	}
	return w != ""
}

// accentLangs maps the letters of lingua's list of characters shared by a few
// languages to those of the seven that use them. Words are lower-cased, so only the
// lower-case forms can occur.
var accentLangs = map[rune]langSet{
	'ã': set(por), 'õ': set(por),
	'î': set(fra), 'û': set(fra),
	'ñ': set(spa),
	'ì': set(ita), 'ò': set(ita),
	'ä': set(deu), 'ö': set(deu),
	'ë': set(nld, fra),
	'è': set(fra, ita), 'ù': set(fra, ita),
	'ê': set(fra, por), 'ô': set(fra, por), 'â': set(fra, por), 'ç': set(fra, por),
	'à': set(fra, ita, por),
	'ü': set(deu, spa),
	'ó': set(por, spa), 'á': set(por, spa), 'í': set(por, spa), 'ú': set(por, spa),
	'é': set(fra, ita, por, spa),
}

func set(ls ...lang) langSet {
	var s langSet
	for _, l := range ls {
		s |= 1 << l
	}
	return s
}

// byAccents keeps the languages whose accented letters appear, counted once per
// letter and word, at least half as often as there are words; when none reaches
// that, all seven stay.
func byAccents(ws []string) langSet {
	var counts [numLangs]int
	for _, w := range ws {
		var seen []rune
		for _, r := range w {
			langs, ok := accentLangs[r]
			if !ok || containsRune(seen, r) {
				continue
			}
			seen = append(seen, r)
			for l := range numLangs {
				if langs.has(l) {
					counts[l]++
				}
			}
		}
	}
	var keep langSet
	for l, n := range counts {
		if n > 0 && float64(n) >= float64(len(ws))/2 {
			keep |= 1 << l
		}
	}
	if keep == 0 {
		return allLangs
	}
	return keep
}

func containsRune(rs []rune, r rune) bool {
	for _, x := range rs {
		if x == r {
			return true
		}
	}
	return false
}
