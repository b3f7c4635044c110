package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"net/url"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/firmoapi/firmo/shared/account"
	"github.com/firmoapi/firmo/shared/app/allapp"
	"github.com/firmoapi/firmo/shared/config"
	"github.com/firmoapi/firmo/shared/icpfit"
	"github.com/firmoapi/firmo/shared/integration"
)

// verdictServer speaks the OpenAI chat-completions wire format and answers every
// verdict call with a JSON Fit/Confidence/Reasoning object: Yes when the company data
// names B2B as its first business model. It records what it was sent.
type verdictServer struct {
	*httptest.Server
	mu   sync.Mutex
	reqs []verdictRequest
}

type verdictRequest struct {
	Model    string `json:"model"`
	Messages []struct {
		Role    string `json:"role"`
		Content string `json:"content"`
	} `json:"messages"`
	ResponseFormat *struct {
		Type string `json:"type"`
	} `json:"response_format"`
	auth string
}

func newVerdictServer(t *testing.T) *verdictServer {
	vs := &verdictServer{}
	vs.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodPost || r.URL.Path != "/v1/chat/completions" {
			http.Error(w, `{"error":{"message":"not found","type":"invalid_request_error"}}`, http.StatusNotFound)
			return
		}
		var req verdictRequest
		if err := json.NewDecoder(r.Body).Decode(&req); err != nil {
			http.Error(w, `{"error":{"message":"bad json","type":"invalid_request_error"}}`, http.StatusBadRequest)
			return
		}
		req.auth = r.Header.Get("Authorization")
		vs.mu.Lock()
		vs.reqs = append(vs.reqs, req)
		vs.mu.Unlock()
		user := ""
		for _, m := range req.Messages {
			if m.Role == "user" {
				user = m.Content
			}
		}
		fit := "No"
		if strings.Contains(user, "\nBusiness model: B2B") {
			fit = "Yes"
		}
		content, _ := json.Marshal(map[string]string{"Fit": fit, "Confidence": "high", "Reasoning": "Decided by the business model."})
		resp := map[string]any{
			"id": "chatcmpl-icp", "object": "chat.completion", "created": time.Now().Unix(), "model": req.Model,
			"choices": []any{map[string]any{"index": 0, "finish_reason": "stop", "message": map[string]any{"role": "assistant", "content": string(content)}}},
			"usage":   map[string]any{"prompt_tokens": len(strings.Fields(user)), "completion_tokens": 12, "total_tokens": len(strings.Fields(user)) + 12},
		}
		w.Header().Set("Content-Type", "application/json")
		json.NewEncoder(w).Encode(resp)
	}))
	t.Cleanup(vs.Close)
	return vs
}

// TestICPTrainWithLLM runs `firmo icp-train` against an organisation's custom LLM
// integration pointed at a local OpenAI-compatible server, over a small demo world:
// every pair is asked once, in the verdict shape, and the model file it writes loads
// and scores.
func TestICPTrainWithLLM(t *testing.T) {
	srv := newVerdictServer(t)
	u, _ := url.Parse(srv.URL)
	data := t.TempDir()
	vars := map[string]string{"FIRMO_DATA_DIR": data, "FIRMO_LOG_LEVEL": "warn", "FIRMO_DNS_RESOLVER": "127.0.0.1:9", "FIRMO_FETCH_ALLOW_HOSTS": u.Host}
	getenv := func(k string) string { return vars[k] }

	ctx := context.Background()
	cfg, err := config.Load(getenv)
	if err != nil {
		t.Fatal(err)
	}
	a, err := allapp.New(ctx, cfg, slog.New(slog.NewTextHandler(io.Discard, nil)))
	if err != nil {
		t.Fatal(err)
	}
	org, _, err := a.Accounts.EnsureOrg(ctx, "icp trainers", account.PlanPro)
	if err != nil {
		t.Fatal(err)
	}
	user, err := a.Accounts.CreateUser(ctx, org.ID, "admin@icp.example", account.RoleAdmin, "")
	if err != nil {
		t.Fatal(err)
	}
	base := srv.URL + "/v1"
	in, err := a.Integrations.Create(ctx, account.Principal{Org: org, User: user}, integration.Input{Name: "local", Provider: "custom", APIKey: "sk-icp-test", Model: "verdict-model", BaseURL: &base})
	if err != nil {
		t.Fatal(err)
	}
	a.Close()

	out := filepath.Join(t.TempDir(), "model.json")
	var stdout, stderr bytes.Buffer
	code := Run(ctx, Env{Args: []string{"icp-train", "--org", org.ID, "--integration", in.ID, "--companies", "30", "--icps", "2", "--concurrency", "3", "--version", "llm-test-1", "--out", out},
		Stdout: &stdout, Stderr: &stderr, Getenv: getenv})
	if code != 0 {
		t.Fatalf("icp-train = %d\n%s%s", code, stdout.String(), stderr.String())
	}
	if !strings.Contains(stdout.String(), "60 pairs") && !strings.Contains(stdout.String(), "LLM: 60 calls") {
		t.Errorf("summary does not count the 60 verdicts:\n%s", stdout.String())
	}
	reqs := srv.reqs
	if len(reqs) != 60 {
		t.Fatalf("%d verdict calls, want one per pair (60)", len(reqs))
	}
	yes := 0
	for _, r := range reqs {
		if r.Model != "verdict-model" || r.auth != "Bearer sk-icp-test" || r.ResponseFormat == nil || r.ResponseFormat.Type != "json_object" || len(r.Messages) != 2 {
			t.Fatalf("request %+v: want the integration's model and key, a JSON answer, a system and a user message", r)
		}
		sys, usr := r.Messages[0].Content, r.Messages[1].Content
		for _, want := range []string{"Mandatory:", "Reject if:", `"Fit", "Confidence", "Reasoning"`} {
			if !strings.Contains(sys+usr, want) {
				t.Fatalf("prompt lacks %q:\n%s\n%s", want, sys, usr)
			}
		}
		if !strings.Contains(usr, "Company data:\nName: ") {
			t.Fatalf("user message without the company's data:\n%s", usr)
		}
		if strings.Contains(usr, "\nBusiness model: B2B") {
			yes++
		}
	}
	if yes == 0 || yes == len(reqs) {
		t.Fatalf("%d of %d verdicts were Yes: the run did not see both answers", yes, len(reqs))
	}

	m, err := icpfit.NewLoader(out).Model()
	if err != nil {
		t.Fatalf("the trained model does not load: %v", err)
	}
	f := m.File()
	if m.Version() != "llm-test-1" || f.Labels != "llm:custom/verdict-model" || f.HeldOut == nil || f.HeldOut.Pairs == 0 || !strings.Contains(f.TrainedOn, "60 (ICP, company) pairs") {
		t.Fatalf("model file: version %q, labels %q, held out %+v, trained on %q", m.Version(), f.Labels, f.HeldOut, f.TrainedOn)
	}
	c, _ := icpfit.ParseCriteria("Mandatory:\n- B2B\nReject if:\n- agency\nNice-to-have:\n- uses Stripe\n")
	v := m.Score(c, icpfit.Company{Domain: "acme.de", Country: "DE", BusinessModel: "B2B"})
	if v.Score < 0 || v.Score > 1 || v.Band != icpfit.BandOf(v.Score) || v.Fit != (v.Score >= 0.5) || len(v.Criteria) != 3 {
		t.Fatalf("verdict of the trained model: %+v", v)
	}
}

func TestICPTrainUsage(t *testing.T) {
	for _, args := range [][]string{{"icp-train"}, {"icp-train", "--truth", "--companies", "5"}, {"icp-train", "--truth", "--as-of", "soon"}, {"icp-train", "--truth", "extra"}} {
		r := firmo(t, t.TempDir(), args...)
		if r.code != 2 {
			t.Errorf("%v = %d, want 2 (usage)\n%s", args, r.code, r.stderr)
		}
	}
}
