// Package integrationsapp composes the integrations family (the organisations' LLM
// integrations and web search providers) and hands both services to the families that
// call providers: batch research, contact search's icp_prompt, the model list.
package integrationsapp

import (
	"context"
	"fmt"
	"slices"
	"sync"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	awsconfig "github.com/aws/aws-sdk-go-v2/config"
	"github.com/aws/aws-sdk-go-v2/service/kms"

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

// build makes the services, provider keys sealed as newSealer decides.
func build(cfg config.Config, c *app.Core) (Services, error) {
	sealer, err := newSealer(cfg, c.AWS)
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

// sealer is what the integration and search-provider services seal keys with.
type sealer interface {
	Seal(scope, plaintext string) (string, error)
	Open(scope, sealed string) (string, error)
}

// newSealer chooses how provider keys are sealed at rest. With FIRMO_KMS_KEY_ID (on
// AWS) under KMS data keys (secret.Envelope), which still opens keys sealed with the
// local key when that is configured. Otherwise with the local key: FIRMO_SECRET_KEY,
// or locally a generated key file. On AWS with neither the services refuse to seal or
// open keys with a 503 rather than store them in clear. No KMS call is made here.
func newSealer(cfg config.Config, awsCfg *aws.Config) (sealer, error) {
	var local *secret.Box
	if cfg.Backend == config.BackendLocal || cfg.SecretKey != "" {
		key, err := secret.LoadOrCreate(cfg.SecretKey, cfg.DataDir)
		if err != nil {
			return nil, fmt.Errorf("secret key: %w", err)
		}
		if local, err = secret.New(key); err != nil {
			return nil, fmt.Errorf("secret key: %w", err)
		}
	}
	if cfg.AWS.KMSKeyID == "" {
		if local == nil {
			return noSecretKey{}, nil
		}
		return local, nil
	}
	envelope, err := secret.NewKMS(secret.KMSOptions{Client: &kmsClient{cfg: cfg, awsCfg: awsCfg}, KeyID: cfg.AWS.KMSKeyID, Local: local})
	if err != nil {
		return nil, fmt.Errorf("kms sealer: %w", err)
	}
	return envelope, nil
}

// kmsClient makes the KMS client on its first call, from the AWS composition's SDK
// configuration, or one loaded then when the core has none (the embedded backend).
type kmsClient struct {
	cfg    config.Config
	awsCfg *aws.Config

	once   sync.Once
	client *kms.Client
	err    error
}

var _ secret.KMS = (*kmsClient)(nil)

func (k *kmsClient) get(ctx context.Context) (*kms.Client, error) {
	k.once.Do(func() {
		awsCfg := k.awsCfg
		if awsCfg == nil {
			loaded, err := awsconfig.LoadDefaultConfig(ctx, awsconfig.WithRegion(k.cfg.AWS.Region))
			if err != nil {
				k.err = fmt.Errorf("load AWS configuration for KMS: %w", err)
				return
			}
			awsCfg = &loaded
		}
		k.client = kms.NewFromConfig(*awsCfg, func(o *kms.Options) {
			if k.cfg.AWS.KMSEndpoint != "" {
				o.BaseEndpoint = aws.String(k.cfg.AWS.KMSEndpoint)
			}
		})
	})
	return k.client, k.err
}

func (k *kmsClient) GenerateDataKey(ctx context.Context, in *kms.GenerateDataKeyInput, optFns ...func(*kms.Options)) (*kms.GenerateDataKeyOutput, error) {
	c, err := k.get(ctx)
	if err != nil {
		return nil, err
	}
	return c.GenerateDataKey(ctx, in, optFns...)
}

func (k *kmsClient) Decrypt(ctx context.Context, in *kms.DecryptInput, optFns ...func(*kms.Options)) (*kms.DecryptOutput, error) {
	c, err := k.get(ctx)
	if err != nil {
		return nil, err
	}
	return c.Decrypt(ctx, in, optFns...)
}

// noSecretKey is the sealer of an AWS deployment with neither FIRMO_KMS_KEY_ID nor
// FIRMO_SECRET_KEY.
type noSecretKey struct{}

func (noSecretKey) Seal(string, string) (string, error) { return "", errNoKey }
func (noSecretKey) Open(string, string) (string, error) { return "", errNoKey }

var errNoKey = &apperr.Error{Kind: apperr.ErrUnavailable, Message: "Provider keys cannot be stored: the deployment has neither FIRMO_KMS_KEY_ID nor FIRMO_SECRET_KEY."}
