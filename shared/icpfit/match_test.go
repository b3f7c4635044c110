package icpfit

import (
	"math"
	"strings"
	"testing"

	"github.com/firmoapi/firmo/shared/company"
)

// acme is a derived-looking company: a German B2B SaaS firm of 51-200 people.
func acme() Company {
	emp := "51-200"
	mx := "google.com"
	p := company.Profile{
		Domain: "acme.de", Name: "Acme GmbH", Description: "Cloud invoicing software with an open API for developers.",
		Address:        company.Address{City: "München", State: "Bavaria", Country: "DE"},
		IndustryGroups: map[string]float64{"SAAS": 0.7, "SOFTWARE": 0.25},
		SubIndustry:    map[string]float64{"SAAS/ACCOUNTING_FINANCE": 0.6},
		BusinessModel:  map[string]float64{"B2B": 0.86, "B2C": 0.2},
		Keywords:       map[string]float64{"invoicing": 1, "api": 0.5},
		Employees:      &emp, RevenueRange: "10-100M", MXProvider: &mx,
	}
	return FromRecord(company.Record{Profile: p, Derived: company.Derived{Vendors: []string{"hs-scripts.com", "stripe.com"}}}, "Invoices in minutes. Integrations with your ERP. "+
		"Acme sends, tracks and reconciles invoices for small and mid-sized firms across Germany and Austria, "+
		"with webhooks and ready-made connectors for accounting and payment tools. Start a free trial today.")
}

func TestFromProfile(t *testing.T) {
	c := acme()
	if c.Country != "DE" || c.State != "Bavaria" || c.EmployeeRange != "51-200" || c.RevenueRange != "10-100M" {
		t.Errorf("place and size: %+v", c)
	}
	if c.BusinessModel != "B2B, B2C" || strings.Join(c.Industries, ",") != "SAAS,SOFTWARE" {
		t.Errorf("model %q, industries %v: want the highest confidence first", c.BusinessModel, c.Industries)
	}
	if strings.Join(c.Technologies, ",") != "google.com,hs-scripts.com,stripe.com" {
		t.Errorf("technologies = %v: want the mail provider and the homepage vendors", c.Technologies)
	}
	na := FromProfile(company.Profile{RevenueRange: company.RevenueUnknown}, "")
	if na.RevenueRange != "" || na.EmployeeRange != "" || len(na.Technologies) != 0 {
		t.Errorf("unknowns: %+v", na)
	}
}

func TestCriterionMatching(t *testing.T) {
	co := acme()
	tests := []struct {
		line  string
		met   bool
		inEvi string // a word the evidence must contain
	}{
		{"B2B SaaS", true, "SAAS"},
		{"software company", true, "SOFTWARE"},
		{"B2C", false, "business model"},
		{"law firm", false, "industries"},
		{"not a consultancy", true, "not consultancy"},
		{"not a SaaS company", false, "not saas"},
		{"50-500 employees", true, "51-200"},
		{"more than 1000 employees", false, "51-200"},
		{"fewer than 10 employees", false, "51-200"},
		{"SMB", true, "51-200"},
		{"based in Germany or Austria", true, "country DE"},
		{"in the DACH region", true, "DE"},
		{"headquartered in France", false, "DE"},
		{"US-based", false, "DE"},
		{"based in Bavaria", true, "Bavaria"},
		{"in California", false, "Bavaria"},
		{"annual revenue over $10M", true, "10-100M"},
		{"revenue under $5M", false, "10-100M"},
		{"uses HubSpot", true, "hs-scripts.com"},
		{"uses Salesforce", false, "not seen"},
		{"on Google Workspace", true, "google.com"},
		{"Microsoft 365 customer", false, "not seen"},
		{"offers an API for developers", true, "api"},
		{"mentions blockchain tokenization", false, "none"},
		{"B2B software company in Germany with 50-500 employees", true, ""},
		{"B2B software company in France with 50-500 employees", false, ", DE"},
	}
	m := &Model{}
	for _, tt := range tests {
		t.Run(tt.line, func(t *testing.T) {
			_, res := m.Features(Criteria{Mandatory: []string{tt.line}}, co)
			if len(res) != 1 {
				t.Fatalf("%d results", len(res))
			}
			r := res[0]
			if r.Met != tt.met {
				t.Errorf("met = %v (strength %.2f, %s), want %v", r.Met, r.Strength, r.Evidence, tt.met)
			}
			if !strings.Contains(r.Evidence, tt.inEvi) {
				t.Errorf("evidence %q does not mention %q", r.Evidence, tt.inEvi)
			}
		})
	}
}

func TestUnknownDataIsUncertain(t *testing.T) {
	var m Model
	blank := Company{Domain: "x.com"}
	for _, line := range []string{"50-500 employees", "revenue over $10M", "B2B", "based in Germany", "SaaS"} {
		_, res := m.Features(Criteria{Mandatory: []string{line}}, blank)
		if res[0].Strength != 0.5 || res[0].Known || res[0].Met {
			t.Errorf("%q on a company with no data: strength %.2f, known %v, met %v (%s); want 0.5, unknown, not met", line, res[0].Strength, res[0].Known, res[0].Met, res[0].Evidence)
		}
	}
	x, _ := m.Features(Criteria{Mandatory: []string{"50-500 employees"}}, blank)
	if x[featureAt(SectionMandatory, kindSize, true)] != 1 {
		t.Errorf("the unknown size is not counted as unknown: %v", x)
	}
}

func TestExactHeadCount(t *testing.T) {
	var m Model
	c := Company{Employees: 120}
	for line, want := range map[string]bool{"100-200 employees": true, "more than 120 employees": false, "at least 120 employees": true, "no more than 50 employees": false} {
		_, res := m.Features(Criteria{Mandatory: []string{line}}, c)
		if res[0].Met != want {
			t.Errorf("%q with 120 employees: met %v, want %v", line, res[0].Met, want)
		}
	}
}

func TestUnrecognisedLine(t *testing.T) {
	var m Model
	x, res := m.Features(Criteria{Mandatory: []string{"the and of"}}, acme())
	if res[0].Met || !strings.Contains(res[0].Evidence, "no constraint") || x[unparsedAt] != 1 {
		t.Errorf("a line of filler words: %+v, unparsed feature %v", res[0], x[unparsedAt])
	}
}

// TestNumbersWithUnits: head counts, revenue and founding years are read as numbers
// with their units and compared as numbers, whatever separators and unit words.
func TestNumbersWithUnits(t *testing.T) {
	tests := []struct {
		line   string
		kind   kind
		lo, hi float64
	}{
		{"fewer than 10 employees", kindSize, 1, 9},
		{"more than 1,000 employees", kindSize, 1001, math.Inf(1)},
		{"at least 1.5k staff", kindSize, 1500, math.Inf(1)},
		{"10,000+ employees", kindSize, 10000, math.Inf(1)},
		{"annual revenue under $1 million", kindRevenue, 0, 1e6},
		{"revenue over €2.5bn", kindRevenue, 2.5e9, math.Inf(1)},
		{"turnover between 10 and 50 million", kindRevenue, 10e6, 50e6},
		{"revenue below $1,000,000", kindRevenue, 0, 1e6},
		{"revenue above 250000 EUR", kindRevenue, 250000, math.Inf(1)},
		{"founded before 2015", kindFounded, 0, 2014},
		{"founded in 2015 or earlier", kindFounded, 0, 2015},
		{"founded after 2018", kindFounded, 2019, math.Inf(1)},
		{"established since 2010", kindFounded, 2010, math.Inf(1)},
		{"founded between 2000 and 2009", kindFounded, 2000, 2009},
		{"founded in 2012", kindFounded, 2012, 2012},
	}
	for _, tt := range tests {
		var got *constraint
		cs := parseCriterion(tt.line)
		for i := range cs {
			if cs[i].kind == tt.kind {
				got = &cs[i]
			}
		}
		if got == nil {
			t.Errorf("%q: no %v constraint in %+v", tt.line, tt.kind, cs)
			continue
		}
		if got.lo != tt.lo || got.hi != tt.hi {
			t.Errorf("%q: range [%v, %v], want [%v, %v]", tt.line, got.lo, got.hi, tt.lo, tt.hi)
		}
	}
}

// TestFoundingYear: a founding-year line is judged on the founding year, or on the
// year the company's web presence began when that is all Firmo knows.
func TestFoundingYear(t *testing.T) {
	var m Model
	tests := []struct {
		line    string
		co      Company
		met     bool
		known   bool
		evidWas string
	}{
		{"founded before 2015", Company{Founded: "2014-06-01"}, true, true, "founded 2014"},
		{"founded before 2015", Company{Founded: "2015-01-01"}, false, true, "founded 2015"},
		{"founded before 2015", Company{WebSince: "2012-03-04"}, true, true, "on the web since 2012"},
		{"founded after 2018", Company{WebSince: "2012-03-04"}, false, true, "on the web since 2012"},
		{"founded before 2015", Company{WebSince: "2019-03-04"}, false, true, "on the web since 2019"},
		{"founded before 2015", Company{}, false, false, "founding year unknown"},
	}
	for _, tt := range tests {
		_, res := m.Features(Criteria{Mandatory: []string{tt.line}}, tt.co)
		r := res[0]
		if r.Met != tt.met || r.Known != tt.known || !strings.Contains(r.Evidence, tt.evidWas) {
			t.Errorf("%q on %+v: met %v known %v (%s), want met %v known %v (%q)", tt.line, tt.co, r.Met, r.Known, r.Evidence, tt.met, tt.known, tt.evidWas)
		}
	}
}
