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
// count over all classes. A label reads "Industry (term, term), Geography" when one
// industry dominates the segment (the top industry of at least dominantShare of its
// members), else "term, term, term, Geography": the distinctive terms are its strongest
// keywords and description words (stop words and size words never: they tell nothing
// about a segment), and the geography is its country or region when most members share
// one. Labels are distinct: a repeated one takes the segment's next terms, then its
// number.
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
		out[c] = label(ranked, dominant(profiles, members[c]), geography(profiles, members[c]), c, used)
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

// dominantShare is the share of a segment's members whose top industry must be the
// same for the label to name it.
const dominantShare = 2.0 / 3

// dominant is the display label of the industry that is the top industry of at least
// dominantShare of the members, else "".
func dominant(profiles []company.Profile, members []int) string {
	count := map[string]int{}
	for _, i := range members {
		if top := company.TopKeys(profiles[i].IndustryGroups, 1); len(top) == 1 {
			count[top[0]]++
		}
	}
	for v, n := range count {
		if float64(n) >= dominantShare*float64(len(members)) {
			return display(termIndustry + v)
		}
	}
	return ""
}

// label writes a segment's label from its dominant industry (or none), its ranked terms
// and its geography, distinct from those in used.
func label(ranked []scored, head, geography string, id int, used map[string]bool) string {
	var rest []string
	seen := map[string]bool{strings.TrimSuffix(strings.ToLower(head), "s"): head != ""}
	for _, s := range ranked {
		text := display(s.term)
		// One of "building" and "buildings": the plural's s is dropped for the comparison.
		key := strings.TrimSuffix(strings.ToLower(text), "s")
		if text == "" || seen[key] || strings.HasPrefix(s.term, termIndustry) {
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
	first := 2
	if head == "" {
		first = 3 // terms alone say what the segment is
	}
	for n := first; n <= max(first, len(rest)); n++ {
		if l := write(n); !used[l] {
			return l
		}
	}
	return fmt.Sprintf("%s (segment %d)", write(first), id)
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
		if v = strings.ToLower(strings.TrimSpace(v)); v != "" && !stopwords[v] && !sizeWords[v] {
			out[termKeyword+v]++
		}
	}
	for _, w := range strings.FieldsFunc(strings.ToLower(p.Description), func(r rune) bool { return !unicode.IsLetter(r) && r != '-' }) {
		w = strings.Trim(w, "-")
		if len([]rune(w)) < 3 || stopwords[w] || sizeWords[w] {
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

// sizeWords are words about a company's size, in the world's languages: every segment
// has companies of every size, so they describe none.
var sizeWords = func() map[string]bool {
	m := map[string]bool{}
	for _, w := range strings.Fields(`small smaller smallest medium mid midsize mid-sized midsized large larger largest big bigger
		biggest huge tiny sized size sizes smb smbs sme smes startup startups scaleup scaleups enterprise-grade employees employee staff
		klein kleine kleinen kleines mittelstand mittelständische mittelständischen mittlere mittleren groß große großen mitarbeiter
		petit petite petits petites moyen moyenne moyennes grand grande grands grandes pme employés salariés
		pequeño pequeña pequeños pequeñas mediano mediana medianos medianas grandes pymes empleados
		pequena pequenas médio média médias funcionários klein middelgroot groot`) {
		m[w] = true
	}
	return m
}()

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
		unternehmen firma entreprise entreprises empresa empresas bedrijf bedrijven azienda aziende
		every each through already just well very most many much own only other such some these those then there here
		while both between after before under again once because until being been would should could may might must
		shall one two three first last year years day days today now get make made like way ever even still yet always never often
		people grown growing headquarters headquartered time times
		within without along around upon onto per via whether every everything everyone anything something
		jeder jede jeden alle allen sehr mehr seit uns wie nach über unter durch noch schon immer heute
		tous toutes tout très plus depuis notre nos votre leur leurs chaque déjà encore aussi
		todo todos toda todas muy nuestro nuestras cada ya también siempre hoy`) {
		m[w] = true
	}
	return m
}()
