package people

import (
	_ "embed"
	"regexp"
	"sort"
	"strings"
	"sync"
	"unicode"

	"golang.org/x/text/unicode/norm"
)

// namelex.txt is a name model of given names and family names across languages: every
// word of the name lists of the npm package @faker-js/faker 10.6.0 (MIT), all its
// locales, lower case, one a line. givenlex.txt adds the given names of the npm
// package gender-detection-from-name 1.11.5 (MIT; English, German, French, Spanish,
// Italian, Turkish) that namelex.txt lacks; they count only as a name's first word.
// humanlex.txt adds the names of the npm package humannames 1.0.5 (MIT; about 200,000
// given and family names of many origins, written without diacritics) that neither
// has. A word is also looked up with its diacritics folded ("Álvaro" as alvaro).
// namegen/ makes all three (go generate). They are read on first use.
//
// firstlex.txt is the given names alone of @faker-js/faker's locales, to tell a given
// name from a family name.
//
//go:generate sh -c "cd namegen && npm ci --no-audit --no-fund && node names.mjs > ../namelex.txt && node given.mjs > ../givenlex.txt && node human.mjs > ../humanlex.txt && node first.mjs > ../firstlex.txt"
//go:embed namelex.txt
var namelexText string

//go:embed givenlex.txt
var givenlexText string

//go:embed firstlex.txt
var firstlexText string

// firstLexicon is firstlex.txt's words.
var firstLexicon = sync.OnceValue(func() map[string]bool {
	m := make(map[string]bool, 21000)
	for _, w := range strings.Split(firstlexText, "\n") {
		if w != "" {
			m[w] = true
		}
	}
	return m
})

// givenWord reports whether a lower-case word is a given name: of the first-name model
// or of the given-name model, each part of a hyphenated one.
func givenWord(w string) bool {
	if first, rest, ok := strings.Cut(w, "-"); ok && first != "" && rest != "" {
		return givenWord(first) && givenWord(rest) // "anne-charlotte"
	}
	return firstLexicon()[w] || givenLexicon()[w] || firstLexicon()[foldLatin(w)] || givenLexicon()[foldLatin(w)]
}

//go:embed humanlex.txt
var humanlexText string

// humanLexicon is humanlex.txt's words, sorted: searched, not hashed, to keep it small.
var humanLexicon = sync.OnceValue(func() []string {
	return strings.Split(strings.TrimSuffix(humanlexText, "\n"), "\n")
})

// inHumanLexicon reports whether w, lower case, is a word of humanlex.txt once its
// diacritics are folded.
func inHumanLexicon(w string) bool {
	f := foldLatin(w)
	lex := humanLexicon()
	i := sort.SearchStrings(lex, f)
	return i < len(lex) && lex[i] == f
}

// foldLatin writes a lower-case word without diacritics, as humanlex.txt is written
// ("przemysław" is przemyslaw, "søren" soren).
func foldLatin(w string) string {
	ascii := true
	for i := 0; i < len(w) && ascii; i++ {
		ascii = w[i] < 0x80
	}
	if ascii {
		return w
	}
	var b strings.Builder
	for _, r := range norm.NFD.String(w) {
		switch {
		case unicode.Is(unicode.Mn, r):
		case r == 'ł':
			b.WriteRune('l')
		case r == 'ø':
			b.WriteRune('o')
		case r == 'đ':
			b.WriteRune('d')
		case r == 'ı':
			b.WriteRune('i')
		case r == 'ß':
			b.WriteString("ss")
		case r == 'æ':
			b.WriteString("ae")
		case r == 'œ':
			b.WriteString("oe")
		default:
			b.WriteRune(r)
		}
	}
	return b.String()
}

var givenLexicon = sync.OnceValue(func() map[string]bool {
	m := make(map[string]bool, 60000)
	for _, w := range strings.Split(givenlexText, "\n") {
		if w != "" {
			m[w] = true
		}
	}
	return m
})

var nameLexicon = sync.OnceValue(func() map[string]bool {
	m := make(map[string]bool, 40000)
	for _, w := range strings.Split(namelexText, "\n") {
		if w != "" {
			m[w] = true
		}
	}
	return m
})

// knownName reports whether a word of the name is a given or family name the name
// model knows, or its first word a given name of the given-name model.
func knownName(name string) bool {
	lex := nameLexicon()
	for k, w := range strings.FieldsFunc(strings.ToLower(name), func(r rune) bool { return unicode.IsSpace(r) || r == '-' }) {
		if w = strings.Trim(w, ".,"); len([]rune(w)) >= 2 && !particles[w] && knownWord(lex, w, k == 0) {
			return true
		}
	}
	return false
}

// widelyKnown reports whether a word of the name is one of the wider name model
// (humanlex.txt), which holds many family names that are also words ("Auto", "Arts"):
// evidence where the shape of the text already says name (a name in capitals, a
// name written family name first, a list of names), not for a phrase alone.
func widelyKnown(name string) bool {
	for _, w := range strings.FieldsFunc(strings.ToLower(name), func(r rune) bool { return unicode.IsSpace(r) || r == '-' }) {
		if w = strings.Trim(w, ".,"); len([]rune(w)) >= 2 && !particles[w] && (inHumanLexicon(w) || knownWord(nameLexicon(), w, false)) {
			return true
		}
	}
	return false
}

// initialled reports whether a name is initials and a family name ("J. R. McAllister",
// "F. Lefèvre"): a shape only personal names take.
func initialled(name string) bool {
	words := strings.Fields(name)
	if len(words) < 2 || !isInitial(words[0]) || !strings.HasSuffix(words[0], ".") {
		return false
	}
	rest := 0
	for _, w := range words[1:] {
		if !isInitial(w) && !particles[strings.ToLower(w)] {
			rest++
		}
	}
	return rest >= 1 && rest <= 2
}

// nameEvidence reports whether the name model or the wider one knows a word of the
// name, or the name is written with initials.
func nameEvidence(name string) bool { return knownName(name) || widelyKnown(name) || initialled(name) }

// knownWord reports whether a lower-case word is one of the name model's, the
// given-name model counting only for a first word.
func knownWord(lex map[string]bool, w string, first bool) bool {
	if lex[w] || first && givenLexicon()[w] {
		return true
	}
	f := foldLatin(w) // "Álvaro" where a model writes alvaro
	return f != w && (lex[f] || first && givenLexicon()[f])
}

// nounEndings end the words of phrases ("Formación Continua", "Agile
// Projektsteuerung", "Responsabilidad Social") and of no personal name.
var nounEndings = []string{"ción", "sión", "dad", "ung", "keit", "heit", "schaft", "zione", "sione", "ção", "ções", "ität",
	"ismus", "ologie", "logía", "tion", "tions", "ment", "ments", "ness", "ship", "ance", "ence", "ité", "tät", "mente",
	"ciones", "siones", "dades", "zioni", "sioni", "ungen", "heiten", "keiten", "schaften", "täten", "ités", "ismen"}

func nounWord(w string) bool {
	w = strings.ToLower(w)
	if len([]rune(w)) < 6 {
		return false
	}
	for _, e := range nounEndings {
		if strings.HasSuffix(w, e) {
			return true
		}
	}
	return false
}

// Honorifics before a name and degrees or post-nominals after it are not part of the
// name (nor of the title): "Prof. Dr. Anna Müller, Ph.D" is Anna Müller. The lists
// are the team's own, across the languages the product reads.
var (
	honorificWords = map[string]bool{
		"dr": true, "dre": true, "dra": true, "drs": true, "dr.in": true, "prof": true, "profa": true, "prof.em": true, "prof.in": true,
		"professor": true, "ing": true, "dipl.-ing": true, "dipl-ing": true, "mag": true, "mr": true, "mrs": true, "ms": true,
		"mme": true, "mlle": true, "m": true, "herr": true, "frau": true, "sr": true, "sra": true, "srta": true, "dott": true,
		"dott.ssa": true, "dottssa": true, "avv": true, "arch": true, "geom": true, "rag": true, "hon": true, "sir": true,
		"dame": true, "lic": true, "me": true, "mtre": true, "ir": true, "drs.": true, "mgr": true, "doc": true, "univ.-prof": true,
		"rev": true, "fr": true, "pr": true, "eng": true, "engª": true, "eng.ª": true, "dr.-ing": true, "mx": true,
		"d": true, "dña": true, "dª": true, "d.ª": true, "d.a": true, "c.p": true, "c.p.c": true, "l.a.e": true, "l.c.p": true, "don": true, "doña": true, "sig": true, "sig.ra": true, "sigra": true, "dott.ing": true,
		"maître": true, "maitre": true, "h.c": true, "mult": true, "mw": true, "mevr": true, "dhr": true, "chief": true, "alhaji": true, "alhaja": true, "engr": true,
		"lda": true, "ldo": true, "dipl.-kfm": true, "dipl.-kff": true, "dipl.-inf": true, "dipl.-psych": true, "rä": true, "ra": true,
	}
	degreeWords = map[string]bool{
		"phd": true, "ph.d": true, "ph.d.": true, "md": true, "m.d": true, "mba": true, "msc": true, "m.sc": true, "bsc": true,
		"b.sc": true, "ma": true, "m.a": true, "ba": true, "b.a": true, "cpa": true, "csm": true, "cfa": true, "llm": true,
		"ll.m": true, "ll.b": true, "llb": true, "mphil": true, "dphil": true, "meng": true, "m.eng": true, "beng": true,
		"b.eng": true, "dipl": true, "dipl.-ing": true, "mag": true, "frcs": true, "frsa": true, "obe": true, "mbe": true,
		"cbe": true, "psyd": true, "edd": true, "jd": true, "j.d": true, "pmp": true, "cissp": true, "acca": true, "aca": true,
		"fca": true, "cima": true, "rn": true, "dds": true, "dmd": true, "pe": true, "p.eng": true, "ceng": true, "mieee": true,
		"oon": true, "ofr": true, "gcon": true, "mfr": true,
		"m.ed": true, "med": true, "mpa": true, "mph": true, "dea": true, "dess": true, "hdr": true,
		"psy.d": true, "d.ps": true, "dps": true, "ed": true, "sc": true, "ps": true, "psy": true, "éd": true,
		"ps.éd": true, "ps.ed": true, "d": true, "mas": true, "mscs": true, "dr.sc": true, "dr.rer.nat": true, "rer": true,
		"nat": true, "phil": true, "oec": true, "jur": true, "med.": true, "m.s": true, "ms.": true, "b.s": true, "bs": true,
	}
)

// honorificKey folds a word for the lists above: lower case, no trailing dot, and
// "Dr.X" read as "Dr.".
func honorificKey(w string) string {
	return strings.TrimSuffix(strings.ToLower(strings.Trim(w, ",;()")), ".")
}

// glued is an honorific written against the name ("Dr.Anna").
var glued = regexp.MustCompile(`^(?i:(dr|prof|dre|dra|ing|mag))\.(\p{Lu})`)

// gluedParticle is an initial written against the particle after it ("Arjen P.de Vries").
var gluedParticle = regexp.MustCompile(`\b(\p{Lu})\.(de|van|von|da|di|du|le|la|del|der|den|ten|ter)\s`)

// titleAbbrev is an abbreviated academic or professional title before a name, any of
// them, stacked ("Lic. Aud.", "Cr. Gral.", "Abog.", "Arq."): a capital, one to four
// small letters, a dot.
var titleAbbrev = regexp.MustCompile(`^\p{Lu}\p{Ll}{1,4}\.$`)

// stripHonorifics removes honorifics before a name and degrees after it.
func stripHonorifics(s string) string {
	s = glued.ReplaceAllString(strings.TrimSpace(s), "$1. $2")
	s = gluedParticle.ReplaceAllString(s, "$1. $2 ")
	words := strings.Fields(s)
	// An honorific goes only when a name of two words or more stays ("D. Smith" keeps its initial).
	// A one-letter honorific ("D." for Dom or Dona, "M." for Monsieur) goes only
	// before a given name: "D. A. Köhler" and "M. van Dijk" are names of initials.
	for stacked := false; len(words) > 2 && honorificKey(words[0]) != "" && (honorificWords[honorificKey(words[0])] || isDegreeChain(words[0]) || titleAbbrev.MatchString(words[0]) || stacked && stackedHonorific(words)) &&
		!(len([]rune(honorificKey(words[0]))) == 1 && (particles[strings.ToLower(words[1])] || !givenWord(strings.ToLower(words[1])) || isInitial(words[1]))); stacked = true {
		words = words[1:]
	}
	for len(words) > 0 {
		last := words[len(words)-1]
		k := honorificKey(last)
		if !degreeWords[k] && !isDegreeChain(last) && !(len(words) > 2 && letterChain.MatchString(last)) || familyInitial(words) {
			break
		}
		if len(words) > 1 && !strings.HasSuffix(words[len(words)-2], ",") && (surnameNotDegree(last) || len(words) == 2 && nameCased(last)) {
			break // "Jing Ma", "Ed" or "Med" written as a family name, not "MA" or ", M.A."
		}
		words = words[:len(words)-1]
		if len(words) > 0 {
			words[len(words)-1] = strings.TrimRight(words[len(words)-1], ",")
		}
	}
	return strings.Join(words, " ")
}

// isDegreeChain reads "Dr.Dr." or "Ph.D.," style tokens made only of listed parts
// (an initial such as "C." is none).
func isDegreeChain(w string) bool {
	switch lw := strings.ToLower(strings.Trim(w, ",;")); {
	case strings.HasPrefix(lw, "dipl.-") && len(lw) > 8, lw == "(fh)", lw == "(univ.)", lw == "(tu)", lw == "(hons)", lw == "(hons.)":
		return true // "Dipl.-Betriebswirt (FH)"
	}
	w = strings.Trim(strings.ToLower(w), ",;()")
	if !strings.Contains(w, ".") || len(w) > 12 {
		return false
	}
	if degreeWords[strings.TrimSuffix(w, ".")] || honorificWords[strings.TrimSuffix(w, ".")] {
		return true
	}
	listed := false
	for _, p := range strings.Split(strings.TrimSuffix(w, "."), ".") {
		if p != "" && !honorificWords[p] && !degreeWords[p] && p != "em" && p != "h.c" && p != "hc" && p != "c" {
			return false
		}
		listed = listed || honorificWords[p] || degreeWords[p]
	}
	return listed
}

// isInitial is an initial ("A.", "J").
func isInitial(w string) bool {
	rs := []rune(strings.TrimSuffix(w, "."))
	return len(rs) == 1 && unicode.IsUpper(rs[0])
}

// surnameNotDegree reports whether a word that spells a degree is written as a family
// name the name model knows ("Ma", "Ed"): capitalised, the rest in lower case, no dot.
func surnameNotDegree(w string) bool {
	rs := []rune(w)
	if len(rs) < 2 || !unicode.IsUpper(rs[0]) || strings.ToLower(string(rs[1:])) != string(rs[1:]) || strings.ContainsAny(w, ".,") {
		return false
	}
	return nameLexicon()[strings.ToLower(w)] || inHumanLexicon(strings.ToLower(w))
}

// stripDegrees removes degrees and post-nominals from a title ("CEO, MBA" is CEO; a
// title that is only a degree is none).
func stripDegrees(s string) string {
	var kept []string
	for _, part := range strings.Split(s, ",") {
		ws := strings.Fields(part)
		all := len(ws) > 0
		for _, w := range ws {
			all = all && (degreeWords[honorificKey(w)] || isDegreeChain(w))
		}
		if !all && strings.TrimSpace(part) != "" {
			kept = append(kept, strings.TrimSpace(part))
		}
	}
	return strings.Join(kept, ", ")
}

// nickname is a nickname written inside a name: «Ali», "Ali", (Ali).
var nickname = regexp.MustCompile(`\s[«“"(][^»”")]{1,20}[»”")]\s`)

// pronouns after a name ("Anna Roth (she/her)", "Jo Berg, they/them") are not part of it.
var pronouns = regexp.MustCompile(`(?i)[\s,]*[(\[]?\s*(?:she|he|they|ze|xe|sie|er|elle|il|iel|ella|él)\s*/\s*(?:her|him|them|hers|his|theirs|zir|xem|ihr|ihm|sie|elle|lui|iel|ella|él)(?:\s*/\s*\w+)?\s*[)\]]?\s*$`)

// hyphens are the non-breaking hyphens written in names.
var hyphens = strings.NewReplacer("\u2011", "-", "\u2010", "-")

// nameOf reads s as a personal name once honorifics and degrees are off: the name,
// and whether it is one.
func nameOf(s string) (string, bool) {
	// Non-breaking hyphens are hyphens; symbols before a name ("🎉 Name") go.
	s = hyphens.Replace(invisible.Replace(s))
	s = strings.TrimLeftFunc(strings.TrimSpace(s), func(r rune) bool { return unicode.IsSymbol(r) || unicode.IsSpace(r) || r == '\ufe0f' })
	s = strings.TrimSpace(trimMarks(s))
	if w, ok := strings.CutSuffix(s, "."); ok && len(strings.Fields(w)) >= 2 && fullWord.MatchString(w) && givenWord(strings.ToLower(strings.Fields(w)[0])) {
		s = w // "Jesús Abimael Granados Lugo.": a full stop after a name that opens with a given name
	}
	if s == "" || len(s) > 100 {
		return "", false
	}
	if w, rest, ok := strings.Cut(s, " "); ok && bylineWords[w] && len(strings.Fields(rest)) >= 2 {
		return nameOf(rest) // "By Anna Roth": a byline's name
	}
	if strings.Contains(s, "/") {
		s = pronouns.ReplaceAllString(s, "")
	}
	if rest, ok := strings.CutPrefix(s, "DI "); ok && len(strings.Fields(rest)) >= 2 && !capsFamilyFirst(rest) {
		s = rest // "DI Thomas Gruber": Diplom-Ingenieur
	}
	n := s
	if strings.ContainsAny(s, "«“\"(") {
		n = nickname.ReplaceAllString(s, " ")
	}
	n = clean(stripHonorifics(clean(n)))
	if IsName(n) {
		// A phrase with a job word ("Amministratore Delegato") is a title, not a name,
		// unless the name model knows a word of it.
		if titleWord(n) && !knownName(n) {
			return "", false
		}
		if first := strings.Fields(n)[0]; titleWord(first) && !givenWord(strings.ToLower(first)) {
			return "", false // "Associato Junior": a job word first, and no given name
		}
		return n, true
	}
	// A name set in capitals ("MARIA JOHNSON"), or a family name set in capitals after
	// a given name written as usual ("Line-Rose AMOZIGH", the French and Spanish
	// habit), is a name when the name model knows it.
	for _, t := range []string{titleCase(n), capsFamilyName(n)} {
		if t != n && IsName(t) && nameEvidence(t) && !looksLikeTitle(t) {
			return t, true
		}
	}
	if m := enumerated.FindStringSubmatch(s); m != nil {
		return nameOf(m[1]) // "1. Anna Roth": an item's number
	}
	if m := yearLed.FindStringSubmatch(s); m != nil {
		// "2008 Artur Kruszelnicki": the year of joining before the name
		if n, ok := nameOf(m[1]); ok && nameEvidence(n) {
			return n, true
		}
	}
	if n, ok := particleFamilyInitial(s); ok {
		return n, true // "de la Torre Jiménez B.": the family name, then the initial
	}
	// "Kowalska, Anna": the family name first.
	if strings.Count(s, ",") >= 1 {
		return inverted(s)
	}
	return "", false
}

// capsFamilyName writes the words in capitals of a name that also has words written
// as usual the way a name is written ("Arnaud GARCIA FERNANDEZ" is "Arnaud Garcia
// Fernandez"); a phrase with no such mix is left as it is.
func capsFamilyName(s string) string {
	words := strings.Fields(s)
	caps, usual := 0, 0
	for _, w := range words {
		letters := strings.IndexFunc(w, unicode.IsLetter) >= 0
		switch {
		case !letters || particles[w] || generational[strings.ToLower(w)]:
		case strings.ToUpper(w) == w && len([]rune(strings.Trim(w, ".'-"))) >= 2:
			caps++
		case capitalised(w):
			usual++
			if innerCapital(w) {
				return s // "CAS MedLaw UZH": a word with a capital inside is no given name
			}
		}
	}
	if caps == 0 || usual == 0 {
		return s
	}
	isCaps := func(w string) bool { return strings.ToUpper(w) == w && len([]rune(strings.Trim(w, ".'-"))) >= 2 }
	// "HÜTTINGER Peter": the family name in capitals first, as lists sorted by it are
	// written; the name is Peter Hüttinger.
	lead := 0
	for lead < len(words) && isCaps(words[lead]) {
		lead++
	}
	if lead > 0 && lead < len(words) {
		words = append(append([]string(nil), words[lead:]...), words[:lead]...)
	}
	for i, w := range words {
		if isCaps(w) {
			words[i] = titleCase(w)
		}
	}
	return strings.Join(words, " ")
}

// innerCapital reports whether w has a capital after a small letter ("MedLaw"), not
// after a hyphen or an apostrophe ("Jean-Luc", "D'Angelo").
func innerCapital(w string) bool {
	prev := ' '
	for _, r := range w {
		if unicode.IsUpper(r) && unicode.IsLower(prev) {
			return true
		}
		prev = r
	}
	return false
}

// titleCase writes a phrase in capitals as a name is written ("MARIA DE SOUSA-LIMA" is
// "Maria de Sousa-Lima"); a phrase with a lower-case letter is left as it is.
func titleCase(s string) string {
	if strings.ToUpper(s) != s || strings.ToLower(s) == s {
		return s
	}
	words := strings.Fields(strings.ToLower(s))
	for i, w := range words {
		if particles[w] && i > 0 && i < len(words)-1 {
			continue
		}
		rs := []rune(w)
		up := true
		for k, r := range rs {
			if up && unicode.IsLetter(r) {
				rs[k] = unicode.ToUpper(r)
				up = false
			}
			if r == '-' || r == '\'' || r == '’' {
				up = true
			}
		}
		words[i] = string(rs)
	}
	return strings.Join(words, " ")
}

// capsFamilyFirst reports whether s opens with a word in capitals followed by one
// that is not ("STEFANO Giuseppe"): after "DI" that is the family name "DI STEFANO"
// written first, not the title Diplom-Ingenieur before a name.
func capsFamilyFirst(s string) bool {
	w := strings.Fields(s)
	return len(w) >= 2 && len([]rune(w[0])) > 1 && strings.ToUpper(w[0]) == w[0] && strings.ToUpper(w[1]) != w[1]
}

// familyInitial reports whether words end in one initial with its full stop after a
// family name with no comma between ("Ibáñez M.", "García López D."): the given
// name's initial written last, not a degree ("M.", "D.").
func familyInitial(words []string) bool {
	if len(words) < 2 {
		return false
	}
	last, prev := words[len(words)-1], words[len(words)-2]
	return strings.HasSuffix(last, ".") && isInitial(last) && !strings.HasSuffix(prev, ",") && !isInitial(prev) && capitalised(prev)
}

// particleFamilyInitial reads a family name that opens with its particles, then the
// given name's initial ("de la Torre Jiménez B.", "van der Meer J."), as the page
// writes it: a name when the initial before the family name reads as one.
func particleFamilyInitial(s string) (string, bool) {
	words := strings.Fields(s)
	if len(words) < 3 || !particles[words[0]] || !familyInitial(words) {
		return "", false
	}
	last := words[len(words)-1]
	if !IsName(last + " " + strings.Join(words[:len(words)-1], " ")) {
		return "", false
	}
	return strings.Join(words, " "), true
}
