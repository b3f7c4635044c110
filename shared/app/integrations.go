package app

import (
	"fmt"
	"time"

	"github.com/firmoapi/firmo/shared/apperr"
	"github.com/firmoapi/firmo/shared/company"
	"github.com/firmoapi/firmo/shared/config"
	"github.com/firmoapi/firmo/shared/fetch"
	"github.com/firmoapi/firmo/shared/integration"
	"github.com/firmoapi/firmo/shared/kv"
	"github.com/firmoapi/firmo/shared/llm"
	"github.com/firmoapi/firmo/shared/secret"
	"github.com/firmoapi/firmo/shared/websearch"
	"github.com/firmoapi/firmo/shared/websearch/bravesearch"
	"github.com/firmoapi/firmo/shared/websearch/nativesearch"
	"github.com/firmoapi/firmo/shared/websearch/serpersearch"
)

// providerTimeout bounds one call to an LLM or search provider.
const providerTimeout = 120 * time.Second

// buildIntegrations makes the LLM integration and search provider services. Provider
// keys are sealed with FIRMO_SECRET_KEY; locally a generated key file stands in. On AWS
// without the key (the design is a KMS data key decrypted at cold start into the same
// setting) the services refuse to seal or open keys with a 503 rather than store them
// in clear.
func buildIntegrations(cfg config.Config, store kv.Store, pages company.Store) (*integration.Service, *websearch.Service, error) {
	var sealer interface {
		Seal(scope, plaintext string) (string, error)
		Open(scope, sealed string) (string, error)
	} = noSecretKey{}
	if cfg.Backend == config.BackendLocal || cfg.SecretKey != "" {
		key, err := secret.LoadOrCreate(cfg.SecretKey, cfg.DataDir)
		if err != nil {
			return nil, nil, fmt.Errorf("secret key: %w", err)
		}
		box, err := secret.New(key)
		if err != nil {
			return nil, nil, fmt.Errorf("secret key: %w", err)
		}
		sealer = box
	}
	client := llm.GuardedHTTPClient(cfg.FetchAllowHosts, providerTimeout)
	urls := fetch.New(fetch.Options{AllowHosts: cfg.FetchAllowHosts})
	integrations := integration.New(store, sealer, urls, integration.Adapters{HTTP: client, TypedBaseURL: cfg.TypedBaseURL})
	native := nativesearch.New(pages, nativesearch.Options{})
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
	return integrations, websearch.New(store, sealer, factory, websearch.BreakerOptions{}), nil
}

// noSecretKey is the sealer of an AWS deployment without FIRMO_SECRET_KEY.
type noSecretKey struct{}

func (noSecretKey) Seal(string, string) (string, error) { return "", errNoKey }
func (noSecretKey) Open(string, string) (string, error) { return "", errNoKey }

var errNoKey = &apperr.Error{Kind: apperr.ErrUnavailable, Message: "Provider keys cannot be stored: the deployment has no FIRMO_SECRET_KEY."}
