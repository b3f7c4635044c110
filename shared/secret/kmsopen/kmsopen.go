// Package kmsopen builds the open-only sealer of the functions that read provider keys
// but never store one (contacts, generation): secret.Envelope without a data key source
// when FIRMO_KMS_KEY_ID is set, so those functions call kms:Decrypt and never
// kms:GenerateDataKey; else the local key (secret.Box); else on AWS a sealer that
// refuses with a 503. kmssecret builds the sealing one on top of it.
package kmsopen

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

// IAMActions are the KMS actions this package calls (Client.Decrypt).
var IAMActions = []string{"kms:Decrypt"}

// Sealer seals and opens provider keys and tokens; an open-only one refuses to seal.
type Sealer interface {
	Seal(scope, plaintext string) (string, error)
	Open(scope, sealed string) (string, error)
}

// NewOpener opens provider keys sealed under KMS data keys (FIRMO_KMS_KEY_ID) or the
// local key; with FIRMO_KMS_KEY_ID its Seal returns secret.ErrOpenOnly. No KMS call is
// made here.
func NewOpener(cfg config.Config, awsCfg *aws.Config) (Sealer, error) {
	local, err := Local(cfg)
	if err != nil {
		return nil, err
	}
	if cfg.AWS.KMSKeyID == "" {
		if local == nil {
			return noSecretKey{}, nil
		}
		return local, nil
	}
	envelope, err := secret.NewKMS(secret.KMSOptions{Client: NewClient(cfg, awsCfg), KeyID: cfg.AWS.KMSKeyID, Local: local})
	if err != nil {
		return nil, fmt.Errorf("kms opener: %w", err)
	}
	return envelope, nil
}

// Local returns the local key's Box (FIRMO_SECRET_KEY, or locally a generated key
// file), or nil on AWS without FIRMO_SECRET_KEY.
func Local(cfg config.Config) (*secret.Box, error) {
	if cfg.Backend != config.BackendLocal && cfg.SecretKey == "" {
		return nil, nil
	}
	key, err := secret.LoadOrCreate(cfg.SecretKey, cfg.DataDir)
	if err != nil {
		return nil, fmt.Errorf("secret key: %w", err)
	}
	box, err := secret.New(key)
	if err != nil {
		return nil, fmt.Errorf("secret key: %w", err)
	}
	return box, nil
}

// Client makes the KMS client on its first call, from the AWS composition's SDK
// configuration, or one loaded then when the core has none (the embedded backend).
type Client struct {
	cfg    config.Config
	awsCfg *aws.Config

	once   sync.Once
	client *kms.Client
	err    error
}

// NewClient returns a Client; it makes no call.
func NewClient(cfg config.Config, awsCfg *aws.Config) *Client {
	return &Client{cfg: cfg, awsCfg: awsCfg}
}

var _ secret.Decrypter = (*Client)(nil)

// Get returns the KMS client, made on first use.
func (k *Client) Get(ctx context.Context) (*kms.Client, error) {
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

// Decrypt forwards to the KMS client.
func (k *Client) Decrypt(ctx context.Context, in *kms.DecryptInput, optFns ...func(*kms.Options)) (*kms.DecryptOutput, error) {
	c, err := k.Get(ctx)
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
