package contactsearch

import (
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"strings"
	"sync"
	"time"

	"github.com/firmoapi/firmo/shared/geo"
	"github.com/firmoapi/firmo/shared/industry"
	"github.com/firmoapi/firmo/shared/integration"
	"github.com/firmoapi/firmo/shared/llm"
	"github.com/firmoapi/firmo/shared/title"
)

// PromptExtractor reads an icp_prompt with the searching organisation's LLM. An error
// (no default integration, a failed or late call, an answer that is not JSON) leaves
// the search with the rule-based parser's reading: a search never fails because of it.
type PromptExtractor interface {
	ExtractPrompt(ctx context.Context, orgID, text string) (Prompt, error)
}

// LLMResolver resolves an organisation's LLM integration; integration.Service
// satisfies it, and batch research resolves its default the same way.
type LLMResolver interface {
	Resolve(ctx context.Context, org, integrationID string) (integration.Integration, llm.Client, error)
}

// LLMPrompts is the PromptExtractor on the organisation's default LLM integration.
//
// The call is the organisation's own: it runs on its key and is paid to its provider,
// so, as for batch research, no Firmo credits are charged for it; it is logged (model,
// tokens, cost) at debug level.
//
// Readings are kept for promptCacheTTL per organisation, integration, model and prompt,
// so paging through one search (offset) reads the prompt once and every page runs with
// the same filters; failures are not kept.
type LLMPrompts struct {
	resolver LLMResolver
	timeout  time.Duration
	log      *slog.Logger

	mu    sync.Mutex
	cache map[string]cachedPrompt
}

type cachedPrompt struct {
	p  Prompt
	at time.Time
}

// Bounds of the reading cache.
const (
	promptCacheTTL  = 15 * time.Minute
	promptCacheSize = 1000
)

// DefaultPromptTimeout bounds one extraction call: past it the parser's reading serves.
const DefaultPromptTimeout = 10 * time.Second

// promptMaxTokens bounds the model's answer (a small JSON object).
const promptMaxTokens = 400

// NewLLMPrompts returns the extractor; timeout <= 0 takes DefaultPromptTimeout, a nil
// log discards.
func NewLLMPrompts(r LLMResolver, timeout time.Duration, log *slog.Logger) *LLMPrompts {
	if timeout <= 0 {
		timeout = DefaultPromptTimeout
	}
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	return &LLMPrompts{resolver: r, timeout: timeout, log: log, cache: map[string]cachedPrompt{}}
}

var _ PromptExtractor = (*LLMPrompts)(nil)

// The keys of the model's JSON answer, one per Prompt field.
var promptKeys = []string{"seniority", "department", "industry", "country", "employees", "titles", "signals", "text"}

// ExtractPrompt asks the organisation's default LLM for the prompt's filters. The answer
// is returned as the model gave it; Service.readPrompt validates it (unknown values are
// dropped) before using any of it.
func (p *LLMPrompts) ExtractPrompt(ctx context.Context, orgID, text string) (Prompt, error) {
	integ, client, err := p.resolver.Resolve(ctx, orgID, "")
	if err != nil {
		return Prompt{}, err
	}
	if client == nil {
		return Prompt{}, fmt.Errorf("integration %s is not a generative engine", integ.ID)
	}
	key := strings.Join([]string{orgID, integ.ID, integ.Model, text}, "\x00")
	if p, ok := p.cached(key); ok {
		return p, nil
	}
	ctx, cancel := context.WithTimeout(ctx, p.timeout)
	defer cancel()
	resp, err := client.Complete(ctx, llm.Request{Model: integ.Model, System: promptInstruction(), Prompt: text,
		MaxTokens: promptMaxTokens, JSONFields: promptKeys})
	if err != nil {
		return Prompt{}, fmt.Errorf("icp_prompt extraction by %s/%s: %w", integ.Provider, integ.Model, err)
	}
	p.log.Debug("icp_prompt read by the organisation's LLM", "org", orgID, "provider", integ.Provider, "model", integ.Model,
		"prompt_tokens", resp.PromptTokens, "completion_tokens", resp.CompletionTokens, "cost_usd", resp.CostUSD)
	got, err := decodePrompt(resp.Text)
	if err != nil {
		return Prompt{}, err
	}
	p.keep(key, got)
	return got, nil
}

func (p *LLMPrompts) cached(key string) (Prompt, bool) {
	p.mu.Lock()
	defer p.mu.Unlock()
	c, ok := p.cache[key]
	if !ok || time.Since(c.at) > promptCacheTTL {
		return Prompt{}, false
	}
	return c.p, true
}

// keep stores a reading; a full cache first drops the expired ones, then, if still
// full, all of them (simple, and a refill costs one call per prompt).
func (p *LLMPrompts) keep(key string, got Prompt) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if len(p.cache) >= promptCacheSize {
		for k, c := range p.cache {
			if time.Since(c.at) > promptCacheTTL {
				delete(p.cache, k)
			}
		}
		if len(p.cache) >= promptCacheSize {
			clear(p.cache)
		}
	}
	p.cache[key] = cachedPrompt{got, time.Now()}
}

// promptInstruction is the system prompt: the keys and every allowed value.
func promptInstruction() string {
	var regions []string
	for _, r := range geo.Regions() {
		regions = append(regions, r.Code)
	}
	var buckets []string
	for _, b := range employeeBounds {
		buckets = append(buckets, b.bucket)
	}
	var b strings.Builder
	b.WriteString("You turn a natural-language ideal customer profile (ICP) for a B2B contact search into search filters. ")
	b.WriteString("Fill each key from what the text says and leave it empty (\"\") when the text does not say. ")
	b.WriteString("Separate several values with \"; \". Use only the allowed values, spelled exactly as listed.\n")
	fmt.Fprintf(&b, "- seniority: the people's level, from: %s.\n", strings.Join(title.Seniorities(), "; "))
	fmt.Fprintf(&b, "- department: the people's function, from (case-sensitive): %s.\n", strings.Join(title.Departments(), "; "))
	fmt.Fprintf(&b, "- industry: the companies' industry, from: %s.\n", strings.Join(industry.All(), "; "))
	fmt.Fprintf(&b, "- country: where the companies are, as ISO 3166-1 alpha-2 codes (DE, US, ...) or these region codes: %s.\n", strings.Join(regions, "; "))
	fmt.Fprintf(&b, "- employees: the companies' head-count buckets the text's range overlaps, from: %s.\n", strings.Join(buckets, "; "))
	b.WriteString("- titles: job-title keywords the people must hold, only when the text names titles (for example: head of growth; CMO).\n")
	b.WriteString("- signals: company facts none of the keys above holds: technologies the companies use, products they sell, funding (for example: stripe; payroll software; series b).\n")
	b.WriteString("- text: what remains of the description of the people once the filters above are taken out, in a few words.\n")
	b.WriteString("Revenue is not a filter: ignore it.")
	return b.String()
}

// decodePrompt reads the model's JSON object (a code fence around it is tolerated).
// List values may be a "; "-separated string or an array of strings.
func decodePrompt(answer string) (Prompt, error) {
	if i, j := strings.Index(answer, "{"), strings.LastIndex(answer, "}"); i >= 0 && j > i {
		answer = answer[i : j+1]
	}
	var obj map[string]json.RawMessage
	if err := json.Unmarshal([]byte(answer), &obj); err != nil {
		return Prompt{}, fmt.Errorf("icp_prompt extraction: the answer is not a JSON object: %w", err)
	}
	list := func(k string) []string {
		var one string
		if json.Unmarshal(obj[k], &one) == nil {
			return strings.FieldsFunc(one, func(r rune) bool { return r == ';' || r == ',' || r == '\n' })
		}
		var many []string
		_ = json.Unmarshal(obj[k], &many) // anything else is junk: no values
		return many
	}
	var p Prompt
	p.Seniority, p.Department, p.Industry = list("seniority"), list("department"), list("industry")
	p.Country, p.Employees, p.Titles, p.Signals = list("country"), list("employees"), list("titles"), list("signals")
	_ = json.Unmarshal(obj["text"], &p.Text)
	return p, nil
}

// Bounds on what a model may add, so an answer cannot inflate a request.
const (
	maxModelTitles  = 10
	maxModelSignals = 5
	maxModelItem    = 100 // bytes per title or signal
)

// validPrompt keeps only what the parser could have produced: enum values checked
// against the same tables as the request parameters, countries and regions known to
// geo, buckets of the API reference, titles the title filter accepts, short signals. Unknown
// values are dropped, never trusted.
func validPrompt(p Prompt) Prompt {
	var out Prompt
	keep := func(vals []string, norm func(string) string, ok func(string) bool, limit int) []string {
		var kept []string
		for _, v := range vals {
			v = norm(strings.TrimSpace(v))
			if v != "" && len(v) <= maxModelItem && ok(v) && len(kept) < limit {
				kept = append(kept, v)
			}
		}
		return dedupe(kept)
	}
	same := func(s string) string { return s }
	all := func(string) bool { return true }
	out.Seniority = keep(p.Seniority, strings.ToLower, title.ValidSeniority, len(p.Seniority))
	out.Department = keep(p.Department, same, title.ValidDepartment, len(p.Department))
	out.Industry = keep(p.Industry, strings.ToUpper, industry.Valid, len(p.Industry))
	out.Country = keep(p.Country, strings.ToUpper, func(v string) bool {
		_, err := geo.ExpandCountries([]string{v})
		return err == nil
	}, len(p.Country))
	out.Employees = keep(p.Employees, same, func(v string) bool {
		for _, b := range employeeBounds {
			if b.bucket == v {
				return true
			}
		}
		return false
	}, len(p.Employees))
	out.Titles = keep(p.Titles, same, func(v string) bool {
		_, err := title.ParseQuery([]string{v})
		return err == nil
	}, maxModelTitles)
	out.Signals = keep(p.Signals, strings.ToLower, all, maxModelSignals)
	out.Employees = bucketOrder(out.Employees)
	if t := strings.TrimSpace(p.Text); len(t) <= maxTextLen {
		out.Text = t
	}
	return out
}

// mergePrompt combines the parser's reading with the model's validated one, field by
// field: a field the model filled with valid values takes the model's values (it reads
// the whole sentence; the parser only sees cue words), a field it left empty keeps the
// parser's. The semantic text is the model's when it gave one. So a model that answers
// nothing usable leaves the parser's reading unchanged.
func mergePrompt(parsed, model Prompt) Prompt {
	pick := func(p, m []string) []string {
		if len(m) > 0 {
			return m
		}
		return p
	}
	out := Prompt{
		Seniority: pick(parsed.Seniority, model.Seniority), Department: pick(parsed.Department, model.Department),
		Industry: pick(parsed.Industry, model.Industry), Country: pick(parsed.Country, model.Country),
		Employees: pick(parsed.Employees, model.Employees), Titles: pick(parsed.Titles, model.Titles),
		Signals: pick(parsed.Signals, model.Signals), Text: parsed.Text,
	}
	if model.Text != "" {
		out.Text = model.Text
	}
	return out
}

// readPrompt replaces the parser's reading of an icp_prompt by the merge with the
// organisation's LLM, when there is an extractor; any failure keeps the parser's.
func (s *Service) readPrompt(ctx context.Context, orgID string, req Request) Request {
	if s.prompts == nil || req.Prompt == nil {
		return req
	}
	got, err := s.prompts.ExtractPrompt(ctx, orgID, strings.TrimSpace(req.Params.IcpPrompt))
	if err != nil {
		return req // the parser serves: no default integration, a failed call, junk
	}
	merged := mergePrompt(*req.Prompt, validPrompt(got))
	req.Prompt = &merged
	if strings.TrimSpace(req.Params.IcpText) == "" {
		req.Text = merged.Text
	}
	return req
}
