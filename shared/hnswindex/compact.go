package hnswindex

import (
	"cmp"
	"math"
	"slices"

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
func (x *Index) rerankCodes(q *query, k int, w []cand, allowID func(int64) bool, vis *visited) []vector.Hit {
	lower := vector.NewTopK(k)
	for _, c := range w {
		x.push(lower, c.n, 1-c.d-x.codesBound(c.n)-q.resid, allowID)
	}
	line := float32(math.Inf(-1))
	if lower.Full() {
		line = lower.Worst()
	}
	pend := vis.pend[:0]
	for _, c := range w {
		if approx, b := 1-c.d, x.codesBound(c.n)+q.resid; approx+b >= line {
			pend = x.addFull(pend, c.n, approx, approx+b, allowID)
		}
	}
	vis.pend = pend
	top := vector.NewTopK(k)
	x.scoreFull(q.v, pend, top)
	return top.Sorted()
}

// query is a walk's query: the unit vector, and in a compact index its 16-bit codes
// (vector.QuantizeQuery), which every node's codes are scored against in integers. A score
// on the query's codes moves by at most resid from the score on the vector (Cauchy-Schwarz
// with unit codes), so a compact walk's bound on a node is codesBound + resid.
type query struct {
	v     []float32
	codes []int16
	scale float32
	resid float32
}

// newQuery is v as a walk's query, kept in vis.
func (x *Index) newQuery(v []float32, vis *visited) *query {
	q := &vis.q
	*q = query{v: v}
	if x.compact {
		if cap(vis.qcodes) < x.dims {
			vis.qcodes = make([]int16, x.dims)
		}
		q.codes = vis.qcodes[:x.dims]
		q.scale, q.resid = vector.QuantizeQuery(q.codes, v)
	}
	return q
}

// qdist is the distance from q to node n: on the codes in a compact index, else on the
// half-precision row.
func (x *Index) qdist(q *query, n uint32) float32 {
	if x.compact {
		return 1 - x.scales[n]*q.scale*float32(vector.DotInt16x8(q.codes, x.codesOf(n)))
	}
	return x.dist(q.v, n)
}

// rowCand is an id to score on its full-precision row (nil: none, keep approx), with the
// upper bound of that score.
type rowCand struct {
	id            int64
	approx, upper float32
	row           []float32
}

// addFull appends every id of live node n that allow passes (nil: every id), with its
// row and the codes' score approx.
func (x *Index) addFull(pend []rowCand, n uint32, approx, upper float32, allow func(int64) bool) []rowCand {
	if id := x.ids[n]; allow == nil || allow(id) {
		pend = append(pend, rowCand{id, approx, upper, x.rowOf(id)})
	}
	if !x.isShared(n) {
		return pend
	}
	for _, id := range x.more[n] {
		if allow == nil || allow(id) {
			pend = append(pend, rowCand{id, approx, upper, x.rowOf(id)})
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
const rowChunk, rowLines = 8, 8

// scoreFull offers top each candidate at its full-precision score (approx without a row).
// Highest upper bound first: once top is full and a candidate's upper bound is below its
// worst score, neither it nor any after it can enter, so their rows are not read (on the
// hnswlib comparison's walks this reads about half the rows the k-th lower bound lets
// through). A chunk's rows are requested before they are scored, so their misses overlap.
func (x *Index) scoreFull(q []float32, pend []rowCand, top *vector.TopK) {
	slices.SortFunc(pend, func(a, b rowCand) int { return cmp.Compare(b.upper, a.upper) })
	for start := 0; start < len(pend); start += rowChunk {
		if top.Full() && pend[start].upper < top.Worst() {
			return
		}
		chunk := pend[start:min(start+rowChunk, len(pend))]
		for _, p := range chunk {
			vector.PrefetchRow(p.row, rowLines)
		}
		for _, p := range chunk {
			if top.Full() && p.upper < top.Worst() {
				return
			}
			score := p.approx
			if p.row != nil {
				score = vector.Dot(q, p.row)
			}
			top.Push(vector.Hit{ID: p.id, Score: score})
		}
	}
}
