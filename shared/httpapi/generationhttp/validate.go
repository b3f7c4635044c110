package generationhttp

import (
	"context"
	"net/http"

	"github.com/firmoapi/firmo/shared/httpapi"
	"github.com/firmoapi/firmo/shared/research"
	"github.com/firmoapi/firmo/shared/task"
)

// ICPValidator submits ICP validations; research.Service implements it.
type ICPValidator interface {
	SubmitICP(ctx context.Context, orgID string, r research.ICPRequest) (task.Submitted, error)
}

// ValidateRoutes serve POST /v1/validate/icp (family "generation"): does each of up to
// 10,000 companies fit an ideal customer profile? An LLM run answers Fit, Confidence
// and Reasoning per domain; integration_id native-icp runs the native ICP-fit model.
// Results are polled at GET /v1/gen/status/{task_id}.
func ValidateRoutes(svc ICPValidator) []httpapi.Route {
	return []httpapi.Route{{Method: "POST", Path: "/v1/validate/icp", Family: httpapi.FamilyGeneration, Handle: func(w http.ResponseWriter, r *http.Request) error {
		if _, err := httpapi.ParseQuery(r.URL.Query()); err != nil {
			return err
		}
		var body struct {
			ICPText          *string  `json:"icp_text"`
			Domains          []string `json:"domains"`
			ContextMode      string   `json:"context_mode"`
			IntegrationID    string   `json:"integration_id"`
			WebSearch        bool     `json:"web_search"`
			SearchProviderID string   `json:"search_provider_id"`
		}
		if err := httpapi.DecodeJSON(r, &body); err != nil {
			return err
		}
		req := research.ICPRequest{Domains: body.Domains, ContextMode: body.ContextMode, IntegrationID: body.IntegrationID,
			WebSearch: body.WebSearch, SearchProviderID: body.SearchProviderID}
		if body.ICPText != nil {
			req.ICPText = *body.ICPText
		}
		sub, err := svc.SubmitICP(r.Context(), httpapi.Caller(r).Org.ID, req)
		if err != nil {
			return err
		}
		httpapi.WriteJSON(w, http.StatusOK, sub)
		return nil
	}}}
}
