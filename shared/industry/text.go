package industry

import (
	"bufio"
	_ "embed"
	"fmt"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"unicode"
	"unicode/utf8"

	"github.com/blevesearch/snowballstem"
	"github.com/blevesearch/snowballstem/danish"
	"github.com/blevesearch/snowballstem/dutch"
	"github.com/blevesearch/snowballstem/english"
	"github.com/blevesearch/snowballstem/finnish"
	"github.com/blevesearch/snowballstem/french"
	"github.com/blevesearch/snowballstem/german"
	"github.com/blevesearch/snowballstem/italian"
	"github.com/blevesearch/snowballstem/norwegian"
	"github.com/blevesearch/snowballstem/portuguese"
	"github.com/blevesearch/snowballstem/spanish"
	"github.com/blevesearch/snowballstem/swedish"
)

// languages are the languages the classifier reads in full (labelled rows and a
// lexicon line for every industry and sub-industry), as ISO 639-1 codes.
var languages = []string{"en", "de", "fr", "es", "pt", "it", "nl"}

// lexiconLanguages are the languages the classifier reads through a compact
// lexicon only: the key terms of each industry and the business-model cues, no
// labelled rows. Chinese and Japanese are read character by character (see
// tokens).
var lexiconLanguages = []string{"sv", "no", "da", "fi", "pl", "zh", "ja"}

// allLanguages are languages and lexiconLanguages.
var allLanguages = append(append([]string{}, languages...), lexiconLanguages...)

// langCodes maps the codes callers pass (ISO 639-1, 639-2/T and 639-2/B, the
// English name) to the ISO 639-1 code used inside the package.
var langCodes = map[string]string{
	"en": "en", "eng": "en", "english": "en",
	"de": "de", "deu": "de", "ger": "de", "german": "de",
	"fr": "fr", "fra": "fr", "fre": "fr", "french": "fr",
	"es": "es", "spa": "es", "spanish": "es",
	"pt": "pt", "por": "pt", "portuguese": "pt",
	"it": "it", "ita": "it", "italian": "it",
	"nl": "nl", "nld": "nl", "dut": "nl", "dutch": "nl",
	"sv": "sv", "swe": "sv", "swedish": "sv",
	"no": "no", "nor": "no", "nb": "no", "nob": "no", "nn": "no", "nno": "no", "norwegian": "no",
	"da": "da", "dan": "da", "danish": "da",
	"fi": "fi", "fin": "fi", "finnish": "fi",
	"pl": "pl", "pol": "pl", "polish": "pl",
	"zh": "zh", "zho": "zh", "chi": "zh", "chinese": "zh",
	"ja": "ja", "jpn": "ja", "japanese": "ja",
}

// stemmers are the Snowball stemmers of each language. Polish has none in the
// Snowball module, so its lexicon lists the inflections it means; Chinese and
// Japanese do not inflect.
var stemmers = map[string]func(*snowballstem.Env) bool{
	"en": english.Stem, "de": german.Stem, "fr": french.Stem, "es": spanish.Stem,
	"pt": portuguese.Stem, "it": italian.Stem, "nl": dutch.Stem,
	"sv": swedish.Stem, "no": norwegian.Stem, "da": danish.Stem, "fi": finnish.Stem,
	"pl": noStem, "zh": noStem, "ja": noStem,
}

func noStem(*snowballstem.Env) bool { return true }

// compounding languages write compound nouns as one word (Lohnabrechnung,
// verzekeringsmaatschappij, byggföretag); their long words are also matched by
// lexicon parts.
var compounding = map[string]bool{"de": true, "nl": true, "sv": true, "no": true, "da": true, "fi": true}

//go:embed stopwords.txt
var stopwordsFile string

// parseStopwords reads stopwords.txt: "lang: word, word, ...".
func parseStopwords(src string) (map[string]map[string]bool, error) {
	out := map[string]map[string]bool{}
	sc := bufio.NewScanner(strings.NewReader(src))
	sc.Buffer(make([]byte, 1<<16), 1<<20)
	for n := 1; sc.Scan(); n++ {
		line := strings.TrimSpace(sc.Text())
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		lang, words, ok := strings.Cut(line, ":")
		if !ok || langCodes[lang] != lang {
			return nil, fmt.Errorf("stopwords.txt:%d: want \"lang: word, word\"", n)
		}
		set := out[lang]
		if set == nil {
			set = map[string]bool{}
			out[lang] = set
		}
		for _, w := range strings.Split(words, ",") {
			if w = fold(strings.ToLower(strings.TrimSpace(w))); w != "" {
				set[w] = true
			}
		}
	}
	return out, sc.Err()
}

// token is one word of a text.
type token struct {
	surface string // lowercased as written (for keywords)
	stem    string // Snowball stem, accents folded
	stop    bool   // a stopword of the text's language
	acronym bool   // two capitals (IT, HR, AI, KI): never a stopword
	// brk is true when punctuation (not a hyphen or apostrophe) or a line break
	// separates this token from the one before: bigrams do not cross it.
	brk bool
	// joined is the hyphenated word this token ends ("e-commerce" on "commerce"),
	// stemmed; empty otherwise.
	joined string
}

// analyzer turns text into tokens for one language. It is not safe for concurrent
// use (it reuses a Snowball environment); Classifier makes one per call.
type analyzer struct {
	lang  string
	stops map[string]bool
	env   *snowballstem.Env
	stem  func(*snowballstem.Env) bool
	cache *stemCache // nil: no cache
}

func newAnalyzer(lang string, stops map[string]map[string]bool) *analyzer {
	return &analyzer{lang: lang, stops: stops[lang], env: snowballstem.NewEnv(""), stem: stemmers[lang]}
}

// stemWord stems one lowercased word and folds what accents are left.
func (a *analyzer) stemWord(w string) string {
	if s, ok := a.cache.get(w); ok {
		return s
	}
	s, ok := stemExceptions()[a.lang][w]
	if !ok {
		a.env.SetCurrent(w)
		a.stem(a.env)
		s = fold(a.env.Current())
	}
	a.cache.put(w, s)
	return s
}

// stemExceptions are words whose Snowball stem is that of a word of another
// meaning which the lexicon or the labelled rows use, by language: French "données"
// (data, in every site's privacy notice) stems to "don" (a donation), Dutch "zorgen"
// (to see to it: "wij zorgen voor", on most Dutch firms' pages) to "zorg" (care),
// "zorgvuldig" (careful) splits into "zorg" as a compound would, and the phone of
// every contact block ("teléfono", "téléphone") stems to telephony ("telefonía").
// Spanish "filas" (queues, rows), "salto" (a jump, a waterfall), "carpetas" (folders)
// and "libre" (free; also French) stem as thread, salt, carpet and books do;
// Portuguese "implantação" (setting up) as dental implants, "portaria" (a building's
// reception, a ministerial order) as ports.
// Each gets a stem of its own, which is never split as a compound (exceptionStem).
// Written by the team; built on first use (sync.OnceValue), so it costs nothing at
// start-up.
var stemExceptions = sync.OnceValue(func() map[string]map[string]string {
	return map[string]map[string]string{
		"fr": {"donnée": "donnee", "données": "donnee", "téléphone": "telephone", "téléphones": "telephone",
			"libre": "libre", "libres": "libre"},
		"es": {"teléfono": "telefono", "teléfonos": "telefono",
			"fila": "fila", "filas": "fila", "salto": "salto", "saltos": "salto",
			"carpeta": "carpeta", "carpetas": "carpeta", "libre": "libre", "libres": "libre"},
		"pt": {"telefone": "telefone", "telefones": "telefone",
			"implantação": "implantacao", "implantações": "implantacao", "portaria": "portaria", "portarias": "portaria"},
		"nl": {"telefoon": "telefoon",
			"zorgen": "zorgen", "zorgt": "zorgen", "zorgde": "zorgen", "zorgden": "zorgen",
			"zorgvuldig": "zorgvuldig", "zorgvuldige": "zorgvuldig", "zorgvuldigheid": "zorgvuldig",
			"zorgeloos": "zorgeloos", "zorgeloze": "zorgeloos"},
	}
})

// exceptionStem reports whether stem is one that stemExceptions gives in lang.
func exceptionStem(lang, stem string) bool {
	for _, s := range stemExceptions()[lang] {
		if s == stem {
			return true
		}
	}
	return false
}

// stemCache remembers the stems of one language's words across calls (stemming is
// most of a classification's cost, and company pages share most of their words).
// It stops growing at maxCachedStems words, so a long ingest cannot grow it without
// bound; words past that are stemmed every time.
type stemCache struct {
	m sync.Map
	n atomic.Int64
}

const maxCachedStems = 200_000

func (c *stemCache) get(w string) (string, bool) {
	if c == nil {
		return "", false
	}
	v, ok := c.m.Load(w)
	if !ok {
		return "", false
	}
	return v.(string), true
}

func (c *stemCache) put(w, stem string) {
	if c == nil || c.n.Load() >= maxCachedStems {
		return
	}
	if _, loaded := c.m.LoadOrStore(w, stem); !loaded {
		c.n.Add(1)
	}
}

// tokens splits text into words: runs of letters and digits. Apostrophes split
// (l'entreprise), hyphens split but also yield the joined word (e-commerce ->
// e, commerce, ecommerce). Words without a letter are dropped.
func (a *analyzer) tokens(text string) []token {
	var out []token
	brk := true
	var hyphenParts []string // lowercased parts of the current hyphenated word
	i := 0
	for i < len(text) {
		r, size := utf8.DecodeRuneInString(text[i:])
		if isCJK(r) {
			// Chinese and Japanese write no spaces: each character is a word, so a
			// lexicon term of n characters matches as its n-1 adjacent pairs.
			w := string(r)
			out = append(out, token{surface: w, stem: w, brk: brk})
			brk, hyphenParts = false, nil
			i += size
			continue
		}
		if !isWordRune(r) {
			switch {
			case r == '-' || r == '\u2010' || r == '\u2011':
				// A hyphen between two word characters keeps the hyphenated word going.
				if !(len(hyphenParts) > 0 && i+size < len(text) && startsWord(text[i+size:])) {
					hyphenParts = nil
					brk = true
				}
			case r == '\'' || r == '\u2019' || unicode.IsSpace(r) && r != '\n':
				hyphenParts = nil
			default:
				hyphenParts = nil
				brk = true
			}
			i += size
			continue
		}
		j := i
		letters := false
		upper := true
		for j < len(text) {
			r, size := utf8.DecodeRuneInString(text[j:])
			if !isWordRune(r) || isCJK(r) {
				break
			}
			if unicode.IsLetter(r) {
				letters = true
				if !unicode.IsUpper(r) {
					upper = false
				}
			}
			j += size
		}
		raw := text[i:j]
		i = j
		if !letters {
			hyphenParts = nil
			continue
		}
		lower := strings.ToLower(raw)
		// Two capitals are an acronym (the IT of IT services), not the stopword "it";
		// longer words in capitals are more often headings (OUR SERVICES).
		t := token{surface: lower, brk: brk, acronym: upper && utf8.RuneCountInString(raw) == 2}
		brk = false
		t.stop = !t.acronym && a.stops[fold(lower)]
		t.stem = a.stemWord(lower)
		hyphenParts = append(hyphenParts, lower)
		if len(hyphenParts) > 1 {
			t.joined = a.stemWord(strings.Join(hyphenParts, ""))
		}
		out = append(out, t)
	}
	return out
}

func isWordRune(r rune) bool {
	return unicode.IsLetter(r) || unicode.IsDigit(r) || unicode.Is(unicode.Mn, r)
}

// isCJK reports whether r is a Han, Hiragana or Katakana character.
func isCJK(r rune) bool {
	return r >= 0x3040 && (unicode.Is(unicode.Han, r) || unicode.Is(unicode.Hiragana, r) || unicode.Is(unicode.Katakana, r))
}

func startsWord(s string) bool {
	r, _ := utf8.DecodeRuneInString(s)
	return isWordRune(r)
}

// fold removes accents and spells out ligatures and sharp s, so that "Société",
// "societe", "Straße" and "strasse" meet.
func fold(s string) string {
	ascii := true
	for i := 0; i < len(s); i++ {
		if s[i] >= utf8.RuneSelf {
			ascii = false
			break
		}
	}
	if ascii {
		return s
	}
	var b strings.Builder
	b.Grow(len(s))
	for _, r := range s {
		if f, ok := foldMap[r]; ok {
			b.WriteString(f)
			continue
		}
		if unicode.Is(unicode.Mn, r) {
			continue
		}
		b.WriteRune(r)
	}
	return b.String()
}

// foldMap spells the accented Latin letters of the seven languages (and their
// neighbours) without accents.
var foldMap = func() map[rune]string {
	m := map[rune]string{'ß': "ss", 'æ': "ae", 'œ': "oe", 'ø': "o", 'ł': "l", 'đ': "d", 'ð': "d", 'þ': "th", 'ı': "i"}
	groups := map[string]string{
		"a": "àáâãäåāăą", "c": "çćĉċč", "e": "èéêëēĕėęě", "i": "ìíîïĩīĭįİ", "n": "ñńņňŉ",
		"o": "òóôõöōŏő", "u": "ùúûüũūŭůűų", "y": "ýÿŷ", "s": "śŝşšș", "z": "źżž", "g": "ĝğġģ",
		"r": "ŕŗř", "t": "ţťțŧ", "d": "ď", "l": "ĺļľŀ", "k": "ķ", "h": "ĥħ", "j": "ĵ", "w": "ŵ",
	}
	for plain, accented := range groups {
		for _, r := range accented {
			m[r] = plain
		}
	}
	return m
}()

// normalizeLang maps a caller's language code to one of allLanguages, or "" when
// it is none of them.
func normalizeLang(code string) string {
	return langCodes[strings.ToLower(strings.TrimSpace(code))]
}

// stopIndex maps a folded stopword to the languages (bits: their index in
// allLanguages) that list it, so that counting a text's stopwords of every language
// costs one lookup a word.
type stopIndex map[string]uint16

func newStopIndex(stops map[string]map[string]bool) stopIndex {
	ix := stopIndex{}
	for i, l := range allLanguages {
		for w := range stops[l] {
			ix[w] |= 1 << i
		}
	}
	return ix
}

// guessLang picks the language whose stopwords the text uses most (English when
// none): extraction hands over a language, but raw descriptions come without one.
// A text mostly in Chinese characters is Chinese, or Japanese when it has kana.
func guessLang(ix stopIndex, texts ...string) string {
	if l := cjkLang(texts...); l != "" {
		return l
	}
	counts := ix.counts(texts...)
	best, bestN := 0, 0
	for i := range allLanguages {
		if counts[i] > bestN {
			best, bestN = i, counts[i]
		}
	}
	return allLanguages[best]
}

// counts counts the stopwords of each language (by index in allLanguages) among
// the first 400 words of the texts, read one after the other. Each word is
// lowercased and folded into one reused buffer: no allocation a word.
func (ix stopIndex) counts(texts ...string) []int {
	counts := make([]int, len(allLanguages))
	words := 0
	buf := make([]byte, 0, 64)
	flush := func() {
		if len(buf) == 0 {
			return
		}
		if bits := ix[string(buf)]; bits != 0 {
			for k := range counts {
				if bits&(1<<k) != 0 {
					counts[k]++
				}
			}
		}
		buf = buf[:0]
		words++
	}
	for _, text := range texts {
		for _, r := range text {
			if words >= 400 {
				return counts
			}
			if !unicode.IsLetter(r) && !unicode.Is(unicode.Mn, r) {
				flush()
				continue
			}
			r = unicode.ToLower(r)
			if f, ok := foldMap[r]; ok {
				buf = append(buf, f...)
			} else if !unicode.Is(unicode.Mn, r) {
				buf = utf8.AppendRune(buf, r)
			}
		}
		flush()
	}
	return counts
}

// cjkLang returns "zh" or "ja" when most of the first letters of the texts are
// Chinese characters or kana, and "" otherwise.
func cjkLang(texts ...string) string {
	letters, cjk, kana := 0, 0, 0
	for _, text := range texts {
		for _, r := range text {
			if letters >= 2000 {
				break
			}
			if !unicode.IsLetter(r) {
				continue
			}
			letters++
			if isCJK(r) {
				cjk++
				if !unicode.Is(unicode.Han, r) {
					kana++
				}
			}
		}
	}
	switch {
	case letters == 0 || cjk*2 < letters:
		return ""
	case kana*10 >= cjk:
		return "ja"
	}
	return "zh"
}

// textLang is the language a page or text is read in: the caller's code, unless
// the text says otherwise. Extraction detects only the seven languages of
// languages, so a Swedish page arrives as German and a Chinese one as
// undetermined: a text whose stopwords are clearly those of a lexicon language
// (at least 5 and twice the given language's) is read in that language.
func textLang(code string, ix stopIndex, texts ...string) string {
	l := normalizeLang(code)
	if l == "" {
		return guessLang(ix, texts...)
	}
	if slices.Contains(lexiconLanguages, l) {
		return l
	}
	if c := cjkLang(texts...); c != "" {
		return c
	}
	counts := ix.counts(texts...)
	given := counts[slices.Index(allLanguages, l)]
	best, bestN := l, given
	for i, x := range allLanguages {
		if !slices.Contains(lexiconLanguages, x) {
			continue
		}
		if n := counts[i]; n >= 5 && n >= 2*given && n > bestN {
			best, bestN = x, n
		}
	}
	return best
}
