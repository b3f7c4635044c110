// Package kmssecret builds the sealer of provider keys and CRM tokens from the
// configuration: KMS data keys (secret.Envelope, with a client made on first use) when
// FIRMO_KMS_KEY_ID is set, else the local key (secret.Box), else on AWS a sealer that
// refuses with a 503 rather than store secrets in clear. The integrations and CRM
// families both seal through it.
package kmssecret

import (
	"context"
	"fmt"
	"sync"

	"github.com/aws/aws-sdk-go-v2/aws"
	awsconfig "github.com/aws/aws-sdk-go-v2/config"
	"github.com/aws/aws-sdk-go-v2/service/kms"

	"github.com/firmoapi/firmo/shared/apperr"
	"github.com/firmoapi/firmo/shared/config"
	"github.com/firmoapi/firmo/shared/secret"
)

// Sealer seals and opens provider keys and tokens.
type Sealer interface {
	Seal(scope, plaintext string) (string, error)
	Open(scope, sealed string) (string, error)
}

// NewSealer chooses how provider keys (and CRM tokens) are sealed at rest. With FIRMO_KMS_KEY_ID (on
// AWS) under KMS data keys (secret.Envelope), which still opens keys sealed with the
// local key when that is configured. Otherwise with the local key: FIRMO_SECRET_KEY,
// or locally a generated key file. On AWS with neither the services refuse to seal or
// open keys with a 503 rather than store them in clear. No KMS call is made here.
func NewSealer(cfg config.Config, awsCfg *aws.Config) (Sealer, error) {
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
