package hnswindex

import (
	"github.com/firmoapi/firmo/shared/vector"
)

// Rows gives the full-precision vector an id was upserted with (unit length), or nil when it
// has none. An index given one (SetRows) re-ranks the final candidates of every search on
// those rows, ties broken by id, so its answers are those of an exact float32 scan over the
// candidates it found: recall 1.0 by id is reachable at a finite ef, which half-precision
// distances alone cannot give (two neighbours closer than the rounding can swap). The index
// keeps no copy: contact search already holds every contact's vector.
type Rows func(id int64) []float32

// SetRows sets (nil: removes) the full-precision rows searches re-rank on. Not saved with
// the graph (a search setting, like EfSearch).
func (x *Index) SetRows(rows Rows) {
	x.mu.Lock()
	x.rows = rows
	x.mu.Unlock()
}

// halfError bounds how far a half-precision score can be from the full-precision one for a
// unit query and a unit row: rounding moves each component by at most 2^-11 of itself, so
// the sum moves by at most 2^-11 * sum|q_i v_i| <= 2^-11 (Cauchy-Schwarz), plus the float32
// rounding of the two sums.
const halfError = 1.0/2048 + 1e-5

// rerank returns the k best of cands by full-precision score. cands carry half-precision
// scores; only those within 2*halfError of the k-th best can reach the top k (a candidate
// below that line scores, in full, under every one of the k best), so only they are read
// again. Called under the read lock with x.rows set.
func (x *Index) rerank(q []float32, k int, cands []vector.Hit) []vector.Hit {
	if len(cands) == 0 {
		return cands
	}
	line := float32(-2)
	if len(cands) > k {
		kth := vector.NewTopK(k)
		for _, c := range cands {
			kth.Push(c)
		}
		line = kth.Worst() - 2*halfError
	}
	top := vector.NewTopK(k)
	for _, c := range cands {
		if c.Score < line {
			continue
		}
		if row := x.rows(c.ID); len(row) == x.dims {
			c.Score = vector.Dot(q, row)
		}
		top.Push(c)
	}
	return top.Sorted()
}

// exactRerank re-ranks an exact plan's answer: the plan (a half-precision scan for the kk
// best) is asked for more than k until the last of what it gives lies more than
// 2*halfError under the k-th (then nothing it left out can reach the top k) or it has given
// everything it admits.
func (x *Index) exactRerank(q []float32, k int, scan func(kk int) ([]vector.Hit, error)) ([]vector.Hit, error) {
	for kk := 2*k + 8; ; kk *= 4 {
		hits, err := scan(kk)
		if err != nil {
			return nil, err
		}
		if len(hits) < kk || hits[len(hits)-1].Score < hits[k-1].Score-2*halfError {
			return x.rerank(q, k, hits), nil
		}
	}
}

// graphCands lists every id the filter admits on the nodes of a layer-0 search's result,
// with its half-precision score.
func (x *Index) graphCands(w []cand, allowID func(int64) bool) []vector.Hit {
	out := make([]vector.Hit, 0, len(w))
	for _, c := range w {
		if id := x.ids[c.n]; allowID == nil || allowID(id) {
			out = append(out, vector.Hit{ID: id, Score: 1 - c.d})
		}
		if !x.isShared(c.n) {
			continue
		}
		for _, id := range x.more[c.n] {
			if allowID == nil || allowID(id) {
				out = append(out, vector.Hit{ID: id, Score: 1 - c.d})
			}
		}
	}
	return out
}
