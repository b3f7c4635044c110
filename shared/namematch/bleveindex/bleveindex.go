// Package bleveindex is the embedded adapter of the namematch.Index port: a bleve v2
// (scorch) index on disk under the data directory.
//
// Entries arrive in comparison form (namematch normalizes), so the mapping does no
// language analysis: the name fields are split on whitespace only and the location
// fields are exact keywords. The whole entry is stored as one JSON field and returned
// as it was put.
package bleveindex

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"strings"

	"github.com/blevesearch/bleve/v2"
	"github.com/blevesearch/bleve/v2/analysis/analyzer/custom"
	"github.com/blevesearch/bleve/v2/analysis/analyzer/keyword"
	"github.com/blevesearch/bleve/v2/analysis/tokenizer/whitespace"
	"github.com/blevesearch/bleve/v2/mapping"
	"github.com/blevesearch/bleve/v2/search/query"

	"github.com/firmoapi/firmo/shared/apperr"
	"github.com/firmoapi/firmo/shared/namematch"
)

// MappingVersion is kept inside the index; an index built with another mapping is
// rebuilt from scratch when opened (the next sync fills it again).
const MappingVersion = "2"

var versionKey = []byte("firmo_mapping_version")

// Index is the adapter. It is safe for concurrent use.
type Index struct {
	idx bleve.Index
}

var _ namematch.Index = (*Index)(nil)

// Open opens the index at path, creating it when missing. An index made by another
// mapping version, or one that cannot be opened, is derived data: it is removed and
// made again empty (the next sync fills it). The caller holds the data directory's
// lock (the app opens its database first), so no other process uses the index.
func Open(path string) (*Index, error) {
	if idx, err := bleve.Open(path); err == nil {
		if v, err := idx.GetInternal(versionKey); err == nil && string(v) == MappingVersion {
			return &Index{idx: idx}, nil
		}
		idx.Close()
	}
	if err := os.RemoveAll(path); err != nil {
		return nil, fmt.Errorf("reset name index %s: %w", path, err)
	}
	idx, err := bleve.New(path, Mapping())
	if err != nil {
		return nil, fmt.Errorf("create name index %s: %w", path, err)
	}
	if err := idx.SetInternal(versionKey, []byte(MappingVersion)); err != nil {
		idx.Close()
		return nil, fmt.Errorf("create name index %s: %w", path, err)
	}
	return &Index{idx: idx}, nil
}

// Close releases the index.
func (x *Index) Close() error { return x.idx.Close() }

// Field names.
const (
	fieldText     = "text"
	fieldExact    = "exact"
	fieldJoined   = "joined"
	fieldDeletes  = "deletes" // tokens and their one-deletion variants (fuzziness 1)
	fieldAcronyms = "acronyms"
	fieldCountry  = "country"
	fieldState    = "state"
	fieldCity     = "city"
	fieldZip      = "zip"
	fieldPhones   = "phones"
	fieldEntry    = "entry" // the stored entry JSON
	fieldFP       = "fp"    // the stored fingerprint
	wsAnalyzer    = "firmo_ws"
)

// Mapping is the index mapping: whitespace-split name fields (term vectors on exact,
// for phrase queries), keyword location fields, and the stored entry.
func Mapping() *mapping.IndexMappingImpl {
	m := bleve.NewIndexMapping()
	if err := m.AddCustomAnalyzer(wsAnalyzer, map[string]any{"type": custom.Name, "tokenizer": whitespace.Name}); err != nil {
		panic(err) // a static, known-good definition
	}
	doc := bleve.NewDocumentStaticMapping()
	text := func(vectors bool) *mapping.FieldMapping {
		f := bleve.NewTextFieldMapping()
		f.Analyzer = wsAnalyzer
		f.Store = false
		f.IncludeInAll = false
		f.IncludeTermVectors = vectors
		f.DocValues = false
		return f
	}
	kw := func() *mapping.FieldMapping {
		f := bleve.NewKeywordFieldMapping()
		f.Analyzer = keyword.Name
		f.Store = false
		f.IncludeInAll = false
		f.IncludeTermVectors = false
		f.DocValues = false
		return f
	}
	doc.AddFieldMappingsAt(fieldText, text(false))
	doc.AddFieldMappingsAt(fieldExact, text(true))
	for _, name := range []string{fieldJoined, fieldDeletes, fieldAcronyms, fieldCountry, fieldState, fieldCity, fieldZip, fieldPhones} {
		doc.AddFieldMappingsAt(name, kw())
	}
	stored := bleve.NewTextFieldMapping()
	stored.Index = false
	stored.Store = true
	stored.IncludeInAll = false
	stored.IncludeTermVectors = false
	stored.DocValues = false
	doc.AddFieldMappingsAt(fieldEntry, stored)
	doc.AddFieldMappingsAt(fieldFP, stored)
	m.DefaultMapping = doc
	m.DefaultAnalyzer = keyword.Name
	m.StoreDynamic = false
	m.IndexDynamic = false
	m.DocValuesDynamic = false
	return m
}

// document is what bleve indexes for an entry.
func document(e namematch.Entry) (map[string]any, error) {
	raw, err := json.Marshal(e)
	if err != nil {
		return nil, err
	}
	var dels []string
	seen := map[string]bool{}
	for _, t := range e.Text {
		for _, tok := range strings.Fields(t) {
			for _, v := range deletes(tok) {
				if !seen[v] {
					seen[v] = true
					dels = append(dels, v)
				}
			}
		}
	}
	return map[string]any{
		fieldText: e.Text, fieldExact: e.Exact, fieldJoined: e.Joined, fieldDeletes: dels, fieldAcronyms: e.Acronyms,
		fieldCountry: e.Country, fieldState: e.State, fieldCity: e.City, fieldZip: e.Zip, fieldPhones: e.Phones,
		fieldEntry: string(raw), fieldFP: e.Fingerprint,
	}, nil
}

// Put implements namematch.Index.
func (x *Index) Put(ctx context.Context, entries []namematch.Entry) error {
	b := x.idx.NewBatch()
	for _, e := range entries {
		if e.Domain == "" {
			return fmt.Errorf("index entry without a domain: %w", apperr.ErrInvalid)
		}
		doc, err := document(e)
		if err != nil {
			return fmt.Errorf("index %s: %w", e.Domain, err)
		}
		if err := b.Index(e.Domain, doc); err != nil {
			return fmt.Errorf("index %s: %w", e.Domain, err)
		}
	}
	if err := x.idx.Batch(b); err != nil {
		return fmt.Errorf("write name index: %w", err)
	}
	return nil
}

// Delete implements namematch.Index.
func (x *Index) Delete(ctx context.Context, domains []string) error {
	b := x.idx.NewBatch()
	for _, d := range domains {
		b.Delete(d)
	}
	if err := x.idx.Batch(b); err != nil {
		return fmt.Errorf("delete from name index: %w", err)
	}
	return nil
}

// Search implements namematch.Index.
func (x *Index) Search(ctx context.Context, r namematch.Request) ([]namematch.Entry, error) {
	q := Query(r)
	if q == nil {
		return nil, nil
	}
	limit := r.Limit
	if limit <= 0 {
		limit = 10
	}
	req := bleve.NewSearchRequestOptions(q, limit, 0, false)
	req.Fields = []string{fieldEntry}
	res, err := x.idx.SearchInContext(ctx, req)
	if err != nil {
		return nil, fmt.Errorf("search name index: %w", err)
	}
	out := make([]namematch.Entry, 0, len(res.Hits))
	for _, h := range res.Hits {
		e, err := entryOf(h.Fields)
		if err != nil {
			return nil, fmt.Errorf("name index hit %s: %w", h.ID, err)
		}
		out = append(out, e)
	}
	return out, nil
}

func entryOf(fields map[string]any) (namematch.Entry, error) {
	s, ok := fields[fieldEntry].(string)
	if !ok {
		return namematch.Entry{}, errors.New("stored entry missing")
	}
	var e namematch.Entry
	err := json.Unmarshal([]byte(s), &e)
	return e, err
}

// Query builds the bleve query of a request; nil when the request can match nothing.
//
// Normal: a disjunction over the name tokens (each an exact term on text boosted by
// twice its weight; with fuzziness 1 its one-deletion variants on deletes at 0.3 of
// its weight, with fuzziness 2 a fuzzy term on text at its weight), the
// joined name on joined (boost 3), the query's acronym on text and, for a one-token
// query, the token on acronyms; the filters are required exact terms.
// Strict: a phrase query of the normalized name on exact, with the same filters.
func Query(r namematch.Request) query.Query {
	var must []query.Query
	if r.Phrase != "" {
		terms := strings.Fields(r.Phrase)
		if len(terms) == 0 {
			return nil
		}
		if len(terms) == 1 {
			must = append(must, term(fieldExact, terms[0], 1))
		} else {
			must = append(must, bleve.NewPhraseQuery(terms, fieldExact))
		}
	} else {
		var should []query.Query
		for _, t := range r.Terms {
			should = append(should, term(fieldText, t.Text, 2*t.Boost))
			switch {
			case t.Fuzziness == 1:
				// Symmetric deletion: two words within one edit (insertion, deletion,
				// substitution or a swap of neighbours) share the word or a one-deletion
				// variant. Exact term lookups, where a fuzzy query builds an automaton.
				for _, v := range deletes(t.Text) {
					should = append(should, term(fieldDeletes, v, 0.3*t.Boost))
				}
			case t.Fuzziness > 1:
				f := bleve.NewFuzzyQuery(t.Text)
				f.SetField(fieldText)
				f.SetFuzziness(t.Fuzziness)
				f.SetBoost(t.Boost)
				should = append(should, f)
			}
		}
		if r.Joined != "" {
			should = append(should, term(fieldJoined, r.Joined, 3))
		}
		if r.Acronym != "" {
			should = append(should, term(fieldText, r.Acronym, 1))
		}
		if len(r.Terms) == 1 {
			should = append(should, term(fieldAcronyms, r.Terms[0].Text, 1))
		}
		if len(should) == 0 {
			return nil
		}
		d := bleve.NewDisjunctionQuery(should...)
		d.SetMin(1)
		must = append(must, d)
	}
	f := r.Filters
	for _, c := range [][2]string{{fieldCountry, f.Country}, {fieldState, f.State}, {fieldCity, f.City}, {fieldZip, f.Zip}, {fieldPhones, f.Phone}} {
		if c[1] != "" {
			must = append(must, term(c[0], c[1], 0.01))
		}
	}
	if len(must) == 1 {
		return must[0]
	}
	return bleve.NewConjunctionQuery(must...)
}

// deletes returns a token and its one-deletion variants, for tokens of four or more
// characters (shorter ones only match exactly).
func deletes(tok string) []string {
	r := []rune(tok)
	if len(r) < 4 {
		return nil
	}
	out := []string{tok}
	seen := map[string]bool{tok: true}
	for i := range r {
		v := string(r[:i]) + string(r[i+1:])
		if !seen[v] {
			seen[v] = true
			out = append(out, v)
		}
	}
	return out
}

func term(field, value string, boost float64) *query.TermQuery {
	q := bleve.NewTermQuery(value)
	q.SetField(field)
	q.SetBoost(boost)
	return q
}

// fingerprintPage is how many entries one Fingerprints page reads.
const fingerprintPage = 2000

// Fingerprints implements namematch.Index, paging through every entry by id.
func (x *Index) Fingerprints(ctx context.Context) (map[string]string, error) {
	out := map[string]string{}
	var after []string
	for {
		req := bleve.NewSearchRequestOptions(bleve.NewMatchAllQuery(), fingerprintPage, 0, false)
		req.Fields = []string{fieldFP}
		req.SortBy([]string{"_id"})
		if after != nil {
			req.SearchAfter = after
		}
		res, err := x.idx.SearchInContext(ctx, req)
		if err != nil {
			return nil, fmt.Errorf("list name index: %w", err)
		}
		for _, h := range res.Hits {
			fp, _ := h.Fields[fieldFP].(string)
			out[h.ID] = fp
		}
		if len(res.Hits) < fingerprintPage {
			return out, nil
		}
		after = []string{res.Hits[len(res.Hits)-1].ID}
	}
}

// Count is the number of entries.
func (x *Index) Count() (uint64, error) { return x.idx.DocCount() }
