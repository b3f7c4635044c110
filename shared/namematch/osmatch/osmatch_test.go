package osmatch_test

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/opensearch-project/opensearch-go/v4"
	"github.com/opensearch-project/opensearch-go/v4/opensearchapi"

	"github.com/firmoapi/firmo/shared/apperr"
	"github.com/firmoapi/firmo/shared/company"
	"github.com/firmoapi/firmo/shared/namematch"
	"github.com/firmoapi/firmo/shared/namematch/namematchtest"
	"github.com/firmoapi/firmo/shared/namematch/osmatch"
	"github.com/firmoapi/firmo/shared/testkit"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata")

// golden compares v with the golden file testdata/name (go test -update rewrites it).
func golden(t *testing.T, name string, v any) { t.Helper(); testkit.Golden(t, *update, name, v) }

func TestMappingGolden(t *testing.T) {
	zero := 0
	golden(t, "mapping.json", osmatch.Config{Replicas: &zero}.Mapping())
	if r := (osmatch.Config{}).Mapping()["settings"].(map[string]any)["number_of_replicas"]; r != 1 {
		t.Fatalf("default replicas %v, want 1", r)
	}
}

// entry builds an entry the way the matcher indexes a company.
func entry(domain, name, country, state, city string, alt ...string) namematch.Entry {
	return namematch.EntryOf(company.Record{Domain: domain, Raw: company.Raw{Name: name, AlternateNames: alt},
		Profile: company.Profile{Domain: domain, Name: name, Address: company.Address{Country: country, State: state, City: city}, Phones: []string{"+14155550100"}}})
}

// requestOf is the index request the matcher makes for a query, captured through a
// recording index.
type capture struct {
	namematch.Index
	reqs []namematch.Request
}

func (c *capture) Search(ctx context.Context, r namematch.Request) ([]namematch.Entry, error) {
	c.reqs = append(c.reqs, r)
	return nil, nil
}

type noRecords struct{}

func (noRecords) Get(context.Context, string) (company.Record, error) {
	return company.Record{}, apperr.ErrNotFound
}

func requestsOf(t *testing.T, q namematch.Query) []namematch.Request {
	t.Helper()
	c := &capture{}
	if _, err := namematch.New(c, noRecords{}, namematch.Options{}).Match(context.Background(), q); err != nil {
		t.Fatal(err)
	}
	return c.reqs
}

// The queries are built from the requests the matcher really makes.
func TestSearchBodyGolden(t *testing.T) {
	cases := []struct {
		file string
		q    namematch.Query
	}{
		{"search_name.json", namematch.Query{Name: "Intl Busness Machines Corp."}},
		{"search_one_token.json", namematch.Query{Name: "I.B.M."}},
		{"search_filters.json", namematch.Query{Name: "Acme Robotics", Country: "US", State: "California", City: "San Jose", ZipCode: "95110", Phone: "+1 415 555 0100"}},
		{"search_strict.json", namematch.Query{Name: "Acme Intl, Inc.", Country: "US", State: "CA", City: "San Jose", Strict: true}},
	}
	for _, c := range cases {
		t.Run(c.file, func(t *testing.T) {
			reqs := requestsOf(t, c.q)
			var bodies []any
			for _, r := range reqs {
				bodies = append(bodies, osmatch.SearchBody(r))
			}
			golden(t, c.file, bodies)
		})
	}
	if osmatch.SearchBody(namematch.Request{Limit: 5}) != nil {
		t.Error("a request with no terms should build no query")
	}
}

func TestBulkAndPagingGolden(t *testing.T) {
	body, err := osmatch.BulkBody("company-names",
		[]namematch.Entry{entry("acme.com", "Acme Intl Corp", "US", "CA", "San Jose", "ACME")},
		[]string{"gone.com"})
	if err != nil {
		t.Fatal(err)
	}
	golden(t, "bulk.ndjson", body)
	golden(t, "fingerprints_first.json", osmatch.FingerprintsBody(""))
	golden(t, "fingerprints_next.json", osmatch.FingerprintsBody("acme.com"))
	if _, err := osmatch.BulkBody("x", []namematch.Entry{{}}, nil); !errors.Is(err, apperr.ErrInvalid) {
		t.Errorf("an entry without a domain: %v", err)
	}
}

// fakeCluster answers like OpenSearch and records requests.
type fakeCluster struct {
	mu       sync.Mutex
	requests []string
	bodies   []string
	pages    []string // canned _search answers, in order
	bulk     string
}

func (f *fakeCluster) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	body, _ := io.ReadAll(r.Body)
	f.mu.Lock()
	defer f.mu.Unlock()
	f.requests = append(f.requests, r.Method+" "+r.URL.Path+"?"+r.URL.RawQuery)
	f.bodies = append(f.bodies, string(body))
	w.Header().Set("Content-Type", "application/json")
	switch {
	case r.URL.Path == "/_bulk":
		w.Write([]byte(f.bulk))
	case strings.HasSuffix(r.URL.Path, "/_search") && len(f.pages) > 0:
		w.Write([]byte(f.pages[0]))
		f.pages = f.pages[1:]
	case r.Method == http.MethodPut:
		w.WriteHeader(http.StatusBadRequest)
		w.Write([]byte(`{"error":{"root_cause":[{"type":"resource_already_exists_exception","reason":"exists"}],"type":"resource_already_exists_exception","reason":"exists"},"status":400}`))
	default:
		w.WriteHeader(http.StatusNotFound)
	}
}

func client(t *testing.T, url string) *opensearchapi.Client {
	t.Helper()
	c, err := opensearchapi.NewClient(opensearchapi.Config{Client: opensearch.Config{Addresses: []string{url}, DisableRetry: true}})
	if err != nil {
		t.Fatal(err)
	}
	return c
}

func hits(docs ...string) string {
	return `{"took":1,"timed_out":false,"_shards":{"total":1,"successful":1,"skipped":0,"failed":0},"hits":{"total":{"value":` +
		fmt.Sprint(len(docs)) + `,"relation":"eq"},"max_score":1,"hits":[` + strings.Join(docs, ",") + `]}}`
}

func TestAdapterRequests(t *testing.T) {
	e := entry("acme.com", "Acme Intl Corp", "US", "CA", "San Jose", "ACME")
	src, _ := json.Marshal(map[string]any{"domain": e.Domain, "names": e.Names, "text": e.Text, "exact": e.Exact, "joined": e.Joined,
		"country": e.Country, "state": e.State, "city": e.City, "phones": e.Phones, "fp": e.Fingerprint})
	fake := &fakeCluster{
		bulk: `{"took":3,"errors":true,"items":[{"delete":{"_index":"company-names","_id":"gone.com","status":404,"result":"not_found","error":{"type":"x","reason":"missing"}}}]}`,
		pages: []string{
			hits(`{"_index":"company-names","_id":"acme.com","_score":3,"_source":` + string(src) + `}`),
			hits(`{"_index":"company-names","_id":"acme.com","_score":1,"_source":{"domain":"acme.com","fp":"f1"}}`),
		},
	}
	srv := httptest.NewServer(fake)
	defer srv.Close()
	ctx := context.Background()
	ix := osmatch.New(client(t, srv.URL), osmatch.Config{Refresh: "wait_for"})
	if err := ix.EnsureIndex(ctx); err != nil {
		t.Fatalf("EnsureIndex on an existing index: %v", err)
	}
	if err := ix.Delete(ctx, []string{"gone.com"}); err != nil {
		t.Fatalf("deleting a missing document: %v", err)
	}
	got, err := ix.Search(ctx, namematch.Request{Terms: []namematch.Term{{Text: "acme", Boost: 1, Fuzziness: 1}}, Limit: 3})
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 1 || got[0].Domain != "acme.com" || got[0].Fingerprint != e.Fingerprint || got[0].State != "US-CA" {
		t.Fatalf("search = %+v", got)
	}
	fps, err := ix.Fingerprints(ctx)
	if err != nil || len(fps) != 1 || fps["acme.com"] != "f1" {
		t.Fatalf("fingerprints = %v, %v", fps, err)
	}
	want := []string{"PUT /company-names?", "POST /_bulk?refresh=wait_for", "POST /company-names/_search?", "POST /company-names/_search?"}
	if fmt.Sprint(fake.requests) != fmt.Sprint(want) {
		t.Errorf("requests = %q, want %q", fake.requests, want)
	}
}

// A cluster that answers 5xx is unavailable: the matcher retries, then answers 503.
func TestClusterDownIsUnavailable(t *testing.T) {
	var calls atomic.Int64
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		calls.Add(1)
		w.WriteHeader(http.StatusServiceUnavailable)
		w.Write([]byte(`{"error":{"type":"x","reason":"y"},"status":503}`))
	}))
	defer srv.Close()
	ix := osmatch.New(client(t, srv.URL), osmatch.Config{})
	_, err := ix.Search(context.Background(), namematch.Request{Terms: []namematch.Term{{Text: "acme", Boost: 1}}, Limit: 3})
	if !errors.Is(err, apperr.ErrUnavailable) {
		t.Fatalf("err = %v, want ErrUnavailable", err)
	}
	m := namematch.New(ix, noRecords{}, namematch.Options{Attempts: 3, Backoff: time.Millisecond})
	_, err = m.Match(context.Background(), namematch.Query{Name: "Acme"})
	if apperr.Status(err) != http.StatusServiceUnavailable {
		t.Fatalf("match over a down cluster: %v, want 503", err)
	}
	if calls.Load() != 4 {
		t.Errorf("requests = %d, want 1 + 3 attempts", calls.Load())
	}
}

// TestIntegrationContract runs the port's contract suite on a live cluster.
func TestIntegrationContract(t *testing.T) {
	url := os.Getenv("OPENSEARCH_URL")
	if url == "" {
		t.Skip("OPENSEARCH_URL is not set: the OpenSearch integration suite needs a live cluster (no OpenSearch can run on the build machines, README's Tests section)")
	}
	c, err := opensearchapi.NewClient(opensearchapi.Config{Client: opensearch.Config{
		Addresses: []string{url}, Username: os.Getenv("OPENSEARCH_USER"), Password: os.Getenv("OPENSEARCH_PASSWORD"),
	}})
	if err != nil {
		t.Fatal(err)
	}
	var seq atomic.Int64
	namematchtest.Run(t, func(t *testing.T) namematch.Index {
		ix := osmatch.New(c, osmatch.Config{Index: fmt.Sprintf("firmo-names-test-%d-%d", time.Now().UnixNano(), seq.Add(1)), Replicas: new(int), Refresh: "wait_for"})
		if err := ix.EnsureIndex(context.Background()); err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { _ = ix.DeleteIndex(context.Background()) })
		return ix
	})
}
