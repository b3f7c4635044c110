package contactsearch

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"reflect"
	"testing"

	"github.com/firmoapi/firmo/shared/apperr"
)

// rankedOf builds a ranked list from domain letters: "aab" is a0, a1, b2.
func rankedOf(s string) []Ranked {
	out := make([]Ranked, len(s))
	for i, c := range s {
		out[i] = Ranked{Index: i, Domain: string(c)}
	}
	return out
}

func render(gs []Group) string {
	s := ""
	for _, g := range gs {
		s += g.Domain + fmt.Sprint(g.Members)
	}
	return s
}

func TestSelect(t *testing.T) {
	tests := []struct {
		name   string
		ranked string
		l      Limits
		want   string
	}{
		{"per company cap, grouped in rank order", "aaabab", Limits{MaxRecords: 100, PerCompany: 2}, "a[0 1]b[3 5]"},
		{"no per company cap", "aaabab", Limits{MaxRecords: 100, PerCompany: 0}, "a[0 1 2 4]b[3 5]"},
		{"max_records caps the total", "abcabc", Limits{MaxRecords: 4, PerCompany: 5}, "a[0 3]b[1]c[2]"},
		{"max_companies opens no new company", "abcabc", Limits{MaxCompanies: 2, PerCompany: 5}, "a[0 3]b[1 4]"},
		{"max_companies with per company cap", "aaabbbc", Limits{MaxCompanies: 2, PerCompany: 1}, "a[0]b[3]"},
		{"offset applies when results_by_company is 0", "aabbc", Limits{MaxRecords: 100, Offset: 2}, "b[2 3]c[4]"},
		{"non-zero results_by_company forces offset 0", "aabbc", Limits{MaxRecords: 100, Offset: 2, PerCompany: 1}, "a[0]b[2]c[4]"},
		{"offset past the end", "ab", Limits{MaxRecords: 100, Offset: 5}, ""},
		{"max_records with offset", "aaaaa", Limits{MaxRecords: 2, Offset: 1}, "a[1 2]"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := render(Select(rankedOf(tt.ranked), tt.l)); got != tt.want {
				t.Fatalf("got %s, want %s", got, tt.want)
			}
		})
	}
	// max_companies with results_by_company 0 caps the total at 10,000.
	big := make([]Ranked, 12000)
	for i := range big {
		big[i] = Ranked{Index: i, Domain: "a"}
	}
	gs := Select(big, Limits{MaxCompanies: 1, PerCompany: 0})
	if n := len(gs[0].Members); n != CompaniesTotalCap {
		t.Fatalf("max_companies total = %d, want %d", n, CompaniesTotalCap)
	}
}

func TestValidate(t *testing.T) {
	n := func(v int) *int { return &v }
	tests := []struct {
		name  string
		p     Params
		field string // "" when valid
		want  Limits
	}{
		{"defaults", Params{}, "", Limits{MaxRecords: 100, PerCompany: 5}},
		{"max_records", Params{MaxRecords: n(20)}, "", Limits{MaxRecords: 20, PerCompany: 5}},
		{"max_records low", Params{MaxRecords: n(19)}, "max_records", Limits{}},
		{"max_records high", Params{MaxRecords: n(10001)}, "max_records", Limits{}},
		{"max_companies", Params{MaxCompanies: n(3), ResultsByCompany: n(0)}, "", Limits{MaxCompanies: 3}},
		{"max_companies zero", Params{MaxCompanies: n(0)}, "max_companies", Limits{}},
		{"both", Params{MaxRecords: n(50), MaxCompanies: n(3)}, "max_companies", Limits{}},
		{"results_by_company high", Params{ResultsByCompany: n(101)}, "results_by_company", Limits{}},
		{"offset negative", Params{Offset: -1}, "offset", Limits{}},
		{"consensus", Params{Consensus: n(21)}, "consensus", Limits{}},
		{"department case-sensitive", Params{Department: Strings{"technology"}}, "department", Limits{}},
		{"negate_department unknown", Params{NegateDepartment: Strings{"Sales"}}, "negate_department", Limits{}},
		{"seniority", Params{Seniority: Strings{"boss"}}, "seniority", Limits{}},
		{"industry", Params{FilterIndustry: Strings{"software"}}, "filter_industry", Limits{}},
		{"country", Params{PersonCountry: Strings{"XX"}}, "person_country", Limits{}},
		{"too many personas", Params{PersonaID: IDs{1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11}}, "persona_id", Limits{}},
		{"jobstart_date", Params{JobstartDate: "2020-02-30"}, "jobstart_date", Limits{}},
		{"jobstart_date reversed", Params{JobstartDate: "2021-01-01,2020-01-01"}, "jobstart_date", Limits{}},
		{"employee_range", Params{EmployeeRange: "50"}, "employee_range", Limits{}},
		{"employee_range reversed", Params{EmployeeRange: "500,50"}, "employee_range", Limits{}},
		{"title", Params{Title: Strings{`"unclosed`}}, "title", Limits{}},
		{"min_connections", Params{MinConnections: n(-1)}, "min_connections", Limits{}},
		{"domain", Params{Domain: Strings{"not a domain"}}, "domain", Limits{}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			req, err := Validate(tt.p)
			if tt.field == "" {
				if err != nil {
					t.Fatal(err)
				}
				if req.Limits != tt.want {
					t.Fatalf("limits = %+v, want %+v", req.Limits, tt.want)
				}
				return
			}
			var ae *apperr.Error
			if !errors.As(err, &ae) || !errors.Is(err, apperr.ErrInvalid) || ae.Field != tt.field {
				t.Fatalf("err = %v, want a 422 on %s", err, tt.field)
			}
		})
	}
}

func TestEmployeeBuckets(t *testing.T) {
	for in, want := range map[string][]string{
		"30,300":  {"11-50", "51-200", "201-500"},
		"1,10":    {"1-10"},
		"5000,":   {"1001-5000", "5001-10000", "10001+"},
		",11":     {"1-10", "11-50"},
		"10001,0": nil,
	} {
		got, err := EmployeeBuckets(in)
		if want == nil {
			if err == nil {
				t.Errorf("%q: no error", in)
			}
			continue
		}
		if err != nil || !reflect.DeepEqual(got, want) {
			t.Errorf("EmployeeBuckets(%q) = %v, %v; want %v", in, got, err, want)
		}
	}
}

// TestPromptTextKeepsTheRole: the semantic text drops places, sizes and fillers but keeps
// the role words, which are both filters and what the person is.
func TestPromptTextKeepsTheRole(t *testing.T) {
	for in, want := range map[string]string{
		"VP engineering in Germany":                   "vp engineering",
		"VP engineering at software companies":        "vp engineering",
		"Sales leaders in DACH with 50-200 employees": "sales leaders",
		"Find me junior accountants in Spain":         "junior accountants",
	} {
		if got := ParsePrompt(in).Text; got != want {
			t.Errorf("ParsePrompt(%q).Text = %q, want %q", in, got, want)
		}
	}
}

func TestParsePrompt(t *testing.T) {
	tests := []struct {
		in   string
		want Prompt
	}{
		{"VP of Engineering at SaaS companies in DACH with 50-200 employees using Kubernetes",
			Prompt{Seniority: []string{"vp"}, Department: []string{"Technology"}, Industry: []string{"SAAS"}, Country: []string{"DACH"},
				Employees: []string{"11-50", "51-200"}, Signals: []string{"kubernetes"}}},
		{`Find "head of growth" or CMO at fintech startups in France, series B funded`,
			Prompt{Titles: []string{`"head of growth"`, "CMO"}, Country: []string{"FR"}, Signals: []string{"funded", "series b"}}},
		{"Sales leaders at fintech companies in Germany",
			Prompt{Seniority: []string{"director", "executive", "vp"}, Department: []string{"Sales - Marketing"}, Country: []string{"DE"}}},
		{"Junior accountants in Spain, more than 1000 employees",
			Prompt{Seniority: []string{"entry_level"}, Department: []string{"Finance"}, Country: []string{"ES"},
				Employees: []string{"1001-5000", "5001-10000", "10001+"}}},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			got := ParsePrompt(tt.in)
			if got.Text == "" {
				t.Fatal("empty semantic text")
			}
			tt.want.Text = got.Text
			if !reflect.DeepEqual(got.Seniority, tt.want.Seniority) || !reflect.DeepEqual(got.Department, tt.want.Department) ||
				!reflect.DeepEqual(got.Country, tt.want.Country) || !reflect.DeepEqual(got.Employees, tt.want.Employees) ||
				!reflect.DeepEqual(got.Titles, tt.want.Titles) || !reflect.DeepEqual(got.Signals, tt.want.Signals) ||
				(tt.want.Industry != nil && !reflect.DeepEqual(got.Industry, tt.want.Industry)) {
				t.Fatalf("got  %+v\nwant %+v", got, tt.want)
			}
		})
	}
}

// TestGraphFileNamesTheVectors: the persisted graph's name changes with the contacts'
// texts and with their vectors (another embedder), so a stale graph is never loaded.
func TestGraphFileNamesTheVectors(t *testing.T) {
	s := &Service{dir: t.TempDir()}
	snap := func(text string, vec []float32) *snapshot {
		e := entry{text: text}
		e.C.PersonaID = 7
		return &snapshot{entries: []entry{e}, vecs: [][]float32{vec}}
	}
	base := s.indexPath(snap("VP Engineering", []float32{1, 0}))
	if got := s.indexPath(snap("VP Engineering", []float32{1, 0})); got != base {
		t.Fatalf("same contacts and vectors: %s, then %s", base, got)
	}
	if got := s.indexPath(snap("VP Sales", []float32{1, 0})); got == base {
		t.Fatal("another text gives the same graph file")
	}
	if got := s.indexPath(snap("VP Engineering", []float32{0, 1})); got == base {
		t.Fatal("other vectors for the same texts give the same graph file")
	}
}

// TestSelectReadsAPrefix: the prefix selectFrom reports reading gives the same groups as
// the whole list (filter mode builds only that prefix), and for a page smaller than the
// list it is shorter than the list.
func TestSelectReadsAPrefix(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 3))
	shorter := 0
	for trial := 0; trial < 500; trial++ {
		b := make([]byte, 50+rng.IntN(400))
		for i := range b {
			b[i] = byte('a' + rng.IntN(1+rng.IntN(26)))
		}
		ranked := rankedOf(string(b))
		l := Limits{PerCompany: rng.IntN(4), Offset: rng.IntN(30)}
		if rng.IntN(2) == 0 {
			l.MaxRecords = 20 + rng.IntN(60)
		} else {
			l.MaxCompanies = 1 + rng.IntN(10)
		}
		_, read := selectFrom(len(ranked), func(i int) Ranked { return ranked[i] }, l)
		if got, want := render(Select(ranked[:read], l)), render(Select(ranked, l)); got != want {
			t.Fatalf("limits %+v: the prefix of %d gives %s, the whole list %s", l, read, got, want)
		}
		if read < len(ranked) {
			shorter++
		}
	}
	if shorter == 0 {
		t.Fatal("no trial stopped before the end of the list")
	}
}
