package allapp_test

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	validator "github.com/pb33f/libopenapi-validator"

	"github.com/firmoapi/firmo/shared/account"
	"github.com/firmoapi/firmo/shared/billing"
	"github.com/firmoapi/firmo/shared/company"
	"github.com/firmoapi/firmo/shared/world"
)

// icpChat is a local server speaking the chat-completions wire format that answers an
// ICP verdict as the JSON object the request asks for, with a usage block.
type icpChat struct {
	*httptest.Server
	calls atomic.Int64
	delay time.Duration
}

func newICPChat(t *testing.T) *icpChat {
	s := &icpChat{}
	s.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/v1/chat/completions" {
			http.NotFound(w, r)
			return
		}
		var req struct {
			Model string `json:"model"`
		}
		json.NewDecoder(r.Body).Decode(&req)
		s.calls.Add(1)
		time.Sleep(s.delay)
		content, _ := json.Marshal(map[string]string{"Fit": "Yes", "Confidence": "High", "Reasoning": "It sells to businesses. It is large enough. It is in the US."})
		w.Header().Set("Content-Type", "application/json")
		fmt.Fprintf(w, `{"id":"c1","object":"chat.completion","created":1,"model":%q,"choices":[{"index":0,"finish_reason":"stop","message":{"role":"assistant","content":%q}}],"usage":{"prompt_tokens":100,"completion_tokens":20,"total_tokens":120}}`,
			req.Model, content)
	}))
	t.Cleanup(s.Close)
	return s
}

// matchesReference validates one answer against the API reference.
func matchesReference(t *testing.T, v validator.Validator, method, path, body string, a answer) {
	t.Helper()
	req, _ := http.NewRequest(method, "http://firmo.test"+path, strings.NewReader(body))
	if body != "" {
		req.Header.Set("Content-Type", "application/json")
	}
	resp := &http.Response{StatusCode: a.status, Header: a.header, Body: io.NopCloser(strings.NewReader(a.raw)), Request: req}
	if ok, errs := v.ValidateHttpResponse(req, resp); !ok {
		for _, err := range errs {
			t.Errorf("%s %s: %d answer does not match the reference: %s: %s", method, path, a.status, err.Message, err.Reason)
		}
	}
}

const e2eICP = "Mid-sized B2B companies.\n\nMandatory:\n- B2B companies\n\nReject if:\n- fewer than 10 employees\n\nNice-to-have:\n- based in the United States\n"

// pollTask polls GET /v1/gen/status until the task completes.
func pollTask(t *testing.T, e *env, taskID string) answer {
	t.Helper()
	for deadline := time.Now().Add(2 * time.Minute); ; time.Sleep(20 * time.Millisecond) {
		a := e.do(t, "GET", "/v1/gen/status/"+url.PathEscape(taskID), key(e.demoKey), "")
		if a.status != 200 {
			t.Fatalf("status: %d %s", a.status, a.raw)
		}
		if a.body["status"] == "completed" {
			return a
		}
		if time.Now().After(deadline) {
			t.Fatalf("not completed in time: %.300s", a.raw)
		}
	}
}

// TestICPValidationEndToEnd: POST /v1/validate/icp and POST /v1/gen/process with
// native-icp over the seeded demo world, through the whole local composition: submit
// and status answers match the API reference, another organisation's task is a 404,
// every known domain has a verdict consistent with its score, an unknown one says it
// has none, both endpoints give the same scores, and only the first run charges; then
// an LLM run against a local chat-completions server, a cancel, and the request errors.
func TestICPValidationEndToEnd(t *testing.T) {
	chat := newICPChat(t)
	e := newEnv(t, map[string]string{"FIRMO_FETCH_ALLOW_HOSTS": strings.TrimPrefix(chat.URL, "http://")})
	ctx := context.Background()
	opts := world.Options{Seed: 18, Companies: 24, AsOf: time.Now()}.Normalized()
	if _, err := e.app.SeedWorld(ctx, opts, company.LoadOptions{}, nil); err != nil {
		t.Fatal(err)
	}
	if err := e.app.StartTasks(ctx); err != nil {
		t.Fatal(err)
	}
	ref := referenceValidator(t)
	k := key(e.demoKey)
	w := world.New(opts)
	var doms []string
	for i := range 20 {
		doms = append(doms, w.Domain(i))
	}
	const unknown = "not-in-the-demo-world.com"
	body, _ := json.Marshal(map[string]any{"icp_text": e2eICP, "domains": append(doms, unknown), "integration_id": "native-icp"})
	before := balance(t, e)

	sub := e.do(t, "POST", "/v1/validate/icp", k, string(body))
	matchesReference(t, ref, "POST", "/v1/validate/icp", string(body), sub)
	cols, _ := json.Marshal(sub.body["column_name"])
	if sub.status != 200 || string(cols) != `["ICP Fit","ICP Score","Reasoning"]` || sub.body["total_domains"] != float64(21) {
		t.Fatalf("submit: %d %s", sub.status, sub.raw)
	}
	taskID := sub.body["task_id"].(string)
	other := key(otherOrg(t, e.app))
	if a := e.do(t, "GET", "/v1/gen/status/"+taskID, other, ""); a.status != 404 {
		t.Errorf("another organisation's status: %d, want 404", a.status)
	}
	if a := e.do(t, "DELETE", "/v1/gen/cancel/"+taskID, other, ""); a.status != 404 {
		t.Errorf("another organisation's cancel: %d, want 404", a.status)
	}
	done := pollTask(t, e, taskID)
	matchesReference(t, ref, "GET", "/v1/gen/status/"+taskID, "", done)
	results, _ := done.body["results"].(map[string]any)
	if len(results) != 21 {
		t.Fatalf("%d results, want 21", len(results))
	}
	scores := map[string]string{}
	yes := 0
	for _, d := range doms {
		row, _ := results[d].(map[string]any)
		s, _ := row["ICP Score"].(string)
		score, err := strconv.ParseFloat(s, 64)
		if err != nil || len(s) != 4 {
			t.Fatalf("%s: ICP Score %v: %v", d, row["ICP Score"], row)
		}
		scores[d] = s
		if want := map[bool]string{true: "Yes", false: "No"}[score >= 0.5]; row["ICP Fit"] != want {
			t.Errorf("%s: ICP Fit %v with score %s", d, row["ICP Fit"], s)
		}
		if row["ICP Fit"] == "Yes" {
			yes++
		}
		reason, _ := row["Reasoning"].(string)
		if !strings.HasPrefix(reason, "High confidence") && !strings.HasPrefix(reason, "Medium confidence") && !strings.HasPrefix(reason, "Low confidence - ") {
			t.Errorf("%s: Reasoning %q does not start with a band", d, reason)
		}
		if ev, _ := row["evidence"].([]any); len(ev) != 3 {
			t.Errorf("%s: evidence %v, want the three criteria", d, row["evidence"])
		}
	}
	ghost, _ := results[unknown].(map[string]any)
	if s, _ := ghost["ICP Fit"].(string); !strings.HasPrefix(s, "Error: ") {
		t.Errorf("unknown domain row %v, want Error cells", ghost)
	}
	charged := before - balance(t, e)
	if want := billing.Price(account.PlanEnterprise, billing.KindCompany, len(doms)); charged != want {
		t.Errorf("charged %d credits, want %d (the known domains at the plan's rate, rounded up once)", charged, want)
	}
	t.Logf("native-icp over %d demo-world companies: %d fit; scores %v", len(doms), yes, scores)

	// The same run through POST /v1/gen/process: the same verdicts, nothing charged again.
	pbody, _ := json.Marshal(map[string]any{"query": e2eICP, "domains": doms, "integration_id": "native-icp"})
	psub := e.do(t, "POST", "/v1/gen/process", k, string(pbody))
	if psub.status != 200 {
		t.Fatalf("process submit: %d %s", psub.status, psub.raw)
	}
	pdone := pollTask(t, e, psub.body["task_id"].(string))
	presults, _ := pdone.body["results"].(map[string]any)
	for _, d := range doms {
		if row, _ := presults[d].(map[string]any); row["ICP Score"] != scores[d] {
			t.Errorf("%s: /v1/gen/process scored %v, /v1/validate/icp %s", d, row["ICP Score"], scores[d])
		}
	}
	if again := before - balance(t, e); again != charged {
		t.Errorf("the second run charged %d more credits", again-charged)
	}

	// An LLM run against the local chat-completions server.
	integ := e.do(t, "POST", "/v1/llm-providers/config", k, fmt.Sprintf(`{"integration_name":"icp","provider":"custom","api_key":"sk-icp-0123456789abcdef","model_name":"test-model","base_url":%q}`, chat.URL+"/v1"))
	if integ.status != 200 && integ.status != 201 {
		t.Fatalf("integration: %d %s", integ.status, integ.raw)
	}
	lbody, _ := json.Marshal(map[string]any{"icp_text": e2eICP, "domains": doms[:4], "integration_id": integ.body["integration_id"], "context_mode": "profile"})
	lsub := e.do(t, "POST", "/v1/validate/icp", k, string(lbody))
	matchesReference(t, ref, "POST", "/v1/validate/icp", string(lbody), lsub)
	if cols, _ := json.Marshal(lsub.body["column_name"]); lsub.status != 200 || string(cols) != `["Fit","Confidence","Reasoning"]` {
		t.Fatalf("LLM submit: %d %s", lsub.status, lsub.raw)
	}
	ldone := pollTask(t, e, lsub.body["task_id"].(string))
	matchesReference(t, ref, "GET", "/v1/gen/status/x", "", ldone)
	lresults, _ := ldone.body["results"].(map[string]any)
	// The test model answers Yes with high confidence for every company; the native
	// reject rule turns it into No where the company's record matches a reject line
	// (the native run's evidence says which), naming the line.
	overridden := 0
	for _, d := range doms[:4] {
		row, _ := lresults[d].(map[string]any)
		matched := ""
		nrow, _ := results[d].(map[string]any)
		ev, _ := nrow["evidence"].([]any)
		for _, e := range ev {
			if c, _ := e.(map[string]any); c["section"] == "Reject if" && c["met"] == true {
				matched = c["criterion"].(string)
			}
		}
		if matched != "" {
			overridden++
			reason, _ := row["Reasoning"].(string)
			if row["Fit"] != "No" || row["Confidence"] != "low" || !strings.HasPrefix(reason, fmt.Sprintf("Company record: Reject if %q matched", matched)) {
				t.Errorf("%s: %v, want No beside the matched reject line %q", d, row, matched)
			}
			continue
		}
		if row["Fit"] != "Yes" || row["Confidence"] != "high" || row["Reasoning"] != "It sells to businesses. It is large enough." {
			t.Errorf("%s: %v", d, row)
		}
	}
	t.Logf("LLM run: %d of 4 Yes answers overridden by a matched reject line", overridden)
	meta, _ := ldone.body["cost_metadata"].(map[string]any)
	if m, _ := meta["custom/test-model"].(map[string]any); m["calls"] != float64(4) || m["prompt_tokens"] != float64(400) || m["completion_tokens"] != float64(80) {
		t.Errorf("cost_metadata %v", meta)
	}

	// Cancel works as for other tasks.
	chat.delay = 50 * time.Millisecond
	cbody, _ := json.Marshal(map[string]any{"icp_text": e2eICP, "domains": doms, "integration_id": integ.body["integration_id"], "context_mode": "domain"})
	csub := e.do(t, "POST", "/v1/validate/icp", k, string(cbody))
	c := e.do(t, "DELETE", "/v1/gen/cancel/"+csub.body["task_id"].(string), k, "")
	if c.status != 200 || c.body["success"] != true || (c.body["status"] != "cancelling" && c.body["status"] != "cancelled") {
		t.Errorf("cancel: %d %s", c.status, c.raw)
	}

	for _, tc := range []struct {
		body   string
		status int
		code   string
		field  string
	}{
		{`{"domains":["a.com"]}`, 422, "validation_error", "icp_text"},
		{`{"icp_text":"","domains":["a.com"]}`, 422, "validation_error", "icp_text"},
		{`{"icp_text":"SaaS","domains":[]}`, 422, "validation_error", "domains"},
		{`{"icp_text":"SaaS","domains":["a.com","not a domain"]}`, 422, "validation_error", "domains[1]"},
		{`{"icp_text":"SaaS","domains":["a.com"],"context_mode":"full"}`, 422, "validation_error", "context_mode"},
		{`{"icp_text":"SaaS","domains":["a.com"],"web_search":"yes"}`, 422, "validation_error", "web_search"},
		{`{"icp_text":"SaaS","domains":["a.com"],"search_context_size":"low"}`, 422, "validation_error", "search_context_size"},
		{`{"icp_text":"SaaS","domains":["a.com"],"integration_id":"gpt-4o"}`, 422, "validation_error", "integration_id"},
		{`{"icp_text":"Mandatory: SaaS","domains":["a.com"],"integration_id":"native-icp"}`, 400, "icp_headings_missing", "icp_text"},
		{`{"query":"Mandatory: SaaS","domains":["a.com"],"integration_id":"native-icp"}`, 422, "validation_error", "query"},
	} {
		a := e.do(t, "POST", "/v1/validate/icp", k, tc.body)
		checkError(t, a, tc.status, tc.code)
		matchesReference(t, ref, "POST", "/v1/validate/icp", tc.body, a)
		if f, _ := a.body["error"].(map[string]any)["field"].(string); f != tc.field {
			t.Errorf("%s: field %q, want %q", tc.body, f, tc.field)
		}
	}
	hb := e.do(t, "POST", "/v1/gen/process", k, `{"query":"Mandatory: x","domains":["a.com"],"integration_id":"native-icp"}`)
	checkError(t, hb, 400, "icp_headings_missing")
}
