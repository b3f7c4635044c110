package app

import (
	"context"
	"log/slog"

	"github.com/firmoapi/firmo/shared/account"
	"github.com/firmoapi/firmo/shared/apperr"
	"github.com/firmoapi/firmo/shared/billing"
	"github.com/firmoapi/firmo/shared/company"
	"github.com/firmoapi/firmo/shared/integration"
	"github.com/firmoapi/firmo/shared/llm"
	"github.com/firmoapi/firmo/shared/research"
	"github.com/firmoapi/firmo/shared/task"
	"github.com/firmoapi/firmo/shared/websearch"
)

// buildResearch registers the batch research kinds (gen_process, gen_process_personas)
// on the task engine. integrations and searchers are the organisation's LLM
// integrations and search providers; nil stands for "none configured" until their
// services are composed here (every request then answers the spec's 400s). Contacts
// are not wired: contact search does not exist yet, so persona rows answer
// "Error: contact not found".
func buildResearch(tasks *task.Engine, integrations research.Integrations, searchers research.Searchers,
	companies *company.Service, credits *billing.Service, accounts *account.Service, log *slog.Logger) (*research.Service, error) {
	if integrations == nil {
		integrations = noIntegrations{}
	}
	if searchers == nil {
		searchers = noSearchers{}
	}
	return research.New(research.Deps{Tasks: tasks, Integrations: integrations, Searchers: searchers,
		Companies: research.CompanyData{Svc: companies}, Billing: credits, Orgs: accounts, Log: log})
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
