package hnswindex_test

import (
	"context"
	"math/rand/v2"
	"slices"
	"sync"
	"testing"

	"github.com/firmoapi/firmo/shared/hnswindex"
	"github.com/firmoapi/firmo/shared/vector"
	"github.com/firmoapi/firmo/shared/vector/vectortest"
)

// nearTwins is n unit vectors in groups of eight that differ by about 1e-4 per component:
// half precision (2^-11 relative) cannot order a group, float32 can.
func nearTwins(n, dims int, seed uint64) [][]float32 {
	rng := rand.New(rand.NewPCG(seed, 1))
	out := make([][]float32, n)
	var base []float32
	for i := range out {
		if i%8 == 0 {
			base = make([]float32, dims)
			for j := range base {
				base[j] = float32(rng.NormFloat64())
			}
			vector.Normalize(base)
		}
		v := slices.Clone(base)
		for j := range v {
			v[j] += float32(rng.NormFloat64() * 3e-4 / 20)
		}
		vector.Normalize(v)
		out[i] = v
	}
	return out
}

// TestRerankIsExact: with full-precision rows a search wide enough to see every node, and
// every exact plan, answers exactly as a float32 scan does, ids and order; without them the
// same searches do not (so the rows are what makes the difference).
func TestRerankIsExact(t *testing.T) {
	const n, dims = 2000, 64
	data := nearTwins(n, dims, 11)
	ctx := context.Background()
	ix := hnswindex.New(dims, hnswindex.Config{Seed: 3})
	ref := vector.NewExact(dims)
	for i, v := range data {
		if err := ix.Upsert(ctx, int64(i), v); err != nil {
			t.Fatal(err)
		}
		if err := ref.Upsert(ctx, int64(i), v); err != nil {
			t.Fatal(err)
		}
	}
	ix.SetEfSearch(n)
	queries := nearTwins(200, dims, 12)
	filters := map[string]vector.Filter{
		"none":        {},
		"every third": {Allow: func(id int64) bool { return id%3 == 0 }}, // an exact scan
		"id list":     {IDs: []int64{1, 2, 3, 8, 9, 10, 11, 12, 40, 41, 42, 43, 44, 45, 46, 47, 500, 501}},
	}
	// The rows as the indexes hold them (Check normalizes a copy; a second normalization can
	// move a unit vector by an ulp, enough to swap two twins).
	stored := make([][]float32, n)
	for i, v := range data {
		stored[i], _ = vector.Check(v, dims)
	}
	differs := func(rows bool, f vector.Filter) int {
		if rows {
			ix.SetRows(func(id int64) []float32 { return stored[id] })
		} else {
			ix.SetRows(nil)
		}
		bad := 0
		for _, q := range queries {
			got, err := ix.Search(ctx, q, 10, f)
			if err != nil {
				t.Fatal(err)
			}
			want, err := ref.Search(ctx, q, 10, f)
			if err != nil {
				t.Fatal(err)
			}
			if !slices.EqualFunc(got, want, func(a, b vector.Hit) bool { return a.ID == b.ID }) {
				bad++
			}
		}
		return bad
	}
	for name, f := range filters {
		t.Run(name, func(t *testing.T) {
			if bad := differs(true, f); bad != 0 {
				t.Errorf("with full-precision rows %d of %d answers differ from the exact scan", bad, len(queries))
			}
			if name != "id list" && differs(false, f) == 0 {
				t.Errorf("without rows every answer matched too: the data does not exercise the re-rank")
			}
		})
	}
}

// rowKeeper is an index whose searches re-rank on the rows it was given, kept beside it as
// contact search keeps its contacts' vectors.
type rowKeeper struct {
	*hnswindex.Index
	mu   sync.Mutex
	rows map[int64][]float32
}

func (r *rowKeeper) Upsert(ctx context.Context, id int64, vec []float32) error {
	v, err := vector.Check(vec, r.Dims())
	if err == nil {
		r.mu.Lock()
		r.rows[id] = v
		r.mu.Unlock()
	}
	return r.Index.Upsert(ctx, id, vec)
}

// TestContractWithRows runs the contract with the full-precision re-rank on.
func TestContractWithRows(t *testing.T) {
	vectortest.Run(t, func(t *testing.T, dims int) vector.Index {
		r := &rowKeeper{Index: hnswindex.New(dims, hnswindex.Config{Seed: 1}), rows: map[int64][]float32{}}
		r.SetRows(func(id int64) []float32 {
			r.mu.Lock()
			defer r.mu.Unlock()
			return r.rows[id]
		})
		return r
	})
}

// TestBreadthAndPlans: the breadth rule is asked with k and the filter's share of the ids,
// and SearchPlan runs a forced plan:
// an exact one, and a walk that sees every node, both answer as a float32 scan, id for id.
func TestBreadthAndPlans(t *testing.T) {
	const n, dims = 2000, 64
	data := nearTwins(n, dims, 13)
	ctx := context.Background()
	ix := hnswindex.New(dims, hnswindex.Config{Seed: 3})
	ref := vector.NewExact(dims)
	stored := make([][]float32, n)
	for i, v := range data {
		if err := ix.Upsert(ctx, int64(i), v); err != nil {
			t.Fatal(err)
		}
		_ = ref.Upsert(ctx, int64(i), v)
		stored[i], _ = vector.Check(v, dims)
	}
	ix.SetRows(func(id int64) []float32 { return stored[id] })
	half := vector.Filter{Allow: func(id int64) bool { return id%2 == 0 }}
	list := vector.Filter{IDs: []int64{3, 5, 7, 9, 11, 13, 15, 17, 19, 21}}

	var gotK int
	var gotSel float64
	ix.SetBreadth(func(k int, sel float64) (int, int) { gotK, gotSel = k, sel; return 2, 3 })
	if p := ix.PlanOf(vector.Filter{}, 25); p != (hnswindex.Plan{Ef: 25, EfUpper: 3}) || gotK != 25 || gotSel != 1 {
		t.Fatalf("no filter: plan %+v, rule asked k=%d sel=%v; want ef 25 (at least k), EfUpper 3, k=25, sel=1", p, gotK, gotSel)
	}
	if ix.PlanOf(half, 10); gotSel < 0.4 || gotSel > 0.6 {
		t.Fatalf("half the ids: selectivity %v, want about 0.5", gotSel)
	}
	if ix.PlanOf(list, 10); gotSel != float64(len(list.IDs))/n {
		t.Fatalf("id list: selectivity %v, want %v", gotSel, float64(len(list.IDs))/n)
	}
	ix.SetBreadth(nil)

	queries := nearTwins(50, dims, 14)
	for name, f := range map[string]vector.Filter{"none": {}, "half": half, "list": list} {
		for _, p := range []hnswindex.Plan{{Exact: true}, {Ef: n, EfUpper: 8}} {
			for _, q := range queries {
				got, err := ix.SearchPlan(ctx, q, 10, f, p)
				if err != nil {
					t.Fatal(err)
				}
				want, _ := ref.Search(ctx, q, 10, f)
				if !slices.EqualFunc(got, want, func(a, b vector.Hit) bool { return a.ID == b.ID }) {
					t.Fatalf("%s, plan %+v: %v, the exact scan %v", name, p, got, want)
				}
			}
		}
	}
}
