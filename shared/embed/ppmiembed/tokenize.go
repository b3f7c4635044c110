package ppmiembed

import (
	"strings"
	"unicode"

	"golang.org/x/text/runes"
	"golang.org/x/text/transform"
	"golang.org/x/text/unicode/norm"
)

// fold lowercases and strips accents, so "Développeur", "developpeur" and "DEVELOPPEUR" are
// one word, and "ß" becomes "ss".
func fold(s string) string {
	t := transform.Chain(norm.NFD, runes.Remove(runes.In(unicode.Mn)), norm.NFC)
	out, _, err := transform.String(t, strings.ToLower(s))
	if err != nil {
		out = strings.ToLower(s)
	}
	return strings.ReplaceAll(out, "ß", "ss")
}

// abbreviations are rewritten before lookup: they are spelling variants, not other words.
var abbreviations = map[string]string{
	"sr": "senior", "snr": "senior", "jr": "junior", "jnr": "junior", "mgr": "manager",
	"dir": "director", "asst": "assistant", "assoc": "associate", "eng": "engineering",
	"dev": "developer", "devs": "developers", "exec": "executive", "admin": "administration",
	"mktg": "marketing", "acct": "account", "ops": "operations", "hr": "hr", "vice-president": "vice-president",
	"vicepresident": "vicepresidente",
}

// levelWords name a rank, not a function: they appear with every department, so by
// co-occurrence they drift towards whichever functions they were seen with most ("VP"
// with engineering). Similarity between contacts is about what people do, and seniority
// is a filter of its own, so these words keep only levelWeight of their weight: "VP
// Engineering" is nearer "Head of Software Development" than "VP Sales". The price: level
// barely moves similarity ("Junior Software Engineer" is about as near "VP Engineering" as
// "VP Software Development" is).
var levelWords = toSet(`vp svp evp avp vice president vice-president vicepresident vicepresidente
	head chief officer director directeur directrice directora senior junior lead principal staff
	manager managing associate assistant intern trainee graduate global group team
	leiter leiterin bereichsleiter abteilungsleiter teamleiter direktor referent werkstudent praktikant
	responsable chef stagiaire alternant jefe gerente coordinador becario sr jr ii iii`)

// levelWeight is the share of its weight a level word keeps.
const levelWeight = 0.25

// stopwords of the four corpus languages carry no meaning of their own in a title or summary.
var stopwords = toSet(`a an the of and or for to in on at by with from as is are be my our i we you
	your this that it its into over per via about who which
	und oder der die das den dem des ein eine einer eines mit fur von vom zu zum zur im in am an auf bei als ich wir sowie
	de des du la le les l d et ou en au aux pour avec un une dans par sur je nous chez
	del el los las y o con para por al lo su sus mi yo una uno`)

func toSet(words string) map[string]bool {
	m := map[string]bool{}
	for _, w := range strings.Fields(words) {
		m[w] = true
	}
	return m
}

// tokens splits a text into folded words. Inside a word it keeps '&' and '+' between
// letters ("r&d", "i+d", "c++") and '#' after a letter ("c#"); numbers alone are dropped.
func tokens(text string) []string {
	s := fold(text)
	var out []string
	var cur strings.Builder
	flush := func() {
		w := strings.TrimRight(cur.String(), "&") // "c++" and "c#" keep their marks
		cur.Reset()
		if w == "" || isNumber(w) {
			return
		}
		if a, ok := abbreviations[w]; ok {
			w = a
		}
		if stopwords[w] {
			return
		}
		out = append(out, w)
	}
	for _, r := range s {
		switch {
		case unicode.IsLetter(r) || unicode.IsDigit(r):
			cur.WriteRune(r)
		case (r == '&' || r == '+' || r == '#') && cur.Len() > 0:
			cur.WriteRune(r)
		default:
			flush()
		}
	}
	flush()
	return out
}

func isNumber(w string) bool {
	for _, r := range w {
		if !unicode.IsDigit(r) {
			return false
		}
	}
	return true
}

// ngrams returns the character 3- to 5-grams of a word wrapped in boundary marks, the
// subword units that place an unseen word ("Softwareentwicklungsleiter") near the known
// words it is made of.
func ngrams(word string) []string {
	r := []rune("<" + word + ">")
	var out []string
	for n := 3; n <= 5; n++ {
		for i := 0; i+n <= len(r); i++ {
			out = append(out, string(r[i:i+n]))
		}
	}
	return out
}
