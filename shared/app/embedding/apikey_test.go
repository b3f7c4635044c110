package embedding

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/credentials"

	"github.com/firmoapi/firmo/shared/config"
)

// TestEmbedAPIKeyFromSecretsManager: with FIRMO_EMBED_API_KEY_SECRET_ARN the key is read
// from Secrets Manager once, into the embedder's settings only.
func TestEmbedAPIKeyFromSecretsManager(t *testing.T) {
	const arn = "arn:aws:secretsmanager:us-east-1:123456789012:secret:firmo/embed-api-key-AbCdEf"
	calls := 0
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		calls++
		var in struct{ SecretId string }
		_ = json.NewDecoder(r.Body).Decode(&in)
		if in.SecretId != arn || r.Header.Get("X-Amz-Target") != "secretsmanager.GetSecretValue" {
			t.Errorf("request %s for %q, want GetSecretValue of %s", r.Header.Get("X-Amz-Target"), in.SecretId, arn)
		}
		w.Header().Set("Content-Type", "application/x-amz-json-1.1")
		_ = json.NewEncoder(w).Encode(map[string]string{"ARN": arn, "SecretString": "sk-from-secret\n"})
	}))
	defer srv.Close()
	env := map[string]string{"FIRMO_EMBEDDER": "openai", "FIRMO_EMBED_BASE_URL": "https://api.openai.com/v1", "FIRMO_EMBED_MODEL": "m",
		"FIRMO_EMBED_DIMS": "8", "FIRMO_EMBED_API_KEY_SECRET_ARN": arn}
	cfg, err := config.Load(func(k string) string { return env[k] })
	if err != nil {
		t.Fatal(err)
	}
	awsCfg := aws.Config{Region: "us-east-1", BaseEndpoint: aws.String(srv.URL), Credentials: credentials.NewStaticCredentialsProvider("AKIDEXAMPLE", "secret", "")}
	got, err := withSecretAPIKey(context.Background(), cfg, &awsCfg)
	if err != nil {
		t.Fatal(err)
	}
	if got.APIKey != "sk-from-secret" || calls != 1 {
		t.Errorf("APIKey %q after %d calls; want sk-from-secret after 1", got.APIKey, calls)
	}
	if cfg.Embedder.APIKey != "" {
		t.Error("the key leaked into the loaded configuration")
	}
	// The built-in embedder needs no key: nothing is read.
	cfg.Embedder.Kind = config.EmbedderBuiltin
	if _, err := withSecretAPIKey(context.Background(), cfg, &awsCfg); err != nil || calls != 1 {
		t.Errorf("builtin embedder: err %v, %d calls; want no call", err, calls)
	}
}
