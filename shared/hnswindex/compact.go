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
func (x *Index) rerankCodes(q []float32, k int, w []cand, allowID func(int64) bool, vis *visited) []vector.Hit {
	lower := vector.NewTopK(k)
	for _, c := range w {
		x.push(lower, c.n, 1-c.d-x.codesBound(c.n), allowID)
	}
	line := float32(math.Inf(-1))
	if lower.Full() {
		line = lower.Worst()
	}
	pend := vis.pend[:0]
	for _, c := range w {
		if approx := 1 - c.d; approx+x.codesBound(c.n) >= line {
			pend = x.addFull(pend, c.n, approx, allowID)
		}
	}
	vis.pend = pend
	top := vector.NewTopK(k)
	x.scoreFull(q, pend, top)
	return top.Sorted()
}

// rowCand is an id to score on its full-precision row (nil: none, keep approx).
type rowCand struct {
	id     int64
	approx float32
	row    []float32
}

// addFull appends every id of live node n that allow passes (nil: every id), with its
// row and the codes' score approx.
func (x *Index) addFull(pend []rowCand, n uint32, approx float32, allow func(int64) bool) []rowCand {
	if id := x.ids[n]; allow == nil || allow(id) {
		pend = append(pend, rowCand{id, approx, x.rowOf(id)})
	}
	if !x.isShared(n) {
		return pend
	}
	for _, id := range x.more[n] {
		if allow == nil || allow(id) {
			pend = append(pend, rowCand{id, approx, x.rowOf(id)})
		}
	}
	return pend
}

// rowOf is id's full-precision row, nil when the index has none for it.
func (x *Index) rowOf(id int64) []float32 {
	if x.rows == nil {
		return nil
	}
	if row := x.rows(id); len(row) == x.dims {
		return row
	}
	return nil
}

// rowChunk is how many rows scoreFull requests before it scores them, and rowLines how
// many cache lines of each (the hardware streams the rest of a row).
const rowChunk, rowLines = 16, 8

// scoreFull pushes each candidate at its full-precision score (approx without a row),
// requesting a chunk's rows before scoring them so their cache misses overlap.
func (x *Index) scoreFull(q []float32, pend []rowCand, top *vector.TopK) {
	for start := 0; start < len(pend); start += rowChunk {
		chunk := pend[start:min(start+rowChunk, len(pend))]
		for _, p := range chunk {
			vector.PrefetchRow(p.row, rowLines)
		}
		for _, p := range chunk {
			score := p.approx
			if p.row != nil {
				score = vector.Dot(q, p.row)
			}
			top.Push(vector.Hit{ID: p.id, Score: score})
		}
	}
}
