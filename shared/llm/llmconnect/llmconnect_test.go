package llmconnect_test

import (
	"context"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/firmoapi/firmo/shared/apperr"
	"github.com/firmoapi/firmo/shared/integration"
	"github.com/firmoapi/firmo/shared/llm"
	"github.com/firmoapi/firmo/shared/llm/llmconnect"
)

const (
	key     = "sk-test-0123456789"
	busyKey = "sk-busy-0123456789"
)

// openAIVendor speaks the OpenAI wire format: /v1/models lists gpt-4o-mini, chat
// completions answer "OK", the key busyKey is rate limited and any other is refused.
func openAIVendor(t *testing.T) string {
	t.Helper()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		if r.Header.Get("Authorization") == "Bearer "+busyKey {
			w.WriteHeader(http.StatusTooManyRequests)
			io.WriteString(w, `{"error":{"message":"Rate limit reached","type":"requests","code":"rate_limit_exceeded"}}`)
			return
		}
		if r.Header.Get("Authorization") != "Bearer "+key {
			w.WriteHeader(http.StatusUnauthorized)
			io.WriteString(w, `{"error":{"message":"Incorrect API key provided","type":"invalid_request_error","code":"invalid_api_key"}}`)
			return
		}
		switch r.URL.Path {
		case "/v1/models":
			io.WriteString(w, `{"object":"list","data":[{"id":"gpt-4o-mini","object":"model","created":1,"owned_by":"x"}]}`)
		case "/v1/chat/completions":
			io.WriteString(w, `{"id":"c","object":"chat.completion","created":1,"model":"m","choices":[{"index":0,"message":{"role":"assistant","content":"OK"},"finish_reason":"stop"}],"usage":{"prompt_tokens":3,"completion_tokens":1,"total_tokens":4}}`)
		default:
			http.NotFound(w, r)
		}
	}))
	t.Cleanup(srv.Close)
	return srv.URL + "/v1"
}

func connector(t *testing.T) llmconnect.Connector {
	t.Helper()
	return llmconnect.Connector{
		HTTP:          llm.GuardedHTTPClient([]string{"127.0.0.1"}, 10*time.Second),
		OpenAIBaseURL: openAIVendor(t),
	}
}

func TestProviderChoice(t *testing.T) {
	c := connector(t)
	if _, err := c.Client(integration.Conn{Provider: integration.ProviderTyped}); apperr.Describe(err).Code != integration.CodeTypedNotGenerative {
		t.Errorf("typed as generative: err = %v, want %s", err, integration.CodeTypedNotGenerative)
	}
	if _, err := c.Client(integration.Conn{Provider: "mistral"}); !errors.Is(err, apperr.ErrInvalid) {
		t.Errorf("unknown provider: err = %v, want ErrInvalid", err)
	}
	if _, err := c.Judge(integration.Conn{Provider: integration.ProviderOpenAI}); !errors.Is(err, apperr.ErrInvalid) {
		t.Errorf("generative as judge: err = %v, want ErrInvalid", err)
	}
	if _, err := c.Judge(integration.Conn{Provider: integration.ProviderTyped}); apperr.Describe(err).Status != http.StatusBadRequest {
		t.Errorf("typed without any endpoint: err = %v, want a 400", err)
	}
	c.TypedBaseURL = "https://typed.example/v1"
	if j, err := c.Judge(integration.Conn{Provider: integration.ProviderTyped}); err != nil || j == nil {
		t.Errorf("typed with the configured endpoint: %v", err)
	}
	for _, p := range []string{integration.ProviderOpenAI, integration.ProviderAnthropic, integration.ProviderCustom} {
		if cl, err := c.Client(integration.Conn{Provider: p, APIKey: key, BaseURL: "https://llm.example/v1"}); err != nil || cl == nil {
			t.Errorf("%s: %v", p, err)
		}
	}
}

func TestModels(t *testing.T) {
	c := connector(t)
	ctx := context.Background()
	got, err := c.Models(ctx, integration.Conn{Provider: integration.ProviderOpenAI, APIKey: key})
	if err != nil || !slices.Contains(got, "gpt-4o-mini") {
		t.Fatalf("Models = %v, %v; want gpt-4o-mini listed", got, err)
	}
	if got, err := c.Models(ctx, integration.Conn{Provider: integration.ProviderTyped}); got != nil || err != nil {
		t.Fatalf("typed Models = %v, %v; want nothing checked", got, err)
	}
}

func TestConnectionTest(t *testing.T) {
	c := connector(t)
	ctx := context.Background()
	if err := c.Test(ctx, integration.Conn{Provider: integration.ProviderOpenAI, APIKey: key, Model: "gpt-4o-mini"}); err != nil {
		t.Fatalf("good key: %v", err)
	}
	err := c.Test(ctx, integration.Conn{Provider: integration.ProviderOpenAI, APIKey: "sk-wrong-4242", Model: "gpt-4o-mini"})
	d := apperr.Describe(err)
	if d.Status != http.StatusBadRequest || d.Code != "connection_failed" || strings.Contains(d.Message, "4242") {
		t.Fatalf("bad key: %+v", d)
	}
	// A rate limit is still a verdict for the user, not a 503: nobody retries a test.
	err = c.Test(ctx, integration.Conn{Provider: integration.ProviderOpenAI, APIKey: busyKey, Model: "gpt-4o-mini"})
	if d := apperr.Describe(err); d.Status != http.StatusBadRequest || !strings.Contains(d.Message, "rate limited") {
		t.Fatalf("rate limited: %+v", d)
	}
	// A typed integration without an endpoint keeps its own 400 rather than a generic one.
	err = c.Test(ctx, integration.Conn{Provider: integration.ProviderTyped, APIKey: key})
	if d := apperr.Describe(err); d.Status != http.StatusBadRequest || d.Code == "connection_failed" {
		t.Fatalf("typed without endpoint: %+v", d)
	}
}
