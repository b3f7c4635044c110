// Package integrationsapp composes the integrations family (the organisations' LLM
// integrations and web search providers) and hands both services to the families that
// call providers: batch research, contact search's icp_prompt, the model list.
package integrationsapp

import (
	"context"
	"fmt"
	"slices"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"

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
	"github.com/firmoapi/firmo/shared/secret/kmsopen"
	"github.com/firmoapi/firmo/shared/websearch"
	"github.com/firmoapi/firmo/shared/websearch/bravesearch"
	"github.com/firmoapi/firmo/shared/websearch/nativesearch"
	"github.com/firmoapi/firmo/shared/websearch/serpersearch"
)

// Composer composes the integrations family, which stores keys: they are sealed as
// sealing (kmssecret.NewSealer) decides.
func Composer(sealing Sealing) app.Composer {
	return app.NewComposer(httpapi.FamilyIntegrations, func(ctx context.Context, c *app.Core) (Services, error) { return Build(ctx, c, sealing) }, routes)
}

// Sealer seals and opens provider keys.
type Sealer = kmsopen.Sealer

// Sealing names how the services seal and open keys: the families that store keys use
// kmssecret.NewSealer (kms:GenerateDataKey and kms:Decrypt), those that only read them
// kmsopen.NewOpener (kms:Decrypt alone). The composition chooses, so that a function
// links, and is granted, only what it calls.
type Sealing struct {
	// Name keys the services built once per core ("sealer", "opener").
	Name string
	New  func(config.Config, *aws.Config) (Sealer, error)
}

// OpenOnly is the Sealing of the families that read keys and never store one.
func OpenOnly() Sealing { return Sealing{Name: "opener", New: kmsopen.NewOpener} }

func routes(s Services) []httpapi.Route {
	return slices.Concat(integrationhttp.IntegrationRoutes(s.Integrations), integrationhttp.SearchProviderRoutes(s.SearchProviders))
}

// Services are the organisations' LLM integrations and search providers.
type Services struct {
	Integrations    *integration.Service
	SearchProviders *websearch.Service
}

// Build returns the core's integration services with keys sealed as sealing says,
// building them on first use.
func Build(_ context.Context, c *app.Core, sealing Sealing) (Services, error) {
	return app.Shared(c, "integrationsapp.Build/"+sealing.Name, func() (Services, error) { return build(c.Config, c, sealing) })
}

// providerTimeout bounds one call to an LLM or search provider.
const providerTimeout = 120 * time.Second

// build makes the services, provider keys sealed as sealing decides.
func build(cfg config.Config, c *app.Core, sealing Sealing) (Services, error) {
	sealer, err := sealing.New(cfg, c.AWS)
	if err != nil {
		return Services{}, err
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
