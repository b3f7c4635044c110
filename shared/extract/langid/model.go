package langid

import (
	_ "embed"
	"fmt"
	"math"
	"slices"
	"sync"
	"sync/atomic"
	"unicode/utf8"

	"github.com/firmoapi/firmo/shared/extract/langid/internal/modelfile"
)

//go:embed models.bin
var modelData []byte

// shared is the process's one decoded copy of the models, made on first use.
var shared = lazyModel(modelData)

// decodes counts the decodings lazyModel has made, so tests can check that package
// initialisation makes none and that concurrent first use makes one.
var decodes atomic.Int32

// lazyModel returns a function that decodes data on its first call, once, however
// many goroutines call it at the same time, and returns that model from then on.
func lazyModel(data []byte) func() *model {
	return sync.OnceValue(func() *model {
		decodes.Add(1)
		m, err := decode(data)
		if err != nil {
			// The data is embedded and checked by the tests: failing here is a
			// broken build, not a condition a caller could handle.
			panic(fmt.Sprintf("langid: embedded models: %v", err))
		}
		return m
	})
}

// absent marks a language whose model lacks an n-gram; log probabilities are never
// positive, so it cannot be mistaken for one.
const absent = 1.0

// model holds the log probabilities of every n-gram in every language, one row per
// n-gram, so that scoring a trigram costs one map look-up for all languages.
type model struct {
	rows map[string]int32
	logp []float64 // logp[row*numLangs+lang], or absent
}

func decode(data []byte) (*model, error) {
	f, err := modelfile.Decode(data)
	if err != nil {
		return nil, err
	}
	if !slices.Equal(f.Languages, codes[:]) {
		return nil, fmt.Errorf("models are for %v, want %v", f.Languages, codes)
	}
	m := &model{rows: make(map[string]int32, len(f.Ngrams)), logp: f.Prob}
	for i, g := range f.Ngrams {
		m.rows[g] = int32(i)
	}
	for i, p := range m.logp {
		if p == 0 {
			m.logp[i] = absent
		} else {
			m.logp[i] = math.Log(p)
		}
	}
	return m, nil
}

// row returns the row of n-gram g, or -1 when no language has it.
func (m *model) row(g string) int32 {
	if r, ok := m.rows[g]; ok {
		return r
	}
	return -1
}

// mostProbable scores the distinct trigrams of ws in every candidate language and
// returns the language under which the text is most probable. Languages that know
// none of the trigrams, even by their prefixes, take no part, as in lingua.
func (m *model) mostProbable(ws []string, cands langSet) (lang, bool) {
	var sums [numLangs]float64
	seen := make(map[string]struct{}, 64)
	for _, w := range ws {
		for tri := range trigrams(w) {
			if _, dup := seen[tri]; dup {
				continue
			}
			seen[tri] = struct{}{}
			m.addTrigram(&sums, tri, cands)
		}
	}
	return best(&sums, cands)
}

// addTrigram adds the log probability of tri to each candidate's sum, taking the
// bigram prefix where a language lacks the trigram and the first letter where it
// lacks that too.
func (m *model) addTrigram(sums *[numLangs]float64, tri string, cands langSet) {
	_, n1 := utf8.DecodeRuneInString(tri)
	_, n2 := utf8.DecodeRuneInString(tri[n1:])
	backoff := [...]int32{m.row(tri), m.row(tri[:n1+n2]), m.row(tri[:n1])}
	for l := range numLangs {
		if !cands.has(l) {
			continue
		}
		for _, r := range backoff {
			if r < 0 {
				continue
			}
			if lp := m.logp[int(r)*int(numLangs)+int(l)]; lp != absent {
				sums[l] += lp
				break
			}
		}
	}
}

// best picks the candidate with the highest summed log probability. lingua turns
// the sums into shares of their exponentials and answers nothing when the top two
// shares are equal, which happens exactly when the top two sums are.
func best(sums *[numLangs]float64, cands langSet) (lang, bool) {
	top, second := lang(-1), lang(-1)
	for l := range numLangs {
		// lingua leaves out languages whose sum is exactly 0: they know none of
		// the n-grams (or only ones they give probability 1).
		if !cands.has(l) || sums[l] >= 0 {
			continue
		}
		switch {
		case top < 0 || sums[l] > sums[top]:
			top, second = l, top
		case second < 0 || sums[l] > sums[second]:
			second = l
		}
	}
	if top < 0 || (second >= 0 && sums[second] == sums[top]) {
		return 0, false
	}
	return top, true
}
