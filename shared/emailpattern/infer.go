package emailpattern

import (
	"sort"
	"strings"
)

// Known is a contact whose address is known, used to infer the company's pattern.
type Known struct {
	First, Last, Email string
}

// Pattern is a company's inferred address pattern.
type Pattern struct {
	Template   string   // the local-part template, e.g. "{first}.{last}"
	Domain     string   // the domain most of the matching addresses use
	Confidence float64  // 0-1: matches / (usable contacts + 1), so one example gives 0.5
	Guess      string   // the address the pattern gives a hypothetical Jane Doe
	Matches    int      // contacts whose address the pattern reproduces
	Samples    int      // contacts with a usable name and address
	Spelling   Spelling // how the addresses write letters with two spellings (ü: u or ue)
}

// Address is the template with the domain, the form contact generation returns as
// email_pattern ("{first}.{last}@acme.com").
func (p Pattern) Address() string { return p.Template + "@" + p.Domain }

// guessFirst and guessLast name the hypothetical person of Pattern.Guess.
const guessFirst, guessLast = "jane", "doe"

// InferPattern finds the template that reproduces the most known addresses. Each
// contact with a usable name and address votes for every template (of CommonTemplates,
// with any spelling of its names) that builds its local part exactly; ties go to the
// more common template. It reports false when no contact matches any template.
//
// Confidence is matches / (samples + 1): it grows with evidence, so one matching
// contact gives 0.5, nine of nine give 0.9, and contacts that match nothing (aliases
// like info@, numbered duplicates) pull it down.
func InferPattern(contacts []Known) (Pattern, bool) {
	votes := map[Template]int{}
	domains := map[Template]map[string]int{}
	samples := 0
	for _, c := range contacts {
		local, domain, ok := splitAddress(c.Email)
		if !ok {
			continue
		}
		firsts := forms(c.First, true, false, false)
		lasts := forms(c.Last, true, false, true)
		if len(firsts) == 0 || len(lasts) == 0 {
			continue
		}
		samples++
		for _, t := range matching(local, firsts, lasts) {
			votes[t]++
			if domains[t] == nil {
				domains[t] = map[string]int{}
			}
			domains[t][domain]++
		}
	}
	best, bestVotes := Template(""), 0
	for _, t := range CommonTemplates { // in commonness order, so ties keep the more common
		if votes[t] > bestVotes {
			best, bestVotes = t, votes[t]
		}
	}
	if bestVotes == 0 {
		return Pattern{}, false
	}
	domain := topKey(domains[best])
	return Pattern{
		Template:   string(best),
		Domain:     domain,
		Confidence: float64(bestVotes) / float64(samples+1),
		Guess:      best.Apply(guessFirst, guessLast) + "@" + domain,
		Matches:    bestVotes,
		Samples:    samples,
	}, true
}

// matching lists the templates that build local from some spelling of the names.
func matching(local string, firsts, lasts nameForms) []Template {
	var out []Template
	for _, t := range CommonTemplates {
	spellings:
		for _, f := range firsts {
			for _, l := range lasts {
				if t.Apply(f, l) == local {
					out = append(out, t)
					break spellings
				}
			}
		}
	}
	return out
}

func splitAddress(email string) (local, domain string, ok bool) {
	email = strings.ToLower(strings.TrimSpace(email))
	at := strings.LastIndexByte(email, '@')
	if at <= 0 || at == len(email)-1 {
		return "", "", false
	}
	return email[:at], email[at+1:], true
}

// topKey returns the key with the highest count, the smallest key on a tie.
func topKey(m map[string]int) string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	best := ""
	for _, k := range keys {
		if best == "" || m[k] > m[best] {
			best = k
		}
	}
	return best
}
