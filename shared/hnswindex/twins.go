package hnswindex

// twinTable finds the node that holds a vector: open addressing over node numbers (node+1,
// 0 for an empty slot) at the rows' hashes, probed linearly and kept at most half full. A
// slot is 4 bytes, so a node costs 8 to 16 bytes where a Go map from hash to node took 30 to
// 40; the price is that a probe compares rows (its first value first, which rules out
// nearly every other row at once) since no hash is stored. Written here because no
// package served to this project offers such a table. Called under the index's locks.
type twinTable struct {
	slots []uint32
	n     int
}

// find returns the node that holds the vector k, if any; h is k.hash().
func (t *twinTable) find(x *Index, h uint64, k vecKey) (uint32, bool) {
	if len(t.slots) == 0 {
		return 0, false
	}
	mask := uint64(len(t.slots) - 1)
	for i := h & mask; ; i = (i + 1) & mask {
		s := t.slots[i]
		if s == 0 {
			return 0, false
		}
		if n := s - 1; x.holds(n, k) {
			return n, true
		}
	}
}

// add records node (whose vecKey hashes to h), growing the table when it would pass half.
func (t *twinTable) add(x *Index, h uint64, node uint32) {
	if 2*(t.n+1) > len(t.slots) {
		t.resize(x, max(2*(t.n+1), 1024))
	}
	mask := uint64(len(t.slots) - 1)
	i := h & mask
	for t.slots[i] != 0 {
		i = (i + 1) & mask
	}
	t.slots[i] = node + 1
	t.n++
}

// resize makes room for want entries at most half full and places every recorded node
// again (their hashes recomputed from their rows).
func (t *twinTable) resize(x *Index, want int) {
	size := 1024
	for size < 2*want {
		size *= 2
	}
	if size <= len(t.slots) {
		return
	}
	old := t.slots
	t.slots, t.n = make([]uint32, size), 0
	mask := uint64(size - 1)
	for _, s := range old {
		if s == 0 {
			continue
		}
		i := x.keyOf(s-1).hash() & mask
		for t.slots[i] != 0 {
			i = (i + 1) & mask
		}
		t.slots[i] = s
		t.n++
	}
}

func equalRows(a, b []uint16) bool {
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}
