package httpapi_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"mime/multipart"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/firmoapi/firmo/shared/account"
	"github.com/firmoapi/firmo/shared/apperr"
	"github.com/firmoapi/firmo/shared/billing"
	"github.com/firmoapi/firmo/shared/company"
	"github.com/firmoapi/firmo/shared/httpapi"
	"github.com/firmoapi/firmo/shared/httpapi/accounthttp"
	"github.com/firmoapi/firmo/shared/httpapi/companyhttp"
	"github.com/firmoapi/firmo/shared/httpapi/generationhttp"
	"github.com/firmoapi/firmo/shared/kv/boltkv"
	"github.com/firmoapi/firmo/shared/namematch"
	"github.com/firmoapi/firmo/shared/namematch/bleveindex"
	"github.com/firmoapi/firmo/shared/query"
	"github.com/firmoapi/firmo/shared/task"
	"github.com/firmoapi/firmo/shared/task/memqueue"
)

// companyRecords is an in-memory company store for the matcher.
type companyRecords map[string]company.Record

func (m companyRecords) Get(ctx context.Context, dom string) (company.Record, error) {
	if r, ok := m[dom]; ok {
		return r, nil
	}
	return company.Record{}, fmt.Errorf("company %s: %w", dom, apperr.ErrNotFound)
}

func (m companyRecords) List(ctx context.Context, cursor string, limit int) ([]company.Record, string, error) {
	if cursor != "" {
		return nil, "", nil
	}
	var out []company.Record
	for _, r := range m {
		out = append(out, r)
	}
	return out, "", nil
}

// downIndex is a candidate index that cannot be reached.
type downIndex struct{ namematch.Index }

func (downIndex) Search(context.Context, namematch.Request) ([]namematch.Entry, error) {
	return nil, errors.New("connection refused")
}

// newMatchServer serves the match routes over a real matcher (bleve), billing and
// task engine on one bolt store; down makes the candidate index unreachable.
func newMatchServer(t *testing.T, down bool) *qworld {
	t.Helper()
	recs := companyRecords{}
	for _, c := range []struct{ dom, name, country, city string }{
		{"acme-robotics.com", "Acme Robotics, Inc.", "US", "San Jose"},
		{"harbor.de", "Harbor Freight Partners GmbH", "DE", "München"},
	} {
		recs[c.dom] = company.Record{Domain: c.dom, Raw: company.Raw{Name: c.name},
			Profile: company.Profile{Domain: c.dom, Name: c.name, Score: 400, Address: company.Address{Country: c.country, City: c.city}}}
	}
	ix, err := bleveindex.Open(filepath.Join(t.TempDir(), "names.bleve"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ix.Close() })
	if _, err := namematch.NewSyncer(recs, ix).Sync(context.Background()); err != nil {
		t.Fatal(err)
	}
	var index namematch.Index = ix
	if down {
		index = downIndex{ix}
	}
	m := namematch.New(index, recs, namematch.Options{Attempts: 2, Backoff: time.Millisecond, RetryAfter: 9 * time.Second})

	store, err := boltkv.Open(filepath.Join(t.TempDir(), "kv.db"))
	if err != nil {
		t.Fatal(err)
	}
	w := &qworld{t: t, store: store, accounts: account.New(store), billing: billing.New(store), queries: query.New(store)}
	q := memqueue.New(memqueue.Options{Workers: 4})
	flow := memqueue.NewWorkflow(memqueue.FlowOptions{PollEvery: 20 * time.Millisecond})
	eng := task.New(task.Deps{Store: store, Kinds: task.NewRegistry(), Queue: q, Flow: flow})
	bulk := namematch.NewBulk(namematch.BulkDeps{Matcher: m, Tasks: eng, Store: store, Billing: w.billing})
	if err := eng.Kinds().Register(bulk.Kind()); err != nil {
		t.Fatal(err)
	}
	q.Run(eng)
	flow.Run(eng)
	s := httpapi.NewServer(httpapi.Deps{Log: slog.New(slog.NewTextHandler(io.Discard, nil)), Auth: w.accounts, MaxBody: 2 << 20})
	s.Add(companyhttp.MatchRoutes(m, bulk, w.billing)...)
	s.Add(generationhttp.GenerationRoutes(eng)...)
	s.Add(accounthttp.UsageRoutes(w.billing, time.Now)...)
	w.srv = httptest.NewServer(s.Handler())
	t.Cleanup(func() {
		w.srv.Close()
		flow.Close()
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		q.Close(ctx)
		store.Close()
	})
	return w
}

func TestMatchEndpoint(t *testing.T) {
	w := newMatchServer(t, false)
	key, _ := w.user("Matchers", account.PlanPro, account.RoleMember)

	r := w.do("GET", "/v1/match?name=ACME+Robotics&country=US&min_match_confidence=60", key, "")
	if r.status != 200 {
		t.Fatalf("match: %d %s", r.status, r.raw)
	}
	var ans struct {
		Query   map[string]any   `json:"query"`
		Matches []map[string]any `json:"matches"`
	}
	if err := json.Unmarshal([]byte(r.raw), &ans); err != nil {
		t.Fatal(err)
	}
	if ans.Query["name"] != "ACME Robotics" || ans.Query["country"] != "US" || ans.Query["min_match_confidence"] != 60.0 || ans.Query["strict"] != false {
		t.Errorf("query echo = %v", ans.Query)
	}
	if len(ans.Matches) != 1 || ans.Matches[0]["domain"] != "acme-robotics.com" || ans.Matches[0]["match_confidence"].(float64) < 90 {
		t.Fatalf("matches = %v", ans.Matches)
	}
	if !strings.Contains(r.raw, `"update_date":"","language":null,"match_confidence":`) {
		t.Errorf("match_confidence should follow the profile's fields: %s", r.raw)
	}
	if got := r.header.Get(httpapi.HeaderCreditsCharged); got != "1" {
		t.Errorf("first delivery charged %q credits, want 1", got)
	}
	if again := w.do("GET", "/v1/match?name=ACME+Robotics&country=US", key, ""); again.header.Get(httpapi.HeaderCreditsCharged) != "0" {
		t.Errorf("the same company again within 90 days charged %q", again.header.Get(httpapi.HeaderCreditsCharged))
	}
	// Both charges are recorded under the route that was called.
	if got, want := w.usageByEndpoint(key), []string{"GET /v1/match company: 2 charges, 2 records, 1 net-new"}; fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("usage by endpoint = %q, want %q", got, want)
	}

	none := w.do("GET", "/v1/match?name=Zzyzx+Unknown+Widgets", key, "")
	if none.status != 204 || none.raw != "" || none.header.Get(httpapi.HeaderCreditsCharged) != "0" {
		t.Errorf("no match: %d %q charged %s; want 204, empty, 0", none.status, none.raw, none.header.Get(httpapi.HeaderCreditsCharged))
	}

	for _, c := range []struct{ query, field string }{
		{"", "name"},
		{"name=", "name"},
		{"name=...", "name"},
		{"name=Acme&nmae=x", "nmae"},
		{"name=Acme&country=USA", "country"},
		{"name=Acme&min_match_confidence=49", "min_match_confidence"},
		{"name=Acme&min_match_confidence=101", "min_match_confidence"},
		{"name=Acme&min_match_confidence=high", "min_match_confidence"},
		{"name=Acme&strict=maybe", "strict"},
		{"name=Acme&local_mode=2", "local_mode"},
		{"name=Acme&phone=call+me", "phone"},
		{"name=Acme&name=Beta", "name"},
	} {
		r := w.do("GET", "/v1/match?"+c.query, key, "")
		if r.status != 422 || r.errField() != c.field {
			t.Errorf("?%s: %d field %q, want 422 naming %s (%s)", c.query, r.status, r.errField(), c.field, r.raw)
		}
	}
	if r := w.do("GET", "/v1/match?name=Acme", "", ""); r.status != 401 {
		t.Errorf("without a key: %d", r.status)
	}
}

func TestMatchBackendDown(t *testing.T) {
	w := newMatchServer(t, true)
	key, _ := w.user("Matchers", account.PlanPro, account.RoleMember)
	r := w.do("GET", "/v1/match?name=Acme+Robotics", key, "")
	if r.status != 503 || r.header.Get("Retry-After") != "9" || r.code() != "service_unavailable" {
		t.Fatalf("index down: %d Retry-After %q %s", r.status, r.header.Get("Retry-After"), r.raw)
	}
}

// upload posts a multipart body: fields in order, then the file when not nil.
func (w *qworld) upload(key, query string, fields [][2]string, file []byte) qreply {
	w.t.Helper()
	var body bytes.Buffer
	mw := multipart.NewWriter(&body)
	for _, f := range fields {
		mw.WriteField(f[0], f[1])
	}
	if file != nil {
		fw, _ := mw.CreateFormFile("file", "names.csv")
		fw.Write(file)
	}
	mw.Close()
	req, _ := http.NewRequest("POST", w.srv.URL+"/v1/bulkmatch"+query, &body)
	req.Header.Set("Content-Type", mw.FormDataContentType())
	req.Header.Set("x-service-key", key)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		w.t.Fatal(err)
	}
	defer resp.Body.Close()
	raw, _ := io.ReadAll(resp.Body)
	r := qreply{status: resp.StatusCode, header: resp.Header, raw: string(raw)}
	json.Unmarshal(raw, &r.body)
	return r
}

func TestBulkMatchEndpoints(t *testing.T) {
	w := newMatchServer(t, false)
	key, _ := w.user("Matchers", account.PlanPro, account.RoleMember)
	otherKey, _ := w.user("Others", account.PlanPro, account.RoleMember)
	csv := []byte("Company,Country\nAcme Robotics,US\nZzyzx Unknown Widgets,US\nHarbor Freight Partners,DE\n")

	sub := w.upload(key, "", [][2]string{{"name_column", "Company"}, {"country_column", "Country"}, {"min_match_confidence", "55"}}, csv)
	id, _ := sub.body["task_id"].(string)
	if sub.status != 202 || id == "" {
		t.Fatalf("submit: %d %s", sub.status, sub.raw)
	}
	var st qreply
	deadline := time.Now().Add(20 * time.Second)
	for {
		st = w.do("GET", "/v1/bulkmatch/status/"+id, key, "")
		if st.status != 200 {
			t.Fatalf("status: %d %s", st.status, st.raw)
		}
		if st.body["status"] == "completed" || time.Now().After(deadline) {
			break
		}
		time.Sleep(20 * time.Millisecond)
	}
	results, _ := st.body["results"].([]any)
	if st.body["status"] != "completed" || st.body["progress"] != 100.0 || len(results) != 3 {
		t.Fatalf("status = %s", st.raw)
	}
	var domains []any
	for _, r := range results {
		row := r.(map[string]any)
		domains = append(domains, row["domain"])
		if row["input:Company"] == nil || row["input:Country"] == nil {
			t.Errorf("row without its input columns: %v", row)
		}
	}
	if fmt.Sprint(domains) != "[acme-robotics.com <nil> harbor.de]" {
		t.Errorf("domains = %v", domains)
	}
	if got := st.header.Get(httpapi.HeaderCreditsCharged); got != "1" {
		t.Errorf("delivering two matched rows on PRO charged %q credits, want 1", got)
	}
	if again := w.do("GET", "/v1/bulkmatch/status/"+id, key, ""); again.header.Get(httpapi.HeaderCreditsCharged) != "0" {
		t.Errorf("a second poll charged %q", again.header.Get(httpapi.HeaderCreditsCharged))
	}
	// Billed by a status request, recorded under the route that submitted the task.
	if got, want := w.usageByEndpoint(key), []string{"POST /v1/bulkmatch company: 1 charges, 2 records, 2 net-new"}; fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("usage by endpoint = %q, want %q", got, want)
	}
	if r := w.do("GET", "/v1/bulkmatch/status/"+id, otherKey, ""); r.status != 404 {
		t.Errorf("another organisation's task: %d", r.status)
	}
	if r := w.do("GET", "/v1/bulkmatch/status/not-a-uuid", key, ""); r.status != 422 || r.errField() != "task_id" {
		t.Errorf("bad task id: %d %s", r.status, r.raw)
	}
	if r := w.do("GET", "/v1/bulkmatch/status/3f1c2a4e-8b7d-4c1e-9a2b-5d6e7f8a9b0c", key, ""); r.status != 404 {
		t.Errorf("unknown task: %d", r.status)
	}

	viaQuery := w.upload(key, "?name_column=Company&strict=true", nil, csv)
	if viaQuery.status != 202 {
		t.Errorf("parameters in the query string: %d %s", viaQuery.status, viaQuery.raw)
	}

	big := append([]byte("Company\n"), bytes.Repeat([]byte("Acme Robotics\n"), namematch.MaxBulkBytes/14+1)...)
	for _, c := range []struct {
		name   string
		query  string
		fields [][2]string
		file   []byte
		status int
		field  string
	}{
		{"no file", "", [][2]string{{"name_column", "Company"}}, nil, 422, "file"},
		{"no name_column", "", nil, csv, 422, "name_column"},
		{"unknown column", "", [][2]string{{"name_column", "Company"}, {"city_column", "Town"}}, csv, 422, "city_column"},
		{"name_column not a column", "", [][2]string{{"name_column", "Name"}}, csv, 422, "name_column"},
		{"unknown field", "", [][2]string{{"name_column", "Company"}, {"nmae_column", "x"}}, csv, 422, "nmae_column"},
		{"unknown query parameter", "?bogus=1", [][2]string{{"name_column", "Company"}}, csv, 422, "bogus"},
		{"twice", "?name_column=Company", [][2]string{{"name_column", "Company"}}, csv, 422, "name_column"},
		{"bad threshold", "", [][2]string{{"name_column", "Company"}, {"min_match_confidence", "20"}}, csv, 422, "min_match_confidence"},
		{"bad boolean", "", [][2]string{{"name_column", "Company"}, {"local_mode", "yes please"}}, csv, 422, "local_mode"},
		{"file over 1 MB", "", [][2]string{{"name_column", "Company"}}, big, 413, "file"},
	} {
		t.Run(c.name, func(t *testing.T) {
			r := w.upload(key, c.query, c.fields, c.file)
			if r.status != c.status || r.errField() != c.field {
				t.Errorf("%d field %q, want %d naming %s (%s)", r.status, r.errField(), c.status, c.field, r.raw)
			}
		})
	}
	if r := w.do("POST", "/v1/bulkmatch", key, `{"name_column":"Company"}`); r.status != 422 || r.errField() != "file" {
		t.Errorf("a JSON body: %d %s", r.status, r.raw)
	}
}

// usageByEndpoint reads GET /v1/account/usage and lists its by_endpoint rows.
func (w *qworld) usageByEndpoint(key string) []string {
	w.t.Helper()
	u := w.do("GET", "/v1/account/usage", key, "")
	if u.status != 200 {
		w.t.Fatalf("usage = %d %s", u.status, u.raw)
	}
	var out []string
	eps, _ := u.body["by_endpoint"].([]any)
	for _, e := range eps {
		m := e.(map[string]any)
		out = append(out, fmt.Sprintf("%s %s: %v charges, %v records, %v net-new", m["endpoint"], m["kind"], m["charges"], m["records"], m["net_new"]))
	}
	return out
}
