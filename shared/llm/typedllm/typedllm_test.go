package typedllm

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/firmoapi/firmo/shared/llm"
)

// server answers like an OpenAI-compatible endpoint with logprobs: top maps each top
// token to its probability.
type server struct {
	bodies []map[string]any
	top    map[string]float64
	text   string
}

func (s *server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	body, _ := io.ReadAll(r.Body)
	var m map[string]any
	_ = json.Unmarshal(body, &m)
	s.bodies = append(s.bodies, m)
	var tops []string
	for tok, p := range s.top {
		tops = append(tops, fmt.Sprintf(`{"token":%q,"logprob":%v,"bytes":null}`, tok, math.Log(p)))
	}
	w.Header().Set("Content-Type", "application/json")
	fmt.Fprintf(w, `{"id":"x","object":"chat.completion","created":1,"model":"judge-1",
	 "choices":[{"index":0,"message":{"role":"assistant","content":%q},"finish_reason":"length",
	   "logprobs":{"content":[{"token":%q,"logprob":-0.1,"bytes":null,"top_logprobs":[%s]}],"refusal":null}}],
	 "usage":{"prompt_tokens":50,"completion_tokens":1,"total_tokens":51}}`, s.text, s.text, strings.Join(tops, ","))
}

func judge(t *testing.T, s *server) *Judge {
	t.Helper()
	srv := httptest.NewServer(s)
	t.Cleanup(srv.Close)
	return New(Options{APIKey: "k", BaseURL: srv.URL + "/v1", Model: "judge-1", HTTPClient: llm.GuardedHTTPClient([]string{"127.0.0.1"}, 10*time.Second)})
}

func TestJudgments(t *testing.T) {
	cases := []struct {
		name     string
		req      llm.JudgeRequest
		top      map[string]float64
		text     string
		want     string
		wantConf float64
	}{
		{"yes", llm.JudgeRequest{Kind: llm.KindYesNo, Question: "Is it B2B?"}, map[string]float64{"Yes": 0.8, "No": 0.15, "The": 0.05}, "Yes", "Yes", 0.8 / 0.95},
		{"no with variants", llm.JudgeRequest{Kind: llm.KindYesNo, Question: "Is it B2B?"}, map[string]float64{"No": 0.5, " no": 0.2, "Yes": 0.3}, "No", "No", 0.7},
		{"choice", llm.JudgeRequest{Kind: llm.KindChoice, Question: "Model?", Options: []string{"SaaS", "Agency", "Retail"}}, map[string]float64{"B": 0.6, "A": 0.3, "C": 0.1}, "B", "Agency", 0.6},
		{"scale between levels", llm.JudgeRequest{Kind: llm.KindScale, Question: "Size?", Options: []string{"small", "medium", "large"}}, map[string]float64{"A": 0.5, "B": 0.5}, "A", "0.5", 0.5},
		{"scale top level", llm.JudgeRequest{Kind: llm.KindScale, Question: "Size?", Options: []string{"small", "medium", "large"}}, map[string]float64{"C": 0.9, "B": 0.1}, "C", "1.9", 0.9},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			s := &server{top: c.top, text: c.text}
			got, err := judge(t, s).Judge(context.Background(), c.req)
			if err != nil {
				t.Fatal(err)
			}
			if got.Value != c.want || math.Abs(got.Confidence-c.wantConf) > 1e-6 {
				t.Fatalf("got %+v, want %s at %.4f", got, c.want, c.wantConf)
			}
			b := s.bodies[0]
			if b["logprobs"] != true || b["top_logprobs"] != float64(5) || b["max_tokens"] != float64(1) || b["model"] != "judge-1" {
				t.Fatalf("request = %v", b)
			}
			msgs := b["messages"].([]any)
			sys := msgs[0].(map[string]any)["content"].(string)
			user := msgs[1].(map[string]any)["content"].(string)
			if !strings.Contains(user, c.req.Question) {
				t.Fatalf("user message %q lacks the question", user)
			}
			for i, o := range c.req.Options {
				if want := fmt.Sprintf("%c. %s", 'A'+i, o); !strings.Contains(sys, want) {
					t.Fatalf("system message lacks %q: %s", want, sys)
				}
			}
		})
	}
}

func TestProbabilitiesMissingLabelsAndTemperature(t *testing.T) {
	labels := []string{"A", "B", "C", "D"}
	// A and B listed; C and D share what is left (0.1), capped by the smallest listed (0.3).
	p, ok := Probabilities(labels, map[string]float64{"A": 0.6, "B": 0.3}, 1)
	if !ok || math.Abs(p[2]-0.05) > 1e-9 || math.Abs(p[0]-0.6) > 1e-9 {
		t.Fatalf("p = %v", p)
	}
	sharp, _ := Probabilities([]string{"Yes", "No"}, map[string]float64{"Yes": 0.7, "No": 0.3}, 0.5)
	if sharp[0] <= 0.7 {
		t.Fatalf("temperature 0.5 should sharpen: %v", sharp)
	}
	if _, ok := Probabilities(labels, map[string]float64{"The": 1}, 1); ok {
		t.Fatal("no allowed label, yet ok")
	}
}

func TestContextInPromptAndBadRequests(t *testing.T) {
	s := &server{top: map[string]float64{"Yes": 1}, text: "Yes"}
	j := judge(t, s)
	if _, err := j.Judge(context.Background(), llm.JudgeRequest{Kind: llm.KindYesNo, Question: "Q?", Context: "acme.com sells software"}); err != nil {
		t.Fatal(err)
	}
	if user := s.bodies[0]["messages"].([]any)[1].(map[string]any)["content"].(string); !strings.Contains(user, "Context:\nacme.com sells software") {
		t.Fatalf("user message = %q", user)
	}
	for _, req := range []llm.JudgeRequest{{Kind: "maybe"}, {Kind: llm.KindChoice, Options: []string{"only"}}} {
		if _, err := j.Judge(context.Background(), req); err == nil {
			t.Fatalf("%+v accepted", req)
		}
	}
}
