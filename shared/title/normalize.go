package title

import (
	"strings"
	"unicode"
)

// Normalize returns the canonical text form of a title or query term: lower case,
// diacritics folded (é→e, ß→ss, æ→ae), "&" and "+" spelled "and" and "plus",
// dots inside initialisms dropped ("V.P." → "vp", "S.V.P." → "svp") and every other
// punctuation mark turned into a word break, words joined by single spaces.
//
// Search indexes should analyse titles the same way so that a term matches the
// same words in an index as in Query.Match.
func Normalize(s string) string { return strings.Join(tokens(s), " ") }

// tokens splits s into normalized words.
func tokens(s string) []string {
	runes := []rune(s)
	out := make([]string, 0, 8)
	var word strings.Builder
	segment := 0 // letters since the word began or since the last dot dropped inside an initialism
	flush := func() {
		if word.Len() > 0 {
			out = append(out, word.String())
			word.Reset()
		}
		segment = 0
	}
	for i, r := range runes {
		r = unicode.ToLower(r)
		switch {
		case r == '.':
			// A dot after a single letter and before another letter joins an initialism
			// ("V.P."); any other dot ends the word ("Sr.", "Dir.Marketing").
			if segment == 1 && i+1 < len(runes) && unicode.IsLetter(runes[i+1]) {
				segment = 0
				continue
			}
			flush()
		case r == '&':
			flush()
			out = append(out, "and")
		case r == '+':
			flush()
			out = append(out, "plus")
		case r == '@':
			flush()
			out = append(out, "at")
		case unicode.IsLetter(r) || unicode.IsDigit(r):
			if f, ok := folds[r]; ok {
				word.WriteString(f)
			} else if unicode.Is(unicode.Mn, r) {
				continue // a combining accent of decomposed text ("e" + U+0301)
			} else {
				word.WriteRune(r)
			}
			segment++
		case unicode.Is(unicode.Mn, r):
			continue
		default:
			flush()
		}
	}
	flush()
	return out
}

// folds maps accented Latin letters (already lower-cased) to their unaccented
// spelling. German umlauts fold to the bare vowel ("ä" → "a"), the form most
// systems store; the lexicon lists the "ae/oe/ue" spellings where they are common.
var folds = map[rune]string{
	'à': "a", 'á': "a", 'â': "a", 'ã': "a", 'ä': "a", 'å': "a", 'ā': "a", 'ă': "a", 'ą': "a",
	'æ': "ae",
	'ç': "c", 'ć': "c", 'č': "c",
	'ď': "d", 'đ': "d", 'ð': "d",
	'è': "e", 'é': "e", 'ê': "e", 'ë': "e", 'ē': "e", 'ė': "e", 'ę': "e", 'ě': "e",
	'ì': "i", 'í': "i", 'î': "i", 'ï': "i", 'ī': "i", 'į': "i", 'ı': "i",
	'ł': "l", 'ľ': "l", 'ĺ': "l",
	'ñ': "n", 'ń': "n", 'ň': "n",
	'ò': "o", 'ó': "o", 'ô': "o", 'õ': "o", 'ö': "o", 'ø': "o", 'ō': "o", 'ő': "o",
	'œ': "oe",
	'ŕ': "r", 'ř': "r",
	'ś': "s", 'š': "s", 'ş': "s", 'ș': "s", 'ß': "ss",
	'ť': "t", 'ț': "t", 'ţ': "t", 'þ': "th",
	'ù': "u", 'ú': "u", 'û': "u", 'ü': "u", 'ū': "u", 'ů': "u", 'ű': "u", 'ų': "u",
	'ý': "y", 'ÿ': "y",
	'ź': "z", 'ż': "z", 'ž': "z",
	'ª': "a", 'º': "o",
}
