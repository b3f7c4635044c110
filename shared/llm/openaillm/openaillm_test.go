package openaillm

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/firmoapi/firmo/shared/apperr"
	"github.com/firmoapi/firmo/shared/llm"
)

// server speaks OpenAI's chat completions wire format and records what it was sent.
type server struct {
	mu     sync.Mutex
	bodies []map[string]any
	auth   []string
	status int
	reply  string
}

func (s *server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	body, _ := io.ReadAll(r.Body)
	var m map[string]any
	_ = json.Unmarshal(body, &m)
	s.mu.Lock()
	s.bodies = append(s.bodies, m)
	s.auth = append(s.auth, r.Header.Get("Authorization"))
	s.mu.Unlock()
	w.Header().Set("Content-Type", "application/json")
	if r.URL.Path == "/v1/models" {
		_, _ = io.WriteString(w, `{"object":"list","data":[{"id":"gpt-4o-mini","object":"model","created":1,"owned_by":"openai"},{"id":"gpt-4.1","object":"model","created":1,"owned_by":"openai"}]}`)
		return
	}
	if r.URL.Path != "/v1/chat/completions" {
		http.NotFound(w, r)
		return
	}
	if s.status != 0 {
		w.Header().Set("Retry-After", "7")
		w.WriteHeader(s.status)
		_, _ = io.WriteString(w, s.reply)
		return
	}
	_, _ = io.WriteString(w, s.reply)
}

func newServer(t *testing.T, s *server) string {
	t.Helper()
	srv := httptest.NewServer(s)
	t.Cleanup(srv.Close)
	return srv.URL + "/v1"
}

func guarded() *http.Client { return llm.GuardedHTTPClient([]string{"127.0.0.1"}, 10*time.Second) }

const okReply = `{"id":"chatcmpl-1","object":"chat.completion","created":1,"model":"gpt-4o-mini",
 "choices":[{"index":0,"message":{"role":"assistant","content":"{\"ceo\":\"Ada\"}","refusal":null},"finish_reason":"stop","logprobs":null}],
 "usage":{"prompt_tokens":1200,"completion_tokens":300,"total_tokens":1500}}`

func TestCompleteSendsPromptAndParsesUsage(t *testing.T) {
	s := &server{reply: okReply}
	c := New(Options{Provider: "openai", APIKey: "sk-test-123", BaseURL: newServer(t, s), HTTPClient: guarded()})
	got, err := c.Complete(context.Background(), llm.Request{Model: "gpt-4o-mini", System: "You research companies.", Prompt: "Who is the CEO of acme.com?", MaxTokens: 200, JSONFields: []string{"ceo"}})
	if err != nil {
		t.Fatal(err)
	}
	if got.Text != `{"ceo":"Ada"}` || got.PromptTokens != 1200 || got.CompletionTokens != 300 || !got.UsageReported {
		t.Fatalf("got %+v", got)
	}
	want := 1200*0.15/1e6 + 300*0.60/1e6
	if d := got.CostUSD - want; d > 1e-12 || d < -1e-12 {
		t.Fatalf("cost = %v, want %v", got.CostUSD, want)
	}
	b := s.bodies[0]
	msgs := b["messages"].([]any)
	sys := msgs[0].(map[string]any)
	user := msgs[1].(map[string]any)
	if sys["role"] != "system" || !strings.HasPrefix(sys["content"].(string), "You research companies.") || !strings.Contains(sys["content"].(string), `"ceo"`) {
		t.Fatalf("system message = %v", sys)
	}
	if user["role"] != "user" || user["content"] != "Who is the CEO of acme.com?" {
		t.Fatalf("user message = %v", user)
	}
	if b["model"] != "gpt-4o-mini" || b["max_completion_tokens"] != float64(200) {
		t.Fatalf("model/max tokens = %v/%v", b["model"], b["max_completion_tokens"])
	}
	if rf := b["response_format"].(map[string]any); rf["type"] != "json_object" {
		t.Fatalf("response_format = %v", rf)
	}
	if _, ok := b["web_search_options"]; ok {
		t.Fatal("web_search_options sent without WebSearch")
	}
	if s.auth[0] != "Bearer sk-test-123" {
		t.Fatalf("Authorization = %q", s.auth[0])
	}
}

func TestWebSearchOnlyForSearchModels(t *testing.T) {
	s := &server{reply: okReply}
	c := New(Options{Provider: "openai", APIKey: "k", BaseURL: newServer(t, s), HTTPClient: guarded()})
	r1, err := c.Complete(context.Background(), llm.Request{Model: "gpt-4o-search-preview", Prompt: "q", WebSearch: true})
	if err != nil {
		t.Fatal(err)
	}
	r2, err := c.Complete(context.Background(), llm.Request{Model: "gpt-4o-mini", Prompt: "q", WebSearch: true})
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := s.bodies[0]["web_search_options"]; !ok || r1.SearchCalls != 1 {
		t.Fatalf("search model: options %v, calls %d", s.bodies[0]["web_search_options"], r1.SearchCalls)
	}
	if _, ok := s.bodies[1]["web_search_options"]; ok || r2.SearchCalls != 0 {
		t.Fatal("web_search_options sent to a model without search")
	}
}

func TestCustomUsesMaxTokensAndMissingUsage(t *testing.T) {
	s := &server{reply: `{"id":"x","object":"chat.completion","created":1,"model":"llama","choices":[{"index":0,"message":{"role":"assistant","content":"hi"},"finish_reason":"stop"}]}`}
	c := New(Options{Provider: "custom", APIKey: "k", BaseURL: newServer(t, s), HTTPClient: guarded()})
	got, err := c.Complete(context.Background(), llm.Request{Model: "llama-3", Prompt: "p"})
	if err != nil {
		t.Fatal(err)
	}
	if got.UsageReported || got.PromptTokens != 0 || got.CostUSD != 0 || got.Text != "hi" {
		t.Fatalf("got %+v, want no usage", got)
	}
	if s.bodies[0]["max_tokens"] != float64(DefaultMaxTokens) {
		t.Fatalf("max_tokens = %v", s.bodies[0]["max_tokens"])
	}
	if _, ok := s.bodies[0]["system"]; ok {
		t.Fatal("unexpected field")
	}
	if msgs := s.bodies[0]["messages"].([]any); len(msgs) != 1 {
		t.Fatalf("messages = %v, want the user message only", msgs)
	}
}

func TestErrors(t *testing.T) {
	cases := []struct {
		name      string
		status    int
		body      string
		want      error
		retryable bool
	}{
		{"bad key", 401, `{"error":{"message":"Incorrect API key provided: sk-test-****1234.","type":"invalid_request_error","param":null,"code":"invalid_api_key"}}`, llm.ErrAuth, false},
		{"quota", 429, `{"error":{"message":"You exceeded your current quota, please check your plan and billing details.","type":"insufficient_quota","param":null,"code":"insufficient_quota"}}`, llm.ErrOutOfCredits, false},
		{"rate limit", 429, `{"error":{"message":"Rate limit reached for gpt-4o-mini","type":"requests","param":null,"code":"rate_limit_exceeded"}}`, llm.ErrRateLimited, true},
		{"unknown model", 404, `{"error":{"message":"The model gpt-9 does not exist","type":"invalid_request_error","param":null,"code":"model_not_found"}}`, llm.ErrBadModel, false},
		{"server", 500, `{"error":{"message":"boom","type":"server_error","param":null,"code":null}}`, llm.ErrProvider, true},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			s := &server{status: c.status, reply: c.body}
			cl := New(Options{Provider: "openai", APIKey: "sk-test-abcd1234", BaseURL: newServer(t, s), HTTPClient: guarded()})
			_, err := cl.Complete(context.Background(), llm.Request{Model: "gpt-4o-mini", Prompt: "p"})
			if !errors.Is(err, c.want) {
				t.Fatalf("err = %v, want %v", err, c.want)
			}
			if got := apperr.IsRetryable(err); got != c.retryable {
				t.Fatalf("retryable = %v, want %v", got, c.retryable)
			}
			if c.name == "rate limit" && apperr.RetryAfter(err) != 7*time.Second {
				t.Fatalf("Retry-After not carried: %v (hint %v)", err, apperr.RetryAfter(err))
			}
			if strings.Contains(err.Error(), "1234") {
				t.Fatalf("error shows part of the key: %v", err)
			}
			if len(s.bodies) != 1 {
				t.Fatalf("%d requests; the SDK must not retry on its own", len(s.bodies))
			}
		})
	}
}

func TestModelsAndGuard(t *testing.T) {
	s := &server{reply: okReply}
	base := newServer(t, s)
	c := New(Options{Provider: "openai", APIKey: "k", BaseURL: base, HTTPClient: guarded()})
	ids, err := c.Models(context.Background())
	if err != nil || strings.Join(ids, ",") != "gpt-4o-mini,gpt-4.1" {
		t.Fatalf("Models = %v, %v", ids, err)
	}
	// Without the allow list the loopback server is refused before any request.
	strict := New(Options{Provider: "custom", APIKey: "k", BaseURL: base, HTTPClient: llm.GuardedHTTPClient(nil, 5*time.Second)})
	n := len(s.bodies)
	_, err = strict.Complete(context.Background(), llm.Request{Model: "m", Prompt: "p"})
	if err == nil || !strings.Contains(err.Error(), "refusing to connect") || apperr.IsRetryable(err) {
		t.Fatalf("err = %v, want a non-retryable refusal", err)
	}
	if len(s.bodies) != n {
		t.Fatal("a refused request reached the server")
	}
}

func TestJSONSchemaGoesAsResponseFormat(t *testing.T) {
	s := &server{reply: okReply}
	c := New(Options{Provider: "openai", APIKey: "sk-test-123", BaseURL: newServer(t, s), HTTPClient: guarded()})
	schema := map[string]any{"type": "object", "properties": map[string]any{"ceo": map[string]any{"type": "string"}},
		"required": []string{"ceo"}, "additionalProperties": false}
	if _, err := c.Complete(context.Background(), llm.Request{Model: "gpt-4o-mini", Prompt: "Who?", JSONSchema: schema, SchemaName: "ceo_answer",
		JSONFields: []string{"ignored"}}); err != nil {
		t.Fatal(err)
	}
	rf, _ := s.bodies[0]["response_format"].(map[string]any)
	js, _ := rf["json_schema"].(map[string]any)
	if rf["type"] != "json_schema" || js["name"] != "ceo_answer" || js["strict"] != true {
		t.Fatalf("response_format = %v", rf)
	}
	if sc, _ := js["schema"].(map[string]any); sc["required"].([]any)[0] != "ceo" {
		t.Fatalf("schema = %v", js["schema"])
	}
	sys := s.bodies[0]["messages"].([]any)[0].(map[string]any)["content"].(string)
	if !strings.Contains(sys, `"additionalProperties":false`) || strings.Contains(sys, "ignored") {
		t.Fatalf("system message %q: the schema stated, JSONFields not", sys)
	}
}
