package world

import (
	"bufio"
	"embed"
	"fmt"
	"strings"
	"sync"
)

//go:embed lexicon/*.txt
var lexiconFiles embed.FS

// Languages are the ISO 639-1 codes of the world's languages, in a fixed order.
var Languages = []string{"en", "de", "fr", "es", "pt", "it", "nl"}

// iso639_2 maps the world's languages to the ISO 639-2/T codes Firmo answers with.
var iso639_2 = map[string]string{"en": "eng", "de": "deu", "fr": "fra", "es": "spa", "pt": "por", "it": "ita", "nl": "nld"}

// lexicon is the text of one language: "key = value" lines, a repeated key making a
// list and "a|b|c" a list on one line.
type lexicon map[string][]string

func (l lexicon) list(key string) []string {
	v, ok := l[key]
	if !ok || len(v) == 0 {
		panic(fmt.Sprintf("world lexicon: missing key %q", key)) // a broken embedded file; TestLexicons guards it
	}
	return v
}

func (l lexicon) one(key string) string { return l.list(key)[0] }

var lexicons = sync.OnceValue(func() map[string]lexicon {
	out := make(map[string]lexicon, len(Languages))
	for _, lang := range Languages {
		lx, err := parseLexicon("lexicon/" + lang + ".txt")
		if err != nil {
			panic(err) // embedded at build time; TestLexicons guards it
		}
		out[lang] = lx
	}
	return out
})

func parseLexicon(name string) (lexicon, error) {
	f, err := lexiconFiles.Open(name)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	lx := lexicon{}
	sc := bufio.NewScanner(f)
	n := 0
	for sc.Scan() {
		n++
		line := strings.TrimSpace(sc.Text())
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		key, val, ok := strings.Cut(line, " = ")
		if !ok {
			return nil, fmt.Errorf("%s:%d: want \"key = value\"", name, n)
		}
		key = strings.TrimSpace(key)
		// Lists on one line are split on "|"; sentences never contain one.
		for _, v := range strings.Split(val, "|") {
			if v = strings.TrimSpace(v); v != "" {
				lx[key] = append(lx[key], v)
			}
		}
	}
	return lx, sc.Err()
}

// fill replaces {placeholders} in a template.
func fill(tmpl string, vars map[string]string) string {
	if !strings.Contains(tmpl, "{") {
		return tmpl
	}
	pairs := make([]string, 0, 2*len(vars))
	for k, v := range vars {
		pairs = append(pairs, "{"+k+"}", v)
	}
	return strings.NewReplacer(pairs...).Replace(tmpl)
}
