package main

import (
	"bytes"
	"compress/gzip"
	"context"
	"encoding/base64"
	"encoding/json"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/aws/aws-lambda-go/events"

	"github.com/firmoapi/firmo/shared/app"
	"github.com/firmoapi/firmo/shared/app/allapp"
	"github.com/firmoapi/firmo/shared/app/contactsapp"
	"github.com/firmoapi/firmo/shared/app/localbackend"
	"github.com/firmoapi/firmo/shared/company"
	"github.com/firmoapi/firmo/shared/config"
	"github.com/firmoapi/firmo/shared/httpapi"
	"github.com/firmoapi/firmo/shared/world"
)

const demoKey = "size-test-demo-key-0123456789"

// The largest answers the API reference allows, on the default demo world, through this
// function's handler: 10,000 contacts are 6 to 7 MB of JSON, over Lambda's 6 MB. With
// Accept-Encoding: gzip they fit, and decode to what the local server answers; without
// it the answer is 422 response_too_large naming max_records, never a 500.
func TestLargestAnswersFitLambda(t *testing.T) {
	core := seededContactsCore(t)
	local := httptest.NewServer(core.Handler())
	defer local.Close()
	proxy := core.HTTPProxy()

	for _, tc := range []struct{ name, method, path, query, body string }{
		{"discover", "POST", "/v1/contacts/discover", "", `{"max_records":10000}`},
		{"legacy list", "GET", "/v1/contacts", "max_records=10000", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			want := localAnswer(t, local.URL, tc.method, tc.path, tc.query, tc.body)
			identity := envelopeSize(t, events.APIGatewayV2HTTPResponse{StatusCode: http.StatusOK, Body: string(want)})
			if identity <= app.LambdaResponseMax {
				t.Fatalf("as it is, the answer is %d bytes in the envelope: the world no longer makes one over Lambda's limit", identity)
			}

			resp := invoke(t, proxy, tc.method, tc.path, tc.query, tc.body, "gzip, deflate, br")
			size := envelopeSize(t, resp)
			if resp.StatusCode != http.StatusOK || size > app.LambdaResponseMax {
				t.Fatalf("gzip accepted: status %d, %d bytes in the envelope (limit %d); %.300s", resp.StatusCode, size, app.LambdaResponseMax, resp.Body)
			}
			if resp.Headers["Content-Encoding"] != "gzip" || !resp.IsBase64Encoded || !strings.Contains(resp.Headers["Vary"], "Accept-Encoding") {
				t.Fatalf("Content-Encoding %q, isBase64Encoded %v, Vary %q: want a gzip body in base64", resp.Headers["Content-Encoding"], resp.IsBase64Encoded, resp.Headers["Vary"])
			}
			zipped, err := base64.StdEncoding.DecodeString(resp.Body)
			if err != nil {
				t.Fatal(err)
			}
			zr, err := gzip.NewReader(bytes.NewReader(zipped))
			if err != nil {
				t.Fatal(err)
			}
			got, err := io.ReadAll(zr)
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(got, want) {
				t.Fatalf("decoded body (%d bytes) differs from the local server's (%d bytes)", len(got), len(want))
			}
			t.Logf("%s: %d bytes of JSON (%d in the Lambda envelope), %d gzipped (%d in the envelope)", tc.name, len(want), identity, len(zipped), size)

			resp = invoke(t, proxy, tc.method, tc.path, tc.query, tc.body, "")
			if size := envelopeSize(t, resp); resp.StatusCode != http.StatusUnprocessableEntity || size > app.LambdaResponseMax {
				t.Fatalf("no Accept-Encoding: status %d, %d bytes; want 422", resp.StatusCode, size)
			}
			var e httpapi.ErrorBody
			if err := json.Unmarshal([]byte(resp.Body), &e); err != nil {
				t.Fatalf("not the JSON error shape: %v; %.300s", err, resp.Body)
			}
			if e.Error.Code != httpapi.CodeResponseTooLarge || e.Error.Field != "max_records" || !strings.Contains(e.Error.Message, "max_records") || e.Error.RequestID == "" {
				t.Errorf("error %+v, want %s naming max_records", e.Error, httpapi.CodeResponseTooLarge)
			}
		})
	}
}

// seededContactsCore seeds the default demo world (companies and their contacts) with
// the whole composition, as `firmo seed` does, then composes the contacts family alone
// on that store, as this function does.
func seededContactsCore(t *testing.T) *app.Core {
	t.Helper()
	ctx := context.Background()
	env := map[string]string{"FIRMO_DATA_DIR": t.TempDir()}
	cfg, err := config.Load(func(k string) string { return env[k] })
	if err != nil {
		t.Fatal(err)
	}
	log := slog.New(slog.NewTextHandler(io.Discard, nil))
	all, err := allapp.NewLocal(ctx, cfg, log)
	if err != nil {
		t.Fatal(err)
	}
	// A fixed date keeps the world, and so the answers' sizes, the same every day.
	opts := world.Options{Seed: allapp.DefaultWorldSeed, Companies: cfg.SeedCompanies, AsOf: time.Date(2026, 11, 25, 0, 0, 0, 0, time.UTC)}
	if _, err := all.SeedWorld(ctx, opts, company.LoadOptions{}, nil); err != nil {
		t.Fatal(err)
	}
	if _, err := all.SeedContacts(ctx, opts, nil); err != nil {
		t.Fatal(err)
	}
	if err := all.Close(); err != nil {
		t.Fatal(err)
	}
	core, err := localbackend.Build(ctx, cfg, log, contactsapp.Composer())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { core.Close() })
	if _, err := core.Accounts.EnsureDemo(ctx, demoKey); err != nil {
		t.Fatal(err)
	}
	return core
}

// localAnswer is the local server's body, asked without Accept-Encoding.
func localAnswer(t *testing.T, base, method, path, query, body string) []byte {
	t.Helper()
	req, err := http.NewRequest(method, base+path+"?"+query, strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("x-service-key", demoKey)
	client := &http.Client{Transport: &http.Transport{DisableCompression: true}}
	res, err := client.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	b, err := io.ReadAll(res.Body)
	if err != nil {
		t.Fatal(err)
	}
	if res.StatusCode != http.StatusOK || res.Header.Get("Content-Encoding") != "" {
		t.Fatalf("local server: status %d, Content-Encoding %q; %.300s", res.StatusCode, res.Header.Get("Content-Encoding"), b)
	}
	return b
}

// invoke calls the function's handler with the event API Gateway sends.
func invoke(t *testing.T, proxy func(context.Context, events.APIGatewayV2HTTPRequest) (events.APIGatewayV2HTTPResponse, error), method, path, query, body, acceptEncoding string) events.APIGatewayV2HTTPResponse {
	t.Helper()
	headers := map[string]string{"x-service-key": demoKey, "content-type": "application/json"}
	if acceptEncoding != "" {
		headers["accept-encoding"] = acceptEncoding
	}
	req := events.APIGatewayV2HTTPRequest{
		Version: "2.0", RouteKey: "$default", RawPath: path, RawQueryString: query, Headers: headers, Body: body,
		RequestContext: events.APIGatewayV2HTTPRequestContext{
			RouteKey: "$default", Stage: "$default", RequestID: "size-test", TimeEpoch: time.Now().UnixMilli(),
			HTTP: events.APIGatewayV2HTTPRequestContextHTTPDescription{Method: method, Path: path, Protocol: "HTTP/1.1", SourceIP: "192.0.2.1"},
		},
	}
	resp, err := proxy(context.Background(), req)
	if err != nil {
		t.Fatal(err)
	}
	return resp
}

// envelopeSize is what the Lambda runtime returns for resp: aws-lambda-go encodes it
// without HTML escaping, with a trailing newline.
func envelopeSize(t *testing.T, resp events.APIGatewayV2HTTPResponse) int {
	t.Helper()
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(resp); err != nil {
		t.Fatal(err)
	}
	return b.Len()
}
