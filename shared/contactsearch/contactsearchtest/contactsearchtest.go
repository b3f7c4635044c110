// Package contactsearchtest is the contract suite of contact search: the same searches,
// counts and lookups over the same demo world, checked against a brute-force reading of
// the filters and an exact similarity ranking, for every way contact search runs (the
// embedded snapshot with its HNSW graph, and an Engine such as OpenSearch). Like
// testing/fstest, an adapter's tests call Run with a constructor.
package contactsearchtest

import (
	"context"
	"errors"
	"slices"
	"sort"
	"strings"
	"sync"
	"testing"

	"github.com/firmoapi/firmo/shared/apperr"
	"github.com/firmoapi/firmo/shared/company"
	"github.com/firmoapi/firmo/shared/contact"
	"github.com/firmoapi/firmo/shared/contactsearch"
	"github.com/firmoapi/firmo/shared/contactsearch/contactworld"
	"github.com/firmoapi/firmo/shared/geo"
	"github.com/firmoapi/firmo/shared/query"
	"github.com/firmoapi/firmo/shared/title"
	"github.com/firmoapi/firmo/shared/vector"
)

// Searcher is contact search as the suite drives it (contactsearch.Service).
type Searcher interface {
	Search(ctx context.Context, orgID string, req contactsearch.Request) (contactsearch.Response, error)
	Count(ctx context.Context, p contactsearch.Params) (int, error)
	Lookup(ctx context.Context, personaID int64, linkedin, email string) (contactsearch.LookupView, error)
}

// World is the demo world the suite searches (see contactworld).
type World = contactworld.World

// Row is one contact of the truth.
type Row = contactworld.Row

// Open builds the searcher under test over w. Patterns reports whether its entries
// carry email patterns.
type Open func(t *testing.T, w *World) (s Searcher, patterns bool)

// Org is the organisation the suite searches as.
const Org = "org-test"

var (
	once   sync.Once
	world_ *World
	wErr   error
)

// Demo returns the suite's world, built once per test binary.
func Demo(t testing.TB) *World {
	t.Helper()
	once.Do(func() { world_, wErr = contactworld.Build() })
	if wErr != nil {
		t.Fatal(wErr)
	}
	return world_
}

// Run runs the suite on the searcher open builds.
func Run(t *testing.T, open Open) {
	w := Demo(t)
	s, patterns := open(t, w)
	t.Run("FiltersAgainstBruteForce", func(t *testing.T) { testFilters(t, w, s) })
	t.Run("TitleAcronymsMatchSpelledOut", func(t *testing.T) { testTitleAcronyms(t, s) })
	t.Run("SavedQueryScopes", func(t *testing.T) { testScopes(t, w, s) })
	t.Run("SimilarityModes", func(t *testing.T) { testSimilarityModes(t, w, s) })
	t.Run("ICPPromptSearch", func(t *testing.T) { testPrompt(t, w, s) })
	t.Run("EntriesFields", func(t *testing.T) { testEntries(t, s, patterns) })
	t.Run("Lookup", func(t *testing.T) { testLookup(t, w, s) })
	t.Run("SimilarityPagesAgainstExact", func(t *testing.T) { testPages(t, w, s) })
	t.Run("FilterPages", func(t *testing.T) { testFilterPages(t, w, s) })
	t.Run("DeepPages", func(t *testing.T) { testDeepPages(t, w, s) })
}

// Case names the case being run, for adapters that record what each case sent
// (golden request bodies); set by RunCase.
type caseKey struct{}

// CaseName is the name of the contract case ctx runs, "" outside one.
func CaseName(ctx context.Context) string { s, _ := ctx.Value(caseKey{}).(string); return s }

func caseCtx(t *testing.T) context.Context {
	return context.WithValue(context.Background(), caseKey{}, t.Name())
}

func ptr[T any](v T) *T { return &v }

func uncapped(p contactsearch.Params) contactsearch.Params {
	p.MaxCompanies, p.ResultsByCompany = ptr(contactsearch.MaxMaxCompanies), ptr(0)
	return p
}

func ids(resp contactsearch.Response) []int64 {
	var out []int64
	for _, e := range resp.Results {
		for _, c := range e.Contacts {
			out = append(out, c.PersonaID)
		}
	}
	return out
}

func industriesOf(p company.Profile) []string {
	var out []string
	for k := range p.IndustryGroups {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

func stateCode(country, v string) string {
	if v == "" || country == "" {
		return ""
	}
	c, _ := geo.ResolveState(country, v)
	return c
}

func hasAny(have []string, want ...string) bool {
	for _, h := range have {
		for _, x := range want {
			if strings.EqualFold(h, x) {
				return true
			}
		}
	}
	return false
}

func sameSet(a, b []int64) bool {
	a, b = slices.Clone(a), slices.Clone(b)
	slices.Sort(a)
	slices.Sort(b)
	return slices.Equal(a, b)
}

func minus(a, b []int64) []int64 {
	in := map[int64]bool{}
	for _, v := range b {
		in[v] = true
	}
	var out []int64
	for _, v := range a {
		if !in[v] {
			out = append(out, v)
		}
		if len(out) == 5 {
			break
		}
	}
	return out
}

func testFilters(t *testing.T, w *World, s Searcher) {
	pick := w.Truth[len(w.Truth)/3]
	someIndustry := industriesOf(pick.P)[0]
	someDomain, otherDomain := w.Truth[0].C.Domain, w.Truth[len(w.Truth)-1].C.Domain
	pickState := stateCode(pick.P.Address.Country, pick.P.Address.State)
	personState := ""
	for _, r := range w.Truth {
		if r.Raw.State != "" && r.Raw.Country == "DE" {
			personState = r.Raw.State
			break
		}
	}
	ctoQ, _ := title.ParseQuery([]string{"CTO"})
	mgrQ, _ := title.ParseQuery([]string{"manager"})
	salesVP, _ := title.ParseQuery([]string{"+vp", "sales", "marketing"})
	type P = contactsearch.Params
	type S = contactsearch.Strings
	tests := []struct {
		name string
		p    P
		want func(r Row) bool
	}{
		{"no filter", P{}, func(Row) bool { return true }},
		{"seniority", P{Seniority: S{"vp", "director"}}, func(r Row) bool { return r.C.Seniority == "vp" || r.C.Seniority == "director" }},
		{"negate_seniority", P{NegateSeniority: S{"manager"}}, func(r Row) bool { return r.C.Seniority != "manager" }},
		{"department", P{Department: S{"Technology"}}, func(r Row) bool { return r.C.Department == "Technology" }},
		{"negate_department", P{NegateDepartment: S{"Technology", "Finance"}}, func(r Row) bool {
			return r.C.Department != "Technology" && r.C.Department != "Finance"
		}},
		{"skills", P{Skills: S{"Python", "recruiting"}}, func(r Row) bool { return hasAny(r.C.Skills, "python", "recruiting") }},
		{"name partial", P{Name: "mül"}, func(r Row) bool {
			return strings.Contains(strings.ToLower(r.C.Name), "mül") || strings.Contains(strings.ToLower(r.C.Name), "mul")
		}},
		{"title acronym", P{Title: S{"CTO"}}, func(r Row) bool { return ctoQ.Match(r.C.Title) }},
		{"title required and optional", P{Title: S{"+vp", "sales", "marketing"}}, func(r Row) bool { return salesVP.Match(r.C.Title) }},
		{"negate_title", P{NegateTitle: S{"manager"}}, func(r Row) bool { return !mgrQ.Match(r.C.Title) }},
		{"summary", P{Summary: S{"python"}}, func(r Row) bool {
			return r.C.Summary != nil && strings.Contains(" "+title.Normalize(*r.C.Summary), " python")
		}},
		{"negate_summary", P{NegateSummary: S{"python"}}, func(r Row) bool {
			return r.C.Summary == nil || !strings.Contains(" "+title.Normalize(*r.C.Summary), " python")
		}},
		{"person_country region", P{PersonCountry: S{"DACH"}}, func(r Row) bool { return hasAny([]string{r.C.Country}, "DE", "AT", "CH") }},
		{"negate_person_country", P{NegatePersonCountry: S{"US", "NORDICS"}}, func(r Row) bool {
			return !hasAny([]string{r.C.Country}, "US", "DK", "FI", "IS", "NO", "SE")
		}},
		{"person_state", P{PersonCountry: S{"DE"}, PersonState: S{personState}}, func(r Row) bool {
			return r.C.Country == "DE" && stateCode("DE", r.Raw.State) == stateCode("DE", personState)
		}},
		{"person_state unresolvable is dropped", P{PersonCountry: S{"DE"}, PersonState: S{"Atlantis"}}, func(r Row) bool { return r.C.Country == "DE" }},
		{"has_email", P{HasEmail: ptr(true)}, func(r Row) bool { return r.C.Email != nil }},
		{"has_email false restricts nothing", P{HasEmail: ptr(false)}, func(Row) bool { return true }},
		{"email_validated", P{EmailValidated: ptr(true)}, func(r Row) bool { return r.C.EmailValidated }},
		{"has_phone", P{HasPhone: ptr(true)}, func(r Row) bool { return len(r.C.Phone) > 0 }},
		{"has_mobile", P{HasMobile: ptr(true)}, func(r Row) bool { return r.C.HasMobile() }},
		{"has_linkedin", P{HasLinkedin: ptr(true)}, func(r Row) bool { return r.Raw.LinkedinURL != "" }},
		{"min_connections", P{MinConnections: ptr(700)}, func(r Row) bool { return r.C.Connections >= 700 }},
		{"jobstart_date min", P{JobstartDate: "2022-01-01"}, func(r Row) bool { return r.C.JobstartDate != nil && *r.C.JobstartDate >= "2022-01-01" }},
		{"jobstart_date range", P{JobstartDate: "2018-01-01,2020-12-31"}, func(r Row) bool {
			return r.C.JobstartDate != nil && *r.C.JobstartDate >= "2018-01-01" && *r.C.JobstartDate <= "2020-12-31"
		}},
		{"filter_industry", P{FilterIndustry: S{someIndustry}}, func(r Row) bool { return hasAny(industriesOf(r.P), someIndustry) }},
		{"negate_filter_industry", P{NegateFilterIndustry: S{someIndustry}}, func(r Row) bool { return !hasAny(industriesOf(r.P), someIndustry) }},
		{"filter_country", P{FilterCountry: S{"BENELUX", "FR"}}, func(r Row) bool {
			return hasAny([]string{r.P.Address.Country}, "BE", "NL", "LU", "FR")
		}},
		{"negate_filter_country", P{NegateFilterCountry: S{"EU"}}, func(r Row) bool {
			eu, _ := geo.ExpandCountries([]string{"EU"})
			return !hasAny([]string{r.P.Address.Country}, eu...)
		}},
		{"filter_state", P{FilterCountry: S{pick.P.Address.Country}, FilterState: S{pick.P.Address.State}}, func(r Row) bool {
			return r.P.Address.Country == pick.P.Address.Country && stateCode(r.P.Address.Country, r.P.Address.State) == pickState
		}},
		{"negate_filter_state", P{FilterCountry: S{pick.P.Address.Country}, NegateFilterState: S{pick.P.Address.State}}, func(r Row) bool {
			return r.P.Address.Country == pick.P.Address.Country && stateCode(r.P.Address.Country, r.P.Address.State) != pickState
		}},
		{"employee_range", P{EmployeeRange: "11,200"}, func(r Row) bool {
			return r.P.Employees != nil && (*r.P.Employees == "11-50" || *r.P.Employees == "51-200")
		}},
		{"revenue_range ignored", P{RevenueRange: []byte(`"10-100M"`)}, func(Row) bool { return true }},
		{"domain mode", P{Domain: S{someDomain, "https://www." + otherDomain + "/x"}}, func(r Row) bool { return r.C.Domain == someDomain || r.C.Domain == otherDomain }},
		{"domain mode with filter", P{Domain: S{someDomain}, NegateSeniority: S{"executive"}}, func(r Row) bool {
			return r.C.Domain == someDomain && r.C.Seniority != "executive"
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ctx := caseCtx(t)
			var want []int64
			for _, r := range w.Truth {
				if tt.want(r) {
					want = append(want, r.C.PersonaID)
				}
			}
			req, err := contactsearch.Validate(uncapped(tt.p))
			if err != nil {
				t.Fatal(err)
			}
			resp, err := s.Search(ctx, Org, req)
			if err != nil {
				t.Fatal(err)
			}
			got := ids(resp)
			if !sameSet(got, want) || len(got) != len(want) {
				t.Fatalf("%d contacts, brute force %d; missing %v, extra %v", len(got), len(want), minus(want, got), minus(got, want))
			}
			if !slices.IsSorted(got) {
				t.Fatal("filter mode is not in persona id order")
			}
			switch tt.name {
			case "no filter", "has_email false restricts nothing", "revenue_range ignored", "email_validated":
			default:
				if len(want) == 0 || len(want) == len(w.Truth) {
					t.Errorf("the case selects %d of %d contacts: it tests nothing", len(want), len(w.Truth))
				}
			}
			n, err := s.Count(ctx, tt.p)
			if err != nil || n != len(want) {
				t.Fatalf("Count = %d, %v; want %d", n, err, len(want))
			}
		})
	}
}

func testTitleAcronyms(t *testing.T, s Searcher) {
	ctx := caseCtx(t)
	req, _ := contactsearch.Validate(uncapped(contactsearch.Params{Title: contactsearch.Strings{"CEO"}}))
	resp, err := s.Search(ctx, Org, req)
	if err != nil {
		t.Fatal(err)
	}
	seen := map[string]bool{}
	for _, e := range resp.Results {
		for _, c := range e.Contacts {
			seen[c.Title] = true
		}
	}
	if !seen["Chief Executive Officer"] {
		t.Fatalf("title CEO did not find Chief Executive Officer; titles %v", seen)
	}
	req, _ = contactsearch.Validate(uncapped(contactsearch.Params{Title: contactsearch.Strings{`"CEO"`}}))
	resp, err = s.Search(ctx, Org, req)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range resp.Results {
		for _, c := range e.Contacts {
			if c.Title == "Chief Executive Officer" {
				t.Fatal(`quoted "CEO" expanded to Chief Executive Officer`)
			}
		}
	}
}

func testScopes(t *testing.T, w *World, s Searcher) {
	ctx := caseCtx(t)
	by := query.Actor{UserID: "u1", UserName: "u1@x.test"}
	tr := w.Truth
	inc, err := w.Queries.CreateList(ctx, Org, by, query.NewList{Name: "inc", Action: query.ActionExclusionList,
		PersonaIDs: []int64{tr[0].C.PersonaID, tr[1].C.PersonaID, tr[2].C.PersonaID}})
	if err != nil {
		t.Fatal(err)
	}
	// The exclusion list holds three domains, so an adapter whose terms limit is below
	// three runs it as terms lookups.
	exc, err := w.Queries.CreateList(ctx, Org, by, query.NewList{Name: "exc", Action: query.ActionExclusionList,
		PersonaIDs: []int64{tr[1].C.PersonaID}, Domains: []string{tr[len(tr)-1].C.Domain, tr[len(tr)/2].C.Domain, tr[len(tr)/3].C.Domain}})
	if err != nil {
		t.Fatal(err)
	}
	req, _ := contactsearch.Validate(uncapped(contactsearch.Params{InclusionQueryID: contactsearch.Strings{inc.ID}, ExclusionQueryID: contactsearch.Strings{exc.ID}}))
	resp, err := s.Search(ctx, Org, req)
	if err != nil {
		t.Fatal(err)
	}
	var want []int64
	excluded := map[string]bool{tr[len(tr)-1].C.Domain: true, tr[len(tr)/2].C.Domain: true, tr[len(tr)/3].C.Domain: true}
	for _, r := range tr[:3] {
		if r.C.PersonaID != tr[1].C.PersonaID && !excluded[r.C.Domain] {
			want = append(want, r.C.PersonaID)
		}
	}
	if got := ids(resp); !sameSet(got, want) {
		t.Fatalf("scoped = %v, want %v", got, want)
	}
	req, _ = contactsearch.Validate(uncapped(contactsearch.Params{ExclusionQueryID: contactsearch.Strings{exc.ID}}))
	resp, err = s.Search(ctx, Org, req)
	if err != nil {
		t.Fatal(err)
	}
	want = nil
	for _, r := range tr {
		if r.C.PersonaID != tr[1].C.PersonaID && !excluded[r.C.Domain] {
			want = append(want, r.C.PersonaID)
		}
	}
	if got := ids(resp); !sameSet(got, want) {
		t.Fatalf("excluded: %d contacts, want %d; missing %v extra %v", len(got), len(want), minus(want, got), minus(got, want))
	}
	req, _ = contactsearch.Validate(contactsearch.Params{InclusionQueryID: contactsearch.Strings{inc.ID}})
	if _, err := s.Search(ctx, "org-other", req); !errors.Is(err, apperr.ErrNotFound) {
		t.Fatalf("other org's query: %v, want not found", err)
	}
}

func testSimilarityModes(t *testing.T, w *World, s Searcher) {
	var want []int64
	for _, r := range w.Truth {
		if r.C.Department != "Finance" && r.Raw.LinkedinURL != "" {
			want = append(want, r.C.PersonaID)
		}
	}
	persona := w.Truth[5].C.PersonaID
	tests := []struct {
		name string
		p    contactsearch.Params
		drop int64
	}{
		{"icp_text", contactsearch.Params{IcpText: "software engineering lead, kubernetes and go"}, 0},
		{"persona_id", contactsearch.Params{PersonaID: contactsearch.IDs{persona}}, persona},
		{"persona_id consensus", contactsearch.Params{PersonaID: contactsearch.IDs{persona}, Consensus: ptr(5)}, persona},
		{"persona_id include_search_contacts", contactsearch.Params{PersonaID: contactsearch.IDs{persona}, IncludeSearchContacts: true}, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ctx := caseCtx(t)
			p := tt.p
			p.NegateDepartment, p.HasLinkedin = contactsearch.Strings{"Finance"}, ptr(true)
			req, err := contactsearch.Validate(uncapped(p))
			if err != nil {
				t.Fatal(err)
			}
			resp, err := s.Search(ctx, Org, req)
			if err != nil {
				t.Fatal(err)
			}
			wnt := want
			if tt.drop != 0 {
				wnt = slices.DeleteFunc(slices.Clone(want), func(v int64) bool { return v == tt.drop })
			}
			if got := ids(resp); !sameSet(got, wnt) || len(got) != len(wnt) {
				t.Fatalf("%d contacts, brute force %d; missing %v extra %v", len(got), len(wnt), minus(wnt, got), minus(got, wnt))
			}
			prev := 101
			for _, e := range resp.Results {
				for _, c := range e.Contacts {
					if c.Similarity == nil || *c.Similarity < 0 || *c.Similarity > 100 {
						t.Fatalf("similarity %v", c.Similarity)
					}
				}
				if sim := *e.Contacts[0].Similarity; sim > prev {
					t.Fatalf("companies not in rank order: %d after %d", sim, prev)
				} else {
					prev = sim
				}
			}
		})
	}
	ctx := caseCtx(t)
	req, _ := contactsearch.Validate(contactsearch.Params{})
	resp, err := s.Search(ctx, Org, req)
	if err != nil {
		t.Fatal(err)
	}
	if resp.Results[0].Contacts[0].Similarity != nil {
		t.Fatal("filter mode has a similarity")
	}
}

func testPrompt(t *testing.T, w *World, s Searcher) {
	ctx := caseCtx(t)
	req, err := contactsearch.Validate(uncapped(contactsearch.Params{IcpPrompt: "Sales managers in Germany at companies with 11-200 employees"}))
	if err != nil {
		t.Fatal(err)
	}
	resp, err := s.Search(ctx, Org, req)
	if err != nil {
		t.Fatal(err)
	}
	var want []int64
	for _, r := range w.Truth {
		if r.C.Seniority == "manager" && r.C.Department == "Sales - Marketing" && r.P.Address.Country == "DE" &&
			r.P.Employees != nil && (*r.P.Employees == "11-50" || *r.P.Employees == "51-200") {
			want = append(want, r.C.PersonaID)
		}
	}
	if !sameSet(ids(resp), want) {
		t.Fatalf("icp_prompt: %d contacts, brute force %d", len(ids(resp)), len(want))
	}
	testPromptSignals(t, w, s)
}

// testPromptSignals: a prompt naming technologies, products or funding returns the
// contacts at the companies the embedded company search (contactsearch.SignalCompanies
// over every stored company) finds, and only those; for one technology, those are the
// companies whose profile names it (vendor, description or keyword).
func testPromptSignals(t *testing.T, w *World, s Searcher) {
	ctx := caseCtx(t)
	var recs []company.Record
	for cursor := ""; ; {
		page, next, err := w.Companies.List(ctx, cursor, 500)
		if err != nil {
			t.Fatal(err)
		}
		recs = append(recs, page...)
		if cursor = next; next == "" {
			break
		}
	}
	byDomain := map[string]company.Record{}
	for _, r := range recs {
		byDomain[r.Domain] = r
	}
	tests := []struct {
		prompt string
		dept   string
		vendor string // for one technology: the vendor domain behind it
		word   string // and its word in descriptions and keywords
	}{
		{"Engineers at companies using Stripe", "Technology", "stripe.com", "stripe"},
		{"Sales people at companies that use HubSpot", "Sales - Marketing", "hs-scripts.com", "hubspot"},
		// Two words of unequal rarity (idf), and two signals.
		{"Engineers at companies offering managed software", "Technology", "", ""},
		{"Engineers at companies using intercom. Companies selling software", "Technology", "", ""},
	}
	for _, tt := range tests {
		req, err := contactsearch.Validate(uncapped(contactsearch.Params{IcpPrompt: tt.prompt}))
		if err != nil {
			t.Fatal(err)
		}
		if len(req.Prompt.Signals) == 0 || !slices.Equal(req.Prompt.Department, []string{tt.dept}) {
			t.Fatalf("%q read as %+v", tt.prompt, req.Prompt)
		}
		at := map[string]bool{}
		for _, d := range contactsearch.SignalCompanies(recs, req.Prompt.Signals) {
			at[d] = true
		}
		if tt.vendor != "" {
			for d, r := range byDomain {
				if at[d] != profileHas(r, tt.vendor, tt.word) {
					t.Fatalf("%q: the company search says %v for %s, its profile %v", tt.prompt, at[d], d, !at[d])
				}
			}
		}
		var want, all []int64
		for _, r := range w.Truth {
			if r.C.Department == tt.dept {
				all = append(all, r.C.PersonaID)
				if at[r.C.Domain] {
					want = append(want, r.C.PersonaID)
				}
			}
		}
		if len(want) == 0 || len(want) == len(all) {
			t.Fatalf("%q: %d of %d %s contacts at matching companies: the case tests nothing", tt.prompt, len(want), len(all), tt.dept)
		}
		resp, err := s.Search(ctx, Org, req)
		if err != nil {
			t.Fatal(err)
		}
		if got := ids(resp); !sameSet(got, want) {
			t.Fatalf("%q: %d contacts, brute force %d; missing %v, extra %v", tt.prompt, len(got), len(want), minus(want, got), minus(got, want))
		}
	}
}

// profileHas: the company embeds the vendor, or its description or keywords name the word.
func profileHas(rec company.Record, vendor, word string) bool {
	if slices.Contains(rec.Derived.Vendors, vendor) {
		return true
	}
	text := " " + title.Normalize(rec.Profile.Description) + " "
	for k := range rec.Profile.Keywords {
		text += title.Normalize(k) + " "
	}
	return strings.Contains(text, " "+word)
}

func testEntries(t *testing.T, s Searcher, patterns bool) {
	ctx := caseCtx(t)
	req, _ := contactsearch.Validate(contactsearch.Params{MaxCompanies: ptr(60), ResultsByCompany: ptr(100)})
	resp, err := s.Search(ctx, Org, req)
	if err != nil {
		t.Fatal(err)
	}
	if len(resp.Results) < 30 {
		t.Fatalf("%d companies", len(resp.Results))
	}
	withPattern := 0
	for _, e := range resp.Results {
		if e.Name == "" || e.Address.Country == "" {
			t.Fatalf("entry %s lacks name or country: %+v", e.Domain, e)
		}
		if e.EmailPattern != nil {
			withPattern++
			if !strings.HasSuffix(*e.EmailPattern, "@"+e.Domain) || *e.EmailPatternConfidence <= 1 || *e.EmailPatternConfidence > 100 {
				t.Fatalf("pattern %s %v", *e.EmailPattern, *e.EmailPatternConfidence)
			}
		}
		if e.Address.State != "" && len(e.Address.State) <= 3 {
			t.Fatalf("address.state %q is a code, want the full name", e.Address.State)
		}
		for _, c := range e.Contacts {
			if c.CompanyName != e.Name || c.Domain != e.Domain || c.RevenueRange == "" || c.Industry == nil {
				t.Fatalf("contact %d company fields %q %q %q %v", c.PersonaID, c.CompanyName, c.Domain, c.RevenueRange, c.Industry)
			}
		}
	}
	if patterns && withPattern < len(resp.Results)/3 {
		t.Fatalf("only %d of %d companies have an email pattern", withPattern, len(resp.Results))
	}
}

func testLookup(t *testing.T, w *World, s Searcher) {
	ctx := caseCtx(t)
	var withAll Row
	for _, r := range w.Truth {
		if r.Raw.Email != "" && r.Raw.LinkedinURL != "" {
			withAll = r
			break
		}
	}
	for _, tt := range []struct {
		name            string
		id              int64
		linkedin, email string
	}{
		{"persona_id", withAll.C.PersonaID, "", ""},
		{"email any case", 0, "", strings.ToUpper(withAll.Raw.Email)},
		{"linkedin url", 0, withAll.Raw.LinkedinURL, ""},
		{"linkedin username", 0, contact.LinkedinUsername(withAll.Raw.LinkedinURL), ""},
	} {
		v, err := s.Lookup(ctx, tt.id, tt.linkedin, tt.email)
		if err != nil || v.PersonaID != withAll.C.PersonaID || v.CompanyName == "" {
			t.Fatalf("%s: Lookup = %+v, %v", tt.name, v, err)
		}
	}
	if _, err := s.Lookup(ctx, 0, "", "nobody@nowhere.test"); !errors.Is(err, apperr.ErrNotFound) {
		t.Fatalf("no match: %v", err)
	}
}

// exactRanking is every contact by cosine with text's vector, nearest first (ties by
// persona id), as contactsearch.Ranked over the truth.
func exactRanking(t *testing.T, w *World, text string) ([]contactsearch.Ranked, map[int64]float32) {
	ctx := context.Background()
	texts := make([]string, len(w.Truth))
	for i, r := range w.Truth {
		texts[i] = contactsearch.Prepare(r.Raw, contactsearch.CompanyFields{Domain: r.Raw.Domain}).Text
	}
	q, err := w.Embedder.Embed(ctx, []string{text})
	if err != nil {
		t.Fatal(err)
	}
	qv := append([]float32(nil), q[0]...)
	vector.Normalize(qv)
	hits := make([]vector.Hit, len(texts))
	for start := 0; start < len(texts); start += 256 {
		vs, err := w.Embedder.Embed(ctx, texts[start:min(start+256, len(texts))])
		if err != nil {
			t.Fatal(err)
		}
		for k, v := range vs {
			i := start + k
			hits[i] = vector.Hit{ID: w.Truth[i].C.PersonaID, Score: vector.Dot(qv, v)}
		}
	}
	vector.SortHits(hits) // ties by persona id
	scores := make(map[int64]float32, len(hits))
	for _, h := range hits {
		scores[h.ID] = h.Score
	}
	at := map[int64]int{}
	for i, r := range w.Truth {
		at[r.C.PersonaID] = i
	}
	out := make([]contactsearch.Ranked, len(hits))
	for k, h := range hits {
		i := at[h.ID]
		out[k] = contactsearch.Ranked{Index: i, Domain: w.Truth[i].C.Domain}
	}
	return out, scores
}

// nearTie is how close two cosines are for their order to be arithmetic's choice: an
// index computing in float32 with another summation order (or scores sent as float32)
// may swap them.
const nearTie = 1e-5

// reorderNearTies is ranked with contacts whose scores are within nearTie put in the
// order got (the searcher's page) shows them, so a page that differs from the exact one
// only by swapping near-equal contacts compares equal.
func reorderNearTies(w *World, ranked []contactsearch.Ranked, scores map[int64]float32, got []int64) []contactsearch.Ranked {
	pos := map[int64]int{}
	for i, id := range got {
		pos[id] = i
	}
	out := slices.Clone(ranked)
	sort.SliceStable(out, func(a, b int) bool {
		ia, ib := w.Truth[out[a].Index].C.PersonaID, w.Truth[out[b].Index].C.PersonaID
		sa, sb := scores[ia], scores[ib]
		if d := sa - sb; d > nearTie || d < -nearTie {
			return sa > sb
		}
		pa, okA := pos[ia]
		pb, okB := pos[ib]
		switch {
		case okA && okB:
			return pa < pb
		case okA != okB:
			return okA
		}
		return false
	})
	return out
}

func testPages(t *testing.T, w *World, s Searcher) {
	testSimilarityPages(t, w, s, []pageCase{
		{"defaults", contactsearch.Params{}, 100},
		{"one per company", contactsearch.Params{MaxRecords: ptr(30), ResultsByCompany: ptr(1)}, 30},
		{"two per company", contactsearch.Params{MaxRecords: ptr(50), ResultsByCompany: ptr(2)}, 50},
		{"offset without caps", contactsearch.Params{MaxRecords: ptr(40), ResultsByCompany: ptr(0), Offset: 25}, 40},
		{"max_companies", contactsearch.Params{MaxCompanies: ptr(8), ResultsByCompany: ptr(3)}, 24},
	})
}

// pageCase is a page's result control and, in similarity mode, how many contacts the
// exact page holds (-1: not checked).
type pageCase struct {
	name string
	p    contactsearch.Params
	want int
}

// pagesText is the icp_text of the similarity pages.
const pagesText = "software engineering lead, kubernetes and go"

// testSimilarityPages checks similarity pages against Select over the exact ranking.
func testSimilarityPages(t *testing.T, w *World, s Searcher, cases []pageCase) {
	ranked, scores := exactRanking(t, w, pagesText)
	for _, tt := range cases {
		t.Run(tt.name, func(t *testing.T) {
			ctx := caseCtx(t)
			p := tt.p
			p.IcpText = pagesText
			req, err := contactsearch.Validate(p)
			if err != nil {
				t.Fatal(err)
			}
			resp, err := s.Search(ctx, Org, req)
			if err != nil {
				t.Fatal(err)
			}
			page := func(r []contactsearch.Ranked) []int64 {
				var out []int64
				for _, g := range contactsearch.Select(r, req.Limits) {
					for _, i := range g.Members {
						out = append(out, w.Truth[i].C.PersonaID)
					}
				}
				return out
			}
			got := ids(resp)
			want := page(ranked)
			if !slices.Equal(got, want) {
				want = page(reorderNearTies(w, ranked, scores, got))
			}
			if tt.want >= 0 && len(want) != tt.want {
				t.Fatalf("the exact page holds %d contacts, the test expects %d", len(want), tt.want)
			}
			if !slices.Equal(got, want) {
				t.Fatalf("page of %d contacts differs from the exact page of %d:\n got  %v\n want %v", len(got), len(want), got, want)
			}
		})
	}
}

// DeepOffset is the offset of the deep-page cases: past the result window an adapter
// test may lower (OpenSearch: index.max_result_window, 10,000 by default), within the
// suite's world of 891 contacts.
const DeepOffset = 450

// testDeepPages checks pages far down the ranking (offset DeepOffset, and one past the
// last full page) in similarity and filter mode against the same exact pages as the
// other page cases: an adapter whose single search stops at a result window must page
// past it.
func testDeepPages(t *testing.T, w *World, s Searcher) {
	tail := len(w.Truth) - 11 // 11 contacts from here to the end
	t.Run("similarity", func(t *testing.T) {
		testSimilarityPages(t, w, s, []pageCase{
			{"deep offset", contactsearch.Params{MaxRecords: ptr(40), ResultsByCompany: ptr(0), Offset: DeepOffset}, 40},
			{"deep offset to the end", contactsearch.Params{MaxRecords: ptr(40), ResultsByCompany: ptr(0), Offset: tail}, 11},
		})
	})
	t.Run("filter", func(t *testing.T) {
		testFilterPageCases(t, w, s, []pageCase{
			{"deep offset", contactsearch.Params{MaxRecords: ptr(40), ResultsByCompany: ptr(0), Offset: DeepOffset}, 40},
			{"deep offset to the end", contactsearch.Params{MaxRecords: ptr(40), ResultsByCompany: ptr(0), Offset: tail}, 11},
			{"deep offset max_companies", contactsearch.Params{MaxCompanies: ptr(3), ResultsByCompany: ptr(0), Offset: DeepOffset}, -1},
			{"deep offset filtered", contactsearch.Params{MaxRecords: ptr(20), ResultsByCompany: ptr(0), Offset: 300, HasEmail: ptr(true)}, -1},
		})
	})
}

// RunDeepPages runs only the deep-page cases (Run runs them too): for an adapter opened
// with a lowered result window, so the cases page past it cheaply.
func RunDeepPages(t *testing.T, open Open) {
	w := Demo(t)
	s, _ := open(t, w)
	t.Run("DeepPages", func(t *testing.T) { testDeepPages(t, w, s) })
}

// testFilterPages checks filter-mode pages under each kind of result control against
// Select over the persona-id ordering of the truth.
func testFilterPages(t *testing.T, w *World, s Searcher) {
	testFilterPageCases(t, w, s, []pageCase{
		{"defaults", contactsearch.Params{}, -1},
		{"one per company", contactsearch.Params{MaxRecords: ptr(30), ResultsByCompany: ptr(1)}, -1},
		{"offset without caps", contactsearch.Params{MaxRecords: ptr(40), ResultsByCompany: ptr(0), Offset: 25}, -1},
		{"max_companies", contactsearch.Params{MaxCompanies: ptr(8), ResultsByCompany: ptr(3)}, -1},
		{"max_companies uncapped per company", contactsearch.Params{MaxCompanies: ptr(3), ResultsByCompany: ptr(0)}, -1},
	})
}

// testFilterPageCases checks filter-mode pages against Select over the persona-id
// ordering of the truth rows the case's filters admit (has_email is the one filter the
// cases use).
func testFilterPageCases(t *testing.T, w *World, s Searcher, cases []pageCase) {
	for _, tt := range cases {
		t.Run(tt.name, func(t *testing.T) {
			ctx := caseCtx(t)
			var byID []int
			for i, r := range w.Truth {
				if tt.p.HasEmail != nil && *tt.p.HasEmail && r.C.Email == nil {
					continue
				}
				byID = append(byID, i)
			}
			sort.Slice(byID, func(a, b int) bool { return w.Truth[byID[a]].C.PersonaID < w.Truth[byID[b]].C.PersonaID })
			ranked := make([]contactsearch.Ranked, len(byID))
			for k, i := range byID {
				ranked[k] = contactsearch.Ranked{Index: i, Domain: w.Truth[i].C.Domain}
			}
			req, err := contactsearch.Validate(tt.p)
			if err != nil {
				t.Fatal(err)
			}
			resp, err := s.Search(ctx, Org, req)
			if err != nil {
				t.Fatal(err)
			}
			var want []int64
			var doms []string
			for _, g := range contactsearch.Select(ranked, req.Limits) {
				doms = append(doms, g.Domain)
				for _, i := range g.Members {
					want = append(want, w.Truth[i].C.PersonaID)
				}
			}
			if tt.want >= 0 && len(want) != tt.want {
				t.Fatalf("the exact page holds %d contacts, the test expects %d", len(want), tt.want)
			}
			var gotDoms []string
			for _, e := range resp.Results {
				gotDoms = append(gotDoms, e.Domain)
			}
			if got := ids(resp); !slices.Equal(got, want) || !slices.Equal(gotDoms, doms) {
				t.Fatalf("page differs:\n got  %v %v\n want %v %v", gotDoms, got, doms, want)
			}
			if resp.TotalContacts != len(want) || resp.TotalDomains != len(doms) {
				t.Fatalf("totals %d/%d, want %d/%d", resp.TotalContacts, resp.TotalDomains, len(want), len(doms))
			}
		})
	}
}
