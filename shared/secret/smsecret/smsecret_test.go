package smsecret_test

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/credentials"
	"github.com/aws/aws-sdk-go-v2/service/secretsmanager"

	"github.com/firmoapi/firmo/shared/apperr"
	"github.com/firmoapi/firmo/shared/awsiam"
	"github.com/firmoapi/firmo/shared/secret/smsecret"
)

const arn = "arn:aws:secretsmanager:us-east-1:123456789012:secret:firmo/embed-api-key-AbCdEf"

// fakeSecretsManager answers GetSecretValue in Secrets Manager's JSON 1.1 protocol with
// the values it holds, and counts the requests.
func fakeSecretsManager(t *testing.T, values map[string]any) (*secretsmanager.Client, *int) {
	t.Helper()
	calls := 0
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		calls++
		if got := r.Header.Get("X-Amz-Target"); got != "secretsmanager.GetSecretValue" {
			t.Errorf("X-Amz-Target = %q", got)
		}
		var in struct{ SecretId string }
		if err := json.NewDecoder(r.Body).Decode(&in); err != nil {
			t.Error(err)
		}
		w.Header().Set("Content-Type", "application/x-amz-json-1.1")
		v, ok := values[in.SecretId]
		if !ok {
			w.WriteHeader(http.StatusBadRequest)
			_, _ = w.Write([]byte(`{"__type":"ResourceNotFoundException","message":"Secrets Manager can't find the specified secret."}`))
			return
		}
		out := map[string]any{"ARN": in.SecretId, "Name": "firmo/embed-api-key", "VersionId": "v1"}
		if s, ok := v.(string); ok {
			out["SecretString"] = s
		} else {
			out["SecretBinary"] = v
		}
		_ = json.NewEncoder(w).Encode(out)
	}))
	t.Cleanup(srv.Close)
	client := secretsmanager.New(secretsmanager.Options{
		Region: "us-east-1", BaseEndpoint: aws.String(srv.URL),
		Credentials: credentials.NewStaticCredentialsProvider("AKIDEXAMPLE", "secret", ""),
	})
	return client, &calls
}

func TestString(t *testing.T) {
	client, calls := fakeSecretsManager(t, map[string]any{arn: "sk-test\n", "binary": []byte("x"), "blank": "  "})
	got, err := smsecret.String(context.Background(), client, arn)
	if err != nil || got != "sk-test" {
		t.Fatalf("String = %q, %v; want sk-test", got, err)
	}
	if *calls != 1 {
		t.Errorf("%d requests, want 1", *calls)
	}
	for _, tc := range []struct{ id, want string }{
		{"binary", "no SecretString"},
		{"blank", "is empty"},
		{"arn:aws:secretsmanager:us-east-1:123456789012:secret:missing-AbCdEf", "ResourceNotFoundException"},
	} {
		_, err := smsecret.String(context.Background(), client, tc.id)
		if err == nil || !strings.Contains(err.Error(), tc.want) || !strings.Contains(err.Error(), tc.id) {
			t.Errorf("String(%s) error = %v; want one naming the secret and %q", tc.id, err, tc.want)
		}
		if tc.id != "binary" && tc.id != "blank" {
			continue
		}
		if !errors.Is(err, apperr.ErrInvalid) {
			t.Errorf("String(%s) error = %v; want apperr.ErrInvalid", tc.id, err)
		}
	}
}

// TestIAMActions keeps the IAM actions the package lists equal to what its source calls.
func TestIAMActions(t *testing.T) {
	awsiam.Check(t, ".", smsecret.IAMActions, nil)
}
