package icpfit

import (
	"math"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"sync"

	"github.com/firmoapi/firmo/shared/gazetteer"
	"github.com/firmoapi/firmo/shared/geo"
)

// kind is what a constraint is about; each kind has its own features.
type kind int

const (
	kindIndustry kind = iota
	kindSize
	kindRevenue
	kindGeo
	kindModel
	kindTech
	kindText
	numKinds
)

var kindNames = [numKinds]string{"industry", "size", "revenue", "geo", "model", "tech", "text"}

// kindFounded is a founding-year constraint ("founded before 2015"). The logistic
// model has no input for it (the shipped model file was trained without one), so it
// is judged, reported and applied by the rules of decide alone.
const kindFounded = numKinds

// constraint is one thing a criterion line asks of a company. Several constraints of
// one line must all hold ("B2B SaaS in Germany" is a model, an industry and a place);
// the values of one constraint are alternatives ("Germany or Austria").
type constraint struct {
	kind    kind
	negated bool     // "not a consultancy": met when the company is not one
	label   string   // the words it was read from, for evidence
	values  []string // industry values, alpha-2 codes, model labels or technology names
	states  []string // geo: ISO 3166-2 codes, alternatives to values
	lo, hi  float64  // size (head count) and revenue (USD) bounds, hi +Inf when open
	words   []string // text: folded content words to find
}

// negations are the words that turn the phrase after them into its opposite.
var negations = map[string]bool{"not": true, "no": true, "non": true, "never": true, "without": true, "excluding": true,
	"except": true, "exclude": true, "isn": true, "aren": true, "nor": true, "neither": true}

// fillers are words of a criterion that carry no constraint of their own.
var fillers = wordSet(`a an the and or of for in on at to by with from as is are be been being that which who
		whose its it their they them this these those any all some company companies business businesses firm firms
		organisation organisations organization organizations based located headquartered hq head office offices operating
		operates operate uses use using used run runs running has have having must should would could can may want wants
		we our us you your than more less fewer over under above below least most up between about around per annual
		employees employee staff people headcount fte ftes workers size sized revenue revenues turnover arr sales million
		billion k m b mm bn usd eur gbp plus like such e g eg etc also only mainly mostly primarily preferably ideally
		good strong clear sells sell selling customers clients focus focused serving serves serve target targets
		kind type sort one two three do does doing same other else there here where what when how very really be
		offers offer offering offerings provides provide providing mentions mention mentioning`)

func wordSet(text string) map[string]bool {
	m := map[string]bool{}
	for _, w := range strings.Fields(text) {
		m[w] = true
	}
	return m
}

var (
	thousands = regexp.MustCompile(`(\d),(\d{3})`)
	upperUS   = regexp.MustCompile(`\b(?:U\.S\.A?\.?|USA|US)(?:\b|$)`)
	upperUK   = regexp.MustCompile(`\b(?:UK|U\.K\.)(?:\b|$)`)
	num       = `(\d+(?:\.\d+)?)\s*(k)?`
	staff     = `\s*\+?\s*(?:employees?|staff|people|ftes?|workers|headcount|team members)`
	sizeRange = regexp.MustCompile(`(?:between\s+)?` + num + `\s*(?:-|–|to|and)\s*` + num + staff)
	sizeNoMax = regexp.MustCompile(`no more than\s*` + num + staff)
	sizeNoMin = regexp.MustCompile(`no (?:fewer|less) than\s*` + num + staff)
	sizeMin   = regexp.MustCompile(`(?:more than|over|above|at least|minimum of|min\.?|greater than|>=?)\s*` + num + staff)
	sizePlus  = regexp.MustCompile(num + `\s*\+` + staff + `|` + num + staff + `\s*(?:or more|and above|and up|\+|plus)`)
	sizeMax   = regexp.MustCompile(`(?:fewer than|less than|under|below|up to|at most|maximum of|max\.?|<=?)\s*` + num + staff)
	sizeExact = regexp.MustCompile(`(?:^|\s)` + num + staff)
	moneyUnit = `(k|m|mm|mn|million|millions|b|bn|billion|billions)\b`
	money     = regexp.MustCompile(`[$€£]?\s*(\d+(?:\.\d+)?)\s*` + moneyUnit)
	moneyPair = regexp.MustCompile(`[$€£]?\s*(\d+(?:\.\d+)?)\s*` + `(?:` + moneyUnit + `)?\s*(?:-|–|to|and)\s*[$€£]?\s*(\d+(?:\.\d+)?)\s*` + moneyUnit)
	moneyBare = regexp.MustCompile(`[$€£]\s*(\d+(?:\.\d+)?)|(?:^|\s)(\d{5,})\b`)
	revenueW  = regexp.MustCompile(`\b(revenue|revenues|turnover|arr|sales|annual recurring)\b`)
	moneyMax  = regexp.MustCompile(`(?:under|below|less than|up to|at most|no more than|<)\s*[$€£]?\s*\d`)
	foundedW  = `(?:founded|established|incorporated|started|in business since|since)`
	year      = `((?:19|20)\d\d)`
	yearRange = regexp.MustCompile(foundedW + `\s*(?:between|from|in)?\s*` + year + `\s*(?:-|–|to|and)\s*` + year)
	yearMax   = regexp.MustCompile(foundedW + `\s*(?:before|prior to|until|by|no later than|in or before|earlier than)\s*` + year)
	yearMin   = regexp.MustCompile(foundedW + `\s*(?:after|since|from|no earlier than|in or after|later than)\s*` + year)
	yearOn    = regexp.MustCompile(foundedW + `\s*(?:in\s*)?` + year + `(\s*(?:or|and)\s*(?:earlier|before|later|after))?`)
)

// sizeWords are head-count ranges people name with words.
var sizeWords = []struct {
	words  string
	lo, hi float64
}{
	{"small and medium", 1, 250}, {"small and mid sized", 1, 250}, {"smb", 1, 250}, {"smbs", 1, 250}, {"sme", 1, 250}, {"smes", 1, 250},
	{"small business", 1, 50}, {"small businesses", 1, 50}, {"mid market", 100, 1000}, {"mid sized", 50, 1000},
	{"midsize", 50, 1000}, {"mid size", 50, 1000}, {"large enterprise", 1000, math.Inf(1)}, {"large enterprises", 1000, math.Inf(1)},
	{"enterprise sized", 1000, math.Inf(1)}, {"startup", 1, 100}, {"startups", 1, 100}, {"large companies", 1000, math.Inf(1)},
}

// parsedCache keeps the constraints of recently read criterion lines: a run scores
// thousands of companies against the same few lines.
type parsedCache struct {
	mu sync.RWMutex
	m  map[string][]constraint
}

const maxCachedLines = 4096

func (pc *parsedCache) get(line string) []constraint {
	pc.mu.RLock()
	cs, ok := pc.m[line]
	pc.mu.RUnlock()
	if ok {
		return cs
	}
	cs = parseCriterion(line)
	pc.mu.Lock()
	if pc.m == nil || len(pc.m) >= maxCachedLines {
		pc.m = map[string][]constraint{}
	}
	pc.m[line] = cs
	pc.mu.Unlock()
	return cs
}

// phraseIndex is the phrase table by first word.
var phraseIndex = sync.OnceValue(func() map[string][]phrase {
	idx := map[string][]phrase{}
	for _, p := range phrases() {
		idx[p.words[0]] = append(idx[p.words[0]], p)
	}
	return idx
})

// parseCriterion reads one criterion line into constraints.
func parseCriterion(line string) []constraint {
	var out []constraint
	lower := strings.ToLower(line)
	// "1,000,000": each pass removes every other separator.
	for thousands.MatchString(lower) {
		lower = thousands.ReplaceAllString(lower, "$1$2")
	}
	if c, ok := parseSize(lower); ok {
		out = append(out, c)
	}
	if c, ok := parseRevenue(lower); ok {
		out = append(out, c)
	}
	if c, ok := parseFounded(lower); ok {
		out = append(out, c)
	}
	words := strings.Fields(gazetteer.Fold(upperUK.ReplaceAllString(upperUS.ReplaceAllString(line, " usa "), " uk ")))
	used := make([]bool, len(words))
	type hit struct {
		pos int
		p   phrase
	}
	var hits []hit
	idx := phraseIndex()
	for i := 0; i < len(words); i++ {
		for _, p := range idx[words[i]] {
			if i+len(p.words) > len(words) || anyUsed(used[i:i+len(p.words)]) || !equalWords(words[i:i+len(p.words)], p.words) {
				continue
			}
			hits = append(hits, hit{i, p})
			for k := range p.words {
				used[i+k] = true
			}
			i += len(p.words) - 1
			break
		}
	}
	// States by any name shared/geo knows ("Bavaria" as well as "Bayern").
	for i := 0; i < len(words); i++ {
		for n := min(3, len(words)-i); n >= 1; n-- {
			gram := words[i : i+n]
			text := strings.Join(gram, " ")
			if anyUsed(used[i:i+n]) || len(text) < 4 || fillers[gram[0]] || negations[gram[0]] || isDigits(gram[0]) {
				continue
			}
			if code, name, ok := resolveState(text); ok {
				hits = append(hits, hit{i, phrase{words: gram, kind: phraseState, values: []string{code}, label: name}})
				for k := range gram {
					used[i+k] = true
				}
				i += n - 1
				break
			}
		}
	}
	sort.SliceStable(hits, func(a, b int) bool { return hits[a].pos < hits[b].pos })
	// Size words ("SMB", "mid-market") when no number gave the size.
	if !hasKind(out, kindSize) {
		for _, sw := range sizeWords {
			if k := indexWords(words, strings.Fields(sw.words)); k >= 0 && !anyUsed(used[k:k+len(strings.Fields(sw.words))]) {
				out = append(out, constraint{kind: kindSize, label: sw.words, lo: sw.lo, hi: sw.hi})
				break
			}
		}
	}
	negatedAt := func(pos int) bool {
		for q := pos - 1; q >= 0 && q >= pos-4; q-- {
			if used[q] {
				return false
			}
			if negations[words[q]] {
				return true
			}
		}
		return false
	}
	groups := map[[2]int]*constraint{}
	var order [][2]int
	for _, h := range hits {
		k := kindOfPhrase(h.p.kind)
		neg := negatedAt(h.pos)
		key := [2]int{int(k), boolInt(neg)}
		c, ok := groups[key]
		if !ok {
			c = &constraint{kind: k, negated: neg}
			groups[key] = c
			order = append(order, key)
		}
		if c.label != "" {
			c.label += " / "
		}
		c.label += strings.Join(h.p.words, " ")
		if h.p.kind == phraseState {
			c.states = appendNew(c.states, h.p.values...)
		} else {
			c.values = appendNew(c.values, h.p.values...)
		}
	}
	for _, key := range order {
		out = append(out, *groups[key])
	}
	if len(out) == 0 {
		var content []string
		neg := false
		for i, w := range words {
			if i == 0 && negations[w] {
				neg = true
			}
			if !used[i] && !fillers[w] && !negations[w] && len(w) >= 3 && !isDigits(w) {
				content = appendNew(content, w)
			}
		}
		if len(content) > 0 {
			out = append(out, constraint{kind: kindText, negated: neg, label: strings.Join(content, " "), words: content})
		}
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].kind < out[j].kind })
	return out
}

// resolveState finds a state or province of stateCountries by name (not by code: "in"
// would be Indiana).
func resolveState(text string) (code, name string, ok bool) {
	for _, cc := range stateCountries {
		if c, found := geo.ResolveState(cc, text); found {
			if s, known := geo.LookupSubdivision(c); known && gazetteer.Fold(s.Suffix()) != text {
				return c, s.DisplayName(), true
			}
		}
	}
	return "", "", false
}

func kindOfPhrase(k phraseKind) kind {
	switch k {
	case phraseIndustry:
		return kindIndustry
	case phraseModel:
		return kindModel
	case phraseTech:
		return kindTech
	default:
		return kindGeo
	}
}

// parseSize reads a head-count range: "50-500 employees", "more than 200 staff",
// "1000+ employees", "fewer than 10 employees", "100 employees".
func parseSize(s string) (constraint, bool) {
	c := constraint{kind: kindSize, lo: 1, hi: math.Inf(1)}
	switch {
	case sizeNoMax.MatchString(s):
		m := sizeNoMax.FindStringSubmatch(s)
		c.hi = amount(m[1], m[2])
	case sizeNoMin.MatchString(s):
		m := sizeNoMin.FindStringSubmatch(s)
		c.lo = amount(m[1], m[2])
	case sizeRange.MatchString(s):
		m := sizeRange.FindStringSubmatch(s)
		c.lo, c.hi = amount(m[1], m[2]), amount(m[3], m[4])
	case sizeMin.MatchString(s):
		m := sizeMin.FindStringSubmatch(s)
		c.lo = amount(m[1], m[2])
		if !strings.Contains(m[0], "least") && !strings.Contains(m[0], "=") && !strings.Contains(m[0], "min") {
			c.lo++
		}
	case sizePlus.MatchString(s):
		m := sizePlus.FindStringSubmatch(s)
		if m[1] != "" {
			c.lo = amount(m[1], m[2])
		} else {
			c.lo = amount(m[3], m[4])
		}
	case sizeMax.MatchString(s):
		m := sizeMax.FindStringSubmatch(s)
		c.hi = amount(m[1], m[2])
		if !strings.Contains(m[0], "up to") && !strings.Contains(m[0], "most") && !strings.Contains(m[0], "=") && !strings.Contains(m[0], "max") {
			c.hi--
		}
	case sizeExact.MatchString(s):
		m := sizeExact.FindStringSubmatch(s)
		n := amount(m[1], m[2])
		c.lo, c.hi = n*0.8, n*1.25 // "100 employees": about that many
	default:
		return c, false
	}
	if c.hi < c.lo {
		c.lo, c.hi = c.hi, c.lo
	}
	c.label = describeRange(c.lo, c.hi, "employees")
	return c, true
}

// parseRevenue reads a revenue range from a line that names revenue (turnover, ARR,
// sales): "$10M-100M revenue", "revenue over $50M", "under 1B turnover".
func parseRevenue(s string) (constraint, bool) {
	if !revenueW.MatchString(s) {
		return constraint{}, false
	}
	c := constraint{kind: kindRevenue, lo: 0, hi: math.Inf(1)}
	if m := moneyPair.FindStringSubmatch(s); m != nil {
		unit2 := m[4]
		unit1 := m[2]
		if unit1 == "" {
			unit1 = unit2
		}
		c.lo, c.hi = money1(m[1], unit1), money1(m[3], unit2)
	} else if m := money.FindStringSubmatch(s); m != nil {
		v := money1(m[1], m[2])
		if moneyMax.MatchString(s) {
			c.hi = v
		} else {
			c.lo = v
		}
	} else if m := moneyBare.FindStringSubmatch(s); m != nil {
		// An amount without a unit word: "$500000", "2500000 EUR".
		v, _ := strconv.ParseFloat(m[1]+m[2], 64)
		if moneyMax.MatchString(s) {
			c.hi = v
		} else {
			c.lo = v
		}
	} else {
		return constraint{}, false
	}
	if c.hi < c.lo {
		c.lo, c.hi = c.hi, c.lo
	}
	c.label = describeRange(c.lo, c.hi, "USD revenue")
	return c, true
}

// parseFounded reads a founding-year range: "founded before 2015" (up to 2014),
// "founded after 2018" (from 2019), "established since 2010", "founded between 2000
// and 2010", "founded in 2012", "founded in 2015 or earlier". Years are numbers, so
// "before 2015" never matches a company founded in 2015.
func parseFounded(s string) (constraint, bool) {
	c := constraint{kind: kindFounded, lo: 0, hi: math.Inf(1)}
	yr := func(v string) float64 { f, _ := strconv.ParseFloat(v, 64); return f }
	switch {
	case yearRange.MatchString(s):
		m := yearRange.FindStringSubmatch(s)
		c.lo, c.hi = yr(m[1]), yr(m[2])
	case yearMax.MatchString(s):
		m := yearMax.FindStringSubmatch(s)
		c.hi = yr(m[1])
		if !strings.Contains(m[0], " or ") && !strings.Contains(m[0], "no later") && !strings.Contains(m[0], " by ") {
			c.hi--
		}
	case yearMin.MatchString(s):
		m := yearMin.FindStringSubmatch(s)
		c.lo = yr(m[1])
		if strings.Contains(m[0], "after") || strings.Contains(m[0], "later than") {
			if !strings.Contains(m[0], " or ") {
				c.lo++
			}
		}
	case yearOn.MatchString(s):
		m := yearOn.FindStringSubmatch(s)
		switch v := yr(m[1]); {
		case strings.Contains(m[2], "earlier") || strings.Contains(m[2], "before"):
			c.hi = v
		case strings.Contains(m[2], "later") || strings.Contains(m[2], "after"):
			c.lo = v
		default:
			c.lo, c.hi = v, v
		}
	default:
		return c, false
	}
	if c.hi < c.lo {
		c.lo, c.hi = c.hi, c.lo
	}
	switch {
	case c.lo == c.hi:
		c.label = "founded in " + strconv.Itoa(int(c.lo))
	case math.IsInf(c.hi, 1):
		c.label = "founded in " + strconv.Itoa(int(c.lo)) + " or later"
	case c.lo == 0:
		c.label = "founded in " + strconv.Itoa(int(c.hi)) + " or earlier"
	default:
		c.label = "founded " + strconv.Itoa(int(c.lo)) + "-" + strconv.Itoa(int(c.hi))
	}
	return c, true
}

func amount(n, k string) float64 {
	v, _ := strconv.ParseFloat(n, 64)
	if k == "k" {
		v *= 1000
	}
	return v
}

func money1(n, unit string) float64 {
	v, _ := strconv.ParseFloat(n, 64)
	switch unit {
	case "k":
		return v * 1e3
	case "m", "mm", "mn", "million", "millions":
		return v * 1e6
	case "b", "bn", "billion", "billions":
		return v * 1e9
	}
	return v
}

func describeRange(lo, hi float64, unit string) string {
	switch {
	case math.IsInf(hi, 1):
		return "at least " + short(lo) + " " + unit
	case lo <= 1:
		return "at most " + short(hi) + " " + unit
	default:
		return short(lo) + "-" + short(hi) + " " + unit
	}
}

// short writes 1200 as 1.2K, 10000000 as 10M.
func short(v float64) string {
	switch {
	case v >= 1e9:
		return strconv.FormatFloat(v/1e9, 'f', -1, 64) + "B"
	case v >= 1e6:
		return strconv.FormatFloat(v/1e6, 'f', -1, 64) + "M"
	case v >= 1e4:
		return strconv.FormatFloat(v/1e3, 'f', -1, 64) + "K"
	default:
		return strconv.FormatFloat(math.Round(v), 'f', -1, 64)
	}
}

func hasKind(cs []constraint, k kind) bool {
	for _, c := range cs {
		if c.kind == k {
			return true
		}
	}
	return false
}

func anyUsed(u []bool) bool {
	for _, b := range u {
		if b {
			return true
		}
	}
	return false
}

func equalWords(a, b []string) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

func indexWords(words, sub []string) int {
	for i := 0; i+len(sub) <= len(words); i++ {
		if equalWords(words[i:i+len(sub)], sub) {
			return i
		}
	}
	return -1
}

func appendNew(list []string, vs ...string) []string {
	for _, v := range vs {
		if !contains(list, v) {
			list = append(list, v)
		}
	}
	return list
}

func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}

func isDigits(s string) bool {
	for _, r := range s {
		if r < '0' || r > '9' {
			return false
		}
	}
	return true
}
