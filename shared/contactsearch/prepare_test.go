package contactsearch

import (
	"context"
	"path/filepath"
	"slices"
	"testing"

	"github.com/firmoapi/firmo/shared/hnswindex"
	"github.com/firmoapi/firmo/shared/vector"
)

// Prepare publishes a snapshot that answers at once, before its graph exists: every
// similarity search is then an exact scan, with or without a filter. The returned
// graph build fills the snapshot (searches use it from then on) and persists it, so a
// restart loads it and has nothing left to build.
func TestPrepareAnswersBeforeTheGraph(t *testing.T) {
	f := demo(t)
	ctx := context.Background()
	dir := t.TempDir()
	deps := Deps{Contacts: f.svc.contacts, Companies: f.svc.companies, Embedder: f.svc.embedder, Dir: dir}
	svc := New(deps)
	graph, err := svc.Prepare(ctx)
	if err != nil {
		t.Fatal(err)
	}
	svc.mu.Lock()
	sn := svc.snap
	svc.mu.Unlock()
	if sn == nil || sn.graph() != nil {
		t.Fatalf("after Prepare: snapshot %v, graph built %v; want a snapshot without its graph", sn != nil, sn != nil && sn.graph() != nil)
	}

	exact := vector.NewExact(f.svc.embedder.Dims())
	for i, e := range sn.entries {
		exact.Upsert(ctx, e.C.PersonaID, sn.vecs[i])
	}
	even := func(id int64) bool { return id%2 == 0 }
	var someIDs []int64
	for _, e := range sn.entries[:len(sn.entries)/3] {
		someIDs = append(someIDs, e.C.PersonaID)
	}
	filters := map[string]vector.Filter{
		"none":          {},
		"allow":         {Allow: even},
		"ids":           {IDs: someIDs},
		"ids and allow": {IDs: someIDs, Allow: even},
	}
	for q := 0; q < 20; q++ {
		v := sn.vecs[(q*37)%len(sn.vecs)]
		for name, flt := range filters {
			got, err := svc.nearest(ctx, sn, v, 10, flt)
			if err != nil {
				t.Fatal(err)
			}
			want, _ := exact.Search(ctx, v, 10, flt)
			if !sameIDs(got, want) {
				t.Fatalf("query %d, filter %s: scan %v, exact %v", q, name, got, want)
			}
		}
	}
	req, err := Validate(Params{IcpText: "software engineering lead, kubernetes and go"})
	if err != nil {
		t.Fatal(err)
	}
	before, err := svc.Search(ctx, testOrg, req)
	if err != nil || len(ids(before)) == 0 {
		t.Fatalf("search before the graph: %d contacts, %v", len(ids(before)), err)
	}

	if err := graph(ctx); err != nil {
		t.Fatal(err)
	}
	if sn.graph() == nil {
		t.Fatal("graph built but not in the snapshot")
	}
	if n, _ := sn.graph().Len(ctx); n != len(sn.entries) {
		t.Fatalf("graph holds %d contacts, want %d", n, len(sn.entries))
	}
	wantBreadth(t, "built graph", sn.graph())
	if after, err := svc.Search(ctx, testOrg, req); err != nil || len(ids(after)) == 0 {
		t.Fatalf("search on the graph: %d contacts, %v", len(ids(after)), err)
	}
	files, _ := filepath.Glob(filepath.Join(dir, "*"))
	if len(files) == 0 {
		t.Fatalf("graph not persisted under %s", dir)
	}

	// A restart finds the persisted graph: Prepare then leaves nothing to build.
	again := New(deps)
	graph, err = again.Prepare(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if again.snap.graph() == nil {
		t.Fatal("persisted graph not loaded by Prepare")
	}
	wantBreadth(t, "loaded graph", again.snap.graph())
	if err := graph(ctx); err != nil {
		t.Fatal(err)
	}
}

// sameIDs compares two hit lists by id, ignoring the order of equal scores.
func sameIDs(a, b []vector.Hit) bool {
	if len(a) != len(b) {
		return false
	}
	ids := func(h []vector.Hit) []int64 {
		out := make([]int64, len(h))
		for i, x := range h {
			out[i] = x.ID
		}
		slices.Sort(out)
		return out
	}
	return slices.Equal(ids(a), ids(b))
}

// wantBreadth checks that g searches by graphBreadth: an unfiltered page of 10 walks 128
// wide from 64 entry points (the index's own default is ef 64 from one).
func wantBreadth(t *testing.T, what string, g *hnswindex.Index) {
	t.Helper()
	if got, want := g.PlanOf(vector.Filter{}, 12), (hnswindex.Plan{Ef: 128, EfUpper: 64}); got != want {
		t.Fatalf("%s: plan of an unfiltered page of 10 = %+v, want %+v", what, got, want)
	}
}

// TestGraphBreadth: every k gets at least k, a wider page at least as wide a walk, and a
// filtered walk (which passes about 1/selectivity nodes per admitted one) a narrower one
// than an unfiltered walk for the same k.
func TestGraphBreadth(t *testing.T) {
	prev := map[float64]int{}
	for k := 1; k <= 2000; k++ {
		for _, sel := range []float64{1, 0.75, 0.5, 0.3, 0.12, 0.05} {
			ef, up := graphBreadth(k, sel)
			if ef < k || up < 1 || ef < prev[sel] {
				t.Fatalf("k %d, selectivity %v: ef %d, EfUpper %d (ef at k-1: %d)", k, sel, ef, up, prev[sel])
			}
			prev[sel] = ef
		}
		if f, u := graphBreadth(k, 0.12); f > prev[1] {
			t.Fatalf("k %d: filtered ef %d above unfiltered %d (EfUpper %d)", k, f, prev[1], u)
		}
	}
}
