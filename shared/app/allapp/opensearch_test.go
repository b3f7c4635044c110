package allapp_test

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"math"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/firmoapi/firmo/shared/app/allapp"
	"github.com/firmoapi/firmo/shared/app/companyapp"
	"github.com/firmoapi/firmo/shared/company"
	"github.com/firmoapi/firmo/shared/config"
	"github.com/firmoapi/firmo/shared/contact"
	"github.com/firmoapi/firmo/shared/kv/dynamokv"
	"github.com/firmoapi/firmo/shared/testkit"
	"github.com/firmoapi/firmo/shared/testkit/osfake"
)

// fakeOpenSearch speaks just enough of OpenSearch's REST API for the wiring tests below:
// index creation, _bulk (index and delete), and _search as either a knn query over
// contact_vector (brute force, optional persona_id terms filter) or a page of every
// document sorted by one field with search_after. It is NOT OpenSearch and proves nothing
// about queries or relevance: it shows that the AWS composition reaches the cluster
// (with SigV4-signed requests) and maps its failures to 503. The adapters' request
// bodies are checked on golden JSON in shared/namematch/osmatch and shared/contactsearch/ossearch, and their
// suites run against a real cluster when OPENSEARCH_URL is set.
type fakeOpenSearch struct {
	mu       sync.Mutex
	indices  map[string]map[string]map[string]any // index -> _id -> _source
	requests []string                             // "METHOD /path"
	auth     []string                             // Authorization header of each request
	down     bool                                 // answer every request with a 500
	mappings map[string]string                    // index -> body of its creation
	// contacts serves the contacts indexes (contact search runs its whole query DSL
	// there: testkit/osfake evaluates it).
	contacts *osfake.Server
}

func newFakeOpenSearch() *fakeOpenSearch {
	return &fakeOpenSearch{indices: map[string]map[string]map[string]any{}, mappings: map[string]string{}, contacts: osfake.New()}
}

// forward hands a contacts-index request to osfake and copies its answer.
func (f *fakeOpenSearch) forward(w http.ResponseWriter, r *http.Request, body []byte) {
	req, _ := http.NewRequest(r.Method, f.contacts.URL+r.URL.Path, bytes.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		w.WriteHeader(http.StatusBadGateway)
		return
	}
	defer resp.Body.Close()
	w.WriteHeader(resp.StatusCode)
	io.Copy(w, resp.Body)
}

func (f *fakeOpenSearch) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	body, _ := io.ReadAll(r.Body)
	f.mu.Lock()
	defer f.mu.Unlock()
	f.requests = append(f.requests, r.Method+" "+r.URL.Path)
	f.auth = append(f.auth, r.Header.Get("Authorization"))
	w.Header().Set("Content-Type", "application/json")
	if f.down {
		w.WriteHeader(http.StatusInternalServerError)
		io.WriteString(w, `{"error":{"type":"node_failure","reason":"test: cluster down"},"status":500}`)
		return
	}
	parts := strings.Split(strings.Trim(r.URL.Path, "/"), "/")
	if strings.HasPrefix(parts[0], "contacts") || parts[0] == "_bulk" && bytes.Contains(body, []byte(`"_index":"contacts`)) {
		if r.Method == http.MethodPut && len(parts) == 1 {
			f.mappings[parts[0]] = string(body)
		}
		f.forward(w, r, body)
		return
	}
	switch {
	case r.Method == http.MethodPut && len(parts) == 1:
		if _, ok := f.indices[parts[0]]; ok {
			w.WriteHeader(http.StatusBadRequest)
			fmt.Fprintf(w, `{"error":{"type":"resource_already_exists_exception","reason":"index [%s] already exists"},"status":400}`, parts[0])
			return
		}
		f.indices[parts[0]] = map[string]map[string]any{}
		f.mappings[parts[0]] = string(body)
		fmt.Fprintf(w, `{"acknowledged":true,"shards_acknowledged":true,"index":%q}`, parts[0])
	case parts[len(parts)-1] == "_bulk":
		f.bulk(w, body)
	case parts[len(parts)-1] == "_search" && len(parts) == 2:
		f.search(w, parts[0], body)
	default:
		w.WriteHeader(http.StatusNotFound)
		io.WriteString(w, `{"error":{"type":"not_found","reason":"test: not served"},"status":404}`)
	}
}

func (f *fakeOpenSearch) bulk(w http.ResponseWriter, body []byte) {
	sc := bufio.NewScanner(bytes.NewReader(body))
	sc.Buffer(make([]byte, 1<<20), 64<<20)
	var items []string
	for sc.Scan() {
		var meta map[string]struct {
			Index string `json:"_index"`
			ID    string `json:"_id"`
		}
		if err := json.Unmarshal(sc.Bytes(), &meta); err != nil {
			w.WriteHeader(http.StatusBadRequest)
			return
		}
		for action, m := range meta {
			docs := f.indices[m.Index]
			if docs == nil {
				docs = map[string]map[string]any{}
				f.indices[m.Index] = docs
			}
			if action == "delete" {
				delete(docs, m.ID)
			} else {
				sc.Scan()
				var src map[string]any
				json.Unmarshal(sc.Bytes(), &src)
				docs[m.ID] = src
			}
			items = append(items, fmt.Sprintf(`{%q:{"_index":%q,"_id":%q,"status":200}}`, action, m.Index, m.ID))
		}
	}
	fmt.Fprintf(w, `{"took":1,"errors":false,"items":[%s]}`, strings.Join(items, ","))
}

type fakeHit struct {
	id    string
	score float64
	src   map[string]any
}

func (f *fakeOpenSearch) search(w http.ResponseWriter, index string, body []byte) {
	var q struct {
		Size  int              `json:"size"`
		Sort  []map[string]any `json:"sort"`
		After []any            `json:"search_after"`
		Query struct {
			KNN map[string]struct {
				Vector []float64 `json:"vector"`
				Filter struct {
					Bool struct {
						Filter []struct {
							Terms map[string][]float64 `json:"terms"`
						} `json:"filter"`
					} `json:"bool"`
				} `json:"filter"`
			} `json:"knn"`
		} `json:"query"`
	}
	json.Unmarshal(body, &q)
	var hits []fakeHit
	for id, src := range f.indices[index] {
		hits = append(hits, fakeHit{id: id, score: 1, src: src})
	}
	if knn, ok := q.Query.KNN["contact_vector"]; ok {
		allowed := map[float64]bool{}
		for _, fl := range knn.Filter.Bool.Filter {
			for _, id := range fl.Terms["persona_id"] {
				allowed[id] = true
			}
		}
		kept := hits[:0]
		for _, h := range hits {
			vec, _ := h.src["contact_vector"].([]any)
			if len(vec) == 0 || (len(allowed) > 0 && !allowed[h.src["persona_id"].(float64)]) {
				continue
			}
			var dot float64
			for i, x := range vec {
				dot += x.(float64) * knn.Vector[i]
			}
			h.score = (1 + dot) / 2 // lucene cosinesimil on unit vectors
			kept = append(kept, h)
		}
		hits = kept
		sort.Slice(hits, func(i, j int) bool { return hits[i].score > hits[j].score })
	} else if len(q.Sort) == 1 {
		var field string
		for k := range q.Sort[0] {
			field = k
		}
		less := func(a, b any) bool {
			if x, ok := a.(float64); ok {
				return x < b.(float64)
			}
			return fmt.Sprint(a) < fmt.Sprint(b)
		}
		sort.Slice(hits, func(i, j int) bool { return less(hits[i].src[field], hits[j].src[field]) })
		if len(q.After) == 1 {
			kept := hits[:0]
			for _, h := range hits {
				if less(q.After[0], h.src[field]) {
					kept = append(kept, h)
				}
			}
			hits = kept
		}
	}
	if q.Size > 0 && len(hits) > q.Size {
		hits = hits[:q.Size]
	}
	out := make([]string, len(hits))
	for i, h := range hits {
		src, _ := json.Marshal(h.src)
		out[i] = fmt.Sprintf(`{"_index":%q,"_id":%q,"_score":%s,"_source":%s}`, index, h.id, fmtScore(h.score), src)
	}
	fmt.Fprintf(w, `{"took":1,"timed_out":false,"_shards":{"total":1,"successful":1,"skipped":0,"failed":0},"hits":{"total":{"value":%d,"relation":"eq"},"max_score":1,"hits":[%s]}}`, len(hits), strings.Join(out, ","))
}

func fmtScore(s float64) string {
	if math.IsNaN(s) {
		return "0"
	}
	return fmt.Sprintf("%g", s)
}

func (f *fakeOpenSearch) snapshot() (reqs, auth []string, docs map[string]int) {
	f.mu.Lock()
	defer f.mu.Unlock()
	docs = map[string]int{}
	for ix, d := range f.indices {
		docs[ix] = len(d)
	}
	for ix := range f.mappings {
		if strings.HasPrefix(ix, "contacts") {
			docs[ix] = f.contacts.Docs(ix)
		}
	}
	return append([]string(nil), f.requests...), append([]string(nil), f.auth...), docs
}

func (f *fakeOpenSearch) setDown(down bool) {
	f.mu.Lock()
	f.down = down
	f.mu.Unlock()
}

// newAWSApp builds the AWS composition on dynalite with the given extra settings.
func newAWSApp(t *testing.T, ddbURL string, extra map[string]string) *allapp.App {
	t.Helper()
	env := map[string]string{"FIRMO_BACKEND": "aws", "FIRMO_TABLE": "firmo", "FIRMO_DYNAMODB_ENDPOINT": ddbURL,
		"FIRMO_DNS_RESOLVER": "127.0.0.1:9"} // MX lookups of reprocessing fail at once
	for k, v := range extra {
		env[k] = v
	}
	for k, v := range map[string]string{"AWS_ACCESS_KEY_ID": "firmo-test", "AWS_SECRET_ACCESS_KEY": "firmo-test", "AWS_SESSION_TOKEN": "", "AWS_EC2_METADATA_DISABLED": "true", "AWS_PROFILE": "", "AWS_CONFIG_FILE": os.DevNull, "AWS_SHARED_CREDENTIALS_FILE": os.DevNull} {
		t.Setenv(k, v)
	}
	cfg, err := config.Load(func(k string) string { return env[k] })
	if err != nil {
		t.Fatal(err)
	}
	a, err := allapp.NewAWS(context.Background(), cfg, slog.New(slog.NewTextHandler(io.Discard, nil)))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { a.Close() })
	return a
}

// call serves one request through the app's handler.
func call(t *testing.T, a *allapp.App, key, method, path, body string) *httptest.ResponseRecorder {
	t.Helper()
	var rd io.Reader
	if body != "" {
		rd = strings.NewReader(body)
	}
	req := httptest.NewRequest(method, path, rd)
	req.Header.Set("x-service-key", key)
	if body != "" {
		req.Header.Set("Content-Type", "application/json")
	}
	rec := httptest.NewRecorder()
	a.Handler().ServeHTTP(rec, req)
	return rec
}

// TestOpenSearchWiringOnAWS runs the AWS composition (dynalite) with FIRMO_OPENSEARCH_URL
// on the fake cluster: Lambda init makes no request; the scheduler's name sync and a
// match reach the names index, a similarity search writes and queries the contacts
// index, every request is SigV4-signed; a cluster failure is a 503 with Retry-After for
// both.
// Without FIRMO_OPENSEARCH_URL, match is a 503 naming the setting.
func TestOpenSearchWiringOnAWS(t *testing.T) {
	ctx := context.Background()
	ddbURL := testkit.Dynalite(t)
	if err := dynamokv.EnsureTable(ctx, testkit.DynamoClient(t, ddbURL), "firmo"); err != nil {
		t.Fatal(err)
	}
	fake := newFakeOpenSearch()
	srv := httptest.NewServer(fake)
	defer srv.Close()
	a := newAWSApp(t, ddbURL, map[string]string{"FIRMO_OPENSEARCH_URL": srv.URL, "FIRMO_OPENSEARCH_AUTH": "sigv4", "AWS_REGION": "eu-west-1",
		"FIRMO_OPENSEARCH_NAMES_INDEX": "names-test", "FIRMO_OPENSEARCH_CONTACTS_INDEX": "contacts-test"})
	if reqs, _, _ := fake.snapshot(); len(reqs) != 0 {
		t.Fatalf("building the app sent %v; init must not touch the cluster", reqs)
	}
	for i, c := range []struct{ domain, name, city string }{
		{"acme-robotics.com", "Acme Robotics", "Berlin"}, {"blue-harbor.io", "Blue Harbor Logistics", "Hamburg"}, {"cedar-analytics.de", "Cedar Analytics", "Munich"},
	} {
		rec := &company.Record{Domain: c.domain, Raw: company.Raw{Name: c.name},
			Profile: company.Profile{Domain: c.domain, Name: c.name, Address: company.Address{Country: "DE", City: c.city}}}
		if err := a.Companies.Store().Put(ctx, rec); err != nil {
			t.Fatal(err)
		}
		for j, title := range []string{"Head of Software Development", "Chief Financial Officer", "Warehouse Operations Manager"} {
			r := contact.Raw{PersonaID: int64(100*i + j + 1), Name: fmt.Sprintf("Person %d %d", i, j), Title: title, Domain: c.domain, Country: "DE", Skills: []string{"Kubernetes", "Go"}[:j%2+1]}
			if _, err := a.Contacts.Put(ctx, r); err != nil {
				t.Fatal(err)
			}
		}
	}
	demo, err := a.Accounts.EnsureDemo(ctx, "")
	if err != nil {
		t.Fatal(err)
	}

	tctx, cancel := context.WithTimeout(ctx, 2*time.Minute)
	defer cancel()
	rep, err := a.HandleSchedule(tctx)
	if err != nil {
		t.Fatal(err)
	}
	if rep.Names == nil || rep.Names.Indexed != 3 {
		t.Fatalf("scheduler name sync = %+v; want 3 companies indexed", rep.Names)
	}
	if rep.Patterns != 3 {
		t.Fatalf("the scheduler published the email patterns of %d domains; want the 3 its contacts marked", rep.Patterns)
	}
	if again, err := a.HandleSchedule(tctx); err != nil || again.Patterns != 0 {
		t.Fatalf("a second tick published %d domains (%v); the marks were not cleared", again.Patterns, err)
	}
	if _, _, docs := fake.snapshot(); docs["names-test"] != 3 {
		t.Fatalf("names index holds %d documents, want 3", docs["names-test"])
	}

	r := call(t, a, demo.Key, "GET", "/v1/match?name=Acme+Robotics&country=DE", "")
	if r.Code != http.StatusOK || !strings.Contains(r.Body.String(), "acme-robotics.com") {
		t.Fatalf("match: %d %s", r.Code, r.Body)
	}

	r = call(t, a, demo.Key, "POST", "/v1/contacts/discover", `{"icp_text":"head of software development"}`)
	if r.Code != http.StatusOK || !strings.Contains(r.Body.String(), `"similarity"`) {
		t.Fatalf("discover: %d %s", r.Code, r.Body)
	}
	reqs, auth, docs := fake.snapshot()
	if docs["contacts-test"] != 9 {
		t.Fatalf("contacts index holds %d documents, want 9", docs["contacts-test"])
	}
	for _, want := range []string{"PUT /names-test", "PUT /contacts-test", "POST /_bulk", "POST /names-test/_search", "POST /contacts-test/_search"} {
		found := false
		for _, r := range reqs {
			found = found || r == want
		}
		if !found {
			t.Errorf("no %q among the cluster's requests %v", want, reqs)
		}
	}
	for i, h := range auth {
		if !strings.HasPrefix(h, "AWS4-HMAC-SHA256 Credential=firmo-test/") || !strings.Contains(h, "/eu-west-1/es/aws4_request") {
			t.Fatalf("request %s has Authorization %q; want SigV4 for es in eu-west-1", reqs[i], h)
		}
	}

	fake.setDown(true)
	r = call(t, a, demo.Key, "GET", "/v1/match?name=Blue+Harbor+Logistics", "")
	if r.Code != http.StatusServiceUnavailable || r.Header().Get("Retry-After") == "" || !strings.Contains(r.Body.String(), "service_unavailable") || strings.Contains(r.Body.String(), "test: cluster down") {
		t.Fatalf("match with the cluster down: %d Retry-After %q %s", r.Code, r.Header().Get("Retry-After"), r.Body)
	}
	r = call(t, a, demo.Key, "POST", "/v1/contacts/discover", `{"icp_text":"chief financial officer"}`)
	if r.Code != http.StatusServiceUnavailable || r.Header().Get("Retry-After") == "" || strings.Contains(r.Body.String(), "test: cluster down") {
		t.Fatalf("discover with the cluster down: %d Retry-After %q %s", r.Code, r.Header().Get("Retry-After"), r.Body)
	}

	t.Run("without FIRMO_OPENSEARCH_URL", func(t *testing.T) {
		b := newAWSApp(t, ddbURL, nil)
		r := call(t, b, demo.Key, "GET", "/v1/match?name=Acme+Robotics", "")
		if r.Code != http.StatusServiceUnavailable || r.Header().Get("Retry-After") == "" || !strings.Contains(r.Body.String(), "FIRMO_OPENSEARCH_URL") {
			t.Fatalf("match without a name index: %d %s", r.Code, r.Body)
		}
		for _, req := range []struct{ method, path, body string }{
			{"POST", "/v1/contacts/discover", `{"icp_text":"chief financial officer"}`},
			{"GET", "/v1/contacts/count?seniority=vp", ""},
			{"GET", "/v1/contacts/lookup?persona_id=1", ""},
		} {
			r := call(t, b, demo.Key, req.method, req.path, req.body)
			if r.Code != http.StatusServiceUnavailable || r.Header().Get("Retry-After") == "" || !strings.Contains(r.Body.String(), "FIRMO_OPENSEARCH_URL") {
				t.Fatalf("%s %s without a contacts index: %d %s; want 503 naming the setting", req.method, req.path, r.Code, r.Body)
			}
		}
		// Requests are still checked first: a bad parameter is named, not hidden by the 503.
		r = call(t, b, demo.Key, "POST", "/v1/contacts/discover", `{"icp_text":"cfo","max_records":10}`)
		if r.Code != http.StatusUnprocessableEntity || !strings.Contains(r.Body.String(), "max_records") {
			t.Fatalf("discover with max_records 10 without a contacts index: %d %s; want 422 naming max_records", r.Code, r.Body)
		}
		rep, err := b.HandleSchedule(tctx)
		if err != nil || rep.Names != nil {
			t.Fatalf("scheduler without a name index: %+v, %v; want reprocessing only", rep, err)
		}
	})
}

// TestOpenAIEmbedderAndOpenSearchLocally runs the local composition with
// FIRMO_EMBEDDER=openai (an in-process OpenAI-compatible /embeddings server answering
// 8-dim vectors) and FIRMO_OPENSEARCH_URL (the fake cluster): contact vectors come from
// the endpoint with the model and key configured, the contacts index is created with the
// embedder's 8 dims, names go to OpenSearch instead of bleve, and the key is in no log line.
func TestOpenAIEmbedderAndOpenSearchLocally(t *testing.T) {
	ctx := context.Background()
	var mu sync.Mutex
	var models, keys []string
	embedSrv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var req struct {
			Model string   `json:"model"`
			Input []string `json:"input"`
		}
		json.NewDecoder(r.Body).Decode(&req)
		mu.Lock()
		models, keys = append(models, req.Model), append(keys, r.Header.Get("Authorization"))
		mu.Unlock()
		data := make([]string, len(req.Input))
		for i, text := range req.Input {
			v := make([]string, 8)
			for d := range v {
				v[d] = fmt.Sprint(float64((len(text)+d*7)%5) + 0.5)
			}
			data[i] = fmt.Sprintf(`{"object":"embedding","index":%d,"embedding":[%s]}`, i, strings.Join(v, ","))
		}
		fmt.Fprintf(w, `{"object":"list","data":[%s],"model":%q,"usage":{"prompt_tokens":1,"total_tokens":1}}`, strings.Join(data, ","), req.Model)
	}))
	defer embedSrv.Close()
	fake := newFakeOpenSearch()
	osSrv := httptest.NewServer(fake)
	defer osSrv.Close()
	env := map[string]string{"FIRMO_DATA_DIR": t.TempDir(), "FIRMO_EMBEDDER": "openai", "FIRMO_EMBED_BASE_URL": embedSrv.URL + "/v1",
		"FIRMO_EMBED_MODEL": "test-embed-8", "FIRMO_EMBED_DIMS": "8", "FIRMO_EMBED_API_KEY": "sk-test-secret-key", "FIRMO_OPENSEARCH_URL": osSrv.URL}
	cfg, err := config.Load(func(k string) string { return env[k] })
	if err != nil {
		t.Fatal(err)
	}
	var logs bytes.Buffer
	a, err := allapp.NewLocal(ctx, cfg, slog.New(slog.NewTextHandler(&logs, &slog.HandlerOptions{Level: slog.LevelDebug})))
	if err != nil {
		t.Fatal(err)
	}
	defer a.Close()
	rec := &company.Record{Domain: "acme-robotics.com", Raw: company.Raw{Name: "Acme Robotics"}, Profile: company.Profile{Domain: "acme-robotics.com", Name: "Acme Robotics"}}
	if err := a.Companies.Store().Put(ctx, rec); err != nil {
		t.Fatal(err)
	}
	for i, title := range []string{"Head of Software Development", "Chief Financial Officer"} {
		if _, err := a.Contacts.Put(ctx, contact.Raw{PersonaID: int64(i + 1), Name: fmt.Sprintf("Person %d", i), Title: title, Domain: rec.Domain}); err != nil {
			t.Fatal(err)
		}
	}
	demo, err := a.Accounts.EnsureDemo(ctx, "")
	if err != nil {
		t.Fatal(err)
	}
	r := call(t, a, demo.Key, "POST", "/v1/contacts/discover", `{"icp_text":"software"}`)
	if r.Code != http.StatusOK {
		t.Fatalf("discover: %d %s", r.Code, r.Body)
	}
	mu.Lock()
	if len(models) == 0 || models[0] != "test-embed-8" || keys[0] != "Bearer sk-test-secret-key" {
		t.Errorf("embedding requests: models %v, auth %v", models, keys)
	}
	mu.Unlock()
	if _, err := a.SyncNames(ctx); err != nil {
		t.Fatal(err)
	}
	_, _, docs := fake.snapshot()
	fake.mu.Lock()
	mapping := fake.mappings["contacts"]
	fake.mu.Unlock()
	if !strings.Contains(mapping, `"dimension":8`) || docs["contacts"] != 2 || docs["company-names"] != 1 {
		t.Fatalf("contacts index mapping %s, documents %v; want 8 dims, 2 contacts, 1 name", mapping, docs)
	}
	if _, err := os.Stat(filepath.Join(cfg.DataDir, companyapp.NameIndexDir)); !os.IsNotExist(err) {
		t.Errorf("a bleve name index was opened although OpenSearch is configured: %v", err)
	}
	if strings.Contains(logs.String(), "sk-test-secret-key") {
		t.Error("the embedding API key appears in the log")
	}
}
