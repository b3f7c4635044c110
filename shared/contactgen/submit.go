package contactgen

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"github.com/google/uuid"

	"github.com/firmoapi/firmo/shared/apperr"
	"github.com/firmoapi/firmo/shared/domain"
	"github.com/firmoapi/firmo/shared/integration"
	"github.com/firmoapi/firmo/shared/task"
)

// Engines, as integration_id names them.
const (
	EngineNative = "native"
	EngineLLM    = "llm"
)

// title_validation values.
const (
	ValidationNone = "none"
	ValidationLLM  = "llm"
)

// Limits and defaults of a request (README, Contact generation).
const (
	DefaultMaxContacts = 10
	MaxContacts        = 100
	maxICPBytes        = 32 << 10
)

var (
	contextModes = []string{ModeWebsite, ModeProfile, ModeDomain} // the first is the default
	searchDepth  = map[string]int{"low": 1, "medium": 3, "high": 5}
)

// Request is a POST /v1/contacts/discover/generate body. Pointers tell an omitted
// parameter from a zero one.
type Request struct {
	ICPText              *string  `json:"icp_text"`
	Domains              []string `json:"domains"`
	ContextMode          string   `json:"context_mode"`
	IntegrationID        string   `json:"integration_id"`
	SearchProviderID     string   `json:"search_provider_id"`
	SearchContextSize    string   `json:"search_context_size"`
	MaxContactsPerDomain *int     `json:"max_contacts_per_domain"`
	FindEmails           bool     `json:"find_emails"`
}

// params are a task's stored parameters: what every domain needs, decided once.
type params struct {
	ICP              string `json:"icp_text"`
	Mode             string `json:"context_mode"`
	Engine           string `json:"engine"`
	IntegrationID    string `json:"integration_id,omitempty"`
	SearchProviderID string `json:"search_provider_id"`
	SearchQueries    int    `json:"search_queries"`
	MaxContacts      int    `json:"max_contacts_per_domain"`
	FindEmails       bool   `json:"find_emails,omitempty"`
}

// Submit validates a request and submits its task. Request-shape errors are 422
// naming the field; no search provider at all is a 400 (no_search_provider).
func (s *Service) Submit(ctx context.Context, orgID string, r Request) (task.Submitted, error) {
	p, keys, err := check(r)
	if err != nil {
		return task.Submitted{}, err
	}
	prov, _, err := s.d.Searchers.Resolve(ctx, orgID, r.SearchProviderID)
	if err != nil {
		return task.Submitted{}, err // none configured: websearch's 400 no_search_provider
	}
	p.SearchProviderID = prov.ID
	if err := s.resolveEngine(ctx, orgID, r.IntegrationID, &p); err != nil {
		return task.Submitted{}, err
	}
	raw, err := json.Marshal(p)
	if err != nil {
		return task.Submitted{}, err
	}
	records := make([]task.Input, len(keys))
	for i, k := range keys {
		records[i] = task.Input{Key: k}
	}
	validation := ValidationNone
	if p.Engine == EngineLLM {
		validation = ValidationLLM
	}
	// total_domains echoes what was sent: the engine counts the records before it
	// merges duplicates (with a warning).
	return s.d.Tasks.Submit(ctx, task.Submission{OrgID: orgID, Kind: Kind, Records: records, Field: "domains", Params: raw,
		ColumnName: task.Columns(Columns...), TitleValidation: validation,
		ResponseFormat: &task.ResponseFormat{ResponseType: ResponseType, Description: p.ICP, FieldLabels: map[string]string{}, TypedColumns: []task.TypedColumn{}}})
}

// check validates the request's shape and normalises its domains.
func check(r Request) (params, []string, error) {
	if r.ICPText == nil || strings.TrimSpace(*r.ICPText) == "" {
		return params{}, nil, apperr.Invalid("icp_text", "icp_text must be a non-empty persona description")
	}
	if len(*r.ICPText) > maxICPBytes {
		return params{}, nil, apperr.Invalid("icp_text", "icp_text is %d bytes; the limit is %d", len(*r.ICPText), maxICPBytes)
	}
	if len(r.Domains) == 0 || len(r.Domains) > task.MaxRecords {
		return params{}, nil, apperr.Invalid("domains", "give 1 to %d domains; got %d", task.MaxRecords, len(r.Domains))
	}
	keys := make([]string, len(r.Domains))
	for i, d := range r.Domains {
		n, err := domain.NormalizeField(fmt.Sprintf("domains[%d]", i), d)
		if err != nil {
			return params{}, nil, err
		}
		keys[i] = n
	}
	p := params{ICP: strings.TrimSpace(*r.ICPText), Mode: r.ContextMode, MaxContacts: DefaultMaxContacts, FindEmails: r.FindEmails}
	if p.Mode == "" {
		p.Mode = contextModes[0]
	}
	if !contains(contextModes, p.Mode) {
		return params{}, nil, apperr.Invalid("context_mode", "context_mode must be one of %s; got %q", strings.Join(contextModes, ", "), r.ContextMode)
	}
	size := r.SearchContextSize
	if size == "" {
		size = "low"
	}
	n, ok := searchDepth[size]
	if !ok {
		return params{}, nil, apperr.Invalid("search_context_size", "search_context_size must be one of low, medium, high; got %q", r.SearchContextSize)
	}
	p.SearchQueries = n
	if r.MaxContactsPerDomain != nil {
		if m := *r.MaxContactsPerDomain; m < 1 || m > MaxContacts {
			return params{}, nil, apperr.Invalid("max_contacts_per_domain", "max_contacts_per_domain must be 1 to %d; got %d", MaxContacts, m)
		}
		p.MaxContacts = *r.MaxContactsPerDomain
	}
	switch {
	case r.IntegrationID != "" && r.IntegrationID != EngineNative && !isUUID(r.IntegrationID):
		return params{}, nil, apperr.Invalid("integration_id", "integration_id must be an LLM integration UUID or native")
	case r.SearchProviderID != "" && !isUUID(r.SearchProviderID):
		return params{}, nil, apperr.Invalid("search_provider_id", "search_provider_id must be a search provider UUID")
	}
	return p, keys, nil
}

// resolveEngine decides the engine: native when asked, or when integration_id is
// omitted and the organisation has no default LLM integration; otherwise the LLM
// engine of the integration (a typed-judgment one cannot generate: 400).
func (s *Service) resolveEngine(ctx context.Context, orgID, integrationID string, p *params) error {
	if integrationID == EngineNative {
		p.Engine = EngineNative
		return nil
	}
	integ, client, err := s.d.Integrations.Resolve(ctx, orgID, integrationID)
	var ae *apperr.Error
	if integrationID == "" && errors.As(err, &ae) && ae.Code == integration.CodeNoIntegration {
		p.Engine = EngineNative
		return nil
	}
	if err != nil {
		return err
	}
	if client == nil {
		return &apperr.Error{Kind: apperr.ErrBadRequest, Code: integration.CodeTypedNotGenerative, Field: "integration_id",
			Message: "A typed-judgment integration cannot generate contacts; pass a generative integration or native."}
	}
	p.Engine, p.IntegrationID = EngineLLM, integ.ID
	return nil
}

func contains(list []string, v string) bool {
	for _, a := range list {
		if a == v {
			return true
		}
	}
	return false
}

func isUUID(s string) bool {
	_, err := uuid.Parse(s)
	return err == nil && len(s) == 36
}
