package hnswindex

import (
	"math"

	"github.com/firmoapi/firmo/shared/vector"
)

// A Compact index (Config.Compact) keeps no half-precision rows: each node's vector is its
// 8-bit codes, the scale that makes them a unit vector and a residual, quantized from the
// normalized vector it was upserted with (vector.QuantizeUnit): 392 bytes for 384 dims where
// a half-precision row takes 768. The build and the walk score on the codes; a unit query's
// score on a node's codes is within vector.UnitCodesBound(residual) of the vector's own, so
// of the candidates a search found, only those whose upper bound reaches the k-th best lower
// bound can be in the top k, and only those are scored again on the caller's full-precision
// rows (SetRows), ties broken by id. Ids share a node when their codes are equal (the scale
// follows from the codes): each such id's codes are then exactly its own, the node keeps the
// largest residual of the vectors that joined it, so the bound holds for every id on the
// node, and each is re-scored on its own row.

// fullScore is id's score on its full-precision row, or approx (the codes' score) when the
// index has no rows or none for id.
func (x *Index) fullScore(q []float32, id int64, approx float32) float32 {
	if x.rows == nil {
		return approx
	}
	if row := x.rows(id); len(row) == x.dims {
		return vector.Dot(q, row)
	}
	return approx
}

// codesBound is how far a unit query's score on node n's codes can be from its score on
// the vector of any id on n.
func (x *Index) codesBound(n uint32) float32 { return vector.UnitCodesBound(x.resids[n]) }

// widenResid raises node n's residual to that of the vector k, which joins it. Called under
// the write lock.
func (x *Index) widenResid(n uint32, k vecKey) {
	if x.compact {
		x.resids[n] = max(x.resids[n], k.resid)
	}
}

// rerankCodes returns the k best ids of a compact walk's result w (distances on the codes):
// every id of a node whose upper bound reaches the k-th best lower bound, re-scored on its
// full-precision row. Called under the read lock.
func (x *Index) rerankCodes(q []float32, k int, w []cand, allowID func(int64) bool) []vector.Hit {
	lower := vector.NewTopK(k)
	for _, c := range w {
		x.push(lower, c.n, 1-c.d-x.codesBound(c.n), allowID)
	}
	line := float32(math.Inf(-1))
	if lower.Full() {
		line = lower.Worst()
	}
	top := vector.NewTopK(k)
	for _, c := range w {
		approx := 1 - c.d
		if approx+x.codesBound(c.n) < line {
			continue
		}
		x.pushFull(top, q, c.n, approx, allowID)
	}
	return top.Sorted()
}

// pushFull offers every id of live node n that allow passes (nil: every id), each at its
// full-precision score (approx, the codes' score, without rows).
func (x *Index) pushFull(top *vector.TopK, q []float32, n uint32, approx float32, allow func(int64) bool) {
	if id := x.ids[n]; allow == nil || allow(id) {
		top.Push(vector.Hit{ID: id, Score: x.fullScore(q, id, approx)})
	}
	if !x.isShared(n) {
		return
	}
	for _, id := range x.more[n] {
		if allow == nil || allow(id) {
			top.Push(vector.Hit{ID: id, Score: x.fullScore(q, id, approx)})
		}
	}
}
