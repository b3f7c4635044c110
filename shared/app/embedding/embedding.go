// Package embedding builds the core's text embedders once, for every family that
// embeds: contact search (contactsapp) and segmentation (datasetsapp) place texts in
// the same space, so a deployment configures one embedder for both.
package embedding

import (
	"context"
	"fmt"
	"net/http"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	awsconfig "github.com/aws/aws-sdk-go-v2/config"
	"github.com/aws/aws-sdk-go-v2/service/secretsmanager"

	"github.com/firmoapi/firmo/shared/app"
	"github.com/firmoapi/firmo/shared/config"
	"github.com/firmoapi/firmo/shared/embed"
	"github.com/firmoapi/firmo/shared/embed/openaiembed"
	"github.com/firmoapi/firmo/shared/embed/ppmiembed"
	"github.com/firmoapi/firmo/shared/secret/smsecret"
)

// Embedders are the configured text embedder and the built-in word space (contact
// search widens summary terms with its neighbours whatever the embedder).
type Embedders struct {
	// Text is the embedder FIRMO_EMBEDDER chooses: the built-in one (Words) by default,
	// or an OpenAI-compatible endpoint.
	Text embed.Embedder
	// Words is the built-in embedder; it trains lazily on first use.
	Words *ppmiembed.Embedder
}

// Build returns the core's embedders, building them on first use. The embedding API
// key, when FIRMO_EMBED_API_KEY_SECRET_ARN names one, is read from Secrets Manager
// here, once.
func Build(ctx context.Context, c *app.Core) (Embedders, error) {
	return app.Shared(c, "embedding.Build", func() (Embedders, error) {
		words := ppmiembed.New()
		cfg, err := withSecretAPIKey(ctx, c.Config, c.AWS)
		if err != nil {
			return Embedders{}, err
		}
		text, err := configured(cfg, words)
		if err != nil {
			return Embedders{}, err
		}
		return Embedders{Text: text, Words: words}, nil
	})
}

// withSecretAPIKey returns the embedder settings with the API key read from Secrets
// Manager when FIRMO_EMBED_API_KEY_SECRET_ARN names one (on AWS: template.yaml passes
// the ARN, never the key). It is read once, here at init, into the embedder's settings
// and nowhere else: not the environment, not the core's Config. awsCfg is the AWS
// composition's SDK configuration; locally (nil) the default chain is loaded.
func withSecretAPIKey(ctx context.Context, cfg config.Config, awsCfg *aws.Config) (config.Embedder, error) {
	e := cfg.Embedder
	if e.Kind != config.EmbedderOpenAI || e.APIKeySecretARN == "" {
		return e, nil
	}
	if awsCfg == nil {
		loaded, err := awsconfig.LoadDefaultConfig(ctx, awsconfig.WithRegion(cfg.AWS.Region))
		if err != nil {
			return e, fmt.Errorf("FIRMO_EMBED_API_KEY_SECRET_ARN: load AWS configuration: %w", err)
		}
		awsCfg = &loaded
	}
	key, err := smsecret.String(ctx, secretsmanager.NewFromConfig(*awsCfg), e.APIKeySecretARN)
	if err != nil {
		return e, fmt.Errorf("FIRMO_EMBED_API_KEY_SECRET_ARN: %w", err)
	}
	e.APIKey = key
	return e, nil
}

// configured is the embedder FIRMO_EMBEDDER chooses: builtin, or an
// OpenAI-compatible endpoint. That endpoint is the operator's setting, not a user's URL,
// so it is called with a plain client with a timeout rather than the guarded fetch
// client (a self-hosted model often sits on a private network). The API key is sent as
// a bearer token and never logged.
func configured(cfg config.Embedder, builtin embed.Embedder) (embed.Embedder, error) {
	if cfg.Kind != config.EmbedderOpenAI {
		return builtin, nil
	}
	e, err := openaiembed.New(openaiembed.Config{BaseURL: cfg.BaseURL, APIKey: cfg.APIKey, Model: cfg.Model,
		Dims: cfg.Dims, SendDimensions: cfg.SendDimensions}, &http.Client{Timeout: 60 * time.Second})
	if err != nil {
		return nil, fmt.Errorf("FIRMO_EMBEDDER=openai: %w", err)
	}
	return e, nil
}
