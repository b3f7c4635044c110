package namematch

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/firmoapi/firmo/shared/apperr"
	"github.com/firmoapi/firmo/shared/company"
)

// Records reads company records by domain; company.Store implements it. A missing
// record is apperr.ErrNotFound.
type Records interface {
	Get(ctx context.Context, domain string) (company.Record, error)
}

// Options tune a Matcher. Zero values take the defaults noted.
type Options struct {
	// Attempts is how often a failing index search is tried before the search counts
	// as failed (default 3), with Backoff before the second try, doubling (default 50 ms).
	Attempts int
	Backoff  time.Duration
	// RetryAfter is the hint of the 503 answered when the index stays unreachable
	// (default 5 s).
	RetryAfter time.Duration
	// Candidates is how many entries one search pass asks the index for (default 20).
	Candidates int
	// MaxMatches bounds the matches of an answer (default 5).
	MaxMatches int
}

func (o Options) withDefaults() Options {
	if o.Attempts <= 0 {
		o.Attempts = 3
	}
	if o.Backoff <= 0 {
		o.Backoff = 50 * time.Millisecond
	}
	if o.RetryAfter <= 0 {
		o.RetryAfter = 5 * time.Second
	}
	if o.Candidates <= 0 {
		o.Candidates = 20
	}
	if o.MaxMatches <= 0 {
		o.MaxMatches = 5
	}
	return o
}

// Matcher matches company names against the candidate index. It is safe for
// concurrent use.
type Matcher struct {
	index   Index
	records Records
	opts    Options
}

// New makes a Matcher over an index and the company records it was built from.
func New(index Index, records Records, opts Options) *Matcher {
	return &Matcher{index: index, records: records, opts: opts.withDefaults()}
}

// ErrSearchFailed marks a search the index could not answer after retries. Through
// the API it is a 503 with Retry-After; a bulk row gets match_error search_failed.
var ErrSearchFailed = errors.New("company search backend unreachable")

// Match is a match candidate: a company profile plus match_confidence, written as the
// profile's fields in their order followed by match_confidence.
type Match struct {
	Profile    company.Profile
	Confidence int
	z          float64 // the logit, for ranking ties of the rounded confidence
}

// MarshalJSON writes the profile object with match_confidence appended.
func (m Match) MarshalJSON() ([]byte, error) {
	return appendField(m.Profile, "match_confidence", m.Confidence)
}

// appendField encodes v (a JSON object) and appends one field to it.
func appendField(v any, name string, value any) ([]byte, error) {
	obj, err := json.Marshal(v)
	if err != nil {
		return nil, err
	}
	val, err := json.Marshal(value)
	if err != nil {
		return nil, err
	}
	obj = bytes.TrimRight(obj, " \n")
	if len(obj) < 2 || obj[len(obj)-1] != '}' {
		return nil, fmt.Errorf("append %s: not a JSON object", name)
	}
	var b bytes.Buffer
	b.Write(obj[:len(obj)-1])
	if len(obj) > 2 {
		b.WriteByte(',')
	}
	fmt.Fprintf(&b, "%q:", name)
	b.Write(val)
	b.WriteByte('}')
	return b.Bytes(), nil
}

// Answer is the body of GET /v1/match: the query echoed and the matches, best first.
// An empty Matches means nothing reached min_match_confidence (the API answers 204).
type Answer struct {
	Query   Query   `json:"query"`
	Matches []Match `json:"matches"`
	// Filters are the filters of the pass that produced the matches (the last pass
	// tried when there are none); Passes is how many passes ran.
	Filters Filters `json:"-"`
	Passes  int     `json:"-"`
}

// Match answers a single match (GET /v1/match). Malformed parameters are 422s naming
// the parameter; an index unreachable after retries is a 503 with Retry-After.
func (m *Matcher) Match(ctx context.Context, q Query) (Answer, error) {
	p, err := parseQuery(q)
	if err != nil {
		return Answer{}, err
	}
	a, err := m.run(ctx, p, m.opts.MaxMatches)
	if errors.Is(err, ErrSearchFailed) {
		return Answer{}, &apperr.Error{Kind: apperr.ErrUnavailable, RetryAfter: m.opts.RetryAfter,
			Message: "The company search backend is unreachable; this is not a no-match: retry shortly."}
	}
	return a, err
}

// MatchRow answers one bulk row with its best match (at most one). The row is read
// leniently (see parseRow). A search the index could not answer is ErrSearchFailed.
func (m *Matcher) MatchRow(ctx context.Context, q Query) (Answer, error) {
	p, err := parseRow(q)
	if err != nil {
		return Answer{}, err
	}
	return m.run(ctx, p, 1)
}

// run tries the passes of the query in order and returns the first with a match at
// or above the threshold.
func (m *Matcher) run(ctx context.Context, p *parsed, limit int) (Answer, error) {
	a := Answer{Query: p.q, Matches: []Match{}}
	for _, f := range p.passes() {
		a.Filters = f
		a.Passes++
		matches, err := m.pass(ctx, p, f, limit)
		if err != nil {
			return Answer{}, err
		}
		if len(matches) > 0 {
			a.Matches = matches[:min(limit, len(matches))]
			return a, nil
		}
	}
	return a, nil
}

// passes are the filter sets tried in order (filter relaxation), each differing from
// the one before by one cleared filter:
//
//   - normal: every given filter, then without zip, city, phone, state, country in
//     that order (the least telling location detail goes first; the country last);
//   - strict: city, zip and phone never filter (they still count as evidence); the
//     relaxation clears state, then country;
//   - local_mode: country and state are never cleared; zip, city and phone are.
//
// A filter the query does not give is skipped, so no pass repeats another.
func (p *parsed) passes() []Filters {
	f := Filters{Country: p.country, State: p.state, City: p.city, Zip: p.zip, Phone: p.phone}
	clear := []func(*Filters){
		func(f *Filters) { f.Zip = "" },
		func(f *Filters) { f.City = "" },
		func(f *Filters) { f.Phone = "" },
		func(f *Filters) { f.State = "" },
		func(f *Filters) { f.Country = "" },
	}
	if p.q.Strict {
		f.City, f.Zip, f.Phone = "", "", ""
		clear = clear[3:]
	}
	if p.q.LocalMode {
		clear = clear[:len(clear)-2]
	}
	out := []Filters{f}
	for _, c := range clear {
		next := out[len(out)-1]
		c(&next)
		if next != out[len(out)-1] {
			out = append(out, next)
		}
	}
	return out
}

// request builds the index search of one pass.
func (p *parsed) request(f Filters, limit int) Request {
	if p.q.Strict {
		return Request{Phrase: p.exact, Filters: f, Limit: limit}
	}
	r := Request{Joined: p.name.Joined(), Acronym: p.name.Acronym(), Filters: f, Limit: limit}
	onlyStopwords := true
	for _, t := range p.name.Tokens {
		onlyStopwords = onlyStopwords && stopwords[t]
	}
	seen := map[string]bool{}
	for _, t := range p.name.Tokens {
		if seen[t] || (stopwords[t] && !onlyStopwords) {
			continue // "of", "de": they find half the index and decide nothing
		}
		seen[t] = true
		term := Term{Text: t, Boost: tokenWeight(t), Fuzziness: fuzziness(t)}
		if generic[t] {
			// A misspelt generic word is left to the other words of the name: searching
			// "software" within an edit costs as much as the whole rest of the query.
			term.Fuzziness = 0
		}
		r.Terms = append(r.Terms, term)
	}
	return r
}

// fuzziness is the edit distance a term is searched with: none for short tokens and
// tokens with digits (they must match exactly, see tokenSim), 1 up to nine
// characters, 2 beyond (the costly kind of search, kept for long words).
func fuzziness(t string) int {
	r := []rune(t)
	switch {
	case len(r) <= 3 || hasDigit(r):
		return 0
	case len(r) <= 9:
		return 1
	}
	return 2
}

// pass runs one search and scores its candidates. Candidates are ranked on the index
// entries first; those that can still reach the threshold are read from the company
// store and scored again on the current record (the index may lag a little behind),
// with the score prior.
func (m *Matcher) pass(ctx context.Context, p *parsed, f Filters, limit int) ([]Match, error) {
	req := p.request(f, m.opts.Candidates)
	exact := req.withoutFuzziness()
	entries, err := m.search(ctx, exact)
	if err != nil {
		return nil, err
	}
	// Most names are spelt right: the exact words find them, and the costly fuzzy
	// search (every word within its edit budget) runs only when nothing close to the
	// name came back.
	if req.fuzzy() && !p.nearlyFound(entries) {
		more, err := m.search(ctx, req)
		if err != nil {
			return nil, err
		}
		entries = append(entries, more...)
	}
	floor := p.q.MinMatchConfidence
	type candidate struct {
		e Entry
		z float64
	}
	var cands []candidate
	seen := map[string]bool{}
	for _, e := range entries {
		if seen[e.Domain] {
			continue
		}
		seen[e.Domain] = true
		if z, ok := p.evaluate(e); ok && confidence(z+PriorMax) >= floor {
			cands = append(cands, candidate{e, z})
		}
	}
	sort.SliceStable(cands, func(i, j int) bool { return cands[i].z > cands[j].z })
	var out []Match
	for _, cand := range cands {
		// Candidates come best first: once limit matches are in hand, one whose
		// index score plus the largest prior cannot pass the weakest of them is not
		// read from the store.
		if len(out) >= limit {
			weakest := out[0].z
			for _, m := range out {
				weakest = min(weakest, m.z)
			}
			if cand.z+PriorMax < weakest {
				break
			}
		}
		e := cand.e
		rec, err := m.records.Get(ctx, e.Domain)
		if errors.Is(err, apperr.ErrNotFound) {
			continue // deleted since it was indexed
		}
		if err != nil {
			return nil, fmt.Errorf("match: read company %s: %w", e.Domain, err)
		}
		fresh := EntryOf(rec)
		z, ok := p.evaluate(fresh)
		if !ok || !f.admits(fresh) {
			continue
		}
		z += prior(rec.Profile.Score)
		if c := confidence(z); c >= floor {
			out = append(out, Match{Profile: rec.Profile, Confidence: c, z: z})
		}
	}
	sort.SliceStable(out, func(i, j int) bool {
		if out[i].Confidence != out[j].Confidence {
			return out[i].Confidence > out[j].Confidence
		}
		if out[i].z != out[j].z {
			return out[i].z > out[j].z
		}
		return out[i].Profile.Domain < out[j].Profile.Domain
	})
	return out, nil
}

// nearlyFoundSimilarity is the name similarity above which an exact-word search is
// taken to have found the name, so no fuzzy search follows.
const nearlyFoundSimilarity = 0.9

func (p *parsed) nearlyFound(entries []Entry) bool {
	for _, e := range entries {
		for _, t := range e.Text {
			if Similarity(p.name, Name{Tokens: strings.Fields(t)}) >= nearlyFoundSimilarity {
				return true
			}
		}
	}
	return false
}

// fuzzy reports whether any term is searched within edits.
func (r Request) fuzzy() bool {
	for _, t := range r.Terms {
		if t.Fuzziness > 0 {
			return true
		}
	}
	return false
}

// withoutFuzziness is the request with exact terms only.
func (r Request) withoutFuzziness() Request {
	out := r
	out.Terms = make([]Term, len(r.Terms))
	for i, t := range r.Terms {
		t.Fuzziness = 0
		out.Terms[i] = t
	}
	return out
}

// admits reports whether an entry meets the filters (the record may have changed
// since the index answered).
func (f Filters) admits(e Entry) bool {
	return (f.Country == "" || e.Country == f.Country) && (f.State == "" || e.State == f.State) &&
		(f.City == "" || e.City == f.City) && (f.Zip == "" || e.Zip == f.Zip) &&
		(f.Phone == "" || containsString(e.Phones, f.Phone))
}

func containsString(list []string, s string) bool { return slices.Contains(list, s) }

// search asks the index, retrying failures with exponential backoff.
func (m *Matcher) search(ctx context.Context, req Request) ([]Entry, error) {
	delay := m.opts.Backoff
	var last error
	for attempt := 1; attempt <= m.opts.Attempts; attempt++ {
		entries, err := m.index.Search(ctx, req)
		if err == nil {
			return entries, nil
		}
		last = err
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		if attempt < m.opts.Attempts {
			t := time.NewTimer(delay)
			select {
			case <-ctx.Done():
				t.Stop()
				return nil, ctx.Err()
			case <-t.C:
			}
			delay *= 2
		}
	}
	return nil, fmt.Errorf("%w after %d attempts: %w", ErrSearchFailed, m.opts.Attempts, last)
}
