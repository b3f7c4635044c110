package osclient_test

import (
	"context"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/credentials"
	"github.com/opensearch-project/opensearch-go/v4/opensearchapi"

	"github.com/firmoapi/firmo/shared/config"
	"github.com/firmoapi/firmo/shared/osclient"
)

// These tests check what the client sends (auth headers, retries) against a tiny
// in-process HTTP server that answers the one call made (index exists). It is a test of
// the client's construction only, not of OpenSearch: the adapters' real-cluster suites
// run when OPENSEARCH_URL is set (README, Tests).

func TestAuthHeaders(t *testing.T) {
	var got atomic.Value
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		got.Store(r.Header.Clone())
		w.WriteHeader(http.StatusOK)
	}))
	defer srv.Close()
	awsCfg := aws.Config{Region: "us-east-1", Credentials: credentials.NewStaticCredentialsProvider("AKIDTEST", "secret", "")}
	cases := []struct {
		name  string
		cfg   config.OpenSearch
		check func(t *testing.T, h http.Header)
	}{
		{"sigv4", config.OpenSearch{URL: srv.URL, Auth: config.OpenSearchSigV4, Region: "eu-west-1"}, func(t *testing.T, h http.Header) {
			a := h.Get("Authorization")
			if !strings.HasPrefix(a, "AWS4-HMAC-SHA256 Credential=AKIDTEST/") || !strings.Contains(a, "/eu-west-1/es/aws4_request") {
				t.Errorf("Authorization = %q; want a SigV4 signature for es in eu-west-1", a)
			}
			if h.Get("X-Amz-Date") == "" || h.Get("X-Amz-Content-Sha256") == "" {
				t.Errorf("SigV4 headers missing: %v", h)
			}
		}},
		{"basic", config.OpenSearch{URL: srv.URL, Auth: config.OpenSearchBasic, Username: "admin", Password: "pw"}, func(t *testing.T, h http.Header) {
			if a := h.Get("Authorization"); a != "Basic YWRtaW46cHc=" {
				t.Errorf("Authorization = %q; want basic admin:pw", a)
			}
		}},
		{"none", config.OpenSearch{URL: srv.URL, Auth: config.OpenSearchNone}, func(t *testing.T, h http.Header) {
			if a := h.Get("Authorization"); a != "" {
				t.Errorf("Authorization = %q; want none", a)
			}
		}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			client, err := osclient.New(c.cfg, &awsCfg)
			if err != nil {
				t.Fatal(err)
			}
			if _, err := client.Indices.Exists(context.Background(), opensearchapi.IndicesExistsReq{Indices: []string{"contacts"}}); err != nil {
				t.Fatal(err)
			}
			c.check(t, got.Load().(http.Header))
		})
	}
}

func TestRetriesThrottling(t *testing.T) {
	var calls atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if calls.Add(1) <= 2 {
			w.WriteHeader(http.StatusTooManyRequests)
			return
		}
		w.WriteHeader(http.StatusOK)
	}))
	defer srv.Close()
	client, err := osclient.New(config.OpenSearch{URL: srv.URL, Auth: config.OpenSearchNone}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := client.Indices.Exists(context.Background(), opensearchapi.IndicesExistsReq{Indices: []string{"x"}}); err != nil {
		t.Fatal(err)
	}
	if n := calls.Load(); n != 3 {
		t.Errorf("calls = %d; want two 429s retried, then success", n)
	}
}

func TestConfigurationErrors(t *testing.T) {
	for _, c := range []struct {
		name string
		cfg  config.OpenSearch
	}{
		{"no URL", config.OpenSearch{}},
		{"sigv4 without AWS configuration", config.OpenSearch{URL: "https://os.example.com", Auth: config.OpenSearchSigV4, Region: "eu-west-1"}},
		{"unknown auth", config.OpenSearch{URL: "https://os.example.com", Auth: "kerberos"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			if _, err := osclient.New(c.cfg, nil); err == nil {
				t.Error("want an error")
			}
		})
	}
}

func TestBackoffGrows(t *testing.T) {
	for attempt := 1; attempt <= 6; attempt++ {
		base := 100 << min(attempt-1, 4)
		if d := osclient.Backoff(attempt).Milliseconds(); d < int64(base/2) || d > int64(base) {
			t.Errorf("Backoff(%d) = %d ms; want %d to %d ms", attempt, d, base/2, base)
		}
	}
}
