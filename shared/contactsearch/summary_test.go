package contactsearch

import (
	"context"
	"slices"
	"strings"
	"testing"

	"github.com/firmoapi/firmo/shared/embed/ppmiembed"
	"github.com/firmoapi/firmo/shared/title"
)

// withDeps is a service over the demo world's stores and snapshot with extra
// dependencies set by edit (no second snapshot is built).
func withDeps(t *testing.T, edit func(*Deps)) *Service {
	t.Helper()
	f := demo(t)
	d := Deps{Contacts: f.svc.contacts, Companies: f.svc.companies, Embedder: f.svc.embedder}
	edit(&d)
	s := New(d)
	sn, err := f.svc.current(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	s.snap = sn
	return s
}

type fakeThesaurus map[string][]string

func (f fakeThesaurus) Neighbours(word string, k int, minCos float32) []string {
	return f[word][:min(k, len(f[word]))]
}

func TestExpandTerms(t *testing.T) {
	th := fakeThesaurus{"customer": {"retention", "success", "churn", "ticketing"}, "support": {"customer", "m&a", "bi"}}
	tests := []struct {
		name string
		in   [][]string
		want [][]string
	}{
		{"none", nil, nil},
		{"one word: its neighbours, at most summaryNeighbours", [][]string{{"customer"}}, [][]string{{"customer"}, {"retention"}, {"success"}, {"churn"}}},
		{"several words: one replaced at a time", [][]string{{"customer", "support"}},
			[][]string{{"customer", "support"}, {"retention", "support"}, {"success", "support"}, {"churn", "support"}, {"customer", "customer"}}},
		{"short and non-word neighbours dropped", [][]string{{"support"}}, [][]string{{"support"}, {"customer"}}},
		{"no duplicates", [][]string{{"customer"}, {"retention"}}, [][]string{{"customer"}, {"retention"}, {"success"}, {"churn"}}},
		{"unknown word", [][]string{{"zyx"}}, [][]string{{"zyx"}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := expandTerms(th, tt.in)
			if !slices.EqualFunc(got, tt.want, slices.Equal) {
				t.Fatalf("got %v, want %v", got, tt.want)
			}
		})
	}
	if got := expandTerms(nil, [][]string{{"customer"}}); len(got) != 1 {
		t.Fatalf("no thesaurus: %v", got)
	}
}

// TestSummaryNeighbours: with the built-in embedder as thesaurus, summary "support" also
// selects summaries that say "customer" (its neighbour at cosine 0.80) but not
// "support"; negate_summary excludes exactly that set, and count agrees with search.
// The truth asks the embedder for the neighbours and matches the words itself.
func TestSummaryNeighbours(t *testing.T) {
	f := demo(t)
	ctx := context.Background()
	emb := ppmiembed.New()
	svc := withDeps(t, func(d *Deps) { d.Thesaurus = emb })
	const term = "support"
	words := []string{term}
	for _, n := range emb.Neighbours(term, summaryNeighbours, summaryMinCos) {
		if len(n) >= minNeighbourLen {
			words = append(words, n)
		}
	}
	if !slices.Contains(words, "customer") {
		t.Fatalf("the neighbours of %q are %v; the test expects customer among them", term, words)
	}
	var want, rest []int64
	viaNeighbour := 0
	for _, r := range f.truth {
		s := ""
		if r.c.Summary != nil {
			s = " " + title.Normalize(*r.c.Summary)
		}
		hit := false
		for _, w := range words {
			hit = hit || strings.Contains(s, " "+w)
		}
		if hit {
			want = append(want, r.c.PersonaID)
			if !strings.Contains(s, " "+term) {
				viaNeighbour++
			}
		} else {
			rest = append(rest, r.c.PersonaID)
		}
	}
	if viaNeighbour == 0 || len(rest) == 0 {
		t.Fatalf("%d summaries matched only through a neighbour, %d not at all: the case tests nothing", viaNeighbour, len(rest))
	}
	for _, c := range []struct {
		name string
		p    Params
		want []int64
	}{
		{"summary", Params{Summary: Strings{term}}, want},
		{"negate_summary", Params{NegateSummary: Strings{term}}, rest},
	} {
		t.Run(c.name, func(t *testing.T) {
			req, err := Validate(uncapped(c.p))
			if err != nil {
				t.Fatal(err)
			}
			resp, err := svc.Search(ctx, testOrg, req)
			if err != nil {
				t.Fatal(err)
			}
			if got := ids(resp); !equal(got, c.want) {
				t.Fatalf("%d contacts, brute force %d; missing %v, extra %v", len(got), len(c.want), minus(c.want, got), minus(got, c.want))
			}
			if n, err := svc.Count(ctx, c.p); err != nil || n != len(c.want) {
				t.Fatalf("Count = %d, %v; want %d", n, err, len(c.want))
			}
		})
	}
	// Without a thesaurus the same request matches the word only.
	req, _ := Validate(uncapped(Params{Summary: Strings{term}}))
	resp, err := f.svc.Search(ctx, testOrg, req)
	if err != nil {
		t.Fatal(err)
	}
	if got := len(ids(resp)); got != len(want)-viaNeighbour {
		t.Fatalf("without a thesaurus: %d contacts, want %d", got, len(want)-viaNeighbour)
	}
}
