package segment

import (
	"fmt"
	"math"
	"sort"
	"strings"
	"unicode"

	"github.com/firmoapi/firmo/shared/company"
	"github.com/firmoapi/firmo/shared/geo"
	"github.com/firmoapi/firmo/shared/industry"
)

// Term kinds, as prefixes of a term: an industry or sub-industry value, a profile
// keyword, a word of the description.
const (
	termIndustry = "i:"
	termKeyword  = "k:"
	termWord     = "w:"
)

// describe labels each segment 0..k-1 from the top terms of class-based TF-IDF
// (c-TF-IDF, as BERTopic): every segment, and the unclustered companies, is one
// document of its members' industries, sub-industries, keywords and description words;
// a term's weight in a segment is its frequency there, over the segment's term count,
// times log(1 + A / f(t)), A being the mean term count of a class and f(t) the term's
// count over all classes. A label reads "Industry (keyword, keyword), Geography":
// the segment's strongest industry, its two strongest other terms, and its country or
// region when most members share one. Labels are distinct: a repeated one takes the
// segment's next terms, then its number.
func describe(profiles []company.Profile, labels []int, k int) []string {
	if k == 0 {
		return nil
	}
	classes := k + 1 // the last class is the unclustered companies
	counts := make([]map[string]float64, classes)
	totals := make([]float64, classes)
	members := make([][]int, classes)
	for c := range counts {
		counts[c] = map[string]float64{}
	}
	overall := map[string]float64{}
	for i, p := range profiles {
		c := labels[i]
		if c < 0 {
			c = k
		}
		members[c] = append(members[c], i)
		for t, w := range profileTerms(p) {
			counts[c][t] += w
			totals[c] += w
			overall[t] += w
		}
	}
	var avg float64
	for _, t := range totals {
		avg += t
	}
	avg /= float64(classes)
	out := make([]string, k)
	used := map[string]bool{}
	for c := range k {
		ranked := rankTerms(counts[c], totals[c], overall, avg)
		out[c] = label(ranked, geography(profiles, members[c]), c, used)
		used[out[c]] = true
	}
	return out
}

type scored struct {
	term  string
	score float64
}

// rankTerms orders a class's terms by c-TF-IDF, best first (ties by term).
func rankTerms(counts map[string]float64, total float64, overall map[string]float64, avg float64) []scored {
	out := make([]scored, 0, len(counts))
	if total == 0 {
		return out
	}
	for t, n := range counts {
		out = append(out, scored{t, n / total * math.Log(1+avg/overall[t])})
	}
	sort.Slice(out, func(i, j int) bool {
		if out[i].score != out[j].score {
			return out[i].score > out[j].score
		}
		return out[i].term < out[j].term
	})
	return out
}

// label writes a segment's label from its ranked terms and geography, distinct from
// those in used.
func label(ranked []scored, geography string, id int, used map[string]bool) string {
	head := ""
	var rest []string
	seen := map[string]bool{}
	for _, s := range ranked {
		text := display(s.term)
		key := strings.ToLower(text)
		if text == "" || seen[key] {
			continue
		}
		if strings.HasPrefix(s.term, termIndustry) {
			if head == "" {
				head = text
				seen[key] = true
			}
			continue
		}
		if head != "" && strings.Contains(strings.ToLower(head), key) {
			continue // the industry says it already
		}
		seen[key] = true
		rest = append(rest, text)
		if len(rest) == 6 {
			break
		}
	}
	write := func(n int) string {
		var b strings.Builder
		b.WriteString(head)
		kw := rest[:min(n, len(rest))]
		switch {
		case head == "" && len(kw) > 0:
			b.WriteString(strings.Join(kw, ", "))
		case len(kw) > 0:
			b.WriteString(" (" + strings.Join(kw, ", ") + ")")
		}
		if geography != "" {
			if b.Len() > 0 {
				b.WriteString(", ")
			}
			b.WriteString(geography)
		}
		if b.Len() == 0 {
			return fmt.Sprintf("Segment %d", id)
		}
		return b.String()
	}
	for n := 2; n <= max(2, len(rest)); n++ {
		if l := write(n); !used[l] {
			return l
		}
	}
	return fmt.Sprintf("%s (segment %d)", write(2), id)
}

// display is a term as a label shows it.
func display(term string) string {
	switch {
	case strings.HasPrefix(term, termIndustry):
		l, _ := industry.Label(term[len(termIndustry):])
		return l
	case strings.HasPrefix(term, termKeyword):
		return term[len(termKeyword):]
	case strings.HasPrefix(term, termWord):
		return term[len(termWord):]
	}
	return ""
}

// profileTerms are a profile's terms with their weights: its two strongest industries
// and sub-industries, its twelve strongest keywords (stopwords left out, as the
// pipeline's keywords include words like "modern"), and the distinct words of its
// description (each counted once per company).
func profileTerms(p company.Profile) map[string]float64 {
	out := map[string]float64{}
	for _, v := range company.TopKeys(p.IndustryGroups, 2) {
		out[termIndustry+v]++
	}
	for _, v := range company.TopKeys(p.SubIndustry, 2) {
		out[termIndustry+v]++
	}
	for _, v := range company.TopKeys(p.Keywords, 12) {
		if v = strings.ToLower(strings.TrimSpace(v)); v != "" && !stopwords[v] {
			out[termKeyword+v]++
		}
	}
	for _, w := range strings.FieldsFunc(strings.ToLower(p.Description), func(r rune) bool { return !unicode.IsLetter(r) && r != '-' }) {
		w = strings.Trim(w, "-")
		if len([]rune(w)) < 3 || stopwords[w] {
			continue
		}
		out[termWord+w] = 1
	}
	return out
}

// geography is the country most of a segment's members are in (at least 60%), else the
// smallest region holding at least 70% of them, else "".
func geography(profiles []company.Profile, members []int) string {
	if len(members) == 0 {
		return ""
	}
	byCountry := map[string]int{}
	for _, i := range members {
		if c := strings.ToUpper(profiles[i].Address.Country); c != "" {
			byCountry[c]++
		}
	}
	best, bestN := "", 0
	for c, n := range byCountry {
		if n > bestN || (n == bestN && c < best) {
			best, bestN = c, n
		}
	}
	if float64(bestN) >= 0.6*float64(len(members)) {
		if c, ok := geo.LookupCountry(best); ok {
			if c.CommonName != "" {
				return c.CommonName
			}
			return c.Name
		}
		return best
	}
	pick, pickSize := "", math.MaxInt
	for _, code := range labelRegions {
		r, ok := geo.LookupRegion(code)
		if !ok {
			continue
		}
		in := 0
		for _, c := range r.Countries {
			in += byCountry[c]
		}
		if float64(in) >= 0.7*float64(len(members)) && len(r.Countries) < pickSize {
			pick, pickSize = code, len(r.Countries)
		}
	}
	return pick
}

// labelRegions are the region aliases a label may name.
var labelRegions = []string{"DACH", "BENELUX", "NORDICS", "ANZ", "GCC", "ASEAN", "CEE", "LATAM", "EU", "MENA", "APAC", "EMEA"}

// stopwords are the English, German, French and Spanish function words, and the word
// "company" in the world's languages, that a label never shows.
var stopwords = func() map[string]bool {
	m := map[string]bool{}
	for _, w := range strings.Fields(`the and for with our your you are from that this have has was were will can into more than
		over their they them its also all any not but out who what when where which how about across based company companies
		provide provides providing offer offers offering services service solutions solution products product team teams
		customers clients business businesses leading help helps since founded world global new based
		der die das und für mit von den dem des ein eine einer ist sind wir ihre unsere bei auf aus zum zur
		les des une pour avec dans sur nous vos aux est sont par qui
		los las del para con una por sus nuestra nuestros somos que desde como más
		sie wir ihr ihnen auch nicht oder sich als use using modern
		unternehmen firma entreprise entreprises empresa empresas bedrijf bedrijven azienda aziende`) {
		m[w] = true
	}
	return m
}()
