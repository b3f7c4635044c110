package anthropicllm

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/firmoapi/firmo/shared/apperr"
	"github.com/firmoapi/firmo/shared/llm"
)

// server speaks Anthropic's Messages wire format and records what it was sent.
type server struct {
	bodies  []map[string]any
	headers []http.Header
	status  int
	reply   string
}

func (s *server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	body, _ := io.ReadAll(r.Body)
	var m map[string]any
	_ = json.Unmarshal(body, &m)
	s.bodies = append(s.bodies, m)
	s.headers = append(s.headers, r.Header.Clone())
	w.Header().Set("Content-Type", "application/json")
	if r.URL.Path == "/v1/models" {
		_, _ = io.WriteString(w, `{"data":[{"type":"model","id":"claude-sonnet-4-20250514","display_name":"Claude Sonnet 4","created_at":"2025-05-14T00:00:00Z"}],"has_more":false,"first_id":"a","last_id":"a"}`)
		return
	}
	if r.URL.Path != "/v1/messages" {
		http.NotFound(w, r)
		return
	}
	if s.status != 0 {
		w.WriteHeader(s.status)
	}
	_, _ = io.WriteString(w, s.reply)
}

func client(t *testing.T, s *server) *Client {
	t.Helper()
	srv := httptest.NewServer(s)
	t.Cleanup(srv.Close)
	return New(Options{APIKey: "sk-ant-test", BaseURL: srv.URL, HTTPClient: llm.GuardedHTTPClient([]string{"127.0.0.1"}, 10*time.Second)})
}

const reply = `{"id":"msg_1","type":"message","role":"assistant","model":"claude-sonnet-4-20250514",
 "content":[{"type":"server_tool_use","id":"srvtoolu_1","name":"web_search","input":{"query":"acme ceo"}},
            {"type":"web_search_tool_result","tool_use_id":"srvtoolu_1","content":[]},
            {"type":"text","text":"The CEO is "},{"type":"text","text":"Ada."}],
 "stop_reason":"end_turn","stop_sequence":null,
 "usage":{"input_tokens":2000,"output_tokens":100,"cache_creation_input_tokens":0,"cache_read_input_tokens":0,"server_tool_use":{"web_search_requests":2}}}`

func TestComplete(t *testing.T) {
	s := &server{reply: reply}
	c := client(t, s)
	got, err := c.Complete(context.Background(), llm.Request{Model: "claude-sonnet-4-20250514", System: "Be brief.", Prompt: "Who runs acme.com?", WebSearch: true, JSONFields: []string{"ceo"}})
	if err != nil {
		t.Fatal(err)
	}
	if got.Text != "The CEO is Ada." || got.PromptTokens != 2000 || got.CompletionTokens != 100 || got.SearchCalls != 2 || !got.UsageReported {
		t.Fatalf("got %+v", got)
	}
	want := 2000*3.0/1e6 + 100*15.0/1e6 + 2*0.01
	if d := got.CostUSD - want; d > 1e-12 || d < -1e-12 {
		t.Fatalf("cost %v, want %v", got.CostUSD, want)
	}
	b := s.bodies[0]
	if b["model"] != "claude-sonnet-4-20250514" || b["max_tokens"] != float64(DefaultMaxTokens) {
		t.Fatalf("model/max_tokens: %v %v", b["model"], b["max_tokens"])
	}
	sys := b["system"].([]any)[0].(map[string]any)["text"].(string)
	if sys[:9] != "Be brief." || !json.Valid([]byte(`"x"`)) {
		t.Fatalf("system = %q", sys)
	}
	msg := b["messages"].([]any)[0].(map[string]any)
	content := msg["content"].([]any)[0].(map[string]any)
	if msg["role"] != "user" || content["text"] != "Who runs acme.com?" {
		t.Fatalf("message = %v", msg)
	}
	tool := b["tools"].([]any)[0].(map[string]any)
	if tool["type"] != "web_search_20250305" || tool["name"] != "web_search" || tool["max_uses"] != float64(MaxSearches) {
		t.Fatalf("tool = %v", tool)
	}
	if h := s.headers[0]; h.Get("X-Api-Key") != "sk-ant-test" || h.Get("Anthropic-Version") == "" {
		t.Fatalf("headers: key %q version %q", h.Get("X-Api-Key"), h.Get("Anthropic-Version"))
	}
}

func TestNoSearchToolWithoutWebSearch(t *testing.T) {
	s := &server{reply: reply}
	if _, err := client(t, s).Complete(context.Background(), llm.Request{Model: "claude-sonnet-4-0", Prompt: "p"}); err != nil {
		t.Fatal(err)
	}
	if _, ok := s.bodies[0]["tools"]; ok {
		t.Fatal("tools sent without WebSearch")
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
		{"bad key", 401, `{"type":"error","error":{"type":"authentication_error","message":"invalid x-api-key"}}`, llm.ErrAuth, false},
		{"no credit", 400, `{"type":"error","error":{"type":"invalid_request_error","message":"Your credit balance is too low to access the Anthropic API. Please go to Plans & Billing to upgrade or purchase credits."}}`, llm.ErrOutOfCredits, false},
		{"rate limit", 429, `{"type":"error","error":{"type":"rate_limit_error","message":"Number of requests has exceeded your rate limit"}}`, llm.ErrRateLimited, true},
		{"overloaded", 529, `{"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}}`, llm.ErrProvider, true},
		{"bad request", 400, `{"type":"error","error":{"type":"invalid_request_error","message":"max_tokens: too large"}}`, llm.ErrProvider, false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			s := &server{status: c.status, reply: c.body}
			_, err := client(t, s).Complete(context.Background(), llm.Request{Model: "claude-3-5-haiku-latest", Prompt: "p"})
			if !errors.Is(err, c.want) || apperr.IsRetryable(err) != c.retryable {
				t.Fatalf("err = %v (retryable %v), want %v (retryable %v)", err, apperr.IsRetryable(err), c.want, c.retryable)
			}
		})
	}
}

func TestModels(t *testing.T) {
	ids, err := client(t, &server{}).Models(context.Background())
	if err != nil || len(ids) != 1 || ids[0] != "claude-sonnet-4-20250514" {
		t.Fatalf("Models = %v, %v", ids, err)
	}
}
