package httpapi_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/firmoapi/firmo/shared/account"
	"github.com/firmoapi/firmo/shared/billing"
	"github.com/firmoapi/firmo/shared/httpapi"
	"github.com/firmoapi/firmo/shared/httpapi/accounthttp"
	"github.com/firmoapi/firmo/shared/httpapi/queryhttp"
	"github.com/firmoapi/firmo/shared/kv"
	"github.com/firmoapi/firmo/shared/kv/boltkv"
	"github.com/firmoapi/firmo/shared/query"
	"github.com/firmoapi/firmo/shared/ratelimit"
	"github.com/firmoapi/firmo/shared/ratelimit/memlimit"
)

// qworld is a server with the saved-query, usage and test routes on one bolt store.
type qworld struct {
	t        *testing.T
	store    kv.Store
	accounts *account.Service
	billing  *billing.Service
	queries  *query.Service
	srv      *httptest.Server
}

func newQWorld(t *testing.T, extra ...httpapi.Route) *qworld {
	t.Helper()
	store, err := boltkv.Open(filepath.Join(t.TempDir(), "kv.db"))
	if err != nil {
		t.Fatal(err)
	}
	w := &qworld{t: t, store: store, accounts: account.New(store), billing: billing.New(store), queries: query.New(store)}
	s := httpapi.NewServer(httpapi.Deps{Log: slog.New(slog.NewTextHandler(io.Discard, nil)), Auth: w.accounts, MaxBody: 8 << 20})
	// A frozen limiter clock keeps one counting window for the whole test.
	frozen := time.Now()
	s.UseRateLimits(memlimit.New(func() time.Time { return frozen }))
	s.Add(queryhttp.QueryRoutes(w.queries)...)
	s.Add(accounthttp.UsageRoutes(w.billing, time.Now)...)
	s.Add(extra...)
	w.srv = httptest.NewServer(s.Handler())
	t.Cleanup(func() { w.srv.Close(); store.Close() })
	return w
}

// user makes an organisation (once per name) and a user with a key in it.
func (w *qworld) user(org string, plan account.Plan, role account.Role) (key string, o account.Org) {
	w.t.Helper()
	ctx := context.Background()
	o, _, err := w.accounts.EnsureOrg(ctx, org, plan)
	if err != nil {
		w.t.Fatal(err)
	}
	u, err := w.accounts.CreateUser(ctx, o.ID, fmt.Sprintf("%s-%d@%s.test", role, time.Now().UnixNano(), strings.ReplaceAll(org, " ", "")), role, "")
	if err != nil {
		w.t.Fatal(err)
	}
	key, _, err = w.accounts.CreateKey(ctx, o.ID, u.ID, "")
	if err != nil {
		w.t.Fatal(err)
	}
	return key, o
}

type qreply struct {
	status int
	header http.Header
	body   map[string]any
	raw    string
}

func (w *qworld) do(method, path, key, body string) qreply {
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
	r := qreply{status: resp.StatusCode, header: resp.Header, raw: string(raw)}
	json.Unmarshal(raw, &r.body)
	return r
}

func (r qreply) code() string {
	e, _ := r.body["error"].(map[string]any)
	c, _ := e["code"].(string)
	return c
}

func (r qreply) errField() string {
	e, _ := r.body["error"].(map[string]any)
	f, _ := e["field"].(string)
	return f
}

func (r qreply) message() string {
	e, _ := r.body["error"].(map[string]any)
	m, _ := e["message"].(string)
	return m
}

func qDomainsJSON(n int) string {
	var ds []string
	for i := 0; i < n; i++ {
		ds = append(ds, fmt.Sprintf("%q", fmt.Sprintf("co%d.com", i)))
	}
	return "[" + strings.Join(ds, ",") + "]"
}

func TestPlanGating(t *testing.T) {
	w := newQWorld(t)
	free, _ := w.user("Free Co", account.PlanFree, account.RoleAdmin)
	starter, _ := w.user("Starter Co", account.PlanStarter, account.RoleMember)
	id := "3f1e8a0c-0000-4000-8000-000000000000"
	list := `{"query_name":"x","domains":` + qDomainsJSON(20) + `}`
	for _, c := range []struct {
		method, path, body string
		key                string
		wantStatus         int
		wantCode           string
	}{
		{"GET", "/v1/queries/saved", "", free, 403, "plan_required"},
		{"POST", "/v1/queries/exclusion-list", list, free, 403, "plan_required"},
		{"PATCH", "/v1/queries/" + id, `{"query_name":"x"}`, free, 403, "plan_required"},
		{"DELETE", "/v1/queries/" + id, "", free, 404, "not_found"}, // open to every plan
		{"GET", "/v1/queries/saved", "", starter, 200, ""},
		{"POST", "/v1/queries/exclusion-list", list, starter, 201, ""},
		{"PATCH", "/v1/queries/" + id, `{"query_name":"x"}`, starter, 404, "not_found"},
		{"GET", "/v1/account/usage", "", free, 200, ""},
	} {
		t.Run(c.method+" "+c.path, func(t *testing.T) {
			got := w.do(c.method, c.path, c.key, c.body)
			if got.status != c.wantStatus || got.code() != c.wantCode {
				t.Fatalf("got %d %s, want %d %s: %s", got.status, got.code(), c.wantStatus, c.wantCode, got.raw)
			}
			if c.wantCode == "plan_required" && !strings.Contains(got.message(), "STARTER") {
				t.Fatalf("plan_required message does not name the plan: %q", got.message())
			}
		})
	}
}

func TestExclusionListEndpoint(t *testing.T) {
	w := newQWorld(t)
	key, _ := w.user("Acme", account.PlanPro, account.RoleMember)
	many := make([]string, query.MaxEntries+2)
	for i := range many {
		many[i] = strconv.Itoa(i + 1)
	}
	for _, c := range []struct {
		name       string
		body       string
		wantStatus int
		wantField  string
		check      func(t *testing.T, r qreply)
	}{
		{"domains", `{"query_name":"No customers","domains":` + qDomainsJSON(20) + `}`, 201, "", func(t *testing.T, r qreply) {
			if r.body["query_name"] != "No customers" || r.body["domain_count"] != 20.0 || r.body["truncated"] != false || r.body["query_id"] == "" {
				t.Fatalf("answer = %s", r.raw)
			}
		}},
		{"persona only", `{"query_name":"people","persona_ids":[5,6,6]}`, 201, "", func(t *testing.T, r qreply) {
			if r.body["domain_count"] != 0.0 || r.body["persona_count"] != 2.0 {
				t.Fatalf("answer = %s", r.raw)
			}
		}},
		{"truncated", `{"query_name":"big","persona_ids":[` + strings.Join(many, ",") + `]}`, 201, "", func(t *testing.T, r qreply) {
			if r.body["truncated"] != true || r.body["persona_count"] != float64(query.MaxEntries) || !strings.Contains(fmt.Sprint(r.body["message"]), "truncated") {
				t.Fatalf("answer = %.300s", r.raw)
			}
		}},
		{"nineteen domains", `{"query_name":"x","domains":` + qDomainsJSON(19) + `}`, 400, "domains", nil},
		{"no lists", `{"query_name":"x"}`, 400, "domains", nil},
		{"missing name", `{"domains":` + qDomainsJSON(20) + `}`, 422, "query_name", nil},
		{"long name", `{"query_name":"` + strings.Repeat("n", 256) + `","persona_ids":[1]}`, 422, "query_name", nil},
		{"bad domain", `{"query_name":"x","domains":["a.com","not a domain"]}`, 422, "domains[1]", nil},
		{"bad persona", `{"query_name":"x","persona_ids":[0]}`, 422, "persona_ids[0]", nil},
		{"persona not an integer", `{"query_name":"x","persona_ids":["7"]}`, 422, "persona_ids[0]", nil},
		{"unknown field", `{"query_name":"x","persona_ids":[1],"kind":"y"}`, 422, "kind", nil},
	} {
		t.Run(c.name, func(t *testing.T) {
			got := w.do("POST", "/v1/queries/exclusion-list", key, c.body)
			if got.status != c.wantStatus || (c.wantField != "" && got.errField() != c.wantField) {
				t.Fatalf("got %d field %q, want %d field %q: %.300s", got.status, got.errField(), c.wantStatus, c.wantField, got.raw)
			}
			if c.check != nil {
				c.check(t, got)
			}
		})
	}
}

func TestSavedListPatchDelete(t *testing.T) {
	w := newQWorld(t)
	alice, org := w.user("Acme", account.PlanStarter, account.RoleMember)
	bob, _ := w.user("Acme", account.PlanStarter, account.RoleMember)
	boss, _ := w.user("Acme", account.PlanStarter, account.RoleAdmin)
	other, _ := w.user("Globex", account.PlanEnterprise, account.RoleAdmin)
	var ids []string
	for i := 0; i < 3; i++ {
		r := w.do("POST", "/v1/queries/exclusion-list", alice, fmt.Sprintf(`{"query_name":"list %d","domains":%s}`, i, qDomainsJSON(20+i)))
		if r.status != 201 {
			t.Fatal(r.raw)
		}
		ids = append(ids, r.body["query_id"].(string))
	}
	w.do("POST", "/v1/queries/exclusion-list", alice, `{"query_name":"people only","persona_ids":[1]}`)
	if _, err := w.queries.SaveSearch(context.Background(), org.ID, query.Actor{UserID: "u", UserName: "u@acme.test"}, query.ActionDiscover, map[string]any{"icp_text": "cto"}, []string{"acme.com"}); err != nil {
		t.Fatal(err)
	}

	t.Run("list", func(t *testing.T) {
		r := w.do("GET", "/v1/queries/saved?max_records=2", alice, "")
		res, _ := r.body["results"].([]any)
		if r.status != 200 || r.body["count"] != 4.0 || len(res) != 2 {
			t.Fatalf("list = %s", r.raw)
		}
		first := res[0].(map[string]any)
		for _, f := range []string{"query_id", "query_name", "action", "user_name", "mtime", "domains", "domain_count", "query_params", "tags"} {
			if _, ok := first[f]; !ok {
				t.Errorf("saved query lacks %s: %v", f, first)
			}
		}
		if first["action"] != "discover" || first["query_params"].(map[string]any)["icp_text"] != "cto" {
			t.Errorf("newest query = %v, want the saved contact search with its parameters", first)
		}
		r = w.do("GET", "/v1/queries/saved?max_records=2&offset=2", alice, "")
		res, _ = r.body["results"].([]any)
		if len(res) != 2 || res[1].(map[string]any)["query_id"] != ids[0] {
			t.Fatalf("page 2 = %s", r.raw)
		}
		if r := w.do("GET", "/v1/queries/saved", other, ""); r.body["count"] != 0.0 {
			t.Fatalf("another organisation sees %s", r.raw)
		}
	})
	t.Run("list parameters", func(t *testing.T) {
		for q, field := range map[string]string{"max_records=0": "max_records", "max_records=1001": "max_records", "offset=-1": "offset", "offset=x": "offset", "limit=5": "limit"} {
			if r := w.do("GET", "/v1/queries/saved?"+q, alice, ""); r.status != 422 || r.errField() != field {
				t.Errorf("?%s = %d %q, want 422 on %s", q, r.status, r.errField(), field)
			}
		}
		if r := w.do("GET", "/v1/queries/saved?max_records=1000&offset=0", alice, ""); r.status != 200 {
			t.Errorf("bounds = %d", r.status)
		}
	})
	t.Run("patch", func(t *testing.T) {
		r := w.do("PATCH", "/v1/queries/"+ids[0], alice, `{"query_name":"renamed","tags":["a","b"]}`)
		if r.status != 200 || r.body["query_name"] != "renamed" || fmt.Sprint(r.body["tags"]) != "[a b]" || r.body["query_id"] != ids[0] {
			t.Fatalf("patch = %s", r.raw)
		}
		r = w.do("PATCH", "/v1/queries/"+ids[0], alice, `{"tags":["c"]}`)
		if fmt.Sprint(r.body["tags"]) != "[c]" || r.body["query_name"] != "renamed" {
			t.Fatalf("tags replace: %s", r.raw)
		}
		for _, c := range []struct {
			key, body   string
			status      int
			code, field string
		}{
			{alice, `{}`, 422, "validation_error", "body"},
			{alice, `{"tags":"x"}`, 422, "validation_error", "tags"},
			{alice, `{"query_name":""}`, 422, "validation_error", "query_name"},
			{bob, `{"query_name":"mine"}`, 403, "forbidden", ""},
			{other, `{"query_name":"theirs"}`, 404, "not_found", ""},
		} {
			if r := w.do("PATCH", "/v1/queries/"+ids[0], c.key, c.body); r.status != c.status || r.code() != c.code || r.errField() != c.field {
				t.Errorf("PATCH %s = %d %s %q, want %d %s %q", c.body, r.status, r.code(), r.errField(), c.status, c.code, c.field)
			}
		}
		if r := w.do("PATCH", "/v1/queries/"+ids[0], boss, `{"query_name":"by the admin"}`); r.status != 200 {
			t.Fatalf("admin patch = %s", r.raw)
		}
	})
	t.Run("delete", func(t *testing.T) {
		if r := w.do("DELETE", "/v1/queries/"+ids[1], other, ""); r.status != 404 {
			t.Fatalf("another organisation's delete = %s", r.raw)
		}
		if r := w.do("DELETE", "/v1/queries/"+ids[1], bob, ""); r.status != 403 {
			t.Fatalf("another member's delete = %s", r.raw)
		}
		if r := w.do("DELETE", "/v1/queries/"+ids[1], alice, ""); r.status != 200 || r.body["message"] == nil {
			t.Fatalf("delete = %s", r.raw)
		}
		if r := w.do("DELETE", "/v1/queries/"+ids[1], alice, ""); r.status != 404 {
			t.Fatalf("second delete = %s", r.raw)
		}
		if r := w.do("GET", "/v1/queries/saved", alice, ""); r.body["count"] != 3.0 {
			t.Fatalf("after delete: %s", r.raw)
		}
	})
}

func TestRateLimits(t *testing.T) {
	ok := func(w http.ResponseWriter, r *http.Request) error {
		httpapi.WriteJSON(w, 200, map[string]string{"ok": "yes"})
		return nil
	}
	w := newQWorld(t,
		httpapi.Route{Method: "GET", Path: "/v1/test/limited", Family: "test", Handle: ok, RateLimit: 2},
		httpapi.Route{Method: "GET", Path: "/v1/crm/connections", Family: "test", Handle: ok, RateLimit: 1000},
		httpapi.Route{Method: "GET", Path: "/v1/test/public", Family: "test", Auth: httpapi.AuthNone, Handle: ok},
	)
	free, _ := w.user("Free Co", account.PlanFree, account.RoleMember)
	free2, _ := w.user("Free Co", account.PlanFree, account.RoleMember) // same organisation
	starter, _ := w.user("Starter Co", account.PlanStarter, account.RoleMember)
	enterprise, _ := w.user("Big Co", account.PlanEnterprise, account.RoleMember)

	for i, want := range []struct {
		key       string
		status    int
		limit     string
		remaining string
	}{
		{free, 200, "2", "1"},
		{free2, 200, "2", "0"}, // the organisation's budget, shared by its users
		{free, 429, "2", "0"},
		{starter, 200, "4", "3"}, // STARTER 2x
		{enterprise, 200, "40", "39"},
	} {
		r := w.do("GET", "/v1/test/limited", want.key, "")
		if r.status != want.status || r.header.Get("X-RateLimit-Limit") != want.limit || r.header.Get("X-RateLimit-Remaining") != want.remaining {
			t.Fatalf("request %d: %d limit %s remaining %s, want %d %s %s", i, r.status, r.header.Get("X-RateLimit-Limit"), r.header.Get("X-RateLimit-Remaining"), want.status, want.limit, want.remaining)
		}
		reset, err := strconv.ParseInt(r.header.Get("X-RateLimit-Reset"), 10, 64)
		if err != nil || reset%60 != 0 || reset <= time.Now().Unix()-1 || reset > time.Now().Unix()+61 {
			t.Fatalf("request %d: X-RateLimit-Reset = %q, want the next whole minute", i, r.header.Get("X-RateLimit-Reset"))
		}
		if want.status == 429 {
			ra, err := strconv.Atoi(r.header.Get("Retry-After"))
			if r.code() != "rate_limited" || err != nil || ra < 1 || ra > 60 || !strings.Contains(r.message(), "2 requests per minute") {
				t.Fatalf("429 = %v %s", r.header, r.raw)
			}
		}
	}
	// The API reference's CRM figure wins over the route's own: GET connections is 20 a minute on FREE.
	if r := w.do("GET", "/v1/crm/connections", free, ""); r.header.Get("X-RateLimit-Limit") != "20" {
		t.Fatalf("CRM connections limit = %s, want 20", r.header.Get("X-RateLimit-Limit"))
	}
	// Other endpoints of the same organisation have their own budget.
	if r := w.do("GET", "/v1/queries/saved", starter, ""); r.status != 200 || r.header.Get("X-RateLimit-Limit") != "240" {
		t.Fatalf("default limit = %s (status %d), want 240 for STARTER", r.header.Get("X-RateLimit-Limit"), r.status)
	}
	if r := w.do("GET", "/v1/test/public", "", ""); r.status != 200 || r.header.Get("X-RateLimit-Limit") != "" {
		t.Fatalf("unauthenticated route got rate-limit headers: %v", r.header)
	}
}

func TestCreditsChargedAndUsage(t *testing.T) {
	var w *qworld
	charge := func(rw http.ResponseWriter, r *http.Request) error {
		p := httpapi.Caller(r)
		recs := r.URL.Query()["r"]
		c, err := w.billing.Charge(r.Context(), p.Org, billing.KindContact, recs, httpapi.RequestID(r.Context()))
		if err != nil {
			return err
		}
		httpapi.SetCreditsCharged(rw, c.Credits)
		httpapi.WriteJSON(rw, 200, c)
		return nil
	}
	w = newQWorld(t, httpapi.Route{Method: "GET", Path: "/v1/test/charge", Family: "test", Handle: charge})
	key, org := w.user("Acme", account.PlanFree, account.RoleMember) // 1,000 credits

	if r := w.do("GET", "/v1/test/charge?r=1&r=2&r=3", key, ""); r.status != 200 || r.header.Get("X-Credits-Charged") != "3" {
		t.Fatalf("charge = %d %q %s", r.status, r.header.Get("X-Credits-Charged"), r.raw)
	}
	if r := w.do("GET", "/v1/test/charge?r=2&r=3&r=4", key, ""); r.header.Get("X-Credits-Charged") != "1" {
		t.Fatalf("second charge = %q, want 1 (only record 4 is new)", r.header.Get("X-Credits-Charged"))
	}
	if r := w.do("GET", "/v1/queries/saved", key, ""); r.header.Get("X-Credits-Charged") != "0" {
		t.Fatalf("uncharged response: X-Credits-Charged = %q, want 0", r.header.Get("X-Credits-Charged"))
	}
	var many []string
	for i := 100; i < 1200; i++ {
		many = append(many, "r="+strconv.Itoa(i))
	}
	r := w.do("GET", "/v1/test/charge?"+strings.Join(many, "&"), key, "")
	if r.status != 402 || r.code() != "insufficient_credits" || !strings.Contains(r.message(), "996 credits left") {
		t.Fatalf("over balance = %d %s", r.status, r.raw)
	}

	today := time.Now().UTC().Format("2006-01-02")
	u := w.do("GET", "/v1/account/usage", key, "")
	total, _ := u.body["total"].(map[string]any)
	days, _ := u.body["by_day"].([]any)
	eps, _ := u.body["by_endpoint"].([]any)
	if u.status != 200 || total["credits"] != 4.0 || total["charges"] != 2.0 || len(days) != 30 || u.body["to"] != today || u.body["credit_balance"] != 996.0 {
		t.Fatalf("usage = %s", u.raw)
	}
	if last := days[29].(map[string]any); last["date"] != today || last["credits"] != 4.0 || last["records"] != 6.0 || last["net_new"] != 4.0 {
		t.Fatalf("today = %v", last)
	}
	if len(eps) != 1 || eps[0].(map[string]any)["endpoint"] != "GET /v1/test/charge" || eps[0].(map[string]any)["kind"] != "contact" {
		t.Fatalf("by endpoint = %v", eps)
	}
	_ = org
	for q, field := range map[string]string{
		"from=2030-13-01":               "from",
		"to=yesterday":                  "to",
		"from=2030-02-01&to=2030-01-01": "to",
		"from=2020-01-01&to=2030-01-01": "from",
		"since=2030-01-01":              "since",
	} {
		if r := w.do("GET", "/v1/account/usage?"+q, key, ""); r.status != 422 || r.errField() != field {
			t.Errorf("?%s = %d %q, want 422 on %s", q, r.status, r.errField(), field)
		}
	}
	if r := w.do("GET", "/v1/account/usage?from=2030-01-01&to=2030-01-03", key, ""); r.status != 200 || len(r.body["by_day"].([]any)) != 3 {
		t.Errorf("explicit range = %s", r.raw)
	}
}

// downLimiter is a counter store that is down.
type downLimiter struct{}

func (downLimiter) Allow(ctx context.Context, key string, limit int) (ratelimit.Decision, error) {
	return ratelimit.Decision{}, errors.New("counter store unreachable")
}

// TestRateLimiterDownLetsRequestsThrough: limits protect the service and must not become
// an outage of their own.
func TestRateLimiterDownLetsRequestsThrough(t *testing.T) {
	store, err := boltkv.Open(filepath.Join(t.TempDir(), "kv.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer store.Close()
	accounts := account.New(store)
	s := httpapi.NewServer(httpapi.Deps{Log: slog.New(slog.NewTextHandler(io.Discard, nil)), Auth: accounts, MaxBody: 1 << 20})
	s.UseRateLimits(downLimiter{})
	s.Add(queryhttp.QueryRoutes(query.New(store))...)
	ctx := context.Background()
	org, _, _ := accounts.EnsureOrg(ctx, "Acme", account.PlanStarter)
	u, _ := accounts.CreateUser(ctx, org.ID, "a@acme.test", account.RoleAdmin, "")
	key, _, _ := accounts.CreateKey(ctx, org.ID, u.ID, "")
	req := httptest.NewRequest("GET", "/v1/queries/saved", nil)
	req.Header.Set("x-service-key", key)
	rec := httptest.NewRecorder()
	s.Handler().ServeHTTP(rec, req)
	if rec.Code != 200 || rec.Header().Get("X-RateLimit-Limit") != "" {
		t.Fatalf("with the limiter down: %d, headers %v", rec.Code, rec.Header())
	}
}
