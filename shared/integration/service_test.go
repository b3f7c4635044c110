package integration_test

import (
	"bytes"
	"context"
	"errors"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/firmoapi/firmo/shared/account"
	"github.com/firmoapi/firmo/shared/apperr"
	"github.com/firmoapi/firmo/shared/fetch"
	"github.com/firmoapi/firmo/shared/integration"
	"github.com/firmoapi/firmo/shared/kv/boltkv"
	"github.com/firmoapi/firmo/shared/llm"
	"github.com/firmoapi/firmo/shared/llm/llmconnect"
	"github.com/firmoapi/firmo/shared/secret"
)

const key = "sk-live-VERYSECRET-0123456789"

// vendor speaks the OpenAI wire format: /v1/models lists gpt-4o-mini only, and chat
// completions answer "OK" unless the key is wrong.
func vendor(t *testing.T) (base string, prompts *[]string) {
	t.Helper()
	var seen []string
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		if r.Header.Get("Authorization") != "Bearer "+key && r.Header.Get("Authorization") != "Bearer new-key-1" {
			w.WriteHeader(401)
			io.WriteString(w, `{"error":{"message":"Incorrect API key provided","type":"invalid_request_error","code":"invalid_api_key"}}`)
			return
		}
		switch r.URL.Path {
		case "/v1/models":
			io.WriteString(w, `{"object":"list","data":[{"id":"gpt-4o-mini","object":"model","created":1,"owned_by":"x"}]}`)
		case "/v1/chat/completions":
			b, _ := io.ReadAll(r.Body)
			seen = append(seen, string(b))
			io.WriteString(w, `{"id":"c","object":"chat.completion","created":1,"model":"m","choices":[{"index":0,"message":{"role":"assistant","content":"OK"},"finish_reason":"stop"}],"usage":{"prompt_tokens":3,"completion_tokens":1,"total_tokens":4}}`)
		default:
			http.NotFound(w, r)
		}
	}))
	t.Cleanup(srv.Close)
	return srv.URL + "/v1", &seen
}

type fixture struct {
	svc  *integration.Service
	path string
	base string
}

func setup(t *testing.T) fixture {
	t.Helper()
	path := filepath.Join(t.TempDir(), "kv.db")
	store, err := boltkv.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { store.Close() })
	box, _ := secret.New(bytes.Repeat([]byte{9}, secret.KeySize))
	base, _ := vendor(t)
	client := llm.GuardedHTTPClient([]string{"127.0.0.1"}, 10*time.Second)
	urls := fetch.New(fetch.Options{AllowHosts: []string{"127.0.0.1"}, Resolver: publicDNS{}})
	svc := integration.New(integration.Deps{Store: store, Sealer: box, URLs: urls, Connector: llmconnect.Connector{HTTP: client, OpenAIBaseURL: base}})
	return fixture{svc: svc, path: path, base: base}
}

// publicDNS resolves every name to a public documentation-free address and
// "internal.test" to a private one.
type publicDNS struct{}

func (publicDNS) LookupIPAddr(ctx context.Context, host string) ([]net.IPAddr, error) {
	if host == "internal.test" {
		return []net.IPAddr{{IP: net.ParseIP("10.0.0.5")}}, nil
	}
	return []net.IPAddr{{IP: net.ParseIP("93.184.216.34")}}, nil
}

func strp(s string) *string { return &s }

func status(err error) (int, string, string) {
	d := apperr.Describe(err)
	return d.Status, d.Field, d.Code
}

func TestCreateValidation(t *testing.T) {
	f := setup(t)
	ctx := context.Background()
	cases := []struct {
		name  string
		in    integration.Input
		field string
	}{
		{"blank name", integration.Input{Name: "  ", Provider: "openai", APIKey: key, Model: "gpt-4o-mini"}, "integration_name"},
		{"blank provider", integration.Input{Name: "n", APIKey: key, Model: "gpt-4o-mini"}, "provider"},
		{"unknown provider", integration.Input{Name: "n", Provider: "gemini", APIKey: key, Model: "x"}, "provider"},
		{"blank model", integration.Input{Name: "n", Provider: "openai", APIKey: key, Model: " "}, "model_name"},
		{"no key", integration.Input{Name: "n", Provider: "openai", Model: "gpt-4o-mini"}, "api_key"},
		{"custom without base_url", integration.Input{Name: "n", Provider: "custom", APIKey: key, Model: "llama"}, "base_url"},
		{"ftp base_url", integration.Input{Name: "n", Provider: "custom", APIKey: key, Model: "llama", BaseURL: strp("ftp://llm.example.com")}, "base_url"},
		{"whitespace", integration.Input{Name: "n", Provider: "custom", APIKey: key, Model: "llama", BaseURL: strp("https://llm.example.com/v1 x")}, "base_url"},
		{"quote", integration.Input{Name: "n", Provider: "custom", APIKey: key, Model: "llama", BaseURL: strp(`https://llm.example.com/"v1`)}, "base_url"},
		{"angle", integration.Input{Name: "n", Provider: "custom", APIKey: key, Model: "llama", BaseURL: strp("https://llm.example.com/<v1>")}, "base_url"},
		{"private host", integration.Input{Name: "n", Provider: "custom", APIKey: key, Model: "llama", BaseURL: strp("https://internal.test/v1")}, "base_url"},
		{"loopback", integration.Input{Name: "n", Provider: "custom", APIKey: key, Model: "llama", BaseURL: strp("http://127.0.0.2:8080/v1")}, "base_url"},
		{"link-local", integration.Input{Name: "n", Provider: "custom", APIKey: key, Model: "llama", BaseURL: strp("http://169.254.169.254/")}, "base_url"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := f.svc.Create(ctx, admin("org1"), c.in)
			if st, field, _ := status(err); st != 422 || field != c.field {
				t.Fatalf("got %d on %q (%v), want 422 on %q", st, field, err, c.field)
			}
		})
	}
	list, _, _ := f.svc.List(ctx, "org1")
	if len(list) != 0 {
		t.Fatalf("refused creates left %d integrations", len(list))
	}
}

func TestLifecycle(t *testing.T) {
	f := setup(t)
	ctx := context.Background()
	oa, err := f.svc.Create(ctx, admin("org1"), integration.Input{Name: "Main", Provider: "openai", APIKey: key, Model: "gpt-4o-mini"})
	if err != nil || !oa.IsDefault || oa.ModelDeprecated {
		t.Fatalf("create: %+v %v", oa, err)
	}
	old, err := f.svc.Create(ctx, admin("org1"), integration.Input{Name: "Old", Provider: "openai", APIKey: key, Model: "gpt-3.5-turbo-0301"})
	if err != nil || old.IsDefault || !old.ModelDeprecated {
		t.Fatalf("a model missing from the vendor list must be deprecated: %+v %v", old, err)
	}
	custom, err := f.svc.Create(ctx, admin("org1"), integration.Input{Name: "Local", Provider: "custom", APIKey: key, Model: "gpt-4o-mini", BaseURL: strp(f.base)})
	if err != nil {
		t.Fatal(err)
	}
	typed, err := f.svc.Create(ctx, admin("org1"), integration.Input{Name: "Judge", Provider: "typed", APIKey: key, Model: "judge-1", BaseURL: strp(f.base)})
	if err != nil || typed.IsDefault {
		t.Fatalf("typed: %+v %v", typed, err)
	}

	// Resolve: default, explicit, typed explicit (typed-only: no client), other org.
	in, c, err := f.svc.Resolve(ctx, "org1", "")
	if err != nil || in.ID != oa.ID || c == nil {
		t.Fatalf("resolve default: %+v %v", in, err)
	}
	if resp, err := c.Complete(ctx, llm.Request{Model: in.Model, Prompt: "hi"}); err != nil || resp.Text != "OK" || resp.PromptTokens != 3 {
		t.Fatalf("resolved client: %+v %v", resp, err)
	}
	if in, c, err := f.svc.Resolve(ctx, "org1", typed.ID); err != nil || c != nil || in.Provider != "typed" {
		t.Fatalf("explicit typed: %+v %v %v", in, c, err)
	}
	if _, _, err := f.svc.Resolve(ctx, "org2", oa.ID); !errors.Is(err, apperr.ErrNotFound) {
		t.Fatalf("other org resolve: %v", err)
	}
	if _, _, err := f.svc.Resolve(ctx, "org2", ""); apperr.Describe(err).Status != 400 {
		t.Fatalf("no default: %v", err)
	}
	if j, judge, err := f.svc.Judge(ctx, "org1"); err != nil || j.ID != typed.ID || judge == nil {
		t.Fatalf("judge: %+v %v", j, err)
	}
	if _, _, err := f.svc.Judge(ctx, "org2"); !errors.Is(err, apperr.ErrNotFound) {
		t.Fatalf("judge without typed: %v", err)
	}

	// set-default: typed refused; custom accepted.
	if _, err := f.svc.SetDefault(ctx, admin("org1"), typed.ID); apperr.Describe(err).Status != 400 {
		t.Fatalf("typed default: %v", err)
	}
	if _, err := f.svc.SetDefault(ctx, admin("org1"), custom.ID); err != nil {
		t.Fatal(err)
	}
	if in, _, _ := f.svc.Resolve(ctx, "org1", ""); in.ID != custom.ID {
		t.Fatalf("default after set-default: %s", in.ID)
	}

	// Update rules.
	if _, err := f.svc.Update(ctx, admin("org1"), oa.ID, integration.Patch{Name: strp("Renamed")}); err != nil {
		t.Fatalf("rename without key: %v", err)
	}
	for name, p := range map[string]integration.Patch{
		"model":    {Model: strp("gpt-4.1")},
		"provider": {Provider: strp("anthropic")},
		"base_url": {BaseURL: strp("https://llm.example.com/v1"), BaseURLSet: true},
	} {
		if _, err := f.svc.Update(ctx, admin("org1"), oa.ID, p); apperr.Describe(err).Field != "api_key" {
			t.Fatalf("changing %s without a key: %v", name, err)
		}
	}
	up, err := f.svc.Update(ctx, admin("org1"), old.ID, integration.Patch{Model: strp("gpt-4o-mini"), APIKey: strp("new-key-1")})
	if err != nil || up.ModelDeprecated || up.Model != "gpt-4o-mini" {
		t.Fatalf("update with key: %+v %v", up, err)
	}
	if _, err := f.svc.Update(ctx, admin("org2"), oa.ID, integration.Patch{Name: strp("x")}); !errors.Is(err, apperr.ErrNotFound) {
		t.Fatalf("other org update: %v", err)
	}
	if _, err := f.svc.Update(ctx, admin("org1"), custom.ID, integration.Patch{Provider: strp("typed"), APIKey: strp("k2")}); apperr.Describe(err).Status != 400 {
		t.Fatalf("turning the default typed: %v", err)
	}

	// Delete: other org 404; the default leaves no default.
	if err := f.svc.Delete(ctx, admin("org2"), custom.ID); !errors.Is(err, apperr.ErrNotFound) {
		t.Fatalf("other org delete: %v", err)
	}
	if err := f.svc.Delete(ctx, admin("org1"), custom.ID); err != nil {
		t.Fatal(err)
	}
	if _, err := f.svc.ByID(ctx, "org1", custom.ID); !errors.Is(err, apperr.ErrNotFound) {
		t.Fatalf("deleted: %v", err)
	}
	if _, _, err := f.svc.Resolve(ctx, "org1", ""); apperr.Describe(err).Status != 400 {
		t.Fatalf("deleted default: %v", err)
	}
	list, mtime, err := f.svc.List(ctx, "org1")
	if err != nil || len(list) != 3 || list[0].ID != oa.ID || list[0].Name != "Renamed" || mtime.IsZero() {
		t.Fatalf("list: %+v %v %v", list, mtime, err)
	}

	// The raw store never holds a key in plain text.
	raw, err := os.ReadFile(f.path)
	if err != nil {
		t.Fatal(err)
	}
	for _, k := range []string{key, "new-key-1"} {
		if bytes.Contains(raw, []byte(k)) {
			t.Fatalf("plaintext key %q in the store file", k)
		}
	}
}

func TestTypedThroughDefault(t *testing.T) {
	f := setup(t)
	ctx := context.Background()
	// A typed integration cannot become the default, but a default that was deleted
	// and is missing reads as "no default"; the TYPED_ code is for a default pointing
	// at typed, which Update refuses. Check the explicit path and the code constant.
	typed, err := f.svc.Create(ctx, admin("org1"), integration.Input{Name: "J", Provider: "typed", APIKey: key, Model: "judge-1"})
	if err != nil {
		t.Fatal(err)
	}
	if _, _, err := f.svc.Resolve(ctx, "org1", ""); apperr.Describe(err).Code != integration.CodeNoIntegration {
		t.Fatalf("only typed, via default: %v", err)
	}
	if _, err := f.svc.SetDefault(ctx, admin("org1"), typed.ID); apperr.Describe(err).Code != integration.CodeTypedDefault {
		t.Fatalf("set-default typed: %v", err)
	}
	// Without base_url and without FIRMO_TYPED_BASE_URL the judge is a clear 400.
	if _, _, err := f.svc.Judge(ctx, "org1"); apperr.Describe(err).Status != 400 {
		t.Fatalf("typed without endpoint: %v", err)
	}
}

func TestTestConnection(t *testing.T) {
	f := setup(t)
	ctx := context.Background()
	if err := f.svc.TestConnection(ctx, integration.Input{Provider: "custom", APIKey: key, Model: "m", BaseURL: strp(f.base)}); err != nil {
		t.Fatalf("good key: %v", err)
	}
	err := f.svc.TestConnection(ctx, integration.Input{Provider: "custom", APIKey: "sk-wrong-4242", Model: "m", BaseURL: strp(f.base)})
	d := apperr.Describe(err)
	if d.Status != 400 || !strings.Contains(d.Message, "authentication failed") || strings.Contains(d.Message, "4242") {
		t.Fatalf("bad key: %+v", d)
	}
	if err := f.svc.TestConnection(ctx, integration.Input{Provider: "custom", Model: "m", BaseURL: strp(f.base)}); apperr.Describe(err).Field != "api_key" {
		t.Fatalf("missing key: %v", err)
	}
}

// admin is an admin caller of org.
func admin(org string) account.Principal {
	return account.Principal{Org: account.Org{ID: org}, User: account.User{ID: "admin-of-" + org, Role: account.RoleAdmin}}
}
