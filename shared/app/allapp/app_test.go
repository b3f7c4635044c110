package allapp_test

import (
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/firmoapi/firmo/shared/account"
	"github.com/firmoapi/firmo/shared/app/allapp"
	"github.com/firmoapi/firmo/shared/config"
	"github.com/firmoapi/firmo/shared/httpapi"
	"github.com/firmoapi/firmo/shared/openapi"
)

type env struct {
	app     *allapp.App
	srv     *httptest.Server
	demoKey string
}

func newEnv(t *testing.T, vars map[string]string) *env {
	t.Helper()
	dir := t.TempDir()
	m := map[string]string{"FIRMO_DATA_DIR": dir}
	for k, v := range vars {
		m[k] = v
	}
	cfg, err := config.Load(func(k string) string { return m[k] })
	if err != nil {
		t.Fatal(err)
	}
	a, err := allapp.NewLocal(context.Background(), cfg, slog.New(slog.NewTextHandler(io.Discard, nil)))
	if err != nil {
		t.Fatal(err)
	}
	d, err := a.EnsureDemo(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(a.Handler())
	t.Cleanup(func() { srv.Close(); a.Close() })
	return &env{app: a, srv: srv, demoKey: d.Key}
}

type answer struct {
	status int
	header http.Header
	body   map[string]any
	raw    string
}

func (e *env) do(t *testing.T, method, path string, headers map[string]string, body string) answer {
	t.Helper()
	var rd io.Reader
	if body != "" {
		rd = strings.NewReader(body)
	}
	req, _ := http.NewRequest(method, e.srv.URL+path, rd)
	for k, v := range headers {
		req.Header.Set(k, v)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	raw, _ := io.ReadAll(resp.Body)
	a := answer{status: resp.StatusCode, header: resp.Header, raw: string(raw)}
	json.Unmarshal(raw, &a.body)
	return a
}

func key(k string) map[string]string { return map[string]string{"x-service-key": k} }

// checkError asserts the one JSON error shape.
func checkError(t *testing.T, a answer, status int, code string) {
	t.Helper()
	if a.status != status {
		t.Fatalf("status = %d, want %d; body %s", a.status, status, a.raw)
	}
	e, ok := a.body["error"].(map[string]any)
	if !ok {
		t.Fatalf("no error object: %s", a.raw)
	}
	if e["code"] != code || e["message"] == "" || e["request_id"] != a.header.Get("x-request-id") || a.header.Get("x-request-id") == "" {
		t.Fatalf("error = %v, want code %s with message and request id %s", e, code, a.header.Get("x-request-id"))
	}
	if ct := a.header.Get("Content-Type"); ct != "application/json" {
		t.Fatalf("Content-Type = %q", ct)
	}
}

func TestAuthentication(t *testing.T) {
	e := newEnv(t, nil)
	ok := e.do(t, "GET", "/v1/account", key(e.demoKey), "")
	if ok.status != 200 || ok.body["plan"] != "ENTERPRISE" || ok.body["role"] != "admin" || ok.body["credit_balance"].(float64) <= 0 {
		t.Fatalf("account = %d %s", ok.status, ok.raw)
	}
	bearer := e.do(t, "GET", "/v1/account", map[string]string{"Authorization": "Bearer " + e.demoKey}, "")
	if bearer.status != 200 || bearer.body["org_id"] != ok.body["org_id"] {
		t.Fatalf("bearer = %d %s", bearer.status, bearer.raw)
	}
	checkError(t, e.do(t, "GET", "/v1/account", nil, ""), 401, "unauthorized")
	checkError(t, e.do(t, "GET", "/v1/account", key("fk_nope"), ""), 401, "unauthorized")
	checkError(t, e.do(t, "GET", "/v1/account", map[string]string{"Authorization": "Basic abc"}, ""), 401, "unauthorized")
	if h := e.do(t, "GET", "/healthz", nil, ""); h.status != 200 || h.body["status"] != "ok" {
		t.Fatalf("healthz = %d %s", h.status, h.raw)
	}
}

func TestKeysEndpoints(t *testing.T) {
	e := newEnv(t, nil)
	created := e.do(t, "POST", "/v1/account/keys", key(e.demoKey), `{"name":"ci"}`)
	if created.status != 201 || created.body["name"] != "ci" {
		t.Fatalf("create = %d %s", created.status, created.raw)
	}
	secret := created.body["key"].(string)
	keyID := created.body["key_id"].(string)
	if !strings.HasPrefix(secret, keyID+"_") {
		t.Fatalf("key %q does not start with its id %q", secret, keyID)
	}
	if got := e.do(t, "GET", "/v1/account", key(secret), ""); got.status != 200 {
		t.Fatalf("new key: %d", got.status)
	}
	list := e.do(t, "GET", "/v1/account/keys", key(e.demoKey), "")
	if list.status != 200 || strings.Contains(list.raw, secret) || strings.Contains(list.raw, e.demoKey) {
		t.Fatalf("list = %d %s (must never show a secret)", list.status, list.raw)
	}
	if n := len(list.body["keys"].([]any)); n != 2 {
		t.Fatalf("keys = %d, want 2", n)
	}
	rev := e.do(t, "DELETE", "/v1/account/keys/"+keyID, key(e.demoKey), "")
	if rev.status != 200 {
		t.Fatalf("revoke = %d %s", rev.status, rev.raw)
	}
	checkError(t, e.do(t, "GET", "/v1/account", key(secret), ""), 401, "unauthorized")
	checkError(t, e.do(t, "DELETE", "/v1/account/keys/fk_doesnotexist", key(e.demoKey), ""), 404, "not_found")
	a := e.do(t, "POST", "/v1/account/keys", key(e.demoKey), `{"label":"x"}`)
	checkError(t, a, 422, "validation_error")
	if a.body["error"].(map[string]any)["field"] != "label" {
		t.Fatalf("unknown field not named: %s", a.raw)
	}
}

func TestMemberAndOtherOrganisation(t *testing.T) {
	e := newEnv(t, nil)
	ctx := context.Background()
	org, _, _ := e.app.Accounts.EnsureOrg(ctx, "Initech", account.PlanFree)
	member, _ := e.app.Accounts.CreateUser(ctx, org.ID, "peter@initech.test", account.RoleMember, "")
	memberKey, _, _ := e.app.Accounts.CreateKey(ctx, org.ID, member.ID, "")
	checkError(t, e.do(t, "POST", "/v1/account/keys", key(memberKey), `{}`), 403, "forbidden")
	checkError(t, e.do(t, "GET", "/v1/account/keys", key(memberKey), ""), 403, "forbidden")
	if got := e.do(t, "GET", "/v1/account", key(memberKey), ""); got.status != 200 || got.body["role"] != "member" || got.body["plan"] != "FREE" {
		t.Fatalf("member account = %s", got.raw)
	}
	// An admin of another organisation cannot revoke the demo key: 404, not 403.
	admin, _ := e.app.Accounts.CreateUser(ctx, org.ID, "bill@initech.test", account.RoleAdmin, "")
	adminKey, _, _ := e.app.Accounts.CreateKey(ctx, org.ID, admin.ID, "")
	checkError(t, e.do(t, "DELETE", "/v1/account/keys/"+account.KeyID(e.demoKey), key(adminKey), ""), 404, "not_found")
	if got := e.do(t, "GET", "/v1/account", key(e.demoKey), ""); got.status != 200 {
		t.Fatal("demo key was revoked by another organisation")
	}
}

func TestErrorPaths(t *testing.T) {
	e := newEnv(t, map[string]string{"FIRMO_MAX_BODY_BYTES": "2048"})
	checkError(t, e.do(t, "GET", "/v1/nothing-here", key(e.demoKey), ""), 404, "not_found")
	checkError(t, e.do(t, "GET", "/nothing-here", nil, ""), 404, "not_found")
	m := e.do(t, "PATCH", "/v1/account", key(e.demoKey), "")
	checkError(t, m, 405, "method_not_allowed")
	if !strings.Contains(m.header.Get("Allow"), "GET") {
		t.Fatalf("Allow = %q", m.header.Get("Allow"))
	}
	checkError(t, e.do(t, "POST", "/v1/account/keys", key(e.demoKey), `{"name":"`+strings.Repeat("x", 4000)+`"}`), 413, "payload_too_large")
	checkError(t, e.do(t, "GET", "/v1/account?verbose=1", key(e.demoKey), ""), 422, "validation_error")
	checkError(t, e.do(t, "POST", "/v1/auth/login", nil, `{"email":"x@y.z"}`), 422, "validation_error")
	rid := e.do(t, "GET", "/healthz", map[string]string{"x-request-id": "trace-123"}, "")
	if rid.header.Get("x-request-id") != "trace-123" {
		t.Fatalf("request id not echoed: %q", rid.header.Get("x-request-id"))
	}
}

func TestPanicIsJSON500WithoutDetail(t *testing.T) {
	srv := httpapi.NewServer(httpapi.Deps{Log: slog.New(slog.NewTextHandler(io.Discard, nil)), MaxBody: 1 << 20})
	srv.Add(httpapi.Route{Method: "GET", Path: "/boom", Family: "x", Auth: httpapi.AuthNone, Handle: func(w http.ResponseWriter, r *http.Request) error {
		panic("secret internal detail")
	}})
	rec := httptest.NewRecorder()
	srv.Handler().ServeHTTP(rec, httptest.NewRequest("GET", "/boom", nil))
	if rec.Code != 500 || strings.Contains(rec.Body.String(), "secret") || !strings.Contains(rec.Body.String(), `"internal_error"`) {
		t.Fatalf("panic answer = %d %s", rec.Code, rec.Body.String())
	}
}

func TestAdminSession(t *testing.T) {
	e := newEnv(t, nil)
	pw, err := os.ReadFile(filepath.Join(e.app.Config.DataDir, allapp.DemoPasswordFile))
	if err != nil {
		t.Fatal(err)
	}
	body, _ := json.Marshal(map[string]string{"email": account.DemoAdminEmail, "password": strings.TrimSpace(string(pw))})
	login := e.do(t, "POST", "/v1/auth/login", nil, string(body))
	if login.status != 200 {
		t.Fatalf("login = %d %s", login.status, login.raw)
	}
	cookie := login.header.Get("Set-Cookie")
	for _, want := range []string{"firmo_session=", "HttpOnly", "Secure", "SameSite=Strict"} {
		if !strings.Contains(cookie, want) {
			t.Errorf("cookie %q lacks %s", cookie, want)
		}
	}
	token := strings.TrimPrefix(strings.SplitN(cookie, ";", 2)[0], "firmo_session=")
	c := map[string]string{"Cookie": "firmo_session=" + token}
	if got := e.do(t, "GET", "/v1/account", c, ""); got.status != 200 || got.body["auth_method"] != "session" {
		t.Fatalf("session account = %s", got.raw)
	}
	e.do(t, "POST", "/v1/auth/logout", c, "")
	checkError(t, e.do(t, "GET", "/v1/account", c, ""), 401, "unauthorized")
	checkError(t, e.do(t, "POST", "/v1/auth/login", nil, `{"email":"admin@demo.firmo.local","password":"wrong-password"}`), 401, "unauthorized")
}

func TestFixedDemoKeyAndKeyFile(t *testing.T) {
	fixed := "fixed-demo-key-for-tests-0001"
	e := newEnv(t, map[string]string{"FIRMO_DEMO_API_KEY": fixed})
	if e.demoKey != fixed {
		t.Fatalf("demo key = %q", e.demoKey)
	}
	path := filepath.Join(e.app.Config.DataDir, allapp.DemoKeyFile)
	st, err := os.Stat(path)
	if err != nil || st.Mode().Perm() != 0o600 {
		t.Fatalf("key file: %v %v", st, err)
	}
	b, _ := os.ReadFile(path)
	if strings.TrimSpace(string(b)) != fixed {
		t.Fatalf("key file holds %q", b)
	}
}

// TestOpenAPIMatchesRoutes keeps the reference and the router the same set.
func TestOpenAPIMatchesRoutes(t *testing.T) {
	e := newEnv(t, nil)
	ops, err := openapi.Operations()
	if err != nil {
		t.Fatal(err)
	}
	var doc, routes []string
	public := map[string]bool{}
	for _, op := range ops {
		doc = append(doc, op.Method+" "+op.Path)
		public[op.Method+" "+op.Path] = op.Public
	}
	for _, r := range e.app.Server.Routes() {
		routes = append(routes, r.Pattern())
		if public[r.Pattern()] != (r.Auth == httpapi.AuthNone) {
			t.Errorf("%s: document says public=%v, router says auth=%v", r.Pattern(), public[r.Pattern()], r.Auth)
		}
	}
	sort.Strings(doc)
	sort.Strings(routes)
	if strings.Join(doc, "\n") != strings.Join(routes, "\n") {
		t.Fatalf("openapi paths and routes differ\ndocument:\n%s\n\nrouter:\n%s", strings.Join(doc, "\n"), strings.Join(routes, "\n"))
	}
	got := e.do(t, "GET", "/v1/openapi.json", nil, "")
	if got.status != 200 || got.body["openapi"] != "3.1.0" {
		t.Fatalf("openapi.json = %d", got.status)
	}
	// /docs is Redoc over the document when make docs-assets built it in (its browser
	// test is in shared/openapi), else the plain reference, with no script.
	page := e.do(t, "GET", "/docs", nil, "")
	redoc := strings.Contains(page.raw, `Redoc.init("v1/openapi.json"`)
	if page.status != 200 || !redoc && (!strings.Contains(page.raw, "/v1/account/keys/{key_id}") || strings.Contains(page.raw, "<script")) {
		t.Fatalf("/docs = %d (redoc %v)", page.status, redoc)
	}
}
