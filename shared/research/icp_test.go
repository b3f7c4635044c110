package research

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/firmoapi/firmo/shared/apperr"
	"github.com/firmoapi/firmo/shared/billing"
	"github.com/firmoapi/firmo/shared/llm"
	"github.com/firmoapi/firmo/shared/task"
	"github.com/firmoapi/firmo/shared/websearch"
	"github.com/firmoapi/firmo/shared/websearch/bravesearch"
)

// braveServer speaks the Brave Search API's wire format (GET /res/v1/web/search?q=,
// X-Subscription-Token) and records every query.
type braveServer struct {
	*httptest.Server
	mu      sync.Mutex
	queries []string
	tokens  map[string]bool
}

func newBraveServer(t *testing.T) *braveServer {
	b := &braveServer{tokens: map[string]bool{}}
	b.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/res/v1/web/search" || r.Method != http.MethodGet {
			http.NotFound(w, r)
			return
		}
		q := r.URL.Query().Get("q")
		b.mu.Lock()
		b.queries = append(b.queries, q)
		b.tokens[r.Header.Get("X-Subscription-Token")] = true
		b.mu.Unlock()
		dom := hostIn.FindString(q)
		w.Header().Set("Content-Type", "application/json")
		res := map[string]any{"type": "search", "query": map[string]any{"original": q}, "web": map[string]any{"type": "search", "results": []any{
			map[string]any{"title": "About " + dom, "url": "https://" + dom + "/about", "description": "<strong>" + dom + "</strong> sells software to mid-sized firms.", "language": "en"},
		}}}
		json.NewEncoder(w).Encode(res)
	}))
	t.Cleanup(b.Close)
	return b
}

func (b *braveServer) all() []string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return append([]string(nil), b.queries...)
}

// braveProvider resolves every organisation's search provider to the real Brave
// adapter pointed at the local server.
type braveProvider struct{ base string }

func (p braveProvider) Resolve(ctx context.Context, org, id string) (websearch.Provider, websearch.Searcher, error) {
	return websearch.Provider{ID: searchID, Kind: websearch.KindBrave, Name: "brave"},
		bravesearch.New("brave-test-key", p.base+"/res/v1", llm.GuardedHTTPClient([]string{"127.0.0.1"}, 5*time.Second)), nil
}

const testICP = "We sell payroll software to growing tech companies.\n\nMandatory:\n- SaaS companies\n- 51-200 employees\n\nReject if:\n- marketing agencies\n\nNice-to-have:\n- based in the United States\n"

// icpAnswer answers fit for domains starting with "fit", with more than two sentences
// and the casing models use, and no fit otherwise.
func icpAnswer(_ chatRequest, dom string) string {
	if strings.HasPrefix(dom, "fit") {
		return `{"Fit":"yes","Confidence":"High","Reasoning":"It is a SaaS company with 51-200 staff. It is no agency. It may be in the US."}`
	}
	return "```json\n{\"Fit\":\"No\",\"Confidence\":\"medium confidence\",\"Reasoning\":\"  It is a marketing agency.  \"}\n```"
}

// TestICPValidationLLM is the LLM run end to end on the engine: the real OpenAI
// adapter against a local chat-completions server, web search through the real Brave
// adapter against a local server speaking Brave's format (two fixed queries per
// domain, counted there), the answers normalized into Fit, Confidence and Reasoning,
// cost_metadata from the server's usage blocks, and credits for net-new domains only.
func TestICPValidationLLM(t *testing.T) {
	r := newRig(t)
	brave := newBraveServer(t)
	r.svc.d.Searchers = braveProvider{base: brave.URL}
	r.chat.answer = icpAnswer
	ctx := billing.WithRoute(context.Background(), "POST /v1/validate/icp")
	var doms []string
	for i := range 6 {
		doms = append(doms, fmt.Sprintf("fit%d.com", i), fmt.Sprintf("miss%d.com", i))
	}
	sent := append(append([]string(nil), doms...), "https://WWW.FIT0.COM/pricing")
	before, _ := r.bill.Balance(ctx, r.org.ID)
	sub, err := r.svc.SubmitICP(ctx, r.org.ID, ICPRequest{ICPText: testICP, Domains: sent, WebSearch: true})
	if err != nil {
		t.Fatal(err)
	}
	if sub.TotalDomains != len(sent) || strings.Join(sub.ColumnName.Names, "|") != "Fit|Confidence|Reasoning" || sub.Status != task.StatusInProgress {
		t.Fatalf("submitted %+v", sub)
	}
	views := r.wait(t, sub.TaskID)
	v := views[len(views)-1]
	if v.Status != task.StatusCompleted || len(v.Results) != len(doms) {
		t.Fatalf("status %s with %d results, want completed with %d", v.Status, len(v.Results), len(doms))
	}
	for _, d := range doms {
		got := cells(t, v, d)
		want := map[string]any{"Fit": "No", "Confidence": "medium", "Reasoning": "It is a marketing agency."}
		if strings.HasPrefix(d, "fit") {
			want = map[string]any{"Fit": "Yes", "Confidence": "high", "Reasoning": "It is a SaaS company with 51-200 staff. It is no agency."}
		}
		for k, w := range want {
			if got[k] != w {
				t.Errorf("%s %s = %q, want %q", d, k, got[k], w)
			}
		}
	}
	if len(v.Warnings) != 1 || !strings.Contains(v.Warnings[0], "1 duplicate domains were merged") {
		t.Errorf("warnings %q, want the merged duplicate only", v.Warnings)
	}

	reqs := r.chat.all()
	if len(reqs) != len(doms) {
		t.Fatalf("the model was called %d times, want one call per domain (%d)", len(reqs), len(doms))
	}
	wantPrompt := 0
	for _, q := range reqs {
		u := q.user()
		d := domainLine.FindStringSubmatch(u)[1]
		for _, want := range []string{"Ideal customer profile:\nWe sell payroll software", "Mandatory:\n- SaaS companies\n- 51-200 employees\n",
			"Reject if:\n- marketing agencies\n", "Name: Name of " + d, "Homepage text:\nWelcome to " + d, "Web search results:", d + " sells software"} {
			if !strings.Contains(u, want) {
				t.Fatalf("prompt for %s lacks %q:\n%s", d, want, u)
			}
		}
		if !strings.HasPrefix(q.system(), icpSystemPrompt) || q.ResponseFormat == nil || q.ResponseFormat.Type != "json_object" {
			t.Fatalf("system %q response_format %+v", q.system(), q.ResponseFormat)
		}
		wantPrompt += promptTokens(u)
	}

	queries := brave.all()
	perDomain := map[string][]string{}
	for _, q := range queries {
		perDomain[hostIn.FindString(q)] = append(perDomain[hostIn.FindString(q)], q)
	}
	for _, d := range doms {
		want := []string{"Name of " + d + " company overview", `"` + d + `" industry customers employees`}
		if got := perDomain[d]; len(got) != 2 || !sameSet(got, want) {
			t.Errorf("%s: Brave saw %q, want exactly %q", d, got, want)
		}
	}
	if len(queries) != 2*len(doms) || !brave.tokens["brave-test-key"] || len(brave.tokens) != 1 {
		t.Errorf("Brave saw %d queries with keys %v, want %d with the provider's key", len(queries), brave.tokens, 2*len(doms))
	}

	raw, _ := json.Marshal(v.CostMetadata)
	var meta struct {
		Model struct {
			Calls            int     `json:"calls"`
			SearchCalls      int     `json:"search_calls"`
			PromptTokens     *int64  `json:"prompt_tokens"`
			CompletionTokens *int64  `json:"completion_tokens"`
			Cost             float64 `json:"est_cost_usd"`
		} `json:"custom/test-model"`
		Search *task.SearchUsage `json:"search_provider"`
	}
	if err := json.Unmarshal(raw, &meta); err != nil {
		t.Fatal(err)
	}
	if meta.Model.Calls != len(doms) || meta.Model.SearchCalls != 0 {
		t.Errorf("cost_metadata calls %d search_calls %d, want %d and 0", meta.Model.Calls, meta.Model.SearchCalls, len(doms))
	}
	if meta.Model.PromptTokens == nil || *meta.Model.PromptTokens != int64(wantPrompt) || meta.Model.CompletionTokens == nil || *meta.Model.CompletionTokens != int64(7*len(doms)) {
		t.Errorf("tokens %v/%v, want the server's %d/%d", meta.Model.PromptTokens, meta.Model.CompletionTokens, wantPrompt, 7*len(doms))
	}
	n := 2 * len(doms)
	if s := meta.Search; s == nil || s.Provider != "brave" || s.Model != "brave-web-search" || s.QueriesExecuted != n || s.QueriesSucceeded != n || !near(s.CostUSD, float64(n)*0.005) {
		t.Errorf("search_provider %+v, want brave with %d queries executed and succeeded at $0.005 each", meta.Search, n)
	}

	after, _ := r.bill.Balance(ctx, r.org.ID)
	if want := billing.Price(r.org.Plan, billing.KindCompany, len(doms)); before-after != want {
		t.Errorf("charged %d credits, want %d (the net-new companies at the plan's rate per 1,000, rounded up once)", before-after, want)
	}
	// The same domains again within 90 days are free.
	again, err := r.svc.SubmitICP(ctx, r.org.ID, ICPRequest{ICPText: testICP, Domains: doms})
	if err != nil {
		t.Fatal(err)
	}
	r.wait(t, again.TaskID)
	if final, _ := r.bill.Balance(ctx, r.org.ID); final != after {
		t.Errorf("a second run over the same domains charged %d credits", after-final)
	}
}

func sameSet(a, b []string) bool {
	if len(a) != len(b) {
		return false
	}
	seen := map[string]int{}
	for _, s := range a {
		seen[s]++
	}
	for _, s := range b {
		seen[s]--
	}
	for _, n := range seen {
		if n != 0 {
			return false
		}
	}
	return true
}

func near(a, b float64) bool { return a-b < 1e-9 && b-a < 1e-9 }

// TestICPDomainContextBillsNothing: context_mode domain sends the domain name only and
// charges no credits; without web_search no search runs.
func TestICPDomainContextBillsNothing(t *testing.T) {
	r := newRig(t)
	r.chat.answer = icpAnswer
	ctx := billing.WithRoute(context.Background(), "POST /v1/validate/icp")
	before, _ := r.bill.Balance(ctx, r.org.ID)
	sub, err := r.svc.SubmitICP(ctx, r.org.ID, ICPRequest{ICPText: "Mid-sized SaaS companies.", Domains: []string{"fit1.com"}, ContextMode: ModeDomain})
	if err != nil {
		t.Fatal(err)
	}
	views := r.wait(t, sub.TaskID)
	if got := cells(t, views[len(views)-1], "fit1.com"); got["Fit"] != "Yes" {
		t.Errorf("cells %v", got)
	}
	u := r.chat.all()[0].user()
	if !strings.Contains(u, "Company domain: fit1.com") || strings.Contains(u, "Company profile:") || strings.Contains(u, "Web search results:") {
		t.Errorf("prompt:\n%s", u)
	}
	// Without the three headings the prompt asks the model to derive the criteria.
	if !strings.Contains(u, "first turn the profile above into concrete, checkable criteria") {
		t.Errorf("prompt does not ask for criteria:\n%s", u)
	}
	if after, _ := r.bill.Balance(ctx, r.org.ID); after != before {
		t.Errorf("charged %d credits for a domain-only run", before-after)
	}
	if n := r.search.queries.Load(); n != 0 {
		t.Errorf("%d search queries without web_search", n)
	}
}

// TestICPCells: the model's answers are normalized, and answers outside the allowed
// values are error cells, never guesses.
func TestICPCells(t *testing.T) {
	tests := []struct {
		in, want map[string]any
	}{
		{map[string]any{"Fit": "YES.", "Confidence": "Low", "Reasoning": "One. Two! Three?"}, map[string]any{"Fit": "Yes", "Confidence": "low", "Reasoning": "One. Two!"}},
		{map[string]any{"Fit": "false", "Confidence": "high confidence", "Reasoning": "No\nnewlines here."}, map[string]any{"Fit": "No", "Confidence": "high", "Reasoning": "No newlines here."}},
		{map[string]any{"Fit": "maybe", "Confidence": "very", "Reasoning": ""}, map[string]any{"Fit": "Error: the model's answer gave no Yes/No fit",
			"Confidence": "Error: the model's answer gave no high, medium or low confidence", "Reasoning": "Error: the model's answer gave no reasoning"}},
		{map[string]any{"Fit": nil, "Confidence": 3.0, "Reasoning": "Fine."}, map[string]any{"Fit": "Error: the model's answer gave no Yes/No fit",
			"Confidence": "Error: the model's answer gave no high, medium or low confidence", "Reasoning": "Fine."}},
		{map[string]any{"Fit": "Error: x", "Confidence": "Error: x", "Reasoning": "Error: x"}, map[string]any{"Fit": "Error: x", "Confidence": "Error: x", "Reasoning": "Error: x"}},
	}
	for _, tc := range tests {
		icpCells(tc.in)
		for k, w := range tc.want {
			if tc.in[k] != w {
				t.Errorf("%s = %q, want %q", k, tc.in[k], w)
			}
		}
	}
}

// TestICPValidation: request errors name their field; the business rules are 400s.
func TestICPValidation(t *testing.T) {
	r := newRig(t)
	r.integ.typedID = "33333333-3333-4333-8333-333333333333"
	ok := ICPRequest{ICPText: testICP, Domains: []string{"a.com"}}
	with := func(f func(q *ICPRequest)) ICPRequest {
		q := ok
		q.Domains = append([]string(nil), ok.Domains...)
		f(&q)
		return q
	}
	tests := []struct {
		name   string
		req    ICPRequest
		status int
		code   string
		field  string
	}{
		{"no icp_text", with(func(q *ICPRequest) { q.ICPText = "" }), 422, "validation_error", "icp_text"},
		{"blank icp_text", with(func(q *ICPRequest) { q.ICPText = " \n " }), 422, "validation_error", "icp_text"},
		{"icp_text too long", with(func(q *ICPRequest) { q.ICPText = strings.Repeat("x", maxQueryBytes+1) }), 422, "validation_error", "icp_text"},
		{"no domains", with(func(q *ICPRequest) { q.Domains = nil }), 422, "validation_error", "domains"},
		{"too many domains", with(func(q *ICPRequest) { q.Domains = domains(10_001) }), 422, "validation_error", "domains"},
		{"bad domain", with(func(q *ICPRequest) { q.Domains = []string{"a.com", "not a domain"} }), 422, "validation_error", "domains[1]"},
		{"bad context_mode", with(func(q *ICPRequest) { q.ContextMode = "full" }), 422, "validation_error", "context_mode"},
		{"integration not uuid", with(func(q *ICPRequest) { q.IntegrationID = "gpt-4o" }), 422, "validation_error", "integration_id"},
		{"search provider not uuid", with(func(q *ICPRequest) { q.SearchProviderID = "brave" }), 422, "validation_error", "search_provider_id"},
		{"native", with(func(q *ICPRequest) { q.IntegrationID = "native" }), 400, CodeNativeNotAllowed, ""},
		{"typed integration", with(func(q *ICPRequest) { q.IntegrationID = r.integ.typedID }), 400, "TYPED_NOT_A_GENERATIVE_ENGINE", "integration_id"},
		{"unknown integration", with(func(q *ICPRequest) { q.IntegrationID = "44444444-4444-4444-8444-444444444444" }), 404, "not_found", ""},
		{"native-icp without headings", with(func(q *ICPRequest) { q.IntegrationID = NativeICP; q.ICPText = "Mandatory: SaaS\nNice-to-have: EU" }), 400, CodeICPHeadings, "icp_text"},
		{"native-icp headings without criteria", with(func(q *ICPRequest) { q.IntegrationID = NativeICP; q.ICPText = "Mandatory:\nReject if:\nNice-to-have:" }), 422, "validation_error", "icp_text"},
		{"native-icp bad domain", with(func(q *ICPRequest) { q.IntegrationID = NativeICP; q.Domains = []string{"x"} }), 422, "validation_error", "domains[0]"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := r.svc.SubmitICP(context.Background(), r.org.ID, tc.req)
			d := apperr.Describe(err)
			if d.Status != tc.status || d.Code != tc.code || d.Field != tc.field {
				t.Errorf("got %d %s field %q (%v), want %d %s field %q", d.Status, d.Code, d.Field, err, tc.status, tc.code, tc.field)
			}
		})
	}
	t.Run("web_search without any search", func(t *testing.T) {
		r.search.none = true
		defer func() { r.search.none = false }()
		_, err := r.svc.SubmitICP(context.Background(), r.org.ID, with(func(q *ICPRequest) { q.WebSearch = true }))
		if d := apperr.Describe(err); d.Status != 400 || d.Code != CodeNoWebSearch {
			t.Errorf("got %+v", d)
		}
	})
	t.Run("missing headings name them", func(t *testing.T) {
		_, err := r.svc.SubmitICP(context.Background(), r.org.ID, with(func(q *ICPRequest) { q.IntegrationID = NativeICP; q.ICPText = "Mandatory: SaaS" }))
		if msg := apperr.Describe(err).Message; !strings.Contains(msg, "Reject if:, Nice-to-have:") {
			t.Errorf("message %q does not name the missing headings", msg)
		}
	})
}

// TestFirstSentences keeps whole sentences only.
func TestFirstSentences(t *testing.T) {
	for in, want := range map[string]string{
		"A. B. C.":              "A. B.",
		"Only one":              "Only one",
		"Version 2.5 is out. X": "Version 2.5 is out. X",
		"Q? A! Rest.":           "Q? A!",
	} {
		if got := firstSentences(in, 2); got != want {
			t.Errorf("firstSentences(%q) = %q, want %q", in, got, want)
		}
	}
}

// TestICPRejectRuleOnLLMAnswers: the LLM run applies the native model's reject rule to
// the model's Yes, on the company's record (the test companies are SaaS firms of 51-200
// people with no country and a five-word homepage): a reject line the record matches
// turns any Yes into No; one the record cannot rule out (no country; thin homepage
// text under an industry line) turns a Yes of medium confidence into No and leaves a
// high-confidence Yes, which the prompt defines as the context settling every reject
// criterion. The reasoning names the line with its evidence.
func TestICPRejectRuleOnLLMAnswers(t *testing.T) {
	r := newRig(t)
	r.chat.answer = func(_ chatRequest, dom string) string {
		conf := "medium"
		if strings.HasPrefix(dom, "high") {
			conf = "high"
		}
		return `{"Fit":"Yes","Confidence":"` + conf + `","Reasoning":"It looks like a fit."}`
	}
	ctx := billing.WithRoute(context.Background(), "POST /v1/validate/icp")
	doms := []string{"high.com", "medium.com"}
	for _, tc := range []struct {
		icp        string
		want       map[string]string // domain -> Fit
		reasonPart string
	}{
		{"Mandatory:\n- software\nReject if:\n- SaaS companies\nNice-to-have:\n- B2B\n",
			map[string]string{"high.com": "No", "medium.com": "No"}, `Reject if "SaaS companies" matched, which rules the company out (industries SAAS 0.90)`},
		{"Mandatory:\n- software\nReject if:\n- based in Germany\nNice-to-have:\n- B2B\n",
			map[string]string{"high.com": "Yes", "medium.com": "No"}, `Reject if "based in Germany" could not be judged, so the company cannot be cleared of it (country unknown)`},
		{"Mandatory:\n- software\nReject if:\n- marketing agencies\nNice-to-have:\n- B2B\n",
			map[string]string{"high.com": "Yes", "medium.com": "No"}, `classified from 5 words of homepage text, under 30`},
		{"Mandatory:\n- software\nReject if:\n- more than 1,000 employees\nNice-to-have:\n- B2B\n",
			map[string]string{"high.com": "Yes", "medium.com": "Yes"}, ""},
	} {
		sub, err := r.svc.SubmitICP(ctx, r.org.ID, ICPRequest{ICPText: tc.icp, Domains: doms})
		if err != nil {
			t.Fatal(err)
		}
		views := r.wait(t, sub.TaskID)
		for _, d := range doms {
			got := cells(t, views[len(views)-1], d)
			if got["Fit"] != tc.want[d] {
				t.Errorf("%q on %s: %v, want Fit %s", tc.icp, d, got, tc.want[d])
				continue
			}
			if tc.want[d] == "No" {
				if got["Confidence"] != "low" || !strings.Contains(got["Reasoning"].(string), tc.reasonPart) {
					t.Errorf("%q on %s: %v, want confidence low and a reasoning naming %q", tc.icp, d, got, tc.reasonPart)
				}
			} else if got["Reasoning"] != "It looks like a fit." {
				t.Errorf("%q on %s: the model's Yes was rewritten: %v", tc.icp, d, got)
			}
		}
	}
	if !strings.Contains(icpSystemPrompt, "answer Yes only when the context shows every reject criterion to be false") {
		t.Error("the system prompt does not state the reject rule")
	}
}
