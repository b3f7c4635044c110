package accounthttp

import (
	"net/http"

	"github.com/firmoapi/firmo/shared/httpapi"
)

// Page renders a document on first use; later calls return the same bytes.
type Page func() ([]byte, error)

// DocsPage renders the browsable reference on first use: its HTML and the
// Content-Security-Policy it is served with (the scripts it may run).
type DocsPage func() (html []byte, csp string, err error)

// MetaRoutes are the unauthenticated service routes: health, readiness, the OpenAPI document and
// the browsable reference (each rendered once, on its first request, so a cold start
// does not assemble them). They belong to the account family's function on AWS.
func MetaRoutes(openapiJSON Page, docsHTML DocsPage) []httpapi.Route {
	const fam = httpapi.FamilyAccount
	return []httpapi.Route{
		{Method: "GET", Path: "/healthz", Family: fam, Auth: httpapi.AuthNone, Handle: func(w http.ResponseWriter, r *http.Request) error {
			httpapi.WriteJSON(w, http.StatusOK, map[string]string{"status": "ok"})
			return nil
		}},
		// Readiness: a process that reaches this handler serves every route. `firmo
		// serve` answers 503 with Retry-After in front of it while the demo world of its
		// first start loads (its gate, shared/cli); a Lambda is ready when it runs.
		{Method: "GET", Path: "/readyz", Family: fam, Auth: httpapi.AuthNone, Handle: func(w http.ResponseWriter, r *http.Request) error {
			httpapi.WriteJSON(w, http.StatusOK, map[string]string{"status": "ready"})
			return nil
		}},
		{Method: "GET", Path: "/v1/openapi.json", Family: fam, Auth: httpapi.AuthNone, Handle: func(w http.ResponseWriter, r *http.Request) error {
			doc, err := openapiJSON()
			if err != nil {
				return err
			}
			w.Header().Set("Content-Type", "application/json")
			w.Write(doc)
			return nil
		}},
		{Method: "GET", Path: "/docs", Family: fam, Auth: httpapi.AuthNone, Handle: func(w http.ResponseWriter, r *http.Request) error {
			page, csp, err := docsHTML()
			if err != nil {
				return err
			}
			w.Header().Set("Content-Type", "text/html; charset=utf-8")
			w.Header().Set("Content-Security-Policy", csp)
			w.Write(page)
			return nil
		}},
	}
}
