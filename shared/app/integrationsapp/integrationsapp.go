// Package integrationsapp composes the integrations family (the organisations' LLM
// integrations and web search providers) and hands both services to the families that
// call providers: batch research, contact search's icp_prompt, the model list.
package integrationsapp

import (
	"context"
	"fmt"
	"slices"
	"time"

	"github.com/firmoapi/firmo/shared/app"
	"github.com/firmoapi/firmo/shared/apperr"
	"github.com/firmoapi/firmo/shared/company"
	"github.com/firmoapi/firmo/shared/config"
	"github.com/firmoapi/firmo/shared/fetch"
	"github.com/firmoapi/firmo/shared/httpapi"
	"github.com/firmoapi/firmo/shared/httpapi/integrationhttp"
	"github.com/firmoapi/firmo/shared/integration"
	"github.com/firmoapi/firmo/shared/llm"
	"github.com/firmoapi/firmo/shared/llm/llmconnect"
	"github.com/firmoapi/firmo/shared/secret"
	"github.com/firmoapi/firmo/shared/websearch"
	"github.com/firmoapi/firmo/shared/websearch/bravesearch"
	"github.com/firmoapi/firmo/shared/websearch/nativesearch"
	"github.com/firmoapi/firmo/shared/websearch/serpersearch"
)

// Composer composes the integrations family.
func Composer() app.Composer { return app.NewComposer(httpapi.FamilyIntegrations, Build, routes) }

func routes(s Services) []httpapi.Route {
	return slices.Concat(integrationhttp.IntegrationRoutes(s.Integrations), integrationhttp.SearchProviderRoutes(s.SearchProviders))
}

// Services are the organisations' LLM integrations and search providers.
type Services struct {
	Integrations    *integration.Service
	SearchProviders *websearch.Service
}

// Build returns the core's integration services, building them on first use.
func Build(_ context.Context, c *app.Core) (Services, error) {
	return app.Shared(c, "integrationsapp.Build", func() (Services, error) { return build(c.Config, c) })
}

// providerTimeout bounds one call to an LLM or search provider.
const providerTimeout = 120 * time.Second

// build makes the services. Provider keys are sealed with FIRMO_SECRET_KEY; locally a
// generated key file stands in. On AWS without the key the services refuse to seal or
// open keys with a 503 rather than store them in clear.
func build(cfg config.Config, c *app.Core) (Services, error) {
	var sealer interface {
		Seal(scope, plaintext string) (string, error)
		Open(scope, sealed string) (string, error)
	} = noSecretKey{}
	if cfg.Backend == config.BackendLocal || cfg.SecretKey != "" {
		key, err := secret.LoadOrCreate(cfg.SecretKey, cfg.DataDir)
		if err != nil {
			return Services{}, fmt.Errorf("secret key: %w", err)
		}
		box, err := secret.New(key)
		if err != nil {
			return Services{}, fmt.Errorf("secret key: %w", err)
		}
		sealer = box
	}
	client := llm.GuardedHTTPClient(cfg.FetchAllowHosts, providerTimeout)
	urls := fetch.New(fetch.Options{AllowHosts: cfg.FetchAllowHosts})
	integrations := integration.New(integration.Deps{Store: c.Store, Sealer: sealer, URLs: urls, Connector: llmconnect.Connector{HTTP: client, TypedBaseURL: cfg.TypedBaseURL}})
	native := nativesearch.New(company.NewKVStore(c.Store), nativesearch.Options{})
	factory := websearch.FactoryFunc(func(kind, key string) (websearch.Searcher, error) {
		switch kind {
		case websearch.KindNative:
			return native, nil
		case websearch.KindBrave:
			return bravesearch.New(key, "", client), nil
		case websearch.KindSerper:
			return serpersearch.New(key, "", client), nil
		}
		return nil, fmt.Errorf("search provider kind %q: %w", kind, apperr.ErrInvalid)
	})
	return Services{Integrations: integrations, SearchProviders: websearch.New(websearch.Deps{Store: c.Store, Sealer: sealer, Factory: factory})}, nil
}

// noSecretKey is the sealer of an AWS deployment without FIRMO_SECRET_KEY.
type noSecretKey struct{}

func (noSecretKey) Seal(string, string) (string, error) { return "", errNoKey }
func (noSecretKey) Open(string, string) (string, error) { return "", errNoKey }

var errNoKey = &apperr.Error{Kind: apperr.ErrUnavailable, Message: "Provider keys cannot be stored: the deployment has no FIRMO_SECRET_KEY."}
