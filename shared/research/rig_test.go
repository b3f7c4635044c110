package research

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/firmoapi/firmo/shared/account"
	"github.com/firmoapi/firmo/shared/apperr"
	"github.com/firmoapi/firmo/shared/billing"
	"github.com/firmoapi/firmo/shared/company"
	"github.com/firmoapi/firmo/shared/integration"
	"github.com/firmoapi/firmo/shared/kv"
	"github.com/firmoapi/firmo/shared/kv/boltkv"
	"github.com/firmoapi/firmo/shared/llm"
	"github.com/firmoapi/firmo/shared/llm/openaillm"
	"github.com/firmoapi/firmo/shared/task"
	"github.com/firmoapi/firmo/shared/task/memqueue"
	"github.com/firmoapi/firmo/shared/websearch"
)

// chatServer speaks the OpenAI chat-completions wire format: it records every request
// and answers "Answer for <domain>" (the domain read from the prompt's context), or a
// JSON object of the asked fields, with a usage block of known token counts.
type chatServer struct {
	*httptest.Server
	mu       sync.Mutex
	requests []chatRequest
	delay    time.Duration
	calls    atomic.Int64
	// tokens reported per call; promptTokens grows with the prompt so sums are checkable
	completionTokens int
	// failStatus, when set, answers every call with that HTTP status (401: a refused key)
	failStatus int
	// answer, when set, writes the message content of an answer (set before the first call)
	answer func(req chatRequest, domain string) string
}

type chatRequest struct {
	Model    string `json:"model"`
	Messages []struct {
		Role    string `json:"role"`
		Content string `json:"content"`
	} `json:"messages"`
	ResponseFormat *struct {
		Type string `json:"type"`
	} `json:"response_format"`
	Auth string `json:"-"`
}

func (r chatRequest) user() string {
	for _, m := range r.Messages {
		if m.Role == "user" {
			return m.Content
		}
	}
	return ""
}

func (r chatRequest) system() string {
	for _, m := range r.Messages {
		if m.Role == "system" {
			return m.Content
		}
	}
	return ""
}

var domainLine = regexp.MustCompile(`(?m)^(?:Company domain|Domain): (\S+)$`)

func newChatServer(t *testing.T) *chatServer {
	cs := &chatServer{completionTokens: 7}
	cs.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/v1/chat/completions" || r.Method != http.MethodPost {
			http.Error(w, `{"error":{"message":"not found","type":"invalid_request_error"}}`, http.StatusNotFound)
			return
		}
		var req chatRequest
		if err := json.NewDecoder(r.Body).Decode(&req); err != nil {
			http.Error(w, `{"error":{"message":"bad json","type":"invalid_request_error"}}`, http.StatusBadRequest)
			return
		}
		req.Auth = r.Header.Get("Authorization")
		cs.mu.Lock()
		cs.requests = append(cs.requests, req)
		cs.mu.Unlock()
		cs.calls.Add(1)
		if cs.failStatus != 0 {
			w.Header().Set("Content-Type", "application/json")
			w.WriteHeader(cs.failStatus)
			w.Write([]byte(`{"error":{"message":"refused","type":"invalid_request_error"}}`))
			return
		}
		if cs.delay > 0 {
			time.Sleep(cs.delay)
		}
		dom := "unknown"
		if m := domainLine.FindStringSubmatch(req.user()); m != nil {
			dom = m[1]
		}
		content := "Answer for " + dom
		if req.ResponseFormat != nil && req.ResponseFormat.Type == "json_object" {
			b, _ := json.Marshal(map[string]string{"Founders": "founders of " + dom, "HQ": "hq of " + dom})
			content = string(b)
		}
		if cs.answer != nil {
			content = cs.answer(req, dom)
		}
		resp := map[string]any{
			"id": "chatcmpl-1", "object": "chat.completion", "created": time.Now().Unix(), "model": req.Model,
			"choices": []any{map[string]any{"index": 0, "finish_reason": "stop",
				"message": map[string]any{"role": "assistant", "content": content}}},
			"usage": map[string]any{"prompt_tokens": promptTokens(req.user()), "completion_tokens": cs.completionTokens,
				"total_tokens": promptTokens(req.user()) + cs.completionTokens},
		}
		w.Header().Set("Content-Type", "application/json")
		json.NewEncoder(w).Encode(resp)
	}))
	t.Cleanup(cs.Close)
	return cs
}

// promptTokens is the server's token count: one per whitespace-separated word.
func promptTokens(s string) int { return len(strings.Fields(s)) }

func (cs *chatServer) all() []chatRequest {
	cs.mu.Lock()
	defer cs.mu.Unlock()
	return append([]chatRequest(nil), cs.requests...)
}

// fakeIntegrations resolves to the real openaillm adapter ("custom") pointed at the
// chat server; typedID names a typed integration; judge answers typed questions.
type fakeIntegrations struct {
	base      string
	builtin   bool // the model has built-in web search
	typedID   string
	typedDflt bool // the default is typed
	judge     llm.Judge
}

const genID = "11111111-1111-4111-8111-111111111111"

func (f *fakeIntegrations) Resolve(ctx context.Context, org, id string) (integration.Integration, llm.Client, error) {
	if id == "" && f.typedDflt {
		return integration.Integration{}, nil, apperr.BadRequest(integration.CodeTypedNotGenerative, "typed default")
	}
	if id != "" && id == f.typedID {
		return integration.Integration{ID: id, Provider: integration.ProviderTyped, Model: "typed-judge-1"}, nil, nil
	}
	if id != "" && id != genID {
		return integration.Integration{}, nil, apperr.NotFound("integration %s not found", id)
	}
	in := integration.Integration{ID: genID, Provider: integration.ProviderCustom, Model: "test-model", SupportsWebSearch: f.builtin}
	return in, openaillm.New(openaillm.Options{Provider: "custom", APIKey: "sk-secret-test-key", BaseURL: f.base + "/v1"}), nil
}

func (f *fakeIntegrations) Judge(ctx context.Context, org string) (integration.Integration, llm.Judge, error) {
	if f.judge == nil {
		return integration.Integration{}, nil, fmt.Errorf("no typed-judgment integration on the account: %w", apperr.ErrNotFound)
	}
	return integration.Integration{ID: "typed", Provider: integration.ProviderTyped}, f.judge, nil
}

// fixedJudge answers yes/no with Yes, a choice with its first option, a scale with 1.5,
// at the given confidence; it records the questions.
type fixedJudge struct {
	conf float64
	mu   sync.Mutex
	reqs []llm.JudgeRequest
}

func (j *fixedJudge) Judge(ctx context.Context, r llm.JudgeRequest) (llm.Judgment, error) {
	j.mu.Lock()
	j.reqs = append(j.reqs, r)
	j.mu.Unlock()
	v := "Yes"
	switch r.Kind {
	case llm.KindChoice:
		v = r.Options[0]
	case llm.KindScale:
		v = "1.5"
	}
	return llm.Judgment{Value: v, Confidence: j.conf, CostUSD: 0.0001}, nil
}

// pageIndex is a search provider over an in-memory page list, as the native provider
// searches Firmo's own pages: a page matches when it contains every query word.
type pageIndex struct {
	kind    string
	err     error // returned by every search when set
	queries atomic.Int64
	none    bool // no provider configured
}

var hostIn = regexp.MustCompile(`[a-z0-9-]+\.[a-z]{2,}`)

const searchID = "22222222-2222-4222-8222-222222222222"

func (p *pageIndex) Resolve(ctx context.Context, org, id string) (websearch.Provider, websearch.Searcher, error) {
	if p.none {
		return websearch.Provider{}, nil, &apperr.Error{Kind: apperr.ErrBadRequest, Code: websearch.CodeNoProvider, Message: "no provider"}
	}
	return websearch.Provider{ID: searchID, Kind: p.kind, Name: "index"}, p, nil
}

func (p *pageIndex) Search(ctx context.Context, q string, n int) ([]websearch.Result, error) {
	p.queries.Add(1)
	if p.err != nil {
		return nil, p.err
	}
	dom := hostIn.FindString(q)
	return []websearch.Result{{URL: "https://" + dom + "/about", Title: "About " + dom, Snippet: "hit for " + q}}, nil
}

// companies is an in-memory Companies: domains starting with "noprofile" have none.
type companies struct{}

func (companies) Profile(ctx context.Context, dom string) (company.Profile, error) {
	if strings.HasPrefix(dom, "noprofile") {
		return company.Profile{}, fmt.Errorf("profile of %s: %w", dom, apperr.ErrNotFound)
	}
	emp := "51-200"
	return company.Profile{Domain: dom, Name: "Name of " + dom, Description: "Makes widgets.", Employees: &emp,
		IndustryGroups: map[string]float64{"SAAS": 0.9}}, nil
}

func (c companies) Record(ctx context.Context, dom string) (company.Record, error) {
	p, err := c.Profile(ctx, dom)
	return company.Record{Domain: dom, Profile: p}, err
}

func (companies) HomeText(ctx context.Context, dom string) (string, error) {
	return "Welcome to " + dom + " home page.", nil
}

type rig struct {
	svc    *Service
	engine *task.Engine
	chat   *chatServer
	integ  *fakeIntegrations
	search *pageIndex
	bill   *billing.Service
	org    account.Org
	store  kv.Store
}

func newRig(t *testing.T) *rig {
	t.Helper()
	st, err := boltkv.Open(filepath.Join(t.TempDir(), "research.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	q := memqueue.New(memqueue.Options{Workers: 16, RetryDelay: 5 * time.Millisecond})
	flow := memqueue.NewWorkflow(memqueue.FlowOptions{PollEvery: 10 * time.Millisecond, StepRetryDelay: 5 * time.Millisecond})
	eng := task.New(task.Deps{Store: st, Kinds: task.NewRegistry(), Queue: q, Flow: flow, Limiter: task.NewLimiter(nil, 16),
		Options: task.Options{Retry: task.RetryPolicy{Attempts: 2, Base: time.Millisecond, Max: 5 * time.Millisecond}}})
	chat := newChatServer(t)
	r := &rig{engine: eng, chat: chat, integ: &fakeIntegrations{base: chat.URL}, search: &pageIndex{kind: websearch.KindNative}, store: st}
	accounts := account.New(st)
	r.bill = billing.New(st)
	r.svc, err = New(Deps{Tasks: eng, Integrations: r.integ, Searchers: r.search, Companies: companies{}, Billing: r.bill, Orgs: accounts})
	if err != nil {
		t.Fatal(err)
	}
	q.Run(eng)
	flow.Run(eng)
	t.Cleanup(func() {
		flow.Close()
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		q.Close(ctx)
	})
	r.org, _, err = accounts.EnsureOrg(context.Background(), "Acme", account.PlanFree)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := r.bill.Grant(context.Background(), r.org.ID, 1_000_000); err != nil {
		t.Fatal(err)
	}
	return r
}

// wait polls until the task ends, returning every view seen.
func (r *rig) wait(t *testing.T, taskID string) []task.View {
	t.Helper()
	var views []task.View
	deadline := time.Now().Add(60 * time.Second)
	for {
		v, err := r.engine.Status(context.Background(), task.Ref{OrgID: r.org.ID, TaskID: taskID})
		if err != nil {
			t.Fatal(err)
		}
		views = append(views, v)
		if v.Status.Terminal() {
			return views
		}
		if time.Now().After(deadline) {
			t.Fatalf("task not finished: progress %d", v.Progress)
		}
		time.Sleep(5 * time.Millisecond)
	}
}

func cells(t *testing.T, v task.View, key string) map[string]any {
	t.Helper()
	raw, ok := v.Results[key]
	if !ok {
		t.Fatalf("no result for %q (have %d results)", key, len(v.Results))
	}
	var m map[string]any
	if err := json.Unmarshal(raw, &m); err != nil {
		t.Fatal(err)
	}
	return m
}

func domains(n int) []string {
	out := make([]string, n)
	for i := range out {
		out[i] = fmt.Sprintf("company%03d.com", i)
	}
	return out
}
