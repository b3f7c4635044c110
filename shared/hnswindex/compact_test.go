package hnswindex_test

import (
	"context"
	"errors"
	"math/rand/v2"
	"path/filepath"
	"slices"
	"sync"
	"testing"

	"github.com/firmoapi/firmo/shared/apperr"
	"github.com/firmoapi/firmo/shared/hnswindex"
	"github.com/firmoapi/firmo/shared/vector"
	"github.com/firmoapi/firmo/shared/vector/vectortest"
)

// TestContractCompact runs the contract on a compact index with the full-precision rows
// its searches re-rank on. The indexes of one subtest share their rows, as a graph loaded
// from file shares them with the one saved (contact search keeps them in its store).
func TestContractCompact(t *testing.T) {
	var mu sync.Mutex
	byTest := map[*testing.T]map[int64][]float32{}
	vectortest.Run(t, func(t *testing.T, dims int) vector.Index {
		mu.Lock()
		rows := byTest[t]
		if rows == nil {
			rows = map[int64][]float32{}
			byTest[t] = rows
		}
		mu.Unlock()
		r := &rowKeeper{Index: hnswindex.New(dims, hnswindex.Config{Seed: 1, Compact: true}), rows: rows}
		r.SetRows(func(id int64) []float32 {
			r.mu.Lock()
			defer r.mu.Unlock()
			return r.rows[id]
		})
		return r
	})
}

// compactWorld is near twins (which 8-bit codes cannot order, float32 can) plus exact
// duplicates (which share nodes), in a compact index and in the float32 exact scan.
func compactWorld(t *testing.T, n, dims int) (*hnswindex.Index, *vector.Exact, [][]float32) {
	t.Helper()
	data := nearTwins(n, dims, 31)
	for i := 1; i < 40; i++ { // ids 0-39 hold one vector, 40-49 another
		data[i] = data[0]
	}
	for i := 41; i < 50; i++ {
		data[i] = data[40]
	}
	ctx := context.Background()
	ix := hnswindex.New(dims, hnswindex.Config{Seed: 3, Compact: true})
	ref := vector.NewExact(dims)
	stored := make([][]float32, n)
	for i, v := range data {
		if err := ix.Upsert(ctx, int64(i), v); err != nil {
			t.Fatal(err)
		}
		if err := ref.Upsert(ctx, int64(i), v); err != nil {
			t.Fatal(err)
		}
		stored[i], _ = vector.Check(v, dims)
	}
	ix.SetRows(func(id int64) []float32 { return stored[id] })
	return ix, ref, data
}

// TestCompactIsExact: a compact index keeps codes only, yet with the full-precision rows
// every exact plan (id lists with repeats and shared nodes, predicates; whole and split
// into parts) and a walk wide enough to see every node answer exactly as a float32 scan
// does, ids in order with their scores, for k from 1 to 300; without the rows the same
// searches do not (the codes alone cannot order the near twins).
func TestCompactIsExact(t *testing.T) {
	const n, dims = 3000, 64
	ix, ref, data := compactWorld(t, n, dims)
	if got, half := ix.VectorBytes(), n*dims*2; got > half/2+8*n {
		t.Fatalf("compact vectors take %d bytes, want at most half the %d of half-precision rows plus a scale and a residual each", got, half)
	}
	ctx := context.Background()
	rng := rand.New(rand.NewPCG(5, 6))
	randomIDs := func(size int) []int64 {
		ids := make([]int64, size)
		for i := range ids {
			ids[i] = int64(rng.IntN(n))
		}
		return ids
	}
	filters := map[string]vector.Filter{
		"none":                  {},
		"every third":           {Allow: func(id int64) bool { return id%3 == 0 }},
		"ids with repeats":      {IDs: append(randomIDs(600), 0, 1, 2, 40, 41, 0)},
		"ids and predicate":     {IDs: randomIDs(1500), Allow: func(id int64) bool { return id%2 == 0 }},
		"predicate with twins":  {Allow: func(id int64) bool { return id < 50 || id%40 == 3 }},
		"predicate, tiny share": {Allow: func(id int64) bool { return id%100 == 7 }},
	}
	queries := append(nearTwins(30, dims, 32), data[0], data[40], data[7], data[41])
	mismatches := func(p hnswindex.Plan, f vector.Filter, k int) int {
		bad := 0
		for _, q := range queries {
			got, err := ix.SearchPlan(ctx, q, k, f, p)
			if err != nil {
				t.Fatal(err)
			}
			want, _ := ref.Search(ctx, q, k, f)
			if !slices.EqualFunc(got, want, func(a, b vector.Hit) bool { return a.ID == b.ID && a.Score == b.Score }) {
				bad++
			}
		}
		return bad
	}
	for name, f := range filters {
		t.Run(name, func(t *testing.T) {
			for _, split := range []bool{false, true} {
				if split {
					ix.SetScanSplit(3, 64)
				} else {
					ix.SetScanSplit(1, 0)
				}
				for _, p := range []hnswindex.Plan{{Exact: true}, {Ef: n, EfUpper: 4}} {
					for _, k := range []int{1, 10, 100, 300} {
						if bad := mismatches(p, f, k); bad != 0 {
							t.Fatalf("split %v plan %+v k %d: %d of %d answers differ from the float32 scan", split, p, k, bad, len(queries))
						}
					}
				}
			}
		})
	}
	ix.SetRows(nil)
	if mismatches(hnswindex.Plan{Exact: true}, vector.Filter{}, 10) == 0 {
		t.Fatal("without rows every answer matched too: the data does not exercise the re-rank")
	}
}

// TestCompactTwinsAndFiles: equal vectors (and vectors whose codes are equal) share a node
// in a compact index too; a compact
// graph saves and loads with the same answers, and a file of the other layout is refused
// (ErrInvalid, so the caller rebuilds) both ways.
func TestCompactTwinsAndFiles(t *testing.T) {
	const n, dims = 1000, 32
	ix, _, data := compactWorld(t, n, dims)
	// 48 ids repeat a vector; near twins whose codes are equal share nodes too.
	if got := ix.Nodes(); got > n-48 {
		t.Fatalf("%d nodes for %d distinct vectors", got, n-48)
	}
	dir := t.TempDir()
	path := filepath.Join(dir, "compact.hnsw")
	if err := ix.SaveFile(path); err != nil {
		t.Fatal(err)
	}
	back := hnswindex.New(dims, hnswindex.Config{Compact: true})
	if err := back.LoadFile(path); err != nil {
		t.Fatal(err)
	}
	if !back.Config().Compact {
		t.Fatal("a loaded compact index is no longer compact")
	}
	back.SetRows(nil)
	ix.SetRows(nil) // compare the codes themselves, not the rows
	ctx := context.Background()
	for _, q := range data[:50] {
		got, _ := back.Search(ctx, q, 10, vector.Filter{})
		want, _ := ix.Search(ctx, q, 10, vector.Filter{})
		if !slices.Equal(got, want) {
			t.Fatalf("loaded graph answers %v, saved one %v", got, want)
		}
	}
	if err := back.Upsert(ctx, 5_000, data[40]); err != nil { // a twin of a loaded node
		t.Fatal(err)
	}
	if back.Nodes() != ix.Nodes() {
		t.Fatalf("a loaded compact index made a node for a twin: %d nodes, want %d", back.Nodes(), ix.Nodes())
	}
	if err := hnswindex.New(dims, hnswindex.Config{}).LoadFile(path); !errors.Is(err, apperr.ErrInvalid) {
		t.Fatalf("half-precision index loading a compact file: err = %v, want ErrInvalid", err)
	}
	half := hnswindex.New(dims, hnswindex.Config{Seed: 1})
	for i, v := range data[:100] {
		_ = half.Upsert(ctx, int64(i), v)
	}
	halfPath := filepath.Join(dir, "half.hnsw")
	if err := half.SaveFile(halfPath); err != nil {
		t.Fatal(err)
	}
	if err := hnswindex.New(dims, hnswindex.Config{Compact: true}).LoadFile(halfPath); !errors.Is(err, apperr.ErrInvalid) {
		t.Fatalf("compact index loading a half-precision file: err = %v, want ErrInvalid", err)
	}
}

// TestTombstonesNeverReturned: a walk with no filter skips the live check only while the
// graph has no tombstones; ids deleted, revived (a twin upserted onto a dead node) and
// deleted again, before and after a save and load, never come back, in either layout.
func TestTombstonesNeverReturned(t *testing.T) {
	const n, dims = 600, 16
	data := vectortest.Clustered(n, dims, 6, 41)
	ctx := context.Background()
	for _, compact := range []bool{false, true} {
		ix := hnswindex.New(dims, hnswindex.Config{Seed: 2, Compact: compact})
		for i, v := range data {
			if err := ix.Upsert(ctx, int64(i), v); err != nil {
				t.Fatal(err)
			}
		}
		gone := map[int64]bool{}
		for id := int64(0); id < n; id += 3 {
			_ = ix.Delete(ctx, id)
			gone[id] = true
		}
		// Revive three dead nodes under new ids (their vectors again), then delete those.
		for _, id := range []int64{0, 3, 6} {
			if err := ix.Upsert(ctx, 10_000+id, data[id]); err != nil {
				t.Fatal(err)
			}
			_ = ix.Delete(ctx, 10_000+id)
			gone[10_000+id] = true
		}
		path := filepath.Join(t.TempDir(), "g.hnsw")
		if err := ix.SaveFile(path); err != nil {
			t.Fatal(err)
		}
		back := hnswindex.New(dims, hnswindex.Config{Compact: compact})
		if err := back.LoadFile(path); err != nil {
			t.Fatal(err)
		}
		for name, x := range map[string]*hnswindex.Index{"built": ix, "loaded": back} {
			x.SetEfSearch(n)
			for _, q := range data[:60] {
				hits, err := x.Search(ctx, q, 50, vector.Filter{})
				if err != nil {
					t.Fatal(err)
				}
				if len(hits) != 50 {
					t.Fatalf("compact %v %s: %d hits, want 50", compact, name, len(hits))
				}
				for _, h := range hits {
					if gone[h.ID] {
						t.Fatalf("compact %v %s: deleted id %d returned", compact, name, h.ID)
					}
				}
			}
		}
	}
}
