package contactgen

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"html"
	"strings"

	"github.com/firmoapi/firmo/shared/contact"
	"github.com/firmoapi/firmo/shared/integration"
	"github.com/firmoapi/firmo/shared/llm"
	"github.com/firmoapi/firmo/shared/people"
	"github.com/firmoapi/firmo/shared/task"
	"github.com/firmoapi/firmo/shared/title"
)

// Bounds of what the extraction call reads, and of the calls' answers.
const (
	maxPageText      = 6000  // runes of one page
	maxTotalText     = 40000 // bytes of the extraction prompt
	extractMaxTokens = 4096
	// validateMaxTokens bounds the validation answer: a base and a share per title.
	validateBaseTokens, validateTokensPerTitle = 200, 80
)

// match_status values of the LLM engine (the native engine's rows are all MatchMatch).
const (
	MatchNoMatch = "no_match" // the validation call found the title does not fit icp_text
	MatchUnknown = "unknown"  // not validated: the row has no title, or the validation call failed
)

// Verdicts of the validation call.
const (
	verdictMatch   = "match"
	verdictNoMatch = "no_match"
)

const extractSystem = `You read a company's web pages and list the people who work there, as the pages show them.
For each person give: "name" (the full name exactly as written on a page), "title" (the job title
exactly as written, or null), "email" (only an address a page shows for that person, or null),
"linkedin_url" (only a linkedin.com/in/ URL a page shows for that person, or null) and "source_url"
(the URL of the page the person is listed on). List only people named on the pages; never guess or
invent a person, an email or a URL. A company profile, when given, only says which company this is:
it is not a page, and no one is listed from it. Role mailboxes (info@, sales@...) are no one's email.
Departments and teams are not people.`

const validateSystem = `You decide whether job titles fit a persona. For each title given, answer "match" when a
person holding that title fits the persona described, else "no_match", with a one-sentence reason.
Judge the title itself, in whatever language it is written. The keys of your answer are the titles
exactly as given.`

// llmRow is one item of the extraction call's answer.
type llmRow struct {
	Name        string `json:"name"`
	Title       string `json:"title"`
	Email       string `json:"email"`
	LinkedInURL string `json:"linkedin_url"`
	SourceURL   string `json:"source_url"`
}

// verdict is the validation call's answer for one title.
type verdict struct {
	Reason  string `json:"reason"`
	Verdict string `json:"verdict"`
}

// extractSchema is the JSON schema of the extraction call's answer (strict: every key
// required, absent values null).
func extractSchema() map[string]any {
	str := map[string]any{"type": "string"}
	orNull := map[string]any{"type": []string{"string", "null"}}
	row := map[string]any{"type": "object",
		"properties":           map[string]any{"name": str, "title": orNull, "email": orNull, "linkedin_url": orNull, "source_url": str},
		"required":             []string{"name", "title", "email", "linkedin_url", "source_url"},
		"additionalProperties": false}
	return map[string]any{"type": "object",
		"properties":           map[string]any{"contacts": map[string]any{"type": "array", "items": row}},
		"required":             []string{"contacts"},
		"additionalProperties": false}
}

// validateSchema is the JSON schema of the validation call's answer: one key per
// title, each {reason, verdict} (the reason first, so the model reasons before it
// decides).
func validateSchema(titles []string) map[string]any {
	item := map[string]any{"type": "object",
		"properties": map[string]any{"reason": map[string]any{"type": "string"},
			"verdict": map[string]any{"type": "string", "enum": []string{verdictMatch, verdictNoMatch}}},
		"required":             []string{"reason", "verdict"},
		"additionalProperties": false}
	props := make(map[string]any, len(titles))
	for _, t := range titles {
		props[t] = item
	}
	return map[string]any{"type": "object", "properties": props, "required": titles, "additionalProperties": false}
}

// llmEngine answers one domain with the organisation's LLM in two calls. It reads the
// pages context_mode selects (as the native engine does) and asks the model for the
// people in a JSON schema, keeping only what the pages show: a name that occurs on no
// page read drops the row, counted in a warning; an email or LinkedIn URL no page
// shows is removed. Then one batched call validates every title of the domain against
// icp_text; match_status comes from it, and a failed validation keeps the rows with
// match_status unknown and a warning. Each call is one entry of cost_metadata.
func (s *Service) llmEngine(ctx context.Context, rec task.Record, prm params) (task.Result, error) {
	var res task.Result
	dom := rec.Key
	m, err := s.gather(ctx, rec, prm, &res)
	if err != nil {
		return res, err
	}
	if len(m.pages) == 0 {
		res.Row = map[string]any{"contacts": []Row{}}
		return res, nil
	}
	integ, client, err := s.d.Integrations.Resolve(ctx, rec.OrgID, prm.IntegrationID)
	if err != nil {
		return res, err
	}
	if client == nil {
		return res, fmt.Errorf("integration %s is not a generative engine", integ.ID)
	}
	texts := make([]string, len(m.pages))
	for i, p := range m.pages {
		texts[i] = pageText(p, m.country())
	}
	// Counted in cost_metadata as it starts, even if the process dies mid-call (not when replayed).
	resp, err := client.Complete(task.CountCalls(ctx, integ.Provider, integ.Model), llm.Request{Model: integ.Model, System: extractSystem, Prompt: extractPrompt(prm, dom, m, texts),
		MaxTokens: extractMaxTokens, JSONSchema: extractSchema(), SchemaName: "contacts"})
	res.Usage = appendUsage(res.Usage, integ, resp) // spend counts even when the call failed
	if err != nil {
		return res, err
	}
	var answer struct {
		Contacts []llmRow `json:"contacts"`
	}
	if err := json.Unmarshal([]byte(jsonPart(resp.Text)), &answer); err != nil {
		return res, fmt.Errorf("the model's answer was not the JSON object asked for: %w", err)
	}
	rows := []Row{}
	seen := map[string]bool{}
	dropped := 0
	for _, r := range answer.Contacts {
		name := strings.Join(strings.Fields(r.Name), " ")
		src := pageShowing(m.pages, texts, name)
		if name == "" || src < 0 {
			dropped++
			continue
		}
		if seen[people.NameKey(name)] || len(rows) == prm.MaxContacts {
			continue
		}
		seen[people.NameKey(name)] = true
		row := Row{Name: name, Phone: []contact.Phone{}, MatchStatus: MatchUnknown, SourceURL: m.pages[src].url}
		if t := strings.Join(strings.Fields(r.Title), " "); t != "" {
			c := title.Classify(t)
			row.Title, row.Department, row.Seniority = strPtr(t), strPtr(c.Department), strPtr(c.Seniority)
		}
		if e := strings.ToLower(strings.TrimSpace(r.Email)); e != "" && !people.IsRoleAddress(e) && shown(m.pages, e) {
			row.Email = strPtr(e)
		}
		if l := strings.TrimSpace(r.LinkedInURL); strings.Contains(l, "linkedin.com/in/") && shown(m.pages, l) {
			row.LinkedInURL = strPtr(l)
		}
		rows = append(rows, row)
	}
	if dropped > 0 {
		res.Warnings = append(res.Warnings, fmt.Sprintf("%s: %d rows the model gave named people who occur on no page read; they were dropped.", dom, dropped))
	}
	if err := s.validate(ctx, integ, client, prm, dom, rows, &res); err != nil {
		return res, err
	}
	s.recordShown(ctx, dom, rows)
	if prm.FindEmails {
		if err := s.findEmails(ctx, rec, dom, rows, &res); err != nil {
			return res, err
		}
	}
	res.Row = s.result(ctx, dom, rows)
	return res, nil
}

// extractPrompt is the extraction call's context, as context_mode selects it: the
// persona (so the closest fits come first when max_contacts_per_domain cuts the
// list), the domain, the stored profile (website and profile modes) and the pages'
// texts, within maxTotalText.
func extractPrompt(prm params, dom string, m material, texts []string) string {
	var b strings.Builder
	fmt.Fprintf(&b, "Persona sought (list the people closest to it first): %s\n\nCompany domain: %s\n", prm.ICP, dom)
	if m.profile != nil {
		fmt.Fprintf(&b, "\nCompany profile (context only; list no one from it):\n%s\n", m.profile.Describe())
	}
	for i, p := range m.pages {
		t := clip(texts[i], maxPageText)
		if b.Len()+len(t) > maxTotalText {
			break
		}
		fmt.Fprintf(&b, "\n=== Page %s ===\n%s\n", p.url, t)
	}
	return b.String()
}

// pageText is what the model reads of a page: first the people its markup names that
// the visible text does not show (schema.org Person in JSON-LD sits in a script the
// text leaves out), one per line with their title, then the visible text.
func pageText(p page, country string) string {
	text := people.Text(p.html)
	low := strings.ToLower(text)
	var extra []string
	for _, per := range people.Extract(p.html, p.url, people.Options{Country: country}) {
		if strings.Contains(low, strings.ToLower(per.Name)) {
			continue
		}
		line := "- " + per.Name
		if per.Title != "" {
			line += ", " + per.Title
		}
		extra = append(extra, line)
	}
	if len(extra) == 0 {
		return text
	}
	return "People in the page's structured data:\n" + strings.Join(extra, "\n") + "\n\n" + text
}

// validate sets each row's match_status from one batched call that judges every
// distinct title of the domain against icp_text. Rows without a title stay unknown.
// A failed call (or an answer that is not the JSON asked for) keeps every row unknown
// with a warning; a title the answer leaves out stays unknown with a warning. Only a
// cancelled or expired context is an error: the record is being stopped.
func (s *Service) validate(ctx context.Context, integ integration.Integration, client llm.Client, prm params, dom string, rows []Row, res *task.Result) error {
	var titles []string
	seen := map[string]bool{}
	for _, r := range rows {
		if r.Title != nil && !seen[*r.Title] {
			seen[*r.Title] = true
			titles = append(titles, *r.Title)
		}
	}
	if len(titles) == 0 {
		return nil
	}
	list, _ := json.Marshal(titles)
	prompt := fmt.Sprintf("Persona: %s\n\nCompany domain: %s\n\nTitles to validate (a JSON array):\n%s\n", prm.ICP, dom, list)
	resp, err := client.Complete(task.CountCalls(ctx, integ.Provider, integ.Model), llm.Request{Model: integ.Model, System: validateSystem, Prompt: prompt,
		MaxTokens: validateBaseTokens + validateTokensPerTitle*len(titles), JSONSchema: validateSchema(titles), SchemaName: "title_validation"})
	res.Usage = appendUsage(res.Usage, integ, resp)
	var verdicts map[string]verdict
	why := ""
	switch {
	case err != nil && ctx.Err() != nil:
		return ctx.Err()
	case err != nil:
		why = callFailure(err)
	case json.Unmarshal([]byte(jsonPart(resp.Text)), &verdicts) != nil:
		why, err = "its answer was not the JSON object asked for", errors.New("validation answer is not JSON")
	}
	if err != nil {
		s.d.Log.Warn("contact generation: title validation failed", "domain", dom, "err", err)
		res.Warnings = append(res.Warnings, fmt.Sprintf("%s: the LLM's title validation failed (%s); the rows are kept with match_status unknown.", dom, why))
		return nil
	}
	byKey := make(map[string]verdict, len(verdicts))
	for t, v := range verdicts {
		byKey[titleKey(t)] = v
	}
	missing := 0
	for i, r := range rows {
		if r.Title == nil {
			continue
		}
		v, ok := verdicts[*r.Title]
		if !ok {
			v, ok = byKey[titleKey(*r.Title)]
		}
		switch {
		case ok && v.Verdict == verdictMatch:
			rows[i].MatchStatus = MatchMatch
		case ok && v.Verdict == verdictNoMatch:
			rows[i].MatchStatus = MatchNoMatch
		default:
			missing++
		}
	}
	if missing > 0 {
		res.Warnings = append(res.Warnings, fmt.Sprintf("%s: the LLM's title validation gave no verdict for %d rows; they are kept with match_status unknown.", dom, missing))
	}
	return nil
}

// callFailure says why an LLM call failed, in the words of the llm port's error kinds
// (their text names no key or vendor detail).
func callFailure(err error) string {
	for _, k := range []error{llm.ErrOutOfCredits, llm.ErrAuth, llm.ErrRateLimited, llm.ErrBadModel, llm.ErrProvider} {
		if errors.Is(err, k) {
			return k.Error()
		}
	}
	return "the call failed"
}

// titleKey compares titles the way a model may echo them: case and spacing aside.
func titleKey(t string) string { return strings.ToLower(strings.Join(strings.Fields(t), " ")) }

// appendUsage adds a call's cost_metadata entry, unless the call was replayed from an
// earlier run of the record (llm.Response.Replayed), which counted it when it was made.
func appendUsage(us []task.Usage, integ integration.Integration, resp llm.Response) []task.Usage {
	if resp.Replayed {
		return us
	}
	return append(us, usageOf(integ, resp))
}

// usageOf is one call's cost_metadata entry (tokens only when the server reported them).
func usageOf(integ integration.Integration, resp llm.Response) task.Usage {
	u := task.Usage{Provider: integ.Provider, Model: integ.Model, Calls: 1, SearchCalls: resp.SearchCalls, CostUSD: resp.CostUSD}
	if resp.UsageReported {
		pt, ct := int64(resp.PromptTokens), int64(resp.CompletionTokens)
		u.PromptTokens, u.CompletionTokens = &pt, &ct
	}
	return u
}

// pageShowing is the index of the first page whose text (or markup, for names given
// only in structured data) contains name, -1 when none does.
func pageShowing(pages []page, texts []string, name string) int {
	if name == "" {
		return -1
	}
	low := strings.ToLower(name)
	for i := range pages {
		if strings.Contains(strings.ToLower(texts[i]), low) || strings.Contains(strings.ToLower(html.UnescapeString(pages[i].html)), low) {
			return i
		}
	}
	return -1
}

func shown(pages []page, s string) bool {
	low := strings.ToLower(s)
	for _, p := range pages {
		if strings.Contains(strings.ToLower(html.UnescapeString(p.html)), low) {
			return true
		}
	}
	return false
}

// jsonPart is the JSON object in a model's answer (some wrap it in a code fence).
func jsonPart(s string) string {
	i, j := strings.IndexByte(s, '{'), strings.LastIndexByte(s, '}')
	if i < 0 || j < i {
		return s
	}
	return s[i : j+1]
}
