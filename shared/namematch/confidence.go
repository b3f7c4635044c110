package namematch

import (
	"math"
	"slices"
	"strings"

	"github.com/firmoapi/firmo/shared/geo"
)

// match_confidence is a logistic function of a sum of evidence (in logits):
//
//	z = NameSlope × (S − NameCenter)          name similarity S (see Similarity), 0..1
//	  + country  +0.6 agrees, −1.0 differs
//	  + state    +0.4 agrees, −0.5 differs
//	  + city     +0.6 agrees, −0.4 differs
//	  + zip      +0.6 agrees (or one extends the other), +0.2 same first three
//	             characters, −0.3 differs
//	  + phone    +2.0 when one of the company's numbers is the given one
//	  + prior    +0.2 × score / 800 (an established company is the likelier reading,
//	             a tie-breaker: it never outweighs a difference in the name)
//	match_confidence = round(100 / (1 + e^−z))
//
// A location term counts only when both the query and the company have the value
// (a missing value is no evidence either way; an unresolvable state is ignored). So
// an identical name alone gives about 90, a name with S = 0.7 alone gives 50 (the
// floor), and agreeing location or phone lifts a weaker name over it. A different
// phone costs nothing: companies have many numbers.
const (
	NameSlope  = 7.5
	NameCenter = 0.7

	countryAgree, countryDiffer  = 0.6, -1.0
	stateAgree, stateDiffer      = 0.4, -0.5
	cityAgree, cityDiffer        = 0.6, -0.4
	zipAgree, zipNear, zipDiffer = 0.6, 0.2, -0.3
	phoneAgree                   = 2.0
	// PriorMax is the most the score prior adds (at score 800).
	PriorMax = 0.2
	maxScore = 800
)

// confidence turns a logit into match_confidence, 0 to 100.
func confidence(z float64) int {
	return int(math.Round(100 / (1 + math.Exp(-z))))
}

// prior is the logit the company's score adds.
func prior(score int) float64 {
	return PriorMax * float64(min(max(score, 0), maxScore)) / maxScore
}

// evaluate scores an entry against the query without the score prior. ok is false
// when the entry is not a candidate at all: in strict mode no name or alternate name
// equals the query's normalized name; in local mode it lacks the query's country or
// state, or has another.
func (p *parsed) evaluate(e Entry) (z float64, ok bool) {
	var s float64
	if p.q.Strict {
		if !slices.Contains(e.Exact, p.exact) {
			return 0, false
		}
		s = 1
	} else {
		for _, t := range e.Text {
			s = max(s, Similarity(p.name, Name{Tokens: strings.Fields(t)}))
		}
	}
	state := p.state
	if state == "" && p.stateRaw != "" && e.Country != "" {
		state, _ = geo.ResolveState(e.Country, p.stateRaw)
	}
	if p.q.LocalMode {
		// The query's location is kept: a candidate elsewhere, or whose location is
		// missing (or cannot be compared), is no candidate.
		if p.country != "" && e.Country != p.country {
			return 0, false
		}
		if (p.state != "" || p.stateRaw != "") && (state == "" || e.State != state) {
			return 0, false
		}
	}
	z = NameSlope * (s - NameCenter)
	z += agreement(p.country, e.Country, countryAgree, countryDiffer)
	z += agreement(state, e.State, stateAgree, stateDiffer)
	z += cityTerm(p.city, e.City)
	z += zipTerm(p.zip, e.Zip)
	if p.phoneMatches(e.Phones) {
		z += phoneAgree
	}
	return z, true
}

func agreement(q, c string, agree, differ float64) float64 {
	switch {
	case q == "" || c == "":
		return 0
	case q == c:
		return agree
	}
	return differ
}

// cityTerm compares city keys; one typo in a longer name still agrees.
func cityTerm(q, c string) float64 {
	if q == "" || c == "" {
		return 0
	}
	if q == c || (min(len(q), len(c)) >= 5 && osa([]rune(q), []rune(c)) <= 1) {
		return cityAgree
	}
	return cityDiffer
}

func zipTerm(q, c string) float64 {
	switch {
	case q == "" || c == "":
		return 0
	case q == c, min(len(q), len(c)) >= 4 && (strings.HasPrefix(q, c) || strings.HasPrefix(c, q)):
		return zipAgree
	case len(q) >= 3 && len(c) >= 3 && q[:3] == c[:3]:
		return zipNear
	}
	return zipDiffer
}

func (p *parsed) phoneMatches(phones []string) bool {
	switch {
	case p.phone != "":
		return slices.Contains(phones, p.phone)
	case len(p.phoneDigits) >= 6:
		for _, ph := range phones {
			if strings.HasSuffix(ph, p.phoneDigits) {
				return true
			}
		}
	}
	return false
}
