package allapp_test

import (
	"bytes"
	"context"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/firmoapi/firmo/shared/account"
	"github.com/firmoapi/firmo/shared/account/accounttest"
	"github.com/firmoapi/firmo/shared/app/allapp"
	"github.com/firmoapi/firmo/shared/config"
)

// syncBuffer collects log lines from concurrent handlers.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}
func (s *syncBuffer) String() string { s.mu.Lock(); defer s.mu.Unlock(); return s.b.String() }

// TestIntegrationsOverHTTP drives the integrations family end to end: a custom
// integration on a local OpenAI-compatible server, the key rules, roles, tenant
// isolation, models, search providers, and no key in any response, log line or the
// raw store.
func TestIntegrationsOverHTTP(t *testing.T) {
	const secretKey = "sk-proj-TOPSECRET-abcdef123456"
	vendor := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		if r.Header.Get("Authorization") != "Bearer "+secretKey {
			w.WriteHeader(401)
			io.WriteString(w, `{"error":{"message":"Incorrect API key provided: sk-proj-****3456","type":"invalid_request_error","code":"invalid_api_key"}}`)
			return
		}
		if r.URL.Path == "/v1/models" {
			io.WriteString(w, `{"object":"list","data":[{"id":"llama-3-70b","object":"model","created":1,"owned_by":"me"}]}`)
			return
		}
		io.WriteString(w, `{"id":"c","object":"chat.completion","created":1,"model":"llama-3-70b","choices":[{"index":0,"message":{"role":"assistant","content":"OK"},"finish_reason":"stop"}],"usage":{"prompt_tokens":5,"completion_tokens":1,"total_tokens":6}}`)
	}))
	defer vendor.Close()

	dir := t.TempDir()
	logs := &syncBuffer{}
	m := map[string]string{"FIRMO_DATA_DIR": dir, "FIRMO_FETCH_ALLOW_HOSTS": "127.0.0.1", "FIRMO_SEED_COMPANIES": "0", "FIRMO_LOG_LEVEL": "debug"}
	cfg, err := config.Load(func(k string) string { return m[k] })
	if err != nil {
		t.Fatal(err)
	}
	a, err := allapp.NewLocal(context.Background(), cfg, slog.New(slog.NewTextHandler(logs, &slog.HandlerOptions{Level: slog.LevelDebug})))
	if err != nil {
		t.Fatal(err)
	}
	d, err := a.EnsureDemo(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(a.Handler())
	e := &env{app: a, srv: srv, demoKey: d.Key}
	var bodies []string
	do := func(method, path string, k, body string) answer {
		got := e.do(t, method, path, key(k), body)
		bodies = append(bodies, got.raw)
		return got
	}
	base := vendor.URL + "/v1"
	admin := e.demoKey

	got := do("POST", "/v1/llm-providers/test-connection", admin, `{"provider":"custom","api_key":"`+secretKey+`","model_name":"llama-3-70b","base_url":"`+base+`"}`)
	if got.status != 200 || got.body["status"] != "success" {
		t.Fatalf("test-connection: %s", got.raw)
	}
	got = do("POST", "/v1/llm-providers/test-connection", admin, `{"provider":"custom","api_key":"sk-wrong-99999","model_name":"llama-3-70b","base_url":"`+base+`"}`)
	checkError(t, got, 400, "connection_failed")
	checkError(t, do("POST", "/v1/llm-providers/test-connection", admin, `{"provider":"custom","model_name":"m","base_url":"`+base+`"}`), 422, "validation_error")

	got = do("POST", "/v1/llm-providers/config", admin, `{"integration_name":"Local Llama","provider":"custom","api_key":"`+secretKey+`","model_name":"llama-3-70b","base_url":"`+base+`"}`)
	id, _ := got.body["integration_id"].(string)
	if got.status != 201 || id == "" || got.body["message"] == "" {
		t.Fatalf("create: %s", got.raw)
	}
	checkError(t, do("POST", "/v1/llm-providers/config", admin, `{"integration_name":"x","provider":"custom","api_key":"k","model_name":"m","base_url":"http://10.1.2.3/v1"}`), 422, "validation_error")
	checkError(t, do("POST", "/v1/llm-providers/config", admin, `{"integration_name":"x","provider":"custom","api_key":"k","model_name":"m","base_url":"`+base+`","extra":1}`), 422, "validation_error")

	got = do("GET", "/v1/llm-providers/config", admin, "")
	providers, _ := got.body["providers"].([]any)
	if got.status != 200 || len(providers) != 1 || got.body["mtime"] == "" {
		t.Fatalf("list: %s", got.raw)
	}
	p := providers[0].(map[string]any)
	if p["api_key"] != "*****" || p["is_default"] != true || p["model_deprecated"] != false || p["base_url"] != base || p["provider"] != "custom" {
		t.Fatalf("listed integration: %v", p)
	}
	got = do("GET", "/v1/llm-providers/config/"+id, admin, "")
	if got.status != 200 || got.body["api_key"] != "*****" || got.body["integration_name"] != "Local Llama" {
		t.Fatalf("read one: %s", got.raw)
	}
	got = do("PUT", "/v1/llm-providers/config/"+id, admin, `{"model_name":"llama-3-8b"}`)
	checkError(t, got, 422, "validation_error")
	if f := got.body["error"].(map[string]any)["field"]; f != "api_key" {
		t.Fatalf("field = %v", f)
	}
	if got = do("PUT", "/v1/llm-providers/config/"+id, admin, `{"integration_name":"Renamed"}`); got.status != 200 {
		t.Fatalf("rename: %s", got.raw)
	}

	models := do("GET", "/v1/gen/models", admin, "")
	mm, _ := models.body["models"].(map[string]any)
	custom, _ := mm["custom"].([]any)
	if models.status != 200 || len(custom) != 1 || custom[0].(map[string]any)["name"] != "llama-3-70b" || len(mm["openai"].([]any)) == 0 || len(mm["anthropic"].([]any)) == 0 {
		t.Fatalf("models: %s", models.raw)
	}

	// Roles and tenants.
	ctx := context.Background()
	otherKey := accounttest.OrgKey(t, a.Accounts, "Initech", account.PlanFree, "bill@initech.test", account.RoleAdmin)
	checkError(t, do("GET", "/v1/llm-providers/config/"+id, otherKey, ""), 404, "not_found")
	checkError(t, do("DELETE", "/v1/llm-providers/config/"+id, otherKey, ""), 404, "not_found")
	p0, _ := a.Accounts.Authenticate(ctx, admin)
	memberKey := accounttest.UserKey(t, a.Accounts, p0.Org.ID, "member@demo.test", account.RoleMember)
	checkError(t, do("DELETE", "/v1/llm-providers/config/"+id, memberKey, ""), 403, "forbidden")
	checkError(t, do("POST", "/v1/llm-providers/config/"+id+"/set-default", memberKey, ""), 403, "forbidden")
	if got := do("GET", "/v1/llm-providers/config/"+id, memberKey, ""); got.status != 200 {
		t.Fatalf("member read: %s", got.raw)
	}
	got = do("POST", "/v1/llm-providers/config", admin, `{"integration_name":"Judge","provider":"typed","api_key":"`+secretKey+`","model_name":"judge-1","base_url":"`+base+`"}`)
	typedID, _ := got.body["integration_id"].(string)
	checkError(t, do("POST", "/v1/llm-providers/config/"+typedID+"/set-default", admin, ""), 400, "typed_cannot_be_default")

	// Search providers.
	checkError(t, do("POST", "/v1/search-providers", admin, `{"provider":"brave"}`), 422, "validation_error")
	got = do("POST", "/v1/search-providers", admin, `{"provider":"serper","name":"Serper","api_key":"serper-`+secretKey+`"}`)
	spID, _ := got.body["provider_id"].(string)
	if got.status != 201 || spID == "" {
		t.Fatalf("create search provider: %s", got.raw)
	}
	got = do("POST", "/v1/search-providers", admin, `{"provider":"native"}`)
	nativeID, _ := got.body["provider_id"].(string)
	checkError(t, do("POST", "/v1/search-providers/"+nativeID+"/set-default", memberKey, ""), 403, "forbidden")
	if got := do("POST", "/v1/search-providers/"+nativeID+"/set-default", admin, ""); got.status != 200 {
		t.Fatalf("set-default: %s", got.raw)
	}
	got = do("GET", "/v1/search-providers", admin, "")
	sps, _ := got.body["providers"].([]any)
	if len(sps) != 2 || sps[0].(map[string]any)["api_key"] != "*****" || sps[1].(map[string]any)["is_default"] != true {
		t.Fatalf("search providers: %s", got.raw)
	}
	checkError(t, do("DELETE", "/v1/search-providers/"+spID, otherKey, ""), 404, "not_found")
	if got := do("DELETE", "/v1/search-providers/"+spID, admin, ""); got.status != 200 {
		t.Fatalf("delete search provider: %s", got.raw)
	}
	if got := do("DELETE", "/v1/llm-providers/config/"+id, admin, ""); got.status != 200 {
		t.Fatalf("delete: %s", got.raw)
	}

	srv.Close()
	a.Close()
	// No key in any response, log line, or file of the data directory.
	for _, b := range bodies {
		if strings.Contains(b, "TOPSECRET") || strings.Contains(b, "99999") {
			t.Fatalf("a response shows a key: %s", b)
		}
	}
	if strings.Contains(logs.String(), "TOPSECRET") || strings.Contains(logs.String(), "99999") {
		t.Fatal("a log line shows a key")
	}
	filepath.Walk(dir, func(path string, info os.FileInfo, err error) error {
		if err != nil || info.IsDir() {
			return nil
		}
		raw, _ := os.ReadFile(path)
		if bytes.Contains(raw, []byte("TOPSECRET")) {
			t.Errorf("%s holds a provider key in plain text", path)
		}
		return nil
	})
}
