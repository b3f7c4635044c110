package integrationsapp_test

import (
	"bytes"
	"context"
	"encoding/base64"
	"encoding/json"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"sync"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	ddbtypes "github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/firmoapi/firmo/shared/app"
	"github.com/firmoapi/firmo/shared/app/integrationsapp"
	"github.com/firmoapi/firmo/shared/config"
	"github.com/firmoapi/firmo/shared/kv/dynamokv"
	"github.com/firmoapi/firmo/shared/llm"
	"github.com/firmoapi/firmo/shared/secret/kmssecret"
	"github.com/firmoapi/firmo/shared/testkit"
)

// vendor is an OpenAI-compatible server (chat completions and the model list, in the
// real wire format) that answers only the one key it was given.
type vendor struct {
	key  string
	mu   sync.Mutex
	seen []string // Authorization headers
}

func (v *vendor) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	v.mu.Lock()
	v.seen = append(v.seen, r.Header.Get("Authorization"))
	v.mu.Unlock()
	w.Header().Set("Content-Type", "application/json")
	if r.Header.Get("Authorization") != "Bearer "+v.key {
		w.WriteHeader(http.StatusUnauthorized)
		io.WriteString(w, `{"error":{"message":"Incorrect API key provided","type":"invalid_request_error","code":"invalid_api_key"}}`)
		return
	}
	switch r.URL.Path {
	case "/v1/models":
		io.WriteString(w, `{"object":"list","data":[{"id":"llama-3-70b","object":"model","created":1,"owned_by":"me"}]}`)
	case "/v1/chat/completions":
		io.WriteString(w, `{"id":"c1","object":"chat.completion","created":1,"model":"llama-3-70b","choices":[{"index":0,"message":{"role":"assistant","content":"OK"},"finish_reason":"stop"}],"usage":{"prompt_tokens":5,"completion_tokens":1,"total_tokens":6}}`)
	default:
		http.NotFound(w, r)
	}
}

// answer is one HTTP exchange with a core's handler.
type answer struct {
	status int
	header http.Header
	raw    string
	body   map[string]any
}

func call(t *testing.T, h http.Handler, method, path, key, body string) answer {
	t.Helper()
	req := httptest.NewRequest(method, path, strings.NewReader(body))
	req.Header.Set("x-service-key", key)
	if body != "" {
		req.Header.Set("Content-Type", "application/json")
	}
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, req)
	a := answer{status: rec.Code, header: rec.Header(), raw: rec.Body.String()}
	_ = json.Unmarshal(rec.Body.Bytes(), &a.body)
	return a
}

// awsCredentials gives the SDK dummy static credentials and keeps it away from the
// machine's AWS configuration and the instance metadata service.
func awsCredentials(t *testing.T) {
	for k, v := range map[string]string{"AWS_ACCESS_KEY_ID": "firmo-test", "AWS_SECRET_ACCESS_KEY": "firmo-test", "AWS_SESSION_TOKEN": "", "AWS_EC2_METADATA_DISABLED": "true", "AWS_PROFILE": "", "AWS_CONFIG_FILE": os.DevNull, "AWS_SHARED_CREDENTIALS_FILE": os.DevNull} {
		t.Setenv(k, v)
	}
}

// coldCore builds the integrations family on the AWS composition as its Lambda does
// at a cold start: a core of its own from the configuration env.
func coldCore(t *testing.T, env map[string]string) *app.Core {
	t.Helper()
	cfg, err := config.Load(func(k string) string { return env[k] })
	if err != nil {
		t.Fatal(err)
	}
	core, err := app.NewAWS(context.Background(), cfg, slog.New(slog.NewTextHandler(io.Discard, nil)), integrationsapp.Composer(integrationsapp.Sealing{Name: "sealer", New: kmssecret.NewSealer}))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { core.Close() })
	return core
}

func with(env map[string]string, kv ...string) map[string]string {
	out := map[string]string{}
	for k, v := range env {
		out[k] = v
	}
	for i := 0; i+1 < len(kv); i += 2 {
		out[kv[i]] = kv[i+1]
	}
	return out
}

// TestProviderKeysSealedWithKMS drives the integrations family on the AWS composition
// (DynamoDB on dynalite) with FIRMO_KMS_KEY_ID against local-kms: a provider key posted
// to one instance is stored sealed under a KMS data key, never in clear; another
// instance built afresh (a cold Lambda) opens it and calls the vendor with it; a key
// sealed with FIRMO_SECRET_KEY before KMS was configured stays usable while that key
// is set; a KMS that does not answer is a 503 with Retry-After.
func TestProviderKeysSealedWithKMS(t *testing.T) {
	if testing.Short() {
		t.Skip("starts dynalite and local-kms")
	}
	ctx := context.Background()
	ddbURL, kmsStandin := testkit.Dynalite(t), testkit.LocalKMS(t)
	ddb := testkit.DynamoClient(t, ddbURL)
	if err := dynamokv.EnsureTable(ctx, ddb, "firmo"); err != nil {
		t.Fatal(err)
	}
	awsCredentials(t)
	const providerKey = "sk-proj-KMS-TOPSECRET-0123456789"
	v := &vendor{key: providerKey}
	srv := httptest.NewServer(v)
	t.Cleanup(srv.Close)
	base := srv.URL + "/v1"
	localKey := base64.StdEncoding.EncodeToString(bytes.Repeat([]byte{5}, 32))
	env := map[string]string{
		"FIRMO_BACKEND":           "aws",
		"FIRMO_TABLE":             "firmo",
		"FIRMO_DYNAMODB_ENDPOINT": ddbURL,
		"FIRMO_FETCH_ALLOW_HOSTS": "127.0.0.1",
	}
	create := func(t *testing.T, h http.Handler, key, name string) string {
		t.Helper()
		got := call(t, h, "POST", "/v1/llm-providers/config", key, `{"integration_name":"`+name+`","provider":"custom","api_key":"`+providerKey+`","model_name":"llama-3-70b","base_url":"`+base+`"}`)
		id, _ := got.body["integration_id"].(string)
		if got.status != http.StatusCreated || id == "" || strings.Contains(got.raw, providerKey) {
			t.Fatalf("create %s: %d %s", name, got.status, got.raw)
		}
		return id
	}

	// Before KMS: an instance with the local key only.
	legacyCore := coldCore(t, with(env, "FIRMO_SECRET_KEY", localKey))
	demo, err := legacyCore.Accounts.EnsureDemo(ctx, "")
	if err != nil {
		t.Fatal(err)
	}
	legacyID := create(t, legacyCore.Handler(), demo.Key, "Before KMS")

	kmsEnv := with(env, "FIRMO_KMS_KEY_ID", kmsStandin.KeyARN, "FIRMO_KMS_ENDPOINT", kmsStandin.Endpoint, "FIRMO_SECRET_KEY", localKey)
	warm := coldCore(t, kmsEnv)
	id := create(t, warm.Handler(), demo.Key, "Sealed with KMS")
	got := call(t, warm.Handler(), "GET", "/v1/llm-providers/config/"+id, demo.Key, "")
	if got.status != http.StatusOK || got.body["api_key"] != "*****" {
		t.Fatalf("read: %d %s", got.status, got.raw)
	}

	t.Run("stored sealed, never in clear", func(t *testing.T) {
		sealed := storedSealedKeys(t, ddb, providerKey)
		if !strings.HasPrefix(sealed[id], "k1:") || !strings.HasPrefix(sealed[legacyID], "v1:") {
			t.Fatalf("sealed keys = %v; want the new one sealed with KMS (k1:) and the older with the local key (v1:)", sealed)
		}
	})

	t.Run("a cold instance uses the key", func(t *testing.T) {
		cold := coldCore(t, kmsEnv)
		// An update without api_key opens the stored key (to check the model again
		// only when the target changes; here it keeps the key as it is).
		got := call(t, cold.Handler(), "PUT", "/v1/llm-providers/config/"+id, demo.Key, `{"integration_name":"Renamed"}`)
		if view, _ := got.body["integration"].(map[string]any); got.status != http.StatusOK || view["api_key"] != "*****" {
			t.Fatalf("update on a cold instance: %d %s", got.status, got.raw)
		}
		svc, err := integrationsapp.Build(ctx, cold, integrationsapp.Sealing{Name: "sealer", New: kmssecret.NewSealer})
		if err != nil {
			t.Fatal(err)
		}
		for _, which := range []string{id, legacyID} {
			_, client, err := svc.Integrations.Resolve(ctx, demo.Org.ID, which)
			if err != nil {
				t.Fatalf("resolve %s: %v", which, err)
			}
			resp, err := client.Complete(ctx, llm.Request{Model: "llama-3-70b", Prompt: "ping", MaxTokens: 5})
			if err != nil || resp.Text != "OK" {
				t.Fatalf("completion with the key of %s = %+v, %v", which, resp, err)
			}
		}
		v.mu.Lock()
		defer v.mu.Unlock()
		if last := v.seen[len(v.seen)-1]; last != "Bearer "+providerKey {
			t.Fatalf("the vendor was called with %q", last)
		}
	})

	t.Run("local values need the local key", func(t *testing.T) {
		kmsOnly := coldCore(t, with(kmsEnv, "FIRMO_SECRET_KEY", ""))
		got := call(t, kmsOnly.Handler(), "PUT", "/v1/llm-providers/config/"+legacyID, demo.Key, `{"integration_name":"Renamed too"}`)
		if got.status != http.StatusInternalServerError || !strings.Contains(got.raw, "store it again") || strings.Contains(got.raw, providerKey) {
			t.Fatalf("update of a locally sealed key without FIRMO_SECRET_KEY: %d %s", got.status, got.raw)
		}
		if got := call(t, kmsOnly.Handler(), "PUT", "/v1/llm-providers/config/"+id, demo.Key, `{"integration_name":"Renamed again"}`); got.status != http.StatusOK {
			t.Fatalf("update of a KMS-sealed key: %d %s", got.status, got.raw)
		}
	})

	t.Run("KMS down is a 503 with Retry-After", func(t *testing.T) {
		l, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			t.Fatal(err)
		}
		closed := "http://" + l.Addr().String()
		l.Close()
		down := coldCore(t, with(kmsEnv, "FIRMO_KMS_ENDPOINT", closed))
		got := call(t, down.Handler(), "POST", "/v1/llm-providers/config", demo.Key, `{"integration_name":"Down","provider":"custom","api_key":"`+providerKey+`","model_name":"llama-3-70b","base_url":"`+base+`"}`)
		if got.status != http.StatusServiceUnavailable || got.header.Get("Retry-After") == "" || strings.Contains(got.raw, providerKey) {
			t.Fatalf("create with KMS down: %d %v %s", got.status, got.header, got.raw)
		}
	})
}

// storedSealedKeys scans the whole table: no attribute of any item may hold the key,
// or its base64, in clear. It returns each integration's sealed_key by id.
func storedSealedKeys(t *testing.T, ddb *dynamodb.Client, plain string) map[string]string {
	t.Helper()
	out, err := ddb.Scan(context.Background(), &dynamodb.ScanInput{TableName: aws.String("firmo")})
	if err != nil {
		t.Fatal(err)
	}
	encoded := base64.StdEncoding.EncodeToString([]byte(plain))
	sealed := map[string]string{}
	for _, item := range out.Items {
		for name, attr := range item {
			var raw []byte
			switch a := attr.(type) {
			case *ddbtypes.AttributeValueMemberB:
				raw = a.Value
			case *ddbtypes.AttributeValueMemberS:
				raw = []byte(a.Value)
			}
			if bytes.Contains(raw, []byte(plain)) || bytes.Contains(raw, []byte(encoded)) {
				t.Fatalf("attribute %s of an item holds the provider key in clear", name)
			}
		}
		d, ok := item["d"].(*ddbtypes.AttributeValueMemberB)
		if !ok {
			continue
		}
		var rec struct {
			ID        string `json:"integration_id"`
			SealedKey string `json:"sealed_key"`
		}
		if json.Unmarshal(d.Value, &rec) == nil && rec.SealedKey != "" {
			sealed[rec.ID] = rec.SealedKey
		}
	}
	return sealed
}
