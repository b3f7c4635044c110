// Package smsecret reads a secret's value from AWS Secrets Manager. It is how a Lambda
// gets a credential the template names only by ARN (FIRMO_EMBED_API_KEY_SECRET_ARN):
// the value is read once at init into the service that uses it, never into a template
// parameter or an environment variable, where anyone allowed to read the function's
// configuration would see it.
package smsecret

import (
	"context"
	"fmt"
	"strings"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/secretsmanager"

	"github.com/firmoapi/firmo/shared/apperr"
)

// IAMActions are the Secrets Manager actions String calls. template.yaml grants them on
// the one secret's ARN to the functions given it; TestIAMActions and the template test
// compare them with the code. (A secret encrypted with a customer managed KMS key also
// needs kms:Decrypt on that key; the default aws/secretsmanager key needs nothing.)
var IAMActions = []string{"secretsmanager:GetSecretValue"}

// Client is the part of the Secrets Manager API String calls; *secretsmanager.Client
// implements it.
type Client interface {
	GetSecretValue(ctx context.Context, in *secretsmanager.GetSecretValueInput, optFns ...func(*secretsmanager.Options)) (*secretsmanager.GetSecretValueOutput, error)
}

// String returns the SecretString of the secret's current version, without surrounding
// whitespace (a key stored from a file often ends in a newline). id is the secret's ARN
// (or name). Errors name the secret, never its value.
func String(ctx context.Context, client Client, id string) (string, error) {
	out, err := client.GetSecretValue(ctx, &secretsmanager.GetSecretValueInput{SecretId: aws.String(id)})
	if err != nil {
		return "", fmt.Errorf("read secret %s from Secrets Manager: %w", id, err)
	}
	if out.SecretString == nil {
		return "", fmt.Errorf("secret %s has no SecretString (a binary secret?): %w", id, apperr.ErrInvalid)
	}
	v := strings.TrimSpace(*out.SecretString)
	if v == "" {
		return "", fmt.Errorf("secret %s is empty: %w", id, apperr.ErrInvalid)
	}
	return v, nil
}
