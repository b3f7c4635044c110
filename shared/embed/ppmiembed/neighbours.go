package ppmiembed

import "sort"

// Neighbours returns up to k vocabulary words whose vectors are nearest word's, nearest
// first, each with a cosine of at least minCos; word itself is left out. word is folded
// and abbreviations expanded as in Embed ("Sr." is "senior"). A word outside the learned
// vocabulary, a stopword or a text of several words has no neighbours: a subword guess
// is good enough to place a text, not to vouch for a synonym.
func (e *Embedder) Neighbours(word string, k int, minCos float32) []string {
	toks := tokens(word)
	if len(toks) != 1 || k <= 0 {
		return nil
	}
	m := e.model()
	id, ok := m.vocab[toks[0]]
	if !ok {
		return nil
	}
	q := m.vecs[int(id)*m.dims : (int(id)+1)*m.dims]
	type hit struct {
		w   int32
		cos float32
	}
	var hits []hit
	for w := range m.words {
		if int32(w) == id {
			continue
		}
		if c := dot(q, m.vecs[w*m.dims:(w+1)*m.dims]); c >= minCos {
			hits = append(hits, hit{int32(w), c})
		}
	}
	sort.Slice(hits, func(i, j int) bool {
		if hits[i].cos != hits[j].cos {
			return hits[i].cos > hits[j].cos
		}
		return hits[i].w < hits[j].w
	})
	out := make([]string, 0, min(k, len(hits)))
	for _, h := range hits[:min(k, len(hits))] {
		out = append(out, m.words[h.w])
	}
	return out
}

func dot(a, b []float32) float32 {
	var s float32
	for i := range a {
		s += a[i] * b[i]
	}
	return s
}
