// Package kmssecret builds the sealer of provider keys and CRM tokens from the
// configuration: KMS data keys (secret.Envelope, with a client made on first use) when
// FIRMO_KMS_KEY_ID is set, else the local key (secret.Box), else on AWS a sealer that
// refuses with a 503 rather than store secrets in clear. The integrations and CRM
// families seal through it; functions that only open keys use kmsopen instead.
package kmssecret

import (
	"context"
	"fmt"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/kms"
	kmstypes "github.com/aws/aws-sdk-go-v2/service/kms/types"

	"github.com/firmoapi/firmo/shared/config"
	"github.com/firmoapi/firmo/shared/secret"
	"github.com/firmoapi/firmo/shared/secret/kmsopen"
)

// IAMActions are the KMS actions this package calls (DataKeys); opening's kms:Decrypt
// is kmsopen's and shared/secret's.
var IAMActions = []string{"kms:GenerateDataKey"}

// Sealer seals and opens provider keys and tokens.
type Sealer = kmsopen.Sealer

// NewSealer chooses how provider keys (and CRM tokens) are sealed at rest. With FIRMO_KMS_KEY_ID (on
// AWS) under KMS data keys (secret.Envelope), which still opens keys sealed with the
// local key when that is configured. Otherwise with the local key: FIRMO_SECRET_KEY,
// or locally a generated key file. On AWS with neither the services refuse to seal or
// open keys with a 503 rather than store them in clear. No KMS call is made here.
func NewSealer(cfg config.Config, awsCfg *aws.Config) (Sealer, error) {
	if cfg.AWS.KMSKeyID == "" {
		return kmsopen.NewOpener(cfg, awsCfg)
	}
	local, err := kmsopen.Local(cfg)
	if err != nil {
		return nil, err
	}
	client := kmsopen.NewClient(cfg, awsCfg)
	keys := DataKeys(lazy{client})
	envelope, err := secret.NewKMS(secret.KMSOptions{Client: client, DataKeys: keys, KeyID: cfg.AWS.KMSKeyID, Local: local})
	if err != nil {
		return nil, fmt.Errorf("kms sealer: %w", err)
	}
	return envelope, nil
}

// Generator is the KMS call DataKeys makes. *kms.Client implements it.
type Generator interface {
	GenerateDataKey(ctx context.Context, in *kms.GenerateDataKeyInput, optFns ...func(*kms.Options)) (*kms.GenerateDataKeyOutput, error)
}

// DataKeys makes an Envelope's data keys with kms:GenerateDataKey (AES-256).
func DataKeys(g Generator) secret.DataKeys {
	return func(ctx context.Context, keyID string, encryptionContext map[string]string) ([]byte, []byte, error) {
		out, err := g.GenerateDataKey(ctx, &kms.GenerateDataKeyInput{
			KeyId:             aws.String(keyID),
			KeySpec:           kmstypes.DataKeySpecAes256,
			EncryptionContext: encryptionContext,
		})
		if err != nil {
			return nil, nil, err
		}
		return out.Plaintext, out.CiphertextBlob, nil
	}
}

// lazy calls GenerateDataKey on kmsopen's client, made on first use.
type lazy struct{ c *kmsopen.Client }

func (l lazy) GenerateDataKey(ctx context.Context, in *kms.GenerateDataKeyInput, optFns ...func(*kms.Options)) (*kms.GenerateDataKeyOutput, error) {
	c, err := l.c.Get(ctx)
	if err != nil {
		return nil, err
	}
	return c.GenerateDataKey(ctx, in, optFns...)
}
