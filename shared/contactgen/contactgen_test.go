package contactgen

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/firmoapi/firmo/shared/account"
	"github.com/firmoapi/firmo/shared/apperr"
	"github.com/firmoapi/firmo/shared/billing"
	"github.com/firmoapi/firmo/shared/company"
	"github.com/firmoapi/firmo/shared/fetch"
	"github.com/firmoapi/firmo/shared/integration"
	"github.com/firmoapi/firmo/shared/llm"
	"github.com/firmoapi/firmo/shared/task"
	"github.com/firmoapi/firmo/shared/websearch"
)

type fakeTasks struct {
	reg *task.Registry
	got []task.Submission
}

func (f *fakeTasks) Submit(_ context.Context, s task.Submission) (task.Submitted, error) {
	f.got = append(f.got, s)
	return task.Submitted{TaskID: "t1", ColumnName: s.ColumnName, Status: task.StatusInProgress, TotalDomains: len(s.Records)}, nil
}
func (f *fakeTasks) Kinds() *task.Registry { return f.reg }

type fakeIntegrations struct {
	llm    bool       // the organisation has a default LLM integration
	client llm.Client // nil: a typed-judgment integration
}

func (f fakeIntegrations) Resolve(_ context.Context, _, id string) (integration.Integration, llm.Client, error) {
	if id == "" && !f.llm {
		return integration.Integration{}, nil, apperr.BadRequest(integration.CodeNoIntegration, "none")
	}
	return integration.Integration{ID: "11111111-1111-1111-1111-111111111111", Provider: "custom", Model: "m"}, f.client, nil
}

// fakeLLM answers every completion with text, reporting usage.
type fakeLLM struct {
	text    string
	prompts []string
}

func (f *fakeLLM) Complete(_ context.Context, r llm.Request) (llm.Response, error) {
	f.prompts = append(f.prompts, r.Prompt)
	return llm.Response{Text: f.text, PromptTokens: 100, CompletionTokens: 20, UsageReported: true, CostUSD: 0.001}, nil
}

type fakeSearch struct {
	none    bool
	hits    []websearch.Result
	mu      sync.Mutex
	queries []string
}

func (f *fakeSearch) Resolve(context.Context, string, string) (websearch.Provider, websearch.Searcher, error) {
	if f.none {
		return websearch.Provider{}, nil, &apperr.Error{Kind: apperr.ErrBadRequest, Code: websearch.CodeNoProvider, Message: "none"}
	}
	return websearch.Provider{ID: "p1", Kind: websearch.KindNative, Name: "pages"}, f, nil
}

func (f *fakeSearch) Search(_ context.Context, q string, _ int) ([]websearch.Result, error) {
	f.mu.Lock()
	f.queries = append(f.queries, q)
	f.mu.Unlock()
	return f.hits, nil
}

type fakeCompanies map[string][]company.Page

func (f fakeCompanies) Pages(_ context.Context, d string) ([]company.Page, error) {
	if p, ok := f[d]; ok {
		return p, nil
	}
	return nil, fmt.Errorf("pages of %s: %w", d, apperr.ErrNotFound)
}

// Profile answers a profile (in Germany) for every domain with pages.
func (f fakeCompanies) Profile(_ context.Context, d string) (company.Profile, error) {
	if _, ok := f[d]; !ok {
		return company.Profile{}, fmt.Errorf("profile of %s: %w", d, apperr.ErrNotFound)
	}
	return company.Profile{Domain: d, Name: "Name of " + d, Address: company.Address{Country: "DE"}}, nil
}

type fakeFetch map[string]string

func (f fakeFetch) Get(_ context.Context, u string) (*fetch.Response, error) {
	if b, ok := f[u]; ok {
		return &fetch.Response{FinalURL: u, Status: 200, Header: http.Header{}, Body: []byte(b)}, nil
	}
	return &fetch.Response{FinalURL: u, Status: 404}, nil
}

type fakeFinder struct{ found map[string]string } // "First Last" -> address

func (f fakeFinder) FindEmail(_ context.Context, first, last, _ string) (string, string) {
	if e, ok := f.found[first+" "+last]; ok {
		return "found", e
	}
	return "not_found", ""
}

type fakeBilling struct{ charged [][]string }

func (f *fakeBilling) Accrue(_ context.Context, _ account.Org, k billing.Kind, _ string, recs ...string) error {
	if k != billing.KindEmail {
		return errors.New("only found emails bill")
	}
	f.charged = append(f.charged, recs)
	return nil
}

type fakeOrgs struct{}

func (fakeOrgs) GetOrg(_ context.Context, id string) (account.Org, error) {
	return account.Org{ID: id}, nil
}

func storedPage(u, html string, year int) company.Page {
	return company.Page{URL: u, StatusCode: 200, FetchedAt: time.Date(year, 1, 1, 0, 0, 0, 0, time.UTC), HTML: html}
}

const home = `<html><body><nav><a href="/">Home</a><a href="/ueber-uns/team">Team</a></nav><p>Kontakt: <a href="mailto:info@acme.de">info@acme.de</a></p><footer>© 2025 Acme GmbH</footer></body></html>`

func newRig(t *testing.T, d Deps) (*Service, *fakeTasks) {
	t.Helper()
	ft := &fakeTasks{reg: task.NewRegistry()}
	d.Tasks = ft
	if d.Integrations == nil {
		d.Integrations = fakeIntegrations{}
	}
	if d.Searchers == nil {
		d.Searchers = &fakeSearch{}
	}
	if d.Companies == nil {
		d.Companies = fakeCompanies{}
	}
	s, err := New(d)
	if err != nil {
		t.Fatal(err)
	}
	return s, ft
}

func str(s string) *string { return &s }

func TestSubmit(t *testing.T) {
	s, ft := newRig(t, Deps{})
	sub, err := s.Submit(context.Background(), "org", Request{ICPText: str("Sales leaders"), Domains: []string{"https://www.Acme.de/", "acme.de", "b.com"}})
	if err != nil {
		t.Fatal(err)
	}
	if sub.TotalDomains != 3 || len(ft.got) != 1 {
		t.Fatalf("total_domains %d, submissions %d", sub.TotalDomains, len(ft.got))
	}
	g := ft.got[0]
	if g.Kind != Kind || g.TitleValidation != ValidationNone || g.Records[0].Key != "acme.de" || g.Records[1].Key != "acme.de" {
		t.Errorf("submission %+v", g)
	}
	if rf := g.ResponseFormat; rf == nil || rf.ResponseType != ResponseType || rf.Description != "Sales leaders" || rf.FieldLabels == nil || rf.TypedColumns == nil {
		t.Errorf("response_format %+v, want the contacts format with the ICP text (status responses show it, never null)", rf)
	}
	var p params
	json.Unmarshal(g.Params, &p)
	if p.Engine != EngineNative || p.MaxContacts != DefaultMaxContacts || p.SearchQueries != 1 || p.SearchProviderID != "p1" {
		t.Errorf("params %+v", p)
	}

	errs := []struct {
		r     Request
		field string
		kind  error
	}{
		{Request{Domains: []string{"a.com"}}, "icp_text", apperr.ErrInvalid},
		{Request{ICPText: str("x")}, "domains", apperr.ErrInvalid},
		{Request{ICPText: str("x"), Domains: []string{"a.com"}, MaxContactsPerDomain: new(int)}, "max_contacts_per_domain", apperr.ErrInvalid},
		{Request{ICPText: str("x"), Domains: []string{"a.com"}, IntegrationID: "x"}, "integration_id", apperr.ErrInvalid},
		{Request{ICPText: str("x"), Domains: []string{"a.com"}, SearchContextSize: "max"}, "search_context_size", apperr.ErrInvalid},
	}
	for _, tc := range errs {
		_, err := s.Submit(context.Background(), "org", tc.r)
		var ae *apperr.Error
		if !errors.As(err, &ae) || ae.Field != tc.field || !errors.Is(err, tc.kind) {
			t.Errorf("%+v: %v, want %v on %s", tc.r, err, tc.kind, tc.field)
		}
	}
	// No search provider: 400.
	s2, _ := newRig(t, Deps{Searchers: &fakeSearch{none: true}})
	if _, err := s2.Submit(context.Background(), "org", Request{ICPText: str("x"), Domains: []string{"a.com"}}); !errors.Is(err, apperr.ErrBadRequest) {
		t.Errorf("no provider: %v, want a 400", err)
	}
	// A default LLM integration selects the LLM engine (title_validation llm); native
	// still selects native; a typed-judgment integration cannot generate (400).
	s3, ft3 := newRig(t, Deps{Integrations: fakeIntegrations{llm: true, client: &fakeLLM{}}})
	if _, err := s3.Submit(context.Background(), "org", Request{ICPText: str("x"), Domains: []string{"a.com"}}); err != nil || ft3.got[0].TitleValidation != ValidationLLM {
		t.Errorf("default LLM: %v %+v, want the LLM engine", err, ft3.got)
	}
	if _, err := s3.Submit(context.Background(), "org", Request{ICPText: str("x"), Domains: []string{"a.com"}, IntegrationID: "native"}); err != nil || ft3.got[1].TitleValidation != ValidationNone {
		t.Errorf("native with an LLM default: %v", err)
	}
	s4, _ := newRig(t, Deps{Integrations: fakeIntegrations{llm: true}})
	if _, err := s4.Submit(context.Background(), "org", Request{ICPText: str("x"), Domains: []string{"a.com"}}); !errors.Is(err, apperr.ErrBadRequest) {
		t.Errorf("typed default: %v, want a 400", err)
	}
}

func run(t *testing.T, s *Service, dom string, p params) (map[string]any, task.Result) {
	t.Helper()
	p.SearchProviderID = "p1"
	raw, _ := json.Marshal(p)
	res, err := processor{s: s}.Process(context.Background(), task.Record{Ref: task.Ref{OrgID: "org", TaskID: "t"}, Key: dom, Params: raw})
	if err != nil {
		t.Fatal(err)
	}
	b, _ := json.Marshal(res.Row)
	var out map[string]any
	json.Unmarshal(b, &out)
	return out, res
}

func TestNativeEngine(t *testing.T) {
	team := `<ul class="team"><li class="member"><h3>Anna Müller</h3><p class="role">Softwareentwicklerin</p></li>
<li class="member"><h3>Thomas Koch</h3><p class="role">Geschäftsführer</p><a href="mailto:t.koch@acme.de">t.koch@acme.de</a></li>
<li class="member"><h3>Presse</h3><p>presse@acme.de</p></li></ul><footer>© 2025 Acme</footer>`
	archive := `<ul class="team"><li class="member"><h3>Jonas Weber</h3><p class="role">Vertriebsleiter</p></li>
<li class="member"><h3>Anna Müller</h3><p class="role">Softwareentwicklerin</p></li></ul><footer>© 2019 Acme</footer>`
	leadership := `<div itemscope itemtype="https://schema.org/Person"><span itemprop="name">Thomas Koch</span><span itemprop="jobTitle">Geschäftsführer</span><span itemprop="telephone">+49 151 23456789</span></div>`
	search := &fakeSearch{hits: []websearch.Result{{URL: "https://www.acme.de/leitung"}, {URL: "https://other.com/team"}}}
	fin := fakeFinder{found: map[string]string{"Anna Müller": "anna.mueller@acme.de"}}
	bill := &fakeBilling{}
	s, _ := newRig(t, Deps{
		Searchers: search,
		Companies: fakeCompanies{"acme.de": {storedPage("https://www.acme.de/", home, 2025), storedPage("https://www.acme.de/ueber-uns/team", team, 2025), storedPage("https://www.acme.de/archiv/team", archive, 2019)}},
		Fetch:     fakeFetch{"https://www.acme.de/leitung": leadership},
		Finder:    func() EmailFinder { return fin }, Billing: bill, Orgs: fakeOrgs{},
	})
	out, res := run(t, s, "acme.de", params{ICP: "Heads of engineering in Germany", MaxContacts: 10, SearchQueries: 3, FindEmails: true})
	rows := out["contacts"].([]any)
	if len(rows) != 2 {
		t.Fatalf("rows %v, want Thomas Koch and Anna Müller (Jonas Weber is only on the 2019 page; Presse is a mailbox)", rows)
	}
	first, second := rows[0].(map[string]any), rows[1].(map[string]any)
	if first["name"] != "Thomas Koch" || first["seniority"] != "executive" || first["email"] != "t.koch@acme.de" || first["email_status"] != nil {
		t.Errorf("first row %v: the most senior first, the page's email, no email_status", first)
	}
	if ph, _ := first["phone"].([]any); len(ph) != 1 {
		t.Errorf("phones %v: the leadership page's number (fetched live) merged in", first["phone"])
	}
	if second["name"] != "Anna Müller" || second["email"] != "anna.mueller@acme.de" || second["email_status"] != "found" || second["source_url"] != "https://www.acme.de/ueber-uns/team" {
		t.Errorf("second row %v", second)
	}
	for _, r := range rows {
		if r.(map[string]any)["match_status"] != "match" {
			t.Errorf("match_status %v", r)
		}
	}
	if len(bill.charged) != 1 || len(bill.charged[0]) != 1 || bill.charged[0][0] != "anna.mueller@acme.de" {
		t.Errorf("charged %v, want the one found address", bill.charged)
	}
	if _, ok := out["email_pattern"]; ok {
		t.Errorf("email_pattern present without a pattern source: %v", out)
	}
	if len(search.queries) != 3 || !strings.Contains(search.queries[0], "acme.de") || !strings.Contains(search.queries[0], "engineering") {
		t.Errorf("queries %q: three, naming the domain and shaped by icp_text", search.queries)
	}
	if len(res.Search) != 1 || res.Search[0].QueriesExecuted != 3 || res.Search[0].Provider != "native" {
		t.Errorf("search usage %+v", res.Search)
	}
	stale := false
	for _, w := range res.Warnings {
		stale = stale || w == warnStale
	}
	if !stale {
		t.Errorf("warnings %q: want the out-of-date page's", res.Warnings)
	}

	// max_contacts_per_domain keeps the most senior; no finder: email_status error.
	s2, _ := newRig(t, Deps{Searchers: search, Companies: fakeCompanies{"acme.de": {storedPage("https://www.acme.de/", home, 2025), storedPage("https://www.acme.de/ueber-uns/team", team, 2025)}}})
	out, res = run(t, s2, "acme.de", params{ICP: "x", MaxContacts: 1, SearchQueries: 1, FindEmails: true})
	rows = out["contacts"].([]any)
	if len(rows) != 1 || rows[0].(map[string]any)["name"] != "Thomas Koch" {
		t.Errorf("max 1: %v", rows)
	}
	// A domain Firmo holds nothing about and cannot fetch: no rows, a warning.
	out, res = run(t, s2, "unknown.com", params{ICP: "x", MaxContacts: 10, SearchQueries: 1})
	if rows := out["contacts"].([]any); len(rows) != 0 || len(res.Warnings) == 0 {
		t.Errorf("unknown domain: %v %q", rows, res.Warnings)
	}
}
