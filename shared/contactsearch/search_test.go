package contactsearch

import (
	"context"
	"encoding/json"
	"errors"
	"math/rand/v2"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/firmoapi/firmo/shared/apperr"
	"github.com/firmoapi/firmo/shared/company"
	"github.com/firmoapi/firmo/shared/contact"
	"github.com/firmoapi/firmo/shared/dnsmx"
	"github.com/firmoapi/firmo/shared/embed/ppmiembed"
	"github.com/firmoapi/firmo/shared/extract"
	"github.com/firmoapi/firmo/shared/geo"
	"github.com/firmoapi/firmo/shared/industry"
	"github.com/firmoapi/firmo/shared/kv/boltkv"
	"github.com/firmoapi/firmo/shared/query"
	"github.com/firmoapi/firmo/shared/title"
	"github.com/firmoapi/firmo/shared/vector"
	"github.com/firmoapi/firmo/shared/world"
)

type classifier struct{ c *industry.Classifier }

func (x classifier) Classify(text, lang string) company.Classification {
	return company.Classification(x.c.Classify(text, lang))
}

type extractor struct{ e *extract.Extractor }

func (x extractor) Extract(html []byte, url string) (company.Extracted, error) {
	r, err := x.e.Extract(html, url)
	return company.Extracted(r), err
}

// fixture is a demo world seeded into a store, the service over it, and the truth the
// brute-force filters run on: every contact derived again, independently of the
// service's snapshot, with its employer's profile.
type fixture struct {
	svc     *Service
	queries *query.Service
	truth   []truthRow
}

type truthRow struct {
	c   contact.Contact
	raw contact.Raw
	p   company.Profile
}

var (
	fixOnce sync.Once
	fix     *fixture
	fixErr  error
)

const testOrg = "org-test"

func demo(t *testing.T) *fixture {
	t.Helper()
	fixOnce.Do(func() { fix, fixErr = newFixture() })
	if fixErr != nil {
		t.Fatal(fixErr)
	}
	return fix
}

func newFixture() (*fixture, error) {
	ctx := context.Background()
	dir, err := tempDir()
	if err != nil {
		return nil, err
	}
	kv, err := boltkv.Open(filepath.Join(dir, "kv.db"))
	if err != nil {
		return nil, err
	}
	kv.DB().NoSync = true
	opts := world.Options{Seed: 11, Companies: 60, AsOf: time.Date(2026, 6, 1, 0, 0, 0, 0, time.UTC)}.Normalized()
	w := world.New(opts)
	zone := &dnsmx.MapZone{}
	zone.Set(w.Zone())
	dns, err := dnsmx.Serve("127.0.0.1:0", zone)
	if err != nil {
		return nil, err
	}
	defer dns.Close()
	now := func() time.Time { return opts.AsOf.Add(10 * time.Hour) }
	d := company.NewDeriver(company.DeriverDeps{Extractor: extractor{extract.New()}, Classifier: classifier{industry.New()}, MX: dnsmx.New([]string{dns.Addr()}, time.Second), Now: now})
	csvc := company.NewService(company.NewKVStore(kv), d)
	if _, err := world.Seed(ctx, csvc, w, company.LoadOptions{}, nil); err != nil {
		return nil, err
	}
	cs := contact.NewStore(kv)
	if _, err := world.SeedContacts(ctx, cs, w, nil); err != nil {
		return nil, err
	}
	qs := query.New(kv)
	svc := New(Deps{Contacts: cs, Companies: csvc.Store(), Embedder: ppmiembed.New(), Scopes: qs, Saver: qs, Dir: filepath.Join(dir, "index")})
	if err := svc.Refresh(ctx); err != nil {
		return nil, err
	}
	f := &fixture{svc: svc, queries: qs}
	err = cs.List(ctx, func(r contact.Raw) error {
		rec, err := csvc.Store().Get(ctx, r.Domain)
		if err != nil {
			return err
		}
		f.truth = append(f.truth, truthRow{c: contact.Derive(r), raw: r, p: rec.Profile})
		return nil
	})
	return f, err
}

var tempOnce struct {
	sync.Once
	dir string
	err error
}

// tempDir is one directory for the package's shared fixture (t.TempDir would vanish
// with the first test).
func tempDir() (string, error) {
	tempOnce.Do(func() {
		tempOnce.dir, tempOnce.err = osMkdirTemp()
	})
	return tempOnce.dir, tempOnce.err
}

func ids(resp Response) []int64 {
	var out []int64
	for _, e := range resp.Results {
		for _, c := range e.Contacts {
			out = append(out, c.PersonaID)
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i] < out[j] })
	return out
}

func ptr[T any](v T) *T { return &v }

// demoSnapshot is the package's demo fixture and its current snapshot.
func demoSnapshot(t *testing.T) (*fixture, *snapshot) {
	t.Helper()
	f := demo(t)
	sn, err := f.svc.current(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	return f, sn
}

// uncapped asks for everything: the sets compared are those before any result cap.
func uncapped(p Params) Params {
	p.MaxCompanies, p.ResultsByCompany = ptr(MaxMaxCompanies), ptr(0)
	return p
}

func industriesOf(p company.Profile) []string {
	var out []string
	for k := range p.IndustryGroups {
		out = append(out, k)
	}
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
		for _, w := range want {
			if strings.EqualFold(h, w) {
				return true
			}
		}
	}
	return false
}

func TestFiltersAgainstBruteForce(t *testing.T) {
	f := demo(t)
	ctx := context.Background()
	// Values that occur in the world, so each case selects a real, non-trivial subset.
	pick := f.truth[len(f.truth)/3]
	someIndustry := industriesOf(pick.p)[0]
	someDomain, otherDomain := f.truth[0].c.Domain, f.truth[len(f.truth)-1].c.Domain
	pickState := stateCode(pick.p.Address.Country, pick.p.Address.State)
	personState := ""
	for _, r := range f.truth {
		if r.raw.State != "" && r.raw.Country == "DE" {
			personState = r.raw.State
			break
		}
	}
	ctoQ, _ := title.ParseQuery([]string{"CTO"})
	mgrQ, _ := title.ParseQuery([]string{"manager"})
	tests := []struct {
		name string
		p    Params
		want func(r truthRow) bool
	}{
		{"no filter", Params{}, func(truthRow) bool { return true }},
		{"seniority", Params{Seniority: Strings{"vp", "director"}}, func(r truthRow) bool { return r.c.Seniority == "vp" || r.c.Seniority == "director" }},
		{"negate_seniority", Params{NegateSeniority: Strings{"manager"}}, func(r truthRow) bool { return r.c.Seniority != "manager" }},
		{"department", Params{Department: Strings{"Technology"}}, func(r truthRow) bool { return r.c.Department == "Technology" }},
		{"negate_department", Params{NegateDepartment: Strings{"Technology", "Finance"}}, func(r truthRow) bool {
			return r.c.Department != "Technology" && r.c.Department != "Finance"
		}},
		{"skills", Params{Skills: Strings{"Python", "recruiting"}}, func(r truthRow) bool { return hasAny(r.c.Skills, "python", "recruiting") }},
		{"name partial", Params{Name: "mül"}, func(r truthRow) bool {
			return strings.Contains(strings.ToLower(r.c.Name), "mül") || strings.Contains(strings.ToLower(r.c.Name), "mul")
		}},
		{"title acronym", Params{Title: Strings{"CTO"}}, func(r truthRow) bool { return ctoQ.Match(r.c.Title) }},
		{"negate_title", Params{NegateTitle: Strings{"manager"}}, func(r truthRow) bool { return !mgrQ.Match(r.c.Title) }},
		{"summary", Params{Summary: Strings{"python"}}, func(r truthRow) bool {
			return r.c.Summary != nil && strings.Contains(" "+title.Normalize(*r.c.Summary), " python")
		}},
		{"negate_summary", Params{NegateSummary: Strings{"python"}}, func(r truthRow) bool {
			return r.c.Summary == nil || !strings.Contains(" "+title.Normalize(*r.c.Summary), " python")
		}},
		{"person_country region", Params{PersonCountry: Strings{"DACH"}}, func(r truthRow) bool { return hasAny([]string{r.c.Country}, "DE", "AT", "CH") }},
		{"negate_person_country", Params{NegatePersonCountry: Strings{"US", "NORDICS"}}, func(r truthRow) bool {
			return !hasAny([]string{r.c.Country}, "US", "DK", "FI", "IS", "NO", "SE")
		}},
		{"person_state", Params{PersonCountry: Strings{"DE"}, PersonState: Strings{personState}}, func(r truthRow) bool {
			return r.c.Country == "DE" && stateCode("DE", r.raw.State) == stateCode("DE", personState)
		}},
		{"person_state unresolvable is dropped", Params{PersonCountry: Strings{"DE"}, PersonState: Strings{"Atlantis"}}, func(r truthRow) bool { return r.c.Country == "DE" }},
		{"has_email", Params{HasEmail: ptr(true)}, func(r truthRow) bool { return r.c.Email != nil }},
		{"has_email false restricts nothing", Params{HasEmail: ptr(false)}, func(truthRow) bool { return true }},
		{"email_validated", Params{EmailValidated: ptr(true)}, func(r truthRow) bool { return r.c.EmailValidated }},
		{"has_phone", Params{HasPhone: ptr(true)}, func(r truthRow) bool { return len(r.c.Phone) > 0 }},
		{"has_mobile", Params{HasMobile: ptr(true)}, func(r truthRow) bool {
			for _, p := range r.c.Phone {
				if p.Type == "mobile" {
					return true
				}
			}
			return false
		}},
		{"has_linkedin", Params{HasLinkedin: ptr(true)}, func(r truthRow) bool { return r.raw.LinkedinURL != "" }},
		{"min_connections", Params{MinConnections: ptr(700)}, func(r truthRow) bool { return r.c.Connections >= 700 }},
		{"jobstart_date min", Params{JobstartDate: "2022-01-01"}, func(r truthRow) bool { return r.c.JobstartDate != nil && *r.c.JobstartDate >= "2022-01-01" }},
		{"jobstart_date range", Params{JobstartDate: "2018-01-01,2020-12-31"}, func(r truthRow) bool {
			return r.c.JobstartDate != nil && *r.c.JobstartDate >= "2018-01-01" && *r.c.JobstartDate <= "2020-12-31"
		}},
		{"filter_industry", Params{FilterIndustry: Strings{someIndustry}}, func(r truthRow) bool { return hasAny(industriesOf(r.p), someIndustry) }},
		{"negate_filter_industry", Params{NegateFilterIndustry: Strings{someIndustry}}, func(r truthRow) bool { return !hasAny(industriesOf(r.p), someIndustry) }},
		{"filter_country", Params{FilterCountry: Strings{"BENELUX", "FR"}}, func(r truthRow) bool {
			return hasAny([]string{r.p.Address.Country}, "BE", "NL", "LU", "FR")
		}},
		{"negate_filter_country", Params{NegateFilterCountry: Strings{"EU"}}, func(r truthRow) bool {
			eu, _ := geo.ExpandCountries([]string{"EU"})
			return !hasAny([]string{r.p.Address.Country}, eu...)
		}},
		{"filter_state", Params{FilterCountry: Strings{pick.p.Address.Country}, FilterState: Strings{pick.p.Address.State}}, func(r truthRow) bool {
			return r.p.Address.Country == pick.p.Address.Country && stateCode(r.p.Address.Country, r.p.Address.State) == pickState
		}},
		{"negate_filter_state", Params{FilterCountry: Strings{pick.p.Address.Country}, NegateFilterState: Strings{pick.p.Address.State}}, func(r truthRow) bool {
			return r.p.Address.Country == pick.p.Address.Country && stateCode(r.p.Address.Country, r.p.Address.State) != pickState
		}},
		{"employee_range", Params{EmployeeRange: "11,200"}, func(r truthRow) bool {
			return r.p.Employees != nil && (*r.p.Employees == "11-50" || *r.p.Employees == "51-200")
		}},
		{"revenue_range ignored", Params{RevenueRange: []byte(`"10-100M"`)}, func(truthRow) bool { return true }},
		{"domain mode", Params{Domain: Strings{someDomain, "https://www." + otherDomain + "/x"}}, func(r truthRow) bool { return r.c.Domain == someDomain || r.c.Domain == otherDomain }},
		{"domain mode with filter", Params{Domain: Strings{someDomain}, NegateSeniority: Strings{"executive"}}, func(r truthRow) bool {
			return r.c.Domain == someDomain && r.c.Seniority != "executive"
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var want []int64
			for _, r := range f.truth {
				if tt.want(r) {
					want = append(want, r.c.PersonaID)
				}
			}
			req, err := Validate(uncapped(tt.p))
			if err != nil {
				t.Fatal(err)
			}
			resp, err := f.svc.Search(ctx, testOrg, req)
			if err != nil {
				t.Fatal(err)
			}
			got := ids(resp)
			if !equal(got, want) {
				t.Fatalf("%d contacts, brute force %d; missing %v, extra %v", len(got), len(want), minus(want, got), minus(got, want))
			}
			if tt.name != "no filter" && tt.name != "has_email false restricts nothing" && tt.name != "revenue_range ignored" && tt.name != "email_validated" &&
				(len(want) == 0 || len(want) == len(f.truth)) {
				t.Errorf("the case selects %d of %d contacts: it tests nothing", len(want), len(f.truth))
			}
			n, err := f.svc.Count(ctx, tt.p)
			if err != nil || n != len(want) {
				t.Fatalf("Count = %d, %v; want %d", n, err, len(want))
			}
		})
	}
}

func equal(a, b []int64) bool {
	sort.Slice(b, func(i, j int) bool { return b[i] < b[j] })
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

func TestTitleAcronymsMatchSpelledOut(t *testing.T) {
	f := demo(t)
	req, _ := Validate(uncapped(Params{Title: Strings{"CEO"}}))
	resp, err := f.svc.Search(context.Background(), testOrg, req)
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
	req, _ = Validate(uncapped(Params{Title: Strings{`"CEO"`}}))
	resp, _ = f.svc.Search(context.Background(), testOrg, req)
	for _, e := range resp.Results {
		for _, c := range e.Contacts {
			if c.Title == "Chief Executive Officer" {
				t.Fatal(`quoted "CEO" expanded to Chief Executive Officer`)
			}
		}
	}
}

func TestSavedQueryScopes(t *testing.T) {
	f := demo(t)
	ctx := context.Background()
	by := query.Actor{UserID: "u1", UserName: "u1@x.test"}
	inc, err := f.queries.CreateList(ctx, testOrg, by, query.NewList{Name: "inc", Action: query.ActionExclusionList,
		PersonaIDs: []int64{f.truth[0].c.PersonaID, f.truth[1].c.PersonaID, f.truth[2].c.PersonaID}})
	if err != nil {
		t.Fatal(err)
	}
	exc, err := f.queries.CreateList(ctx, testOrg, by, query.NewList{Name: "exc", Action: query.ActionExclusionList,
		PersonaIDs: []int64{f.truth[1].c.PersonaID}, Domains: []string{f.truth[len(f.truth)-1].c.Domain}})
	if err != nil {
		t.Fatal(err)
	}
	req, _ := Validate(uncapped(Params{InclusionQueryID: Strings{inc.ID}, ExclusionQueryID: Strings{exc.ID}}))
	resp, err := f.svc.Search(ctx, testOrg, req)
	if err != nil {
		t.Fatal(err)
	}
	want := []int64{f.truth[0].c.PersonaID, f.truth[2].c.PersonaID}
	if got := ids(resp); !equal(got, want) {
		t.Fatalf("scoped = %v, want %v", got, want)
	}
	req, _ = Validate(uncapped(Params{ExclusionQueryID: Strings{exc.ID}}))
	resp, _ = f.svc.Search(ctx, testOrg, req)
	for _, e := range resp.Results {
		if e.Domain == f.truth[len(f.truth)-1].c.Domain {
			t.Fatal("excluded domain returned")
		}
	}
	if resp.TotalContacts == 0 {
		t.Fatal("exclusion removed everything")
	}
	// Another organisation's query is not found.
	req, _ = Validate(Params{InclusionQueryID: Strings{inc.ID}})
	if _, err := f.svc.Search(ctx, "org-other", req); !errors.Is(err, apperr.ErrNotFound) {
		t.Fatalf("other org's query: %v, want not found", err)
	}
}

func TestSimilarityModes(t *testing.T) {
	f := demo(t)
	ctx := context.Background()
	filter := Params{NegateDepartment: Strings{"Finance"}, HasLinkedin: ptr(true)}
	var want []int64
	for _, r := range f.truth {
		if r.c.Department != "Finance" && r.raw.LinkedinURL != "" {
			want = append(want, r.c.PersonaID)
		}
	}
	persona := f.truth[5].c.PersonaID
	tests := []struct {
		name       string
		p          Params
		drop       int64 // persona excluded from the results
		mustRecall bool
	}{
		{"icp_text", Params{IcpText: "software engineering lead, kubernetes and go"}, 0, true},
		{"persona_id", Params{PersonaID: IDs{persona}}, persona, false},
		{"persona_id consensus", Params{PersonaID: IDs{persona}, Consensus: ptr(5)}, persona, false},
		{"persona_id include_search_contacts", Params{PersonaID: IDs{persona}, IncludeSearchContacts: true}, 0, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := tt.p
			p.NegateDepartment, p.HasLinkedin = filter.NegateDepartment, filter.HasLinkedin
			req, err := Validate(uncapped(p))
			if err != nil {
				t.Fatal(err)
			}
			resp, err := f.svc.Search(ctx, testOrg, req)
			if err != nil {
				t.Fatal(err)
			}
			w := want
			if tt.drop != 0 {
				w = minusAll(want, tt.drop)
			}
			// The input persona passes the filter only when it has a linkedin URL.
			if !equal(ids(resp), w) {
				t.Fatalf("%d contacts, brute force %d; missing %v extra %v", len(ids(resp)), len(w), minus(w, ids(resp)), minus(ids(resp), w))
			}
			var prev = 101
			for _, e := range resp.Results {
				for _, c := range e.Contacts {
					if c.Similarity == nil || *c.Similarity < 0 || *c.Similarity > 100 {
						t.Fatalf("similarity %v", c.Similarity)
					}
				}
				if s := *e.Contacts[0].Similarity; s > prev {
					t.Fatalf("companies not in rank order: %d after %d", s, prev)
				} else {
					prev = s
				}
			}
		})
	}
	// Filter mode carries no similarity.
	req, _ := Validate(Params{})
	resp, _ := f.svc.Search(ctx, testOrg, req)
	if resp.Results[0].Contacts[0].Similarity != nil {
		t.Fatal("filter mode has a similarity")
	}
}

func minusAll(a []int64, drop int64) []int64 {
	var out []int64
	for _, v := range a {
		if v != drop {
			out = append(out, v)
		}
	}
	return out
}

func TestICPPromptSearch(t *testing.T) {
	f := demo(t)
	ctx := context.Background()
	req, err := Validate(uncapped(Params{IcpPrompt: "Sales managers in Germany at companies with 11-200 employees"}))
	if err != nil {
		t.Fatal(err)
	}
	pr := req.Prompt
	if !equal1(pr.Seniority, "manager") || !equal1(pr.Department, "Sales - Marketing") || !equal1(pr.Country, "DE") {
		t.Fatalf("prompt = %+v", pr)
	}
	resp, err := f.svc.Search(ctx, testOrg, req)
	if err != nil {
		t.Fatal(err)
	}
	var want []int64
	for _, r := range f.truth {
		if r.c.Seniority == "manager" && r.c.Department == "Sales - Marketing" && r.p.Address.Country == "DE" &&
			r.p.Employees != nil && (*r.p.Employees == "11-50" || *r.p.Employees == "51-200") {
			want = append(want, r.c.PersonaID)
		}
	}
	if !equal(ids(resp), want) {
		t.Fatalf("icp_prompt: %d contacts, brute force %d", len(ids(resp)), len(want))
	}
}

func equal1(s []string, v string) bool { return len(s) == 1 && s[0] == v }

func TestRecallAgainstExact(t *testing.T) {
	_, sn := demoSnapshot(t)
	ctx := context.Background()
	exact := vector.NewExact(sn.graph().Dims())
	for i, e := range sn.entries {
		exact.Upsert(ctx, e.C.PersonaID, sn.vecs[i])
	}
	r := rand.New(rand.NewPCG(1, 2))
	var sum float64
	const queries = 100
	for q := 0; q < queries; q++ {
		// Half the queries are contacts' own vectors, half lie between two contacts.
		v := append([]float32(nil), sn.vecs[r.IntN(len(sn.vecs))]...)
		if q%2 == 1 {
			for d, x := range sn.vecs[r.IntN(len(sn.vecs))] {
				v[d] += x
			}
			vector.Normalize(v)
		}
		got, err := sn.graph().Search(ctx, v, 10, vector.Filter{})
		if err != nil {
			t.Fatal(err)
		}
		want, _ := exact.Search(ctx, v, 10, vector.Filter{})
		// ann-benchmarks' tie rule (as shared/hnswindex's benchmark): half-precision storage
		// rounds scores by about 1e-4, which reorders exact ties.
		sum += vector.RecallByScore(got, want, 1e-3)
	}
	if recall := sum / queries; recall < 0.95 {
		t.Fatalf("recall@10 = %.3f, want >= 0.95", recall)
	} else {
		t.Logf("recall@10 = %.3f over %d contacts", recall, len(sn.entries))
	}
}

func TestEntriesFields(t *testing.T) {
	f := demo(t)
	req, _ := Validate(Params{MaxCompanies: ptr(60), ResultsByCompany: ptr(100)})
	resp, err := f.svc.Search(context.Background(), testOrg, req)
	if err != nil {
		t.Fatal(err)
	}
	patterns := 0
	for _, e := range resp.Results {
		if e.Name == "" || e.Address.Country == "" {
			t.Fatalf("entry %s lacks name or country: %+v", e.Domain, e)
		}
		if e.EmailPattern != nil {
			patterns++
			if !strings.HasSuffix(*e.EmailPattern, "@"+e.Domain) || *e.EmailPatternConfidence <= 1 || *e.EmailPatternConfidence > 100 {
				t.Fatalf("pattern %s %v", *e.EmailPattern, *e.EmailPatternConfidence)
			}
		}
		if e.Address.State != "" && len(e.Address.State) <= 3 {
			t.Fatalf("address.state %q is a code, want the full name", e.Address.State)
		}
		for _, c := range e.Contacts {
			if c.CompanyName != e.Name || c.Domain != e.Domain {
				t.Fatalf("contact %d company fields %q %q", c.PersonaID, c.CompanyName, c.Domain)
			}
		}
	}
	if patterns < len(resp.Results)/3 {
		t.Fatalf("only %d of %d companies have an email pattern", patterns, len(resp.Results))
	}
}

func TestLookup(t *testing.T) {
	f := demo(t)
	ctx := context.Background()
	var withAll truthRow
	for _, r := range f.truth {
		if r.raw.Email != "" && r.raw.LinkedinURL != "" {
			withAll = r
			break
		}
	}
	for _, tt := range []struct {
		name            string
		id              int64
		linkedin, email string
	}{
		{"persona_id", withAll.c.PersonaID, "", ""},
		{"email any case", 0, "", strings.ToUpper(withAll.raw.Email)},
		{"linkedin url", 0, withAll.raw.LinkedinURL, ""},
		{"linkedin username", 0, contact.LinkedinUsername(withAll.raw.LinkedinURL), ""},
	} {
		t.Run(tt.name, func(t *testing.T) {
			v, err := f.svc.Lookup(ctx, tt.id, tt.linkedin, tt.email)
			if err != nil || v.PersonaID != withAll.c.PersonaID || v.CompanyName == "" {
				t.Fatalf("Lookup = %+v, %v", v, err)
			}
		})
	}
	if _, err := f.svc.Lookup(ctx, 0, "", "nobody@nowhere.test"); !errors.Is(err, apperr.ErrNotFound) {
		t.Fatalf("no match: %v", err)
	}
}

// TestSimilarityPagesAgainstExact checks the pages of similarity searches under each kind
// of result control against Select over an exact ranking of every contact: the service
// first asks the index for a short list and widens it when per-company caps leave the
// page short, and either way the page must be the exact one.
func TestSimilarityPagesAgainstExact(t *testing.T) {
	f, sn := demoSnapshot(t)
	ctx := context.Background()
	const text = "software engineering lead, kubernetes and go"
	tests := []struct {
		name string
		p    Params
		want int // contacts on the page
	}{
		{"defaults", Params{}, 100},
		{"one per company", Params{MaxRecords: ptr(30), ResultsByCompany: ptr(1)}, 30},
		{"two per company", Params{MaxRecords: ptr(50), ResultsByCompany: ptr(2)}, 50},
		{"offset without caps", Params{MaxRecords: ptr(40), ResultsByCompany: ptr(0), Offset: 25}, 40},
		{"max_companies", Params{MaxCompanies: ptr(8), ResultsByCompany: ptr(3)}, 24},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := tt.p
			p.IcpText = text
			req, err := Validate(p)
			if err != nil {
				t.Fatal(err)
			}
			resp, err := f.svc.Search(ctx, testOrg, req)
			if err != nil {
				t.Fatal(err)
			}
			q, _, err := f.svc.queryVector(ctx, sn, req)
			if err != nil {
				t.Fatal(err)
			}
			hits := make([]vector.Hit, len(sn.entries))
			for i := range sn.entries {
				hits[i] = vector.Hit{ID: sn.entries[i].C.PersonaID, Score: vector.Dot(q, sn.vecs[i])}
			}
			vector.SortHits(hits)
			ranked := make([]Ranked, len(hits))
			for k, h := range hits {
				i := sn.byID[h.ID]
				ranked[k] = Ranked{Index: i, Domain: sn.entries[i].C.Domain}
			}
			var want, got []int64
			for _, g := range Select(ranked, req.Limits) {
				for _, i := range g.Members {
					want = append(want, sn.entries[i].C.PersonaID)
				}
			}
			for _, e := range resp.Results {
				for _, c := range e.Contacts {
					got = append(got, c.PersonaID)
				}
			}
			if len(want) != tt.want {
				t.Fatalf("the exact page holds %d contacts, the test expects %d", len(want), tt.want)
			}
			if !slices.Equal(got, want) {
				t.Fatalf("page of %d contacts differs from the exact page of %d:\n got  %v\n want %v", len(got), len(want), got, want)
			}
		})
	}
}

// TestRecordShapeEveryMode: every contact record carries similarity (0-100 in
// similarity mode, 0 outside it) and a company entry's unknown employees bucket is
// null, as the company profile gives it, never "".
func TestRecordShapeEveryMode(t *testing.T) {
	f := demo(t)
	for _, tt := range []struct {
		name string
		p    Params
		sim  bool
	}{
		{"filter", Params{MaxCompanies: ptr(200), ResultsByCompany: ptr(2)}, false},
		{"similarity", Params{IcpText: "software engineering lead, kubernetes and go", MaxCompanies: ptr(30)}, true},
	} {
		t.Run(tt.name, func(t *testing.T) {
			req, err := Validate(tt.p)
			if err != nil {
				t.Fatal(err)
			}
			resp, err := f.svc.Search(context.Background(), testOrg, req)
			if err != nil {
				t.Fatal(err)
			}
			raw, _ := json.Marshal(resp)
			var got struct {
				Results map[string]map[string]json.RawMessage `json:"results"`
			}
			if err := json.Unmarshal(raw, &got); err != nil || len(got.Results) == 0 {
				t.Fatalf("%v: %s", err, raw[:min(len(raw), 300)])
			}
			positive, unknown := 0, 0
			for dom, e := range got.Results {
				emp, ok := e["employees"]
				if !ok || string(emp) == `""` {
					t.Errorf("%s: employees %s (present %v), want a bucket or null", dom, emp, ok)
				}
				if string(emp) == "null" {
					unknown++
				}
				var contacts []map[string]any
				if err := json.Unmarshal(e["contacts"], &contacts); err != nil {
					t.Fatal(err)
				}
				for _, c := range contacts {
					s, ok := c["similarity"].(float64)
					if !ok || s < 0 || s > 100 || s != float64(int(s)) || (!tt.sim && s != 0) {
						t.Fatalf("%s persona %v: similarity %v (present %v)", dom, c["persona_id"], c["similarity"], ok)
					}
					if s > 0 {
						positive++
					}
				}
			}
			if tt.sim && positive == 0 {
				t.Error("no contact has a similarity above 0 in similarity mode")
			}
			t.Logf("%d companies, %d with employees unknown (null)", len(got.Results), unknown)
		})
	}
	for bucket, want := range map[string]string{"": `null`, "11-50": `"11-50"`} {
		b, _ := json.Marshal(entryOf(&companyInfo{Domain: "x.com", Employees: bucket}))
		if !strings.Contains(string(b), `"employees":`+want) {
			t.Errorf("entry with employees %q: %s", bucket, b)
		}
	}
}
