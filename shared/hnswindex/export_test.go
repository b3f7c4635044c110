package hnswindex

import (
	"unsafe"

	"github.com/firmoapi/firmo/shared/vector"
)

// Plan tells tests which way a filtered search would run.
func (x *Index) Plan(f vector.Filter) string {
	x.mu.RLock()
	defer x.mu.RUnlock()
	switch p := x.plan(f, 10); {
	case !p.Exact:
		return "graph"
	case f.IDs != nil:
		return "exact-ids"
	}
	return "exact-scan"
}

// HalfScan is the one-pass reference of the exact plans: every live id allow passes (nil:
// all), scored on its half-precision row.
func (x *Index) HalfScan(q []float32, k int, allow func(int64) bool) []vector.Hit {
	x.mu.RLock()
	defer x.mu.RUnlock()
	q = append([]float32(nil), q...)
	vector.Normalize(q)
	top := vector.NewTopK(k)
	for n := range x.ids {
		if !x.dead[n] {
			x.push(top, uint32(n), 1-x.dist(q, uint32(n)), allow)
		}
	}
	return top.Sorted()
}

// SlabData is where the vector and layer-0 slabs start (a moved slab was regrown).
func (x *Index) SlabData() (*uint16, *uint32) {
	x.mu.RLock()
	defer x.mu.RUnlock()
	return unsafe.SliceData(x.vecs), unsafe.SliceData(x.links0)
}

// Nodes counts the graph's nodes, tombstones included.
func (x *Index) Nodes() int {
	x.mu.RLock()
	defer x.mu.RUnlock()
	return len(x.ids)
}

// VectorBytes is how many bytes the index's vectors take: half-precision rows, codes and
// their scales.
func (x *Index) VectorBytes() int {
	x.mu.RLock()
	defer x.mu.RUnlock()
	return 2*len(x.vecs) + len(x.codes) + 4*len(x.scales) + 4*len(x.resids)
}
