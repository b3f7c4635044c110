package contactsearch

import (
	"regexp"
	"sort"
	"strconv"
	"strings"

	"github.com/firmoapi/firmo/shared/geo"
	"github.com/firmoapi/firmo/shared/industry"
	"github.com/firmoapi/firmo/shared/title"
)

func fold(s string) string { return title.Normalize(s) }

// Prompt is what the rule-based icp_prompt parser extracted: filters that apply on top
// of the request's own, the cleaned semantic text, and company-level signals that send
// the search through a company search first.
//
// The parser (README "Contact search", icp_prompt) works on the folded text with word
// boundaries:
//   - seniority and department from the cue tables below (plural and singular forms,
//     English, German, French, Spanish; "leaders", "decision makers" name executive, vp
//     and director at once);
//   - industry from each taxonomy value and its label ("SAAS", "software as a service");
//   - countries from English country names and alpha-3/alpha-2 codes written in capitals,
//     and the 12 region aliases (DACH, EMEA, ...);
//   - employee range from "N-M employees", "N+ employees", "more than N employees",
//     "under N employees" (revenue phrases are recognised and dropped: the filter is
//     deprecated);
//   - title keywords from quoted phrases and C-suite acronyms written in the text;
//   - company signals from "using X", "uses X", "built on X", "selling X", "that sell X",
//     "offering X" (technology, product) and "funded", "series A-E", "raised" (funding).
//
// The semantic text is the prompt with filler words and every matched span except the role
// words (seniority and department cues) removed: the role is what the person is, so it
// stays in the text that is embedded as well as becoming a filter.
type Prompt struct {
	Seniority  []string `json:"seniority,omitempty"`
	Department []string `json:"department,omitempty"`
	Industry   []string `json:"industry,omitempty"`
	Country    []string `json:"country,omitempty"`
	Employees  []string `json:"employees,omitempty"`
	Titles     []string `json:"titles,omitempty"`
	Signals    []string `json:"signals,omitempty"` // company-level terms (technology, product, funding)
	Text       string   `json:"text"`
}

var seniorityCues = map[string][]string{
	title.ExecutiveLevel: {"c level", "c suite", "executive", "executives", "founder", "founders", "owner", "owners", "geschaftsfuhrer", "geschaftsfuhrung", "dirigeant", "dirigeants", "directivo", "directivos"},
	"vp":                 {"vp", "vps", "vice president", "vice presidents"},
	// Words for leadership in general name several levels at once.
	title.ExecutiveLevel + "|vp|director": {"leader", "leaders", "leadership", "decision maker", "decision makers", "heads", "fuhrungskrafte", "lideres"},
	"director":                            {"director", "directors", "head of", "heads of", "leiter", "leiterin", "directeur", "directeurs", "directora"},
	"manager":                             {"manager", "managers", "responsable", "responsables", "gerente", "gerentes"},
	"senior_ic":                           {"senior", "seniors", "lead engineer", "staff engineer", "principal engineer"},
	"entry_level":                         {"junior", "juniors", "intern", "interns", "entry level", "graduate", "graduates", "trainee", "trainees", "praktikant", "stagiaire", "becario"},
}

var departmentCues = map[string][]string{
	"Technology":             {"engineering", "engineer", "engineers", "developer", "developers", "software", "technology", "tech", "devops", "cto", "entwickler", "informatique", "ingenieur", "ingenieurs", "desarrollador", "desarrolladores"},
	"Sales - Marketing":      {"sales", "marketing", "growth", "business development", "account executive", "account executives", "vertrieb", "commercial", "commerciaux", "ventas"},
	"Finance":                {"finance", "financial", "accounting", "accountant", "accountants", "controller", "controllers", "cfo", "finanzen", "comptable", "comptabilite", "finanzas"},
	"Human Resources":        {"hr", "human resources", "people operations", "recruiting", "recruiter", "recruiters", "talent acquisition", "ressources humaines", "recursos humanos"},
	"Legal":                  {"legal", "lawyer", "lawyers", "counsel", "compliance", "juriste", "juristes", "abogado", "abogados"},
	"Customer Service":       {"customer service", "customer support", "customer success", "support", "kundenservice", "service client"},
	"Operations":             {"operations", "ops", "logistics", "supply chain", "betrieb", "operaciones"},
	"Research & Development": {"r and d", "research", "researchers", "scientist", "scientists", "forschung"},
	"Administration":         {"administration", "administrative", "office manager", "office managers", "assistant", "assistants"},
	"Public Relations":       {"public relations", "pr", "communications", "press"},
	"Investor Relations":     {"investor relations"},
	"Medical - Science":      {"medical", "clinical", "physician", "physicians", "doctor", "doctors", "nurse", "nurses"},
	"Pro Services":           {"consultant", "consultants", "consulting", "professional services"},
}

var cSuite = []string{"CEO", "CTO", "CFO", "COO", "CMO", "CIO", "CISO", "CRO", "CPO", "CHRO", "CCO", "CDO"}

var fillers = map[string]bool{
	"find": true, "me": true, "looking": true, "for": true, "want": true, "need": true, "show": true, "people": true,
	"contacts": true, "persons": true, "who": true, "are": true, "is": true, "at": true, "in": true, "from": true,
	"with": true, "companies": true, "company": true, "firms": true, "based": true, "the": true, "a": true, "an": true,
	"of": true, "and": true, "or": true, "that": true, "which": true, "based in": true, "located": true, "working": true,
	"work": true, "employees": true, "staff": true, "between": true, "to": true, "than": true, "more": true, "less": true,
	"under": true, "over": true, "around": true, "about": true, "our": true, "we": true, "sell": true, "target": true,
}

var (
	reQuoted     = regexp.MustCompile(`"([^"]+)"`)
	reEmpRange   = regexp.MustCompile(`(?i)(\d[\d,.]*)\s*(?:-|to|–)\s*(\d[\d,.]*)\s*(?:employees|people|staff|mitarbeiter|salaries|salariés|empleados)`)
	reEmpPlus    = regexp.MustCompile(`(?i)(\d[\d,.]*)\s*\+\s*(?:employees|people|staff|mitarbeiter|salaries|salariés|empleados)`)
	reEmpMore    = regexp.MustCompile(`(?i)(?:more than|over|at least)\s*(\d[\d,.]*)\s*(?:employees|people|staff)`)
	reEmpLess    = regexp.MustCompile(`(?i)(?:fewer than|less than|under|at most|up to)\s*(\d[\d,.]*)\s*(?:employees|people|staff)`)
	reRevenue    = regexp.MustCompile(`(?i)(?:revenue|turnover|arr)\s*(?:of|above|over|below|under|between)?\s*\$?\d[\d,.]*\s*[mkb]?(?:\s*(?:-|to)\s*\$?\d[\d,.]*\s*[mkb]?)?`)
	reSignal     = regexp.MustCompile(`(?i)\b(?:using|uses|use|built on|running|runs|selling|sells|that sell|offering|offers|provides|providing)\s+([A-Za-z0-9][\w.+#-]*(?:\s+[A-Za-z0-9][\w.+#-]*)?)`)
	reFunding    = regexp.MustCompile(`(?i)\b(series\s+[a-e]|seed[- ]stage|venture[- ]backed|vc[- ]backed|recently funded|funded|raised)\b`)
	reCSuiteWord = regexp.MustCompile(`\b(` + strings.Join(cSuite, "|") + `)s?\b`)
)

func num(s string) int {
	n, _ := strconv.Atoi(strings.NewReplacer(",", "", ".", "").Replace(s))
	return n
}

// ParsePrompt extracts filters and the semantic text from an icp_prompt.
func ParsePrompt(text string) Prompt {
	var p Prompt
	rest := text
	cut := func(re *regexp.Regexp, fn func(m []string)) {
		for _, m := range re.FindAllStringSubmatch(rest, -1) {
			fn(m)
		}
		rest = re.ReplaceAllString(rest, " ")
	}
	cut(reQuoted, func(m []string) { p.Titles = append(p.Titles, `"`+m[1]+`"`) })
	cut(reEmpRange, func(m []string) { p.Employees = appendBuckets(p.Employees, num(m[1]), num(m[2])) })
	cut(reEmpPlus, func(m []string) { p.Employees = appendBuckets(p.Employees, num(m[1]), 1<<62) })
	cut(reEmpMore, func(m []string) { p.Employees = appendBuckets(p.Employees, num(m[1])+1, 1<<62) })
	cut(reEmpLess, func(m []string) { p.Employees = appendBuckets(p.Employees, 1, max(num(m[1])-1, 1)) })
	cut(reRevenue, func([]string) {})
	cut(reFunding, func(m []string) { p.Signals = append(p.Signals, strings.ToLower(m[1])) })
	cut(reSignal, func(m []string) { p.Signals = append(p.Signals, strings.ToLower(m[1])) })
	for _, m := range reCSuiteWord.FindAllStringSubmatch(rest, -1) {
		p.Titles = append(p.Titles, m[1])
	}
	// Region aliases and capitalised codes, before folding loses the case.
	for _, w := range strings.FieldsFunc(rest, func(r rune) bool { return !(r >= 'A' && r <= 'Z' || r >= 'a' && r <= 'z') }) {
		if _, ok := geo.LookupRegion(w); ok && w == strings.ToUpper(w) {
			p.Country = append(p.Country, w)
			rest = replaceWord(rest, w)
		}
	}
	words := " " + fold(rest) + " "
	take := func(phrase string) bool {
		k := " " + phrase + " "
		if !strings.Contains(words, k) {
			return false
		}
		words = strings.ReplaceAll(words, k, " ")
		return true
	}
	for _, c := range geo.Countries() {
		name := fold(c.Name)
		if name != "" && take(name) {
			p.Country = append(p.Country, c.Alpha2)
		}
	}
	for alias, code := range map[string]string{"usa": "US", "united states": "US", "uk": "GB", "united kingdom": "GB", "britain": "GB", "germany": "DE", "deutschland": "DE", "france": "FR", "spain": "ES", "espana": "ES"} {
		if take(alias) {
			p.Country = append(p.Country, code)
		}
	}
	for _, v := range industry.All() {
		label, _ := industry.Label(v)
		if take(fold(strings.ReplaceAll(v, "_", " "))) || (label != "" && take(fold(label))) {
			p.Industry = append(p.Industry, v)
		}
	}
	// The semantic text keeps the role words: "VP engineering in Germany" searches for
	// "vp engineering" (seniority and department become filters too, but they are also what
	// the person is); places, sizes, industries and signals are only filters.
	roleText := words
	p.Seniority = takeCues(seniorityCues, take)
	p.Department = takeCues(departmentCues, take)
	p.Text = content(roleText)
	if p.Text == "" {
		// Everything was a filter: the titles, or else the prompt's own content words,
		// carry the meaning.
		p.Text = strings.ReplaceAll(strings.Join(p.Titles, " "), `"`, "")
		if p.Text == "" {
			p.Text = content(fold(text))
		}
	}
	p.Country = dedupe(p.Country)
	p.Signals = dedupe(p.Signals)
	p.Employees = bucketOrder(p.Employees)
	return p
}

// bucketOrder returns the employee buckets in ascending order, once each.
func bucketOrder(in []string) []string {
	var out []string
	for _, b := range employeeBounds {
		for _, e := range in {
			if e == b.bucket {
				out = append(out, e)
				break
			}
		}
	}
	return out
}

// content drops filler words.
func content(words string) string {
	var kept []string
	for _, w := range strings.Fields(words) {
		if !fillers[w] {
			kept = append(kept, w)
		}
	}
	return strings.Join(kept, " ")
}

// takeCues matches the longest cues first, so "head of" is not read as "of".
func takeCues(table map[string][]string, take func(string) bool) []string {
	type cue struct{ value, phrase string }
	var all []cue
	for v, ps := range table {
		for _, p := range ps {
			all = append(all, cue{v, p})
		}
	}
	sort.Slice(all, func(i, j int) bool {
		if len(all[i].phrase) != len(all[j].phrase) {
			return len(all[i].phrase) > len(all[j].phrase)
		}
		return all[i].phrase < all[j].phrase
	})
	var out []string
	for _, c := range all {
		if take(c.phrase) {
			out = append(out, strings.Split(c.value, "|")...)
		}
	}
	return dedupe(out)
}

func replaceWord(s, w string) string {
	return regexp.MustCompile(`\b`+regexp.QuoteMeta(w)+`\b`).ReplaceAllString(s, " ")
}

func appendBuckets(dst []string, lo, hi int) []string {
	for _, b := range employeeBounds {
		if b.low <= hi && b.top >= lo {
			dst = append(dst, b.bucket)
		}
	}
	return dst
}

func dedupe(s []string) []string {
	seen := map[string]bool{}
	var out []string
	for _, v := range s {
		if !seen[v] {
			seen[v] = true
			out = append(out, v)
		}
	}
	sort.Strings(out)
	return out
}
