package industry

import (
	"math"
	"sort"
	"strings"
)

// The model is multinomial naive Bayes over word stems and adjacent stem pairs, one
// level for the industries and one per industry for its sub-industries. Its counts
// come from two sources:
//
//   - the lexicon: every term adds lexWeight pseudo-occurrences to its industry (and,
//     for a sub-industry term, to that sub-industry and its parent), so words no
//     labelled row uses still count;
//   - the training rows of the labelled set: each distinct feature of a row adds one
//     occurrence to the row's industry and sub-industry.
//
// Class priors are uniform (the labelled set says nothing about how common an
// industry is). A text's log-likelihoods are divided by the square root of its
// evidence (the summed weight of its known features) and scaled by temperature
// before the softmax: raw naive Bayes posteriors are near 0 or 1 for any text of a
// few sentences, and this keeps the scores of a one-line text modest and lets them
// grow with evidence. params holds the constants; ACCURACY.md says how they were
// chosen.

// params are the model's constants.
type params struct {
	lexWeight   float64 // pseudo-occurrences per lexicon term
	alpha       float64 // additive smoothing, industries
	subAlpha    float64 // additive smoothing, sub-industries
	temperature float64 // softmax scale of industry scores
	subTemp     float64 // softmax scale of sub-industry scores
	// evidenceExp is the power of the evidence the log-likelihoods are divided by:
	// 0.5 lets confidence grow with the square root of the text's evidence, 1 makes
	// it depend on the average evidence per word only.
	evidenceExp float64
	// equalMass normalises every industry's counts by the mean industry's total
	// instead of its own, so that an industry whose lexicon lists more terms does not
	// make each of its words less likely (naive Bayes' penalty on large classes).
	equalMass bool
	// subThreshold is the least confidence (industry score times the sub-industry's
	// share within it) a sub-industry needs to be reported.
	subThreshold float64
	// naicsWeight is what each NAICS description row with a feature (the NAICS
	// table, naics.go) adds to its value's counts; 0 leaves the table out.
	naicsWeight float64
	// naceWeight is the same for each NACE title row (the NACE table, nace.go).
	naceWeight float64
}

// defaultParams were chosen by 4-fold cross-validation on the training rows only
// (never the held-out rows); see ACCURACY.md.
var defaultParams = params{
	lexWeight:    4,
	alpha:        0.2,
	subAlpha:     0.2,
	temperature:  7,
	subTemp:      5,
	evidenceExp:  1,
	equalMass:    true,
	subThreshold: 0.5,
	naicsWeight:  1,
	naceWeight:   1,
}

// example is one labelled description used to train the model.
type example struct {
	sub    string // PARENT/SUB, or PARENT alone (trains no sub-industry)
	lang   string // ISO 639-1
	text   string
	weight float64 // per distinct feature; 0 means 1
}

// model is a trained classifier.
type model struct {
	p       params
	feat    map[string]int32 // feature -> row of logp
	logp    []float32        // len(feat) x len(taxonomy)
	subs    []subModel       // by industry index
	compose map[string]bool  // lexicon word stems that may be parts of compounds
}

// subModel ranks the sub-industries of one industry.
type subModel struct {
	logp map[int32][]float32 // feature -> log P(feature | sub), one per sub
}

// counts accumulates occurrences per feature and class.
type counts struct {
	n      int
	byFeat map[string][]float64
	total  []float64
}

func newCounts(n int) *counts {
	return &counts{n: n, byFeat: map[string][]float64{}, total: make([]float64, n)}
}

func (c *counts) add(f string, class int, w float64) {
	row := c.byFeat[f]
	if row == nil {
		row = make([]float64, c.n)
		c.byFeat[f] = row
	}
	row[class] += w
	c.total[class] += w
}

// train builds the model from the lexicon, the training examples and the tables of
// official classifications (the NAICS table, naics.go, then the NACE table, nace.go;
// nil for none), each feature counting its table's weight per row (for the
// industries only when the table says so).
func train(p params, lex []lexEntry, examples []example, tables []naicsFeature, a map[string]*analyzer) *model {
	m := &model{p: p, feat: map[string]int32{}, subs: make([]subModel, len(taxonomy)), compose: map[string]bool{}}
	top := newCounts(len(taxonomy))
	sub := make([]*counts, len(taxonomy))
	for i, in := range taxonomy {
		sub[i] = newCounts(len(in.Subs))
	}
	for _, e := range lex {
		pos := index[e.value]
		subOnly := pos.sub >= 0 && functionSubs[taxonomy[pos.parent].Value]
		for _, f := range e.features {
			w := p.lexWeight
			if subOnly {
				w *= functionSubWeight
			}
			top.add(f, pos.parent, w)
			if pos.sub >= 0 {
				sub[pos.parent].add(f, pos.sub, p.lexWeight)
			}
			if !strings.Contains(f, " ") && len(f) >= 4 {
				m.compose[f] = true
			}
		}
	}
	for _, ex := range examples {
		pos := index[ex.sub]
		an := a[ex.lang]
		w := ex.weight
		if w == 0 {
			w = 1
		}
		for f := range m.features(an, an.tokens(ex.text), nil) {
			top.add(f, pos.parent, w)
			if pos.sub >= 0 {
				sub[pos.parent].add(f, pos.sub, w)
			}
		}
	}
	// The tables fill gaps only: features the lexicon and the rows (or an earlier
	// table) do not know (the tables hold only features pointing to few industries).
	for _, nf := range tables {
		if nf.w <= 0 || top.byFeat[nf.f] != nil {
			continue
		}
		for _, e := range nf.es {
			top.add(nf.f, e.pos.parent, nf.w*e.n)
			if e.pos.sub >= 0 && !nf.industryOnly {
				sub[e.pos.parent].add(nf.f, e.pos.sub, nf.w*e.n)
			}
		}
	}
	// Stable feature ids keep training deterministic (map order is random).
	keys := make([]string, 0, len(top.byFeat))
	for f := range top.byFeat {
		keys = append(keys, f)
	}
	sort.Strings(keys)
	C := len(taxonomy)
	m.logp = make([]float32, len(keys)*C)
	v := float64(len(keys))
	mass := append([]float64(nil), top.total...)
	if p.equalMass {
		mean := 0.0
		for _, t := range top.total {
			mean += t / float64(C)
		}
		for c := range mass {
			mass[c] = mean
		}
	}
	for id, f := range keys {
		m.feat[f] = int32(id)
		row := top.byFeat[f]
		for c := 0; c < C; c++ {
			m.logp[id*C+c] = float32(math.Log((row[c] + p.alpha) / (mass[c] + p.alpha*v)))
		}
	}
	for i, sc := range sub {
		sm := subModel{logp: map[int32][]float32{}}
		sv := float64(len(sc.byFeat))
		for f, row := range sc.byFeat {
			lp := make([]float32, sc.n)
			for s := 0; s < sc.n; s++ {
				lp[s] = float32(math.Log((row[s] + p.subAlpha) / (sc.total[s] + p.subAlpha*sv)))
			}
			sm.logp[m.feat[f]] = lp
		}
		m.subs[i] = sm
	}
	return m
}

// functionSubs are the industries whose sub-industries are named by the business
// function their products serve (SaaS for accounting, HR, sales, projects): those
// sub-industries' lexicon terms (invoices, quotes, employees, sales, tasks) are what
// any firm's page says about its own work, so they rank the sub-industries of a page
// already read as that industry and are no evidence for the industry itself.
var functionSubs = map[string]bool{"SAAS": true}

// functionSubWeight is the weight of those terms as evidence for the industry.
const functionSubWeight = 0.5

// features counts the features of a text: word stems, joined hyphenated words,
// adjacent stem pairs (not across punctuation) and, in German and Dutch, the
// lexicon words a long compound starts or ends with. known, when not nil, limits
// the result to features of the model (with compounds split against it).
func (m *model) features(a *analyzer, toks []token, known map[string]int32) map[string]float64 {
	out := map[string]float64{}
	prev := ""
	broken := true
	for _, t := range toks {
		if t.brk {
			broken = true
		}
		if t.stop || len(t.stem) < 2 {
			continue
		}
		out[t.stem]++
		if t.joined != "" {
			out[t.joined]++
		}
		if !broken && prev != "" {
			out[prev+" "+t.stem]++
		}
		if compounding[a.lang] && len(t.stem) >= 8 && len(m.compose) > 0 && !m.compose[t.stem] && !exceptionStem(a.lang, t.stem) {
			for _, part := range m.compoundParts(t.stem) {
				out[part]++
			}
		}
		prev, broken = t.stem, false
	}
	if known != nil {
		for f := range out {
			if _, ok := known[f]; !ok {
				delete(out, f)
			}
		}
	}
	return out
}

// derivationalSuffixes are word endings that make abstract nouns, not compounds, and
// that end lexicon words' stems: Dutch "-schap" (vakmanschap, gemeenschap,
// lidmaatschap: the English "-ship") is no "schaap" (sheep), nor a Spanish "chapa"
// (sheet metal). A word with such an ending gives no last part. Written by the team.
var derivationalSuffixes = []string{"schap"}

// compoundParts returns the longest lexicon word a compound stem starts with and
// the longest it ends with (Zahnzusatzversicherung ends with versicher), each at
// least four letters and leaving at least three.
func (m *model) compoundParts(stem string) []string {
	var parts []string
	for i := len(stem) - 3; i >= 4; i-- {
		if m.compose[stem[:i]] {
			parts = append(parts, stem[:i])
			break
		}
	}
	for _, suffix := range derivationalSuffixes {
		if strings.HasSuffix(stem, suffix) {
			return parts // an abstract noun: no lexicon word ends it
		}
	}
	for i := 3; i <= len(stem)-4; i++ {
		if m.compose[stem[i:]] {
			parts = append(parts, stem[i:])
			break
		}
	}
	return parts
}

// scored is a text's posterior over industries.
type scored struct {
	prob     []float64 // by industry index; nil when the text has no known feature
	evidence float64   // summed weight of the features the model knows
	feats    []weighted
}

// weighted is a known feature of a text with its weight.
type weighted struct {
	id int32
	w  float64
}

// weight dampens repeated words: a long page saying "software" forty times is not
// forty times the evidence of one mention.
func weight(n float64) float64 { return 1 + math.Log(n) }

// score computes the industry posterior of a text. Features are summed in id order
// so that the same text always gets bit-identical scores (the demo world's seed
// must reproduce byte for byte).
func (m *model) score(a *analyzer, toks []token) scored {
	w := map[string]float64{}
	for f, n := range m.features(a, toks, m.feat) {
		w[f] = weight(n)
	}
	return m.scoreWeighted(w, nil)
}

// scoreWeighted computes the industry posterior of weighted features (each known to
// the model), with boost added to the scaled log-likelihoods before the softmax (nil:
// none).
func (m *model) scoreWeighted(w map[string]float64, boost []float64) scored {
	var s scored
	for f, x := range w {
		if id, ok := m.feat[f]; ok && x > 0 {
			s.feats = append(s.feats, weighted{id, x})
		}
	}
	sort.Slice(s.feats, func(i, j int) bool { return s.feats[i].id < s.feats[j].id })
	C := len(taxonomy)
	sum := make([]float64, C)
	for _, fw := range s.feats {
		s.evidence += fw.w
		row := m.logp[int(fw.id)*C : int(fw.id)*C+C]
		for c := range sum {
			sum[c] += fw.w * float64(row[c])
		}
	}
	if s.evidence == 0 && boost == nil {
		return s
	}
	k := 0.0
	if s.evidence > 0 {
		k = m.p.temperature / math.Pow(s.evidence, m.p.evidenceExp)
	}
	if boost == nil {
		s.prob = softmax(sum, k)
		return s
	}
	for c := range sum {
		sum[c] = sum[c]*k + boost[c]
	}
	s.prob = softmax(sum, 1)
	return s
}

// subScores ranks the sub-industries of industry i for a scored text: their
// posterior within the industry, or nil when none of the text's features speaks
// for any of them.
func (m *model) subScores(i int, s scored) []float64 {
	sm := m.subs[i]
	sum := make([]float64, len(taxonomy[i].Subs))
	evidence := 0.0
	for _, fw := range s.feats {
		row, ok := sm.logp[fw.id]
		if !ok {
			continue
		}
		evidence += fw.w
		for j := range sum {
			sum[j] += fw.w * float64(row[j])
		}
	}
	if evidence == 0 {
		return nil
	}
	return softmax(sum, m.p.subTemp/math.Pow(evidence, m.p.evidenceExp))
}

// softmax of x scaled by k.
func softmax(x []float64, k float64) []float64 {
	maxv := math.Inf(-1)
	for _, v := range x {
		maxv = math.Max(maxv, v)
	}
	out := make([]float64, len(x))
	total := 0.0
	for i, v := range x {
		out[i] = math.Exp((v - maxv) * k)
		total += out[i]
	}
	for i := range out {
		out[i] /= total
	}
	return out
}
