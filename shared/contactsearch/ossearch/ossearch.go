// Package ossearch is the OpenSearch adapter of contactsearch.Engine: every contact
// search, count and similarity search runs as OpenSearch queries over one document per
// contact, so no process holds a snapshot of the contacts.
//
//   - A document carries the contact as a search returns it, its employer's entry fields,
//     and the fields the filters match on, its employer's filter fields (industries, size
//     bucket, country and state) and its icp_prompt signal text denormalized into it;
//     UpdateCompany rewrites those in every document of a company when the company is
//     derived again.
//   - icp_prompt's company signals are a company search over those documents
//     (signals.go): aggregations count companies for the words' idf, then a scored,
//     collapsed search returns the matching companies.
//   - Similarity is a knn query with the filter inside the knn clause (efficient
//     filtering); filter mode is a bool query sorted by persona id.
//   - Grouping by company is collapse on domain with results_by_company inner hits;
//     without a per-company cap the flat ranked list is grouped as the embedded search
//     groups it (contactsearch.Select).
//   - Counts are _count.
//   - Saved-query lists longer than index.max_terms_count are terms lookups on chunks of
//     the list stored in a lists index.
//
// The request bodies are checked against golden JSON in testdata/ and the contract suite
// (shared/contactsearch/contactsearchtest) runs on a fake OpenSearch in the test kit; the
// same suite runs against a live cluster when OPENSEARCH_URL is set (README).
package ossearch

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"sort"
	"strconv"
	"sync"
	"time"

	"github.com/opensearch-project/opensearch-go/v4/opensearchapi"

	"github.com/firmoapi/firmo/shared/apperr"
	"github.com/firmoapi/firmo/shared/company"
	"github.com/firmoapi/firmo/shared/company/contactfields"
	"github.com/firmoapi/firmo/shared/company/oscontactfields"
	"github.com/firmoapi/firmo/shared/config"
	"github.com/firmoapi/firmo/shared/contact"
	"github.com/firmoapi/firmo/shared/contactsearch"
	"github.com/firmoapi/firmo/shared/osclient"
	"github.com/firmoapi/firmo/shared/vector"
)

// Config names the indexes and sets their k-NN method and layout. Zero fields take the
// defaults of the README's capacity model (10 M contacts, 384 dims).
type Config struct {
	Index      string // default "contacts"
	ListsIndex string // default Index + "-lists"
	Dims       int    // default 384
	Engine     string // "faiss" (default), "lucene" or "nmslib"
	M          int    // HNSW links per node; default 16
	// EfConstruction default 128; EfSearch default 128 (the native engines read it; lucene
	// searches with ef = k).
	EfConstruction, EfSearch int
	Shards                   int  // default 2
	Replicas                 *int // default 1: a node can fail without losing search
	// MaxTerms is index.max_terms_count: the most values one terms query (or lookup)
	// carries; longer saved-query lists are split into lookups. Default 65,536.
	MaxTerms int
	// MaxResultWindow is index.max_result_window: from + size of one search at most.
	// Default 10,000 (OpenSearch's own, then not written into the settings); pages past
	// it are read with search_after (Find).
	MaxResultWindow int
	// Refresh is passed to write requests: "" (visible within the refresh interval),
	// "wait_for" (tests) or "true".
	Refresh string
}

// Defaults of Config (README, "Capacity model").
const (
	DefaultShards   = 2
	DefaultReplicas = 1
	DefaultM        = 16
	DefaultEf       = 128
	DefaultMaxTerms = 65_536
	// DefaultMaxResultWindow is OpenSearch's default index.max_result_window.
	DefaultMaxResultWindow = 10_000
)

// WithDefaults fills the zero fields.
func (c Config) WithDefaults() Config {
	if c.Index == "" {
		c.Index = "contacts"
	}
	if c.ListsIndex == "" {
		c.ListsIndex = c.Index + "-lists"
	}
	if c.Dims <= 0 {
		c.Dims = 384
	}
	if c.Engine == "" {
		c.Engine = "faiss"
	}
	if c.M <= 0 {
		c.M = DefaultM
	}
	if c.EfConstruction <= 0 {
		c.EfConstruction = DefaultEf
	}
	if c.EfSearch <= 0 {
		c.EfSearch = DefaultEf
	}
	if c.Shards <= 0 {
		c.Shards = DefaultShards
	}
	if c.Replicas == nil || *c.Replicas < 0 {
		r := DefaultReplicas
		c.Replicas = &r
	}
	if c.MaxTerms <= 0 {
		c.MaxTerms = DefaultMaxTerms
	}
	if c.MaxResultWindow <= 0 {
		c.MaxResultWindow = DefaultMaxResultWindow
	}
	return c
}

// Check reports a setting OpenSearch would refuse, naming it.
func (c Config) Check() error {
	switch c.Engine {
	case "faiss", "lucene", "nmslib":
	default:
		return fmt.Errorf("contact index engine %q: want faiss, lucene or nmslib: %w", c.Engine, apperr.ErrInvalid)
	}
	if c.M < 2 || c.M > 100 {
		return fmt.Errorf("contact index m %d: want 2 to 100: %w", c.M, apperr.ErrInvalid)
	}
	return nil
}

// IAMActions are the Amazon OpenSearch Service actions the adapter's requests need: PUT
// (indexes and their mapping at first use, list chunks), POST (_bulk, _search, _count, _update_by_query).
var IAMActions = []string{"es:ESHttpPut", "es:ESHttpPost"}

// Index is the adapter. It is safe for concurrent use.
type Index struct {
	client *opensearchapi.Client
	ix     osclient.Index
	cfg    Config

	mu    sync.Mutex
	ready bool            // both indexes exist (checked at first use, not at start-up)
	lists map[string]bool // list chunks written by this process
}

var (
	_ contactsearch.Engine  = (*Index)(nil)
	_ contactsearch.Indexer = (*Index)(nil)
)

// New returns the adapter over client; the indexes are created at first use.
func New(client *opensearchapi.Client, cfg Config) (*Index, error) {
	cfg = cfg.WithDefaults()
	if err := cfg.Check(); err != nil {
		return nil, err
	}
	return &Index{client: client, ix: osclient.Index{Client: client, Name: cfg.Index, Refresh: cfg.Refresh}, cfg: cfg, lists: map[string]bool{}}, nil
}

// Config is the configuration in force.
func (x *Index) Config() Config { return x.cfg }

// EnsureIndex creates the contacts and lists indexes unless they exist.
func (x *Index) EnsureIndex(ctx context.Context) error {
	x.mu.Lock()
	defer x.mu.Unlock()
	if x.ready {
		return nil
	}
	if err := x.ix.Create(ctx, x.cfg.Mapping()); err != nil {
		return err
	}
	// An index created by an earlier version lacks fields added since (the signal text):
	// put the document fields' mapping, which adds the missing ones and leaves the
	// others as they are (the mapping is strict: a document with an unmapped field fails).
	body, err := json.Marshal(FieldsMapping())
	if err != nil {
		return err
	}
	if _, err := x.client.Indices.Mapping.Put(ctx, opensearchapi.MappingPutReq{Indices: []string{x.cfg.Index}, Body: bytes.NewReader(body)}); err != nil {
		return osclient.Unavailable("update the contacts index mapping", err)
	}
	lists := osclient.Index{Client: x.client, Name: x.cfg.ListsIndex}
	if err := lists.Create(ctx, x.cfg.ListsMapping()); err != nil {
		return err
	}
	x.ready = true
	return nil
}

// DeleteIndex drops both indexes (tests and re-indexing).
func (x *Index) DeleteIndex(ctx context.Context) error {
	x.mu.Lock()
	x.ready, x.lists = false, map[string]bool{}
	x.mu.Unlock()
	if err := x.ix.Drop(ctx); err != nil {
		return err
	}
	return osclient.Index{Client: x.client, Name: x.cfg.ListsIndex}.Drop(ctx)
}

// document is a contact's index document.
type document struct {
	PersonaID      int64    `json:"persona_id"`
	Domain         string   `json:"domain"`
	NameFold       string   `json:"name_fold,omitempty"`
	TitleFold      string   `json:"title_fold,omitempty"`
	SummaryFold    string   `json:"summary_fold,omitempty"`
	Department     string   `json:"department,omitempty"`
	Seniority      string   `json:"seniority,omitempty"`
	Country        string   `json:"country,omitempty"`
	State          string   `json:"state,omitempty"`
	Skills         []string `json:"skills,omitempty"`
	HasEmail       bool     `json:"has_email"`
	EmailValidated bool     `json:"email_validated"`
	HasPhone       bool     `json:"has_phone"`
	HasMobile      bool     `json:"has_mobile"`
	HasLinkedin    bool     `json:"has_linkedin"`
	Connections    int      `json:"connections"`
	JobstartDate   string   `json:"jobstart_date,omitempty"`
	Industry       []string `json:"industry,omitempty"`
	Employees      string   `json:"employees,omitempty"`
	CompanyCountry string   `json:"company_country,omitempty"`
	CompanyState   string   `json:"company_state,omitempty"`
	CompanyFP      string   `json:"company_fp"`
	// The employer's signal text, contactfields.SignalFields.
	CompanyTech        string                      `json:"company_tech,omitempty"`
	CompanyKeywords    string                      `json:"company_keywords,omitempty"`
	CompanyIndustries  string                      `json:"company_industries,omitempty"`
	CompanyDescription string                      `json:"company_description,omitempty"`
	Contact            contact.Contact             `json:"contact"`
	Company            contactsearch.CompanyFields `json:"company"`
	Vector             []float32                   `json:"contact_vector,omitempty"`
}

// documentOf is the document of a prepared contact.
func documentOf(x contactsearch.Indexed, vec []float32) document {
	c := x.Contact
	d := document{PersonaID: c.PersonaID, Domain: c.Domain, NameFold: x.NameFold, TitleFold: x.TitleFold, SummaryFold: x.SummaryFold,
		Department: c.Department, Seniority: c.Seniority, Country: c.Country, State: x.PersonState, Skills: x.Skills,
		HasEmail: c.Email != nil, EmailValidated: c.EmailValidated, HasPhone: len(c.Phone) > 0, HasMobile: x.HasMobile,
		HasLinkedin: x.HasLinkedin, Connections: c.Connections, Contact: c, Vector: vec}
	// The mapping's date format is yyyy-MM-dd; another shape would fail the whole batch.
	if c.JobstartDate != nil {
		if _, err := time.Parse(time.DateOnly, *c.JobstartDate); err == nil {
			d.JobstartDate = *c.JobstartDate
		}
	}
	// The employer's fields live in company (and the filter fields below), not in the
	// stored contact: UpdateCompany rewrites them in one place.
	d.Contact.CompanyName, d.Contact.Employees, d.Contact.RevenueRange, d.Contact.Industry = "", "", "", nil
	set := contactfields.Doc(x.Company)
	d.Company, _ = set["company"].(contactsearch.CompanyFields)
	d.Industry, _ = set["industry"].([]string)
	d.Employees, _ = set["employees"].(string)
	d.CompanyCountry, _ = set["company_country"].(string)
	d.CompanyState, _ = set["company_state"].(string)
	d.CompanyFP = set["company_fp"].(string)
	sig := x.Company.Signal.Texts()
	d.CompanyTech, d.CompanyKeywords, d.CompanyIndustries, d.CompanyDescription = sig[0], sig[1], sig[2], sig[3]
	return d
}

// bulkBatch bounds one _bulk request (about 2 MB of JSON with 384-dim vectors).
const bulkBatch = 500

// PutContacts implements contactsearch.Indexer: it writes the documents of prepared
// contacts (vecs[i] is docs[i]'s embedding) through _bulk.
func (x *Index) PutContacts(ctx context.Context, docs []contactsearch.Indexed, vecs [][]float32) error {
	if len(docs) != len(vecs) {
		return fmt.Errorf("put contacts: %d documents, %d vectors: %w", len(docs), len(vecs), apperr.ErrInternal)
	}
	if err := x.EnsureIndex(ctx); err != nil {
		return err
	}
	for start := 0; start < len(docs); start += bulkBatch {
		var buf bytes.Buffer
		enc := json.NewEncoder(&buf) // Encode ends each value with the newline NDJSON needs
		for i := start; i < min(start+bulkBatch, len(docs)); i++ {
			v, err := vector.Check(vecs[i], x.cfg.Dims)
			if err != nil {
				return fmt.Errorf("contact %d: %w", docs[i].Contact.PersonaID, err)
			}
			d := documentOf(docs[i], v)
			if err := enc.Encode(obj{"index": obj{"_index": x.cfg.Index, "_id": strconv.FormatInt(d.PersonaID, 10)}}); err != nil {
				return err
			}
			if err := enc.Encode(d); err != nil {
				return fmt.Errorf("contact %d: %w", d.PersonaID, err)
			}
		}
		if err := x.ix.Bulk(ctx, buf.Bytes()); err != nil {
			return err
		}
	}
	return nil
}

// RemoveContacts deletes the documents of ids (a missing one is not an error).
func (x *Index) RemoveContacts(ctx context.Context, ids []int64) error {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	for _, id := range ids {
		if err := enc.Encode(obj{"delete": obj{"_index": x.cfg.Index, "_id": strconv.FormatInt(id, 10)}}); err != nil {
			return err
		}
	}
	if buf.Len() == 0 {
		return nil
	}
	return x.ix.Bulk(ctx, buf.Bytes())
}

// UpdateCompany rewrites rec's fields in the documents of its contacts
// (oscontactfields.Rewriter: one _update_by_query, touching only documents that do not hold
// them yet).
func (x *Index) UpdateCompany(ctx context.Context, rec company.Record) error {
	return oscontactfields.Rewriter{Client: x.client, Index: x.cfg.Index, Refresh: x.cfg.Refresh != ""}.UpdateCompany(ctx, rec)
}

// ConfigOf is the adapter's configuration from the service's: the index name and the
// FIRMO_OPENSEARCH_CONTACTS_* layout, for vectors of dims values.
func ConfigOf(o config.OpenSearch, dims int) Config {
	ci := o.Contacts
	c := Config{Index: o.ContactsIndex, Dims: dims, Engine: ci.Engine, Shards: ci.Shards, M: ci.M, EfConstruction: ci.EfConstruction, EfSearch: ci.EfSearch}
	if ci.Replicas >= 0 {
		r := ci.Replicas
		c.Replicas = &r
	}
	return c
}

// writeLists stores the list chunks p's terms lookups read (content-addressed: each
// once per process). A GET by id, which terms lookup is, sees a write at once.
func (x *Index) writeLists(ctx context.Context, p plan) error {
	ids := make([]string, 0, len(p.lists))
	for id := range p.lists {
		ids = append(ids, id)
	}
	sort.Strings(ids)
	for _, id := range ids {
		x.mu.Lock()
		done := x.lists[id]
		x.mu.Unlock()
		if done {
			continue
		}
		body, err := json.Marshal(obj{"values": p.lists[id]})
		if err != nil {
			return err
		}
		if _, err := x.client.Index(ctx, opensearchapi.IndexReq{Index: x.cfg.ListsIndex, DocumentID: id, Body: bytes.NewReader(body)}); err != nil {
			return osclient.Unavailable("write list "+id, err)
		}
		x.mu.Lock()
		x.lists[id] = true
		x.mu.Unlock()
	}
	return nil
}

// hitSource is what a result hit carries.
type hitSource struct {
	PersonaID *int64                      `json:"persona_id"`
	Contact   *contact.Contact            `json:"contact"`
	Company   contactsearch.CompanyFields `json:"company"`
	Vector    []float32                   `json:"contact_vector"`
}

func readHit(h opensearchapi.SearchHit) (hitSource, error) {
	var s hitSource
	if err := json.Unmarshal(h.Source, &s); err != nil || s.PersonaID == nil {
		return s, fmt.Errorf("contact index document %s has no persona_id: %w", h.ID, apperr.ErrInternal)
	}
	return s, nil
}

// Find implements contactsearch.Engine.
func (x *Index) Find(ctx context.Context, q contactsearch.EngineQuery) ([]*contactsearch.Entry, error) {
	if x.Deep(q) {
		return x.findDeep(ctx, q)
	}
	body, grouped, p, err := x.SearchBody(q)
	if err != nil {
		return nil, err
	}
	resp, err := x.search(ctx, body, p)
	if err != nil {
		return nil, err
	}
	return x.entries(q, resp.Hits.Hits, grouped, func(s float32) float64 { return osclient.KNNCosine(x.cfg.Engine, float64(s)) })
}

// entries turns a search's hits into Select's groups; cosOf turns a hit's score into its
// cosine (similarity mode).
func (x *Index) entries(q contactsearch.EngineQuery, hits []opensearchapi.SearchHit, grouped bool, cosOf func(float32) float64) ([]*contactsearch.Entry, error) {
	score := map[int64]float64{}
	contactOf := func(h opensearchapi.SearchHit) (contact.Contact, contactsearch.CompanyFields, error) {
		s, err := readHit(h)
		if err != nil || s.Contact == nil {
			return contact.Contact{}, s.Company, fmt.Errorf("contact index document %s has no contact: %w", h.ID, apperr.ErrInternal)
		}
		c := *s.Contact
		contactsearch.WithCompany(&c, s.Company)
		// The stored document carries similarity 0 (contact.Contact's MarshalJSON writes
		// every field); only a similarity search gives one.
		c.Similarity = nil
		if q.Vector != nil {
			cos := cosOf(h.Score)
			score[c.PersonaID] = cos
			v := contactsearch.Similarity(float32(cos))
			c.Similarity = &v
		}
		return c, s.Company, nil
	}
	rank := func(c contact.Contact) float64 {
		if q.Vector != nil {
			return -score[c.PersonaID]
		}
		return float64(c.PersonaID)
	}
	var groups []*contactsearch.Entry
	if grouped {
		for _, h := range hits {
			inner, ok := h.InnerHits["top"]
			if !ok {
				return nil, fmt.Errorf("collapsed hit %s has no inner hits: %w", h.ID, apperr.ErrInternal)
			}
			var e *contactsearch.Entry
			for _, ih := range inner.Hits.Hits {
				c, co, err := contactOf(ih)
				if err != nil {
					return nil, err
				}
				if e == nil {
					e = contactsearch.EntryOf(co)
				}
				e.Contacts = append(e.Contacts, c)
			}
			if e != nil {
				groups = append(groups, e)
			}
		}
		return contactsearch.SelectGrouped(groups, rank, q.Limits), nil
	}
	// A flat list: one group per contact, in rank order; SelectGrouped groups them by
	// company as Select does (the offset is already applied in filter mode and on deep
	// pages).
	l := q.Limits
	if q.Vector == nil || x.Deep(q) {
		l.Offset = 0
	}
	for _, h := range hits {
		c, co, err := contactOf(h)
		if err != nil {
			return nil, err
		}
		e := contactsearch.EntryOf(co)
		e.Contacts = append(e.Contacts, c)
		groups = append(groups, e)
	}
	return contactsearch.SelectGrouped(groups, rank, l), nil
}

// Nearest implements contactsearch.Engine.
func (x *Index) Nearest(ctx context.Context, q contactsearch.EngineQuery, k int) ([][]float32, error) {
	body, p, err := x.NearestBody(q, k)
	if err != nil {
		return nil, err
	}
	resp, err := x.search(ctx, body, p)
	if err != nil {
		return nil, err
	}
	var out [][]float32
	for _, h := range resp.Hits.Hits {
		s, err := readHit(h)
		if err != nil {
			return nil, err
		}
		if len(s.Vector) == x.cfg.Dims {
			out = append(out, s.Vector)
		}
	}
	return out, nil
}

// Count implements contactsearch.Engine.
func (x *Index) Count(ctx context.Context, q contactsearch.EngineQuery) (int, error) {
	body, p, err := x.CountBody(q)
	if err != nil {
		return 0, err
	}
	if err := x.prepare(ctx, p); err != nil {
		return 0, err
	}
	raw, err := json.Marshal(body)
	if err != nil {
		return 0, err
	}
	resp, err := x.client.Indices.Count(ctx, &opensearchapi.IndicesCountReq{Indices: []string{x.cfg.Index}, Body: bytes.NewReader(raw)})
	if err != nil {
		return 0, osclient.Unavailable("count", err)
	}
	return resp.Count, nil
}

// Vectors implements contactsearch.Engine.
func (x *Index) Vectors(ctx context.Context, ids []int64) (map[int64][]float32, error) {
	resp, err := x.search(ctx, VectorsBody(ids), plan{})
	if err != nil {
		return nil, err
	}
	out := map[int64][]float32{}
	for _, h := range resp.Hits.Hits {
		s, err := readHit(h)
		if err != nil {
			return nil, err
		}
		if len(s.Vector) == x.cfg.Dims {
			out[*s.PersonaID] = s.Vector
		}
	}
	return out, nil
}

// prepare makes sure the indexes exist and p's list chunks are stored.
func (x *Index) prepare(ctx context.Context, p plan) error {
	if err := x.EnsureIndex(ctx); err != nil {
		return err
	}
	return x.writeLists(ctx, p)
}

func (x *Index) search(ctx context.Context, body obj, p plan) (*opensearchapi.SearchResp, error) {
	if err := x.prepare(ctx, p); err != nil {
		return nil, err
	}
	return x.ix.Search(ctx, body)
}

// findDeep reads a deep page (Deep) with search_after in pages of at most
// index.max_result_window: first the offset's hits, sort values only, then the page's.
// The sort is a total order (persona id last), so the page is the one from+size would
// give; a contact indexed or rewritten between two of the searches can shift it by one,
// as between two requests of consecutive pages.
func (x *Index) findDeep(ctx context.Context, q contactsearch.EngineQuery) ([]*contactsearch.Entry, error) {
	b, p, err := x.Bool(q)
	if err != nil {
		return nil, err
	}
	if err := x.prepare(ctx, p); err != nil {
		return nil, err
	}
	win := x.cfg.MaxResultWindow
	var after []any
	read := func(n int, withSource bool) ([]opensearchapi.SearchHit, error) {
		resp, err := x.ix.Search(ctx, x.DeepBody(q, b, after, n, withSource))
		if err != nil {
			return nil, err
		}
		hits := resp.Hits.Hits
		if len(hits) > 0 {
			after = hits[len(hits)-1].Sort
		}
		return hits, nil
	}
	for skip := q.Limits.Offset; skip > 0; {
		n := min(skip, win)
		hits, err := read(n, false)
		if err != nil {
			return nil, err
		}
		if len(hits) < n {
			return nil, nil // fewer contacts than the offset: an empty page
		}
		skip -= n
	}
	var page []opensearchapi.SearchHit
	for need := pageSize(q.Limits); need > 0; {
		n := min(need, win)
		hits, err := read(n, true)
		if err != nil {
			return nil, err
		}
		page = append(page, hits...)
		if len(hits) < n {
			break
		}
		need -= n
	}
	// The script's score is 1 + cosine.
	return x.entries(q, page, false, func(s float32) float64 { return float64(s) - 1 })
}
