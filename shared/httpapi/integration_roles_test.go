package httpapi_test

import (
	"bytes"
	"context"
	"errors"
	"path/filepath"
	"testing"

	"github.com/firmoapi/firmo/shared/account"
	"github.com/firmoapi/firmo/shared/apperr"
	"github.com/firmoapi/firmo/shared/httpapi/integrationhttp"
	"github.com/firmoapi/firmo/shared/integration"
	"github.com/firmoapi/firmo/shared/kv/boltkv"
	"github.com/firmoapi/firmo/shared/llm"
	"github.com/firmoapi/firmo/shared/secret"
	"github.com/firmoapi/firmo/shared/websearch"
)

// offlineConnector stands in for the vendors: no model list (so nothing is marked
// deprecated) and clients nobody calls.
type offlineConnector struct{}

func (offlineConnector) Client(integration.Conn) (llm.Client, error) { return nil, nil }
func (offlineConnector) Judge(integration.Conn) (llm.Judge, error)   { return nil, nil }
func (offlineConnector) Models(context.Context, integration.Conn) ([]string, error) {
	return nil, errors.New("offline")
}
func (offlineConnector) Test(context.Context, integration.Conn) error { return nil }

// publicURLs accepts every base URL: the guarded-fetch rules are tested in
// shared/integration.
type publicURLs struct{}

func (publicURLs) Check(context.Context, string) error { return nil }

type noSearcher struct{}

func (noSearcher) Search(context.Context, string, int) ([]websearch.Result, error) { return nil, nil }

// roleWorld serves the LLM integration and search provider routes with the real
// services (on a store of their own) next to the saved-query world's accounts.
func roleWorld(t *testing.T) (*qworld, *integration.Service, *websearch.Service) {
	t.Helper()
	store, err := boltkv.Open(filepath.Join(t.TempDir(), "integrations.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { store.Close() })
	box, err := secret.New(bytes.Repeat([]byte{7}, secret.KeySize))
	if err != nil {
		t.Fatal(err)
	}
	integrations := integration.New(integration.Deps{Store: store, Sealer: box, URLs: publicURLs{}, Connector: offlineConnector{}})
	providers := websearch.New(websearch.Deps{Store: store, Sealer: box, Factory: websearch.FactoryFunc(func(string, string) (websearch.Searcher, error) { return noSearcher{}, nil })})
	routes := append(integrationhttp.IntegrationRoutes(integrations), integrationhttp.SearchProviderRoutes(providers)...)
	return newQWorld(t, routes...), integrations, providers
}

// wantForbidden fails unless r is a 403 forbidden.
func wantForbidden(t *testing.T, what string, r qreply) {
	t.Helper()
	if r.status != 403 || r.code() != "forbidden" || r.message() == "" {
		t.Fatalf("%s: want 403 forbidden, got %d %s", what, r.status, r.raw)
	}
}

func wantStatus(t *testing.T, what string, r qreply, status int) {
	t.Helper()
	if r.status != status {
		t.Fatalf("%s: want %d, got %d %s", what, status, r.status, r.raw)
	}
}

func createdID(t *testing.T, what string, r qreply, idField string) (string, map[string]any) {
	t.Helper()
	wantStatus(t, what, r, 201)
	id, _ := r.body[idField].(string)
	var item map[string]any
	for _, k := range []string{"integration", "provider"} {
		if m, ok := r.body[k].(map[string]any); ok {
			item = m
		}
	}
	if id == "" || item == nil {
		t.Fatalf("%s: no id or item in %s", what, r.raw)
	}
	return id, item
}

// TestMemberCannotRedirectOrganisationLLM: only admins change the organisation default
// or an integration they did not create (README, LLM integrations).
func TestMemberCannotRedirectOrganisationLLM(t *testing.T) {
	w, integrations, _ := roleWorld(t)
	ctx := context.Background()
	adminKey, org := w.user("Acme", account.PlanEnterprise, account.RoleAdmin)
	memberKey, _ := w.user("Acme", account.PlanEnterprise, account.RoleMember)
	otherMemberKey, _ := w.user("Acme", account.PlanEnterprise, account.RoleMember)
	const path = "/v1/llm-providers/config"

	// A member's first generative integration does not become the default: research
	// without integration_id still finds none.
	mine, item := createdID(t, "member create", w.do("POST", path, memberKey,
		`{"integration_name":"Mine","provider":"openai","api_key":"sk-member-1","model_name":"gpt-4o-mini"}`), "integration_id")
	if item["is_default"] != false {
		t.Fatalf("a member's first integration became the default: %v", item)
	}
	if _, _, err := integrations.Resolve(ctx, org.ID, ""); apperr.Describe(err).Code != integration.CodeNoIntegration {
		t.Fatalf("resolve without a default: %v", err)
	}
	wantForbidden(t, "member set-default", w.do("POST", path+"/"+mine+"/set-default", memberKey, ""))

	// A member updates and deletes their own integration.
	got := w.do("PUT", path+"/"+mine, memberKey, `{"integration_name":"Mine, renamed"}`)
	wantStatus(t, "member updates own", got, 200)
	if got.body["integration"].(map[string]any)["integration_name"] != "Mine, renamed" {
		t.Fatalf("update: %s", got.raw)
	}
	wantForbidden(t, "another member updates it", w.do("PUT", path+"/"+mine, otherMemberKey, `{"integration_name":"x"}`))
	wantForbidden(t, "another member deletes it", w.do("DELETE", path+"/"+mine, otherMemberKey, ""))
	wantStatus(t, "member deletes own", w.do("DELETE", path+"/"+mine, memberKey, ""), 200)

	// The admin's first generative integration becomes the default.
	def, item := createdID(t, "admin create", w.do("POST", path, adminKey,
		`{"integration_name":"Company","provider":"openai","api_key":"sk-admin-1","model_name":"gpt-4o-mini"}`), "integration_id")
	if item["is_default"] != true {
		t.Fatalf("the admin's first integration is not the default: %v", item)
	}

	// The attack: a member points the admin's default at their own server.
	wantForbidden(t, "member redirects the default", w.do("PUT", path+"/"+def, memberKey,
		`{"provider":"custom","base_url":"https://llm.attacker.example/v1","api_key":"sk-attacker","model_name":"evil"}`))
	wantForbidden(t, "member renames the admin's integration", w.do("PUT", path+"/"+def, memberKey, `{"integration_name":"x"}`))
	wantForbidden(t, "member deletes the admin's integration", w.do("DELETE", path+"/"+def, memberKey, ""))
	got = w.do("GET", path+"/"+def, memberKey, "")
	if got.status != 200 || got.body["provider"] != "openai" || got.body["base_url"] != nil || got.body["integration_name"] != "Company" || got.body["is_default"] != true {
		t.Fatalf("the default changed: %s", got.raw)
	}
	if in, _, err := integrations.Resolve(ctx, org.ID, ""); err != nil || in.ID != def || in.BaseURL != nil {
		t.Fatalf("research resolves %+v, %v", in, err)
	}

	// A member's integration the admin makes the default is no longer the member's to change.
	mine, _ = createdID(t, "member create", w.do("POST", path, memberKey,
		`{"integration_name":"Mine","provider":"openai","api_key":"sk-member-2","model_name":"gpt-4o-mini"}`), "integration_id")
	wantStatus(t, "admin set-default", w.do("POST", path+"/"+mine+"/set-default", adminKey, ""), 200)
	wantForbidden(t, "member changes own default", w.do("PUT", path+"/"+mine, memberKey, `{"model_name":"gpt-4o","api_key":"sk-member-3"}`))
	wantForbidden(t, "member deletes own default", w.do("DELETE", path+"/"+mine, memberKey, ""))
	wantStatus(t, "admin updates a member's integration", w.do("PUT", path+"/"+mine, adminKey, `{"integration_name":"Adopted"}`), 200)

	// A member's typed integration is not the organisation's typed judge.
	createdID(t, "member typed", w.do("POST", path, memberKey,
		`{"integration_name":"Judge","provider":"typed","api_key":"sk-member-4","model_name":"judge-1","base_url":"https://judge.attacker.example/v1"}`), "integration_id")
	if _, _, err := integrations.Judge(ctx, org.ID); !errors.Is(err, apperr.ErrNotFound) {
		t.Fatalf("a member's typed integration judges for the organisation: %v", err)
	}
	judge, _ := createdID(t, "admin typed", w.do("POST", path, adminKey,
		`{"integration_name":"Judge","provider":"typed","api_key":"sk-admin-2","model_name":"judge-1","base_url":"https://judge.example/v1"}`), "integration_id")
	if in, _, err := integrations.Judge(ctx, org.ID); err != nil || in.ID != judge {
		t.Fatalf("judge = %+v, %v; want the admin's %s", in, err, judge)
	}
}

// TestIntegrationsStoredWithoutCreator: integrations stored before creators were
// recorded count as an admin's.
func TestIntegrationsStoredWithoutCreator(t *testing.T) {
	w, integrations, providers := roleWorld(t)
	ctx := context.Background()
	memberKey, org := w.user("Acme", account.PlanEnterprise, account.RoleMember)
	legacy := account.Principal{Org: org} // no user: what an older stored item carries
	in, err := integrations.Create(ctx, legacy, integration.Input{Name: "Old", Provider: "openai", APIKey: "sk-old", Model: "gpt-4o-mini"})
	if err != nil || !in.IsDefault {
		t.Fatalf("create: %+v, %v", in, err)
	}
	p, err := providers.Create(ctx, legacy, websearch.Input{Kind: websearch.KindNative})
	if err != nil || !p.IsDefault {
		t.Fatalf("create provider: %+v, %v", p, err)
	}
	wantForbidden(t, "member updates an old integration", w.do("PUT", "/v1/llm-providers/config/"+in.ID, memberKey, `{"integration_name":"x"}`))
	wantForbidden(t, "member deletes an old integration", w.do("DELETE", "/v1/llm-providers/config/"+in.ID, memberKey, ""))
	wantForbidden(t, "member deletes an old provider", w.do("DELETE", "/v1/search-providers/"+p.ID, memberKey, ""))
}

// TestMemberSearchProviders: the same rules for web search providers (README, Web
// search providers).
func TestMemberSearchProviders(t *testing.T) {
	w, _, providers := roleWorld(t)
	ctx := context.Background()
	adminKey, org := w.user("Acme", account.PlanEnterprise, account.RoleAdmin)
	memberKey, _ := w.user("Acme", account.PlanEnterprise, account.RoleMember)
	otherMemberKey, _ := w.user("Acme", account.PlanEnterprise, account.RoleMember)
	const path = "/v1/search-providers"

	mine, item := createdID(t, "member create", w.do("POST", path, memberKey, `{"provider":"serper","api_key":"member-serper-key"}`), "provider_id")
	if item["is_default"] != false {
		t.Fatalf("a member's first provider became the default: %v", item)
	}
	if _, _, err := providers.Resolve(ctx, org.ID, ""); apperr.Describe(err).Code != websearch.CodeNoProvider {
		t.Fatalf("resolve without a default: %v", err)
	}
	wantForbidden(t, "member set-default", w.do("POST", path+"/"+mine+"/set-default", memberKey, ""))
	wantForbidden(t, "another member deletes it", w.do("DELETE", path+"/"+mine, otherMemberKey, ""))
	wantStatus(t, "member deletes own", w.do("DELETE", path+"/"+mine, memberKey, ""), 200)

	def, item := createdID(t, "admin create", w.do("POST", path, adminKey, `{"provider":"native"}`), "provider_id")
	if item["is_default"] != true {
		t.Fatalf("the admin's first provider is not the default: %v", item)
	}
	wantForbidden(t, "member deletes the admin's default", w.do("DELETE", path+"/"+def, memberKey, ""))
	mine, _ = createdID(t, "member create", w.do("POST", path, memberKey, `{"provider":"brave","api_key":"member-brave-key"}`), "provider_id")
	wantForbidden(t, "member makes own the default", w.do("POST", path+"/"+mine+"/set-default", memberKey, ""))
	if p, _, err := providers.Resolve(ctx, org.ID, ""); err != nil || p.ID != def {
		t.Fatalf("research resolves %+v, %v; want the admin's %s", p, err, def)
	}
	wantStatus(t, "admin set-default", w.do("POST", path+"/"+mine+"/set-default", adminKey, ""), 200)
	wantForbidden(t, "member deletes own default", w.do("DELETE", path+"/"+mine, memberKey, ""))
	wantStatus(t, "admin deletes a member's provider", w.do("DELETE", path+"/"+mine, adminKey, ""), 200)
}
