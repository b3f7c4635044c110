package accounthttp

import (
	"net/http"

	"github.com/firmoapi/firmo/shared/httpapi"
)

// MetaRoutes are the unauthenticated service routes: health, the OpenAPI document and
// the browsable reference. They belong to the account family's function on AWS.
func MetaRoutes(openapiJSON, docsHTML []byte) []httpapi.Route {
	const fam = httpapi.FamilyAccount
	return []httpapi.Route{
		{Method: "GET", Path: "/healthz", Family: fam, Auth: httpapi.AuthNone, Handle: func(w http.ResponseWriter, r *http.Request) error {
			httpapi.WriteJSON(w, http.StatusOK, map[string]string{"status": "ok"})
			return nil
		}},
		{Method: "GET", Path: "/v1/openapi.json", Family: fam, Auth: httpapi.AuthNone, Handle: func(w http.ResponseWriter, r *http.Request) error {
			w.Header().Set("Content-Type", "application/json")
			w.Write(openapiJSON)
			return nil
		}},
		{Method: "GET", Path: "/docs", Family: fam, Auth: httpapi.AuthNone, Handle: func(w http.ResponseWriter, r *http.Request) error {
			w.Header().Set("Content-Type", "text/html; charset=utf-8")
			w.Header().Set("Content-Security-Policy", "default-src 'none'; style-src 'unsafe-inline'")
			w.Write(docsHTML)
			return nil
		}},
	}
}
