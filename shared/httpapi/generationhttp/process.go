package generationhttp

import (
	"context"
	"encoding/json"
	"net/http"

	"github.com/firmoapi/firmo/shared/httpapi"
	"github.com/firmoapi/firmo/shared/research"
	"github.com/firmoapi/firmo/shared/task"
)

// ResearchService is what the batch research endpoints need; research.Service
// implements it.
type ResearchService interface {
	SubmitCompanies(ctx context.Context, orgID string, r research.CompanyRequest) (task.Submitted, error)
	SubmitPersonas(ctx context.Context, orgID string, r research.PersonaRequest) (task.Submitted, error)
}

type processAPI struct{ svc ResearchService }

// ProcessRoutes are batch research (family "generation"): one prompt over up to 10,000
// companies or contacts, each record in its own LLM call; results are polled at
// GET /v1/gen/status/{task_id}.
func ProcessRoutes(svc ResearchService) []httpapi.Route {
	a := &processAPI{svc: svc}
	const fam = httpapi.FamilyGeneration
	return []httpapi.Route{
		{Method: "POST", Path: "/v1/gen/process", Family: fam, Handle: a.companies},
		{Method: "POST", Path: "/v1/gen/process-personas", Family: fam, Handle: a.personas},
	}
}

// researchBody holds the parameters both endpoints share. Pointers tell an omitted
// parameter from a zero one where the default differs.
type researchBody struct {
	Query             *string                    `json:"query"`
	IntegrationID     string                     `json:"integration_id"`
	WebSearch         bool                       `json:"web_search"`
	SearchProviderID  string                     `json:"search_provider_id"`
	SearchContextSize string                     `json:"search_context_size"`
	IncludeXSearch    bool                       `json:"include_x_search"`
	TypedColumns      bool                       `json:"typed_columns"`
	IncludeConfidence bool                       `json:"include_confidence"`
	ContextMode       string                     `json:"context_mode"`
	Previous          map[string]json.RawMessage `json:"previous_discogen_data"`
}

func (b researchBody) options() research.Options {
	q := ""
	if b.Query != nil {
		q = *b.Query
	}
	return research.Options{Query: q, IntegrationID: b.IntegrationID, WebSearch: b.WebSearch, SearchProviderID: b.SearchProviderID,
		SearchContextSize: b.SearchContextSize, IncludeXSearch: b.IncludeXSearch, TypedColumns: b.TypedColumns,
		IncludeConfidence: b.IncludeConfidence, ContextMode: b.ContextMode, Previous: b.Previous}
}

type companiesBody struct {
	researchBody
	Domains []string `json:"domains"`
}

type personasBody struct {
	researchBody
	PersonaIDs []int64 `json:"persona_ids"`
}

func (a *processAPI) companies(w http.ResponseWriter, r *http.Request) error {
	if _, err := httpapi.ParseQuery(r.URL.Query()); err != nil {
		return err
	}
	var body companiesBody
	if err := httpapi.DecodeJSON(r, &body); err != nil {
		return err
	}
	sub, err := a.svc.SubmitCompanies(r.Context(), httpapi.Caller(r).Org.ID, research.CompanyRequest{Options: body.options(), Domains: body.Domains})
	if err != nil {
		return err
	}
	httpapi.WriteJSON(w, http.StatusOK, sub)
	return nil
}

func (a *processAPI) personas(w http.ResponseWriter, r *http.Request) error {
	if _, err := httpapi.ParseQuery(r.URL.Query()); err != nil {
		return err
	}
	var body personasBody
	if err := httpapi.DecodeJSON(r, &body); err != nil {
		return err
	}
	sub, err := a.svc.SubmitPersonas(r.Context(), httpapi.Caller(r).Org.ID, research.PersonaRequest{Options: body.options(), PersonaIDs: body.PersonaIDs})
	if err != nil {
		return err
	}
	httpapi.WriteJSON(w, http.StatusOK, sub)
	return nil
}
