package contactgen

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"html"
	"strings"

	"github.com/firmoapi/firmo/shared/apperr"
	"github.com/firmoapi/firmo/shared/contact"
	"github.com/firmoapi/firmo/shared/llm"
	"github.com/firmoapi/firmo/shared/people"
	"github.com/firmoapi/firmo/shared/task"
	"github.com/firmoapi/firmo/shared/title"
)

// Bounds of what one LLM call reads.
const (
	maxPageText  = 6000
	maxTotalText = 40000
)

// MatchNoMatch is match_status of an LLM row whose title does not fit icp_text.
const MatchNoMatch = "no_match"

const llmSystem = `You read a company's web pages and list the people who work there, as the pages show them.
Answer with a JSON object {"contacts": [...]} whose items have the keys:
  "name" (the person's full name exactly as written on a page),
  "title" (their job title exactly as written, or null),
  "email" (only an address a page shows for that person, or null),
  "linkedin_url" (only a linkedin.com/in/ URL a page shows for that person, or null),
  "source_url" (the URL of the page the person is listed on),
  "title_matches_persona" (true when the title fits the persona described below, else false).
List only people named on the pages; never guess or invent a person, an email or a URL. Role
mailboxes (info@, sales@...) are no one's email. Departments and teams are not people.`

// llmRow is one item of the model's answer.
type llmRow struct {
	Name        string `json:"name"`
	Title       string `json:"title"`
	Email       string `json:"email"`
	LinkedInURL string `json:"linkedin_url"`
	SourceURL   string `json:"source_url"`
	Matches     bool   `json:"title_matches_persona"`
}

// llmEngine answers one domain with the organisation's LLM: it reads the same pages as
// the native engine, asks for the people in a JSON schema with each title validated
// against icp_text, and keeps only what the pages show (a name that occurs on no page
// read drops the row, counted in a warning; an email or LinkedIn URL no page shows is
// removed).
func (s *Service) llmEngine(ctx context.Context, rec task.Record, prm params) (task.Result, error) {
	var res task.Result
	dom := rec.Key
	hits := s.search(ctx, rec.OrgID, prm, dom, &res)
	stored, err := s.d.Companies.Pages(ctx, dom)
	if err != nil && !errors.Is(err, apperr.ErrNotFound) {
		return res, fmt.Errorf("pages of %s: %w", dom, err)
	}
	pages := s.pages(ctx, dom, stored, hits)
	if len(pages) == 0 {
		res.Warnings = append(res.Warnings, warnNoPages)
		res.Row = map[string]any{"contacts": []Row{}}
		return res, nil
	}
	texts := make([]string, len(pages))
	var prompt strings.Builder
	fmt.Fprintf(&prompt, "Persona: %s\n\nCompany domain: %s\n", prm.ICP, dom)
	for i, p := range pages {
		texts[i] = people.Text(p.html)
		t := texts[i]
		if len(t) > maxPageText {
			t = t[:maxPageText]
		}
		if prompt.Len()+len(t) > maxTotalText {
			break
		}
		fmt.Fprintf(&prompt, "\n=== Page %s ===\n%s\n", p.url, t)
	}
	integ, client, err := s.d.Integrations.Resolve(ctx, rec.OrgID, prm.IntegrationID)
	if err != nil {
		return res, err
	}
	if client == nil {
		return res, fmt.Errorf("integration %s is not a generative engine", integ.ID)
	}
	resp, err := client.Complete(ctx, llm.Request{Model: integ.Model, System: llmSystem, Prompt: prompt.String(), JSONFields: []string{"contacts"}})
	u := task.Usage{Provider: integ.Provider, Model: integ.Model, Calls: 1, SearchCalls: resp.SearchCalls, CostUSD: resp.CostUSD}
	if resp.UsageReported {
		pt, ct := int64(resp.PromptTokens), int64(resp.CompletionTokens)
		u.PromptTokens, u.CompletionTokens = &pt, &ct
	}
	res.Usage = append(res.Usage, u) // spend counts even when the call failed
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
		src := pageShowing(pages, texts, name)
		if name == "" || src < 0 {
			dropped++
			continue
		}
		if seen[people.NameKey(name)] || len(rows) == prm.MaxContacts {
			continue
		}
		seen[people.NameKey(name)] = true
		row := Row{Name: name, Phone: []contact.Phone{}, MatchStatus: MatchNoMatch, SourceURL: pages[src].url}
		if r.Matches {
			row.MatchStatus = MatchMatch
		}
		if t := strings.TrimSpace(r.Title); t != "" {
			c := title.Classify(t)
			row.Title, row.Department, row.Seniority = strPtr(t), strPtr(c.Department), strPtr(c.Seniority)
		}
		if e := strings.ToLower(strings.TrimSpace(r.Email)); e != "" && !people.IsRoleAddress(e) && shown(pages, e) {
			row.Email = strPtr(e)
		}
		if l := strings.TrimSpace(r.LinkedInURL); strings.Contains(l, "linkedin.com/in/") && shown(pages, l) {
			row.LinkedInURL = strPtr(l)
		}
		rows = append(rows, row)
	}
	if dropped > 0 {
		res.Warnings = append(res.Warnings, fmt.Sprintf("%s: %d rows the model gave named people who occur on no page read; they were dropped.", dom, dropped))
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
