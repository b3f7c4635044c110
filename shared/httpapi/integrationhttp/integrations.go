package integrationhttp

import (
	"context"
	"encoding/json"
	"net/http"
	"time"

	"github.com/firmoapi/firmo/shared/account"
	"github.com/firmoapi/firmo/shared/apperr"
	"github.com/firmoapi/firmo/shared/httpapi"
	"github.com/firmoapi/firmo/shared/integration"
)

// IntegrationService is what the LLM integration routes need; integration.Service
// implements it.
type IntegrationService interface {
	List(ctx context.Context, org string) ([]integration.Integration, time.Time, error)
	ByID(ctx context.Context, org, id string) (integration.Integration, error)
	// The changes take the caller: who may make them depends on the role and on who
	// created the integration.
	Create(ctx context.Context, by account.Principal, in integration.Input) (integration.Integration, error)
	Update(ctx context.Context, by account.Principal, id string, p integration.Patch) (integration.Integration, error)
	Delete(ctx context.Context, by account.Principal, id string) error
	SetDefault(ctx context.Context, by account.Principal, id string) (integration.Integration, error)
	TestConnection(ctx context.Context, in integration.Input) error
}

// IntegrationRoutes are the LLM integration routes (Lambda "integrations"). The
// service decides who may change what: set-default needs the admin role, and a member
// updates or deletes only an integration they created that is not the default.
func IntegrationRoutes(svc IntegrationService) []httpapi.Route {
	a := &integrationAPI{svc: svc}
	const fam = httpapi.FamilyIntegrations
	return []httpapi.Route{
		{Method: "GET", Path: "/v1/llm-providers/config", Family: fam, Handle: a.list},
		{Method: "POST", Path: "/v1/llm-providers/config", Family: fam, Handle: a.create},
		{Method: "GET", Path: "/v1/llm-providers/config/{integration_id}", Family: fam, Handle: a.get},
		{Method: "PUT", Path: "/v1/llm-providers/config/{integration_id}", Family: fam, Handle: a.update},
		{Method: "DELETE", Path: "/v1/llm-providers/config/{integration_id}", Family: fam, Handle: a.delete},
		{Method: "POST", Path: "/v1/llm-providers/config/{integration_id}/set-default", Family: fam, Handle: a.setDefault},
		{Method: "POST", Path: "/v1/llm-providers/test-connection", Family: fam, Handle: a.test},
	}
}

type integrationAPI struct{ svc IntegrationService }

// IntegrationView is an integration as the API shows it: the key is always masked.
type IntegrationView struct {
	integration.Integration
	APIKey string `json:"api_key"`
}

func integrationView(i integration.Integration) IntegrationView {
	return IntegrationView{Integration: i, APIKey: integration.MaskedKey}
}

// optString tells an absent JSON field from an explicit null.
type optString struct {
	Set bool
	Val *string
}

func (o *optString) UnmarshalJSON(b []byte) error {
	o.Set = true
	if string(b) == "null" {
		o.Val = nil
		return nil
	}
	var s string
	if err := json.Unmarshal(b, &s); err != nil {
		return err
	}
	o.Val = &s
	return nil
}

type integrationBody struct {
	IntegrationName *string   `json:"integration_name"`
	Provider        *string   `json:"provider"`
	APIKey          *string   `json:"api_key"`
	ModelName       *string   `json:"model_name"`
	BaseURL         optString `json:"base_url"`
}

func (b integrationBody) input() integration.Input {
	return integration.Input{Name: deref(b.IntegrationName), Provider: deref(b.Provider), APIKey: deref(b.APIKey), Model: deref(b.ModelName), BaseURL: b.BaseURL.Val}
}

func deref(p *string) string {
	if p == nil {
		return ""
	}
	return *p
}

func (a *integrationAPI) list(w http.ResponseWriter, r *http.Request) error {
	if _, err := httpapi.ParseQuery(r.URL.Query()); err != nil {
		return err
	}
	list, mtime, err := a.svc.List(r.Context(), httpapi.Caller(r).Org.ID)
	if err != nil {
		return err
	}
	views := make([]IntegrationView, len(list))
	for i, in := range list {
		views[i] = integrationView(in)
	}
	if mtime.IsZero() {
		mtime = time.Now().UTC()
	}
	httpapi.WriteJSON(w, http.StatusOK, map[string]any{"providers": views, "mtime": mtime.UTC().Format(time.RFC3339)})
	return nil
}

func (a *integrationAPI) create(w http.ResponseWriter, r *http.Request) error {
	var b integrationBody
	if err := httpapi.DecodeJSON(r, &b); err != nil {
		return err
	}
	in, err := a.svc.Create(r.Context(), httpapi.Caller(r), b.input())
	if err != nil {
		return err
	}
	httpapi.WriteJSON(w, http.StatusCreated, map[string]any{"message": "LLM integration created.", "integration_id": in.ID, "integration": integrationView(in)})
	return nil
}

func (a *integrationAPI) get(w http.ResponseWriter, r *http.Request) error {
	in, err := a.svc.ByID(r.Context(), httpapi.Caller(r).Org.ID, r.PathValue("integration_id"))
	if err != nil {
		return err
	}
	httpapi.WriteJSON(w, http.StatusOK, integrationView(in))
	return nil
}

func (a *integrationAPI) update(w http.ResponseWriter, r *http.Request) error {
	var b integrationBody
	if err := httpapi.DecodeJSON(r, &b); err != nil {
		return err
	}
	p := integration.Patch{Name: b.IntegrationName, Provider: b.Provider, APIKey: b.APIKey, Model: b.ModelName, BaseURL: b.BaseURL.Val, BaseURLSet: b.BaseURL.Set}
	in, err := a.svc.Update(r.Context(), httpapi.Caller(r), r.PathValue("integration_id"), p)
	if err != nil {
		return err
	}
	httpapi.WriteJSON(w, http.StatusOK, map[string]any{"message": "LLM integration updated.", "integration_id": in.ID, "integration": integrationView(in)})
	return nil
}

func (a *integrationAPI) delete(w http.ResponseWriter, r *http.Request) error {
	id := r.PathValue("integration_id")
	if err := a.svc.Delete(r.Context(), httpapi.Caller(r), id); err != nil {
		return err
	}
	httpapi.WriteJSON(w, http.StatusOK, map[string]any{"message": "LLM integration deleted.", "integration_id": id})
	return nil
}

func (a *integrationAPI) setDefault(w http.ResponseWriter, r *http.Request) error {
	in, err := a.svc.SetDefault(r.Context(), httpapi.Caller(r), r.PathValue("integration_id"))
	if err != nil {
		return err
	}
	httpapi.WriteJSON(w, http.StatusOK, map[string]any{"message": "Default LLM integration set.", "integration_id": in.ID, "integration": integrationView(in)})
	return nil
}

func (a *integrationAPI) test(w http.ResponseWriter, r *http.Request) error {
	var b integrationBody
	if err := httpapi.DecodeJSON(r, &b); err != nil {
		return err
	}
	if b.IntegrationName != nil {
		return apperr.Invalid("integration_name", "test-connection takes provider, api_key, model_name and base_url only.")
	}
	if err := a.svc.TestConnection(r.Context(), b.input()); err != nil {
		return err
	}
	httpapi.WriteJSON(w, http.StatusOK, map[string]any{"status": "success", "message": "Connection successful: the provider answered with this key and model."})
	return nil
}
