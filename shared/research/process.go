package research

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/firmoapi/firmo/shared/apperr"
	"github.com/firmoapi/firmo/shared/billing"
	"github.com/firmoapi/firmo/shared/llm"
	"github.com/firmoapi/firmo/shared/task"
)

// processor answers one record of either kind.
type processor struct {
	s    *Service
	kind string
}

// Provider puts every research record in one lane of the engine's limiter: each
// record makes one LLM call.
func (processor) Provider() string { return "llm" }

const systemPrompt = "You are a research analyst. Answer the question about the one company or person described in the context, " +
	"using the context and your knowledge. Be concise and factual; say \"Unknown\" when the context gives no evidence."

func (p processor) Process(ctx context.Context, rec task.Record) (task.Result, error) {
	prm, err := decodeParams(rec.Params)
	if err != nil {
		return task.Result{}, fmt.Errorf("task parameters: %w", err)
	}
	var res task.Result
	rc, err := p.s.recordContext(ctx, p.kind, rec, prm, &res)
	if err != nil {
		return task.Result{}, err
	}
	// The stored profile in the context is paid for before anything of it leaves the
	// service (the customer's LLM, its typed judge, a search provider): a refused
	// charge fails the record with nothing sent. A retried record is not charged again.
	if rc.bill != "" {
		if err := p.s.charge(ctx, rec, rc.bill, p.kind); err != nil {
			return task.Result{}, err
		}
	}
	if len(rec.Input) > 0 {
		rc.text += "\n\nPrevious research results for this record:\n" + string(rec.Input)
	}
	if prm.SearchQueries > 0 {
		p.s.search(ctx, rec.OrgID, prm, p.queries(prm, rc), rc, &res)
	}
	// From here on an error still returns res: its Usage and Search are calls already
	// made on the caller's keys, which cost_metadata counts (task.Result).
	row := map[string]any{}
	if !prm.TypedOnly && len(prm.Fields) > 0 {
		system, prompt := systemPrompt, "Question:\n"+prm.Prompt+"\n\nContext:\n"+rc.text
		if p.kind == KindICP {
			system, prompt = icpSystemPrompt, icpPrompt(prm.Prompt, rc.text)
		}
		if err := p.s.generate(ctx, rec.OrgID, prm, system, prompt, row, &res); err != nil {
			return spentOnly(res), err
		}
		if p.kind == KindICP {
			icpCells(row)
			if err := p.s.rejectRule(ctx, prm, rc, row); err != nil {
				return spentOnly(res), err
			}
		}
	}
	p.s.judge(ctx, rec.OrgID, prm, rc.text, row, &res)
	res.Row = row
	return res, nil
}

// spentOnly is what a failed record returns: its spend, no row or warnings.
func spentOnly(res task.Result) task.Result {
	return task.Result{Usage: res.Usage, Search: res.Search, ExtraCostUSD: res.ExtraCostUSD}
}

// queries are the search queries of a record: ICP validation runs its two fixed ones,
// batch research builds search_context_size of them from the prompt.
func (p processor) queries(prm params, rc *recordCtx) []string {
	if p.kind == KindICP {
		return icpQueries(rc)
	}
	prompt := prm.Prompt
	if prompt == "" {
		prompt = prm.Query
	}
	return searchQueries(prompt, rc, prm.SearchQueries)
}

// generate makes the record's one LLM call and fills the generative columns.
func (s *Service) generate(ctx context.Context, org string, prm params, system, prompt string, row map[string]any, res *task.Result) error {
	integ, client, err := s.d.Integrations.Resolve(ctx, org, prm.IntegrationID)
	if err != nil {
		return err
	}
	if client == nil {
		return fmt.Errorf("integration %s is not a generative engine", integ.ID)
	}
	req := llm.Request{Model: integ.Model, System: system, WebSearch: prm.BuiltinSearch, Prompt: prompt}
	if len(prm.Fields) > 1 {
		for _, f := range prm.Fields {
			req.JSONFields = append(req.JSONFields, f.Label)
		}
	}
	// Counted in cost_metadata as it starts: a call in flight when the process dies
	// was still made on the customer's keys (a replayed answer is not counted again).
	resp, err := client.Complete(task.CountCalls(ctx, integ.Provider, integ.Model), req)
	if err != nil {
		return s.llmFailure(ctx, err)
	}
	if !resp.Replayed { // a replayed answer was counted by the run that made the call
		u := task.Usage{Provider: integ.Provider, Model: integ.Model, Calls: 1, SearchCalls: resp.SearchCalls, CostUSD: resp.CostUSD}
		if resp.UsageReported {
			pt, ct := int64(resp.PromptTokens), int64(resp.CompletionTokens)
			u.PromptTokens, u.CompletionTokens = &pt, &ct
		}
		res.Usage = append(res.Usage, u)
	}
	text := strings.TrimSpace(resp.Text)
	if len(prm.Fields) == 1 {
		row[prm.Fields[0].Label] = text
		return nil
	}
	obj, err := jsonObject(text)
	if err != nil {
		for _, f := range prm.Fields {
			row[f.Label] = "Error: the model's answer was not the JSON object asked for"
		}
		return nil
	}
	for _, f := range prm.Fields {
		row[f.Label] = cellValue(obj[f.Label])
	}
	return nil
}

// llmFailure turns a failed call into the record's error: retryable ones stay
// retryable with the provider's hint, and the cell shows a short reason, never the
// provider's own text.
func (s *Service) llmFailure(ctx context.Context, err error) error {
	if ctx.Err() != nil {
		return ctx.Err()
	}
	s.d.Log.Warn("batch research: LLM call failed", "err", err)
	clean := fmt.Errorf("LLM call failed: %s", cellReason(err))
	if apperr.IsRetryable(err) {
		return apperr.Retryable(clean, apperr.RetryAfter(err))
	}
	return clean
}

// jsonObject reads a JSON object from a model's answer, tolerating a code fence.
func jsonObject(text string) (map[string]json.RawMessage, error) {
	if i, j := strings.Index(text, "{"), strings.LastIndex(text, "}"); i >= 0 && j > i {
		text = text[i : j+1]
	}
	var obj map[string]json.RawMessage
	err := json.Unmarshal([]byte(text), &obj)
	return obj, err
}

func cellValue(raw json.RawMessage) any {
	if len(raw) == 0 {
		return nil
	}
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return s
	}
	var v any
	if json.Unmarshal(raw, &v) == nil {
		return v
	}
	return string(raw)
}

// judge answers the typed columns. Failures are per cell: without a typed integration
// every typed cell is "Error: ...".
func (s *Service) judge(ctx context.Context, org string, prm params, contextText string, row map[string]any, res *task.Result) {
	if len(prm.Typed) == 0 {
		return
	}
	_, judge, err := s.d.Integrations.Judge(ctx, org)
	if err != nil {
		reason := "typed-judgment provider unavailable"
		if errors.Is(err, apperr.ErrNotFound) {
			reason = "no typed-judgment integration on the account; add one with provider typed"
		}
		for _, c := range prm.Typed {
			row[c.Label] = "Error: " + reason
			if prm.Confidence {
				row[ConfidenceLabel(c.Label)] = "Error: " + reason
			}
		}
		return
	}
	for _, c := range prm.Typed {
		j, err := judge.Judge(ctx, llm.JudgeRequest{Kind: c.Kind, Question: c.Question, Context: contextText, Options: c.Options})
		if err != nil {
			row[c.Label] = "Error: " + cellReason(err)
			if prm.Confidence {
				row[ConfidenceLabel(c.Label)] = "Error: " + cellReason(err)
			}
			continue
		}
		res.ExtraCostUSD += j.CostUSD
		row[c.Label] = typedValue(c.Kind, j.Value)
		if prm.Confidence {
			row[ConfidenceLabel(c.Label)] = ConfidenceBand(j.Confidence)
		}
	}
}

// typedValue is a scale cell as a number, other cells as the judge's text.
func typedValue(kind, v string) any {
	if kind == "scale" {
		if f, err := strconv.ParseFloat(v, 64); err == nil {
			return f
		}
	}
	return v
}

// ConfidenceBand names the calibrated probability of the chosen answer, with the bands
// of the native ICP model: >= 0.85 high, >= 0.65 medium, below that near the decision
// boundary.
func ConfidenceBand(p float64) string {
	switch {
	case p >= 0.85:
		return "High confidence"
	case p >= 0.65:
		return "Medium confidence"
	default:
		return fmt.Sprintf("Low confidence - p=%.2f is near the decision boundary; treat as unresolved", p)
	}
}

// cellReason is the short reason shown in an "Error: " cell; provider detail stays in
// the logs.
func cellReason(err error) string {
	switch {
	case errors.Is(err, llm.ErrOutOfCredits):
		return "the provider reports no credits or quota left"
	case errors.Is(err, llm.ErrAuth):
		return "the provider refused the api_key"
	case errors.Is(err, llm.ErrBadModel):
		return "the provider does not know the model"
	case errors.Is(err, llm.ErrRateLimited):
		return "the provider's rate limit was exceeded"
	}
	return "the provider call failed"
}

// charge bills a record's stored profile: net-new company (or contact) records only,
// at the exact per-record rate on the task's tab (billing's Accrue), so a redelivered
// record never bills twice.
func (s *Service) charge(ctx context.Context, rec task.Record, key, kind string) error {
	org, err := s.d.Orgs.GetOrg(ctx, rec.OrgID)
	if err != nil {
		return err
	}
	bk := billing.KindCompany
	if kind == KindPersonas {
		bk = billing.KindContact
	}
	return s.d.Billing.Accrue(ctx, org, bk, rec.TaskID, key)
}
