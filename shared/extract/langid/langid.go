// Package langid tells which of seven languages a text is written in: English,
// German, French, Spanish, Portuguese, Italian or Dutch, answered as ISO 639-2/T
// codes.
//
// It reproduces the low-accuracy mode of lingua-go
// (https://github.com/pemistahl/lingua-go) restricted to these languages: the same
// rules first (a text mostly in a script none of them uses is none of them; letters
// only some of them use narrow the choice), then the sum of the log probabilities of
// the text's distinct trigrams under each language's model, backing off to a
// trigram's bigram and unigram prefix where the model lacks it. The most probable
// language wins; a tie, or no evidence at all, is no answer.
//
// The n-gram models are lingua-go's own (Apache-2.0, copyright Peter M. Stahl),
// taken for these seven languages only by `go generate` (see internal/gen) into
// models.bin: 1.1 MB embedded, against the 124 MB of all 75 languages that importing
// lingua-go embeds in every binary. They are decoded on first use, once per process,
// into about 4 MB; package initialisation decodes nothing.
package langid

//go:generate go run ./internal/gen -out models.bin

import (
	"slices"
	"unicode/utf8"
)

// The languages, in the column order of models.bin.
const (
	eng lang = iota
	deu
	fra
	spa
	por
	ita
	nld
	numLangs
)

// lang indexes one of the detector's languages.
type lang int8

var codes = [numLangs]string{"eng", "deu", "fra", "spa", "por", "ita", "nld"}

// Languages lists the ISO 639-2/T codes Detect can answer.
func Languages() []string { return slices.Clone(codes[:]) }

// Load decodes the models now rather than on the first Detect, for servers that
// want the cost paid before the first request. It is safe to call any number of
// times, concurrently.
func Load() { shared() }

// Detect returns the ISO 639-2/T code of the language text is written in, and false
// when it cannot tell: no letters, too few to judge, another script, or evidence
// that does not separate the languages. It is safe for concurrent use.
func Detect(text string) (string, bool) {
	l, ok := detect(shared(), text)
	if !ok {
		return "", false
	}
	return codes[l], true
}

// detect applies lingua's steps in its order; each may settle the answer.
func detect(m *model, text string) (lang, bool) {
	ws := words(text)
	if len(ws) == 0 {
		return 0, false
	}
	if l, settled, ok := uniqueLetterRule(ws); settled {
		return l, ok
	}
	cands := candidates(ws)
	if l, only := cands.only(); only {
		return l, true
	}
	if cands == 0 || runeCount(ws) < minRunes {
		return 0, false
	}
	return m.mostProbable(ws, cands)
}

// minRunes is the fewest letters lingua's low-accuracy mode scores; below it every
// language is as likely as any other.
const minRunes = 3

func runeCount(ws []string) int {
	n := 0
	for _, w := range ws {
		n += utf8.RuneCountInString(w)
	}
	return n
}

// langSet is a set of languages, one bit each.
type langSet uint8

const allLangs langSet = 1<<numLangs - 1

func (s langSet) has(l lang) bool { return s&(1<<l) != 0 }

// only returns the set's language when it holds exactly one.
func (s langSet) only() (lang, bool) {
	if s == 0 || s&(s-1) != 0 {
		return 0, false
	}
	for l := range numLangs {
		if s.has(l) {
			return l, true
		}
	}
	return 0, false
}
