package contactgen

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"sort"
	"strings"
	"sync"
	"testing"

	"github.com/firmoapi/firmo/shared/apperr"
	"github.com/firmoapi/firmo/shared/company"
	"github.com/firmoapi/firmo/shared/fetch"
	"github.com/firmoapi/firmo/shared/websearch"
)

// site is a company's web site on a local HTTP server: it serves pages by path and
// records every path asked for.
type site struct {
	srv   *httptest.Server
	host  string // the company's host in URLs ("acme.test")
	mu    sync.Mutex
	asked []string
}

func newSite(t *testing.T, host string, pages map[string]string) *site {
	s := &site{host: host}
	s.srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		s.mu.Lock()
		s.asked = append(s.asked, r.URL.Path)
		s.mu.Unlock()
		body, ok := pages[r.URL.Path]
		if !ok {
			http.NotFound(w, r)
			return
		}
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		io.WriteString(w, body)
	}))
	t.Cleanup(s.srv.Close)
	return s
}

// fetched are the paths the site was asked for, sorted.
func (s *site) fetched() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := append([]string(nil), s.asked...)
	sort.Strings(out)
	return out
}

// Get implements Fetcher: a URL on the company's host is fetched over HTTP from the
// local server (the page keeps its public URL); any other host is unreachable.
func (s *site) Get(ctx context.Context, raw string) (*fetch.Response, error) {
	prefix := "https://" + s.host
	if !strings.HasPrefix(raw, prefix+"/") {
		return nil, fmt.Errorf("%s is not on the test site", raw)
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, s.srv.URL+strings.TrimPrefix(raw, prefix), nil)
	if err != nil {
		return nil, err
	}
	resp, err := s.srv.Client().Do(req)
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	return &fetch.Response{FinalURL: raw, Status: resp.StatusCode, Header: resp.Header, Body: body}, err
}

// acmeSite is the test company: a homepage naming its managing director (JSON-LD) and
// linking to its team page and about page, the team page, and a board page no page
// links to that only web search finds.
var acmeSite = map[string]string{
	"/": `<html><body><nav><a href="/team">Team</a><a href="/about">Über uns</a></nav>
<script type="application/ld+json">{"@context":"https://schema.org","@type":"Person","name":"Eva Schmidt","jobTitle":"Geschäftsführerin"}</script>
<p>Kontakt: <a href="mailto:info@acme.test">info@acme.test</a></p><footer>© 2025 Acme Test GmbH</footer></body></html>`,
	"/team": `<ul class="team"><li class="member"><h3>Anna Müller</h3><p class="role">Vertriebsleiterin</p><a href="mailto:a.mueller@acme.test">a.mueller@acme.test</a></li>
<li class="member"><h3>Thomas Koch</h3><p class="role">Softwareentwickler</p></li></ul><footer>© 2025 Acme Test GmbH</footer>`,
	"/about": `<h1>Über uns</h1><p>Wir bauen Maschinen seit 1990.</p><footer>© 2025 Acme Test GmbH</footer>`,
	"/presse/vorstand": `<div itemscope itemtype="https://schema.org/Person"><span itemprop="name">Jonas Weber</span>
<span itemprop="jobTitle">Chief Revenue Officer</span></div><footer>© 2025 Acme Test GmbH</footer>`,
}

const acmeName = "Acme Test GmbH"

// acmeSearch is a search provider over the test site: every query finds the board
// page; a query naming the company (as profile mode's do) also finds the team page.
type acmeSearch struct {
	mu      sync.Mutex
	queries []string
}

func (a *acmeSearch) Resolve(context.Context, string, string) (websearch.Provider, websearch.Searcher, error) {
	return websearch.Provider{ID: "p1", Kind: websearch.KindNative, Name: "test"}, a, nil
}

func (a *acmeSearch) Search(_ context.Context, q string, _ int) ([]websearch.Result, error) {
	a.mu.Lock()
	a.queries = append(a.queries, q)
	a.mu.Unlock()
	hits := []websearch.Result{{URL: "https://acme.test/presse/vorstand", Title: "Vorstand"}, {URL: "https://elsewhere.test/acme-people"}}
	if strings.Contains(q, `"`+acmeName+`"`) {
		hits = append(hits, websearch.Result{URL: "https://acme.test/team", Title: "Team"})
	}
	return hits, nil
}

// acmeCompanies holds the company's profile and no pages (every page is fetched from
// the site), and counts profile reads.
type acmeCompanies struct {
	mu       sync.Mutex
	profiles int
}

func (a *acmeCompanies) Pages(_ context.Context, d string) ([]company.Page, error) {
	return nil, fmt.Errorf("pages of %s: %w", d, apperr.ErrNotFound)
}

func (a *acmeCompanies) Profile(_ context.Context, d string) (company.Profile, error) {
	a.mu.Lock()
	a.profiles++
	a.mu.Unlock()
	if d != "acme.test" {
		return company.Profile{}, fmt.Errorf("profile of %s: %w", d, apperr.ErrNotFound)
	}
	emp := "51-200"
	return company.Profile{Domain: d, Name: acmeName, Employees: &emp, Address: company.Address{City: "Stuttgart", Country: "DE"},
		Description: "Acme Test GmbH builds packaging machines; founded by Greta Gründerin.", IndustryGroups: map[string]float64{"Machinery": 0.9}}, nil
}

func names(t *testing.T, out map[string]any) []string {
	t.Helper()
	var got []string
	for _, r := range out["contacts"].([]any) {
		got = append(got, r.(map[string]any)["name"].(string))
	}
	sort.Strings(got)
	return got
}

// TestNativeContextModes: website crawls the site (homepage, the pages it links to,
// the search hits on the company's host); profile reads the stored profile, names the
// company in its queries and reads only the search hits; domain reads no profile and
// only the search hits. Every row comes from a page that was fetched.
func TestNativeContextModes(t *testing.T) {
	tests := []struct {
		mode          string
		fetched, rows []string
		profileReads  int
		namedQuery    bool
	}{
		{ModeWebsite, []string{"/", "/about", "/presse/vorstand", "/team"}, []string{"Anna Müller", "Eva Schmidt", "Jonas Weber", "Thomas Koch"}, 1, false},
		{ModeProfile, []string{"/presse/vorstand", "/team"}, []string{"Anna Müller", "Jonas Weber", "Thomas Koch"}, 1, true},
		{ModeDomain, []string{"/presse/vorstand"}, []string{"Jonas Weber"}, 0, false},
	}
	for _, tc := range tests {
		t.Run(tc.mode, func(t *testing.T) {
			web, search, comp := newSite(t, "acme.test", acmeSite), &acmeSearch{}, &acmeCompanies{}
			s, _ := newRig(t, Deps{Searchers: search, Companies: comp, Fetch: web})
			out, res := run(t, s, "acme.test", params{ICP: "Sales leaders", Mode: tc.mode, MaxContacts: 10, SearchQueries: 3})
			if got := web.fetched(); fmt.Sprint(got) != fmt.Sprint(tc.fetched) {
				t.Errorf("fetched %v, want %v", got, tc.fetched)
			}
			if got := names(t, out); fmt.Sprint(got) != fmt.Sprint(tc.rows) {
				t.Errorf("rows %v, want %v", got, tc.rows)
			}
			fetched := map[string]bool{}
			for _, p := range web.fetched() {
				fetched["https://acme.test"+p] = true
			}
			for _, r := range out["contacts"].([]any) {
				if src := r.(map[string]any)["source_url"].(string); !fetched[src] {
					t.Errorf("row %v comes from %s, which was not fetched", r, src)
				}
			}
			if comp.profiles != tc.profileReads {
				t.Errorf("profile read %d times, want %d", comp.profiles, tc.profileReads)
			}
			if len(search.queries) != 3 || len(res.Search) != 1 || res.Search[0].QueriesExecuted != 3 {
				t.Fatalf("queries %q, usage %+v: web search runs in every mode", search.queries, res.Search)
			}
			for _, q := range search.queries {
				if strings.Contains(q, acmeName) != tc.namedQuery || !strings.Contains(q, "acme.test") {
					t.Errorf("query %q: names the domain, and the company only in profile mode", q)
				}
			}
		})
	}
	// profile mode without a stored profile: the domain's queries, and a warning.
	web, search := newSite(t, "acme.test", acmeSite), &acmeSearch{}
	s, _ := newRig(t, Deps{Searchers: search, Companies: &acmeCompanies{}, Fetch: web})
	_, res := run(t, s, "other.test", params{ICP: "x", Mode: ModeProfile, MaxContacts: 10, SearchQueries: 1})
	if !strings.Contains(fmt.Sprint(res.Warnings), warnNoProfile) || strings.Contains(search.queries[0], `"`) {
		t.Errorf("warnings %q, queries %q", res.Warnings, search.queries)
	}
}

// TestPeopleLinks: the homepage's links to people pages are followed, the team pages
// first; links whose text is a person's name (a menu of one page per person) count
// when there are two or more, after the team pages, and a lone name link does not.
func TestPeopleLinks(t *testing.T) {
	home := `<nav><a href="/kontakt/">Kontakt</a><div class="menu">Team<a href="/anna-roth/">| Anna Roth</a><a href="/jonas-weber/">| Jonas Weber</a></div>
<a href="/administration/">Administration</a><a href="/unsere-leistungen/">Leistungen</a><a href="/team/">Team</a></nav>`
	links := peopleLinks(home, "https://acme.example/")
	sort.SliceStable(links, func(a, b int) bool { return linkRank(links[a]) < linkRank(links[b]) })
	want := []string{"https://acme.example/team/", "https://acme.example/anna-roth/", "https://acme.example/jonas-weber/", "https://acme.example/kontakt/", "https://acme.example/administration/"}
	if strings.Join(links, " ") != strings.Join(want, " ") {
		t.Errorf("links %q, want %q", links, want)
	}
	// Pages of coaches and boards in more languages are people pages; a personal loan is not.
	more := peopleLinks(`<a href="/klub/trenerzy/">Trenerzy</a><a href="/om/styrelsen/">Styrelsen</a><a href="/personal-loans/">Loans</a><a href="/faculty/">Faculty</a>`, "https://acme.example/")
	if want := []string{"https://acme.example/klub/trenerzy/", "https://acme.example/om/styrelsen/", "https://acme.example/faculty/"}; strings.Join(more, " ") != strings.Join(want, " ") {
		t.Errorf("links %q, want %q", more, want)
	}
	// A team page split by department: its parts get the budget beside the 8 fetches.
	dept := []string{"https://acme.example/team/", "https://acme.example/team/rezeption/", "https://acme.example/about/history/"}
	if !underTeamPage(dept[1], dept) || underTeamPage(dept[0], dept) || underTeamPage(dept[2], dept) {
		t.Errorf("underTeamPage: want only %s under the team page", dept[1])
	}
	lone := peopleLinks(`<a href="/blog/">Blog</a><a href="/anna-roth/">Anna Roth</a>`, "https://acme.example/")
	if len(lone) != 0 {
		t.Errorf("a lone name link was followed: %q", lone)
	}
}
