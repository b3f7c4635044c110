package integrationhttp

import (
	"context"
	"net/http"

	"github.com/firmoapi/firmo/shared/account"
	"github.com/firmoapi/firmo/shared/httpapi"
	"github.com/firmoapi/firmo/shared/websearch"
)

// SearchProviderService is what the search provider routes need; websearch.Service
// implements it.
type SearchProviderService interface {
	List(ctx context.Context, org string) ([]websearch.Provider, error)
	// The changes take the caller: who may make them depends on the role and on who
	// created the provider.
	Create(ctx context.Context, by account.Principal, in websearch.Input) (websearch.Provider, error)
	Delete(ctx context.Context, by account.Principal, id string) error
	SetDefault(ctx context.Context, by account.Principal, id string) (websearch.Provider, error)
}

// SearchProviderRoutes are the organisation's web search providers (Lambda
// "integrations"). Like LLM integrations, set-default needs the admin role and a
// member deletes only a provider they created that is not the default.
func SearchProviderRoutes(svc SearchProviderService) []httpapi.Route {
	a := &searchProviderAPI{svc: svc}
	const fam = httpapi.FamilyIntegrations
	return []httpapi.Route{
		{Method: "GET", Path: "/v1/search-providers", Family: fam, Handle: a.list},
		{Method: "POST", Path: "/v1/search-providers", Family: fam, Handle: a.create},
		{Method: "DELETE", Path: "/v1/search-providers/{provider_id}", Family: fam, Handle: a.delete},
		{Method: "POST", Path: "/v1/search-providers/{provider_id}/set-default", Family: fam, Handle: a.setDefault},
	}
}

type searchProviderAPI struct{ svc SearchProviderService }

// SearchProviderView is a provider as the API shows it; a key, when it has one, is
// masked.
type SearchProviderView struct {
	websearch.Provider
	APIKey *string `json:"api_key"`
}

func searchProviderView(p websearch.Provider) SearchProviderView {
	v := SearchProviderView{Provider: p}
	if p.Kind != websearch.KindNative {
		m := "*****"
		v.APIKey = &m
	}
	return v
}

func (a *searchProviderAPI) list(w http.ResponseWriter, r *http.Request) error {
	if _, err := httpapi.ParseQuery(r.URL.Query()); err != nil {
		return err
	}
	list, err := a.svc.List(r.Context(), httpapi.Caller(r).Org.ID)
	if err != nil {
		return err
	}
	views := make([]SearchProviderView, len(list))
	for i, p := range list {
		views[i] = searchProviderView(p)
	}
	httpapi.WriteJSON(w, http.StatusOK, map[string]any{"providers": views})
	return nil
}

func (a *searchProviderAPI) create(w http.ResponseWriter, r *http.Request) error {
	var b struct {
		Provider string `json:"provider"`
		Name     string `json:"name"`
		APIKey   string `json:"api_key"`
	}
	if err := httpapi.DecodeJSON(r, &b); err != nil {
		return err
	}
	p, err := a.svc.Create(r.Context(), httpapi.Caller(r), websearch.Input{Kind: b.Provider, Name: b.Name, APIKey: b.APIKey})
	if err != nil {
		return err
	}
	httpapi.WriteJSON(w, http.StatusCreated, map[string]any{"message": "Search provider created.", "provider_id": p.ID, "provider": searchProviderView(p)})
	return nil
}

func (a *searchProviderAPI) delete(w http.ResponseWriter, r *http.Request) error {
	id := r.PathValue("provider_id")
	if err := a.svc.Delete(r.Context(), httpapi.Caller(r), id); err != nil {
		return err
	}
	httpapi.WriteJSON(w, http.StatusOK, map[string]any{"message": "Search provider deleted.", "provider_id": id})
	return nil
}

func (a *searchProviderAPI) setDefault(w http.ResponseWriter, r *http.Request) error {
	sp, err := a.svc.SetDefault(r.Context(), httpapi.Caller(r), r.PathValue("provider_id"))
	if err != nil {
		return err
	}
	httpapi.WriteJSON(w, http.StatusOK, map[string]any{"message": "Default search provider set.", "provider_id": sp.ID, "provider": searchProviderView(sp)})
	return nil
}
