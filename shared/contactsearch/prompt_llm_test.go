package contactsearch

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"reflect"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/firmoapi/firmo/shared/apperr"
	"github.com/firmoapi/firmo/shared/integration"
	"github.com/firmoapi/firmo/shared/llm"
	"github.com/firmoapi/firmo/shared/llm/openaillm"
)

// chatDouble speaks the OpenAI chat-completions wire format: it answers every request
// with content (or an HTTP error status, or not before the client gives up) and keeps
// what it was sent.
type chatDouble struct {
	*httptest.Server
	mu      sync.Mutex
	content string
	status  int           // an error status to answer with; 0 answers content
	hang    time.Duration // wait this long (or until the client leaves) before answering
	got     []chatSent
}

type chatSent struct {
	Model    string `json:"model"`
	Messages []struct {
		Role    string `json:"role"`
		Content string `json:"content"`
	} `json:"messages"`
	ResponseFormat *struct {
		Type string `json:"type"`
	} `json:"response_format"`
}

func newChatDouble(t *testing.T, content string) *chatDouble {
	cd := &chatDouble{content: content}
	cd.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/v1/chat/completions" || r.Method != http.MethodPost {
			http.Error(w, `{"error":{"message":"not found"}}`, http.StatusNotFound)
			return
		}
		var req chatSent
		if err := json.NewDecoder(r.Body).Decode(&req); err != nil {
			http.Error(w, `{"error":{"message":"bad json"}}`, http.StatusBadRequest)
			return
		}
		cd.mu.Lock()
		cd.got = append(cd.got, req)
		content, status, hang := cd.content, cd.status, cd.hang
		cd.mu.Unlock()
		if hang > 0 {
			select {
			case <-time.After(hang):
			case <-r.Context().Done():
				return
			}
		}
		if status != 0 {
			http.Error(w, `{"error":{"message":"upstream trouble","type":"server_error"}}`, status)
			return
		}
		w.Header().Set("Content-Type", "application/json")
		json.NewEncoder(w).Encode(map[string]any{
			"id": "chatcmpl-1", "object": "chat.completion", "created": time.Now().Unix(), "model": req.Model,
			"choices": []any{map[string]any{"index": 0, "finish_reason": "stop", "message": map[string]any{"role": "assistant", "content": content}}},
			"usage":   map[string]any{"prompt_tokens": 100, "completion_tokens": 20, "total_tokens": 120},
		})
	}))
	t.Cleanup(cd.Close)
	return cd
}

func (cd *chatDouble) sent() []chatSent {
	cd.mu.Lock()
	defer cd.mu.Unlock()
	return append([]chatSent(nil), cd.got...)
}

// orgLLMs resolves the default integration of orgWithLLM to the real openaillm adapter
// on the double; any other organisation has none (integration.Service's answer).
type orgLLMs struct{ base string }

const orgWithLLM = "org-with-llm"

func (o orgLLMs) Resolve(ctx context.Context, org, id string) (integration.Integration, llm.Client, error) {
	if org != orgWithLLM || id != "" {
		return integration.Integration{}, nil, apperr.BadRequest(integration.CodeNoIntegration, "no default LLM integration")
	}
	return integration.Integration{ID: "int-1", Provider: integration.ProviderCustom, Model: "test-model"},
		openaillm.New(openaillm.Options{Provider: "custom", APIKey: "sk-test", BaseURL: o.base + "/v1"}), nil
}

// A prompt the parser reads poorly: no cue word names the department or the industry.
const vaguePrompt = "folks who keep our clients happy at banks in France"

func TestPromptExtraction(t *testing.T) {
	f := demo(t)
	ctx := context.Background()
	parsed := ParsePrompt(vaguePrompt)
	if parsed.Department != nil || parsed.Industry != nil || !reflect.DeepEqual(parsed.Country, []string{"FR"}) {
		t.Fatalf("the parser reads %+v; the test needs a prompt it reads poorly", parsed)
	}
	good := `{"seniority":"","department":"Customer Service","industry":"BANKING; FINANCIAL_SERVICES","country":"FR",` +
		`"employees":"","titles":"","signals":"","text":"customer care"}`
	tests := []struct {
		name    string
		org     string
		content string
		status  int
		hang    time.Duration
		want    Prompt // what the search runs with
		calls   int
	}{
		{name: "model reading used", org: orgWithLLM, content: good, calls: 1,
			want: Prompt{Department: []string{"Customer Service"}, Industry: []string{"BANKING", "FINANCIAL_SERVICES"}, Country: []string{"FR"}, Text: "customer care"}},
		{name: "code fence and arrays tolerated", org: orgWithLLM, calls: 1,
			content: "```json\n" + `{"department":["Customer Service"],"country":["FR"],"text":"customer care"}` + "\n```",
			want:    Prompt{Department: []string{"Customer Service"}, Country: []string{"FR"}, Text: "customer care"}},
		{name: "no default integration: parser", org: testOrg, content: good, want: parsed},
		{name: "junk answer: parser", org: orgWithLLM, content: "Sure! Here are some great leads for you.", want: parsed, calls: 1},
		{name: "provider error: parser", org: orgWithLLM, status: http.StatusInternalServerError, want: parsed, calls: 1},
		{name: "late answer: parser", org: orgWithLLM, content: good, hang: 5 * time.Second, want: parsed, calls: 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cd := newChatDouble(t, tt.content)
			cd.status, cd.hang = tt.status, tt.hang
			svc := withDeps(t, func(d *Deps) { d.Prompts = NewLLMPrompts(orgLLMs{cd.URL}, 300*time.Millisecond, nil) })
			req, err := Validate(uncapped(Params{IcpPrompt: vaguePrompt}))
			if err != nil {
				t.Fatal(err)
			}
			got := svc.readPrompt(ctx, tt.org, req)
			tt.want.Text = orText(tt.want.Text, parsed.Text)
			if !reflect.DeepEqual(*got.Prompt, tt.want) || got.Text != tt.want.Text {
				t.Fatalf("prompt %+v, text %q\nwant   %+v", *got.Prompt, got.Text, tt.want)
			}
			sent := cd.sent()
			if len(sent) != tt.calls {
				t.Fatalf("%d LLM calls, want %d", len(sent), tt.calls)
			}
			if tt.calls > 0 {
				checkSent(t, sent[0])
			}
			// The search runs with that reading, whatever the LLM did.
			resp, err := svc.Search(ctx, tt.org, req)
			if err != nil {
				t.Fatalf("search failed: %v", err)
			}
			var want []int64
			for _, r := range f.truth {
				if promptAdmits(tt.want, r) {
					want = append(want, r.c.PersonaID)
				}
			}
			if tt.calls > 0 && !reflect.DeepEqual(tt.want, parsed) && len(want) == 0 {
				t.Fatal("the model's reading selects no contact: the case tests nothing")
			}
			if g := ids(resp); !equal(g, want) {
				t.Fatalf("%d contacts, brute force %d", len(g), len(want))
			}
		})
	}
}

func orText(a, b string) string {
	if a != "" {
		return a
	}
	return b
}

// checkSent: the request carries the model, the prompt as the user message, a system
// message naming the enums, and asks for a JSON object.
func checkSent(t *testing.T, s chatSent) {
	t.Helper()
	var system, user string
	for _, m := range s.Messages {
		switch m.Role {
		case "system":
			system = m.Content
		case "user":
			user = m.Content
		}
	}
	if s.Model != "test-model" || user != vaguePrompt || s.ResponseFormat == nil || s.ResponseFormat.Type != "json_object" {
		t.Errorf("sent model %q, user %q, format %+v", s.Model, user, s.ResponseFormat)
	}
	for _, v := range []string{"Sales - Marketing", "Research & Development", "entry_level", "FINANCIAL_SERVICES", "DACH", "5001-10000", `"signals"`} {
		if !strings.Contains(system, v) {
			t.Errorf("the system message does not name %q", v)
		}
	}
}

// promptAdmits is the brute-force reading of the filters these prompts carry.
func promptAdmits(p Prompt, r truthRow) bool {
	in := func(vals []string, v string) bool { return vals == nil || contains(vals, v) }
	return in(p.Department, r.c.Department) && in(p.Seniority, r.c.Seniority) && in(p.Country, r.p.Address.Country) &&
		(p.Industry == nil || hasAny(industriesOf(r.p), p.Industry...))
}

func contains(vals []string, v string) bool {
	for _, x := range vals {
		if x == v {
			return true
		}
	}
	return false
}

func TestValidPrompt(t *testing.T) {
	model := Prompt{
		Seniority:  []string{"boss", "VP", "vp"},
		Department: []string{"Engineering", "Technology", "technology"},
		Industry:   []string{"fintech", "saas", "SAAS/B2B"},
		Country:    []string{"Germany", "dach", "XX", "fr"},
		Employees:  []string{"lots", "51-200", "11-50", "11 - 50"},
		Titles:     []string{`"head of growth`, "CMO", strings.Repeat("x", 300)},
		Signals:    []string{"Stripe", " ", "a", "b", "c", "d", "e"},
		Text:       strings.Repeat("y", maxTextLen+1),
	}
	got := validPrompt(model)
	want := Prompt{Seniority: []string{"vp"}, Department: []string{"Technology"}, Industry: []string{"SAAS"}, Country: []string{"DACH", "FR"},
		Employees: []string{"11-50", "51-200"}, Titles: []string{"CMO"}, Signals: []string{"a", "b", "c", "d", "stripe"}}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("got  %+v\nwant %+v", got, want)
	}
}

func TestMergePrompt(t *testing.T) {
	parsed := Prompt{Seniority: []string{"manager"}, Department: []string{"Operations"}, Country: []string{"DE"}, Signals: []string{"kubernetes"}, Text: "ops managers"}
	model := Prompt{Department: []string{"Technology"}, Industry: []string{"SAAS"}, Text: "platform managers"}
	got := mergePrompt(parsed, model)
	want := Prompt{Seniority: []string{"manager"}, Department: []string{"Technology"}, Industry: []string{"SAAS"}, Country: []string{"DE"},
		Signals: []string{"kubernetes"}, Text: "platform managers"}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("got  %+v\nwant %+v", got, want)
	}
	if got := mergePrompt(parsed, Prompt{}); !reflect.DeepEqual(got, parsed) {
		t.Fatalf("an empty model reading changed the parser's: %+v", got)
	}
}

// TestPromptReadingKept: a prompt read once is not sent again (paging through one search
// runs with one reading); a failed reading is not kept.
func TestPromptReadingKept(t *testing.T) {
	ctx := context.Background()
	cd := newChatDouble(t, `{"department":"Finance","text":"money people"}`)
	cd.status = http.StatusInternalServerError
	x := NewLLMPrompts(orgLLMs{cd.URL}, time.Second, nil)
	if _, err := x.ExtractPrompt(ctx, orgWithLLM, "accountants"); err == nil {
		t.Fatal("a provider error was not reported")
	}
	cd.mu.Lock()
	cd.status = 0
	cd.mu.Unlock()
	for i := 0; i < 3; i++ {
		got, err := x.ExtractPrompt(ctx, orgWithLLM, "accountants")
		if err != nil || !reflect.DeepEqual(got.Department, []string{"Finance"}) {
			t.Fatalf("reading %d: %+v, %v", i, got, err)
		}
	}
	if _, err := x.ExtractPrompt(ctx, orgWithLLM, "lawyers"); err != nil {
		t.Fatal(err)
	}
	if n := len(cd.sent()); n != 3 {
		t.Fatalf("%d calls, want 3 (the failure, accountants once, lawyers once)", n)
	}
}
