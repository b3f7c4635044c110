package contactgen

import (
	"context"
	"sort"
	"testing"
	"time"

	"github.com/firmoapi/firmo/shared/company"
	"github.com/firmoapi/firmo/shared/websearch"
	"github.com/firmoapi/firmo/shared/websearch/nativesearch"
	"github.com/firmoapi/firmo/shared/world"
)

// worldSource is the demo world's pages as the company store would hold them (the
// native search index's Source).
type worldSource struct {
	doms  []string
	names map[string]string
	pages fakeCompanies
}

func (s worldSource) List(_ context.Context, cursor string, limit int) ([]company.Record, string, error) {
	i := sort.SearchStrings(s.doms, cursor)
	if cursor != "" && i < len(s.doms) && s.doms[i] == cursor {
		i++
	}
	var out []company.Record
	for ; i < len(s.doms) && len(out) < limit; i++ {
		out = append(out, company.Record{Domain: s.doms[i], Raw: company.Raw{Name: s.names[s.doms[i]]}})
	}
	next := ""
	if i < len(s.doms) {
		next = out[len(out)-1].Domain
	}
	return out, next, nil
}

func (s worldSource) Pages(ctx context.Context, d string) ([]company.Page, error) {
	return s.pages.Pages(ctx, d)
}

// Profile answers the world company's name, the profile mode's query words.
func (s worldSource) Profile(ctx context.Context, d string) (company.Profile, error) {
	p, err := s.pages.Profile(ctx, d)
	p.Name = s.names[d]
	return p, err
}

type nativeProvider struct{ idx *nativesearch.Index }

func (n nativeProvider) Resolve(context.Context, string, string) (websearch.Provider, websearch.Searcher, error) {
	return websearch.Provider{ID: "p1", Kind: websearch.KindNative, Name: "Firmo pages"}, n.idx, nil
}

// TestNativeEngineOnTheWorld grades the native engine, with the native search index
// over the world's pages, against everyone the pages of 200 companies list today
// (world.TeamSite; people who left count as wrong), in each context_mode. Profile and
// domain read only the search hits' pages; the native index answers a query naming
// a domain with up to 10 of that domain's pages, which on the world is every page a
// company has, so the figures hold in every mode. The API-level run of the same
// grading (website) is TestContactGenerationAcceptance in shared/app/allapp.
func TestNativeEngineOnTheWorld(t *testing.T) {
	for _, mode := range contextModes {
		t.Run(mode, func(t *testing.T) { gradeOnTheWorld(t, mode) })
	}
}

func gradeOnTheWorld(t *testing.T, mode string) {
	w := world.New(world.Options{Seed: 17, Companies: 200, AsOf: time.Date(2025, 6, 1, 0, 0, 0, 0, time.UTC)})
	src := worldSource{names: map[string]string{}, pages: fakeCompanies{}}
	sites := make([]world.TeamSite, w.Len())
	for i := 0; i < w.Len(); i++ {
		c := w.Company(i)
		sites[i] = w.TeamSite(i, c)
		src.doms = append(src.doms, c.Domain)
		src.names[c.Domain] = c.Row.Name
		src.pages[c.Domain] = append(append([]company.Page(nil), c.Pages...), sites[i].Pages...)
	}
	sort.Strings(src.doms)
	s, _ := newRig(t, Deps{Searchers: nativeProvider{nativesearch.New(src, nativesearch.Options{})}, Companies: src})
	var rows, right, left, listed, titles, labels, roleAsPerson int
	for i := 0; i < w.Len(); i++ {
		ts := sites[i]
		out, res := run(t, s, ts.Domain, params{ICP: "Heads of sales and marketing", Mode: mode, MaxContacts: 10, SearchQueries: 1})
		if len(res.Search) != 1 || res.Search[0].QueriesSucceeded != 1 {
			t.Fatalf("%s: search %+v", ts.Domain, res.Search)
		}
		truth := map[string]world.Listed{}
		for _, l := range ts.Listed {
			truth[l.Name] = l
			if !l.Left {
				listed++
			}
		}
		roles := map[string]bool{}
		for _, a := range ts.RoleAddresses {
			roles[a] = true
		}
		got := map[string]bool{}
		for _, raw := range out["contacts"].([]any) {
			got[raw.(map[string]any)["name"].(string)] = true
		}
		for name, l := range truth {
			if !l.Left && !got[name] {
				t.Logf("%s: missed %s (%s) on %v", ts.Domain, name, l.Title, l.Pages)
			}
		}
		for _, raw := range out["contacts"].([]any) {
			r := raw.(map[string]any)
			rows++
			if e, _ := r["email"].(string); roles[e] {
				roleAsPerson++
			}
			l, ok := truth[r["name"].(string)]
			switch {
			case !ok:
				t.Logf("%s: %v is not listed", ts.Domain, r["name"])
				continue
			case l.Left:
				left++
				continue
			}
			right++
			if r["title"] == l.Title {
				titles++
			}
			if r["department"] == l.Department && r["seniority"] == l.Seniority {
				labels++
			}
		}
	}
	precision, recall := float64(right)/float64(max(rows, 1)), float64(right)/float64(max(listed, 1))
	t.Logf("%s, 200 domains: %d rows, %d of people listed today (%d listed today), %d who left; precision %.4f, recall %.4f, titles verbatim %d/%d, department and seniority %d/%d",
		mode, rows, right, listed, left, precision, recall, titles, right, labels, right)
	if precision < 0.97 || recall < 0.90 || titles != right || float64(labels) < 0.95*float64(right) || roleAsPerson > 0 {
		t.Errorf("precision %.4f (>= 0.97), recall %.4f (>= 0.90), titles %d/%d, labels %d/%d (>= 0.95), role addresses as people %d",
			precision, recall, titles, right, labels, right, roleAsPerson)
	}
}
