// Package vectortest is the contract test suite of the vector.Index port. Every adapter runs it
// (hnswindex and vector.Exact itself).
package vectortest

import (
	"bytes"
	"context"
	"errors"
	"math"
	"math/rand/v2"
	"sync"
	"testing"

	"github.com/firmoapi/firmo/shared/apperr"
	"github.com/firmoapi/firmo/shared/vector"
)

// Dims is the vector length the suite uses; small, so the suite stays fast on every adapter.
const Dims = 24

// N is how many vectors the larger subtests store.
const N = 1500

// MinRecall is the recall@10 an approximate adapter must reach on the suite's clustered data.
const MinRecall = 0.95

// Run runs the contract. newIndex returns a fresh, empty index of the given dimension.
func Run(t *testing.T, newIndex func(t *testing.T, dims int) vector.Index) {
	t.Helper()
	ctx := context.Background()

	t.Run("Empty", func(t *testing.T) {
		ix := newIndex(t, Dims)
		if got := ix.Dims(); got != Dims {
			t.Fatalf("Dims = %d, want %d", got, Dims)
		}
		if n, err := ix.Len(ctx); err != nil || n != 0 {
			t.Fatalf("Len = %d, %v; want 0", n, err)
		}
		hits, err := ix.Search(ctx, unit(Dims, 1), 5, vector.Filter{})
		if err != nil || len(hits) != 0 {
			t.Fatalf("Search on empty index = %v, %v; want no hits", hits, err)
		}
	})

	t.Run("RejectsBadInput", func(t *testing.T) {
		ix := newIndex(t, Dims)
		cases := []struct {
			name string
			call func() error
		}{
			{"short vector", func() error { return ix.Upsert(ctx, 1, make([]float32, Dims-1)) }},
			{"zero vector", func() error { return ix.Upsert(ctx, 1, make([]float32, Dims)) }},
			{"NaN", func() error { v := unit(Dims, 0); v[3] = float32(math.NaN()); return ix.Upsert(ctx, 1, v) }},
			{"k zero", func() error { _, err := ix.Search(ctx, unit(Dims, 0), 0, vector.Filter{}); return err }},
			{"query dims", func() error { _, err := ix.Search(ctx, unit(Dims+1, 0), 3, vector.Filter{}); return err }},
		}
		for _, c := range cases {
			t.Run(c.name, func(t *testing.T) {
				if err := c.call(); !errors.Is(err, apperr.ErrInvalid) {
					t.Fatalf("err = %v, want ErrInvalid", err)
				}
			})
		}
		if n, _ := ix.Len(ctx); n != 0 {
			t.Fatalf("Len after rejected upserts = %d, want 0", n)
		}
	})

	t.Run("CosineScoresAndOrder", func(t *testing.T) {
		ix := newIndex(t, Dims)
		// Axis-aligned vectors of various lengths: the scores are known exactly.
		for i := 0; i < Dims; i++ {
			v := make([]float32, Dims)
			v[i] = float32(i + 1) // length must not matter
			mustUpsert(t, ix, int64(100+i), v)
		}
		q := make([]float32, Dims)
		q[0], q[1] = 3, 4 // cos with e0 = 0.6, with e1 = 0.8, others 0
		hits := mustSearch(t, ix, q, 3, vector.Filter{})
		if len(hits) != 3 {
			t.Fatalf("got %d hits, want 3", len(hits))
		}
		want := []vector.Hit{{ID: 101, Score: 0.8}, {ID: 100, Score: 0.6}}
		for i, w := range want {
			if hits[i].ID != w.ID || !near(hits[i].Score, w.Score) {
				t.Fatalf("hit %d = %+v, want %+v (all: %v)", i, hits[i], w, hits)
			}
		}
		if !near(hits[2].Score, 0) {
			t.Fatalf("third hit score = %v, want 0", hits[2].Score)
		}
	})

	t.Run("NearestAgreesWithExact", func(t *testing.T) {
		ix := newIndex(t, Dims)
		ref := vector.NewExact(Dims)
		topics := NewClusters(Dims, 20, 7)
		data := topics.Draw(N, 1)
		load(t, ix, ref, data)
		if n, err := ix.Len(ctx); err != nil || n != N {
			t.Fatalf("Len = %d, %v; want %d", n, err, N)
		}
		// Every stored vector finds itself first.
		for i := 0; i < N; i += 97 {
			hits := mustSearch(t, ix, data[i], 1, vector.Filter{})
			if len(hits) != 1 || hits[0].ID != int64(i) || !near(hits[0].Score, 1) {
				t.Fatalf("self query %d = %v", i, hits)
			}
		}
		queries := topics.Draw(50, 2)
		recall := 0.0
		for _, q := range queries {
			got := mustSearch(t, ix, q, 10, vector.Filter{})
			want := mustSearch(t, ref, q, 10, vector.Filter{})
			checkSorted(t, got)
			checkScores(t, got, data, q)
			recall += vector.Recall(got, want)
		}
		if recall /= float64(len(queries)); recall < MinRecall {
			t.Fatalf("recall@10 = %.3f, want >= %.2f", recall, MinRecall)
		}
	})

	t.Run("UpsertReplaces", func(t *testing.T) {
		ix := newIndex(t, Dims)
		data := Clustered(200, Dims, 5, 3)
		load(t, ix, nil, data)
		// Move id 7 onto the direction of a fresh vector nobody else is near.
		fresh := unit(Dims, 5)
		fresh[5], fresh[6] = 1, -1
		mustUpsert(t, ix, 7, fresh)
		if n, _ := ix.Len(ctx); n != 200 {
			t.Fatalf("Len after replacing = %d, want 200", n)
		}
		hits := mustSearch(t, ix, fresh, 1, vector.Filter{})
		if len(hits) != 1 || hits[0].ID != 7 || !near(hits[0].Score, 1) {
			t.Fatalf("search for the new vector = %v, want id 7 at 1", hits)
		}
		for _, h := range mustSearch(t, ix, data[7], 200, vector.Filter{}) {
			if h.ID == 7 && near(h.Score, 1) {
				t.Fatalf("old vector of id 7 still found: %v", h)
			}
		}
	})

	t.Run("Delete", func(t *testing.T) {
		ix := newIndex(t, Dims)
		data := Clustered(300, Dims, 5, 4)
		load(t, ix, nil, data)
		for id := int64(0); id < 300; id += 3 {
			if err := ix.Delete(ctx, id); err != nil {
				t.Fatal(err)
			}
		}
		if err := ix.Delete(ctx, 123456); err != nil {
			t.Fatalf("deleting an unknown id: %v", err)
		}
		if n, _ := ix.Len(ctx); n != 200 {
			t.Fatalf("Len after deleting 100 of 300 = %d, want 200", n)
		}
		for i := 0; i < 300; i += 10 {
			for _, h := range mustSearch(t, ix, data[i], 20, vector.Filter{}) {
				if h.ID%3 == 0 {
					t.Fatalf("deleted id %d returned", h.ID)
				}
			}
		}
		// A deleted id can come back.
		mustUpsert(t, ix, 0, data[0])
		if hits := mustSearch(t, ix, data[0], 1, vector.Filter{}); len(hits) != 1 || hits[0].ID != 0 {
			t.Fatalf("re-added id 0 not found first: %v", hits)
		}
	})

	t.Run("FilterByCandidateSet", func(t *testing.T) {
		ix := newIndex(t, Dims)
		ref := vector.NewExact(Dims)
		data := Clustered(N, Dims, 20, 11)
		load(t, ix, ref, data)
		rng := rand.New(rand.NewPCG(5, 6))
		// Small sets are searched exactly, so the answer must equal brute force.
		for _, size := range []int{0, 1, 7, 60} {
			ids := make([]int64, 0, size)
			for len(ids) < size {
				ids = append(ids, int64(rng.IntN(N)))
			}
			ids = append(ids, 999999) // an unknown id is ignored
			if size == 0 {
				ids = []int64{}
			}
			q := data[rng.IntN(N)]
			got := mustSearch(t, ix, q, 10, vector.Filter{IDs: ids})
			want := mustSearch(t, ref, q, 10, vector.Filter{IDs: ids})
			if !sameIDs(got, want) {
				t.Fatalf("candidate set of %d: got %v, want %v", size, got, want)
			}
		}
	})

	t.Run("FilterByPredicate", func(t *testing.T) {
		ix := newIndex(t, Dims)
		ref := vector.NewExact(Dims)
		topics := NewClusters(Dims, 20, 12)
		data := topics.Draw(N, 1)
		load(t, ix, ref, data)
		for _, mod := range []int64{2, 5, 50, 400} {
			allow := func(id int64) bool { return id%mod == 1 }
			recall := 0.0
			queries := topics.Draw(20, uint64(100+mod))
			for _, q := range queries {
				got := mustSearch(t, ix, q, 10, vector.Filter{Allow: allow})
				for _, h := range got {
					if !allow(h.ID) {
						t.Fatalf("mod %d: filtered-out id %d returned", mod, h.ID)
					}
				}
				want := mustSearch(t, ref, q, 10, vector.Filter{Allow: allow})
				if len(got) != len(want) {
					t.Fatalf("mod %d: %d hits, want %d", mod, len(got), len(want))
				}
				recall += vector.Recall(got, want)
			}
			if recall /= float64(len(queries)); recall < MinRecall {
				t.Fatalf("mod %d: filtered recall@10 = %.3f, want >= %.2f", mod, recall, MinRecall)
			}
		}
		// Both parts of a filter apply.
		ids := []int64{1, 2, 3, 4, 5, 6}
		got := mustSearch(t, ix, data[2], 10, vector.Filter{IDs: ids, Allow: func(id int64) bool { return id%2 == 0 }})
		if !sameIDs(got, mustSearch(t, ref, data[2], 10, vector.Filter{IDs: []int64{2, 4, 6}})) || len(got) != 3 {
			t.Fatalf("IDs and Allow together = %v, want ids 2, 4, 6", got)
		}
	})

	t.Run("ConcurrentSearchDuringInserts", func(t *testing.T) {
		ix := newIndex(t, Dims)
		data := Clustered(600, Dims, 10, 13)
		load(t, ix, nil, data[:100])
		var wg sync.WaitGroup
		errs := make(chan error, 4)
		for w := 0; w < 2; w++ {
			wg.Add(1)
			go func(w int) {
				defer wg.Done()
				for i := 100 + w; i < 600; i += 2 {
					if err := ix.Upsert(ctx, int64(i), data[i]); err != nil {
						errs <- err
						return
					}
				}
			}(w)
		}
		for r := 0; r < 2; r++ {
			wg.Add(1)
			go func(r int) {
				defer wg.Done()
				for i := 0; i < 150; i++ {
					hits, err := ix.Search(ctx, data[(i*7+r)%100], 5, vector.Filter{})
					if err != nil || len(hits) == 0 {
						errs <- errors.Join(err, errors.New("search during inserts found nothing"))
						return
					}
				}
			}(r)
		}
		wg.Wait()
		close(errs)
		for err := range errs {
			t.Fatal(err)
		}
		if n, _ := ix.Len(ctx); n != 600 {
			t.Fatalf("Len = %d, want 600", n)
		}
	})

	t.Run("IdenticalVectors", func(t *testing.T) {
		// Real contact data repeats vectors (the same title, no summary): the clustered data
		// plus groups of exact twins, one of 400 ids and one of 150. Every twin of the query
		// scores 1, so the top k must be k of its twins, whatever the ties; filters and
		// updates apply to each twin on its own.
		ix := newIndex(t, Dims)
		data := Clustered(N, Dims, 20, 21)
		a, b := data[5], data[900]
		group := map[int64][]float32{}
		for i := range 400 {
			group[int64(N+i)] = a
		}
		for i := range 150 {
			group[int64(N+400+i)] = b
		}
		load(t, ix, nil, data)
		for id := int64(N); id < N+550; id++ {
			mustUpsert(t, ix, id, group[id])
		}
		if n, _ := ix.Len(ctx); n != N+550 {
			t.Fatalf("Len = %d, want %d", n, N+550)
		}
		isA := func(id int64) bool { return id == 5 || (id >= N && id < N+400) }
		isB := func(id int64) bool { return id == 900 || (id >= N+400 && id < N+550) }
		check := func(name string, hits []vector.Hit, want int, ok func(int64) bool) {
			t.Helper()
			if len(hits) != want {
				t.Fatalf("%s: %d hits, want %d", name, len(hits), want)
			}
			seen := map[int64]bool{}
			for _, h := range hits {
				if !ok(h.ID) || !near(h.Score, 1) || seen[h.ID] {
					t.Fatalf("%s: hit %v is not a new twin of the query at 1 (hits %v)", name, h, hits)
				}
				seen[h.ID] = true
			}
		}
		check("k 10", mustSearch(t, ix, a, 10, vector.Filter{}), 10, isA)
		check("k 300", mustSearch(t, ix, a, 300, vector.Filter{}), 300, isA)
		check("twins of b", mustSearch(t, ix, b, 100, vector.Filter{}), 100, isB)
		odd := func(id int64) bool { return id%2 == 1 }
		check("predicate", mustSearch(t, ix, a, 150, vector.Filter{Allow: odd}), 150,
			func(id int64) bool { return isA(id) && odd(id) })
		// A candidate list naming some twins (one twice) and other vectors.
		ids := []int64{N + 3, N + 7, N + 7, N + 401, 17, 5, N + 399}
		got := mustSearch(t, ix, a, 4, vector.Filter{IDs: ids})
		check("candidate list", got, 4, func(id int64) bool { return id == N+3 || id == N+7 || id == 5 || id == N+399 })
		// Every listed id once, however often listed (17 holds a vector of its own).
		got = mustSearch(t, ix, a, 10, vector.Filter{IDs: []int64{17, N + 3, N + 7, N + 7, 17, N + 401, 5, N + 399, 17}})
		if len(got) != 6 || len(dedupeHits(got)) != 6 {
			t.Fatalf("candidate list with repeats: %v, want 6 distinct ids", got)
		}
		// Deleting twins and moving one away.
		for id := int64(N); id < N+400; id += 2 {
			if err := ix.Delete(ctx, id); err != nil {
				t.Fatal(err)
			}
		}
		_ = ix.Delete(ctx, 5)
		mustUpsert(t, ix, N+1, b)
		if n, _ := ix.Len(ctx); n != N+550-201 {
			t.Fatalf("Len after deletes = %d, want %d", n, N+550-201)
		}
		left := func(id int64) bool { return id >= N+3 && id < N+400 && odd(id) }
		check("after deletes", mustSearch(t, ix, a, 199, vector.Filter{}), 199, left)
		for _, h := range mustSearch(t, ix, a, 250, vector.Filter{})[199:] {
			if near(h.Score, 1) {
				t.Fatalf("a deleted or moved twin still found: %v", h)
			}
		}
		check("moved twin", mustSearch(t, ix, b, 152, vector.Filter{}), 152,
			func(id int64) bool { return isB(id) || id == N+1 })
		// Every twin gone, then back.
		for id := int64(N + 3); id < N+400; id += 2 {
			_ = ix.Delete(ctx, id)
		}
		for _, h := range mustSearch(t, ix, a, 5, vector.Filter{}) {
			if near(h.Score, 1) {
				t.Fatalf("every twin deleted, still found: %v", h)
			}
		}
		mustUpsert(t, ix, 5, a)
		if h := mustSearch(t, ix, a, 1, vector.Filter{}); len(h) != 1 || h[0].ID != 5 {
			t.Fatalf("re-added id 5 not found first: %v", h)
		}
		p, ok := ix.(vector.Persistent)
		if !ok {
			return
		}
		var buf bytes.Buffer
		if err := p.Save(&buf); err != nil {
			t.Fatal(err)
		}
		back := newIndex(t, Dims)
		if err := back.(vector.Persistent).Load(&buf); err != nil {
			t.Fatal(err)
		}
		check("b after load", mustSearch(t, back, b, 152, vector.Filter{}), 152,
			func(id int64) bool { return isB(id) || id == N+1 })
		mustUpsert(t, back, 77777, b)
		check("b after load and insert", mustSearch(t, back, b, 153, vector.Filter{}), 153,
			func(id int64) bool { return isB(id) || id == N+1 || id == 77777 })
	})

	t.Run("Persistence", func(t *testing.T) {
		ix := newIndex(t, Dims)
		p, ok := ix.(vector.Persistent)
		if !ok {
			t.Skip("adapter keeps its data elsewhere (not vector.Persistent)")
		}
		data := Clustered(500, Dims, 10, 14)
		load(t, ix, nil, data)
		_ = ix.Delete(ctx, 3)
		var buf bytes.Buffer
		if err := p.Save(&buf); err != nil {
			t.Fatal(err)
		}
		saved := buf.Bytes()
		back := newIndex(t, Dims)
		if err := back.(vector.Persistent).Load(bytes.NewReader(saved)); err != nil {
			t.Fatal(err)
		}
		if n, _ := back.Len(ctx); n != 499 {
			t.Fatalf("Len after load = %d, want 499", n)
		}
		for i := 0; i < 500; i += 25 {
			got := mustSearch(t, back, data[i], 10, vector.Filter{})
			want := mustSearch(t, ix, data[i], 10, vector.Filter{})
			if !sameIDs(got, want) {
				t.Fatalf("query %d after load = %v, before = %v", i, got, want)
			}
		}
		// The loaded index keeps working.
		mustUpsert(t, back, 9999, data[3])
		if h := mustSearch(t, back, data[3], 1, vector.Filter{}); h[0].ID != 9999 {
			t.Fatalf("insert after load not found: %v", h)
		}
		// A damaged or truncated file is refused, not half-loaded.
		bad := append([]byte(nil), saved...)
		bad[len(bad)/2] ^= 0xff
		for name, b := range map[string][]byte{"flipped byte": bad, "truncated": saved[:len(saved)-9], "empty": nil} {
			fresh := newIndex(t, Dims)
			if err := fresh.(vector.Persistent).Load(bytes.NewReader(b)); err == nil {
				t.Fatalf("%s file loaded without error", name)
			}
			if n, _ := fresh.Len(ctx); n != 0 {
				t.Fatalf("%s file left %d vectors behind", name, n)
			}
		}
		// Wrong dimension is refused.
		other := newIndex(t, Dims+8)
		if err := other.(vector.Persistent).Load(bytes.NewReader(saved)); !errors.Is(err, apperr.ErrInvalid) {
			t.Fatalf("loading into another dimension: err = %v, want ErrInvalid", err)
		}
	})
}

// Clusters is a mixture of Gaussian topics on the unit sphere, the shape real embeddings
// have: topics, with spread inside each. Data and queries drawn from the same Clusters share
// their topics.
type Clusters struct {
	// Spread is the noise's standard deviation per coordinate relative to the centres'
	// (default 0.6). At 1.0 a vector's cosine with its centre is about 0.7.
	Spread  float64
	dims    int
	centres [][]float32
}

// NewClusters draws k random topic centres (seeded).
func NewClusters(dims, k int, seed uint64) *Clusters {
	rng := rand.New(rand.NewPCG(seed, 0x9e3779b97f4a7c15))
	c := &Clusters{Spread: 0.6, dims: dims, centres: make([][]float32, k)}
	for i := range c.centres {
		c.centres[i] = gaussian(rng, dims, 1)
	}
	return c
}

// Draw returns n unit vectors, each a random centre plus Gaussian noise (seeded).
func (c *Clusters) Draw(n int, seed uint64) [][]float32 {
	rng := rand.New(rand.NewPCG(seed, 0xda3e39cb94b95bdb))
	out := make([][]float32, n)
	for i := range out {
		centre := c.centres[rng.IntN(len(c.centres))]
		v := gaussian(rng, c.dims, c.Spread)
		for j := range v {
			v[j] += centre[j]
		}
		vector.Normalize(v)
		out[i] = v
	}
	return out
}

// Clustered draws n vectors from a fresh set of clusters; the same seed gives the same data.
func Clustered(n, dims, clusters int, seed uint64) [][]float32 {
	return NewClusters(dims, clusters, seed).Draw(n, seed)
}

func gaussian(rng *rand.Rand, dims int, sigma float64) []float32 {
	v := make([]float32, dims)
	for j := range v {
		v[j] = float32(rng.NormFloat64() * sigma)
	}
	return v
}

func unit(dims, axis int) []float32 {
	v := make([]float32, dims)
	v[axis%dims] = 1
	return v
}

func load(t *testing.T, ix, ref vector.Index, data [][]float32) {
	t.Helper()
	for i, v := range data {
		mustUpsert(t, ix, int64(i), v)
		if ref != nil {
			mustUpsert(t, ref, int64(i), v)
		}
	}
}

func mustUpsert(t *testing.T, ix vector.Index, id int64, v []float32) {
	t.Helper()
	if err := ix.Upsert(context.Background(), id, v); err != nil {
		t.Fatalf("Upsert(%d): %v", id, err)
	}
}

func mustSearch(t *testing.T, ix vector.Index, q []float32, k int, f vector.Filter) []vector.Hit {
	t.Helper()
	hits, err := ix.Search(context.Background(), q, k, f)
	if err != nil {
		t.Fatalf("Search: %v", err)
	}
	if len(hits) > k {
		t.Fatalf("Search returned %d hits for k=%d", len(hits), k)
	}
	return hits
}

func checkSorted(t *testing.T, hits []vector.Hit) {
	t.Helper()
	for i := 1; i < len(hits); i++ {
		if hits[i].Score > hits[i-1].Score {
			t.Fatalf("hits not best first: %v", hits)
		}
	}
}

// checkScores recomputes every score as the cosine of the stored and query vectors.
func checkScores(t *testing.T, hits []vector.Hit, data [][]float32, q []float32) {
	t.Helper()
	for _, h := range hits {
		if want := cosine(data[h.ID], q); !near(h.Score, want) {
			t.Fatalf("score of %d = %v, want cosine %v", h.ID, h.Score, want)
		}
	}
}

func cosine(a, b []float32) float32 {
	var ab, aa, bb float64
	for i := range a {
		ab += float64(a[i]) * float64(b[i])
		aa += float64(a[i]) * float64(a[i])
		bb += float64(b[i]) * float64(b[i])
	}
	return float32(ab / math.Sqrt(aa*bb))
}

func near(a, b float32) bool { return math.Abs(float64(a-b)) < 2e-3 }

func dedupeHits(h []vector.Hit) map[int64]bool {
	out := map[int64]bool{}
	for _, x := range h {
		out[x.ID] = true
	}
	return out
}

func sameIDs(a, b []vector.Hit) bool {
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
