package allapp_test

import (
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"

	"github.com/firmoapi/firmo/shared/account"
	"github.com/firmoapi/firmo/shared/account/accounttest"
)

// TestICPPromptUsesDefaultLLM: discover sends icp_prompt to the organisation's default
// LLM integration (a custom one on a local chat-completions server), through the
// integration service and the guarded client, once per prompt (the reading is kept);
// an organisation without one makes no call; a failing provider does not fail the search.
func TestICPPromptUsesDefaultLLM(t *testing.T) {
	var mu sync.Mutex
	var users, systems []string
	fail := false
	vendor := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var req struct {
			Messages []struct{ Role, Content string } `json:"messages"`
		}
		json.NewDecoder(r.Body).Decode(&req)
		mu.Lock()
		for _, m := range req.Messages {
			if m.Role == "user" {
				users = append(users, m.Content)
			} else {
				systems = append(systems, m.Content)
			}
		}
		failing := fail
		mu.Unlock()
		w.Header().Set("Content-Type", "application/json")
		if r.URL.Path == "/v1/models" {
			io.WriteString(w, `{"object":"list","data":[{"id":"m1","object":"model","created":1,"owned_by":"me"}]}`)
			return
		}
		if failing {
			w.WriteHeader(500)
			io.WriteString(w, `{"error":{"message":"down","type":"server_error"}}`)
			return
		}
		io.WriteString(w, `{"id":"c","object":"chat.completion","created":1,"model":"m1","choices":[{"index":0,"message":{"role":"assistant",`+
			`"content":"{\"department\":\"Customer Service\",\"country\":\"FR\",\"text\":\"customer care\"}"},"finish_reason":"stop"}],`+
			`"usage":{"prompt_tokens":5,"completion_tokens":1,"total_tokens":6}}`)
	}))
	defer vendor.Close()
	e := newEnv(t, map[string]string{"FIRMO_FETCH_ALLOW_HOSTS": "127.0.0.1", "FIRMO_SEED_COMPANIES": "0"})
	calls := func() int { mu.Lock(); defer mu.Unlock(); return len(users) }

	const prompt = "folks who keep our clients happy at banks in France"
	discover := func(k, prompt string) {
		t.Helper()
		if got := e.do(t, "POST", "/v1/contacts/discover", key(k), `{"icp_prompt":"`+prompt+`"}`); got.status != 200 {
			t.Fatalf("discover: %s", got.raw)
		}
	}
	otherKey := accounttest.OrgKey(t, e.app.Accounts, "Initech", account.PlanEnterprise, "bill@initech.test", account.RoleAdmin)

	discover(e.demoKey, prompt) // no integration yet: the parser serves, nothing is called
	if n := calls(); n != 0 {
		t.Fatalf("%d LLM calls without an integration", n)
	}
	got := e.do(t, "POST", "/v1/llm-providers/config", key(e.demoKey),
		`{"integration_name":"Local","provider":"custom","api_key":"sk-local-1","model_name":"m1","base_url":"`+vendor.URL+`/v1"}`)
	if got.status != 201 {
		t.Fatalf("create integration: %s", got.raw)
	}
	discover(e.demoKey, prompt)
	discover(e.demoKey, prompt) // the reading is kept: no second call
	mu.Lock()
	if len(users) != 1 || users[0] != prompt || !strings.Contains(systems[0], "Customer Service") {
		t.Fatalf("LLM got users %q, systems %q", users, systems)
	}
	mu.Unlock()
	discover(otherKey, prompt) // another organisation has no default integration
	if n := calls(); n != 1 {
		t.Fatalf("%d LLM calls after another organisation's search, want 1", n)
	}
	mu.Lock()
	fail = true
	mu.Unlock()
	discover(e.demoKey, "bankers in Spain") // the provider fails: the search still answers
	if n := calls(); n != 2 {
		t.Fatalf("%d LLM calls, want 2", n)
	}
}
