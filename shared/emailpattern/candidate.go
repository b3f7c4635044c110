package emailpattern

import (
	"strings"

	"github.com/firmoapi/firmo/shared/apperr"
)

// Tier says where a candidate's pattern came from, best evidence first.
type Tier string

const (
	TierKnown   Tier = "known_pattern"   // the caller's known_pattern
	TierCompany Tier = "company_pattern" // the company's pattern inferred from its contacts' addresses
	TierCommon  Tier = "common_pattern"  // one of the common corporate patterns
)

// Candidate is one address to verify.
type Candidate struct {
	Email   string
	Local   string
	Pattern Template
	Tier    Tier
}

// Person is who to find an address for.
type Person struct {
	First, Last, Domain string
	Known               Template // the caller's known_pattern, or ""
	Company             Template // the company's inferred pattern, or ""
	// Spelling is how the domain's known addresses write letters with two ASCII
	// spellings (ü: u or ue); SpellingTransliterated puts "mueller" before "muller".
	Spelling Spelling
}

// Depth selects how many candidates to generate.
type Depth int

const (
	// Verify is the default round: the known and company patterns with every spelling
	// of both names, then the most common patterns with the main spelling of each name,
	// then the other spellings for the two most common patterns. A name with letters
	// that have two ASCII spellings (ü, ö, ä, ø, å) is spelt both ways, folded (u) and
	// transliterated (ue), in the order Person.Spelling gives.
	Verify Depth = iota
	// Escalate tries every pattern of CommonTemplates with every spelling of both names.
	Escalate
)

// maxCandidates bounds the addresses of one person so one job cannot flood a mail host.
const maxCandidates = 60

// Candidates lists the addresses to try for p, best first and without duplicates:
// the known pattern, the company pattern, then common patterns. An error (422 naming
// first_name or last_name) means a name has no letters usable in an address.
func Candidates(p Person, depth Depth) ([]Candidate, error) {
	translitFirst := p.Spelling == SpellingTransliterated
	firsts := forms(p.First, true, translitFirst, false)
	lasts := forms(p.Last, true, translitFirst, true)
	if len(firsts) == 0 {
		return nil, apperr.Invalid("first_name", "%q has no Latin letters or digits to build an address from", p.First)
	}
	if len(lasts) == 0 {
		return nil, apperr.Invalid("last_name", "%q has no Latin letters or digits to build an address from", p.Last)
	}
	domain := strings.ToLower(p.Domain)
	var out []Candidate
	seen := map[string]bool{}
	add := func(t Template, tier Tier, first, last string) {
		if len(out) >= maxCandidates {
			return
		}
		local := t.Apply(first, last)
		if local == "" || len(local) > 64 || seen[local] {
			return
		}
		seen[local] = true
		out = append(out, Candidate{Email: local + "@" + domain, Local: local, Pattern: t, Tier: tier})
	}
	// allForms tries every spelling pair of one template, main spellings first.
	allForms := func(t Template, tier Tier) {
		for _, f := range firsts {
			for _, l := range lasts {
				add(t, tier, f, l)
			}
		}
	}
	if p.Known != "" {
		allForms(p.Known, TierKnown)
	}
	if p.Company != "" {
		allForms(p.Company, TierCompany)
	}
	templates := CommonTemplates
	if depth == Verify {
		templates = templates[:verifyTemplates]
	}
	for _, t := range templates {
		add(t, TierCommon, firsts[0], lasts[0])
	}
	if depth == Verify {
		for _, t := range CommonTemplates[:2] {
			allForms(t, TierCommon)
		}
		return out, nil
	}
	for _, t := range templates {
		allForms(t, TierCommon)
	}
	return out, nil
}
