package hnswindex_test

import (
	"context"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/firmoapi/firmo/shared/hnswindex"
	"github.com/firmoapi/firmo/shared/vector"
	"github.com/firmoapi/firmo/shared/vector/vectortest"
)

// TestExactScansMatchHalfScan checks the exact scans, with the 8-bit pass (SetCodes) and
// without; with it, the two-pass exact scans (8-bit codes first, then the
// half-precision rows of every candidate the codes' error bound cannot rule out) against
// scoring every row at half precision: the same ids in the same order with the same scores,
// for id lists (with repeats and shared nodes) and predicates, k from 1 to 400, scanned
// whole and split into parts on several cores.
func TestExactScansMatchHalfScan(t *testing.T) {
	const n, dims = 6000, 384
	data := vectortest.Clustered(n, dims, 12, 21)
	// Twins: ids 0-299 share one vector, 300-349 another, so shared nodes meet the scans.
	for i := 1; i < 300; i++ {
		data[i] = data[0]
	}
	for i := 301; i < 350; i++ {
		data[i] = data[300]
	}
	ix := hnswindex.New(dims, hnswindex.Config{Seed: 3})
	build(t, ix, data)
	rng := rand.New(rand.NewPCG(9, 10))
	randomIDs := func(size int) []int64 {
		ids := make([]int64, size)
		for i := range ids {
			ids[i] = int64(rng.IntN(n))
		}
		return ids
	}
	filters := map[string]vector.Filter{
		"ids 100":                {IDs: randomIDs(100)},
		"ids 2000 with repeats":  {IDs: randomIDs(2000)},
		"ids 5000":               {IDs: randomIDs(5000)},
		"ids and predicate":      {IDs: randomIDs(4000), Allow: func(id int64) bool { return id%3 != 1 }},
		"predicate 10%":          {Allow: func(id int64) bool { return id%10 == 7 }},
		"predicate 2% with twin": {Allow: func(id int64) bool { return id%50 == 0 }},
	}
	for name, f := range filters {
		t.Run(name, func(t *testing.T) {
			if p := ix.Plan(f); p == "graph" {
				t.Fatalf("plan %s: the test needs an exact plan", p)
			}
			allow := f.Allow
			if f.IDs != nil {
				in := map[int64]bool{}
				for _, id := range f.IDs {
					in[id] = true
				}
				allow = func(id int64) bool { return in[id] && (f.Allow == nil || f.Allow(id)) }
			}
			for trial := range 40 {
				if trial%20 == 0 {
					ix.SetCodes(trial == 0) // the first 20 trials with the 8-bit pass, then without
				}
				// Every other trial splits the scan into up to three parts (inParts).
				if trial%2 == 0 {
					ix.SetScanSplit(3, 64)
				} else {
					ix.SetScanSplit(1, 0)
				}
				q := data[rng.IntN(n)]
				if trial%4 < 2 {
					q = data[rng.IntN(350)] // a twin's own vector: ties on shared nodes
				}
				for _, k := range []int{1, 10, 100, 400} {
					got, err := ix.Search(context.Background(), q, k, f)
					if err != nil {
						t.Fatal(err)
					}
					want := ix.HalfScan(q, k, allow)
					if !slices.Equal(got, want) {
						t.Fatalf("trial %d k %d: got %d hits %v..., want %d %v...", trial, k, len(got), head(got), len(want), head(want))
					}
				}
			}
		})
	}
}

func head(h []vector.Hit) []vector.Hit { return h[:min(len(h), 5)] }
