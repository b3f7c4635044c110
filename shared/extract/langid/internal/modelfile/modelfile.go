// Package modelfile defines the binary layout of langid's n-gram models, so that the
// generator that writes them and the detector that reads them share one definition.
//
// The layout keeps each distinct n-gram once for all languages and each distinct
// probability once per language, which is what makes it small: the 64-bit
// probabilities are most of the data and cannot be compressed further without
// changing them. All integers are unsigned varints.
//
//	magic     "langid-models\x01"
//	languages count, then per language: length, ISO 639-2/T code
//	n-grams   count, then per n-gram, sorted bytewise and front-coded:
//	          bytes shared with the previous n-gram, suffix length, suffix
//	per language, in the order above:
//	          count of probability sets, then per set, sorted by probability:
//	          float64 bits minus the previous set's bits (0 before the first),
//	          count of n-grams, first n-gram index, then gaps to the next index
package modelfile

import (
	"encoding/binary"
	"errors"
	"fmt"
	"math"
	"sort"
	"strings"
	"unicode/utf8"
)

const magic = "langid-models\x01"

// MaxOrder is the longest n-gram the models hold: trigrams, which low-accuracy
// detection scores, backing off to their bigram and unigram prefixes.
const MaxOrder = 3

// MaxLanguages bounds the languages a file may hold, so damaged data cannot ask the
// decoder for an absurd matrix.
const MaxLanguages = 32

// Model is the decoded content: a dense matrix of probabilities, one row per n-gram
// and one column per language.
type Model struct {
	Languages []string // ISO 639-2/T codes, in column order
	Ngrams    []string // unique, sorted bytewise
	// Prob holds row-major probabilities: Prob[i*len(Languages)+l] is the probability
	// of Ngrams[i] in Languages[l], or 0 where the language's model lacks it.
	Prob []float64
}

// ErrCorrupt reports data that does not follow the layout.
var ErrCorrupt = errors.New("corrupt langid model data")

// Encode writes m in the layout above. The output depends only on m, so regenerating
// from the same source gives the same bytes.
func Encode(m *Model) ([]byte, error) {
	if err := m.check(); err != nil {
		return nil, err
	}
	out := []byte(magic)
	out = binary.AppendUvarint(out, uint64(len(m.Languages)))
	for _, code := range m.Languages {
		out = appendString(out, code)
	}
	out = binary.AppendUvarint(out, uint64(len(m.Ngrams)))
	prev := ""
	for _, g := range m.Ngrams {
		shared := commonPrefix(prev, g)
		out = binary.AppendUvarint(out, uint64(shared))
		out = appendString(out, g[shared:])
		prev = g
	}
	for l := range m.Languages {
		out = appendSets(out, m.column(l))
	}
	return out, nil
}

// check refuses models the layout or the detector cannot carry.
func (m *Model) check() error {
	if len(m.Languages) > MaxLanguages {
		return fmt.Errorf("encode: %d languages, at most %d", len(m.Languages), MaxLanguages)
	}
	if len(m.Prob) != len(m.Ngrams)*len(m.Languages) {
		return fmt.Errorf("encode: %d probabilities for %d n-grams x %d languages", len(m.Prob), len(m.Ngrams), len(m.Languages))
	}
	for i, g := range m.Ngrams {
		if err := checkNgram(g); err != nil {
			return fmt.Errorf("encode: %w", err)
		}
		if i > 0 && m.Ngrams[i-1] >= g {
			return fmt.Errorf("encode: n-grams not sorted and unique at %q", g)
		}
	}
	for _, p := range m.Prob {
		if p != 0 && !validProb(p) {
			return fmt.Errorf("encode: probability %v outside (0, 1]", p)
		}
	}
	return nil
}

// column groups one language's n-gram indexes by probability.
func (m *Model) column(l int) map[float64][]int {
	sets := map[float64][]int{}
	for i := range m.Ngrams {
		if p := m.Prob[i*len(m.Languages)+l]; p != 0 {
			sets[p] = append(sets[p], i) // ascending, as i grows
		}
	}
	return sets
}

// appendSets writes sets in ascending probability order. Positive float64 values
// sort like their bit patterns, so the gaps between patterns are small and short
// as varints.
func appendSets(out []byte, sets map[float64][]int) []byte {
	probs := make([]float64, 0, len(sets))
	for p := range sets {
		probs = append(probs, p)
	}
	sort.Float64s(probs)
	out = binary.AppendUvarint(out, uint64(len(probs)))
	var prevBits uint64
	for _, p := range probs {
		bits := math.Float64bits(p)
		out = binary.AppendUvarint(out, bits-prevBits)
		prevBits = bits
		idx := sets[p]
		out = binary.AppendUvarint(out, uint64(len(idx)))
		prev := 0
		for _, i := range idx {
			out = binary.AppendUvarint(out, uint64(i-prev))
			prev = i
		}
	}
	return out
}

func appendString(out []byte, s string) []byte {
	out = binary.AppendUvarint(out, uint64(len(s)))
	return append(out, s...)
}

func commonPrefix(a, b string) int {
	n := 0
	for n < len(a) && n < len(b) && a[n] == b[n] {
		n++
	}
	return n
}

func checkNgram(g string) error {
	if n := utf8.RuneCountInString(g); !utf8.ValidString(g) || n < 1 || n > MaxOrder {
		return fmt.Errorf("n-gram %q is not 1 to %d runes of UTF-8", g, MaxOrder)
	}
	return nil
}

func validProb(p float64) bool { return p > 0 && p <= 1 }

// Decode reads data written by Encode, checking every count and index against the
// data's length so that damaged data gives an error, never a panic.
func Decode(data []byte) (*Model, error) {
	r := reader{data: data}
	if !strings.HasPrefix(string(data), magic) {
		return nil, fmt.Errorf("%w: bad header", ErrCorrupt)
	}
	r.pos = len(magic)
	m := &Model{}
	m.Languages = r.strings()
	if len(m.Languages) > MaxLanguages {
		r.fail("%d languages, at most %d", len(m.Languages), MaxLanguages)
	}
	m.Ngrams = r.ngrams()
	if r.err == nil {
		m.Prob = make([]float64, len(m.Ngrams)*len(m.Languages))
	}
	for l := range m.Languages {
		r.sets(m, l)
	}
	if r.err == nil && r.pos != len(data) {
		r.fail("%d bytes after the end", len(data)-r.pos)
	}
	if r.err != nil {
		return nil, r.err
	}
	return m, nil
}

// reader decodes the layout; after the first error every method is a no-op and the
// error is kept, so the decoding steps read straight through.
type reader struct {
	data []byte
	pos  int
	err  error
}

func (r *reader) fail(format string, args ...any) {
	if r.err == nil {
		r.err = fmt.Errorf("%w: %s at byte %d", ErrCorrupt, fmt.Sprintf(format, args...), r.pos)
	}
}

func (r *reader) uvarint() uint64 {
	if r.err != nil {
		return 0
	}
	v, n := binary.Uvarint(r.data[r.pos:])
	if n <= 0 {
		r.fail("bad varint")
		return 0
	}
	r.pos += n
	return v
}

// count reads a count of items that take at least one byte each, so a damaged count
// cannot make the decoder allocate more than the data could hold.
func (r *reader) count() int {
	n := r.uvarint()
	if n > uint64(len(r.data)-r.pos) {
		r.fail("count %d exceeds the data", n)
		return 0
	}
	return int(n)
}

func (r *reader) bytes() []byte {
	n := r.count()
	if r.err != nil {
		return nil
	}
	b := r.data[r.pos : r.pos+n]
	r.pos += n
	return b
}

func (r *reader) strings() []string {
	out := make([]string, r.count())
	for i := range out {
		out[i] = string(r.bytes())
	}
	return out
}

// ngrams undoes the front coding. All n-grams share one backing string, which keeps
// the decoded model to a single allocation for its text.
func (r *reader) ngrams() []string {
	n := r.count()
	var buf strings.Builder
	ends := make([]int, n)
	prev := ""
	for i := range ends {
		shared := r.uvarint()
		suffix := r.bytes()
		if r.err != nil {
			return nil
		}
		if shared > uint64(len(prev)) {
			r.fail("shared prefix %d longer than the previous n-gram", shared)
			return nil
		}
		start := buf.Len()
		buf.WriteString(prev[:shared])
		buf.Write(suffix)
		ends[i] = buf.Len()
		prev = buf.String()[start:]
	}
	return r.split(buf.String(), ends)
}

func (r *reader) split(all string, ends []int) []string {
	out := make([]string, len(ends))
	start := 0
	for i, end := range ends {
		out[i] = all[start:end]
		start = end
		if err := checkNgram(out[i]); err != nil {
			r.fail("%v", err)
			return nil
		}
		if i > 0 && out[i-1] >= out[i] {
			r.fail("n-grams not sorted and unique at %q", out[i])
			return nil
		}
	}
	return out
}

func (r *reader) sets(m *Model, l int) {
	var bits uint64
	for range r.count() {
		bits += r.uvarint()
		p := math.Float64frombits(bits)
		if r.err == nil && !validProb(p) {
			r.fail("probability %v outside (0, 1]", p)
		}
		r.indexes(m, l, p)
	}
}

func (r *reader) indexes(m *Model, l int, p float64) {
	i := 0
	for k := range r.count() {
		gap := r.uvarint()
		if r.err != nil {
			return
		}
		if (k > 0 && gap == 0) || gap >= uint64(len(m.Ngrams)-i) {
			r.fail("n-gram index out of range")
			return
		}
		i += int(gap)
		cell := &m.Prob[i*len(m.Languages)+l]
		if *cell != 0 {
			r.fail("n-gram %q twice in language %s", m.Ngrams[i], m.Languages[l])
			return
		}
		*cell = p
	}
}
