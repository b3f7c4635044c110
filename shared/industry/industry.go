// Package industry is Firmo's industry taxonomy and its text classifier.
//
// The taxonomy (taxonomy.go) is defined once here: 39 uppercase industry values
// (SAAS, SOFTWARE, FINANCIAL_SERVICES, ...) and 217 PARENT/SUB sub-industries, each
// with a human label. The classifier reads a company's text in English, German,
// French, Spanish, Portuguese, Italian or Dutch and returns its two most likely
// industries, the sub-industries of those that the text supports, its business
// models and its keywords. The model (model.go) is naive Bayes trained on a
// hand-written multilingual lexicon plus the training rows of labelled.tsv; its
// held-out accuracy is in ACCURACY.md.
package industry

import (
	"fmt"
	"sync"
)

// Result is the classification of one text. Its fields have the shape of the
// company profile's fields of the same meaning.
type Result struct {
	// Groups holds the two most likely industries with scores 0..1 (posterior
	// probabilities); empty when no word of the text is known to the model.
	Groups map[string]float64
	// Sub holds PARENT/SUB values of the two industries whose confidence reaches
	// the sub-industry threshold. Classify always scores against the sub-labels, so
	// Sub is never nil: empty means nothing matched.
	Sub map[string]float64
	// BusinessModel holds the labels B2B, B2C, B2G, G2B, G2C, D2C, C2C and C2B that
	// the text supports, with confidence 0..1.
	BusinessModel map[string]float64
	// Keywords holds the text's most frequent words (stopwords and page
	// furniture left out) with their frequency relative to the most frequent one.
	Keywords map[string]float64
}

// Classifier classifies company texts. It is safe for concurrent use. Its model is
// built on first use (a few milliseconds), so constructing one costs nothing at a
// Lambda's start-up.
type Classifier struct {
	p    params
	once sync.Once
	res  *resources
	err  error
}

// resources are what the classifier loads on first use.
type resources struct {
	stops  map[string]map[string]bool
	model  *model
	cues   *cueSet
	stems  map[string]*stemCache // by language
	stopIx stopIndex             // the stopwords of every language, for textLang
}

// New makes a Classifier with the documented model constants.
func New() *Classifier { return &Classifier{p: defaultParams} }

// Warm builds the model now rather than on the first Classify, and reports whether
// the embedded data is sound.
func (c *Classifier) Warm() error {
	_, err := c.load()
	return err
}

func (c *Classifier) load() (*resources, error) {
	c.once.Do(func() { c.res, c.err = build(c.p, nil) })
	return c.res, c.err
}

// build loads the embedded data and trains the model on examples, or on the
// training rows of labelled.tsv when examples is nil.
func build(p params, examples []example) (*resources, error) {
	stops, err := parseStopwords(stopwordsFile)
	if err != nil {
		return nil, err
	}
	lex, err := loadLexicon(stops)
	if err != nil {
		return nil, err
	}
	if examples == nil {
		rows, err := parseLabelled(labelledFile)
		if err != nil {
			return nil, err
		}
		examples = trainingExamples(rows)
	}
	tables, err := classificationTables(p)
	if err != nil {
		return nil, err
	}
	cues, err := loadCues(stops)
	if err != nil {
		return nil, err
	}
	analyzers := map[string]*analyzer{}
	for _, l := range allLanguages {
		analyzers[l] = newAnalyzer(l, stops)
	}
	stems := map[string]*stemCache{}
	for _, l := range allLanguages {
		stems[l] = &stemCache{}
	}
	return &resources{stops: stops, model: train(p, lex, examples, tables, analyzers), cues: cues, stems: stems, stopIx: newStopIndex(stops)}, nil
}

// Classify classifies a text written in lang (an ISO 639-1 or 639-2 code such as
// "de" or "deu"; any other value, "und" or "" included, lets the classifier guess
// among its seven languages from the text's stopwords).
func (c *Classifier) Classify(text, lang string) Result {
	res, err := c.load()
	if err != nil {
		// The data is embedded and checked by the package's tests: failing here is
		// a build defect, not a runtime condition.
		panic(fmt.Sprintf("industry: embedded data: %v", err))
	}
	return res.classify(text, lang)
}

func (r *resources) classify(text, lang string) Result {
	l := textLang(lang, r.stopIx, text)
	a := newAnalyzer(l, r.stops)
	a.cache = r.stems[l]
	toks := a.tokens(text)
	s := r.model.score(a, toks)
	out := Result{Groups: map[string]float64{}, Sub: map[string]float64{}}
	top := topIndexes(s.prob, 2)
	for _, i := range top {
		out.Groups[taxonomy[i].Value] = s.prob[i]
		subs := r.model.subScores(i, s)
		for j, q := range subs {
			if conf := s.prob[i] * q; conf >= r.model.p.subThreshold {
				out.Sub[taxonomy[i].Subs[j].Value] = conf
			}
		}
	}
	topSub := ""
	if len(top) > 0 {
		topSub = bestSub(out.Sub, taxonomy[top[0]].Value)
	}
	out.BusinessModel = r.cues.businessModel([]cueText{{toks, 1}}, scoredIndustries(top, s.prob, topSub, out.Sub), nil)
	out.Keywords = keywords(toks, r.model, maxKeywords)
	return out
}

// topIndexes returns the indexes of the n largest values, largest first (ties: the
// lower index first).
func topIndexes(x []float64, n int) []int {
	var out []int
	used := make([]bool, len(x))
	for len(out) < n && len(out) < len(x) {
		best := -1
		for i, v := range x {
			if !used[i] && (best < 0 || v > x[best]) {
				best = i
			}
		}
		used[best] = true
		out = append(out, best)
	}
	return out
}
