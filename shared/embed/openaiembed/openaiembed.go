// Package openaiembed is the adapter of the embed.Embedder port for any OpenAI-compatible
// embeddings endpoint (OpenAI itself, Azure OpenAI's compatible route, vLLM, Ollama,
// LiteLLM, ...): POST {BaseURL}/embeddings with {"model","input":[...],"encoding_format":
// "float"} and, when asked, "dimensions".
package openaiembed

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/firmoapi/firmo/shared/apperr"
	"github.com/firmoapi/firmo/shared/embed"
)

// Config names the endpoint and the model.
type Config struct {
	BaseURL string // e.g. https://api.openai.com/v1 (the path /embeddings is appended)
	APIKey  string // sent as Authorization: Bearer; empty sends none (local servers)
	Model   string // e.g. text-embedding-3-small
	// Dims is the vector length the caller stores. With SendDimensions the request asks the
	// model to shorten its vectors to Dims (text-embedding-3-* support it); otherwise the
	// model must return Dims values natively.
	Dims           int
	SendDimensions bool
	// BatchSize caps inputs per request (OpenAI accepts 2,048); default 256.
	BatchSize int
}

// Embedder calls the endpoint. It is safe for concurrent use.
type Embedder struct {
	cfg    Config
	client *http.Client
}

var _ embed.Embedder = (*Embedder)(nil)

// New returns an embedder that sends its requests through client (the guarded outbound
// client in production). It checks the configuration, not the endpoint.
func New(cfg Config, client *http.Client) (*Embedder, error) {
	switch {
	case cfg.BaseURL == "":
		return nil, apperr.Invalid("base_url", "the embeddings base URL is required")
	case !strings.HasPrefix(cfg.BaseURL, "http://") && !strings.HasPrefix(cfg.BaseURL, "https://"):
		return nil, apperr.Invalid("base_url", "the embeddings base URL must be http(s), got %q", cfg.BaseURL)
	case cfg.Model == "":
		return nil, apperr.Invalid("model", "the embedding model is required")
	case cfg.Dims <= 0:
		return nil, apperr.Invalid("dims", "the vector length must be positive")
	}
	if cfg.BatchSize <= 0 {
		cfg.BatchSize = 256
	}
	cfg.BaseURL = strings.TrimRight(cfg.BaseURL, "/")
	if client == nil {
		client = &http.Client{Timeout: 30 * time.Second}
	}
	return &Embedder{cfg: cfg, client: client}, nil
}

// Dims implements embed.Embedder.
func (e *Embedder) Dims() int { return e.cfg.Dims }

// request and response are OpenAI's wire format.
type request struct {
	Model          string   `json:"model"`
	Input          []string `json:"input"`
	EncodingFormat string   `json:"encoding_format"`
	Dimensions     int      `json:"dimensions,omitempty"`
}

type response struct {
	Object string `json:"object"`
	Data   []struct {
		Object    string    `json:"object"`
		Index     int       `json:"index"`
		Embedding []float32 `json:"embedding"`
	} `json:"data"`
	Model string `json:"model"`
	Usage struct {
		PromptTokens int `json:"prompt_tokens"`
		TotalTokens  int `json:"total_tokens"`
	} `json:"usage"`
}

type errorBody struct {
	Error struct {
		Message string `json:"message"`
		Type    string `json:"type"`
		Code    any    `json:"code"`
	} `json:"error"`
}

// Embed implements embed.Embedder, one request per BatchSize texts.
func (e *Embedder) Embed(ctx context.Context, texts []string) ([][]float32, error) {
	if err := embed.CheckTexts(texts); err != nil {
		return nil, err
	}
	out := make([][]float32, 0, len(texts))
	for start := 0; start < len(texts); start += e.cfg.BatchSize {
		batch := texts[start:min(start+e.cfg.BatchSize, len(texts))]
		vecs, err := e.call(ctx, batch)
		if err != nil {
			return nil, err
		}
		out = append(out, vecs...)
	}
	return out, nil
}

func (e *Embedder) call(ctx context.Context, batch []string) ([][]float32, error) {
	body := request{Model: e.cfg.Model, Input: batch, EncodingFormat: "float"}
	if e.cfg.SendDimensions {
		body.Dimensions = e.cfg.Dims
	}
	raw, err := json.Marshal(body)
	if err != nil {
		return nil, fmt.Errorf("embeddings request: %w", err)
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, e.cfg.BaseURL+"/embeddings", bytes.NewReader(raw))
	if err != nil {
		return nil, fmt.Errorf("embeddings request: %w", err)
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json")
	if e.cfg.APIKey != "" {
		req.Header.Set("Authorization", "Bearer "+e.cfg.APIKey)
	}
	resp, err := e.client.Do(req)
	if err != nil {
		if ctx.Err() != nil {
			return nil, fmt.Errorf("embeddings: %w", ctx.Err())
		}
		return nil, fmt.Errorf("embeddings endpoint unreachable: %v: %w", err, apperr.ErrUnavailable)
	}
	defer resp.Body.Close()
	data, err := io.ReadAll(io.LimitReader(resp.Body, 256<<20))
	if err != nil {
		return nil, fmt.Errorf("embeddings response: %v: %w", err, apperr.ErrUnavailable)
	}
	if resp.StatusCode != http.StatusOK {
		return nil, statusError(resp, data)
	}
	var r response
	if err := json.Unmarshal(data, &r); err != nil {
		return nil, fmt.Errorf("embeddings response is not OpenAI's format: %v: %w", err, apperr.ErrUnavailable)
	}
	return e.vectors(r, len(batch))
}

// vectors orders the answer by index (OpenAI's API does not promise order) and checks it.
func (e *Embedder) vectors(r response, n int) ([][]float32, error) {
	if len(r.Data) != n {
		return nil, fmt.Errorf("embeddings response holds %d vectors for %d inputs: %w", len(r.Data), n, apperr.ErrUnavailable)
	}
	out := make([][]float32, n)
	for _, d := range r.Data {
		if d.Index < 0 || d.Index >= n || out[d.Index] != nil {
			return nil, fmt.Errorf("embeddings response has a bad or repeated index %d: %w", d.Index, apperr.ErrUnavailable)
		}
		if len(d.Embedding) != e.cfg.Dims {
			return nil, fmt.Errorf("model %s returned %d dimensions, want %d: %w", e.cfg.Model, len(d.Embedding), e.cfg.Dims, apperr.ErrUnavailable)
		}
		if !normalize(d.Embedding) {
			return nil, fmt.Errorf("model %s returned a zero or non-finite vector: %w", e.cfg.Model, apperr.ErrUnavailable)
		}
		out[d.Index] = d.Embedding
	}
	return out, nil
}

// statusError maps the endpoint's answer onto the error kinds: rate limits stay 429 with the
// provider's Retry-After; everything else is the dependency failing (503), with the
// provider's message kept for the log.
func statusError(resp *http.Response, data []byte) error {
	var eb errorBody
	msg := strings.TrimSpace(string(data))
	if json.Unmarshal(data, &eb) == nil && eb.Error.Message != "" {
		msg = eb.Error.Message
	}
	if len(msg) > 300 {
		msg = msg[:300]
	}
	cause := fmt.Errorf("embeddings endpoint answered %d: %s", resp.StatusCode, msg)
	retry := retryAfter(resp.Header.Get("Retry-After"))
	if resp.StatusCode == http.StatusTooManyRequests {
		return errors.Join(cause, &apperr.Error{Kind: apperr.ErrRateLimited, Message: "The embedding provider is rate limiting requests; retry later.", RetryAfter: retry})
	}
	if retry == 0 {
		retry = 5 * time.Second
	}
	return errors.Join(cause, &apperr.Error{Kind: apperr.ErrUnavailable, Message: "The embedding provider is unavailable; retry later.", RetryAfter: retry})
}

func retryAfter(h string) time.Duration {
	if s, err := strconv.Atoi(strings.TrimSpace(h)); err == nil && s > 0 {
		return time.Duration(s) * time.Second
	}
	return 0
}

func normalize(v []float32) bool {
	var s float64
	for _, x := range v {
		if math.IsNaN(float64(x)) || math.IsInf(float64(x), 0) {
			return false
		}
		s += float64(x) * float64(x)
	}
	if s == 0 {
		return false
	}
	inv := float32(1 / math.Sqrt(s))
	for i := range v {
		v[i] *= inv
	}
	return true
}
