package osindex_test

import (
	"context"
	"errors"
	"flag"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"

	"github.com/opensearch-project/opensearch-go/v4"
	"github.com/opensearch-project/opensearch-go/v4/opensearchapi"

	"github.com/firmoapi/firmo/shared/apperr"
	"github.com/firmoapi/firmo/shared/contactsearch"
	"github.com/firmoapi/firmo/shared/contactsearch/osindex"
	"github.com/firmoapi/firmo/shared/testkit"
	"github.com/firmoapi/firmo/shared/vector"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata")

// golden compares v with the golden file testdata/name (go test -update rewrites it).
func golden(t *testing.T, name string, v any) { t.Helper(); testkit.Golden(t, *update, name, v) }

func TestMappingGolden(t *testing.T) {
	one := 1
	cases := []struct {
		file string
		cfg  osindex.Config
	}{
		{"mapping_lucene.json", osindex.Config{}},
		{"mapping_faiss.json", osindex.Config{Engine: "faiss", M: 32, EfConstruction: 256, EfSearch: 128, Shards: 2, Replicas: &one}},
	}
	for _, c := range cases {
		t.Run(c.file, func(t *testing.T) {
			ix := osindex.New(nil, c.cfg)
			golden(t, c.file, ix.Config().Mapping())
		})
	}
}

// short is a 4-value vector so the golden queries stay readable.
var short = []float32{0.5, -0.5, 0.5, 0.5}

// contactFilter is the shape of filter contact search produces: every kind of clause.
var contactFilter = osindex.Where{
	Any: map[string][]string{
		"seniority":  {"vp", "director"},
		"department": {"Technology"},
		"country":    {"DE", "AT", "CH"},
		"industry":   {"SAAS"},
	},
	None:   map[string][]string{"state": {"DE-BY"}, "title.keyword": {"Intern"}},
	Bools:  map[string]bool{"has_email": true, "has_mobile": true},
	Ranges: []osindex.Range{{Field: "connections", GTE: 500}, {Field: "jobstart_date", GTE: "2020-01-01", LTE: "2023-12-31"}},
	Match:  map[string]string{"skills": "kubernetes"},
}

func TestQueryGolden(t *testing.T) {
	knn, err := osindex.KNNQuery(short, 10, osindex.Where{})
	if err != nil {
		t.Fatal(err)
	}
	golden(t, "knn.json", knn)

	filtered, err := osindex.KNNQuery(short, 100, contactFilter)
	if err != nil {
		t.Fatal(err)
	}
	golden(t, "knn_filtered.json", filtered)

	ids, err := osindex.KNNQuery(short, 5, osindex.Where{IDs: []int64{3, 1, 2}})
	if err != nil {
		t.Fatal(err)
	}
	golden(t, "knn_ids.json", ids)

	only, err := osindex.FilterQuery(contactFilter, 200, 100)
	if err != nil {
		t.Fatal(err)
	}
	golden(t, "filter_only.json", only)

	all, err := osindex.FilterQuery(osindex.Where{}, 0, 20)
	if err != nil {
		t.Fatal(err)
	}
	golden(t, "filter_all.json", all)
}

func TestBulkGolden(t *testing.T) {
	body, err := osindex.BulkBody("contacts", []osindex.BulkOp{
		{Action: "index", ID: 42, Source: osindex.Wire(contactsearch.Document{
			PersonaID: 42, Domain: "acme.de", Name: "Anna Schmidt", Title: "Leiterin Softwareentwicklung",
			Department: "Technology", Seniority: "director", Country: "DE", State: "DE-BE",
			Skills: []string{"Go", "Kubernetes"}, HasEmail: true, HasPhone: true, HasMobile: true,
			Connections: 812, JobStartDate: "2021-04-01", Industry: []string{"SAAS"}, Employees: "51-200",
			CompanyCountry: "DE", CompanyState: "DE-BE", Vector: short,
		})},
		{Action: "update", ID: 7, Source: map[string]any{"doc": map[string]any{"persona_id": 7, "contact_vector": short}, "doc_as_upsert": true}},
		{Action: "delete", ID: 9},
	})
	if err != nil {
		t.Fatal(err)
	}
	golden(t, "bulk.ndjson", body)
}

func TestUnknownFieldRejected(t *testing.T) {
	cases := []osindex.Where{
		{Any: map[string][]string{"senority": {"vp"}}},
		{None: map[string][]string{"country.keyword": {"DE"}}}, // keyword fields have no sub-field
		{Bools: map[string]bool{"has_fax": true}},
		{Ranges: []osindex.Range{{Field: "connections"}}}, // no bound
	}
	for _, w := range cases {
		if _, err := osindex.KNNQuery(short, 3, w); !errors.Is(err, apperr.ErrInvalid) {
			t.Errorf("KNNQuery(%+v): err = %v, want ErrInvalid", w, err)
		}
	}
	if _, err := osindex.FilterQuery(osindex.Where{}, 9990, 20); !errors.Is(err, apperr.ErrInvalid) {
		t.Errorf("page past the result window: err = %v, want ErrInvalid", err)
	}
}

// fakeCluster records the requests the adapter sends and answers like OpenSearch would.
type fakeCluster struct {
	mu       sync.Mutex
	requests []string // "METHOD path?query"
	bodies   []string
	search   string // canned _search answer
}

func (f *fakeCluster) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	body, _ := io.ReadAll(r.Body)
	f.mu.Lock()
	f.requests = append(f.requests, r.Method+" "+r.URL.Path+"?"+r.URL.RawQuery)
	f.bodies = append(f.bodies, string(body))
	f.mu.Unlock()
	w.Header().Set("Content-Type", "application/json")
	switch {
	case r.URL.Path == "/_bulk":
		w.Write([]byte(`{"took":3,"errors":true,"items":[{"delete":{"_index":"contacts","_id":"9","status":404,"result":"not_found","error":{"type":"x","reason":"missing"}}}]}`))
	case strings.HasSuffix(r.URL.Path, "/_search"):
		w.Write([]byte(f.search))
	case strings.HasSuffix(r.URL.Path, "/_count"):
		w.Write([]byte(`{"count":17,"_shards":{"total":1,"successful":1,"skipped":0,"failed":0}}`))
	case r.Method == http.MethodPut:
		w.WriteHeader(http.StatusBadRequest)
		w.Write([]byte(`{"error":{"root_cause":[{"type":"resource_already_exists_exception","reason":"index [contacts/x] already exists"}],"type":"resource_already_exists_exception","reason":"index [contacts/x] already exists"},"status":400}`))
	default:
		w.WriteHeader(http.StatusNotFound)
	}
}

func newClient(t *testing.T, url string) *opensearchapi.Client {
	t.Helper()
	c, err := opensearchapi.NewClient(opensearchapi.Config{Client: opensearch.Config{Addresses: []string{url}}})
	if err != nil {
		t.Fatal(err)
	}
	return c
}

func TestAdapterRequests(t *testing.T) {
	fake := &fakeCluster{search: `{"took":1,"timed_out":false,"_shards":{"total":1,"successful":1,"skipped":0,"failed":0},
		"hits":{"total":{"value":2,"relation":"eq"},"max_score":0.9,"hits":[
		{"_index":"contacts","_id":"5","_score":0.75,"_source":{"persona_id":5}},
		{"_index":"contacts","_id":"8","_score":0.9,"_source":{"persona_id":8}}]}}`}
	srv := httptest.NewServer(fake)
	defer srv.Close()
	ctx := context.Background()
	ix := osindex.New(newClient(t, srv.URL), osindex.Config{Dims: 4, Refresh: "wait_for"})

	if err := ix.EnsureIndex(ctx); err != nil {
		t.Fatalf("EnsureIndex on an existing index: %v", err)
	}
	if err := ix.Upsert(ctx, 7, []float32{2, 0, 0, 0}); err != nil {
		t.Fatal(err)
	}
	if err := ix.Delete(ctx, 9); err != nil {
		t.Fatalf("deleting a missing document: %v", err)
	}
	hits, err := ix.Search(ctx, []float32{1, 1, 1, 1}, 2, vector.Filter{IDs: []int64{5, 8}})
	if err != nil {
		t.Fatal(err)
	}
	// Lucene cosinesimil scores (1+cos)/2: 0.9 -> 0.8, 0.75 -> 0.5, best first.
	want := []vector.Hit{{ID: 8, Score: 0.8}, {ID: 5, Score: 0.5}}
	for i := range want {
		if hits[i].ID != want[i].ID || abs(hits[i].Score-want[i].Score) > 1e-6 {
			t.Fatalf("hits = %v, want %v", hits, want)
		}
	}
	if n, err := ix.Len(ctx); err != nil || n != 17 {
		t.Fatalf("Len = %d, %v; want 17", n, err)
	}
	ids, total, err := ix.Filter(ctx, osindex.Where{Bools: map[string]bool{"has_email": true}}, 0, 10)
	if err != nil || total != 2 || len(ids) != 2 {
		t.Fatalf("Filter = %v, %d, %v", ids, total, err)
	}

	wantReqs := []string{
		"PUT /contacts?",
		"POST /_bulk?refresh=wait_for",
		"POST /_bulk?refresh=wait_for",
		"POST /contacts/_search?",
		"POST /contacts/_count?",
		"POST /contacts/_search?",
	}
	if len(fake.requests) != len(wantReqs) {
		t.Fatalf("requests = %q, want %q", fake.requests, wantReqs)
	}
	for i, w := range wantReqs {
		if fake.requests[i] != w {
			t.Errorf("request %d = %q, want %q", i, fake.requests[i], w)
		}
	}
	if !strings.Contains(fake.bodies[1], `"contact_vector":[1,0,0,0]`) {
		t.Errorf("upsert body does not carry the normalized vector: %s", fake.bodies[1])
	}
	if !strings.Contains(fake.bodies[3], `"filter":{"bool":{"filter":[{"terms":{"persona_id":[5,8]}}]}}`) {
		t.Errorf("candidate set is not a filter inside the knn clause: %s", fake.bodies[3])
	}
}

func TestClusterDownIsUnavailable(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.WriteHeader(http.StatusInternalServerError)
		w.Write([]byte(`{"error":{"type":"x","reason":"y"},"status":500}`))
	}))
	defer srv.Close()
	c, err := opensearchapi.NewClient(opensearchapi.Config{Client: opensearch.Config{Addresses: []string{srv.URL}, DisableRetry: true}})
	if err != nil {
		t.Fatal(err)
	}
	ix := osindex.New(c, osindex.Config{Dims: 4})
	if _, err := ix.Search(context.Background(), short, 3, vector.Filter{}); !errors.Is(err, apperr.ErrUnavailable) {
		t.Fatalf("err = %v, want ErrUnavailable", err)
	}
}

func abs(x float32) float32 {
	if x < 0 {
		return -x
	}
	return x
}
