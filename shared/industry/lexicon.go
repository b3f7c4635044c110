package industry

import (
	"bufio"
	"embed"
	"errors"
	"fmt"
	"path"
	"strings"
)

// The lexicon is hand-written domain vocabulary per industry and sub-industry in
// each of the seven languages (lexicon/*.txt). It lets the classifier recognise an
// industry from words no labelled description happens to use. Format:
//
//	[SAAS/CRM]
//	*: crm, pipeline
//	en: customer relationship, sales pipeline
//	de: kundenbeziehung, vertriebschancen
//
// A header names an industry or a PARENT/SUB value of the taxonomy; each line gives
// comma-separated terms in one language ("*": the same word in all of them). A term
// is analysed like text of its language: stemmed, stopwords dropped; one remaining
// word matches as a word, more match as adjacent word pairs.

//go:embed lexicon/*.txt
var lexiconFiles embed.FS

// lexEntry is one term of the lexicon: the value it speaks for and its features.
type lexEntry struct {
	value    string // industry or PARENT/SUB
	lang     string // ISO 639-1, or "*"
	term     string // as written
	features []string
}

// loadLexicon reads and analyses every lexicon file.
func loadLexicon(stops map[string]map[string]bool) ([]lexEntry, error) {
	files, err := lexiconFiles.ReadDir("lexicon")
	if err != nil {
		return nil, err
	}
	analyzers := map[string]*analyzer{}
	for _, l := range allLanguages {
		analyzers[l] = newAnalyzer(l, stops)
	}
	var out []lexEntry
	for _, f := range files {
		name := path.Join("lexicon", f.Name())
		raw, err := lexiconFiles.ReadFile(name)
		if err != nil {
			return nil, err
		}
		entries, err := parseLexicon(name, string(raw), analyzers)
		if err != nil {
			return nil, err
		}
		out = append(out, entries...)
	}
	return out, nil
}

func parseLexicon(name, src string, analyzers map[string]*analyzer) ([]lexEntry, error) {
	var out []lexEntry
	var errs []error
	value := ""
	sc := bufio.NewScanner(strings.NewReader(src))
	sc.Buffer(make([]byte, 1<<16), 1<<20)
	for n := 1; sc.Scan(); n++ {
		line := strings.TrimSpace(sc.Text())
		switch {
		case line == "" || strings.HasPrefix(line, "#"):
			continue
		case strings.HasPrefix(line, "["):
			value = strings.TrimSuffix(strings.TrimPrefix(line, "["), "]")
			if _, ok := index[value]; !ok {
				return nil, fmt.Errorf("%s:%d: %q is not an industry or sub-industry value", name, n, value)
			}
			continue
		}
		lang, terms, ok := strings.Cut(line, ":")
		lang = strings.TrimSpace(lang)
		if !ok || value == "" || (lang != "*" && langCodes[lang] != lang) {
			return nil, fmt.Errorf("%s:%d: want \"lang: term, term\" under a [VALUE] header", name, n)
		}
		langs := []string{lang}
		if lang == "*" {
			langs = allLanguages
		}
		for _, term := range strings.Split(terms, ",") {
			term = strings.TrimSpace(term)
			if term == "" {
				continue
			}
			e := lexEntry{value: value, lang: lang, term: term}
			seen := map[string]bool{}
			for _, l := range langs {
				for _, f := range analyzers[l].termFeatures(term) {
					if !seen[f] {
						seen[f] = true
						e.features = append(e.features, f)
					}
				}
			}
			if len(e.features) == 0 {
				errs = append(errs, fmt.Errorf("%s:%d: term %q has no word left after stopwords", name, n, term))
				continue
			}
			out = append(out, e)
		}
	}
	if err := sc.Err(); err != nil {
		return nil, err
	}
	return out, errors.Join(errs...)
}

// termFeatures are the features a lexicon term matches: its word, or the pairs of
// its adjacent words. A one-word term is kept even when it is a stopword (the "IT"
// of IT services is matched in capitals, where it is no stopword).
func (a *analyzer) termFeatures(term string) []string {
	toks := a.tokens(term)
	var words []string
	var joined string
	for _, t := range toks {
		if len(t.stem) < 2 || (t.stop && len(toks) > 1) {
			continue
		}
		words = append(words, t.stem)
		if t.joined != "" {
			joined = t.joined
		}
	}
	var out []string
	if joined != "" {
		out = append(out, joined)
	}
	if len(words) == 1 {
		return append(out, words[0])
	}
	for i := 1; i < len(words); i++ {
		out = append(out, words[i-1]+" "+words[i])
	}
	return out
}
