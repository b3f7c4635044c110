package industry

import (
	"sort"
	"unicode/utf8"
)

// maxKeywords is how many keywords a Result carries.
const maxKeywords = 10

// pageFurniture are words of site navigation and legal boilerplate that say nothing
// about a company; they are never keywords.
var pageFurniture = map[string]bool{
	"cookie": true, "cookies": true, "privacy": true, "policy": true, "menu": true, "login": true,
	"contact": true, "home": true, "search": true, "click": true, "accept": true, "copyright": true,
	"rights": true, "reserved": true, "terms": true, "skip": true, "navigation": true, "javascript": true,
	"impressum": true, "datenschutz": true, "kontakt": true, "startseite": true, "agb": true,
	"accueil": true, "mentions": true, "legales": true, "confidentialite": true,
	"inicio": true, "contacto": true, "aviso": true, "privacidad": true, "contato": true, "contatti": true,
	"informativa": true, "privacybeleid": true, "voorwaarden": true, "www": true, "http": true, "https": true,
}

// keywords are the text's most frequent content words, counted by stem and shown in
// their most frequent written form, with confidence = count / count of the top word.
// Ties go to words the model knows (lexicon or training vocabulary), then to the
// word met first.
func keywords(toks []token, m *model, n int) map[string]float64 {
	type kw struct {
		count   int
		first   int
		known   bool
		surface map[string]int
	}
	byStem := map[string]*kw{}
	var order []string
	for i, t := range toks {
		if t.stop || utf8.RuneCountInString(t.surface) < 3 || pageFurniture[fold(t.surface)] || !hasLetterFirst(t.surface) {
			continue
		}
		k := byStem[t.stem]
		if k == nil {
			_, known := m.feat[t.stem]
			k = &kw{first: i, known: known, surface: map[string]int{}}
			byStem[t.stem] = k
			order = append(order, t.stem)
		}
		k.count++
		k.surface[t.surface]++
	}
	sort.SliceStable(order, func(i, j int) bool {
		a, b := byStem[order[i]], byStem[order[j]]
		if a.count != b.count {
			return a.count > b.count
		}
		if a.known != b.known {
			return a.known
		}
		return a.first < b.first
	})
	out := map[string]float64{}
	if len(order) == 0 {
		return out
	}
	top := float64(byStem[order[0]].count)
	for _, stem := range order {
		if len(out) == n {
			break
		}
		k := byStem[stem]
		word := mostFrequent(k.surface)
		if _, dup := out[word]; dup {
			continue
		}
		out[word] = float64(k.count) / top
	}
	return out
}

// mostFrequent is the most frequent key, ties broken alphabetically.
func mostFrequent(m map[string]int) string {
	best, bestN := "", -1
	for s, n := range m {
		if n > bestN || (n == bestN && s < best) {
			best, bestN = s, n
		}
	}
	return best
}

func hasLetterFirst(s string) bool {
	r, _ := utf8.DecodeRuneInString(s)
	return !('0' <= r && r <= '9')
}
