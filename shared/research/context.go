package research

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/firmoapi/firmo/shared/apperr"
	"github.com/firmoapi/firmo/shared/company"
	"github.com/firmoapi/firmo/shared/task"
	"github.com/firmoapi/firmo/shared/websearch"
)

// recordCtx is what a record's answer is built from.
type recordCtx struct {
	text    string
	subject string // company or person name for search queries; the domain when unknown
	domain  string
	bill    string // the record key to bill, "" when nothing billable was delivered
	// profiled: the company has a profile in Firmo's data; home is its stored
	// homepage text as the context gives it (ICP validation's reject rule reads both).
	profiled bool
	home     string
}

// Warnings (deduplicated by the engine, so they name no record).
const (
	warnNoProfile   = "Some domains have no company profile in Firmo's data; their rows were answered from the domain name only."
	warnNoHomepage  = "Some domains have no stored homepage text; their rows were answered from the company profile only."
	warnNoQuery     = "web_search was on but the search provider ran no query for some rows; those rows rely on profile and website text only."
	warnOutOfCredit = "The search provider %q is out of credits; affected rows rely on profile and website text only."
	warnCircuit     = "The search provider %q failed repeatedly and its circuit breaker tripped; affected rows rely on profile and website text only."
	warnSearchSetup = "The search provider could not be used (%s); affected rows rely on profile and website text only."
)

// maxContextRunes bounds the text of one source (homepage, profile) in a prompt.
const maxContextRunes = 6000

func (s *Service) recordContext(ctx context.Context, kind string, rec task.Record, prm params, res *task.Result) (*recordCtx, error) {
	if kind == KindPersonas {
		return s.personaContext(ctx, rec, prm, res)
	}
	return s.companyContext(ctx, rec.Key, prm.Mode, res)
}

func (s *Service) companyContext(ctx context.Context, dom, mode string, res *task.Result) (*recordCtx, error) {
	rc := &recordCtx{subject: dom, domain: dom, text: "Company domain: " + dom}
	if mode == ModeDomain {
		return rc, nil
	}
	p, err := s.d.Companies.Profile(ctx, dom)
	if errors.Is(err, apperr.ErrNotFound) {
		res.Warnings = append(res.Warnings, warnNoProfile)
		return rc, nil
	}
	if err != nil {
		return nil, err
	}
	rc.bill = dom
	rc.profiled = true
	if p.Name != "" {
		rc.subject = p.Name
	}
	rc.text = "Company profile:\n" + p.Describe()
	if mode != ModeWebsite {
		return rc, nil
	}
	home, err := s.d.Companies.HomeText(ctx, dom)
	switch {
	case errors.Is(err, apperr.ErrNotFound) || (err == nil && strings.TrimSpace(home) == ""):
		res.Warnings = append(res.Warnings, warnNoHomepage)
	case err != nil:
		return nil, err
	default:
		rc.home = clipRunes(home, maxContextRunes)
		rc.text += "\n\nHomepage text:\n" + rc.home
	}
	return rc, nil
}

func (s *Service) personaContext(ctx context.Context, rec task.Record, prm params, res *task.Result) (*recordCtx, error) {
	notFound := &apperr.Error{Kind: apperr.ErrNotFound, Message: "contact not found"}
	if s.d.Contacts == nil {
		return nil, notFound
	}
	id, _ := strconv.ParseInt(rec.Key, 10, 64)
	c, err := s.d.Contacts.Contact(ctx, rec.OrgID, id)
	if errors.Is(err, apperr.ErrNotFound) {
		return nil, notFound
	}
	if err != nil {
		return nil, err
	}
	subject := c.Name
	rc := &recordCtx{subject: subject, domain: c.Domain, bill: rec.Key}
	switch prm.Mode {
	case ModeNameOnly:
		rc.bill = ""
		rc.text = "Name: " + c.Name + "\nProfessional network profile: " + c.LinkedInURL
		return rc, nil
	case ModeProfileSummary:
		rc.text = fmt.Sprintf("Name: %s\nTitle: %s\nSummary: %s", c.Name, c.Title, clipRunes(c.Summary, 600))
		return rc, nil
	}
	rc.text = "Contact profile:\n" + clipRunes(c.Profile, maxContextRunes)
	if prm.Mode == ModeProfile || c.Domain == "" {
		return rc, nil
	}
	mode := ModeProfile
	if prm.Mode == ModeFull {
		mode = ModeWebsite
	}
	emp, err := s.companyContext(ctx, c.Domain, mode, res)
	if err != nil {
		return nil, err
	}
	rc.text += "\n\nEmployer:\n" + emp.text
	if emp.subject != c.Domain {
		rc.subject = c.Name + " " + emp.subject
	}
	return rc, nil
}

func clipRunes(s string, n int) string {
	s = strings.TrimSpace(s)
	if r := []rune(s); len(r) > n {
		return string(r[:n]) + "…"
	}
	return s
}

// resultsPerQuery is how many hits each search query asks for.
const resultsPerQuery = 5

// searchQueries builds n queries from the prompt and the record's name and domain.
func searchQueries(prompt string, rc *recordCtx, n int) []string {
	words := strings.Fields(prompt)
	if len(words) > 12 {
		words = words[:12]
	}
	subject := rc.subject
	qs := []string{strings.TrimSpace(subject + " " + strings.Join(words, " "))}
	if rc.domain != "" {
		qs = append(qs, `"`+rc.domain+`"`)
	} else {
		qs = append(qs, `"`+subject+`"`)
	}
	qs = append(qs, subject+" company overview", subject+" news", subject+" products customers")
	if n > len(qs) {
		n = len(qs)
	}
	return qs[:n]
}

// search runs the record's queries on the task's search provider and appends what
// they found to the context. Failures never fail the record: they become warnings.
func (s *Service) search(ctx context.Context, org string, prm params, queries []string, rc *recordCtx, res *task.Result) {
	prov, searcher, err := s.d.Searchers.Resolve(ctx, org, prm.SearchProviderID)
	if err != nil {
		res.Warnings = append(res.Warnings, fmt.Sprintf(warnSearchSetup, apperr.Describe(err).Message), warnNoQuery)
		return
	}
	run := websearch.RunQueries(ctx, searcher, prov.Kind, queries, resultsPerQuery)
	switch {
	case errors.Is(run.Stopped, websearch.ErrCircuitOpen):
		res.Warnings = append(res.Warnings, fmt.Sprintf(warnCircuit, prov.Name))
	case errors.Is(run.Stopped, websearch.ErrOutOfCredits):
		res.Warnings = append(res.Warnings, fmt.Sprintf(warnOutOfCredit, prov.Name))
	}
	found := make([]string, 0, len(run.Hits))
	for _, h := range run.Hits {
		found = append(found, fmt.Sprintf("- %s (%s): %s", h.Title, h.URL, clipRunes(h.Snippet, 400)))
	}
	use := task.SearchUsage{Provider: prov.Kind, Model: websearch.Models[prov.Kind], QueriesExecuted: run.Executed, QueriesSucceeded: run.Succeeded, CostUSD: run.CostUSD}
	if use.QueriesExecuted == 0 {
		res.Warnings = append(res.Warnings, warnNoQuery)
	}
	res.Search = append(res.Search, use)
	if len(found) > 0 {
		rc.text += "\n\nWeb search results:\n" + strings.Join(found, "\n")
	}
}

// CompanyData adapts company.Service to Companies.
type CompanyData struct{ Svc *company.Service }

// Profile returns a domain's profile.
func (c CompanyData) Profile(ctx context.Context, dom string) (company.Profile, error) {
	return c.Svc.Profile(ctx, dom)
}

// HomeText returns the extracted text of the domain's home page: the fetched page with
// the shortest URL among those that answered 2xx with content. A page stored raw (the
// seeded world's pages wait for the reprocessing job) is extracted here.
func (c CompanyData) HomeText(ctx context.Context, dom string) (string, error) {
	pages, err := c.Svc.Store().Pages(ctx, dom)
	if err != nil {
		return "", err
	}
	best := -1
	for i, p := range pages {
		if p.StatusCode < 200 || p.StatusCode >= 300 || (strings.TrimSpace(p.Text) == "" && p.HTML == "") {
			continue
		}
		if best < 0 || len(p.URL) < len(pages[best].URL) {
			best = i
		}
	}
	if best < 0 {
		return "", fmt.Errorf("homepage text of %s: %w", dom, apperr.ErrNotFound)
	}
	p := pages[best]
	if strings.TrimSpace(p.Text) == "" && c.Svc.Deriver() != nil {
		p = c.Svc.Deriver().ExtractPage(p)
	}
	return strings.TrimSpace(strings.Join([]string{p.Title, p.Description, p.Text}, "\n")), nil
}
