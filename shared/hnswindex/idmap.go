package hnswindex

// idMap maps persona ids to nodes. Persona ids are mostly small dense integers, so those sit
// in a slice (one cache miss per lookup, where a hash map takes several: it matters when a
// filtered search looks up thousands of candidates); any other id goes to a map.
type idMap struct {
	dense  []uint32 // dense[id] = node+1; 0 means absent
	sparse map[int64]uint32
	n      int
}

func newIDMap() idMap { return idMap{sparse: map[int64]uint32{}} }

func (m *idMap) get(id int64) (uint32, bool) {
	if id >= 0 && id < int64(len(m.dense)) && m.dense[id] != 0 {
		return m.dense[id] - 1, true
	}
	n, ok := m.sparse[id]
	return n, ok
}

func (m *idMap) set(id int64, node uint32) {
	if _, ok := m.sparse[id]; ok {
		m.sparse[id] = node
		return
	}
	// The slice may grow to sixteen times the ids held (at least 64k entries: 64 bytes per
	// id at worst), so a handful of huge ids cannot make it large, while ids spread one in
	// ten over their range still land in it as they arrive in ascending order (with four
	// times, every id past a quarter density went to the map: at a million contacts whose
	// ids span seven million, 40% of the lookups of a candidate list were hash lookups).
	limit := int64(max(1<<16, 16*(m.n+1)))
	if id >= 0 && id < limit {
		if id >= int64(len(m.dense)) {
			grown := make([]uint32, min(max(id+1, int64(2*len(m.dense))), limit))
			copy(grown, m.dense)
			m.dense = grown
		}
		if m.dense[id] == 0 {
			m.n++
		}
		m.dense[id] = node + 1
		return
	}
	m.sparse[id] = node
	m.n++
}

func (m *idMap) del(id int64) {
	if id >= 0 && id < int64(len(m.dense)) && m.dense[id] != 0 {
		m.dense[id] = 0
		m.n--
		return
	}
	if _, ok := m.sparse[id]; ok {
		delete(m.sparse, id)
		m.n--
	}
}

func (m *idMap) len() int { return m.n }
