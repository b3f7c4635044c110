package app_test

import (
	"bytes"
	"compress/gzip"
	"context"
	"encoding/base64"
	"encoding/json"
	"io"
	"log/slog"
	"net/http"
	"strings"
	"testing"

	"github.com/aws/aws-lambda-go/events"

	"github.com/firmoapi/firmo/shared/app"
	"github.com/firmoapi/firmo/shared/app/accountapp"
	"github.com/firmoapi/firmo/shared/app/localbackend"
	"github.com/firmoapi/firmo/shared/config"
	"github.com/firmoapi/firmo/shared/httpapi"
)

// envelope is the size of the document the Lambda runtime returns for resp, measured
// here independently of app.LambdaEnvelopeSize (aws-lambda-go encodes without HTML
// escaping and ends with a newline).
func envelope(t *testing.T, resp events.APIGatewayV2HTTPResponse) int {
	t.Helper()
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(resp); err != nil {
		t.Fatal(err)
	}
	return b.Len()
}

func proxyRequest(path string, headers map[string]string) events.APIGatewayV2HTTPRequest {
	return events.APIGatewayV2HTTPRequest{
		Version: "2.0", RouteKey: "$default", RawPath: path, Headers: headers,
		RequestContext: events.APIGatewayV2HTTPRequestContext{
			RouteKey: "$default", Stage: "$default", RequestID: "req-1", TimeEpoch: 1,
			HTTP: events.APIGatewayV2HTTPRequestContextHTTPDescription{Method: "GET", Path: path},
		},
	}
}

// The Lambda handler counts the response as the runtime returns it: a body under 6 MB
// whose JSON escaping takes it over is refused like any other, a gzip body goes in
// base64 and is counted so, and what passes is what the handler wrote.
func TestHTTPProxyResponseLimit(t *testing.T) {
	cfg, err := config.Load(func(k string) string { return map[string]string{"FIRMO_DATA_DIR": t.TempDir()}[k] })
	if err != nil {
		t.Fatal(err)
	}
	core, err := localbackend.Build(context.Background(), cfg, slog.New(slog.NewTextHandler(io.Discard, nil)), accountapp.Composer())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { core.Close() })

	quotes := strings.Repeat(`"`, app.LambdaResponseMax*3/4) // 4.5 MB, 9 MB once escaped
	plain := strings.Repeat("a", app.LambdaResponseMax*3/4)
	var records strings.Builder // 9 MB of JSON that gzips to a few kB
	records.WriteString("[")
	for records.Len() < app.LambdaResponseMax*3/2 {
		records.WriteString(`{"name":"Jane Doe","title":"VP Engineering","domain":"acme.com"},`)
	}
	records.WriteString("{}]")
	serve := func(body string) httpapi.HandlerFunc {
		return func(w http.ResponseWriter, r *http.Request) error {
			w.Header().Set("Content-Type", "application/json")
			io.WriteString(w, body)
			return nil
		}
	}
	core.Server.Add(
		httpapi.Route{Method: "GET", Path: "/test/quotes", Family: httpapi.FamilyAccount, Auth: httpapi.AuthNone, Handle: serve(quotes), SizeParams: []string{"max_records"}},
		httpapi.Route{Method: "GET", Path: "/test/plain", Family: httpapi.FamilyAccount, Auth: httpapi.AuthNone, Handle: serve(plain)},
		httpapi.Route{Method: "GET", Path: "/test/records", Family: httpapi.FamilyAccount, Auth: httpapi.AuthNone, Handle: serve(records.String())},
	)
	proxy := core.HTTPProxy()

	for _, tc := range []struct {
		name, path string
		gzip       bool
		wantStatus int
		wantBody   string
		wantField  string
	}{
		{"escaping takes it over", "/test/quotes", false, 422, "", "max_records"},
		{"fits as it is", "/test/plain", false, 200, plain, ""},
		{"too large as it is", "/test/records", false, 422, "", ""},
		{"fits gzipped, in base64", "/test/records", true, 200, records.String(), ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			headers := map[string]string{}
			if tc.gzip {
				headers["accept-encoding"] = "gzip, deflate, br"
			}
			resp, err := proxy(context.Background(), proxyRequest(tc.path, headers))
			if err != nil {
				t.Fatal(err)
			}
			if n := envelope(t, resp); n > app.LambdaResponseMax {
				t.Fatalf("the runtime would return %d bytes, over Lambda's %d", n, app.LambdaResponseMax)
			}
			if resp.StatusCode != tc.wantStatus {
				t.Fatalf("status = %d, want %d; %.300s", resp.StatusCode, tc.wantStatus, resp.Body)
			}
			body := resp.Body
			if resp.Headers["Content-Encoding"] == "gzip" {
				if !resp.IsBase64Encoded {
					t.Fatal("gzip body without isBase64Encoded: API Gateway would send it mangled")
				}
				raw, err := base64.StdEncoding.DecodeString(resp.Body)
				if err != nil {
					t.Fatal(err)
				}
				zr, err := gzip.NewReader(bytes.NewReader(raw))
				if err != nil {
					t.Fatal(err)
				}
				b, err := io.ReadAll(zr)
				if err != nil {
					t.Fatal(err)
				}
				body = string(b)
			} else if tc.gzip {
				t.Fatalf("Content-Encoding = %q, want gzip", resp.Headers["Content-Encoding"])
			}
			if tc.wantStatus == 200 {
				if body != tc.wantBody {
					t.Errorf("body of %d bytes differs from the handler's %d", len(body), len(tc.wantBody))
				}
				return
			}
			var e httpapi.ErrorBody
			if err := json.Unmarshal([]byte(body), &e); err != nil {
				t.Fatalf("not the JSON error shape: %v", err)
			}
			if e.Error.Code != httpapi.CodeResponseTooLarge || e.Error.Field != tc.wantField || e.Error.RequestID != resp.Headers["X-Request-Id"] {
				t.Errorf("error %+v, want %s on field %q with the request id %q", e.Error, httpapi.CodeResponseTooLarge, tc.wantField, resp.Headers["X-Request-Id"])
			}
		})
	}

	t.Run("envelope size as the runtime counts it", func(t *testing.T) {
		for _, path := range []string{"/test/plain", "/healthz"} {
			resp, err := proxy(context.Background(), proxyRequest(path, nil))
			if err != nil {
				t.Fatal(err)
			}
			h := http.Header{}
			for k, v := range resp.Headers {
				h.Set(k, v)
			}
			if got, want := app.LambdaEnvelopeSize(resp.StatusCode, h, []byte(resp.Body)), envelope(t, resp); got != want {
				t.Errorf("%s: LambdaEnvelopeSize = %d, want %d", path, got, want)
			}
		}
	})
}
