// Package osindex is the OpenSearch k-NN adapter of the vector.Index port and of
// contactsearch.RemoteIndex, the contact document index behind contact search on AWS: one
// document per contact with the fields contact search filters on and a knn_vector (HNSW)
// of its embedding.
//
// Writes go through the _bulk API; similarity searches are knn queries whose filter sits
// inside the knn clause (efficient filtering), built by KNNQuery; filter-only searches are
// bool queries built by FilterQuery. The mapping and the queries are checked against golden
// JSON in testdata/; the integration suite runs against a live cluster when OPENSEARCH_URL is
// set.
package osindex

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"strconv"

	"github.com/opensearch-project/opensearch-go/v4/opensearchapi"

	"github.com/firmoapi/firmo/shared/apperr"
	"github.com/firmoapi/firmo/shared/contactsearch"
	"github.com/firmoapi/firmo/shared/osclient"
	"github.com/firmoapi/firmo/shared/vector"
)

// Config names the index and its k-NN method. Zero fields take the defaults.
type Config struct {
	Index          string // default "contacts"
	Dims           int    // default 384
	Engine         string // "lucene" (default) or "faiss"
	M              int    // HNSW links per node; default 16
	EfConstruction int    // default 128
	EfSearch       int    // default 100 (faiss reads it; lucene searches with k)
	Shards         int    // default 1
	Replicas       *int   // default 1; tests use 0
	// Refresh is passed to write requests: "" (default: visible within the refresh
	// interval), "wait_for" (tests and single interactive writes) or "true".
	Refresh string
}

func (c Config) withDefaults() Config {
	if c.Index == "" {
		c.Index = "contacts"
	}
	if c.Dims <= 0 {
		c.Dims = 384
	}
	if c.Engine == "" {
		c.Engine = "lucene"
	}
	if c.M <= 0 {
		c.M = 16
	}
	if c.EfConstruction <= 0 {
		c.EfConstruction = 128
	}
	if c.EfSearch <= 0 {
		c.EfSearch = 100
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

// MaxK is the most hits one OpenSearch search returns (index.max_result_window).
const MaxK = 10_000

// document is the wire form of a contactsearch.Document: its JSON names are the index's
// field names (query.go's mapping). Empty optional fields are left out.
//
// It has exactly contactsearch.Document's fields, so toDocument is a conversion and a
// field added there without a wire name here fails to compile.
type document struct {
	PersonaID      int64     `json:"persona_id"`
	Domain         string    `json:"domain,omitempty"`
	Name           string    `json:"name,omitempty"`
	Title          string    `json:"title,omitempty"`
	Department     string    `json:"department,omitempty"`
	Seniority      string    `json:"seniority,omitempty"`
	Country        string    `json:"country,omitempty"`
	State          string    `json:"state,omitempty"`
	Skills         []string  `json:"skills,omitempty"`
	Summary        string    `json:"summary,omitempty"`
	HasEmail       bool      `json:"has_email"`
	EmailValidated bool      `json:"email_validated"`
	HasPhone       bool      `json:"has_phone"`
	HasMobile      bool      `json:"has_mobile"`
	HasLinkedIn    bool      `json:"has_linkedin"`
	Connections    int       `json:"connections"`
	JobStartDate   string    `json:"jobstart_date,omitempty"` // yyyy-MM-dd
	Industry       []string  `json:"industry,omitempty"`
	Employees      string    `json:"employees,omitempty"`
	CompanyCountry string    `json:"company_country,omitempty"`
	CompanyState   string    `json:"company_state,omitempty"`
	Vector         []float32 `json:"contact_vector,omitempty"`
	FP             string    `json:"fp,omitempty"`
}

func toDocument(d contactsearch.Document) document { return document(d) }

// MaxTermsIDs is the most persona ids one terms filter may carry (OpenSearch's default
// index.max_terms_count); a larger candidate set must be searched another way.
const MaxTermsIDs = 65_536

// IAMActions are the Amazon OpenSearch Service actions the adapter's own requests need
// (_count is a POST); the rest go through osclient.Index (osclient.IAMActions).
// TestIAMActions and the template test compare them with the code.
var IAMActions = []string{"es:ESHttpPost"}

// Index is the adapter. It is safe for concurrent use.
type Index struct {
	ix  osclient.Index
	cfg Config
}

var (
	_ vector.Index              = (*Index)(nil)
	_ contactsearch.RemoteIndex = (*Index)(nil)
)

// New returns the adapter over client. Call EnsureIndex once before use.
func New(client *opensearchapi.Client, cfg Config) *Index {
	cfg = cfg.withDefaults()
	return &Index{ix: osclient.Index{Client: client, Name: cfg.Index, Refresh: cfg.Refresh}, cfg: cfg}
}

// Config returns the configuration in force (defaults filled in).
func (x *Index) Config() Config { return x.cfg }

// Dims implements vector.Index.
func (x *Index) Dims() int { return x.cfg.Dims }

// MaxCandidates implements contactsearch.RemoteIndex: a candidate set becomes one terms
// filter.
func (x *Index) MaxCandidates() int { return MaxTermsIDs }

// EnsureIndex creates the index with its mapping unless it exists.
func (x *Index) EnsureIndex(ctx context.Context) error { return x.ix.Create(ctx, x.cfg.Mapping()) }

// DeleteIndex drops the index (tests and re-indexing).
func (x *Index) DeleteIndex(ctx context.Context) error { return x.ix.Drop(ctx) }

// BulkOp is one line pair of a _bulk body.
type BulkOp struct {
	Action string // "index", "update" or "delete"
	ID     int64
	Source any // the document, the partial update, or nil for delete
}

// BulkBody encodes operations as the NDJSON body of the _bulk API.
func BulkBody(index string, ops []BulkOp) ([]byte, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf) // Encode ends each value with the newline NDJSON needs
	for _, op := range ops {
		meta := map[string]any{op.Action: map[string]any{"_index": index, "_id": docID(op.ID)}}
		if err := enc.Encode(meta); err != nil {
			return nil, err
		}
		if op.Action == "delete" {
			continue
		}
		if err := enc.Encode(op.Source); err != nil {
			return nil, fmt.Errorf("bulk %s %d: %w", op.Action, op.ID, err)
		}
	}
	return buf.Bytes(), nil
}

// Put indexes whole contact documents in one _bulk request, normalizing their vectors.
// Callers batch (a few thousand documents or ~10 MB per call).
func (x *Index) Put(ctx context.Context, docs []contactsearch.Document) error {
	ops := make([]BulkOp, 0, len(docs))
	for _, cd := range docs {
		d := toDocument(cd)
		if d.Vector != nil {
			v, err := vector.Check(d.Vector, x.cfg.Dims)
			if err != nil {
				return fmt.Errorf("contact %d: %w", d.PersonaID, err)
			}
			d.Vector = v
		}
		ops = append(ops, BulkOp{Action: "index", ID: d.PersonaID, Source: d})
	}
	return x.bulk(ctx, ops)
}

// Upsert implements vector.Index: it sets the vector of a contact document, creating a
// document holding only persona_id and the vector when none exists yet.
func (x *Index) Upsert(ctx context.Context, id int64, vec []float32) error {
	v, err := vector.Check(vec, x.cfg.Dims)
	if err != nil {
		return fmt.Errorf("upsert %d: %w", id, err)
	}
	src := map[string]any{"doc": map[string]any{"persona_id": id, VectorField: v}, "doc_as_upsert": true}
	return x.bulk(ctx, []BulkOp{{Action: "update", ID: id, Source: src}})
}

// Delete implements vector.Index; a missing document is not an error.
func (x *Index) Delete(ctx context.Context, id int64) error {
	return x.Remove(ctx, []int64{id})
}

// Remove deletes documents in one _bulk request; missing ones are not an error.
func (x *Index) Remove(ctx context.Context, ids []int64) error {
	ops := make([]BulkOp, len(ids))
	for i, id := range ids {
		ops[i] = BulkOp{Action: "delete", ID: id}
	}
	return x.bulk(ctx, ops)
}

// scanPage is how many documents one Stored page reads: with 384-dim vectors a page
// is a few MB of JSON.
const scanPage = 1000

// ScanBody is the _search body of one Stored page: persona id, fingerprint and vector
// of the documents after persona id after (-1: from the start), in persona id order.
func ScanBody(after int64) map[string]any {
	b := map[string]any{
		"size":    scanPage,
		"query":   map[string]any{"match_all": map[string]any{}},
		"_source": []string{"persona_id", "fp", VectorField},
		"sort":    []any{map[string]any{"persona_id": "asc"}},
	}
	if after >= 0 {
		b["search_after"] = []int64{after}
	}
	return b
}

// Stored calls fn with the persona id, fingerprint and vector of every document, paging
// by persona id with search_after. A vector is nil when the document has none.
func (x *Index) Stored(ctx context.Context, fn func(id int64, fp string, vec []float32) error) error {
	after := int64(-1)
	for {
		resp, err := x.search(ctx, ScanBody(after))
		if err != nil {
			return err
		}
		for _, h := range resp.Hits.Hits {
			var d struct {
				PersonaID *int64    `json:"persona_id"`
				FP        string    `json:"fp"`
				Vector    []float32 `json:"contact_vector"`
			}
			if err := json.Unmarshal(h.Source, &d); err != nil || d.PersonaID == nil {
				return fmt.Errorf("contact index document %s has no persona_id: %w", h.ID, apperr.ErrInternal)
			}
			if err := fn(*d.PersonaID, d.FP, d.Vector); err != nil {
				return err
			}
			after = *d.PersonaID
		}
		if len(resp.Hits.Hits) < scanPage {
			return nil
		}
	}
}

func (x *Index) bulk(ctx context.Context, ops []BulkOp) error {
	if len(ops) == 0 {
		return nil
	}
	body, err := BulkBody(x.cfg.Index, ops)
	if err != nil {
		return err
	}
	return x.ix.Bulk(ctx, body)
}

// Len implements vector.Index: the number of documents holding a vector.
func (x *Index) Len(ctx context.Context) (int, error) {
	body := `{"query":{"exists":{"field":"` + VectorField + `"}}}`
	resp, err := x.ix.Client.Indices.Count(ctx, &opensearchapi.IndicesCountReq{Indices: []string{x.cfg.Index}, Body: bytes.NewReader([]byte(body))})
	if err != nil {
		return 0, osclient.Unavailable("count", err)
	}
	return resp.Count, nil
}

// Search implements vector.Index. A candidate set (Filter.IDs) becomes a terms filter inside
// the knn clause. OpenSearch cannot run a Go predicate (Filter.Allow): it is applied to the
// MaxK nearest documents afterwards, which can miss matches that lie further out; contact
// search passes its filters as a Where to SearchWhere instead.
func (x *Index) Search(ctx context.Context, query []float32, k int, f vector.Filter) ([]vector.Hit, error) {
	if err := vector.CheckK(k); err != nil {
		return nil, err
	}
	var w Where
	if f.IDs != nil {
		if len(f.IDs) == 0 {
			return nil, nil
		}
		w.IDs = f.IDs
	}
	if f.Allow == nil {
		return x.SearchWhere(ctx, query, k, w)
	}
	hits, err := x.SearchWhere(ctx, query, MaxK, w)
	if err != nil {
		return nil, err
	}
	out := hits[:0]
	for _, h := range hits {
		if f.Allow(h.ID) {
			out = append(out, h)
			if len(out) == k {
				break
			}
		}
	}
	return out, nil
}

// SearchWhere returns the k contacts nearest to query among those matching w.
func (x *Index) SearchWhere(ctx context.Context, query []float32, k int, w Where) ([]vector.Hit, error) {
	if err := vector.CheckK(k); err != nil {
		return nil, err
	}
	if k > MaxK {
		return nil, apperr.Invalid("k", "k is at most %d, got %d", MaxK, k)
	}
	q, err := vector.Check(query, x.cfg.Dims)
	if err != nil {
		return nil, fmt.Errorf("search: %w", err)
	}
	body, err := KNNQuery(q, k, w)
	if err != nil {
		return nil, err
	}
	resp, err := x.search(ctx, body)
	if err != nil {
		return nil, err
	}
	hits := make([]vector.Hit, 0, len(resp.Hits.Hits))
	for _, h := range resp.Hits.Hits {
		id, err := hitID(h)
		if err != nil {
			return nil, err
		}
		hits = append(hits, vector.Hit{ID: id, Score: float32(osclient.KNNCosine(x.cfg.Engine, float64(h.Score)))})
	}
	vector.SortHits(hits)
	return hits, nil
}

// Filter returns one page of persona ids matching w (persona_id order) and the total.
func (x *Index) Filter(ctx context.Context, w Where, from, size int) ([]int64, int, error) {
	body, err := FilterQuery(w, from, size)
	if err != nil {
		return nil, 0, err
	}
	resp, err := x.search(ctx, body)
	if err != nil {
		return nil, 0, err
	}
	ids := make([]int64, 0, len(resp.Hits.Hits))
	for _, h := range resp.Hits.Hits {
		id, err := hitID(h)
		if err != nil {
			return nil, 0, err
		}
		ids = append(ids, id)
	}
	return ids, resp.Hits.Total.Value, nil
}

func (x *Index) search(ctx context.Context, body map[string]any) (*opensearchapi.SearchResp, error) {
	return x.ix.Search(ctx, body)
}

func hitID(h opensearchapi.SearchHit) (int64, error) {
	var src struct {
		PersonaID *int64 `json:"persona_id"`
	}
	if err := json.Unmarshal(h.Source, &src); err == nil && src.PersonaID != nil {
		return *src.PersonaID, nil
	}
	id, err := strconv.ParseInt(h.ID, 10, 64)
	if err != nil {
		return 0, fmt.Errorf("hit %q has no persona_id: %w", h.ID, apperr.ErrInternal)
	}
	return id, nil
}
