package contactsearch

import (
	"math"
	"sort"
	"strings"
	"sync"

	"github.com/firmoapi/firmo/shared/company"
)

// Company search for icp_prompt signals ("using Stripe", "selling payroll software",
// "series B funded"): the companies whose profiles carry the signals are found first,
// and contacts are then searched at those companies only.
//
// Each company's profile is read into four fields of folded words, each with a weight:
// technologies 1.0 (the products behind the homepage's third-party scripts: stripe.com
// is "stripe", js.hs-scripts.com "hubspot"), keywords 1.0, industries 1.0 (enum values
// and labels) and description 0.7 (a description mentions things a company does not
// use or sell). An inverted index from word to company is built once per snapshot, on
// the first search with signals.
//
// A signal's words (fillers dropped) match a company's word when equal, or as a prefix
// for words of four letters or more ("payment" matches "payments"). A company's
// coverage of one signal is the share of the signal's words it holds, each word
// weighted by its rarity across companies (idf: a word every company has says little)
// and by the best field holding it. Its score is the mean coverage over the signals,
// from 0 to 1. Companies scoring at least SignalThreshold match, best first, at most
// MaxSignalCompanies of them.
//
// Cost (BenchmarkCompanyIndex, 100k synthetic companies of about 50 words, 2 shared
// cores): building the index takes about 1.1 s of CPU, paid by the first signal search
// of each snapshot; a two-signal search about 12 ms.
const (
	// SignalThreshold: one signal must be found in a full-weight field, or in the
	// description alone (0.7); of two signals, one full and one in the description
	// (0.85) pass, one alone (0.5) does not.
	SignalThreshold = 0.6
	// MaxSignalCompanies caps the companies a signal search hands to the contact search.
	MaxSignalCompanies = 2000
)

// Field weights of the company search.
const (
	weightTech        = 1.0
	weightKeywords    = 1.0
	weightIndustry    = 1.0
	weightDescription = 0.7
)

// signalDoc is what the company search reads of a profile: the folded text of each
// field, best weight first. Text is kept rather than word maps: it is what a profile
// costs in memory anyway, and the index is built from it only when a signal search runs.
type signalDoc [4]string

// signalWeights are the fields' weights, in signalDoc order.
var signalWeights = [4]float32{weightTech, weightKeywords, weightIndustry, weightDescription}

// companyIndex is the inverted index of the company search.
type companyIndex struct {
	domains  []string
	terms    []string // sorted, for prefix lookups
	postings map[string][]posting
}

type posting struct {
	co     int32
	weight float32
}

// lazyCompanyIndex builds the index on first use; a snapshot holds one.
type lazyCompanyIndex struct {
	once sync.Once
	ix   *companyIndex
}

func (l *lazyCompanyIndex) get(cos map[string]*companyInfo) *companyIndex {
	l.once.Do(func() { l.ix = newCompanyIndex(cos) })
	return l.ix
}

func newCompanyIndex(cos map[string]*companyInfo) *companyIndex {
	ix := &companyIndex{postings: map[string][]posting{}}
	for d := range cos {
		ix.domains = append(ix.domains, d)
	}
	sort.Strings(ix.domains)
	seen := map[string]bool{}
	for i, d := range ix.domains {
		clear(seen)
		// Fields come best weight first, so a word's first field is its best.
		for f, text := range cos[d].signal {
			for _, t := range strings.Fields(text) {
				if !seen[t] {
					seen[t] = true
					ix.postings[t] = append(ix.postings[t], posting{int32(i), signalWeights[f]})
				}
			}
		}
	}
	for t := range ix.postings {
		ix.terms = append(ix.terms, t)
	}
	sort.Strings(ix.terms)
	return ix
}

// minPrefix is the shortest signal word matched as a prefix of longer words.
const minPrefix = 4

// word returns the companies holding a signal word, with the best field weight of the
// matching words.
func (ix *companyIndex) word(w string) map[int32]float32 {
	out := map[int32]float32{}
	add := func(t string) {
		for _, p := range ix.postings[t] {
			if out[p.co] < p.weight {
				out[p.co] = p.weight
			}
		}
	}
	if len([]rune(w)) < minPrefix {
		add(w)
		return out
	}
	for i := sort.SearchStrings(ix.terms, w); i < len(ix.terms) && strings.HasPrefix(ix.terms[i], w); i++ {
		add(ix.terms[i])
	}
	return out
}

// scoredCompany is a company search hit.
type scoredCompany struct {
	Domain string
	Score  float64
}

// search ranks the companies by the signals; see the constants above.
func (ix *companyIndex) search(signals []string) []scoredCompany {
	n := float64(len(ix.domains))
	score := map[int32]float64{}
	counted := 0
	for _, sig := range signals {
		words := signalWords(sig)
		if len(words) == 0 {
			continue
		}
		counted++
		var total float64
		cover := map[int32]float64{}
		for _, w := range words {
			hits := ix.word(w)
			idf := math.Log(1 + n/float64(max(len(hits), 1)))
			total += idf
			for co, wt := range hits {
				cover[co] += idf * float64(wt)
			}
		}
		for co, c := range cover {
			score[co] += c / total
		}
	}
	if counted == 0 {
		return nil
	}
	var out []scoredCompany
	for co, s := range score {
		if s /= float64(counted); s >= SignalThreshold-1e-9 {
			out = append(out, scoredCompany{ix.domains[co], s})
		}
	}
	sort.Slice(out, func(i, j int) bool {
		if out[i].Score != out[j].Score {
			return out[i].Score > out[j].Score
		}
		return out[i].Domain < out[j].Domain
	})
	return out[:min(len(out), MaxSignalCompanies)]
}

// signalWords are a signal's folded words without fillers ("stripe in" is "stripe").
func signalWords(sig string) []string {
	var out []string
	for _, w := range strings.Fields(fold(sig)) {
		if !fillers[w] {
			out = append(out, w)
		}
	}
	return out
}

// signalDomains runs the company search of a prompt's signals: nil when the prompt has
// no usable signal (no restriction), else the matching domains (maybe none).
func (sn *snapshot) signalDomains(signals []string) set {
	if len(signals) == 0 {
		return nil
	}
	hits := sn.signals.get(sn.companies).search(signals)
	if hits == nil && !anySignalWords(signals) {
		return nil
	}
	doms := make(set, len(hits))
	for _, h := range hits {
		doms[h.Domain] = true
	}
	return doms
}

func anySignalWords(signals []string) bool {
	for _, s := range signals {
		if len(signalWords(s)) > 0 {
			return true
		}
	}
	return false
}

// SignalClause is one word of one signal as an outside index scores it: a company's
// contribution is Boost times the weight of the best field holding Word (Fields order,
// SignalWeights), so the sum of a company's clauses is the score the embedded company
// search gives it.
type SignalClause struct {
	Word   string
	Prefix bool    // match words starting with Word (it has MinSignalPrefix runes or more)
	Boost  float64 // idf / (the signal's total idf * the number of signals)
}

// SignalWeights are the field weights of the company search, in contactfields.Signal
// Texts order.
var SignalWeights = signalWeights

// SignalSearchWords are the distinct words of signals, each with whether it matches as a
// prefix; nil when no signal has a usable word (no restriction).
func SignalSearchWords(signals []string) (words []string, prefix []bool) {
	seen := map[string]bool{}
	for _, sig := range signals {
		for _, w := range signalWords(sig) {
			if !seen[w] {
				seen[w] = true
				words = append(words, w)
				prefix = append(prefix, len([]rune(w)) >= minPrefix)
			}
		}
	}
	return words, prefix
}

// SignalClauses are the scoring clauses of signals given n, the number of companies
// searched, and df, the number of them holding each word (of SignalSearchWords) in any
// field: the same idf weighting as the embedded company search. Companies whose clauses
// sum to SignalThreshold or more match.
func SignalClauses(signals []string, n int, df map[string]int) []SignalClause {
	var counted int
	for _, sig := range signals {
		if len(signalWords(sig)) > 0 {
			counted++
		}
	}
	var out []SignalClause
	for _, sig := range signals {
		words := signalWords(sig)
		if len(words) == 0 {
			continue
		}
		idf := make([]float64, len(words))
		var total float64
		for i, w := range words {
			idf[i] = math.Log(1 + float64(n)/float64(max(df[w], 1)))
			total += idf[i]
		}
		for i, w := range words {
			out = append(out, SignalClause{Word: w, Prefix: len([]rune(w)) >= minPrefix, Boost: idf[i] / (total * float64(counted))})
		}
	}
	return out
}

// SignalCompanies runs the embedded company search of signals over recs (the contract
// suite's reference): the matching domains, best first; nil when no signal has a usable
// word.
func SignalCompanies(recs []company.Record, signals []string) []string {
	cos := map[string]*companyInfo{}
	for _, r := range recs {
		cos[r.Domain] = companyOf(r)
	}
	if !anySignalWords(signals) {
		return nil
	}
	out := []string{}
	for _, h := range newCompanyIndex(cos).search(signals) {
		out = append(out, h.Domain)
	}
	return out
}

// restrictDomains sends f to the companies doms (nil: no restriction), within any domain
// filter f has.
func restrictDomains(f *Filters, doms set) {
	if doms == nil {
		return
	}
	for d := range doms {
		if f.Domains != nil && !f.Domains[d] {
			delete(doms, d)
		}
	}
	f.Domains = doms
}
