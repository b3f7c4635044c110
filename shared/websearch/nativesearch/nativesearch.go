// Package nativesearch is the websearch.Searcher over Firmo's own page index: the
// pages (home, team, ...) the company store holds, so web search works offline and in
// the demo world.
//
// The index is an in-memory inverted index built from the store on first use and
// rebuilt when older than Options.MaxAge. Each page is one document: its company's
// name and domain, its title, description and the start of its text. Scoring is BM25
// (k1 1.2, b 0.75); a query naming a domain keeps to that domain's pages, since
// research queries are about one company. On AWS the same port would be served by
// OpenSearch's full-text index; this adapter is for the local composition.
package nativesearch

import (
	"context"
	"fmt"
	"math"
	"sort"
	"strings"
	"sync"
	"time"
	"unicode"

	"github.com/firmoapi/firmo/shared/company"
	"github.com/firmoapi/firmo/shared/domain"
	"github.com/firmoapi/firmo/shared/websearch"
)

// Source is the part of the company store the index reads.
type Source interface {
	List(ctx context.Context, cursor string, limit int) ([]company.Record, string, error)
	Pages(ctx context.Context, domain string) ([]company.Page, error)
}

// Options tune the index.
type Options struct {
	MaxAge   time.Duration // rebuild after this long; default 10 minutes
	TextSize int           // characters of page text indexed; default 4000
}

// Index is the native searcher. It is safe for concurrent use.
type Index struct {
	src  Source
	opts Options

	mu    sync.Mutex
	built time.Time
	idx   *index
}

var _ websearch.Searcher = (*Index)(nil)

// New returns an Index over src.
func New(src Source, o Options) *Index {
	if o.MaxAge <= 0 {
		o.MaxAge = 10 * time.Minute
	}
	if o.TextSize <= 0 {
		o.TextSize = 4000
	}
	return &Index{src: src, opts: o}
}

type doc struct {
	domain, url, title, text string
	length                   int
}

type posting struct {
	doc int32
	tf  uint16
}

type index struct {
	docs     []doc
	postings map[string][]posting
	byDomain map[string][]int32
	avgLen   float64
}

// Search implements websearch.Searcher.
func (x *Index) Search(ctx context.Context, query string, n int) ([]websearch.Result, error) {
	idx, err := x.current(ctx)
	if err != nil {
		return nil, err
	}
	if n <= 0 {
		n = 10
	}
	return idx.search(query, n), nil
}

// Refresh rebuilds the index now.
func (x *Index) Refresh(ctx context.Context) error {
	idx, err := build(ctx, x.src, x.opts.TextSize)
	if err != nil {
		return err
	}
	x.mu.Lock()
	x.idx, x.built = idx, time.Now()
	x.mu.Unlock()
	return nil
}

func (x *Index) current(ctx context.Context) (*index, error) {
	x.mu.Lock()
	defer x.mu.Unlock()
	if x.idx != nil && time.Since(x.built) < x.opts.MaxAge {
		return x.idx, nil
	}
	// Built under the lock: concurrent first searches wait for one build.
	idx, err := build(ctx, x.src, x.opts.TextSize)
	if err != nil {
		if x.idx != nil { // keep serving the stale index
			return x.idx, nil
		}
		return nil, fmt.Errorf("%w (native index: %v)", websearch.ErrUnavailable, err)
	}
	x.idx, x.built = idx, time.Now()
	return idx, nil
}

func build(ctx context.Context, src Source, textSize int) (*index, error) {
	idx := &index{postings: map[string][]posting{}, byDomain: map[string][]int32{}}
	total := 0
	cursor := ""
	for {
		recs, next, err := src.List(ctx, cursor, 500)
		if err != nil {
			return nil, fmt.Errorf("list companies: %w", err)
		}
		for _, r := range recs {
			pages, err := src.Pages(ctx, r.Domain)
			if err != nil {
				continue // a company without pages is simply not searchable
			}
			for _, p := range pages {
				text := p.Text
				if len(text) > textSize {
					text = text[:textSize]
				}
				title := p.Title
				if title == "" {
					title = r.Raw.Name
				}
				body := strings.Join([]string{r.Raw.Name, r.Domain, p.Title, p.Description, text}, " ")
				total += idx.add(doc{domain: r.Domain, url: p.URL, title: title, text: firstNonEmpty(p.Description, text)}, body)
			}
		}
		if next == "" {
			break
		}
		cursor = next
	}
	if len(idx.docs) > 0 {
		idx.avgLen = float64(total) / float64(len(idx.docs))
	}
	return idx, nil
}

func (idx *index) add(d doc, body string) int {
	id := int32(len(idx.docs))
	tf := map[string]int{}
	toks := tokens(body)
	for _, t := range toks {
		tf[t]++
	}
	for t, c := range tf {
		idx.postings[t] = append(idx.postings[t], posting{doc: id, tf: uint16(min(c, math.MaxUint16))})
	}
	d.length = len(toks)
	idx.docs = append(idx.docs, d)
	idx.byDomain[d.domain] = append(idx.byDomain[d.domain], id)
	return len(toks)
}

func (idx *index) search(query string, n int) []websearch.Result {
	// A query naming a company's domain keeps to its pages.
	var only map[int32]bool
	for _, f := range strings.Fields(query) {
		if d, err := domain.Normalize(strings.Trim(f, `"'(),;`)); err == nil && strings.Contains(f, ".") {
			if ids, ok := idx.byDomain[d]; ok {
				only = map[int32]bool{}
				for _, id := range ids {
					only[id] = true
				}
				break
			}
		}
	}
	const k1, b = 1.2, 0.75
	scores := map[int32]float64{}
	N := float64(len(idx.docs))
	seen := map[string]bool{}
	for _, t := range tokens(query) {
		if seen[t] {
			continue
		}
		seen[t] = true
		ps := idx.postings[t]
		if len(ps) == 0 {
			continue
		}
		idf := math.Log(1 + (N-float64(len(ps))+0.5)/(float64(len(ps))+0.5))
		for _, p := range ps {
			if only != nil && !only[p.doc] {
				continue
			}
			tf := float64(p.tf)
			dl := float64(idx.docs[p.doc].length)
			scores[p.doc] += idf * tf * (k1 + 1) / (tf + k1*(1-b+b*dl/idx.avgLen))
		}
	}
	if len(scores) == 0 && only != nil {
		for id := range only {
			scores[id] = 0
		}
	}
	ids := make([]int32, 0, len(scores))
	for id := range scores {
		ids = append(ids, id)
	}
	sort.Slice(ids, func(i, j int) bool {
		if scores[ids[i]] != scores[ids[j]] {
			return scores[ids[i]] > scores[ids[j]]
		}
		return ids[i] < ids[j]
	})
	if len(ids) > n {
		ids = ids[:n]
	}
	out := make([]websearch.Result, 0, len(ids))
	for _, id := range ids {
		d := idx.docs[id]
		out = append(out, websearch.Result{URL: d.url, Title: d.title, Snippet: snippet(d.text, query, 300)})
	}
	return out
}

// snippet returns up to size characters of text around the first query word found.
func snippet(text, query string, size int) string {
	lower := strings.ToLower(text)
	start := 0
	for _, t := range tokens(query) {
		if i := strings.Index(lower, t); i >= 0 {
			start = max(0, i-size/3)
			break
		}
	}
	r := []rune(text[start:])
	if len(r) > size {
		r = r[:size]
	}
	return strings.TrimSpace(string(r))
}

var stop = map[string]bool{"the": true, "a": true, "an": true, "and": true, "or": true, "of": true, "to": true, "in": true,
	"is": true, "for": true, "on": true, "with": true, "what": true, "who": true, "does": true, "at": true, "by": true, "com": true, "www": true}

// tokens lower-cases and splits on anything but letters and digits, dropping stop
// words; a domain splits into its labels (acme.com -> acme).
func tokens(s string) []string {
	f := strings.FieldsFunc(strings.ToLower(s), func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) })
	out := f[:0]
	for _, t := range f {
		if len(t) > 1 && !stop[t] {
			out = append(out, t)
		}
	}
	return out
}

func firstNonEmpty(a, b string) string {
	if strings.TrimSpace(a) != "" {
		return a
	}
	return b
}
