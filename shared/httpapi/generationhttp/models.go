package generationhttp

import (
	"context"
	"net/http"
	"sort"
	"time"

	"github.com/firmoapi/firmo/shared/httpapi"
	"github.com/firmoapi/firmo/shared/integration"
	"github.com/firmoapi/firmo/shared/llm"
)

// IntegrationLister lists an organisation's integrations; integration.Service
// implements it.
type IntegrationLister interface {
	List(ctx context.Context, org string) ([]integration.Integration, time.Time, error)
}

// ModelRoutes serve GET /v1/gen/models (Lambda "generation"): the static catalogue of
// the hosted providers (llm.Catalogue) merged with the models of the organisation's
// own integrations (custom and typed endpoints, and hosted models outside the
// catalogue).
func ModelRoutes(integrations IntegrationLister) []httpapi.Route {
	return []httpapi.Route{{Method: "GET", Path: "/v1/gen/models", Family: httpapi.FamilyGeneration, Handle: func(w http.ResponseWriter, r *http.Request) error {
		if _, err := httpapi.ParseQuery(r.URL.Query()); err != nil {
			return err
		}
		list, _, err := integrations.List(r.Context(), httpapi.Caller(r).Org.ID)
		if err != nil {
			return err
		}
		httpapi.WriteJSON(w, http.StatusOK, map[string]any{"models": mergeModels(llm.Catalogue(), list)})
		return nil
	}}}
}

func mergeModels(cat map[string][]llm.Model, list []integration.Integration) map[string][]llm.Model {
	out := map[string][]llm.Model{}
	for _, p := range integration.Providers {
		out[p] = append([]llm.Model{}, cat[p]...)
	}
	for _, in := range list {
		known := false
		for _, m := range out[in.Provider] {
			known = known || m.Name == in.Model
		}
		if !known {
			out[in.Provider] = append(out[in.Provider], llm.Model{Name: in.Model, SupportsWebSearch: in.SupportsWebSearch})
		}
	}
	for p := range out {
		if p == integration.ProviderCustom || p == integration.ProviderTyped {
			sort.Slice(out[p], func(i, j int) bool { return out[p][i].Name < out[p][j].Name })
		}
	}
	return out
}
