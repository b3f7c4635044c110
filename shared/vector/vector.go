// Package vector is the nearest-neighbour index port used by contact search: it stores one
// embedding per persona id and answers "the k most similar vectors" by cosine similarity,
// optionally restricted by a filter.
//
// Adapter: hnswindex (embedded approximate HNSW graph, persisted under the data dir). With
// OpenSearch, contact search runs whole in the cluster (contactsearch.Engine, ossearch),
// not through this port. Exact, in this package, is the brute-force reference that tests
// and benchmarks compare it with. The contract suite is vectortest.Run.
package vector

import (
	"cmp"
	"context"
	"fmt"
	"io"
	"math"
	"slices"

	"github.com/firmoapi/firmo/shared/apperr"
)

// Hit is one search result: a persona id and its cosine similarity to the query, in [-1, 1].
type Hit struct {
	ID    int64
	Score float32
}

// Filter restricts a search. The zero value admits every id. When both fields are set an id
// must pass both.
type Filter struct {
	// IDs, when non-nil, is the candidate set: only these ids can be returned. An empty
	// non-nil slice admits nothing. Indexes use its size to choose exact search.
	IDs []int64
	// Allow, when non-nil, must return true for an id to be returned. It must be cheap (a
	// bitmap or map lookup) and safe to call from several goroutines at once: a long exact
	// scan may run in parts on several cores.
	Allow func(id int64) bool
}

// Active reports whether the filter restricts anything.
func (f Filter) Active() bool { return f.IDs != nil || f.Allow != nil }

// Index is the port. Vectors are normalized on the way in, so scores are cosine similarities.
// Errors wrap apperr.ErrInvalid for a bad vector or k. Implementations are safe for
// concurrent use: searches may run while vectors are added.
type Index interface {
	// Dims is the vector length the index accepts.
	Dims() int
	// Upsert stores vec under id, replacing any earlier vector of that id.
	Upsert(ctx context.Context, id int64, vec []float32) error
	// Delete removes id. Deleting an unknown id is not an error.
	Delete(ctx context.Context, id int64) error
	// Search returns up to k hits, best first (ties by ascending id).
	Search(ctx context.Context, query []float32, k int, f Filter) ([]Hit, error)
	// Len is the number of stored vectors.
	Len(ctx context.Context) (int, error)
}

// Persistent is implemented by embedded indexes that can be written to and read back from a
// stream (a file under the data dir). Load replaces the index's whole content.
type Persistent interface {
	Save(w io.Writer) error
	Load(r io.Reader) error
}

// ExactThreshold is the switching rule of filtered search, the one OpenSearch's k-NN plugin
// uses: when candidates x dims is at most this many multiply-adds, scanning the candidates
// exactly is cheaper than walking the graph, and it is always right.
const ExactThreshold = 2_000_000

// UseExact reports whether a filtered search over n candidates of the given dimension should
// scan them exactly.
func UseExact(n, dims int) bool { return n*dims <= ExactThreshold }

// Check validates a vector for an index of the given dimension and returns a normalized copy.
func Check(vec []float32, dims int) ([]float32, error) {
	return CheckInto(nil, vec, dims)
}

// CheckInto is Check writing the normalized copy into dst's memory when it has room (a bulk
// load reuses one buffer instead of leaving a vector's worth of garbage per insert).
func CheckInto(dst, vec []float32, dims int) ([]float32, error) {
	if len(vec) != dims {
		return nil, apperr.Invalid("vector", "vector has %d dimensions, want %d", len(vec), dims)
	}
	out := dst[:0]
	if cap(out) < dims {
		out = make([]float32, dims)
	}
	out = out[:dims]
	copy(out, vec)
	var sum float64
	for _, v := range out {
		if math.IsNaN(float64(v)) || math.IsInf(float64(v), 0) {
			return nil, apperr.Invalid("vector", "vector holds a NaN or infinite value")
		}
		sum += float64(v) * float64(v)
	}
	if sum == 0 {
		return nil, apperr.Invalid("vector", "vector is all zeros and has no direction")
	}
	inv := float32(1 / math.Sqrt(sum))
	for i := range out {
		out[i] *= inv
	}
	return out, nil
}

// CheckK validates the number of results asked for.
func CheckK(k int) error {
	if k <= 0 {
		return apperr.Invalid("k", "k must be at least 1, got %d", k)
	}
	return nil
}

// Normalize scales v to unit length in place; a zero vector stays zero.
func Normalize(v []float32) {
	var sum float64
	for _, x := range v {
		sum += float64(x) * float64(x)
	}
	if sum == 0 {
		return
	}
	inv := float32(1 / math.Sqrt(sum))
	for i := range v {
		v[i] *= inv
	}
}

// Dot is the inner product of two vectors of equal length: the cosine similarity of
// normalized vectors. It is the inner loop of every search: on amd64 with AVX2 and FMA it runs
// an assembly kernel (dot_amd64.s), elsewhere the unrolled loop of dotGeneric.
func Dot(a, b []float32) float32 { return dot(a, b) }

// dotGeneric is unrolled by eight with four independent accumulators (the CPU overlaps their
// adds).
func dotGeneric(a, b []float32) float32 {
	n := len(a)
	b = b[:n]
	var s0, s1, s2, s3 float32
	i := 0
	for ; i+8 <= n; i += 8 {
		aa := a[i : i+8 : i+8]
		bb := b[i : i+8 : i+8]
		s0 += aa[0]*bb[0] + aa[4]*bb[4]
		s1 += aa[1]*bb[1] + aa[5]*bb[5]
		s2 += aa[2]*bb[2] + aa[6]*bb[6]
		s3 += aa[3]*bb[3] + aa[7]*bb[7]
	}
	for ; i < n; i++ {
		s0 += a[i] * b[i]
	}
	return (s0 + s1) + (s2 + s3)
}

// SortHits orders hits best first, ties by ascending id, so results are deterministic.
// slices.SortFunc: 27 µs against sort.Slice's 62 for the 808 hits an exact scan for 400
// sorts, in the same order (it is total).
func SortHits(h []Hit) {
	slices.SortFunc(h, func(a, b Hit) int {
		switch {
		case a.Score > b.Score:
			return -1
		case a.Score < b.Score:
			return 1
		}
		return cmp.Compare(a.ID, b.ID)
	})
}

// TopK keeps the k best hits seen so far in a min-heap on score (worst at the root).
type TopK struct {
	k    int
	hits []Hit
}

// NewTopK returns an empty collector of the k best hits.
func NewTopK(k int) *TopK { return &TopK{k: k, hits: make([]Hit, 0, min(k, 1024))} }

// worse reports whether a ranks below b.
func worse(a, b Hit) bool {
	if a.Score != b.Score {
		return a.Score < b.Score
	}
	return a.ID > b.ID
}

// Push offers a hit.
func (t *TopK) Push(h Hit) {
	if len(t.hits) < t.k {
		t.hits = append(t.hits, h)
		t.up(len(t.hits) - 1)
		return
	}
	if !worse(t.hits[0], h) {
		return
	}
	t.hits[0] = h
	t.down(0)
}

// Full reports whether k hits are held.
func (t *TopK) Full() bool { return len(t.hits) >= t.k }

// Worst is the lowest score held; only meaningful when Full.
func (t *TopK) Worst() float32 { return t.hits[0].Score }

// Sorted returns the hits best first.
func (t *TopK) Sorted() []Hit {
	out := append([]Hit(nil), t.hits...)
	SortHits(out)
	return out
}

func (t *TopK) up(i int) {
	h := t.hits
	for i > 0 {
		p := (i - 1) / 2
		if !worse(h[i], h[p]) {
			break
		}
		h[i], h[p] = h[p], h[i]
		i = p
	}
}

func (t *TopK) down(i int) {
	h := t.hits
	n := len(h)
	for {
		l := 2*i + 1
		if l >= n {
			return
		}
		m := l
		if r := l + 1; r < n && worse(h[r], h[l]) {
			m = r
		}
		if !worse(h[m], h[i]) {
			return
		}
		h[i], h[m] = h[m], h[i]
		i = m
	}
}

// Recall is |got ∩ want| / |want| over ids: the share of the true nearest neighbours an
// approximate search found.
func Recall(got, want []Hit) float64 {
	if len(want) == 0 {
		return 1
	}
	in := make(map[int64]bool, len(want))
	for _, h := range want {
		in[h.ID] = true
	}
	n := 0
	for _, h := range got {
		if in[h.ID] {
			n++
		}
	}
	return float64(n) / float64(len(want))
}

// RecallByScore is recall as ann-benchmarks counts it: a returned hit counts when its score is
// within eps of the k-th true neighbour's, so a neighbour swapped for another at the same
// distance (ties, and the rounding of half-precision storage) is not a miss. Capped at 1.
func RecallByScore(got, want []Hit, eps float32) float64 {
	if len(want) == 0 {
		return 1
	}
	threshold := want[len(want)-1].Score - eps
	n := 0
	for _, h := range got {
		if h.Score >= threshold {
			n++
		}
	}
	return min(1, float64(n)/float64(len(want)))
}

// errCanceled wraps a context error so callers see why a long scan stopped.
func errCanceled(ctx context.Context, op string) error {
	return fmt.Errorf("%s: %w", op, ctx.Err())
}
