package generationhttp

import (
	"context"
	"net/http"

	"github.com/firmoapi/firmo/shared/contactgen"
	"github.com/firmoapi/firmo/shared/httpapi"
	"github.com/firmoapi/firmo/shared/task"
)

// GenerateService submits contact generation; contactgen.Service implements it.
type GenerateService interface {
	Submit(ctx context.Context, orgID string, r contactgen.Request) (task.Submitted, error)
}

// GenerateRoutes serve POST /v1/contacts/discover/generate (family "generation"): the
// people each company's pages list, as a task polled at GET /v1/gen/status/{task_id}.
func GenerateRoutes(svc GenerateService) []httpapi.Route {
	return []httpapi.Route{{Method: "POST", Path: "/v1/contacts/discover/generate", Family: httpapi.FamilyGeneration,
		Handle: func(w http.ResponseWriter, r *http.Request) error {
			if _, err := httpapi.ParseQuery(r.URL.Query()); err != nil {
				return err
			}
			var body contactgen.Request
			if err := httpapi.DecodeJSON(r, &body); err != nil {
				return err
			}
			sub, err := svc.Submit(r.Context(), httpapi.Caller(r).Org.ID, body)
			if err != nil {
				return err
			}
			httpapi.WriteJSON(w, http.StatusOK, sub)
			return nil
		}}}
}
