package main

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/aws/aws-lambda-go/events"

	"github.com/firmoapi/firmo/shared/account"
	"github.com/firmoapi/firmo/shared/app"
	"github.com/firmoapi/firmo/shared/app/accountapp"
	"github.com/firmoapi/firmo/shared/app/localbackend"
	"github.com/firmoapi/firmo/shared/config"
	"github.com/firmoapi/firmo/shared/openapi"
)

// eventsDir holds the sample events shared with `sam local invoke -e`.
const eventsDir = "../../events"

// eventKey is the demo API key the sample events carry.
const eventKey = "evt-demo-key-0123456789abcdef"

// coveredPrefixes name the event files of this function; each must be in eventCases.
var coveredPrefixes = []string{"account-"}

// answer is the function's response with its body decoded.
type answer struct {
	events.APIGatewayV2HTTPResponse
	json map[string]any
}

func (a answer) header(name string) string {
	for k, v := range a.Headers {
		if strings.EqualFold(k, name) {
			return v
		}
	}
	return ""
}

type eventCase struct {
	status int
	code   string         // error code; empty for a success
	fields map[string]any // top-level JSON fields and their values
	check  func(t *testing.T, a answer)
}

var eventCases = map[string]eventCase{
	"account-get.json": {status: 200, fields: map[string]any{
		"plan": "ENTERPRISE", "role": "admin", "auth_method": "api_key", "key_id": account.KeyID(eventKey),
	}},
	"account-get-bearer.json": {status: 200, fields: map[string]any{
		"plan": "ENTERPRISE", "role": "admin", "auth_method": "api_key", "key_id": account.KeyID(eventKey),
	}},
	"account-get-nokey.json": {status: 401, code: "unauthorized", check: func(t *testing.T, a answer) {
		if a.header("WWW-Authenticate") == "" {
			t.Error("401 without WWW-Authenticate")
		}
	}},
	"account-keys-post.json": {status: 201, fields: map[string]any{"name": "from-event", "active": true}, check: func(t *testing.T, a answer) {
		secret, _ := a.json["key"].(string)
		if secret == "" || a.json["key_id"] != account.KeyID(secret) {
			t.Errorf("key = %q, key_id = %v: want a new secret and its id", secret, a.json["key_id"])
		}
	}},
	"account-keys-list.json": {status: 200, check: func(t *testing.T, a answer) {
		keys, _ := a.json["keys"].([]any)
		for _, k := range keys {
			if k, _ := k.(map[string]any); k["key_id"] == account.KeyID(eventKey) && k["active"] == true {
				return
			}
		}
		t.Errorf("keys = %v: want the active demo key", keys)
	}},
	"account-healthz.json": {status: 200, fields: map[string]any{"status": "ok"}},
	"account-openapi.json": {status: 200, check: func(t *testing.T, a answer) {
		doc, err := openapi.Document()
		if err != nil {
			t.Fatal(err)
		}
		if a.Body != string(doc) {
			t.Error("body is not the OpenAPI document")
		}
		if ct := a.header("Content-Type"); ct != "application/json" {
			t.Errorf("Content-Type = %q", ct)
		}
	}},
	"account-unknown-route.json": {status: 404, code: "not_found"},
	"account-wrong-method.json": {status: 405, code: "method_not_allowed", check: func(t *testing.T, a answer) {
		if allow := a.header("Allow"); !strings.Contains(allow, "GET") {
			t.Errorf("Allow = %q, want GET listed", allow)
		}
	}},
}

func TestSampleEvents(t *testing.T) {
	for _, name := range sortedKeys(eventCases) {
		tc := eventCases[name]
		t.Run(name, func(t *testing.T) {
			req := readEvent(t, filepath.Join(eventsDir, name))
			resp, err := newApp(t).HTTPProxy()(context.Background(), req)
			if err != nil {
				t.Fatalf("proxy: %v", err)
			}
			got := answer{APIGatewayV2HTTPResponse: resp}
			if resp.IsBase64Encoded {
				t.Fatalf("body is base64-encoded: %s", resp.Body)
			}
			if err := json.Unmarshal([]byte(resp.Body), &got.json); err != nil {
				t.Fatalf("body is not a JSON object: %v; %s", err, resp.Body)
			}
			if resp.StatusCode != tc.status {
				t.Fatalf("status = %d, want %d; body %s", resp.StatusCode, tc.status, resp.Body)
			}
			if tc.code != "" {
				checkError(t, got, tc.code)
			}
			for field, want := range tc.fields {
				if got.json[field] != want {
					t.Errorf("%s = %v, want %v", field, got.json[field], want)
				}
			}
			if tc.check != nil {
				tc.check(t, got)
			}
		})
	}
}

// TestEveryEventFileIsChecked keeps events/ and the table in step.
func TestEveryEventFileIsChecked(t *testing.T) {
	entries, err := os.ReadDir(eventsDir)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		if e.IsDir() || !hasAnyPrefix(e.Name(), coveredPrefixes) {
			continue
		}
		if _, ok := eventCases[e.Name()]; !ok {
			t.Errorf("events/%s is not in eventCases: add what the function should answer", e.Name())
		}
	}
}

// newApp composes the account family alone, as this function does, on the embedded
// backend, with the demo organisation keyed by eventKey.
func newApp(t *testing.T) *app.Core {
	t.Helper()
	env := map[string]string{"FIRMO_DATA_DIR": t.TempDir()}
	cfg, err := config.Load(func(k string) string { return env[k] })
	if err != nil {
		t.Fatal(err)
	}
	log := slog.New(slog.NewTextHandler(io.Discard, nil))
	core, err := localbackend.Build(context.Background(), cfg, log, accountapp.Composer())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { core.Close() })
	if _, err := core.Accounts.EnsureDemo(context.Background(), eventKey); err != nil {
		t.Fatal(err)
	}
	return core
}

// readEvent decodes a sample event strictly and checks that it looks like what API
// Gateway sends, so the files stay useful for `sam local invoke`.
func readEvent(t *testing.T, path string) events.APIGatewayV2HTTPRequest {
	t.Helper()
	raw, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var req events.APIGatewayV2HTTPRequest
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&req); err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	rc := req.RequestContext
	switch {
	case req.Version != "2.0":
		t.Fatalf("%s: version = %q, want 2.0", path, req.Version)
	case req.RouteKey != rc.RouteKey:
		t.Fatalf("%s: routeKey %q differs from requestContext.routeKey %q", path, req.RouteKey, rc.RouteKey)
	case req.RouteKey != "$default" && req.RouteKey != rc.HTTP.Method+" "+req.RawPath:
		t.Fatalf("%s: routeKey %q does not match %s %s", path, req.RouteKey, rc.HTTP.Method, req.RawPath)
	case rc.HTTP.Path != req.RawPath || rc.Stage != "$default" || rc.RequestID == "" || rc.TimeEpoch == 0:
		t.Fatalf("%s: requestContext is incomplete or disagrees with rawPath: %+v", path, rc)
	}
	for k := range req.Headers {
		if k != strings.ToLower(k) {
			t.Fatalf("%s: header %q is not lower-case as API Gateway sends it", path, k)
		}
	}
	return req
}

// checkError asserts the one JSON error shape, its request id echoed in x-request-id.
func checkError(t *testing.T, a answer, code string) {
	t.Helper()
	e, ok := a.json["error"].(map[string]any)
	if !ok {
		t.Fatalf("no error object: %s", a.Body)
	}
	rid := a.header("x-request-id")
	if e["code"] != code || e["message"] == "" || e["message"] == nil || rid == "" || e["request_id"] != rid {
		t.Fatalf("error = %v, want code %s with a message and request id %q", e, code, rid)
	}
	if ct := a.header("Content-Type"); ct != "application/json" {
		t.Errorf("Content-Type = %q", ct)
	}
}

func hasAnyPrefix(s string, prefixes []string) bool {
	for _, p := range prefixes {
		if strings.HasPrefix(s, p) {
			return true
		}
	}
	return false
}

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}
