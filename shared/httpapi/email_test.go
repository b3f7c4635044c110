package httpapi_test

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"reflect"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/firmoapi/firmo/shared/account"
	"github.com/firmoapi/firmo/shared/billing"
	"github.com/firmoapi/firmo/shared/emailfind"
	"github.com/firmoapi/firmo/shared/httpapi"
	"github.com/firmoapi/firmo/shared/httpapi/accounthttp"
	"github.com/firmoapi/firmo/shared/httpapi/emailhttp"
	"github.com/firmoapi/firmo/shared/kv/boltkv"
	"github.com/firmoapi/firmo/shared/smtpverify"
	"github.com/firmoapi/firmo/shared/task"
	"github.com/firmoapi/firmo/shared/task/memqueue"
	"github.com/firmoapi/firmo/shared/testkit"
)

// eworld is the email family on the real stack: bbolt, accounts, billing, the task
// engine with its embedded queue, and the SMTP verifier talking to a private Postfix
// through an in-process DNS server.
type eworld struct {
	t        *testing.T
	accounts *account.Service
	srv      *httptest.Server
}

func newEWorld(t *testing.T) *eworld {
	t.Helper()
	mailboxes := []string{"jane.doe@strict.example.com", "@catchall.example.com"}
	for i := 0; i < emailfind.MaxBatch; i += 5 {
		mailboxes = append(mailboxes, fmt.Sprintf("p%d.smith@strict.example.com", i))
	}
	pf := testkit.StartPostfix(t, testkit.PostfixConfig{Mailboxes: mailboxes})
	mx := []testkit.DNSMX{{Pref: 10, Host: "mx.example.net"}}
	dns := testkit.StartDNS(t, testkit.DNSZone{
		MX: map[string][]testkit.DNSMX{"strict.example.com": mx, "catchall.example.com": mx},
		A:  map[string][]string{"mx.example.net": {"127.0.0.1"}},
	})
	store, err := boltkv.Open(filepath.Join(t.TempDir(), "kv.db"))
	if err != nil {
		t.Fatal(err)
	}
	w := &eworld{t: t, accounts: account.New(store)}
	q := memqueue.New(memqueue.Options{Workers: 32, RetryDelay: 5 * time.Millisecond})
	flow := memqueue.NewWorkflow(memqueue.FlowOptions{PollEvery: 10 * time.Millisecond})
	eng := task.New(task.Deps{Store: store, Kinds: task.NewRegistry(), Queue: q, Flow: flow, Limiter: task.NewLimiter(nil, 50)})
	verifier := smtpverify.New(smtpverify.Settings{Resolver: dns.Addr, Port: pf.Port, CommandTimeout: 5 * time.Second, PerHost: 32, HostInterval: -1,
		AllowHosts: []string{"mx.example.net"}}) // the loopback Postfix
	svc, err := emailfind.NewService(emailfind.ServiceDeps{Store: store, Tasks: eng, Finder: emailfind.NewFinder(emailfind.FinderDeps{Checker: verifier, VerifyBudget: 20 * time.Second, EscalateBudget: 30 * time.Second}), Billing: billing.New(store), Orgs: w.accounts})
	if err != nil {
		t.Fatal(err)
	}
	q.Run(eng)
	flow.Run(eng)
	s := httpapi.NewServer(httpapi.Deps{Log: slog.New(slog.NewTextHandler(io.Discard, nil)), Auth: w.accounts, MaxBody: 8 << 20})
	s.Add(emailhttp.EmailRoutes(svc)...)
	s.Add(accounthttp.UsageRoutes(billing.New(store), time.Now)...)
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

func (w *eworld) key(org string) string {
	w.t.Helper()
	ctx := context.Background()
	o, _, err := w.accounts.EnsureOrg(ctx, org, account.PlanPro)
	if err != nil {
		w.t.Fatal(err)
	}
	u, err := w.accounts.CreateUser(ctx, o.ID, fmt.Sprintf("u%d@%s.test", time.Now().UnixNano(), strings.ToLower(org)), account.RoleMember, "")
	if err != nil {
		w.t.Fatal(err)
	}
	key, _, err := w.accounts.CreateKey(ctx, o.ID, u.ID, "")
	if err != nil {
		w.t.Fatal(err)
	}
	return key
}

type ereply struct {
	status int
	raw    string
	body   map[string]any
}

func (r ereply) errField() string {
	e, _ := r.body["error"].(map[string]any)
	f, _ := e["field"].(string)
	return f
}

func (w *eworld) do(method, path, key, body string) ereply {
	w.t.Helper()
	var rd io.Reader
	if body != "" {
		rd = strings.NewReader(body)
	}
	req, _ := http.NewRequest(method, w.srv.URL+path, rd)
	req.Header.Set("x-service-key", key)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		w.t.Fatal(err)
	}
	defer resp.Body.Close()
	raw, _ := io.ReadAll(resp.Body)
	r := ereply{status: resp.StatusCode, raw: string(raw)}
	json.Unmarshal(raw, &r.body)
	return r
}

// pollBatch polls until completed plus failed equals total, as clients do.
func (w *eworld) pollBatch(key, batchID string) ereply {
	w.t.Helper()
	deadline := time.Now().Add(60 * time.Second)
	for {
		r := w.do("GET", "/v1/email/batch/"+batchID+"/results", key, "")
		if r.status != 200 {
			w.t.Fatalf("batch results = %d %s", r.status, r.raw)
		}
		total, completed, failed := r.body["total"].(float64), r.body["completed"].(float64), r.body["failed"].(float64)
		if completed+failed == total {
			return r
		}
		if time.Now().After(deadline) {
			w.t.Fatalf("batch not finished: %s", r.raw)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

func batchBody(n int) string {
	reqs := make([]map[string]string, n)
	for i := range reqs {
		reqs[i] = map[string]string{"first_name": fmt.Sprintf("P%d", i), "last_name": "Smith", "domain": "strict.example.com"}
	}
	b, _ := json.Marshal(map[string]any{"requests": reqs})
	return string(b)
}

func TestEmailValidation(t *testing.T) {
	w := newEWorld(t)
	key := w.key("Acme")
	tests := []struct {
		name, method, path, body string
		status                   int
		field                    string
	}{
		{"501 requests", "POST", "/v1/email/find/batch", batchBody(501), 422, "requests"},
		{"no requests", "POST", "/v1/email/find/batch", `{"requests":[]}`, 422, "requests"},
		{"requests missing", "POST", "/v1/email/find/batch", `{"round":"verify"}`, 422, "requests"},
		{"unknown field", "POST", "/v1/email/find/batch", `{"requests":[{"first_name":"A","last_name":"B","domain":"acme.com"}],"rounds":"x"}`, 422, "rounds"},
		{"unknown nested field", "POST", "/v1/email/find/batch", `{"requests":[{"first_name":"A","last_name":"B","domain":"acme.com","middle":"C"}]}`, 422, "middle"},
		{"bad round", "POST", "/v1/email/find/batch", `{"requests":[{"first_name":"A","last_name":"B","domain":"acme.com"}],"round":"deep"}`, 422, "round"},
		{"refs need source", "POST", "/v1/email/find/batch", `{"requests":[{"first_name":"A","last_name":"B","domain":"acme.com"}],"refs":[1]}`, 422, "refs"},
		{"fractional ref", "POST", "/v1/email/find/batch", `{"requests":[{"first_name":"A","last_name":"B","domain":"acme.com"}],"refs":[1.5],"source_query_id":"q"}`, 422, "refs[0]"},
		{"batch item field", "POST", "/v1/email/find/batch", `{"requests":[{"first_name":"A","last_name":"B","domain":"acme.com"},{"first_name":"A","domain":"acme.com"}]}`, 422, "requests[1].last_name"},
		{"single missing name", "POST", "/v1/email/find", `{"last_name":"Doe","domain":"acme.com"}`, 422, "first_name"},
		{"single bad domain", "POST", "/v1/email/find", `{"first_name":"Jane","last_name":"Doe","domain":"localhost"}`, 422, "domain"},
		{"single bad pattern", "POST", "/v1/email/find", `{"first_name":"Jane","last_name":"Doe","domain":"acme.com","known_pattern":"{nick}"}`, 422, "known_pattern"},
		{"single wrong type", "POST", "/v1/email/find", `{"first_name":1,"last_name":"Doe","domain":"acme.com"}`, 422, "first_name"},
		{"query parameter", "POST", "/v1/email/find?x=1", `{"first_name":"Jane","last_name":"Doe","domain":"acme.com"}`, 422, "x"},
		{"job id not a uuid", "GET", "/v1/email/jobs/nope", "", 404, "job_id"},
		{"unknown job", "GET", "/v1/email/jobs/3f2504e0-4f89-11d3-9a0c-0305e82c3301", "", 404, "job_id"},
		{"unknown batch", "GET", "/v1/email/batch/3f2504e0-4f89-11d3-9a0c-0305e82c3301/results", "", 404, "batch_id"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := w.do(tt.method, tt.path, key, tt.body)
			if r.status != tt.status || r.errField() != tt.field {
				t.Errorf("%s %s = %d field %q, want %d field %q: %s", tt.method, tt.path, r.status, r.errField(), tt.status, tt.field, r.raw)
			}
		})
	}
	if r := w.do("POST", "/v1/email/find", "", `{}`); r.status != 401 {
		t.Errorf("no key: %d, want 401", r.status)
	}
}

func keysOf(m map[string]any) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

func TestEmailFindEndToEnd(t *testing.T) {
	w := newEWorld(t)
	key, other := w.key("Acme"), w.key("Other")
	r := w.do("POST", "/v1/email/find", key, `{"first_name":"Jane","last_name":"Doe","domain":"https://www.Strict.example.com/"}`)
	if r.status != 200 || keysOf(r.body)[0] != "job_id" || len(r.body) != 1 {
		t.Fatalf("find = %d %s, want {job_id}", r.status, r.raw)
	}
	jobID := r.body["job_id"].(string)
	var job ereply
	for deadline := time.Now().Add(30 * time.Second); ; {
		job = w.do("GET", "/v1/email/jobs/"+jobID, key, "")
		if job.status != 200 {
			t.Fatalf("job = %d %s", job.status, job.raw)
		}
		st := job.body["status"].(string)
		if st != "queued" && st != "processing" {
			break
		}
		if job.body["result"] != nil {
			t.Fatalf("a %s job has a result: %s", st, job.raw)
		}
		if time.Now().After(deadline) {
			t.Fatalf("job not finished: %s", job.raw)
		}
		time.Sleep(20 * time.Millisecond)
	}
	if got, want := keysOf(job.body), []string{"job_id", "kind", "result", "status"}; !reflect.DeepEqual(got, want) {
		t.Errorf("job keys = %v, want %v", got, want)
	}
	if job.body["status"] != "completed" || job.body["kind"] != "find" {
		t.Fatalf("job = %s", job.raw)
	}
	res := job.body["result"].(map[string]any)
	if got, want := keysOf(res), []string{"attempts", "domain", "duration_ms", "first_name", "is_catch_all", "last_name", "provider", "result", "status"}; !reflect.DeepEqual(got, want) {
		t.Errorf("result keys = %v, want %v", got, want)
	}
	if res["status"] != "found" || res["domain"] != "strict.example.com" || res["is_catch_all"] != false || res["provider"] != nil || res["attempts"].(float64) < 1 {
		t.Errorf("result = %v", res)
	}
	found := res["result"].(map[string]any)
	want := map[string]any{"email": "jane.doe@strict.example.com", "pattern": "{first}.{last}", "tier": "common_pattern", "smtp_code": 250.0, "valid": true}
	if !reflect.DeepEqual(found, want) {
		t.Errorf("found = %v, want %v", found, want)
	}
	// The job ran on the task engine, and charged under the route that submitted it
	// (which the engine's fallback for tasks without a route would not name).
	if got, want := w.usageByEndpoint(key), []string{"POST /v1/email/find email: 1 charges, 1 net-new"}; !reflect.DeepEqual(got, want) {
		t.Errorf("usage by endpoint = %q, want %q", got, want)
	}
	// Tenant isolation: another organisation's job is a 404.
	if r := w.do("GET", "/v1/email/jobs/"+jobID, other, ""); r.status != 404 {
		t.Errorf("other organisation's job = %d, want 404", r.status)
	}

	// A catch-all domain: completed, no address; with a known pattern, catch_all_pattern.
	r = w.do("POST", "/v1/email/find/batch", key, `{"requests":[
		{"first_name":"Jane","last_name":"Doe","domain":"catchall.example.com"},
		{"first_name":"Jane","last_name":"Doe","domain":"catchall.example.com","known_pattern":"flast"}],
		"source_query_id":"q-7","refs":["row-1",2],"round":"escalate"}`)
	if r.status != 200 || r.body["total"] != 2.0 || len(r.body["job_ids"].([]any)) != 2 {
		t.Fatalf("batch = %d %s", r.status, r.raw)
	}
	batchID := r.body["batch_id"].(string)
	b := w.pollBatch(key, batchID)
	results := b.body["results"].([]any)
	for i, wantStatus := range []string{"catch_all", "catch_all_pattern"} {
		j := results[i].(map[string]any)
		res := j["result"].(map[string]any)
		if res["status"] != wantStatus || res["result"] != nil || res["is_catch_all"] != true {
			t.Errorf("job %d = %v, want %s without an address", i, res, wantStatus)
		}
	}
	if r := w.do("GET", "/v1/email/batch/"+batchID+"/results", other, ""); r.status != 404 {
		t.Errorf("other organisation's batch = %d, want 404", r.status)
	}
}

// TestEmailBatchOf500 is the acceptance check: a full batch over HTTP completes with
// every job accounted for.
func TestEmailBatchOf500(t *testing.T) {
	w := newEWorld(t)
	key := w.key("Acme")
	r := w.do("POST", "/v1/email/find/batch", key, batchBody(500))
	if r.status != 200 || r.body["total"] != 500.0 {
		t.Fatalf("batch = %d %s", r.status, r.raw)
	}
	ids := r.body["job_ids"].([]any)
	b := w.pollBatch(key, r.body["batch_id"].(string))
	if b.body["completed"] != 500.0 || b.body["failed"] != 0.0 {
		t.Fatalf("completed %v failed %v", b.body["completed"], b.body["failed"])
	}
	results := b.body["results"].([]any)
	if len(results) != 500 {
		t.Fatalf("%d results", len(results))
	}
	found := 0
	for i, x := range results {
		j := x.(map[string]any)
		if j["job_id"] != ids[i] || j["status"] != "completed" {
			t.Fatalf("result %d = %v", i, j)
		}
		switch st := j["result"].(map[string]any)["status"]; st {
		case "found":
			found++
		case "not_found":
		default:
			t.Errorf("job %d: status %v", i, st)
		}
	}
	if found != 100 {
		t.Errorf("found %d, want 100 (every fifth person has a mailbox)", found)
	}
	// The found addresses are charged in batches on the batch task's tab (at most 100
	// a ledger entry, fewer entries than addresses when they arrive together), each
	// recorded under the route of the batch.
	got := w.usageByEndpoint(key)
	var charges, netNew int
	if len(got) != 1 {
		t.Fatalf("usage by endpoint = %q, want one row for the batch route", got)
	}
	if _, err := fmt.Sscanf(got[0], "POST /v1/email/find/batch email: %d charges, %d net-new", &charges, &netNew); err != nil || netNew != 100 || charges < 1 || charges > 100 {
		t.Errorf("usage by endpoint = %q, want the batch route's email row: 100 net-new in 1 to 100 charges", got)
	}
}

// usageByEndpoint reads GET /v1/account/usage and lists its by_endpoint rows.
func (w *eworld) usageByEndpoint(key string) []string {
	w.t.Helper()
	u := w.do("GET", "/v1/account/usage", key, "")
	if u.status != 200 {
		w.t.Fatalf("usage = %d %s", u.status, u.raw)
	}
	var out []string
	eps, _ := u.body["by_endpoint"].([]any)
	for _, e := range eps {
		m := e.(map[string]any)
		out = append(out, fmt.Sprintf("%s %s: %v charges, %v net-new", m["endpoint"], m["kind"], m["charges"], m["net_new"]))
	}
	return out
}
