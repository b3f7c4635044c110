package osindex_test

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/firmoapi/firmo/shared/contactsearch/osindex"
)

func TestScanBodyGolden(t *testing.T) {
	golden(t, "scan_first.json", osindex.ScanBody(-1))
	golden(t, "scan_after.json", osindex.ScanBody(41))
}

// TestStoredPages reads 2,500 documents through a server that pages like OpenSearch's
// search_after (1,000 per page), and checks every id, fingerprint and vector arrives once.
func TestStoredPages(t *testing.T) {
	const n = 2500
	var pages int
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var body struct {
			Size  int     `json:"size"`
			After []int64 `json:"search_after"`
		}
		raw, _ := io.ReadAll(r.Body)
		if err := json.Unmarshal(raw, &body); err != nil {
			t.Errorf("scan body: %v", err)
		}
		pages++
		start := int64(0)
		if len(body.After) == 1 {
			start = body.After[0] + 1
		}
		var hits []string
		for id := start; id < n && len(hits) < body.Size; id++ {
			hits = append(hits, fmt.Sprintf(`{"_index":"contacts","_id":"%d","_score":null,"_source":{"persona_id":%d,"fp":"fp%d","contact_vector":[%d,1]}}`, id, id, id, id%7))
		}
		fmt.Fprintf(w, `{"took":1,"timed_out":false,"_shards":{"total":1,"successful":1,"skipped":0,"failed":0},"hits":{"total":{"value":%d,"relation":"eq"},"hits":[%s]}}`, n, strings.Join(hits, ","))
	}))
	defer srv.Close()
	ix := osindex.New(newClient(t, srv.URL), osindex.Config{Dims: 2})
	seen := map[int64]bool{}
	err := ix.Stored(context.Background(), func(id int64, fp string, vec []float32) error {
		if seen[id] || fp != fmt.Sprintf("fp%d", id) || len(vec) != 2 || vec[0] != float32(id%7) {
			t.Fatalf("document %d: fp %q vec %v (seen before: %v)", id, fp, vec, seen[id])
		}
		seen[id] = true
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(seen) != n || pages != 3 {
		t.Fatalf("read %d documents in %d pages; want %d in 3", len(seen), pages, n)
	}
}

func TestRemoveIsOneBulk(t *testing.T) {
	fake := &fakeCluster{}
	srv := httptest.NewServer(fake)
	defer srv.Close()
	ix := osindex.New(newClient(t, srv.URL), osindex.Config{Dims: 2})
	if err := ix.Remove(context.Background(), []int64{9, 10, 11}); err != nil {
		t.Fatal(err)
	}
	if len(fake.requests) != 1 || fake.requests[0] != "POST /_bulk?" {
		t.Fatalf("requests = %q; want one _bulk", fake.requests)
	}
	if got := strings.Count(fake.bodies[0], `"delete"`); got != 3 {
		t.Fatalf("bulk body has %d deletes, want 3: %s", got, fake.bodies[0])
	}
}
