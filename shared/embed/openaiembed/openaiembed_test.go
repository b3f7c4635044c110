package openaiembed_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/firmoapi/firmo/shared/apperr"
	"github.com/firmoapi/firmo/shared/embed/embedtest"
	"github.com/firmoapi/firmo/shared/embed/openaiembed"
	"github.com/firmoapi/firmo/shared/embed/ppmiembed"
)

const key = "sk-test-123"

// fakeOpenAI answers POST /v1/embeddings in OpenAI's wire format with the built-in
// embedder's vectors, after checking that the request is exactly what OpenAI expects. It
// lists the data in reverse order, which OpenAI's API allows, to prove the client sorts by index.
type fakeOpenAI struct {
	t        *testing.T
	requests atomic.Int32
	inputs   atomic.Int32
	maxBatch int
}

// builtin is trained once for every fake server of the package.
var builtin = ppmiembed.New()

func (f *fakeOpenAI) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	f.requests.Add(1)
	fail := func(status int, format string, args ...any) {
		f.t.Errorf(format, args...)
		w.WriteHeader(status)
		fmt.Fprintf(w, `{"error":{"message":%q,"type":"invalid_request_error","param":null,"code":null}}`, fmt.Sprintf(format, args...))
	}
	if r.Method != http.MethodPost || r.URL.Path != "/v1/embeddings" {
		fail(http.StatusNotFound, "request %s %s, want POST /v1/embeddings", r.Method, r.URL.Path)
		return
	}
	if got := r.Header.Get("Authorization"); got != "Bearer "+key {
		fail(http.StatusUnauthorized, "Authorization = %q", got)
		return
	}
	if ct := r.Header.Get("Content-Type"); ct != "application/json" {
		fail(http.StatusBadRequest, "Content-Type = %q", ct)
		return
	}
	var req struct {
		Model          string   `json:"model"`
		Input          []string `json:"input"`
		EncodingFormat string   `json:"encoding_format"`
		Dimensions     int      `json:"dimensions"`
	}
	dec := json.NewDecoder(r.Body)
	dec.DisallowUnknownFields()
	if err := dec.Decode(&req); err != nil {
		fail(http.StatusBadRequest, "body: %v", err)
		return
	}
	if req.Model != "text-embedding-3-small" || req.EncodingFormat != "float" || req.Dimensions != 384 {
		fail(http.StatusBadRequest, "request = model %q, encoding_format %q, dimensions %d", req.Model, req.EncodingFormat, req.Dimensions)
		return
	}
	if len(req.Input) == 0 || len(req.Input) > f.maxBatch {
		fail(http.StatusBadRequest, "batch of %d inputs, want 1..%d", len(req.Input), f.maxBatch)
		return
	}
	f.inputs.Add(int32(len(req.Input)))
	vecs, err := builtin.Embed(r.Context(), req.Input)
	if err != nil {
		fail(http.StatusBadRequest, "embed: %v", err)
		return
	}
	type item struct {
		Object    string    `json:"object"`
		Index     int       `json:"index"`
		Embedding []float32 `json:"embedding"`
	}
	resp := struct {
		Object string         `json:"object"`
		Data   []item         `json:"data"`
		Model  string         `json:"model"`
		Usage  map[string]int `json:"usage"`
	}{Object: "list", Model: req.Model, Usage: map[string]int{"prompt_tokens": 3, "total_tokens": 3}}
	for i := len(vecs) - 1; i >= 0; i-- {
		v := vecs[i]
		for j := range v {
			v[j] *= 2 // not unit length: the client must normalize
		}
		resp.Data = append(resp.Data, item{Object: "embedding", Index: i, Embedding: v})
	}
	w.Header().Set("Content-Type", "application/json")
	_ = json.NewEncoder(w).Encode(resp)
}

func newEmbedder(t *testing.T, url string, batch int) *openaiembed.Embedder {
	t.Helper()
	e, err := openaiembed.New(openaiembed.Config{
		BaseURL: url + "/v1/", APIKey: key, Model: "text-embedding-3-small",
		Dims: 384, SendDimensions: true, BatchSize: batch,
	}, nil)
	if err != nil {
		t.Fatal(err)
	}
	return e
}

func TestContract(t *testing.T) {
	fake := &fakeOpenAI{t: t, maxBatch: 8}
	srv := httptest.NewServer(fake)
	defer srv.Close()
	embedtest.Run(t, newEmbedder(t, srv.URL, 8))
}

func TestBatching(t *testing.T) {
	fake := &fakeOpenAI{t: t, maxBatch: 4}
	srv := httptest.NewServer(fake)
	defer srv.Close()
	e := newEmbedder(t, srv.URL, 4)
	texts := make([]string, 10)
	for i := range texts {
		texts[i] = fmt.Sprintf("Engineer number %d", i)
	}
	texts[7] = "Head of Sales"
	vecs, err := e.Embed(context.Background(), texts)
	if err != nil {
		t.Fatal(err)
	}
	if got := fake.requests.Load(); got != 3 {
		t.Fatalf("%d requests for 10 texts in batches of 4, want 3", got)
	}
	want, _ := builtin.Embed(context.Background(), []string{"Head of Sales"})
	var dot float32
	for i := range want[0] {
		dot += want[0][i] * vecs[7][i]
	}
	if dot < 0.999 {
		t.Fatalf("vector 7 is not the one for its text (cosine %.4f): batches reassembled out of order", dot)
	}
}

func TestProviderErrors(t *testing.T) {
	cases := []struct {
		name     string
		handler  http.HandlerFunc
		wantKind *apperr.Kind
		retry    time.Duration
	}{
		{"rate limited", func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Retry-After", "7")
			w.WriteHeader(http.StatusTooManyRequests)
			fmt.Fprint(w, `{"error":{"message":"Rate limit reached","type":"requests"}}`)
		}, apperr.ErrRateLimited, 7 * time.Second},
		{"server error", func(w http.ResponseWriter, r *http.Request) {
			w.WriteHeader(http.StatusInternalServerError)
			fmt.Fprint(w, `{"error":{"message":"boom","type":"server_error"}}`)
		}, apperr.ErrUnavailable, 5 * time.Second},
		{"bad key", func(w http.ResponseWriter, r *http.Request) {
			w.WriteHeader(http.StatusUnauthorized)
			fmt.Fprint(w, `{"error":{"message":"Incorrect API key provided","type":"invalid_request_error","code":"invalid_api_key"}}`)
		}, apperr.ErrUnavailable, 5 * time.Second},
		{"wrong dimensions", func(w http.ResponseWriter, r *http.Request) {
			fmt.Fprint(w, `{"object":"list","data":[{"object":"embedding","index":0,"embedding":[0.1,0.2]}],"model":"m"}`)
		}, apperr.ErrUnavailable, 0},
		{"missing vectors", func(w http.ResponseWriter, r *http.Request) {
			fmt.Fprint(w, `{"object":"list","data":[],"model":"m"}`)
		}, apperr.ErrUnavailable, 0},
		{"not json", func(w http.ResponseWriter, r *http.Request) {
			fmt.Fprint(w, `<html>gateway</html>`)
		}, apperr.ErrUnavailable, 0},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			srv := httptest.NewServer(c.handler)
			defer srv.Close()
			_, err := newEmbedder(t, srv.URL, 8).Embed(context.Background(), []string{"VP Sales"})
			if !errors.Is(err, c.wantKind) {
				t.Fatalf("err = %v, want kind %v", err, c.wantKind)
			}
			d := apperr.Describe(err)
			if d.RetryAfter != c.retry {
				t.Fatalf("RetryAfter = %v, want %v", d.RetryAfter, c.retry)
			}
			if strings.Contains(d.Message, "boom") || strings.Contains(d.Message, "API key") {
				t.Fatalf("client-facing message leaks provider detail: %q", d.Message)
			}
		})
	}
}

func TestUnreachable(t *testing.T) {
	srv := httptest.NewServer(http.NotFoundHandler())
	url := srv.URL
	srv.Close()
	_, err := newEmbedder(t, url, 8).Embed(context.Background(), []string{"VP Sales"})
	if !errors.Is(err, apperr.ErrUnavailable) {
		t.Fatalf("err = %v, want ErrUnavailable", err)
	}
}

func TestConfigValidation(t *testing.T) {
	good := openaiembed.Config{BaseURL: "https://api.example.com/v1", Model: "m", Dims: 384}
	cases := []struct {
		field string
		edit  func(c *openaiembed.Config)
	}{
		{"base_url", func(c *openaiembed.Config) { c.BaseURL = "" }},
		{"base_url", func(c *openaiembed.Config) { c.BaseURL = "ftp://x" }},
		{"model", func(c *openaiembed.Config) { c.Model = "" }},
		{"dims", func(c *openaiembed.Config) { c.Dims = 0 }},
	}
	for _, c := range cases {
		cfg := good
		c.edit(&cfg)
		_, err := openaiembed.New(cfg, nil)
		var ae *apperr.Error
		if !errors.As(err, &ae) || ae.Field != c.field {
			t.Errorf("config %+v: err = %v, want invalid %s", cfg, err, c.field)
		}
	}
	if _, err := openaiembed.New(good, nil); err != nil {
		t.Fatalf("good config refused: %v", err)
	}
}
