package contactgen

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"sort"
	"strings"
	"sync"
	"testing"

	"github.com/firmoapi/firmo/shared/integration"
	"github.com/firmoapi/firmo/shared/llm"
	"github.com/firmoapi/firmo/shared/llm/openaillm"
)

// chatServer speaks the OpenAI chat-completions wire format. It records every request
// and answers with answer (the message content, or an HTTP status to fail with), with
// a usage block of one prompt token per word of the user message and 9 completion
// tokens.
type chatServer struct {
	*httptest.Server
	mu       sync.Mutex
	requests []chatRequest
	answer   func(chatRequest) (content string, status int)
}

type chatRequest struct {
	Model    string `json:"model"`
	Messages []struct {
		Role    string `json:"role"`
		Content string `json:"content"`
	} `json:"messages"`
	ResponseFormat *struct {
		Type       string `json:"type"`
		JSONSchema struct {
			Name   string         `json:"name"`
			Strict bool           `json:"strict"`
			Schema map[string]any `json:"schema"`
		} `json:"json_schema"`
	} `json:"response_format"`
}

func (r chatRequest) message(role string) string {
	for _, m := range r.Messages {
		if m.Role == role {
			return m.Content
		}
	}
	return ""
}

// schema is the name of the JSON schema the request asked for ("" for none).
func (r chatRequest) schema() string {
	if r.ResponseFormat == nil || r.ResponseFormat.Type != "json_schema" {
		return ""
	}
	return r.ResponseFormat.JSONSchema.Name
}

func newChatServer(t *testing.T, answer func(chatRequest) (string, int)) *chatServer {
	cs := &chatServer{answer: answer}
	cs.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/v1/chat/completions" {
			http.NotFound(w, r)
			return
		}
		var req chatRequest
		if err := json.NewDecoder(r.Body).Decode(&req); err != nil {
			http.Error(w, `{"error":{"message":"bad json","type":"invalid_request_error"}}`, http.StatusBadRequest)
			return
		}
		cs.mu.Lock()
		cs.requests = append(cs.requests, req)
		cs.mu.Unlock()
		content, status := cs.answer(req)
		w.Header().Set("Content-Type", "application/json")
		if status != 0 {
			w.WriteHeader(status)
			fmt.Fprintf(w, `{"error":{"message":"%s","type":"server_error"}}`, content)
			return
		}
		n := len(strings.Fields(req.message("user")))
		json.NewEncoder(w).Encode(map[string]any{"id": "chatcmpl-1", "object": "chat.completion", "created": 1, "model": req.Model,
			"choices": []any{map[string]any{"index": 0, "finish_reason": "stop", "message": map[string]any{"role": "assistant", "content": content}}},
			"usage":   map[string]any{"prompt_tokens": n, "completion_tokens": 9, "total_tokens": n + 9}})
	}))
	t.Cleanup(cs.Close)
	return cs
}

func (cs *chatServer) all() []chatRequest {
	cs.mu.Lock()
	defer cs.mu.Unlock()
	return append([]chatRequest(nil), cs.requests...)
}

// chatIntegrations resolves every integration to the real openaillm adapter ("custom")
// pointed at the local server.
type chatIntegrations struct{ c llm.Client }

func (c chatIntegrations) Resolve(context.Context, string, string) (integration.Integration, llm.Client, error) {
	return integration.Integration{ID: testIntegration, Provider: "custom", Model: "test-model"}, c.c, nil
}

const testIntegration = "11111111-1111-1111-1111-111111111111"

func chatClient(cs *chatServer) llm.Client {
	return openaillm.New(openaillm.Options{Provider: "custom", APIKey: "sk-local", BaseURL: cs.URL + "/v1"})
}

// everyone is a model that lists everyone it has heard of, whether or not the pages
// it was given show them: the test company's people, the founder only its profile
// names, and someone invented. Titles are judged by sales words.
func everyone(req chatRequest) (string, int) {
	switch req.schema() {
	case "contacts":
		rows := []map[string]any{
			{"name": "Eva Schmidt", "title": "Geschäftsführerin", "email": nil, "linkedin_url": nil, "source_url": "https://acme.test/"},
			{"name": "Anna Müller", "title": "Vertriebsleiterin", "email": "a.mueller@acme.test", "linkedin_url": "https://www.linkedin.com/in/invented", "source_url": "https://acme.test/team"},
			{"name": "Thomas Koch", "title": "Softwareentwickler", "email": "thomas@acme.test", "linkedin_url": nil, "source_url": "https://acme.test/team"},
			{"name": "Jonas Weber", "title": "Chief Revenue Officer", "email": nil, "linkedin_url": nil, "source_url": "https://acme.test/presse/vorstand"},
			{"name": "Greta Gründerin", "title": "Founder", "email": nil, "linkedin_url": nil, "source_url": "https://acme.test/"},
			{"name": "Invented Person", "title": "CEO", "email": nil, "linkedin_url": nil, "source_url": "https://acme.test/"},
		}
		b, _ := json.Marshal(map[string]any{"contacts": rows})
		return string(b), 0
	case "title_validation":
		out := map[string]any{}
		for t := range req.ResponseFormat.JSONSchema.Schema["properties"].(map[string]any) {
			v := "no_match"
			if strings.Contains(t, "Vertrieb") || strings.Contains(t, "Revenue") {
				v = "match"
			}
			out[t] = map[string]string{"reason": "judged on " + t, "verdict": v}
		}
		b, _ := json.Marshal(out)
		return string(b), 0
	}
	return "unexpected", http.StatusBadRequest
}

func llmRig(t *testing.T, answer func(chatRequest) (string, int)) (*Service, *chatServer, *site) {
	cs := newChatServer(t, answer)
	web := newSite(t, "acme.test", acmeSite)
	s, _ := newRig(t, Deps{Integrations: chatIntegrations{chatClient(cs)}, Searchers: &acmeSearch{}, Companies: &acmeCompanies{}, Fetch: web})
	return s, cs, web
}

func llmParams(mode string) params {
	return params{ICP: "Sales leaders", Mode: mode, Engine: EngineLLM, IntegrationID: testIntegration, MaxContacts: 10, SearchQueries: 1}
}

func rowsByName(out map[string]any) map[string]map[string]any {
	m := map[string]map[string]any{}
	for _, r := range out["contacts"].([]any) {
		m[r.(map[string]any)["name"].(string)] = r.(map[string]any)
	}
	return m
}

// TestLLMContextModes: each context_mode changes what the extraction call is sent
// (the profile in website and profile modes, the crawled pages in website mode only),
// and in every mode a row naming someone no fetched page shows is dropped and counted
// in the warnings, whatever the model says.
func TestLLMContextModes(t *testing.T) {
	tests := []struct {
		mode          string
		want, not     []string
		fetched, rows []string
		dropped       int
	}{
		{ModeWebsite, []string{"Company profile", "Name: " + acmeName, "=== Page https://acme.test/ ===", "=== Page https://acme.test/team ===", "Eva Schmidt", "Jonas Weber"}, nil,
			[]string{"/", "/about", "/presse/vorstand", "/team"}, []string{"Anna Müller", "Eva Schmidt", "Jonas Weber", "Thomas Koch"}, 2},
		{ModeProfile, []string{"Company profile", "Name: " + acmeName, "Location: Stuttgart, DE", "=== Page https://acme.test/team ===", "Jonas Weber"}, []string{"=== Page https://acme.test/ ===", "Eva Schmidt"},
			[]string{"/presse/vorstand", "/team"}, []string{"Anna Müller", "Jonas Weber", "Thomas Koch"}, 3},
		{ModeDomain, []string{"Company domain: acme.test", "=== Page https://acme.test/presse/vorstand ===", "Jonas Weber"}, []string{"Company profile", "Stuttgart", "Anna Müller", "=== Page https://acme.test/ ==="},
			[]string{"/presse/vorstand"}, []string{"Jonas Weber"}, 5},
	}
	for _, tc := range tests {
		t.Run(tc.mode, func(t *testing.T) {
			s, cs, web := llmRig(t, everyone)
			out, res := run(t, s, "acme.test", llmParams(tc.mode))
			reqs := cs.all()
			if len(reqs) != 2 || reqs[0].schema() != "contacts" || reqs[1].schema() != "title_validation" {
				t.Fatalf("calls %+v: want the extraction call, then the validation call", reqs)
			}
			prompt := reqs[0].message("user")
			for _, w := range tc.want {
				if !strings.Contains(prompt, w) {
					t.Errorf("extraction prompt lacks %q:\n%s", w, prompt)
				}
			}
			for _, w := range tc.not {
				if strings.Contains(prompt, w) {
					t.Errorf("extraction prompt has %q:\n%s", w, prompt)
				}
			}
			if got := web.fetched(); fmt.Sprint(got) != fmt.Sprint(tc.fetched) {
				t.Errorf("fetched %v, want %v", got, tc.fetched)
			}
			if got := names(t, out); fmt.Sprint(got) != fmt.Sprint(tc.rows) {
				t.Errorf("rows %v, want %v (the founder only the profile names, and the invented person, never)", got, tc.rows)
			}
			if w := fmt.Sprintf("%d rows the model gave named people who occur on no page read", tc.dropped); !strings.Contains(fmt.Sprint(res.Warnings), w) {
				t.Errorf("warnings %q, want %q", res.Warnings, w)
			}
		})
	}
}

// TestLLMTitleValidation: the extraction call and the batched validation call go out
// as chat completions with response_format json_schema; match_status comes from the
// second; cost_metadata counts both calls' tokens.
func TestLLMTitleValidation(t *testing.T) {
	s, cs, _ := llmRig(t, everyone)
	out, res := run(t, s, "acme.test", llmParams(ModeWebsite))
	reqs := cs.all()
	if len(reqs) != 2 {
		t.Fatalf("%d calls, want 2", len(reqs))
	}
	ex, va := reqs[0], reqs[1]
	if !ex.ResponseFormat.JSONSchema.Strict || ex.ResponseFormat.JSONSchema.Schema["required"].([]any)[0] != "contacts" || strings.Contains(ex.message("system"), "persona described") {
		t.Errorf("extraction call: %+v", ex.ResponseFormat)
	}
	var sent []string
	json.Unmarshal([]byte(va.message("user")[strings.Index(va.message("user"), "["):]), &sent)
	sort.Strings(sent)
	if want := "[Chief Revenue Officer Geschäftsführerin Softwareentwickler Vertriebsleiterin]"; fmt.Sprint(sent) != want {
		t.Errorf("titles sent %v, want the kept rows' %s (not the dropped rows')", sent, want)
	}
	req, _ := va.ResponseFormat.JSONSchema.Schema["required"].([]any)
	if !va.ResponseFormat.JSONSchema.Strict || len(req) != 4 || !strings.Contains(va.message("user"), "Persona: Sales leaders") || !strings.Contains(va.message("system"), "match") {
		t.Errorf("validation call: %+v\n%s", va.ResponseFormat, va.message("user"))
	}
	rows := rowsByName(out)
	want := map[string]string{"Anna Müller": MatchMatch, "Jonas Weber": MatchMatch, "Eva Schmidt": MatchNoMatch, "Thomas Koch": MatchNoMatch}
	for n, st := range want {
		if rows[n]["match_status"] != st {
			t.Errorf("%s: match_status %v, want %s", n, rows[n]["match_status"], st)
		}
	}
	if a := rows["Anna Müller"]; a["email"] != "a.mueller@acme.test" || a["linkedin_url"] != nil || a["department"] != "Sales - Marketing" {
		t.Errorf("anna %v: the shown email kept, the unshown LinkedIn URL removed", a)
	}
	if th := rows["Thomas Koch"]; th["email"] != nil {
		t.Errorf("thomas %v: the unshown email removed", th)
	}
	calls, tokens := 0, int64(0)
	for _, u := range res.Usage {
		calls += u.Calls
		if u.PromptTokens == nil || u.Provider != "custom" || u.Model != "test-model" {
			t.Fatalf("usage %+v", u)
		}
		tokens += *u.PromptTokens
	}
	if wantTok := len(strings.Fields(ex.message("user"))) + len(strings.Fields(va.message("user"))); calls != 2 || tokens != int64(wantTok) {
		t.Errorf("usage %d calls, %d prompt tokens; want 2 and %d", calls, tokens, wantTok)
	}
}

// TestLLMTitleValidationFails: when the validation call fails, or answers what was not
// asked for, no row is dropped: each keeps match_status unknown, with a warning.
func TestLLMTitleValidationFails(t *testing.T) {
	failures := map[string]func(chatRequest) (string, int){
		"server error": func(req chatRequest) (string, int) {
			if req.schema() == "title_validation" {
				return "overloaded", http.StatusInternalServerError
			}
			return everyone(req)
		},
		"not json": func(req chatRequest) (string, int) {
			if req.schema() == "title_validation" {
				return "They all look fine to me.", 0
			}
			return everyone(req)
		},
	}
	for name, answer := range failures {
		t.Run(name, func(t *testing.T) {
			s, cs, _ := llmRig(t, answer)
			out, res := run(t, s, "acme.test", llmParams(ModeWebsite))
			if got := names(t, out); len(got) != 4 {
				t.Fatalf("rows %v: all four kept", got)
			}
			for n, r := range rowsByName(out) {
				if r["match_status"] != MatchUnknown {
					t.Errorf("%s: match_status %v, want unknown", n, r["match_status"])
				}
			}
			if !strings.Contains(fmt.Sprint(res.Warnings), "title validation failed") {
				t.Errorf("warnings %q: want the failed validation", res.Warnings)
			}
			if len(cs.all()) != 2 || len(res.Usage) != 2 {
				t.Errorf("%d calls, usage %+v: both calls counted", len(cs.all()), res.Usage)
			}
		})
	}
	// A verdict left out: that row alone is unknown, with a warning.
	s, _, _ := llmRig(t, func(req chatRequest) (string, int) {
		if req.schema() == "title_validation" {
			return `{"Vertriebsleiterin":{"reason":"sales","verdict":"match"},"Softwareentwickler":{"reason":"no","verdict":"no_match"},"Chief Revenue Officer":{"reason":"sales","verdict":"match"}}`, 0
		}
		return everyone(req)
	})
	out, res := run(t, s, "acme.test", llmParams(ModeWebsite))
	rows := rowsByName(out)
	if rows["Eva Schmidt"]["match_status"] != MatchUnknown || rows["Anna Müller"]["match_status"] != MatchMatch || rows["Thomas Koch"]["match_status"] != MatchNoMatch {
		t.Errorf("rows %v", rows)
	}
	if !strings.Contains(fmt.Sprint(res.Warnings), "no verdict for 1 rows") {
		t.Errorf("warnings %q", res.Warnings)
	}
}
