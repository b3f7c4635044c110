package hnswindex_test

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"sync"
	"testing"

	"github.com/firmoapi/firmo/shared/apperr"
	"github.com/firmoapi/firmo/shared/hnswindex"
	"github.com/firmoapi/firmo/shared/vector"
	"github.com/firmoapi/firmo/shared/vector/vectortest"
)

func TestContract(t *testing.T) {
	vectortest.Run(t, func(t *testing.T, dims int) vector.Index {
		return hnswindex.New(dims, hnswindex.Config{Seed: 1})
	})
}

// TestContractWithCodes runs the contract with the 8-bit first pass on.
func TestContractWithCodes(t *testing.T) {
	vectortest.Run(t, func(t *testing.T, dims int) vector.Index {
		ix := hnswindex.New(dims, hnswindex.Config{Seed: 1})
		ix.SetCodes(true)
		return ix
	})
}

// build inserts data with two writers, as a bulk load does.
func build(t testing.TB, ix vector.Index, data [][]float32) {
	t.Helper()
	var wg sync.WaitGroup
	for w := 0; w < 2; w++ {
		wg.Add(1)
		go func(w int) {
			defer wg.Done()
			for i := w; i < len(data); i += 2 {
				if err := ix.Upsert(context.Background(), int64(i), data[i]); err != nil {
					t.Error(err)
					return
				}
			}
		}(w)
	}
	wg.Wait()
}

// world is 20k clustered 384-dim vectors (the dimension of contact embeddings) in a graph and
// in the exact reference, built once for the tests that need a graph of some size.
type world struct {
	n, dims int
	data    [][]float32
	queries [][]float32
	ix      *hnswindex.Index
	ref     *vector.Exact
}

var (
	worldOnce sync.Once
	shared    *world
)

func bigWorld(t *testing.T) *world {
	t.Helper()
	if testing.Short() {
		t.Skip("builds a 20k-vector graph")
	}
	worldOnce.Do(func() {
		w := &world{n: 20_000, dims: 384}
		// Wide topics (spread 1.0: a vector's cosine with its own centre is about 0.7) make
		// neighbourhoods overlap, which is harder for the graph than tight clusters.
		topics := vectortest.NewClusters(w.dims, 200, 21)
		topics.Spread = 1.0
		w.data = topics.Draw(w.n, 1)
		w.queries = append(topics.Draw(200, 2), w.data[:50]...)
		w.ix = hnswindex.New(w.dims, hnswindex.Config{M: 16, EfConstruction: 100, Seed: 2})
		build(t, w.ix, w.data)
		w.ref = vector.NewExact(w.dims)
		for i, v := range w.data {
			_ = w.ref.Upsert(context.Background(), int64(i), v)
		}
		shared = w
	})
	if shared == nil {
		t.Fatal("building the shared graph failed")
	}
	return shared
}

func (w *world) recall(t *testing.T, ix vector.Index, f vector.Filter) float64 {
	t.Helper()
	ctx := context.Background()
	in := map[int64]bool{}
	for _, id := range f.IDs {
		in[id] = true
	}
	sum := 0.0
	for _, q := range w.queries {
		got, err := ix.Search(ctx, q, 10, f)
		if err != nil {
			t.Fatal(err)
		}
		want, _ := w.ref.Search(ctx, q, 10, f)
		for _, h := range got {
			if (f.Allow != nil && !f.Allow(h.ID)) || (f.IDs != nil && !in[h.ID]) {
				t.Fatalf("id %d returned although the filter excludes it", h.ID)
			}
		}
		if len(got) != len(want) {
			t.Fatalf("%d hits, want %d", len(got), len(want))
		}
		sum += vector.Recall(got, want)
	}
	return sum / float64(len(w.queries))
}

func TestRecallAt10(t *testing.T) {
	w := bigWorld(t)
	r := w.recall(t, w.ix, vector.Filter{})
	t.Logf("recall@10 = %.4f over %d queries", r, len(w.queries))
	if r < 0.95 {
		t.Fatalf("recall@10 = %.3f, want >= 0.95", r)
	}
}

// TestFilteredSearchSwitchesToExact checks both sides of the switching rule: at 384 dims a
// set of at most 5,208 candidates is scanned exactly (the answer equals brute force), and so
// is a somewhat larger one while scanning it costs less than the widened walk (here, with 20k
// nodes and ef 100, an id list while candidates² < 0.6 x 100 x 32 x 20,000, up to 6,196
// candidates; a predicate, which also costs a call per node, only within the first rule);
// beyond that the graph is walked with the filter (recall stays >= 0.95 and nothing
// filtered out leaks).
func TestFilteredSearchSwitchesToExact(t *testing.T) {
	w := bigWorld(t)
	w.ix.SetBreadth(func(int, float64) (int, int) { return 100, 1 })
	defer w.ix.SetBreadth(nil)
	idsUpTo := func(n int, step int64) []int64 {
		out := make([]int64, 0, n)
		for id := int64(0); len(out) < n; id += step {
			out = append(out, id)
		}
		return out
	}
	cases := []struct {
		name       string
		f          vector.Filter
		wantPlan   string
		wantRecall float64
	}{
		{"small candidate set", vector.Filter{IDs: idsUpTo(5000, 3)}, "exact-ids", 1},
		{"candidate set cheaper to scan", vector.Filter{IDs: idsUpTo(6000, 3)}, "exact-ids", 1},
		{"large candidate set", vector.Filter{IDs: idsUpTo(8000, 2)}, "graph", 0.95},
		{"candidate set and predicate", vector.Filter{IDs: idsUpTo(9000, 2), Allow: func(id int64) bool { return id%3 != 0 }}, "graph", 0.95},
		{"selective predicate (10%)", vector.Filter{Allow: func(id int64) bool { return id%10 == 3 }}, "exact-scan", 1},
		{"tiny predicate (5 ids)", vector.Filter{Allow: func(id int64) bool { return id < 5 }}, "exact-scan", 1},
		{"broad predicate (50%)", vector.Filter{Allow: func(id int64) bool { return id%2 == 0 }}, "graph", 0.95},
		{"predicate (40%)", vector.Filter{Allow: func(id int64) bool { return id%10 < 4 }}, "graph", 0.95},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if got := w.ix.Plan(c.f); got != c.wantPlan {
				t.Fatalf("plan = %s, want %s", got, c.wantPlan)
			}
			if got := w.ix.ScansExactly(c.f, 10); got != (c.wantPlan != "graph") {
				t.Fatalf("ScansExactly = %v for plan %s", got, c.wantPlan)
			}
			r := w.recall(t, w.ix, c.f)
			t.Logf("recall@10 = %.4f", r)
			if r < c.wantRecall {
				t.Fatalf("recall@10 = %.4f, want >= %.2f", r, c.wantRecall)
			}
		})
	}
}

// TestBreadthMovesThePlan: the plan's cost model walks at the breadth rule's ef, so a filter
// walked at the default ef 64 is scanned under a rule asking for a walk 5,000 wide (which
// would pass more nodes than the scan reads), and walked again without the rule.
func TestBreadthMovesThePlan(t *testing.T) {
	w := bigWorld(t)
	f := vector.Filter{Allow: func(id int64) bool { return id%2 == 0 }}
	if got := w.ix.Plan(f); got != "graph" {
		t.Fatalf("plan at the default breadth = %s, want graph", got)
	}
	w.ix.SetBreadth(func(int, float64) (int, int) { return 5000, 1 })
	got := w.ix.Plan(f)
	w.ix.SetBreadth(nil)
	if got != "exact-scan" {
		t.Fatalf("plan under a 5,000-wide rule = %s, want exact-scan", got)
	}
	if got := w.ix.Plan(f); got != "graph" {
		t.Fatalf("plan with the rule removed = %s, want graph", got)
	}
}

func TestSaveFileLoadFile(t *testing.T) {
	w := bigWorld(t)
	path := filepath.Join(t.TempDir(), "vectors", "contacts.hnsw")
	if err := w.ix.SaveFile(path); err != nil {
		t.Fatal(err)
	}
	back := hnswindex.New(w.dims, hnswindex.Config{})
	if err := back.LoadFile(path); err != nil {
		t.Fatal(err)
	}
	if got, want := back.Config(), w.ix.Config(); got.M != want.M || got.EfConstruction != want.EfConstruction {
		t.Fatalf("config after load = %+v, want %+v", got, want)
	}
	ctx := context.Background()
	for _, q := range w.queries[:40] {
		got, _ := back.Search(ctx, q, 10, vector.Filter{})
		want, _ := w.ix.Search(ctx, q, 10, vector.Filter{})
		if vector.Recall(got, want) != 1 {
			t.Fatalf("loaded graph answers %v, saved one %v", got, want)
		}
	}
	entries, _ := os.ReadDir(filepath.Dir(path))
	if len(entries) != 1 {
		t.Fatalf("directory holds %d files after an atomic save, want 1", len(entries))
	}
	err := hnswindex.New(w.dims, hnswindex.Config{}).LoadFile(filepath.Join(t.TempDir(), "none.hnsw"))
	if !errors.Is(err, apperr.ErrNotFound) {
		t.Fatalf("missing file: err = %v, want ErrNotFound", err)
	}
}

// TestEfUpper: the layer-1 breadth defaults to 1 (the greedy descent), belongs to the index
// that searches (a loaded graph keeps the loader's), and both the greedy descent and a beam
// answer with recall@10 >= 0.95.
func TestEfUpper(t *testing.T) {
	if got := hnswindex.New(8, hnswindex.Config{}).Config().EfUpper; got != 1 {
		t.Fatalf("default EfUpper = %d, want 1", got)
	}
	w := bigWorld(t)
	path := filepath.Join(t.TempDir(), "g.hnsw")
	if err := w.ix.SaveFile(path); err != nil {
		t.Fatal(err)
	}
	back := hnswindex.New(w.dims, hnswindex.Config{EfUpper: 9})
	if err := back.LoadFile(path); err != nil {
		t.Fatal(err)
	}
	if got := back.Config().EfUpper; got != 9 {
		t.Fatalf("EfUpper after load = %d, want the loader's 9", got)
	}
	for _, ef := range []int{1, 64} {
		back.SetEfUpper(ef)
		r := w.recall(t, back, vector.Filter{})
		t.Logf("EfUpper %d: recall@10 = %.4f", ef, r)
		if r < 0.95 {
			t.Fatalf("EfUpper %d: recall@10 = %.3f, want >= 0.95", ef, r)
		}
	}
}

// TestReserveGrowsNoSlab: after Reserve(n) a load of n vectors never regrows (copies) the
// vector or layer-0 slabs, and the graph answers as one built without it.
func TestReserveGrowsNoSlab(t *testing.T) {
	const n, dims = 3000, 32
	data := vectortest.Clustered(n, dims, 20, 9)
	ctx := context.Background()
	ix := hnswindex.New(dims, hnswindex.Config{Seed: 1})
	ix.Reserve(n)
	if err := ix.Upsert(ctx, 0, data[0]); err != nil {
		t.Fatal(err)
	}
	vecs, links := ix.SlabData()
	plain := hnswindex.New(dims, hnswindex.Config{Seed: 1})
	for i, v := range data {
		if err := ix.Upsert(ctx, int64(i), v); err != nil {
			t.Fatal(err)
		}
		if err := plain.Upsert(ctx, int64(i), v); err != nil {
			t.Fatal(err)
		}
	}
	if v, l := ix.SlabData(); v != vecs || l != links {
		t.Errorf("a slab was regrown after Reserve(%d)", n)
	}
	for _, q := range data[:50] {
		got, err1 := ix.Search(ctx, q, 10, vector.Filter{})
		want, err2 := plain.Search(ctx, q, 10, vector.Filter{})
		if err1 != nil || err2 != nil {
			t.Fatal(err1, err2)
		}
		if !sameHits(got, want) {
			t.Fatalf("reserved graph answers %v, the unreserved one %v", got, want)
		}
	}
}

func sameHits(a, b []vector.Hit) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i].ID != b[i].ID {
			return false
		}
	}
	return true
}

// TestTwinsShareNodes: ids upserted with a vector some node holds join that node, also
// after the table that finds them has grown several times and after a save and load.
func TestTwinsShareNodes(t *testing.T) {
	const distinct, copies, dims = 3000, 3, 16
	base := vectortest.Clustered(distinct, dims, 10, 5)
	ctx := context.Background()
	ix := hnswindex.New(dims, hnswindex.Config{Seed: 1})
	for c := range copies {
		for i, v := range base {
			if err := ix.Upsert(ctx, int64(c*distinct+i), v); err != nil {
				t.Fatal(err)
			}
		}
	}
	path := filepath.Join(t.TempDir(), "g.hnsw")
	if err := ix.SaveFile(path); err != nil {
		t.Fatal(err)
	}
	loaded := hnswindex.New(dims, hnswindex.Config{})
	if err := loaded.LoadFile(path); err != nil {
		t.Fatal(err)
	}
	if err := loaded.Upsert(ctx, 99_999, base[7]); err != nil { // a twin of a loaded node
		t.Fatal(err)
	}
	for name, x := range map[string]*hnswindex.Index{"built": ix, "loaded": loaded} {
		if got := x.Nodes(); got != distinct {
			t.Errorf("%s: %d nodes for %d distinct vectors", name, got, distinct)
		}
	}
	hits, err := loaded.Search(ctx, base[7], 4, vector.Filter{})
	if err != nil {
		t.Fatal(err)
	}
	want := map[int64]bool{7: true, distinct + 7: true, 2*distinct + 7: true, 99_999: true}
	for _, h := range hits {
		if !want[h.ID] {
			t.Errorf("search for a shared vector returned %d, want the ids %v", h.ID, want)
		}
	}
}
