package contactsearch

import (
	"slices"
	"strings"
)

// Thesaurus lists a word's nearest words in an embedding space
// (ppmiembed.Embedder satisfies it).
type Thesaurus interface {
	Neighbours(word string, k int, minCos float32) []string
}

// summary and negate_summary match on meaning as well as on words. Each term keeps its
// exact form (its words as words or word prefixes, see summaryMatch) and gains variants
// in which one of its words is replaced by one of that word's nearest words in the
// built-in embedder's space: at most summaryNeighbours per word, each at a cosine of at
// least summaryMinCos, and at least minNeighbourLen letters long (neighbours match as
// prefixes too, and "bi" or "sem" would match "billing" or "seminar").
//
// The built-in space is topical (words sharing corpus contexts), so the neighbours are
// words of the same field rather than strict synonyms. At 0.80, above the 99.9th
// percentile of random word pairs (0.78): "customer" also matches retention, success and
// churn; "marketing" content, social and brand; "windows" server; "accounting" cost and
// variance; "kubernetes" gains nothing (its nearest, kafka, is at 0.77), nor do
// "python", "payroll" or "compliance". A word the embedder never learned (a name, a
// rare product) matches as written only.
//
// The expansion runs once, when a request's filters are built (filtersOf), so search,
// count and the legacy list all match the same expanded terms through Filters.Match, and
// negate_summary excludes exactly what summary would select.
const (
	summaryNeighbours = 3
	summaryMinCos     = 0.80
	minNeighbourLen   = 4
)

// expandTerms returns the terms followed by their neighbour variants, without
// duplicates; nil in, nil out.
func expandTerms(th Thesaurus, terms [][]string) [][]string {
	if th == nil || terms == nil {
		return terms
	}
	out := slices.Clone(terms)
	seen := map[string]bool{}
	for _, t := range terms {
		seen[termKey(t)] = true
	}
	for _, t := range terms {
		for i, w := range t {
			for _, n := range th.Neighbours(w, summaryNeighbours, summaryMinCos) {
				// Summaries are folded as the filter folds them: a neighbour such as "m&a"
				// that is not one word there could never match.
				nf := strings.Fields(fold(n))
				if len(nf) != 1 || len([]rune(nf[0])) < minNeighbourLen {
					continue
				}
				v := slices.Clone(t)
				v[i] = nf[0]
				if k := termKey(v); !seen[k] {
					seen[k] = true
					out = append(out, v)
				}
			}
		}
	}
	return out
}

func termKey(words []string) string {
	k := ""
	for _, w := range words {
		k += w + " "
	}
	return k
}
