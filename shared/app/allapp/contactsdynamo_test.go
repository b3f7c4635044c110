package allapp_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"

	"github.com/firmoapi/firmo/shared/app"
	"github.com/firmoapi/firmo/shared/app/contactsapp"
	"github.com/firmoapi/firmo/shared/company"
	"github.com/firmoapi/firmo/shared/contact"
	"github.com/firmoapi/firmo/shared/kv/dynamokv"
	"github.com/firmoapi/firmo/shared/testkit"
)

// dynamoCounter sits between a composition and dynalite and counts the contact items
// each DynamoDB call returns (record and lookup items: keys starting "contact").
type dynamoCounter struct {
	target string
	mu     sync.Mutex
	items  int      // contact items read
	scans  []string // Scan calls (any table)
	calls  []string // the contact-reading calls, for the failure message
}

func (d *dynamoCounter) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	body, _ := io.ReadAll(r.Body)
	req, _ := http.NewRequest(r.Method, d.target+r.URL.Path, bytes.NewReader(body))
	req.Header = r.Header.Clone()
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		w.WriteHeader(http.StatusBadGateway)
		return
	}
	defer resp.Body.Close()
	out, _ := io.ReadAll(resp.Body)
	op := strings.TrimPrefix(r.Header.Get("X-Amz-Target"), "DynamoDB_20120810.")
	if bytes.Contains(body, []byte(`"contact`)) {
		var got struct {
			Count     int
			Item      map[string]any
			Responses map[string][]any
		}
		_ = json.Unmarshal(out, &got)
		n := got.Count
		if got.Item != nil {
			n = 1
		}
		for _, items := range got.Responses {
			n += len(items)
		}
		d.mu.Lock()
		d.items += n
		d.calls = append(d.calls, fmt.Sprintf("%s (%d items)", op, n))
		d.mu.Unlock()
	}
	if op == "Scan" {
		d.mu.Lock()
		d.scans = append(d.scans, string(body))
		d.mu.Unlock()
	}
	for k, v := range resp.Header {
		w.Header()[k] = v
	}
	w.WriteHeader(resp.StatusCode)
	w.Write(out)
}

func (d *dynamoCounter) read() (int, []string, []string) {
	d.mu.Lock()
	defer d.mu.Unlock()
	return d.items, append([]string(nil), d.calls...), append([]string(nil), d.scans...)
}

// contactPage is the most contact items one request may read: one page.
const contactPage = 100

// TestContactsLambdaReadsNoSnapshot builds the contacts Lambda's composition (the
// contacts family alone, as functions/contacts does) on dynalite behind a counting proxy,
// with contact search on OpenSearch (osfake), over 3 x 60 stored contacts, and fails if
// its cold start or any of its requests (discover in filter and similarity mode, count,
// the legacy list, lookup) reads more than a page of contacts from DynamoDB, or scans.
func TestContactsLambdaReadsNoSnapshot(t *testing.T) {
	ctx := context.Background()
	ddbURL := testkit.Dynalite(t)
	if err := dynamokv.EnsureTable(ctx, testkit.DynamoClient(t, ddbURL), "firmo"); err != nil {
		t.Fatal(err)
	}
	fake := newFakeOpenSearch()
	osSrv := httptest.NewServer(fake)
	defer osSrv.Close()
	osEnv := map[string]string{"FIRMO_OPENSEARCH_URL": osSrv.URL, "FIRMO_OPENSEARCH_CONTACTS_INDEX": "contacts-lambda"}
	// The writer: the whole composition stores companies and contacts (each contact is
	// indexed as it is stored).
	a := newAWSApp(t, ddbURL, osEnv)
	for i, dom := range []string{"acme-robotics.com", "blue-harbor.io", "cedar-analytics.de"} {
		rec := &company.Record{Domain: dom, Raw: company.Raw{Name: dom}, Profile: company.Profile{Domain: dom, Name: dom, Address: company.Address{Country: "DE"}}}
		if err := a.Companies.Store().Put(ctx, rec); err != nil {
			t.Fatal(err)
		}
		for j := range 60 {
			title := []string{"Head of Software Development", "Chief Financial Officer", "Warehouse Operations Manager"}[j%3]
			r := contact.Raw{PersonaID: int64(1000*(i+1) + j), Name: fmt.Sprintf("Person %d %d", i, j), Title: title, Domain: dom, Country: "DE",
				Email: fmt.Sprintf("p%d.%d@%s", i, j, dom)}
			if _, err := a.Contacts.Put(ctx, r); err != nil {
				t.Fatal(err)
			}
		}
	}
	demo, err := a.Accounts.EnsureDemo(ctx, "")
	if err != nil {
		t.Fatal(err)
	}
	if _, _, docs := fake.snapshot(); docs["contacts-lambda"] != 180 {
		t.Fatalf("the contacts index holds %d documents, want 180", docs["contacts-lambda"])
	}

	// The contacts Lambda: its family alone, on the counting proxy.
	counter := &dynamoCounter{target: ddbURL}
	proxy := httptest.NewServer(counter)
	defer proxy.Close()
	env := map[string]string{"FIRMO_BACKEND": "aws", "FIRMO_TABLE": "firmo", "FIRMO_DYNAMODB_ENDPOINT": proxy.URL, "AWS_REGION": "us-east-1"}
	for k, v := range osEnv {
		env[k] = v
	}
	core, err := app.FromEnv(ctx, func(k string) string { return env[k] }, contactsapp.Composer())
	if err != nil {
		t.Fatal(err)
	}
	defer core.Close()
	h := core.Handler()
	if n, calls, _ := counter.read(); n > 0 {
		t.Fatalf("the cold start read %d contact items: %v", n, calls)
	}
	for _, rq := range []struct{ method, path, body, want string }{
		{"POST", "/v1/contacts/discover", `{"seniority":"manager"}`, `"total_contacts":`},
		{"POST", "/v1/contacts/discover", `{"icp_text":"head of software development","max_records":20,"results_by_company":2}`, `"similarity"`},
		{"GET", "/v1/contacts/count?filter_country=DE", "", `"count":180`},
		{"GET", "/v1/contacts?title=CFO&max_records=20", "", `"persona_id"`},
		{"GET", "/v1/contacts/lookup?email=p1.7@blue-harbor.io", "", `"persona_id":2007`},
	} {
		before, _, _ := counter.read()
		var body io.Reader
		if rq.body != "" {
			body = strings.NewReader(rq.body)
		}
		req := httptest.NewRequest(rq.method, rq.path, body)
		req.Header.Set("x-service-key", demo.Key)
		if rq.body != "" {
			req.Header.Set("Content-Type", "application/json")
		}
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, req)
		if rec.Code != http.StatusOK || !strings.Contains(rec.Body.String(), rq.want) {
			t.Fatalf("%s %s: %d %.300s", rq.method, rq.path, rec.Code, rec.Body)
		}
		after, calls, scans := counter.read()
		if strings.Contains(rq.path, "lookup") && after == before {
			t.Fatalf("lookup read no contact item: the counter does not see contact reads (%v)", calls)
		}
		if after-before > contactPage || len(scans) > 0 {
			t.Fatalf("%s %s read %d contact items from DynamoDB (at most a page, %d), scans %v; calls %v", rq.method, rq.path, after-before, contactPage, scans, calls)
		}
	}

	// The company pipeline's store rewrites a company's fields in its contacts' documents:
	// the Lambda's next count sees the new size bucket without reading any contact.
	rec, err := a.Companies.Store().Get(ctx, "blue-harbor.io")
	if err != nil {
		t.Fatal(err)
	}
	size := "51-200"
	rec.Profile.Employees = &size
	if err := a.Companies.Store().Put(ctx, &rec); err != nil {
		t.Fatal(err)
	}
	req := httptest.NewRequest("GET", "/v1/contacts/count?employee_range=51,200", nil)
	req.Header.Set("x-service-key", demo.Key)
	w := httptest.NewRecorder()
	h.ServeHTTP(w, req)
	if w.Code != http.StatusOK || !strings.Contains(w.Body.String(), `"count":60`) {
		t.Fatalf("count after the company changed: %d %s; want 60", w.Code, w.Body)
	}
}
