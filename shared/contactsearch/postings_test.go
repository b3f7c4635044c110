package contactsearch

import (
	"context"
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/firmoapi/firmo/shared/vector"
)

// TestPostingsAgreeWithMatch: on random combinations of filters (values that occur in
// the demo world, values that do not, negations, text filters that only Match can
// decide), the candidates narrowed by the postings are exactly the entries that
// Filters.Match picks in a plain scan, and the vector filter admits exactly those less
// the skipped ids.
func TestPostingsAgreeWithMatch(t *testing.T) {
	fx, sn := demoSnapshot(t)
	some := func(rng *rand.Rand, field func(e *entry) string) Strings {
		var out Strings
		for range 1 + rng.IntN(3) {
			if v := field(&sn.entries[rng.IntN(len(sn.entries))]); v != "" {
				out = append(out, v)
			}
		}
		return out
	}
	rng := rand.New(rand.NewPCG(5, 5))
	for n := range 300 {
		var p Params
		for _, set := range []func(){
			func() { p.Seniority = some(rng, func(e *entry) string { return e.C.Seniority }) },
			func() { p.Department = some(rng, func(e *entry) string { return e.C.Department }) },
			func() { p.PersonCountry = some(rng, func(e *entry) string { return e.C.Country }) },
			func() { p.FilterCountry = some(rng, func(e *entry) string { return e.Co.Country }) },
			func() { p.FilterIndustry = some(rng, func(e *entry) string { return first(e.Co.Industries) }) },
			func() { p.Skills = some(rng, func(e *entry) string { return first(e.skills) }) },
			func() { p.Domain = some(rng, func(e *entry) string { return e.C.Domain }) },
			func() { p.EmployeeRange = []string{"1,50", "51,500", "501,"}[rng.IntN(3)] },
			func() { p.HasEmail = ptr(true) },
			func() { p.HasPhone = ptr(true) },
			func() { p.HasMobile = ptr(true) },
			func() { p.HasLinkedin = ptr(true) },
			func() { p.EmailValidated = ptr(true) },
			func() { p.NegateSeniority = Strings{"manager"} },
			func() { p.Title = Strings{"engineer"} },
			func() { p.MinConnections = ptr(200) },
		} {
			if rng.IntN(5) == 0 {
				set()
			}
		}
		t.Run(fmt.Sprint(n), func(t *testing.T) {
			req, err := Validate(p)
			if err != nil {
				t.Skipf("params %+v: %v", p, err) // a drawn combination the API refuses
			}
			f, err := fx.svc.filtersOf(sn, req)
			if err != nil {
				t.Fatal(err)
			}
			var want []int
			for i := range sn.entries {
				if f.Match(&sn.entries[i]) {
					want = append(want, i)
				}
			}
			if got := sn.candidates(&f, nil); !slices.Equal(got, want) {
				t.Fatalf("params %+v: postings give %d candidates, Match %d", p, len(got), len(want))
			}
			skip := map[int64]bool{sn.entries[0].C.PersonaID: true}
			if len(want) > 0 {
				skip[sn.entries[want[0]].C.PersonaID] = true
			}
			filter, n, _ := sn.vectorFilter(&f, nil, skip, 384)
			admitted := 0
			for i := range sn.entries {
				id := sn.entries[i].C.PersonaID
				in := slices.Contains(want, i) && !skip[id]
				if in {
					admitted++
				}
				// An inactive filter leaves the skipped ids to nearestExcept.
				if got := admits(filter, id) && (filter.Active() || !skip[id]); got != in {
					t.Fatalf("params %+v: vector filter admits %d: %v, want %v", p, id, got, in)
				}
			}
			if n != admitted {
				t.Errorf("vector filter counts %d, want %d", n, admitted)
			}
		})
	}
}

func first(s []string) string {
	if len(s) == 0 {
		return ""
	}
	return s[0]
}

func admits(f vector.Filter, id int64) bool {
	if f.IDs != nil && !slices.Contains(f.IDs, id) {
		return false
	}
	return f.Allow == nil || f.Allow(id)
}

// TestVectorFilterLargeSetIsBitmap: a candidate set too large for an exact scan goes to
// the index as a predicate, a small one as an id list (so the exact switch fires).
func TestVectorFilterLargeSetIsBitmap(t *testing.T) {
	_, sn := demoSnapshot(t)
	all := Filters{HasLinkedin: true} // three in four: broad enough for the predicate
	for _, c := range []struct {
		dims      int
		wantIDs   bool
		wantAllow bool
	}{
		{dims: 384, wantIDs: true},                     // ~670 x 384 is far under the exact threshold
		{dims: vector.ExactThreshold, wantAllow: true}, // the same set counted as huge
	} {
		f, n, _ := sn.vectorFilter(&all, nil, nil, c.dims)
		if got := f.IDs != nil; got != c.wantIDs {
			t.Errorf("dims %d: id list %v, want %v", c.dims, got, c.wantIDs)
		}
		if got := f.Allow != nil; got != c.wantAllow {
			t.Errorf("dims %d: predicate %v, want %v", c.dims, got, c.wantAllow)
		}
		if n == 0 || n == len(sn.entries) {
			t.Errorf("has_linkedin admits %d of %d: not a real subset", n, len(sn.entries))
		}
	}
}

// TestUnfilteredPersonaSearchDropsInput: without filters the graph is searched unfiltered
// and the input persona is dropped from the hits afterwards (nearestExcept); asked to
// include it, it comes first (it is its own nearest neighbour).
func TestUnfilteredPersonaSearchDropsInput(t *testing.T) {
	fx := demo(t)
	ctx := context.Background()
	persona := fx.truth[7].c.PersonaID
	for _, include := range []bool{false, true} {
		req, err := Validate(Params{PersonaID: IDs{persona}, IncludeSearchContacts: include, Consensus: ptr(3)})
		if err != nil {
			t.Fatal(err)
		}
		sn, _ := fx.svc.current(ctx)
		ranked, _, err := fx.svc.rank(ctx, sn, testOrg, req)
		if err != nil {
			t.Fatal(err)
		}
		found := slices.IndexFunc(ranked, func(r Ranked) bool { return sn.entries[r.Index].C.PersonaID == persona })
		switch {
		case !include && found >= 0:
			t.Errorf("the input persona is ranked %d", found)
		case include && found != 0:
			t.Errorf("with include_search_contacts the input persona is ranked %d, want 0", found)
		}
		if len(ranked) < 20 {
			t.Errorf("include=%v: %d ranked, want a full page", include, len(ranked))
		}
	}
}

// TestSingleConditionIsItsList: a filter of one list condition gets that posting list
// itself, not a copy (a broad filter-only search reads only the prefix its page needs;
// copying 430,000 entries per search cost 6 ms at 1M), and several large conditions are
// ANDed to the same set Match picks.
func TestSingleConditionIsItsList(t *testing.T) {
	_, sn := demoSnapshot(t)
	p := sn.post
	idx, all, needMatch := p.candidates(&Filters{HasLinkedin: true})
	if all || needMatch || len(idx) == 0 || &idx[0] != &p.hasLinkedin[0] {
		t.Fatalf("has_linkedin: got %d candidates (all %v, needMatch %v), want the posting list itself", len(idx), all, needMatch)
	}
	f := Filters{HasLinkedin: true, HasEmail: true}
	idx, _, needMatch = p.candidates(&f)
	if needMatch {
		t.Fatal("two flags need Match")
	}
	var want []int32
	for i := range sn.entries {
		if f.Match(&sn.entries[i]) {
			want = append(want, int32(i))
		}
	}
	if !slices.Equal(idx, want) {
		t.Fatalf("has_linkedin and has_email: %d candidates, Match picks %d", len(idx), len(want))
	}
}
