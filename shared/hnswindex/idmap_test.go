package hnswindex

import (
	"math"
	"math/rand/v2"
	"testing"
)

// TestIDMapMatchesMap drives idMap and a plain map with the same random operations over
// dense, huge and negative ids.
func TestIDMapMatchesMap(t *testing.T) {
	m := newIDMap()
	ref := map[int64]uint32{}
	rng := rand.New(rand.NewPCG(1, 2))
	pick := func() int64 {
		switch rng.IntN(4) {
		case 0:
			return rng.Int64N(1 << 40)
		case 1:
			return -rng.Int64N(1000) - 1
		case 2:
			return math.MaxInt64 - rng.Int64N(10)
		}
		return rng.Int64N(300_000)
	}
	for i := 0; i < 200_000; i++ {
		id := pick()
		if rng.IntN(4) == 0 {
			m.del(id)
			delete(ref, id)
		} else {
			node := uint32(rng.IntN(1 << 30))
			m.set(id, node)
			ref[id] = node
		}
		if m.len() != len(ref) {
			t.Fatalf("step %d: len = %d, want %d", i, m.len(), len(ref))
		}
	}
	for id, want := range ref {
		if got, ok := m.get(id); !ok || got != want {
			t.Fatalf("get(%d) = %d, %v; want %d", id, got, ok, want)
		}
	}
	for i := 0; i < 10_000; i++ {
		id := pick()
		_, ok := m.get(id)
		if _, want := ref[id]; ok != want {
			t.Fatalf("get(%d) present = %v, want %v", id, ok, want)
		}
	}
}

// TestIDMapSparseIDsStayDense: ids one in ten over their range, added in ascending order
// (a graph build over contacts sorted by persona id), all land in the slice.
func TestIDMapSparseIDsStayDense(t *testing.T) {
	m := newIDMap()
	for i := range 200_000 {
		m.set(int64(i)*10+3, uint32(i))
	}
	if len(m.sparse) != 0 {
		t.Fatalf("%d of 200000 ids went to the map", len(m.sparse))
	}
	if n, ok := m.get(1_999_993); !ok || n != 199_999 {
		t.Fatalf("get = %d, %v", n, ok)
	}
}
