package world

import (
	"sort"

	"github.com/firmoapi/firmo/shared/gazetteer"
)

// The world's vocabularies, read-only, for tools that describe its companies (the ICP
// generator of shared/icpfit/icptrain). Reading them draws no random number, so no
// generated output depends on them.

// CountryCodes are the ISO 3166-1 alpha-2 codes of the world's countries, in the
// generator's fixed order.
func CountryCodes() []string {
	out := make([]string, len(countries))
	for i, c := range countries {
		out[i] = c.Code
	}
	return out
}

// BusinessModels are the business models the world's companies have, sorted.
func BusinessModels() []string {
	seen := map[string]bool{}
	var out []string
	for _, ms := range models {
		for _, m := range ms {
			if !seen[m] {
				seen[m] = true
				out = append(out, m)
			}
		}
	}
	sort.Strings(out)
	return out
}

// StateOf is the ISO 3166-2 code of the first-level subdivision of a world company's
// city ("" when the gazetteer has none).
func StateOf(t Truth) string {
	if p, ok := gazetteer.Lookup(t.Country, t.City); ok {
		return p.State
	}
	return ""
}

// Services are the services the world's sites of an industry list, as its English
// lexicon writes them (nil for an industry the world does not have).
func Services(industry string) []string {
	return append([]string(nil), lexicons()["en"][industry+".service"]...)
}
