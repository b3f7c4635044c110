package research

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"strings"
	"testing"
	"time"

	"github.com/firmoapi/firmo/shared/apperr"
	"github.com/firmoapi/firmo/shared/billing"
	"github.com/firmoapi/firmo/shared/llm"
	"github.com/firmoapi/firmo/shared/task"
	"github.com/firmoapi/firmo/shared/websearch"
)

// TestCompanies200WithSearch: 200 domains with web search (medium: 3 queries each)
// through the real OpenAI-compatible adapter against a local chat-completions server.
// Progress rises, interim results appear, every domain is answered from its own
// context, and cost_metadata carries the server's token counts.
func TestCompanies200WithSearch(t *testing.T) {
	r := newRig(t)
	r.chat.delay = 2e6 // 2 ms per call, so the run is seen mid-way
	doms := domains(200)
	sub, err := r.svc.SubmitCompanies(context.Background(), r.org.ID, CompanyRequest{
		Options: Options{Query: "What does the company sell?", WebSearch: true, SearchContextSize: "medium"}, Domains: doms,
	})
	if err != nil {
		t.Fatal(err)
	}
	if sub.TotalDomains != 200 || sub.Status != task.StatusInProgress {
		t.Fatalf("submitted %+v", sub)
	}
	views := r.wait(t, sub.TaskID)
	last := views[len(views)-1]
	if last.Status != task.StatusCompleted || len(last.Results) != 200 {
		t.Fatalf("status %s with %d results", last.Status, len(last.Results))
	}
	prev, sawInterim := -1, false
	for _, v := range views {
		if v.Progress < prev {
			t.Fatalf("progress fell from %d to %d", prev, v.Progress)
		}
		prev = v.Progress
		if !v.Status.Terminal() && len(v.InterimResults) > 0 && len(v.InterimResults) < 200 {
			sawInterim = true
		}
	}
	if !sawInterim {
		t.Error("never saw interim results while the task ran")
	}
	for _, d := range doms {
		if got, want := cells(t, last, d)[AnswerLabel], "Answer for "+d; got != want {
			t.Fatalf("%s: got %v, want %q", d, got, want)
		}
	}
	reqs := r.chat.all()
	if len(reqs) != 200 {
		t.Fatalf("server saw %d calls, want 200 (one isolated call per record)", len(reqs))
	}
	wantPrompt := 0
	for _, q := range reqs {
		u := q.user()
		d := domainLine.FindStringSubmatch(u)[1]
		for _, want := range []string{"Question:\nWhat does the company sell?", "Name: Name of " + d, "Homepage text:\nWelcome to " + d,
			"Web search results:", "About " + d, "hit for Name of " + d + " company overview"} {
			if !strings.Contains(u, want) {
				t.Fatalf("prompt for %s lacks %q:\n%s", d, want, u)
			}
		}
		if strings.Count(u, "Company domain:") > 0 || strings.Count(u, "Domain: ") != 1 {
			t.Fatalf("prompt for %s mixes records:\n%s", d, u)
		}
		if q.system() == "" || q.Model != "test-model" {
			t.Fatalf("request model %q system %q", q.Model, q.system())
		}
		wantPrompt += promptTokens(u)
	}
	raw, _ := json.Marshal(last.CostMetadata)
	var meta struct {
		Model struct {
			Calls            int    `json:"calls"`
			SearchCalls      int    `json:"search_calls"`
			PromptTokens     *int64 `json:"prompt_tokens"`
			CompletionTokens *int64 `json:"completion_tokens"`
		} `json:"custom/test-model"`
		Search *task.SearchUsage `json:"search_provider"`
	}
	if err := json.Unmarshal(raw, &meta); err != nil {
		t.Fatal(err)
	}
	if meta.Model.Calls != 200 || meta.Model.SearchCalls != 0 {
		t.Errorf("cost_metadata calls %d search_calls %d, want 200 and 0", meta.Model.Calls, meta.Model.SearchCalls)
	}
	if meta.Model.PromptTokens == nil || *meta.Model.PromptTokens != int64(wantPrompt) {
		t.Errorf("prompt_tokens %v, want the server's sum %d", meta.Model.PromptTokens, wantPrompt)
	}
	if meta.Model.CompletionTokens == nil || *meta.Model.CompletionTokens != 200*7 {
		t.Errorf("completion_tokens %v, want %d", meta.Model.CompletionTokens, 200*7)
	}
	if meta.Search == nil || meta.Search.QueriesExecuted != 600 || meta.Search.QueriesSucceeded != 600 || meta.Search.Provider != "native" {
		t.Errorf("search_provider %+v, want native with 600 queries executed and succeeded", meta.Search)
	}
	if n := r.search.queries.Load(); n != 600 {
		t.Errorf("search provider saw %d queries, want 600", n)
	}
	if len(last.Warnings) != 0 {
		t.Errorf("warnings %q, want none", last.Warnings)
	}
	for _, q := range reqs {
		if q.Auth != "Bearer sk-secret-test-key" {
			t.Fatalf("authorization %q", q.Auth)
		}
	}
}

func submitOne(t *testing.T, r *rig, o Options, doms ...string) task.View {
	t.Helper()
	sub, err := r.svc.SubmitCompanies(context.Background(), r.org.ID, CompanyRequest{Options: o, Domains: doms})
	if err != nil {
		t.Fatal(err)
	}
	views := r.wait(t, sub.TaskID)
	return views[len(views)-1]
}

func TestContextModes(t *testing.T) {
	tests := []struct {
		mode       string
		want, not  []string
		billedOnce bool
	}{
		{ModeWebsite, []string{"Name: Name of a.com", "Homepage text:"}, nil, true},
		{ModeProfile, []string{"Name: Name of a.com", "Employees: 51-200"}, []string{"Homepage text:"}, true},
		{ModeDomain, []string{"Company domain: a.com"}, []string{"Company profile:", "Homepage text:"}, false},
	}
	for _, tc := range tests {
		t.Run(tc.mode, func(t *testing.T) {
			r := newRig(t)
			before, _ := r.bill.Balance(context.Background(), r.org.ID)
			v := submitOne(t, r, Options{Query: "Summarise.", ContextMode: tc.mode}, "a.com")
			u := r.chat.all()[0].user()
			for _, w := range tc.want {
				if !strings.Contains(u, w) {
					t.Errorf("prompt lacks %q:\n%s", w, u)
				}
			}
			for _, w := range tc.not {
				if strings.Contains(u, w) {
					t.Errorf("prompt has %q:\n%s", w, u)
				}
			}
			after, _ := r.bill.Balance(context.Background(), r.org.ID)
			charged := before - after
			want := int64(0)
			if tc.billedOnce {
				want = billing.Price(r.org.Plan, billing.KindCompany, 1)
			}
			if charged != want {
				t.Errorf("charged %d credits, want %d", charged, want)
			}
			if cells(t, v, "a.com")[AnswerLabel] != "Answer for a.com" {
				t.Errorf("cells %v", cells(t, v, "a.com"))
			}
		})
	}
}

func TestNoProfileWarnsAndDoesNotBill(t *testing.T) {
	r := newRig(t)
	before, _ := r.bill.Balance(context.Background(), r.org.ID)
	v := submitOne(t, r, Options{Query: "Summarise."}, "noprofile.com")
	after, _ := r.bill.Balance(context.Background(), r.org.ID)
	if before != after {
		t.Errorf("charged %d credits for a domain without a profile", before-after)
	}
	if len(v.Warnings) != 1 || v.Warnings[0] != warnNoProfile {
		t.Errorf("warnings %q", v.Warnings)
	}
	if !strings.Contains(r.chat.all()[0].user(), "Company domain: noprofile.com") {
		t.Error("prompt lacks the domain")
	}
}

func TestPreviousDataAppended(t *testing.T) {
	r := newRig(t)
	submitOne(t, r, Options{Query: "Refine.", ContextMode: ModeDomain,
		Previous: map[string]json.RawMessage{"WWW.A.COM": json.RawMessage(`{"Answer":"earlier finding"}`)}}, "a.com", "b.com")
	for _, q := range r.chat.all() {
		u := q.user()
		has := strings.Contains(u, "Previous research results for this record:\n{\"Answer\":\"earlier finding\"}")
		if isA := strings.Contains(u, "domain: a.com"); has != isA {
			t.Errorf("previous data in prompt %v for:\n%s", has, u)
		}
	}
}

func TestTypedColumns(t *testing.T) {
	r := newRig(t)
	j := &fixedJudge{conf: 0.9}
	r.integ.judge = j
	q := "Is the company B2B?\nTier: one of Gold, Silver\nRate their maturity from 1 to 3\nWhat do they sell?"
	sub, err := r.svc.SubmitCompanies(context.Background(), r.org.ID, CompanyRequest{Options: Options{Query: q, TypedColumns: true, IncludeConfidence: true}, Domains: []string{"a.com"}})
	if err != nil {
		t.Fatal(err)
	}
	wantCols := []string{AnswerLabel, "Is the company B2B", "Is the company B2B confidence", "Tier", "Tier confidence",
		"Rate their maturity from 1 to 3", "Rate their maturity from 1 to 3 confidence"}
	if fmt.Sprint(sub.ColumnName.Names) != fmt.Sprint(wantCols) {
		t.Fatalf("column_name %q, want %q", sub.ColumnName.Names, wantCols)
	}
	views := r.wait(t, sub.TaskID)
	v := views[len(views)-1]
	c := cells(t, v, "a.com")
	want := map[string]any{AnswerLabel: "Answer for a.com", "Is the company B2B": "Yes", "Tier": "Gold",
		"Rate their maturity from 1 to 3": 1.5, "Tier confidence": "High confidence"}
	for k, w := range want {
		if c[k] != w {
			t.Errorf("%s = %v, want %v", k, c[k], w)
		}
	}
	u := r.chat.all()[0].user()
	if !strings.Contains(u, "Question:\nWhat do they sell?\n") || strings.Contains(u, "B2B") {
		t.Errorf("the LLM must get the free text only:\n%s", u)
	}
	if len(j.reqs) != 3 || j.reqs[1].Kind != "choice" || fmt.Sprint(j.reqs[1].Options) != "[Gold Silver]" || !strings.Contains(j.reqs[0].Context, "Name of a.com") {
		t.Errorf("judge requests %+v", j.reqs)
	}
	rf := v.ResponseFormat
	if rf == nil || len(rf.TypedColumns) != 3 || rf.FieldLabels["answer"] != AnswerLabel || len(rf.FieldLabels) != 1 {
		t.Fatalf("response_format %+v", rf)
	}
	for _, tc := range rf.TypedColumns {
		if _, both := rf.FieldLabels[tc.Key]; both {
			t.Errorf("column %q is both generative and typed", tc.Key)
		}
	}
	if rf.TypedColumns[2].Kind != "scale" || rf.TypedColumns[2].Criteria["2"] != "3" {
		t.Errorf("scale descriptor %+v", rf.TypedColumns[2])
	}
	if v.EstimatedCost < 0.0003 {
		t.Errorf("estimated_cost %v does not fold in the typed spend", v.EstimatedCost)
	}
}

func TestConfidenceBand(t *testing.T) {
	for _, tc := range []struct {
		p    float64
		want string
	}{{0.99, "High confidence"}, {0.85, "High confidence"}, {0.7, "Medium confidence"}, {0.55, "Low confidence - "}} {
		if got := ConfidenceBand(tc.p); !strings.HasPrefix(got, tc.want) {
			t.Errorf("ConfidenceBand(%v) = %q, want prefix %q", tc.p, got, tc.want)
		}
	}
}

func TestTypedWithoutTypedIntegration(t *testing.T) {
	r := newRig(t)
	v := submitOne(t, r, Options{Query: "Is it B2B?\nWhat do they sell?", TypedColumns: true, IncludeConfidence: true}, "a.com")
	c := cells(t, v, "a.com")
	for _, k := range []string{"Is it B2B", "Is it B2B confidence"} {
		if s, _ := c[k].(string); !strings.HasPrefix(s, "Error: ") {
			t.Errorf("%s = %v, want an Error: cell", k, c[k])
		}
	}
	if c[AnswerLabel] != "Answer for a.com" {
		t.Errorf("free text cell %v", c[AnswerLabel])
	}
}

func TestTypedOnly(t *testing.T) {
	r := newRig(t)
	r.integ.typedID = "33333333-3333-4333-8333-333333333333"
	r.integ.judge = &fixedJudge{conf: 0.6}
	sub, err := r.svc.SubmitCompanies(context.Background(), r.org.ID, CompanyRequest{
		Options: Options{Query: "Is it B2B?\nWhat do they sell?", IntegrationID: r.integ.typedID, IncludeConfidence: true, TypedColumns: true}, Domains: []string{"a.com"}})
	if err != nil {
		t.Fatal(err)
	}
	if fmt.Sprint(sub.ColumnName.Names) != "[Is it B2B Is it B2B confidence]" {
		t.Errorf("column_name %q", sub.ColumnName.Names)
	}
	views := r.wait(t, sub.TaskID)
	c := cells(t, views[len(views)-1], "a.com")
	if c["Is it B2B"] != "Yes" || !strings.HasPrefix(c["Is it B2B confidence"].(string), "Low confidence - ") || len(c) != 2 {
		t.Errorf("cells %v", c)
	}
	if n := r.chat.calls.Load(); n != 0 {
		t.Errorf("typed-only run made %d LLM calls", n)
	}
}

func TestLabelledFreeTextIsJSON(t *testing.T) {
	r := newRig(t)
	r.integ.judge = &fixedJudge{conf: 0.9}
	v := submitOne(t, r, Options{Query: "Founders: who founded it?\nHQ: where is it based?\nIs it B2B?", TypedColumns: true}, "a.com")
	c := cells(t, v, "a.com")
	if c["Founders"] != "founders of a.com" || c["HQ"] != "hq of a.com" || c["Is it B2B"] != "Yes" {
		t.Errorf("cells %v", c)
	}
	if sys := r.chat.all()[0].system(); !strings.Contains(sys, "Founders") || !strings.Contains(sys, "HQ") {
		t.Errorf("system prompt does not ask for the fields: %q", sys)
	}
}

func TestSearchFailuresWarn(t *testing.T) {
	tests := []struct {
		name     string
		err      error
		warn     string
		executed int
	}{
		{"out of credits", fmt.Errorf("brave: %w", websearch.ErrOutOfCredits), fmt.Sprintf(warnOutOfCredit, "index"), 1},
		{"circuit open", websearch.ErrCircuitOpen, fmt.Sprintf(warnCircuit, "index"), 0},
		{"failing", errors.New("boom"), "", 3},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			r := newRig(t)
			r.search.err = tc.err
			v := submitOne(t, r, Options{Query: "Q?", WebSearch: true, SearchContextSize: "medium"}, "a.com")
			if tc.warn != "" && !contains(v.Warnings, tc.warn) {
				t.Errorf("warnings %q lack %q", v.Warnings, tc.warn)
			}
			if (tc.executed == 0) != contains(v.Warnings, warnNoQuery) {
				t.Errorf("warnings %q: the ran-no-query warning is wrong for %d queries", v.Warnings, tc.executed)
			}
			s := v.CostMetadata["search_provider"].(*task.SearchUsage)
			if s.QueriesExecuted != tc.executed || s.QueriesSucceeded != 0 {
				t.Errorf("search_provider %+v, want %d executed, 0 succeeded", s, tc.executed)
			}
			if cells(t, v, "a.com")[AnswerLabel] != "Answer for a.com" {
				t.Error("a failing search must not fail the record")
			}
		})
	}
}

func contains(ss []string, s string) bool {
	for _, x := range ss {
		if x == s {
			return true
		}
	}
	return false
}

func TestBuiltinSearchWithoutProvider(t *testing.T) {
	r := newRig(t)
	r.search.none = true
	_, err := r.svc.SubmitCompanies(context.Background(), r.org.ID, CompanyRequest{Options: Options{Query: "Q", WebSearch: true}, Domains: []string{"a.com"}})
	if apperr.Describe(err).Code != CodeNoWebSearch || apperr.Status(err) != 400 {
		t.Fatalf("without provider or built-in search: %v, want 400 %s", err, CodeNoWebSearch)
	}
	r.integ.builtin = true
	v := submitOne(t, r, Options{Query: "Q", WebSearch: true}, "a.com")
	if _, ok := v.CostMetadata["search_provider"]; ok || r.search.queries.Load() != 0 {
		t.Error("built-in search must not use a search provider")
	}
}

func TestIncludeXSearchWarns(t *testing.T) {
	r := newRig(t)
	v := submitOne(t, r, Options{Query: "Q", IncludeXSearch: true, ContextMode: ModeDomain}, "a.com")
	if len(v.Warnings) != 1 || !strings.Contains(v.Warnings[0], "include_x_search") {
		t.Errorf("warnings %q", v.Warnings)
	}
}

func TestPersonasWithoutContactSource(t *testing.T) {
	r := newRig(t)
	sub, err := r.svc.SubmitPersonas(context.Background(), r.org.ID, PersonaRequest{Options: Options{Query: "Q"}, PersonaIDs: []int64{7, 9}})
	if err != nil {
		t.Fatal(err)
	}
	views := r.wait(t, sub.TaskID)
	for _, k := range []string{"7", "9"} {
		if got := cells(t, views[len(views)-1], k)[AnswerLabel]; got != "Error: contact not found" {
			t.Errorf("persona %s: %v", k, got)
		}
	}
}

func TestValidation(t *testing.T) {
	r := newRig(t)
	r.integ.typedID = "33333333-3333-4333-8333-333333333333"
	ok := Options{Query: "What do they sell?"}
	with := func(f func(o *Options)) Options { o := ok; f(&o); return o }
	tests := []struct {
		name    string
		domains []string
		o       Options
		status  int
		code    string
		field   string
	}{
		{"empty query", []string{"a.com"}, with(func(o *Options) { o.Query = "  " }), 422, "validation_error", "query"},
		{"no domains", nil, ok, 422, "validation_error", "domains"},
		{"too many domains", domains(10_001), ok, 422, "validation_error", "domains"},
		{"bad domain", []string{"a.com", "not a domain"}, ok, 422, "validation_error", "domains[1]"},
		{"bad context_mode", []string{"a.com"}, with(func(o *Options) { o.ContextMode = "full" }), 422, "validation_error", "context_mode"},
		{"bad search depth", []string{"a.com"}, with(func(o *Options) { o.SearchContextSize = "huge" }), 422, "validation_error", "search_context_size"},
		{"integration not uuid", []string{"a.com"}, with(func(o *Options) { o.IntegrationID = "gpt" }), 422, "validation_error", "integration_id"},
		{"native", []string{"a.com"}, with(func(o *Options) { o.IntegrationID = "native" }), 400, CodeNativeNotAllowed, ""},
		{"native-icp without headings", []string{"a.com"}, with(func(o *Options) { o.IntegrationID = NativeICP; o.Query = "Mandatory: SaaS" }), 400, CodeICPHeadings, "query"},
		{"typed without judgment", []string{"a.com"}, with(func(o *Options) { o.TypedColumns = true }), 400, CodeTypedNoTypedColumns, ""},
		{"typed-only without judgment", []string{"a.com"}, with(func(o *Options) { o.IntegrationID = r.integ.typedID }), 400, CodeTypedNoTypedColumns, ""},
		{"unknown integration", []string{"a.com"}, with(func(o *Options) { o.IntegrationID = "44444444-4444-4444-8444-444444444444" }), 404, "not_found", ""},
		{"bad previous key", []string{"a.com"}, with(func(o *Options) { o.Previous = map[string]json.RawMessage{"not a domain": json.RawMessage(`1`)} }), 422, "validation_error", "previous_discogen_data.not a domain"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := r.svc.SubmitCompanies(context.Background(), r.org.ID, CompanyRequest{Options: tc.o, Domains: tc.domains})
			d := apperr.Describe(err)
			if d.Status != tc.status || d.Code != tc.code || d.Field != tc.field {
				t.Errorf("got %d %s field %q (%v), want %d %s field %q", d.Status, d.Code, d.Field, err, tc.status, tc.code, tc.field)
			}
		})
	}
	t.Run("typed default", func(t *testing.T) {
		r.integ.typedDflt = true
		defer func() { r.integ.typedDflt = false }()
		_, err := r.svc.SubmitCompanies(context.Background(), r.org.ID, CompanyRequest{Options: ok, Domains: []string{"a.com"}})
		if d := apperr.Describe(err); d.Status != 400 || d.Code != "TYPED_NOT_A_GENERATIVE_ENGINE" {
			t.Errorf("got %+v", d)
		}
	})
	personas := []struct {
		name  string
		ids   []int64
		o     Options
		field string
	}{
		{"no persona_ids", nil, ok, "persona_ids"},
		{"zero id", []int64{1, 0}, ok, "persona_ids[1]"},
		{"bad mode", []int64{1}, with(func(o *Options) { o.ContextMode = "website" }), "context_mode"},
	}
	for _, tc := range personas {
		t.Run("personas "+tc.name, func(t *testing.T) {
			_, err := r.svc.SubmitPersonas(context.Background(), r.org.ID, PersonaRequest{Options: tc.o, PersonaIDs: tc.ids})
			if d := apperr.Describe(err); d.Status != 422 || d.Field != tc.field {
				t.Errorf("got %+v, want 422 on %s", d, tc.field)
			}
		})
	}
}

// TestLLMFailureKeepsRetryability: a failed LLM call becomes the record's error with a
// short cell reason; a retryable failure stays retryable with the provider's hint, so
// the engine retries it, and any other failure answers the record at once.
func TestLLMFailureKeepsRetryability(t *testing.T) {
	s := &Service{d: Deps{Log: slog.New(slog.DiscardHandler)}}
	tests := []struct {
		name          string
		err           error
		wantText      string
		wantRetryable bool
		wantAfter     time.Duration
	}{
		{"rate limited with hint", llm.Classify("openai", llm.VendorError{Status: 429, Message: "slow down sk-abc", RetryAfter: 4 * time.Second}),
			"LLM call failed: the provider's rate limit was exceeded", true, 4 * time.Second},
		{"overloaded", llm.Classify("anthropic", llm.VendorError{Status: 529}), "LLM call failed: the provider call failed", true, 0},
		{"bad key", llm.Classify("openai", llm.VendorError{Status: 401}), "LLM call failed: the provider refused the api_key", false, 0},
		{"bad request", llm.Classify("openai", llm.VendorError{Status: 400, Message: "max_tokens"}), "LLM call failed: the provider call failed", false, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := s.llmFailure(context.Background(), tt.err)
			if got.Error() != tt.wantText {
				t.Errorf("text = %q, want %q (never the provider's own)", got.Error(), tt.wantText)
			}
			if apperr.IsRetryable(got) != tt.wantRetryable || apperr.RetryAfter(got) != tt.wantAfter {
				t.Errorf("retryable %v after %v, want %v after %v", apperr.IsRetryable(got), apperr.RetryAfter(got), tt.wantRetryable, tt.wantAfter)
			}
		})
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if got := s.llmFailure(ctx, llm.Classify("openai", llm.VendorError{Status: 500})); !errors.Is(got, context.Canceled) {
		t.Errorf("cancelled call: %v, want the context's error so the record is redone", got)
	}
}

// TestTotalDomainsEchoesTheCountSent: total_domains is the number of domains sent, as
// the submission echoes it, even when duplicates among them are merged.
func TestTotalDomainsEchoesTheCountSent(t *testing.T) {
	r := newRig(t)
	sub, err := r.svc.SubmitCompanies(context.Background(), r.org.ID, CompanyRequest{
		Options: Options{Query: "Q", ContextMode: ModeDomain}, Domains: []string{"a.com", "b.com", "https://www.a.com/about"},
	})
	if err != nil {
		t.Fatal(err)
	}
	if sub.TotalDomains != 3 {
		t.Errorf("total_domains = %d, want the 3 sent", sub.TotalDomains)
	}
	psub, err := r.svc.SubmitPersonas(context.Background(), r.org.ID, PersonaRequest{Options: Options{Query: "Q"}, PersonaIDs: []int64{7, 7}})
	if err != nil {
		t.Fatal(err)
	}
	if psub.TotalDomains != 2 {
		t.Errorf("personas total_domains = %d, want the 2 sent", psub.TotalDomains)
	}
	r.wait(t, sub.TaskID)
	r.wait(t, psub.TaskID)
}

// TestSearchSpendKeptWhenLLMFails: the search queries a record ran are in
// cost_metadata even when its LLM call then failed.
func TestSearchSpendKeptWhenLLMFails(t *testing.T) {
	r := newRig(t)
	r.chat.failStatus = 401
	v := submitOne(t, r, Options{Query: "Q?", WebSearch: true, SearchContextSize: "medium"}, "a.com")
	if got, _ := cells(t, v, "a.com")[AnswerLabel].(string); !strings.HasPrefix(got, "Error: ") {
		t.Fatalf("cell %q, want the LLM failure", got)
	}
	s, ok := v.CostMetadata["search_provider"].(*task.SearchUsage)
	if !ok || s.QueriesExecuted != 3 || s.QueriesSucceeded != 3 {
		t.Fatalf("cost_metadata %v, want search_provider with 3 queries executed and succeeded", v.CostMetadata)
	}
}
