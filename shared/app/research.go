package app

import (
	"context"
	"fmt"
	"log/slog"
	"strings"

	"github.com/firmoapi/firmo/shared/account"
	"github.com/firmoapi/firmo/shared/apperr"
	"github.com/firmoapi/firmo/shared/billing"
	"github.com/firmoapi/firmo/shared/company"
	"github.com/firmoapi/firmo/shared/contact"
	"github.com/firmoapi/firmo/shared/integration"
	"github.com/firmoapi/firmo/shared/llm"
	"github.com/firmoapi/firmo/shared/research"
	"github.com/firmoapi/firmo/shared/task"
	"github.com/firmoapi/firmo/shared/websearch"
)

// buildResearch registers the batch research kinds (gen_process, gen_process_personas)
// on the task engine. integrations and searchers are the organisation's LLM
// integrations and search providers; nil stands for "none configured" until their
// services are composed here (every request then answers the spec's 400s). Persona
// records are read from the contact store.
func buildResearch(tasks *task.Engine, integrations research.Integrations, searchers research.Searchers,
	companies *company.Service, contacts *contact.Store, credits *billing.Service, accounts *account.Service, log *slog.Logger) (*research.Service, error) {
	if integrations == nil {
		integrations = noIntegrations{}
	}
	if searchers == nil {
		searchers = noSearchers{}
	}
	return research.New(research.Deps{Tasks: tasks, Integrations: integrations, Searchers: searchers,
		Companies: research.CompanyData{Svc: companies}, Contacts: contactData{contacts}, Billing: credits, Orgs: accounts, Log: log})
}

// contactData serves /gen/process-personas records from the contact store. Contacts
// are shared reference data, so the organisation does not scope them.
type contactData struct{ store *contact.Store }

func (c contactData) Contact(ctx context.Context, _ string, personaID int64) (research.Contact, error) {
	r, err := c.store.Get(ctx, personaID)
	if err != nil {
		return research.Contact{}, err
	}
	var b strings.Builder
	fmt.Fprintf(&b, "Name: %s\nTitle: %s\nCompany domain: %s\n", r.Name, r.Title, r.Domain)
	if r.Country != "" {
		fmt.Fprintf(&b, "Location: %s %s\n", r.Country, r.State)
	}
	if len(r.Skills) > 0 {
		fmt.Fprintf(&b, "Skills: %s\n", strings.Join(r.Skills, ", "))
	}
	if r.JobstartDate != "" {
		fmt.Fprintf(&b, "In current role since: %s\n", r.JobstartDate)
	}
	if r.Summary != "" {
		fmt.Fprintf(&b, "Summary: %s\n", r.Summary)
	}
	return research.Contact{PersonaID: r.PersonaID, Name: r.Name, Title: r.Title, LinkedInURL: r.LinkedinURL,
		Summary: r.Summary, Profile: b.String(), Domain: r.Domain}, nil
}

type noIntegrations struct{}

func (noIntegrations) Resolve(context.Context, string, string) (integration.Integration, llm.Client, error) {
	return integration.Integration{}, nil, apperr.BadRequest(integration.CodeNoIntegration, "No LLM integration is configured; create one at /v1/llm-providers/config.")
}

func (noIntegrations) Judge(context.Context, string) (integration.Integration, llm.Judge, error) {
	return integration.Integration{}, nil, apperr.NotFound("no typed-judgment integration on the account")
}

type noSearchers struct{}

func (noSearchers) Resolve(context.Context, string, string) (websearch.Provider, websearch.Searcher, error) {
	return websearch.Provider{}, nil, apperr.BadRequest(websearch.CodeNoProvider, "No search provider is configured for the organisation; create one at /v1/search-providers.")
}
