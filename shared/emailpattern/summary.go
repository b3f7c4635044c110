package emailpattern

import (
	"maps"
	"slices"
	"sort"
	"strings"
)

// Summary is what learning needs of one domain's addresses, in a size bounded by the
// number of templates whatever the number of addresses: how many addresses fit which
// templates (per the domain they use), the few that can be examples, and how they spell
// letters with two ASCII spellings. LearnAll learns from summaries, so a pattern learned
// from a stored Summary and the model of stored Totals (LearnSummary) is the one LearnAll
// gives for the same addresses: a process that must not read every address (contact
// search on OpenSearch) answers from them (shared/patternstore).
type Summary struct {
	// Counts counts the addresses by the domain they use and the templates they fit
	// (bit i: CommonTemplates[i]; 0: none).
	Counts map[string]map[uint64]int `json:"counts"`
	// Kept are, in the order seen, the addresses that can be an example whatever
	// template wins: the first maxExamples fitting and the first two not fitting each
	// template.
	Kept []Kept `json:"kept,omitempty"`
	// Folded and Transliterated count the addresses showing each spelling.
	Folded         int `json:"folded,omitempty"`
	Transliterated int `json:"transliterated,omitempty"`
}

// Kept is an address a Summary keeps as a possible example.
type Kept struct {
	Email  string `json:"email"`
	Source string `json:"source"`
	Match  uint64 `json:"match"`
}

// maxContraExamples is how many contradicting addresses Evidence.Examples shows at most.
const maxContraExamples = 2

// Summarize summarizes the observations per domain (lowercased). An address is counted
// once per domain (the first source seen is the one kept); an unusable name or address
// is left out, as LearnAll does.
func Summarize(observations []Observation) map[string]Summary {
	byDomain := map[string][]obs{}
	seen := map[string]bool{}
	for _, o := range observations {
		d := strings.ToLower(strings.TrimSpace(o.Domain))
		ob, ok := observe(o)
		if !ok || seen[d+" "+ob.email] {
			continue
		}
		seen[d+" "+ob.email] = true
		byDomain[d] = append(byDomain[d], ob)
	}
	out := make(map[string]Summary, len(byDomain))
	for d, os := range byDomain {
		out[d] = summarize(os)
	}
	return out
}

func summarize(os []obs) Summary {
	s := Summary{Counts: map[string]map[uint64]int{}}
	n := len(CommonTemplates)
	fits, contra := make([]int, n), make([]int, n)
	for _, o := range os {
		if s.Counts[o.domain] == nil {
			s.Counts[o.domain] = map[uint64]int{}
		}
		s.Counts[o.domain][o.match]++
		switch o.spelling {
		case SpellingFolded:
			s.Folded++
		case SpellingTransliterated:
			s.Transliterated++
		}
		keep := false
		for i := range n {
			if o.match&(1<<i) != 0 {
				keep = keep || fits[i] < maxExamples
				fits[i]++
			} else {
				keep = keep || contra[i] < maxContraExamples
				contra[i]++
			}
		}
		if keep {
			s.Kept = append(s.Kept, Kept{Email: o.email, Source: o.source, Match: o.match})
		}
	}
	return s
}

// maskCount is how many addresses fit exactly the templates of mask.
type maskCount struct {
	mask  uint64
	count int
}

// masks merges Counts over the address domains, sorted by mask (so sums over them are
// the same on every call).
func (s Summary) masks() []maskCount {
	by := map[uint64]int{}
	for _, m := range s.Counts {
		for mask, c := range m {
			by[mask] += c
		}
	}
	out := make([]maskCount, 0, len(by))
	for _, mask := range slices.Sorted(maps.Keys(by)) {
		out = append(out, maskCount{mask, by[mask]})
	}
	return out
}

// Size is how many addresses the summary counts.
func (s Summary) Size() int {
	n := 0
	for _, m := range s.Counts {
		for _, c := range m {
			n += c
		}
	}
	return n
}

// votesOf counts, per template, the addresses it builds.
func votesOf(ms []maskCount) [64]int {
	var votes [64]int
	for _, mc := range ms {
		for i := range CommonTemplates {
			if mc.mask&(1<<i) != 0 {
				votes[i] += mc.count
			}
		}
	}
	return votes
}

// bestOf is the template with the most votes, the more common on a tie; -1 if none.
func bestOf(votes [64]int) int {
	best := -1
	for i := range CommonTemplates {
		if votes[i] > 0 && (best < 0 || votes[i] > votes[best]) {
			best = i
		}
	}
	return best
}

// Totals are what the model is fit on, summed over domains (Summary.Tally): how many
// domains each template wins, and, over the domains with three or more addresses, how
// many addresses were judged leave-one-out (Total) and how many did not fit the pattern
// their domain's other addresses give (Off).
type Totals struct {
	Wins  map[Template]int `json:"wins,omitempty"`
	Off   int              `json:"off"`
	Total int              `json:"total"`
}

// Tally is the domain's share of the Totals.
func (s Summary) Tally() Totals {
	t := Totals{Wins: map[Template]int{}}
	ms := s.masks()
	votes := votesOf(ms)
	if b := bestOf(votes); b >= 0 {
		t.Wins[CommonTemplates[b]]++
	}
	if s.Size() < 3 {
		return t
	}
	for _, mc := range ms {
		v := votes
		for i := range CommonTemplates {
			if mc.mask&(1<<i) != 0 {
				v[i]--
			}
		}
		b := bestOf(v)
		if b < 0 {
			continue
		}
		t.Total += mc.count
		if mc.mask&(1<<b) == 0 {
			t.Off += mc.count
		}
	}
	return t
}

// Plus is t with u added sign times (sign -1 takes a domain's old share out).
func (t Totals) Plus(u Totals, sign int) Totals {
	out := Totals{Wins: map[Template]int{}, Off: t.Off + sign*u.Off, Total: t.Total + sign*u.Total}
	for k, v := range t.Wins {
		out.Wins[k] += v
	}
	for k, v := range u.Wins {
		out.Wins[k] += sign * v
	}
	for k, v := range out.Wins {
		if v == 0 {
			delete(out.Wins, k)
		}
	}
	return out
}

// Model is the model fit on the totals: the prior from which template wins each domain
// (add-one smoothed), the noise from the leave-one-out judgements (add-one smoothed,
// at least 0.002, at most 0.5).
func (t Totals) Model() Model {
	n := len(CommonTemplates)
	m := Model{Prior: make([]float64, n), Noise: float64(t.Off+1) / float64(t.Total+2)}
	m.Noise = min(max(m.Noise, 0.002), 0.5)
	sum := 0.0
	for i, tmpl := range CommonTemplates {
		m.Prior[i] = float64(t.Wins[tmpl]) + 1
		sum += m.Prior[i]
	}
	for i := range m.Prior {
		m.Prior[i] /= sum
	}
	return m
}

// LearnSummary gives the pattern of one domain from its summary; false when none of its
// addresses follows any template.
func (m Model) LearnSummary(domain string, s Summary) (Learned, bool) {
	ms := s.masks()
	if bestOf(votesOf(ms)) < 0 {
		return Learned{}, false
	}
	post := m.posterior(ms)
	// The most probable template; within rounding of a tie (two templates the addresses
	// support equally), the more common one, whatever order the sums ran in.
	best := 0
	for i := range post {
		if post[i] > post[best]*(1+1e-9) {
			best = i
		}
	}
	bit := uint64(1) << best
	t := CommonTemplates[best]
	ev := Evidence{}
	for _, mc := range ms {
		if mc.mask&bit != 0 {
			ev.Fit += mc.count
		} else {
			ev.Contradict += mc.count
		}
	}
	domains := map[string]int{}
	for at, byMask := range s.Counts {
		for mask, c := range byMask {
			if mask&bit != 0 {
				domains[at] += c
			}
		}
	}
	var fits, contra []Example
	for _, k := range s.Kept {
		ex := Example{Email: k.Email, Source: k.Source, Fits: k.Match&bit != 0}
		if ex.Fits {
			fits = append(fits, ex)
		} else {
			contra = append(contra, ex)
		}
	}
	nContra := min(len(contra), maxContraExamples)
	ev.Examples = append(fits[:min(len(fits), maxExamples-nContra)], contra[:nContra]...)
	at := topKey(domains)
	if at == "" {
		at = domain
	}
	// A new person follows t when t is the pattern and the person follows it, or when
	// another template is and the person's address happens to be t's (noise spread
	// over the templates).
	conf := post[best]*(1-m.Noise) + (1-post[best])*m.Noise/float64(len(CommonTemplates))
	sp := SpellingUnknown
	switch {
	case s.Transliterated > s.Folded:
		sp = SpellingTransliterated
	case s.Folded > s.Transliterated:
		sp = SpellingFolded
	}
	return Learned{Template: string(t), Domain: at, Guess: t.Apply(guessFirst, guessLast) + "@" + at, Evidence: ev, Confidence: conf, Spelling: sp}, true
}

// TotalsOf sums the summaries' tallies.
func TotalsOf(sums map[string]Summary) Totals {
	t := Totals{Wins: map[Template]int{}}
	for _, d := range sortedKeys(sums) {
		t = t.Plus(sums[d].Tally(), 1)
	}
	return t
}

func sortedKeys(m map[string]Summary) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}
