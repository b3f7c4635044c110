package hnswindex

import "sort"

// cand is a node with its distance to the query.
type cand struct {
	d float32
	n uint32
}

// minHeap and maxHeap are typed binary heaps: container/heap's interface calls cost more than
// the distance computations they order at this size.
type minHeap []cand

func (h *minHeap) push(c cand) {
	*h = append(*h, c)
	s := *h
	i := len(s) - 1
	for i > 0 {
		p := (i - 1) / 2
		if s[p].d <= s[i].d {
			break
		}
		s[p], s[i] = s[i], s[p]
		i = p
	}
}

func (h *minHeap) pop() cand {
	s := *h
	top := s[0]
	last := len(s) - 1
	s[0] = s[last]
	s = s[:last]
	*h = s
	i := 0
	for {
		l := 2*i + 1
		if l >= len(s) {
			break
		}
		m := l
		if r := l + 1; r < len(s) && s[r].d < s[l].d {
			m = r
		}
		if s[i].d <= s[m].d {
			break
		}
		s[i], s[m] = s[m], s[i]
		i = m
	}
	return top
}

type maxHeap []cand

func (h maxHeap) top() cand { return h[0] }

func (h *maxHeap) push(c cand) {
	*h = append(*h, c)
	s := *h
	i := len(s) - 1
	for i > 0 {
		p := (i - 1) / 2
		if s[p].d >= s[i].d {
			break
		}
		s[p], s[i] = s[i], s[p]
		i = p
	}
}

func (h *maxHeap) pop() cand {
	s := *h
	top := s[0]
	last := len(s) - 1
	s[0] = s[last]
	s = s[:last]
	*h = s
	i := 0
	for {
		l := 2*i + 1
		if l >= len(s) {
			break
		}
		m := l
		if r := l + 1; r < len(s) && s[r].d > s[l].d {
			m = r
		}
		if s[i].d >= s[m].d {
			break
		}
		s[i], s[m] = s[m], s[i]
		i = m
	}
	return top
}

// sortCands orders candidates nearest first (ties by node number, for reproducible graphs).
func sortCands(c []cand) {
	sort.Slice(c, func(i, j int) bool {
		if c[i].d != c[j].d {
			return c[i].d < c[j].d
		}
		return c[i].n < c[j].n
	})
}
