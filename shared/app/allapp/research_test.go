package allapp_test

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/firmoapi/firmo/shared/company"
	"github.com/firmoapi/firmo/shared/world"
)

// openAICompatible is a local server speaking the chat-completions wire format with a
// usage block (prompt tokens: the user message's word count; completion tokens: 9).
type openAICompatible struct {
	*httptest.Server
	mu           sync.Mutex
	promptTokens int
	calls        int
	prompts      []string
	// answer, when set before the first call, writes the reply to a user message
	// (default: "They sell things.").
	answer func(user string) string
}

func newOpenAICompatible(t *testing.T) *openAICompatible {
	s := &openAICompatible{}
	s.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		switch r.URL.Path {
		case "/v1/models":
			fmt.Fprint(w, `{"object":"list","data":[{"id":"test-model","object":"model","created":1,"owned_by":"me"}]}`)
			return
		case "/v1/chat/completions":
		default:
			http.NotFound(w, r)
			return
		}
		var req struct {
			Model    string `json:"model"`
			Messages []struct{ Role, Content string }
		}
		json.NewDecoder(r.Body).Decode(&req)
		user := ""
		for _, m := range req.Messages {
			if m.Role == "user" {
				user = m.Content
			}
		}
		n := len(strings.Fields(user))
		s.mu.Lock()
		s.calls++
		s.promptTokens += n
		s.prompts = append(s.prompts, user)
		s.mu.Unlock()
		time.Sleep(5 * time.Millisecond) // a model takes time: the run is seen mid-way
		content := "They sell things."
		if s.answer != nil {
			content = s.answer(user)
		}
		reply, _ := json.Marshal(content)
		fmt.Fprintf(w, `{"id":"c1","object":"chat.completion","created":1,"model":%q,"choices":[{"index":0,"finish_reason":"stop","message":{"role":"assistant","content":%s}}],"usage":{"prompt_tokens":%d,"completion_tokens":9,"total_tokens":%d}}`,
			req.Model, reply, n, n+9)
	}))
	t.Cleanup(s.Close)
	return s
}

// TestBatchResearchAcceptance is issue 6's acceptance run: a custom integration pointed
// at a local OpenAI-compatible server, the native search provider, 200 domains of the
// demo world through POST /v1/gen/process with web_search.
func TestBatchResearchAcceptance(t *testing.T) {
	llmSrv := newOpenAICompatible(t)
	host := strings.TrimPrefix(llmSrv.URL, "http://")
	e := newEnv(t, map[string]string{"FIRMO_FETCH_ALLOW_HOSTS": host})
	ctx := context.Background()
	opts := world.Options{Seed: 6, Companies: 200, AsOf: time.Now()}.Normalized()
	if _, err := e.app.SeedWorld(ctx, opts, company.LoadOptions{}, nil); err != nil {
		t.Fatal(err)
	}
	if err := e.app.StartTasks(ctx); err != nil {
		t.Fatal(err)
	}
	k := key(e.demoKey)
	const apiKey = "sk-acceptance-secret-0123456789"
	var raws []string
	do := func(method, path, body string) answer {
		a := e.do(t, method, path, k, body)
		raws = append(raws, a.raw)
		return a
	}
	in := do("POST", "/v1/llm-providers/config", fmt.Sprintf(`{"integration_name":"local","provider":"custom","api_key":%q,"model_name":"test-model","base_url":%q}`, apiKey, llmSrv.URL+"/v1"))
	if in.status != 200 && in.status != 201 {
		t.Fatalf("create integration: %d %s", in.status, in.raw)
	}
	integrationID, _ := in.body["integration_id"].(string)
	sp := do("POST", "/v1/search-providers", `{"provider":"native","name":"Firmo pages"}`)
	if sp.status != 200 && sp.status != 201 {
		t.Fatalf("create search provider: %d %s", sp.status, sp.raw)
	}
	w := world.New(opts)
	doms := make([]string, w.Len())
	for i := range doms {
		doms[i] = w.Company(i).Domain
	}
	body, _ := json.Marshal(map[string]any{"query": "What does the company sell?", "domains": doms, "web_search": true,
		"search_context_size": "medium", "integration_id": integrationID})
	sub := do("POST", "/v1/gen/process", string(body))
	if sub.status != 200 || sub.body["status"] != "in_progress" || sub.body["total_domains"] != float64(200) {
		t.Fatalf("submit: %d %s", sub.status, sub.raw)
	}
	taskID := sub.body["task_id"].(string)

	prev, sawInterim := -1, false
	var last answer
	deadline := time.Now().Add(3 * time.Minute)
	for {
		last = do("GET", "/v1/gen/status/"+url.PathEscape(taskID), "")
		if last.status != 200 {
			t.Fatalf("status: %d %s", last.status, last.raw)
		}
		p := int(last.body["progress"].(float64))
		if p < prev {
			t.Fatalf("progress fell from %d to %d", prev, p)
		}
		prev = p
		if interim, _ := last.body["interim_results"].(map[string]any); len(interim) > 0 && len(interim) < 200 {
			sawInterim = true
		}
		if last.body["status"] == "completed" {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("not completed: %s", last.raw[:min(len(last.raw), 500)])
		}
		time.Sleep(20 * time.Millisecond)
	}
	if !sawInterim {
		t.Error("no interim results were seen while the task ran")
	}
	results, _ := last.body["results"].(map[string]any)
	if len(results) != 200 {
		t.Fatalf("%d results, want 200", len(results))
	}
	for _, d := range doms {
		row, _ := results[d].(map[string]any)
		if row["Answer"] != "They sell things." {
			t.Fatalf("%s: %v", d, results[d])
		}
	}
	meta := last.body["cost_metadata"].(map[string]any)
	m, _ := meta["custom/test-model"].(map[string]any)
	llmSrv.mu.Lock()
	wantPrompt, calls := llmSrv.promptTokens, llmSrv.calls
	llmSrv.mu.Unlock()
	if m == nil || m["calls"] != float64(200) || calls != 200 || m["prompt_tokens"] != float64(wantPrompt) || m["completion_tokens"] != float64(200*9) {
		t.Errorf("cost_metadata %v; server saw %d calls and %d prompt tokens", meta, calls, wantPrompt)
	}
	s, _ := meta["search_provider"].(map[string]any)
	if s == nil || s["provider"] != "native" || s["queries_executed"].(float64) <= 0 {
		t.Errorf("search_provider %v, want native with queries executed", s)
	}
	for _, raw := range raws {
		if strings.Contains(raw, apiKey) {
			t.Fatalf("a response shows the provider key: %s", raw[:min(len(raw), 300)])
		}
	}
	withHome, withHits := 0, 0
	llmSrv.mu.Lock()
	for _, pr := range llmSrv.prompts {
		if strings.Contains(pr, "Homepage text:") {
			withHome++
		}
		if strings.Contains(pr, "Web search results:") {
			withHits++
		}
	}
	llmSrv.mu.Unlock()
	if withHome < 100 || withHits == 0 {
		t.Errorf("%d of 200 prompts carry homepage text and %d search results; want most and some", withHome, withHits)
	}
	t.Logf("search_provider %v; prompts with homepage text %d, with search results %d; warnings %v", s, withHome, withHits, last.body["warnings"])
}

// TestBatchResearchErrors checks the request errors over HTTP: strict bodies (422 naming
// the field) and the API reference's 400s that need no integration.
func TestBatchResearchErrors(t *testing.T) {
	e := newEnv(t, nil)
	k := key(e.demoKey)
	tests := []struct {
		path, body string
		status     int
		code       string
	}{
		{"/v1/gen/process", `{"query":"Q","domains":["a.com"],"colour":"red"}`, 422, "validation_error"},
		{"/v1/gen/process", `{"query":"Q","domains":"a.com"}`, 422, "validation_error"},
		{"/v1/gen/process", `{"query":"Q","domains":["a.com"],"context_mode":"full"}`, 422, "validation_error"},
		{"/v1/gen/process", `{"query":"Q","domains":[]}`, 422, "validation_error"},
		{"/v1/gen/process", `{"query":"Q","domains":["a.com"],"integration_id":"native"}`, 400, "native_not_allowed"},
		{"/v1/gen/process", `{"query":"Mandatory: x","domains":["a.com"],"integration_id":"native-icp"}`, 400, "icp_headings_missing"},
		{"/v1/gen/process", `{"query":"Q","domains":["a.com"]}`, 400, "no_llm_integration"},
		{"/v1/gen/process-personas", `{"query":"Q","persona_ids":["12"]}`, 422, "validation_error"},
		{"/v1/gen/process-personas", `{"query":"Q","persona_ids":[1],"context_mode":"website"}`, 422, "validation_error"},
		{"/v1/gen/process-personas", `{"query":"Q","persona_ids":[1],"integration_id":"native-icp"}`, 400, "native_not_allowed"},
	}
	for _, tc := range tests {
		a := e.do(t, "POST", tc.path, k, tc.body)
		checkError(t, a, tc.status, tc.code)
		if tc.status == 503 && a.header.Get("Retry-After") == "" {
			t.Errorf("%s %s: 503 without Retry-After", tc.path, tc.body)
		}
	}
}
