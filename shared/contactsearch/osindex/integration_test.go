package osindex_test

import (
	"context"
	"fmt"
	"os"
	"sync/atomic"
	"testing"
	"time"

	"github.com/opensearch-project/opensearch-go/v4"
	"github.com/opensearch-project/opensearch-go/v4/opensearchapi"

	"github.com/firmoapi/firmo/shared/contactsearch"
	"github.com/firmoapi/firmo/shared/contactsearch/osindex"
	"github.com/firmoapi/firmo/shared/vector"
	"github.com/firmoapi/firmo/shared/vector/vectortest"
)

// liveClient connects to the cluster named by OPENSEARCH_URL (with the k-NN plugin), or
// skips: no OpenSearch can run on the build machines (README, Tests).
func liveClient(t *testing.T) *opensearchapi.Client {
	t.Helper()
	url := os.Getenv("OPENSEARCH_URL")
	if url == "" {
		t.Skip("OPENSEARCH_URL is not set: the OpenSearch integration suite needs a live cluster with the k-NN plugin (e.g. OPENSEARCH_URL=http://localhost:9200)")
	}
	c, err := opensearchapi.NewClient(opensearchapi.Config{Client: opensearch.Config{
		Addresses: []string{url},
		Username:  os.Getenv("OPENSEARCH_USER"),
		Password:  os.Getenv("OPENSEARCH_PASSWORD"),
	}})
	if err != nil {
		t.Fatal(err)
	}
	return c
}

var indexSeq atomic.Int64

// liveIndex creates a fresh index for one test and drops it afterwards.
func liveIndex(t *testing.T, c *opensearchapi.Client, dims int) *osindex.Index {
	t.Helper()
	name := fmt.Sprintf("firmo-test-%d-%d", time.Now().UnixNano(), indexSeq.Add(1))
	ix := osindex.New(c, osindex.Config{Index: name, Dims: dims, Replicas: new(int), Refresh: "wait_for"})
	ctx := context.Background()
	if err := ix.EnsureIndex(ctx); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = ix.DeleteIndex(context.Background()) })
	return ix
}

func TestIntegrationContract(t *testing.T) {
	c := liveClient(t)
	vectortest.Run(t, func(t *testing.T, dims int) vector.Index { return liveIndex(t, c, dims) })
}

// TestIntegrationContactFilters indexes contact documents and checks that similarity and
// filter-only searches honour every clause kind of Where.
func TestIntegrationContactFilters(t *testing.T) {
	c := liveClient(t)
	ctx := context.Background()
	ix := liveIndex(t, c, vectortest.Dims)
	data := vectortest.Clustered(300, vectortest.Dims, 5, 31)
	docs := make([]contactsearch.Document, len(data))
	countries := []string{"DE", "FR", "US"}
	for i, v := range data {
		docs[i] = contactsearch.Document{
			PersonaID: int64(i), Country: countries[i%3], Seniority: []string{"vp", "manager"}[i%2],
			HasEmail: i%5 != 0, Connections: i * 10, JobStartDate: fmt.Sprintf("20%02d-01-01", 10+i%14),
			Skills: []string{"Go", "Kubernetes"}[i%2:], Vector: v,
		}
	}
	if err := ix.Put(ctx, docs); err != nil {
		t.Fatal(err)
	}
	w := osindex.Where{
		Any:    map[string][]string{"country": {"DE", "FR"}},
		None:   map[string][]string{"seniority": {"manager"}},
		Bools:  map[string]bool{"has_email": true},
		Ranges: []osindex.Range{{Field: "connections", GTE: 400}, {Field: "jobstart_date", GTE: "2015-01-01"}},
	}
	match := func(d contactsearch.Document) bool {
		return d.Country != "US" && d.Seniority != "manager" && d.HasEmail && d.Connections >= 400 && d.JobStartDate >= "2015-01-01"
	}
	want := map[int64]bool{}
	for _, d := range docs {
		if match(d) {
			want[d.PersonaID] = true
		}
	}
	ids, total, err := ix.Filter(ctx, w, 0, 300)
	if err != nil {
		t.Fatal(err)
	}
	if total != len(want) || len(ids) != len(want) {
		t.Fatalf("Filter found %d (total %d), brute force %d", len(ids), total, len(want))
	}
	for _, id := range ids {
		if !want[id] {
			t.Fatalf("Filter returned %d, which does not match", id)
		}
	}
	hits, err := ix.SearchWhere(ctx, data[10], 10, w)
	if err != nil {
		t.Fatal(err)
	}
	for _, h := range hits {
		if !want[h.ID] {
			t.Fatalf("SearchWhere returned %d, which does not match", h.ID)
		}
	}
	if len(hits) != min(10, len(want)) {
		t.Fatalf("SearchWhere returned %d hits, want %d", len(hits), min(10, len(want)))
	}
}
