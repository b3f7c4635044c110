package icpfit

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/firmoapi/firmo/shared/gazetteer"
	"github.com/firmoapi/firmo/shared/geo"
	"github.com/firmoapi/firmo/shared/industry"
)

// evidence is how one constraint fared against one company.
type evidence struct {
	strength float64 // belief that the constraint holds, in (0, 1)
	known    bool    // false when the company has no data the constraint could be judged on
	text     string
	// For the classified kinds (industry, business model): the classifier's score of
	// the best label the constraint names (in, summed for industries) and of the best
	// label it does not (out), and whether the classification had scores at all
	// (scored). doubt reads them.
	in, out  float64
	outLabel string // the business model out is the score of
	scored   bool
}

// Strength bounds: no single piece of evidence is taken as certain.
const (
	sure   = 0.98
	unsure = 0.02
)

// subject is a Company prepared for matching; its folded text is made on first need.
type subject struct {
	c      Company
	folded string
	done   bool
	// nwords is wordCount(), made on first need (counted).
	nwords  int
	counted bool
}

func (s *subject) text() string {
	if !s.done {
		s.done = true
		s.folded = " " + gazetteer.Fold(strings.Join(append([]string{s.c.Description, s.c.HomepageText}, s.c.Keywords...), " ")) + " "
	}
	return s.folded
}

// judge evaluates one constraint; a negated constraint's strength is flipped.
func (s *subject) judge(c constraint) evidence {
	var e evidence
	switch c.kind {
	case kindIndustry:
		e = s.industry(c)
	case kindSize:
		e = s.size(c)
	case kindRevenue:
		e = s.revenue(c)
	case kindGeo:
		e = s.geo(c)
	case kindModel:
		e = s.model(c)
	case kindTech:
		e = s.tech(c)
	case kindFounded:
		e = s.founded(c)
	default:
		e = s.words(c)
	}
	e.strength = clamp(e.strength)
	if c.negated {
		e.strength = 1 - e.strength
		e.text = "not " + c.label + ": " + e.text
	}
	return e
}

func clamp(v float64) float64 { return math.Min(sure, math.Max(unsure, v)) }

func score(m map[string]float64, k string) float64 {
	if m == nil {
		return 1
	}
	return m[k]
}

func (s *subject) industry(c constraint) evidence {
	co := s.c
	if len(co.Industries) == 0 && len(co.SubIndustries) == 0 {
		// No classification: the words themselves on the company's text.
		if strings.TrimSpace(s.text()) == "" {
			return evidence{strength: 0.5, text: "no industry data"}
		}
		if s.mentions(strings.Fields(c.label)) {
			return evidence{strength: 0.6, known: true, text: fmt.Sprintf("no industry data; %q appears in its text", c.label)}
		}
		return evidence{strength: 0.2, known: true, text: fmt.Sprintf("no industry data; %q does not appear in its text", c.label)}
	}
	total := 0.0
	var found []string
	for _, v := range c.values {
		if strings.Contains(v, "/") {
			if contains(co.SubIndustries, v) {
				total += score(co.SubIndustryScores, v)
				found = append(found, fmt.Sprintf("%s %.2f", v, score(co.SubIndustryScores, v)))
			} else if p := industry.Parent(v); contains(co.Industries, p) && !contains(c.values, p) {
				// The parent without the sub-industry: some of the way.
				total += 0.3 * score(co.IndustryScores, p)
				found = append(found, fmt.Sprintf("%s %.2f (not %s)", p, score(co.IndustryScores, p), v))
			}
			continue
		}
		if contains(co.Industries, v) {
			total += score(co.IndustryScores, v)
			found = append(found, fmt.Sprintf("%s %.2f", v, score(co.IndustryScores, v)))
		}
	}
	out := 0.0
	for _, v := range co.Industries {
		if !contains(c.values, v) {
			out = math.Max(out, score(co.IndustryScores, v))
		}
	}
	if len(found) == 0 {
		var named []string
		for _, v := range top(co.Industries, 2) {
			named = append(named, fmt.Sprintf("%s %.2f", v, score(co.IndustryScores, v)))
		}
		return evidence{strength: 0.03, known: true, text: "industries " + strings.Join(named, ", "), out: out, scored: true}
	}
	return evidence{strength: math.Min(total, 1), known: true, text: "industries " + strings.Join(found, ", "), in: total, out: out, scored: true}
}

func top(list []string, n int) []string {
	if len(list) > n {
		return list[:n]
	}
	return list
}

// employeeRange is the head-count range of a bucket (the API reference's values).
func employeeRange(b string) (lo, hi float64, ok bool) {
	switch b {
	case "1-10":
		return 1, 10, true
	case "11-50":
		return 11, 50, true
	case "51-200":
		return 51, 200, true
	case "201-500":
		return 201, 500, true
	case "501-1000":
		return 501, 1000, true
	case "1001-5000":
		return 1001, 5000, true
	case "5001-10000":
		return 5001, 10000, true
	case "10001+":
		return 10001, 100000, true
	}
	return 0, 0, false
}

// revenueRange is the USD range of a revenue bucket.
func revenueRange(b string) (lo, hi float64, ok bool) {
	switch b {
	case "<1M":
		return 1e4, 1e6, true
	case "1-10M":
		return 1e6, 1e7, true
	case "10-100M":
		return 1e7, 1e8, true
	case "100M-1B":
		return 1e8, 1e9, true
	case ">1B":
		return 1e9, 1e11, true
	}
	return 0, 0, false
}

// overlap is the share of [lo, hi] (on a log scale, where company sizes spread evenly)
// that lies within [clo, chi].
func overlap(lo, hi, clo, chi float64) float64 {
	a, b := math.Max(lo, clo), math.Min(hi, chi)
	if b < a {
		return 0
	}
	span := math.Log(hi+1) - math.Log(lo)
	if span <= 0 {
		return 1
	}
	return math.Min(1, (math.Log(b+1)-math.Log(a))/span)
}

func (s *subject) size(c constraint) evidence {
	co := s.c
	if co.Employees > 0 {
		n := float64(co.Employees)
		if n >= c.lo && n <= c.hi {
			return evidence{strength: sure, known: true, text: fmt.Sprintf("%d employees", co.Employees)}
		}
		return evidence{strength: unsure, known: true, text: fmt.Sprintf("%d employees", co.Employees)}
	}
	lo, hi, ok := employeeRange(co.EmployeeRange)
	if !ok {
		return evidence{strength: 0.5, text: "employee count unknown"}
	}
	return evidence{strength: overlap(lo, hi, c.lo, c.hi), known: true, text: co.EmployeeRange + " employees"}
}

func (s *subject) revenue(c constraint) evidence {
	lo, hi, ok := revenueRange(s.c.RevenueRange)
	if !ok {
		return evidence{strength: 0.5, text: "revenue unknown"}
	}
	return evidence{strength: overlap(lo, hi, c.lo, c.hi), known: true, text: "revenue " + s.c.RevenueRange}
}

func (s *subject) geo(c constraint) evidence {
	co := s.c
	if co.Country == "" {
		return evidence{strength: 0.5, text: "country unknown"}
	}
	if contains(c.values, co.Country) {
		return evidence{strength: sure, known: true, text: "country " + co.Country}
	}
	if len(c.states) > 0 {
		code := ""
		if co.State != "" {
			code, _ = geo.ResolveState(co.Country, co.State)
		}
		for _, st := range c.states {
			if code == st {
				return evidence{strength: sure, known: true, text: fmt.Sprintf("state %s, %s", co.State, co.Country)}
			}
		}
		if code == "" && len(c.values) == 0 && stateCountry(c.states, co.Country) {
			return evidence{strength: 0.5, text: "state unknown, country " + co.Country}
		}
	}
	where := "country " + co.Country
	if co.State != "" {
		where = fmt.Sprintf("state %s, %s", co.State, co.Country)
	}
	return evidence{strength: unsure, known: true, text: where}
}

func stateCountry(states []string, country string) bool {
	for _, st := range states {
		if strings.HasPrefix(st, country+"-") {
			return true
		}
	}
	return false
}

func (s *subject) model(c constraint) evidence {
	co := s.c
	labels := co.ModelScores
	if labels == nil && co.BusinessModel != "" {
		labels = map[string]float64{}
		for _, l := range strings.Split(co.BusinessModel, ",") {
			labels[strings.TrimSpace(l)] = 1
		}
	}
	if len(labels) == 0 {
		return evidence{strength: 0.5, text: "business model unknown"}
	}
	in, out, outLabel := 0.0, 0.0, ""
	for _, l := range byScore(labels) {
		v := labels[l]
		if contains(c.values, l) {
			in = math.Max(in, v)
		} else if v > out {
			out, outLabel = v, l
		}
	}
	desc := "business model " + co.BusinessModel
	if co.ModelScores != nil {
		var parts []string
		for _, l := range byScore(co.ModelScores) {
			parts = append(parts, fmt.Sprintf("%s %.2f", l, co.ModelScores[l]))
		}
		desc = "business model " + strings.Join(parts, ", ")
	}
	if in == 0 {
		return evidence{strength: 0.05, known: true, text: desc, out: out, outLabel: outLabel, scored: true}
	}
	return evidence{strength: in / (in + out), known: true, text: desc, in: in, out: out, outLabel: outLabel, scored: true}
}

func (s *subject) tech(c constraint) evidence {
	co := s.c
	for _, name := range c.values {
		for _, d := range TechnologyDomains(name) {
			for _, t := range co.Technologies {
				if t == d || strings.HasSuffix(t, "."+d) {
					return evidence{strength: 0.97, known: true, text: fmt.Sprintf("%s seen (%s)", name, t)}
				}
			}
		}
	}
	if len(co.Technologies) == 0 {
		return evidence{strength: 0.3, text: "no technologies seen"}
	}
	return evidence{strength: 0.08, known: true, text: "not seen among " + strings.Join(top(co.Technologies, 4), ", ")}
}

// mentions reports whether every word appears in the company's text.
func (s *subject) mentions(words []string) bool {
	t := s.text()
	for _, w := range words {
		if !strings.Contains(t, " "+w+" ") {
			return false
		}
	}
	return len(words) > 0
}

func (s *subject) words(c constraint) evidence {
	t := s.text()
	if strings.TrimSpace(t) == "" {
		return evidence{strength: 0.5, text: "no description or homepage text"}
	}
	var found []string
	for _, w := range c.words {
		if strings.Contains(t, " "+w+" ") || (len(w) > 4 && strings.Contains(t, " "+stem(w))) {
			found = append(found, w)
		}
	}
	f := float64(len(found)) / float64(len(c.words))
	text := "text mentions none of: " + c.label
	if len(found) > 0 {
		text = "text mentions " + strings.Join(found, ", ")
	}
	return evidence{strength: 0.1 + 0.8*f, known: true, text: text}
}

// stem drops a plural or verb ending so "integrations" finds "integration".
func stem(w string) string {
	for _, suf := range []string{"ies", "es", "s", "ing", "ed"} {
		if strings.HasSuffix(w, suf) && len(w)-len(suf) >= 4 {
			return w[:len(w)-len(suf)]
		}
	}
	return w
}

// founded judges a founding-year range on the year the company was founded, or when
// that is unknown the year its web presence began (its first certificate): a company
// cannot have been founded later than it was on the web, so a web start before the
// range rules it out, and one inside or after the range is taken as its founding year
// with less certainty.
func (s *subject) founded(c constraint) evidence {
	y, since := yearOf(s.c.Founded), false
	if y == 0 {
		y, since = yearOf(s.c.WebSince), true
	}
	if y == 0 {
		return evidence{strength: 0.5, text: "founding year unknown"}
	}
	in := float64(y) >= c.lo && float64(y) <= c.hi
	switch {
	case !since && in:
		return evidence{strength: sure, known: true, text: fmt.Sprintf("founded %d", y)}
	case !since:
		return evidence{strength: unsure, known: true, text: fmt.Sprintf("founded %d", y)}
	case float64(y) < c.lo:
		return evidence{strength: unsure, known: true, text: fmt.Sprintf("on the web since %d", y)}
	case in:
		return evidence{strength: 0.85, known: true, text: fmt.Sprintf("on the web since %d (founding year not known)", y)}
	default:
		// On the web only after the range: it may have been founded inside it.
		return evidence{strength: 0.3, known: true, text: fmt.Sprintf("on the web since %d (founding year not known)", y)}
	}
}

// yearOf reads the year of "2014" or "2014-03-01"; 0 when there is none.
func yearOf(date string) int {
	if len(date) < 4 {
		return 0
	}
	y, err := strconv.Atoi(date[:4])
	if err != nil || y < 1000 {
		return 0
	}
	return y
}
