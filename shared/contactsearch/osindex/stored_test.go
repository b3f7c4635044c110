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

	"github.com/firmoapi/firmo/shared/contactsearch"
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

// TestPutWritesEveryMappedField puts a contact document with every field set and checks
// the _bulk source names exactly the mapped fields: the mapping is strict, so a wire
// name it lacks would fail the whole batch.
func TestPutWritesEveryMappedField(t *testing.T) {
	fake := &fakeCluster{}
	srv := httptest.NewServer(fake)
	defer srv.Close()
	ix := osindex.New(newClient(t, srv.URL), osindex.Config{Dims: 2})
	doc := contactsearch.Document{
		PersonaID: 42, Domain: "acme.de", Name: "Anna Schmidt", Title: "CTO", Department: "Technology",
		Seniority: "c_suite", Country: "DE", State: "DE-BE", Skills: []string{"Go"}, Summary: "Builds things.",
		HasEmail: true, EmailValidated: true, HasPhone: true, HasMobile: true, HasLinkedIn: true,
		Connections: 500, JobStartDate: "2021-04-01", Industry: []string{"SAAS"}, Employees: "51-200",
		CompanyCountry: "DE", CompanyState: "DE-BE", Vector: []float32{3, 4}, FP: "abc",
	}
	if err := ix.Put(context.Background(), []contactsearch.Document{doc}); err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(fake.bodies[0]), "\n")
	if len(lines) != 2 {
		t.Fatalf("bulk body has %d lines, want 2: %s", len(lines), fake.bodies[0])
	}
	var src map[string]json.RawMessage
	if err := json.Unmarshal([]byte(lines[1]), &src); err != nil {
		t.Fatal(err)
	}
	props := ix.Config().Mapping()["mappings"].(map[string]any)["properties"].(map[string]any)
	for name := range props {
		if _, ok := src[name]; !ok {
			t.Errorf("mapped field %q not written", name)
		}
	}
	for name := range src {
		if _, ok := props[name]; !ok {
			t.Errorf("written field %q is not mapped", name)
		}
	}
	if got := string(src[osindex.VectorField]); got != "[0.6,0.8]" {
		t.Errorf("vector = %s, want it normalized to [0.6,0.8]", got)
	}
}
