// Package osmatch is the OpenSearch adapter of the namematch.Index port, for the AWS
// composition: one document per company (id: the domain) holding the entry as
// namematch built it.
//
// Entries arrive in comparison form, so the mapping analyses name fields with a
// whitespace tokenizer only and keeps location fields as keywords. A normal search is a
// bool query whose should clauses are the name tokens (term, and fuzzy with
// transpositions within the token's edit budget), the joined name and acronyms, with
// the location filters as filter clauses (they do not score); a strict search is a
// match_phrase on the unexpanded names. The mapping, the queries and the bulk bodies
// are checked against golden JSON in testdata/; the contract suite runs against a live
// cluster when OPENSEARCH_URL is set.
package osmatch

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/opensearch-project/opensearch-go/v4/opensearchapi"

	"github.com/firmoapi/firmo/shared/apperr"
	"github.com/firmoapi/firmo/shared/namematch"
	"github.com/firmoapi/firmo/shared/osclient"
)

// Config names the index. Zero fields take the defaults.
type Config struct {
	Index    string // default "company-names"
	Shards   int    // default 1
	Replicas *int   // default 1 (a node can fail without losing matching); tests use 0
	// Refresh is passed to write requests: "" (visible within the refresh interval),
	// "wait_for" (tests) or "true".
	Refresh string
}

func (c Config) withDefaults() Config {
	if c.Index == "" {
		c.Index = "company-names"
	}
	if c.Shards <= 0 {
		c.Shards = 1
	}
	if c.Replicas == nil || *c.Replicas < 0 {
		one := 1
		c.Replicas = &one
	}
	return c
}

// Index is the adapter. It is safe for concurrent use.
type Index struct {
	ix  osclient.Index
	cfg Config
}

var _ namematch.Index = (*Index)(nil)

// New returns the adapter over client. Call EnsureIndex once before use.
func New(client *opensearchapi.Client, cfg Config) *Index {
	cfg = cfg.withDefaults()
	return &Index{ix: osclient.Index{Client: client, Name: cfg.Index, Refresh: cfg.Refresh}, cfg: cfg}
}

// Config returns the configuration in force.
func (x *Index) Config() Config { return x.cfg }

const wsAnalyzer = "firmo_ws"

// Mapping is the index body: a whitespace analyzer, strict dynamic mapping, name
// fields as text (positions kept on exact for phrases), location fields as keywords,
// the display names and fingerprint stored but not searched.
func (c Config) Mapping() map[string]any {
	c = c.withDefaults()
	text := map[string]any{"type": "text", "analyzer": wsAnalyzer, "norms": true}
	kw := map[string]any{"type": "keyword"}
	stored := map[string]any{"type": "keyword", "index": false, "doc_values": false}
	return map[string]any{
		"settings": map[string]any{
			"number_of_shards":   c.Shards,
			"number_of_replicas": *c.Replicas,
			"analysis": map[string]any{"analyzer": map[string]any{
				wsAnalyzer: map[string]any{"type": "custom", "tokenizer": "whitespace"},
			}},
		},
		"mappings": map[string]any{
			"dynamic": "strict",
			"properties": map[string]any{
				"domain": kw, "names": stored, "text": text, "exact": text, "joined": kw, "acronyms": kw,
				"country": kw, "state": kw, "city": kw, "zip": kw, "phones": kw, "fp": stored,
			},
		},
	}
}

// SearchBody builds the _search body of a request; nil when it can match nothing.
func SearchBody(r namematch.Request) map[string]any {
	limit := r.Limit
	if limit <= 0 {
		limit = 10
	}
	var filter []any
	f := r.Filters
	for _, c := range [][2]string{{"country", f.Country}, {"state", f.State}, {"city", f.City}, {"zip", f.Zip}, {"phones", f.Phone}} {
		if c[1] != "" {
			filter = append(filter, map[string]any{"term": map[string]any{c[0]: c[1]}})
		}
	}
	b := map[string]any{}
	if r.Phrase != "" {
		if strings.TrimSpace(r.Phrase) == "" {
			return nil
		}
		b["must"] = []any{map[string]any{"match_phrase": map[string]any{"exact": r.Phrase}}}
	} else {
		var should []any
		term := func(field, value string, boost float64) map[string]any {
			return map[string]any{"term": map[string]any{field: map[string]any{"value": value, "boost": boost}}}
		}
		for _, t := range r.Terms {
			should = append(should, term("text", t.Text, 2*t.Boost))
			if t.Fuzziness > 0 {
				should = append(should, map[string]any{"fuzzy": map[string]any{"text": map[string]any{
					"value": t.Text, "fuzziness": t.Fuzziness, "transpositions": true, "prefix_length": 0, "max_expansions": 50, "boost": t.Boost,
				}}})
			}
		}
		if r.Joined != "" {
			should = append(should, term("joined", r.Joined, 3))
		}
		if r.Acronym != "" {
			should = append(should, term("text", r.Acronym, 1))
		}
		if len(r.Terms) == 1 {
			should = append(should, term("acronyms", r.Terms[0].Text, 1))
		}
		if len(should) == 0 {
			return nil
		}
		b["should"] = should
		b["minimum_should_match"] = 1
	}
	if len(filter) > 0 {
		b["filter"] = filter
	}
	return map[string]any{"size": limit, "query": map[string]any{"bool": b}}
}

// document is the indexed form of an entry.
type document struct {
	Domain   string   `json:"domain"`
	Names    []string `json:"names"`
	Text     []string `json:"text"`
	Exact    []string `json:"exact"`
	Joined   []string `json:"joined"`
	Acronyms []string `json:"acronyms,omitempty"`
	Country  string   `json:"country,omitempty"`
	State    string   `json:"state,omitempty"`
	City     string   `json:"city,omitempty"`
	Zip      string   `json:"zip,omitempty"`
	Phones   []string `json:"phones,omitempty"`
	FP       string   `json:"fp"`
}

func docOf(e namematch.Entry) document {
	return document{Domain: e.Domain, Names: e.Names, Text: e.Text, Exact: e.Exact, Joined: e.Joined, Acronyms: e.Acronyms,
		Country: e.Country, State: e.State, City: e.City, Zip: e.Zip, Phones: e.Phones, FP: e.Fingerprint}
}

func (d document) entry() namematch.Entry {
	return namematch.Entry{Domain: d.Domain, Names: d.Names, Text: d.Text, Exact: d.Exact, Joined: d.Joined, Acronyms: d.Acronyms,
		Country: d.Country, State: d.State, City: d.City, Zip: d.Zip, Phones: d.Phones, Fingerprint: d.FP}
}

// BulkBody encodes index operations (entries) and delete operations (domains) as the
// NDJSON body of the _bulk API.
func BulkBody(index string, put []namematch.Entry, del []string) ([]byte, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	for _, e := range put {
		if e.Domain == "" {
			return nil, fmt.Errorf("index entry without a domain: %w", apperr.ErrInvalid)
		}
		if err := enc.Encode(map[string]any{"index": map[string]any{"_index": index, "_id": e.Domain}}); err != nil {
			return nil, err
		}
		if err := enc.Encode(docOf(e)); err != nil {
			return nil, err
		}
	}
	for _, d := range del {
		if err := enc.Encode(map[string]any{"delete": map[string]any{"_index": index, "_id": d}}); err != nil {
			return nil, err
		}
	}
	return buf.Bytes(), nil
}

// EnsureIndex creates the index unless it exists.
func (x *Index) EnsureIndex(ctx context.Context) error { return x.ix.Create(ctx, x.cfg.Mapping()) }

// DeleteIndex drops the index (tests, re-indexing).
func (x *Index) DeleteIndex(ctx context.Context) error { return x.ix.Drop(ctx) }

// Put implements namematch.Index.
func (x *Index) Put(ctx context.Context, entries []namematch.Entry) error {
	return x.bulk(ctx, entries, nil)
}

// Delete implements namematch.Index; unknown domains are ignored.
func (x *Index) Delete(ctx context.Context, domains []string) error {
	return x.bulk(ctx, nil, domains)
}

func (x *Index) bulk(ctx context.Context, put []namematch.Entry, del []string) error {
	if len(put)+len(del) == 0 {
		return nil
	}
	body, err := BulkBody(x.cfg.Index, put, del)
	if err != nil {
		return err
	}
	return x.ix.Bulk(ctx, body)
}

// Search implements namematch.Index.
func (x *Index) Search(ctx context.Context, r namematch.Request) ([]namematch.Entry, error) {
	body := SearchBody(r)
	if body == nil {
		return nil, nil
	}
	resp, err := x.search(ctx, body)
	if err != nil {
		return nil, err
	}
	out := make([]namematch.Entry, 0, len(resp.Hits.Hits))
	for _, h := range resp.Hits.Hits {
		var d document
		if err := json.Unmarshal(h.Source, &d); err != nil {
			return nil, fmt.Errorf("name index hit %s: %w", h.ID, err)
		}
		out = append(out, d.entry())
	}
	return out, nil
}

// fingerprintPage is how many documents one Fingerprints page reads.
const fingerprintPage = 5000

// FingerprintsBody is the _search body of one Fingerprints page.
func FingerprintsBody(after string) map[string]any {
	b := map[string]any{
		"size":    fingerprintPage,
		"query":   map[string]any{"match_all": map[string]any{}},
		"_source": []string{"domain", "fp"},
		"sort":    []any{map[string]any{"domain": "asc"}},
	}
	if after != "" {
		b["search_after"] = []string{after}
	}
	return b
}

// Fingerprints implements namematch.Index, paging by domain with search_after.
func (x *Index) Fingerprints(ctx context.Context) (map[string]string, error) {
	out := map[string]string{}
	after := ""
	for {
		resp, err := x.search(ctx, FingerprintsBody(after))
		if err != nil {
			return nil, err
		}
		for _, h := range resp.Hits.Hits {
			var d struct {
				Domain string `json:"domain"`
				FP     string `json:"fp"`
			}
			if err := json.Unmarshal(h.Source, &d); err != nil {
				return nil, fmt.Errorf("name index document %s: %w", h.ID, err)
			}
			out[d.Domain] = d.FP
			after = d.Domain
		}
		if len(resp.Hits.Hits) < fingerprintPage {
			return out, nil
		}
	}
}

func (x *Index) search(ctx context.Context, body map[string]any) (*opensearchapi.SearchResp, error) {
	return x.ix.Search(ctx, body)
}
