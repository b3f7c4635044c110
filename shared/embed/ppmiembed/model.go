package ppmiembed

import (
	"bufio"
	"hash/fnv"
	"maps"
	"math"
	"slices"
	"sort"
	"strings"
)

// model is what training produces: a vector per vocabulary word, the words' frequencies (for
// weighting) and an index from hashed character n-grams to the words containing them (for
// unseen words).
type model struct {
	dims   int
	vocab  map[string]int32
	words  []string
	vecs   []float32 // len(words)*dims, unit rows
	weight []float32 // SIF weight a/(a+p(w)) per word
	grams  map[uint32][]int32
}

// Training constants, chosen on the corpus and checked by the tests' triplets.
const (
	minCount    = 2    // rarer words are left to the subword fallback
	ctxAlpha    = 0.75 // context distribution smoothing of PPMI (Levy et al., 2015)
	selfWeight  = 0.35 // share of a word's own random signature in its vector
	sifA        = 1e-3 // smooth inverse frequency weight a/(a+p) (Arora et al., 2017)
	unknownP    = 1e-5 // word probability assumed for a word outside the vocabulary
	subwordMix  = 0.8  // learned part of an unseen word's vector; the rest is its n-gram hash
	smoothing   = 0.5  // weight of neighbours' vectors in the one propagation step
	gramMaxPost = 400  // n-grams shared by more words than this say little: skipped
	subwordTop  = 8    // known words an unseen word borrows its meaning from
)

// train learns the model from corpus lines (one title, skill list or summary per line;
// lines starting with '#' are comments). Words of one line are each other's contexts.
func train(corpus string, dims int) *model {
	m := &model{dims: dims, vocab: map[string]int32{}, grams: map[uint32][]int32{}}
	var lines [][]string
	counts := map[string]int{}
	sc := bufio.NewScanner(strings.NewReader(corpus))
	for sc.Scan() {
		line := sc.Text()
		if strings.HasPrefix(line, "#") {
			continue
		}
		toks := tokens(line)
		lines = append(lines, toks)
		for _, t := range toks {
			counts[t]++
		}
	}
	total := 0
	for _, t := range slices.Sorted(maps.Keys(counts)) {
		if counts[t] >= minCount {
			m.vocab[t] = int32(len(m.words))
			m.words = append(m.words, t)
			total += counts[t]
		}
	}
	v := len(m.words)

	// Co-occurrence counts within a line, as sparse rows.
	co := make([]map[int32]float32, v)
	for i := range co {
		co[i] = map[int32]float32{}
	}
	for _, toks := range lines {
		ids := make([]int32, 0, len(toks))
		for _, t := range toks {
			if id, ok := m.vocab[t]; ok {
				ids = append(ids, id)
			}
		}
		for i, a := range ids {
			for j, b := range ids {
				if i != j && a != b {
					co[a][b]++
				}
			}
		}
	}

	// PPMI with smoothed context probabilities.
	rowSum := make([]float64, v)
	colPow := make([]float64, v)
	var all, allPow float64
	for w, row := range co {
		for c, n := range row {
			rowSum[w] += float64(n)
			colPow[c] += float64(n)
		}
	}
	for c := range colPow {
		all += colPow[c]
		colPow[c] = math.Pow(colPow[c], ctxAlpha)
		allPow += colPow[c]
	}
	ctx := make([][]float32, v) // random context signatures
	for c := range ctx {
		ctx[c] = signature(m.words[c], dims)
	}
	raw := make([]float32, v*dims)
	ppmi := make([]map[int32]float32, v)
	for w, row := range co {
		ppmi[w] = map[int32]float32{}
		out := raw[w*dims : (w+1)*dims]
		for _, c := range rowKeys(row) {
			n := row[c]
			pmi := math.Log(float64(n) * all * allPow / (rowSum[w] * colPow[c] * all))
			if pmi <= 0 {
				continue
			}
			ppmi[w][c] = float32(pmi)
			axpy(out, float32(pmi), ctx[c])
		}
		normalize(out)
	}

	// One propagation step: a word also takes on its strongest contexts' vectors, so words
	// that never share a line but share neighbours ("VP" and "Head") come closer.
	m.vecs = make([]float32, v*dims)
	for w := 0; w < v; w++ {
		out := m.vecs[w*dims : (w+1)*dims]
		copy(out, raw[w*dims:(w+1)*dims])
		var sum float32
		cs := rowKeys(ppmi[w])
		for _, c := range cs {
			sum += ppmi[w][c]
		}
		if sum > 0 {
			for _, c := range cs {
				axpy(out, smoothing*ppmi[w][c]/sum, raw[int(c)*dims:(int(c)+1)*dims])
			}
		}
		normalize(out)
		addSignature(out, m.words[w]+"\x00self", selfWeight)
		normalize(out)
	}

	m.weight = make([]float32, v)
	for w, t := range m.words {
		p := float64(counts[t]) / float64(total)
		m.weight[w] = float32(sifA / (sifA + p))
		if levelWords[t] {
			m.weight[w] *= levelWeight
		}
	}
	for w, t := range m.words {
		for _, g := range ngrams(t) {
			h := hash32(g)
			m.grams[h] = append(m.grams[h], int32(w))
		}
	}
	return m
}

// subword builds an unseen word's vector from the known words sharing its character
// n-grams (the subwordTop best, weighted by the squared sum of the shared n-grams' rarity),
// plus a hashed signature of the n-grams themselves, so two spellings of one unknown name
// still match.
func (m *model) subword(tok string, out []float32) {
	clear(out)
	score := make([]float32, len(m.words))
	var touched []int32
	sig := make([]float32, m.dims)
	for _, g := range ngrams(tok) {
		addSignature(sig, "\x00gram"+g, 1)
		post := m.grams[hash32(g)]
		if len(post) == 0 || len(post) > gramMaxPost {
			continue
		}
		idf := float32(math.Log(1 + float64(len(m.words))/float64(len(post))))
		for _, w := range post {
			if score[w] == 0 {
				touched = append(touched, w)
			}
			score[w] += idf
		}
	}
	sort.Slice(touched, func(i, j int) bool {
		if score[touched[i]] != score[touched[j]] {
			return score[touched[i]] > score[touched[j]]
		}
		return touched[i] < touched[j]
	})
	for _, w := range touched[:min(len(touched), subwordTop)] {
		s := score[w]
		axpy(out, s*s, m.vecs[int(w)*m.dims:(int(w)+1)*m.dims])
	}
	normalize(sig)
	if normalize(out) {
		scale(out, subwordMix)
		axpy(out, 1-subwordMix, sig)
	} else {
		copy(out, sig)
	}
	normalize(out)
}

// signature is a deterministic random unit vector for a string: a projection axis that
// does not depend on vocabulary order, so retraining on a longer corpus keeps old words'
// coordinates stable. Its values are +-1/sqrt(dims) drawn from a hash-seeded splitmix64
// stream (random signs preserve cosines as well as Gaussians do, and cost one 64-bit step
// per 64 values).
func signature(s string, dims int) []float32 {
	v := make([]float32, dims)
	addSignature(v, s, 1)
	return v
}

// addSignature adds a * signature(s) to dst.
func addSignature(dst []float32, s string, a float32) {
	h := fnv.New64a()
	h.Write([]byte(s))
	state := h.Sum64()
	unit := a / float32(math.Sqrt(float64(len(dst))))
	for i := 0; i < len(dst); i += 64 {
		state += 0x9e3779b97f4a7c15
		z := state
		z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9
		z = (z ^ (z >> 27)) * 0x94d049bb133111eb
		z ^= z >> 31
		for j := i; j < min(i+64, len(dst)); j++ {
			if z&1 == 1 {
				dst[j] += unit
			} else {
				dst[j] -= unit
			}
			z >>= 1
		}
	}
}

func hash32(s string) uint32 {
	h := fnv.New32a()
	h.Write([]byte(s))
	return h.Sum32()
}

func axpy(y []float32, a float32, x []float32) {
	for i := range y {
		y[i] += a * x[i]
	}
}

func scale(y []float32, a float32) {
	for i := range y {
		y[i] *= a
	}
}

// normalize scales v to unit length and reports whether it had any length.
func normalize(v []float32) bool {
	var s float64
	for _, x := range v {
		s += float64(x) * float64(x)
	}
	if s == 0 {
		return false
	}
	inv := float32(1 / math.Sqrt(s))
	scale(v, inv)
	return true
}

// rowKeys are a sparse row's columns in order: float sums taken in map order differ in their
// last bits from run to run, and so would every vector (and the fingerprint of a persisted
// graph built from them).
func rowKeys(row map[int32]float32) []int32 { return slices.Sorted(maps.Keys(row)) }
