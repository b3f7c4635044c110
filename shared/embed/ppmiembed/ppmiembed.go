// Package ppmiembed is the built-in adapter of the embed.Embedder port: 384-dimension text
// vectors learned from the corpus committed beside it (corpus.txt: job titles, skills and
// profile summaries in English, German, French and Spanish), with no network and no model
// file.
//
// Method (see README "Vector search"):
//  1. Text is lowercased, accents are folded and abbreviations expanded ("Sr." -> senior);
//     stopwords of the four languages and bare numbers are dropped.
//  2. Words of one corpus line are each other's contexts. Their counts become positive
//     pointwise mutual information (PPMI) with smoothed context probabilities.
//  3. Each word's PPMI row is projected onto 384 dimensions by random projection: every
//     context word has a fixed random signature (seeded by a hash of the word) and a word's
//     vector is the PPMI-weighted sum of its contexts' signatures, which keeps the rows'
//     cosines (Johnson-Lindenstrauss). One propagation step mixes in the vectors of a
//     word's contexts, and a small share of the word's own signature keeps exact matches
//     strong.
//  4. A text's vector is the smooth-inverse-frequency weighted mean of its words' vectors,
//     normalized: frequent words ("manager", "senior") count less than rare ones ("payroll").
//  5. A word outside the vocabulary is placed by its character 3- to 5-grams (hashed): the
//     mean of the known words sharing them, plus a hashed signature of the n-grams.
//
// Neighbours lists a vocabulary word's nearest words. The space is topical (words are
// near when they share corpus lines and contexts), not a thesaurus: at cosine >= 0.80,
// above the 99.9th percentile of random word pairs (0.78), "customer" has retention,
// success and churn, "marketing" content, social, brand and sem, "windows" server, "sql"
// learn, scikit and bi; "kubernetes" has none (kafka is at 0.77) and "payroll" none.
//
// Training runs once, lazily, on the first Embed (about a fifth of a second; see the
// benchmark), so constructing the embedder costs nothing at Lambda start-up.
package ppmiembed

import (
	"context"
	_ "embed"
	"fmt"
	"sync"

	"github.com/firmoapi/firmo/shared/embed"
)

//go:generate go run ./internal/corpusgen -o corpus.txt

//go:embed corpus.txt
var corpus string

// Dims is the length of the built-in vectors, the dimension of the contact index.
const Dims = 384

// Embedder is the built-in embedder. The zero value is not usable; call New.
type Embedder struct {
	once sync.Once
	m    *model

	mu      sync.Mutex
	unknown map[string][]float32 // vectors of words outside the vocabulary, built once each
}

// maxCached bounds the unknown-word cache (names and rare words; 384 floats each).
const maxCached = 50_000

var _ embed.Embedder = (*Embedder)(nil)

// New returns the built-in embedder. It does no work until the first Embed or Warm.
func New() *Embedder { return &Embedder{} }

// Dims implements embed.Embedder.
func (e *Embedder) Dims() int { return Dims }

// Warm trains the model now instead of on the first Embed.
func (e *Embedder) Warm() { e.model() }

func (e *Embedder) model() *model {
	e.once.Do(func() { e.m = train(corpus, Dims) })
	return e.m
}

// VocabSize is the number of words learned from the corpus.
func (e *Embedder) VocabSize() int { return len(e.model().words) }

// Embed implements embed.Embedder.
func (e *Embedder) Embed(ctx context.Context, texts []string) ([][]float32, error) {
	if err := embed.CheckTexts(texts); err != nil {
		return nil, err
	}
	if err := ctx.Err(); err != nil {
		return nil, fmt.Errorf("embed: %w", err)
	}
	m := e.model()
	out := make([][]float32, len(texts))
	buf := make([]float32, Dims)
	for i, t := range texts {
		out[i] = e.text(m, t, buf)
	}
	return out, nil
}

// wordVector returns a token's vector and weight, caching those built from subwords.
func (e *Embedder) wordVector(m *model, tok string, buf []float32) ([]float32, float32) {
	if id, ok := m.vocab[tok]; ok {
		return m.vecs[int(id)*m.dims : (int(id)+1)*m.dims], m.weight[id]
	}
	w := float32(sifA / (sifA + unknownP))
	e.mu.Lock()
	v, ok := e.unknown[tok]
	e.mu.Unlock()
	if ok {
		return v, w
	}
	m.subword(tok, buf)
	v = append([]float32(nil), buf...)
	e.mu.Lock()
	if e.unknown == nil {
		e.unknown = map[string][]float32{}
	}
	if len(e.unknown) < maxCached {
		e.unknown[tok] = v
	}
	e.mu.Unlock()
	return v, w
}

// text embeds one text: the weighted mean of its words' vectors, or, for a text with no
// word left after stopwords ("of the"), the hashed signature of the text itself.
func (e *Embedder) text(m *model, t string, buf []float32) []float32 {
	v := make([]float32, m.dims)
	for _, tok := range tokens(t) {
		wv, w := e.wordVector(m, tok, buf)
		axpy(v, w, wv)
	}
	if !normalize(v) {
		copy(v, signature("\x00text"+fold(t), m.dims))
	}
	return v
}
