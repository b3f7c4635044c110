// Package openaillm is the llm.Client adapter for OpenAI's chat completions API, built
// on the official SDK (github.com/openai/openai-go). With a base URL it serves any
// OpenAI-compatible endpoint: that is the "custom" provider.
package openaillm

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"time"

	"github.com/openai/openai-go/v3"
	"github.com/openai/openai-go/v3/option"
	"github.com/openai/openai-go/v3/shared"

	"github.com/firmoapi/firmo/shared/apperr"
	"github.com/firmoapi/firmo/shared/fetch"
	"github.com/firmoapi/firmo/shared/llm"
)

// DefaultMaxTokens bounds a completion when the request gives no limit.
const DefaultMaxTokens = 1024

// Options configure a Client.
type Options struct {
	Provider   string // "openai" or "custom": names the price table row and error messages
	APIKey     string
	BaseURL    string       // empty for api.openai.com; e.g. http://host:8080/v1 for custom
	HTTPClient *http.Client // the guarded client (llm.GuardedHTTPClient)
}

// Client calls one OpenAI-compatible endpoint.
type Client struct {
	provider string
	sdk      openai.Client
}

var _ llm.Client = (*Client)(nil)

// New returns a Client. The SDK's own retries are off: the task engine owns retrying.
func New(o Options) *Client {
	if o.Provider == "" {
		o.Provider = "openai"
	}
	opts := []option.RequestOption{option.WithAPIKey(o.APIKey), option.WithMaxRetries(0)}
	if o.BaseURL != "" {
		opts = append(opts, option.WithBaseURL(strings.TrimRight(o.BaseURL, "/")+"/"))
	}
	if o.HTTPClient != nil {
		opts = append(opts, option.WithHTTPClient(o.HTTPClient))
	}
	return &Client{provider: o.Provider, sdk: openai.NewClient(opts...)}
}

// Complete runs one isolated chat completion: an optional system message and one user
// message. WebSearch adds web_search_options for models with built-in search (the
// search-preview family); JSONSchema asks for structured output (response_format
// json_schema, strict), JSONFields for a JSON object.
func (c *Client) Complete(ctx context.Context, req llm.Request) (llm.Response, error) {
	maxTokens := req.MaxTokens
	if maxTokens <= 0 {
		maxTokens = DefaultMaxTokens
	}
	system := req.System
	switch {
	case req.JSONSchema != nil:
		system = strings.TrimSpace(system + "\n\n" + llm.SchemaInstruction(req.JSONSchema))
	case len(req.JSONFields) > 0:
		system = strings.TrimSpace(system + "\n\n" + llm.JSONInstruction(req.JSONFields))
	}
	var msgs []openai.ChatCompletionMessageParamUnion
	if system != "" {
		msgs = append(msgs, openai.SystemMessage(system))
	}
	msgs = append(msgs, openai.UserMessage(req.Prompt))
	params := openai.ChatCompletionNewParams{Model: req.Model, Messages: msgs}
	if c.provider == "custom" {
		// Many OpenAI-compatible servers know only the older max_tokens field.
		params.MaxTokens = openai.Int(int64(maxTokens))
	} else {
		params.MaxCompletionTokens = openai.Int(int64(maxTokens))
	}
	search := req.WebSearch && llm.SupportsWebSearch(c.provider, req.Model)
	if search {
		params.WebSearchOptions = openai.ChatCompletionNewParamsWebSearchOptions{SearchContextSize: "medium"}
	}
	switch {
	case search: // search models refuse response_format
	case req.JSONSchema != nil:
		name := req.SchemaName
		if name == "" {
			name = "answer"
		}
		params.ResponseFormat = openai.ChatCompletionNewParamsResponseFormatUnion{OfJSONSchema: &shared.ResponseFormatJSONSchemaParam{
			JSONSchema: shared.ResponseFormatJSONSchemaJSONSchemaParam{Name: name, Schema: req.JSONSchema, Strict: openai.Bool(true)}}}
	case len(req.JSONFields) > 0:
		params.ResponseFormat = openai.ChatCompletionNewParamsResponseFormatUnion{OfJSONObject: &openai.ResponseFormatJSONObjectParam{}}
	}
	resp, err := c.sdk.Chat.Completions.New(ctx, params)
	if err != nil {
		return llm.Response{}, c.classify(err)
	}
	if len(resp.Choices) == 0 {
		return llm.Response{}, fmt.Errorf("%w (%s answered without choices)", llm.ErrProvider, c.provider)
	}
	out := llm.Response{Text: resp.Choices[0].Message.Content}
	if resp.JSON.Usage.Valid() {
		out.UsageReported = true
		out.PromptTokens = int(resp.Usage.PromptTokens)
		out.CompletionTokens = int(resp.Usage.CompletionTokens)
	}
	if search {
		// Chat completions do not count searches; the search models run one per call
		// and OpenAI bills it per call.
		out.SearchCalls = 1
	}
	out.CostUSD = llm.Cost(c.provider, req.Model, out.PromptTokens, out.CompletionTokens, out.SearchCalls)
	return out, nil
}

// Models lists the endpoint's model ids (GET /models).
func (c *Client) Models(ctx context.Context) ([]string, error) {
	page, err := c.sdk.Models.List(ctx)
	if err != nil {
		return nil, c.classify(err)
	}
	var ids []string
	for page != nil && len(page.Data) > 0 {
		for _, m := range page.Data {
			ids = append(ids, m.ID)
		}
		if page, err = page.GetNextPage(); err != nil {
			return nil, c.classify(err)
		}
	}
	return ids, nil
}

func (c *Client) classify(err error) error {
	var apiErr *openai.Error
	if errors.As(err, &apiErr) {
		ve := llm.VendorError{Status: apiErr.StatusCode, Code: apiErr.Code, Type: apiErr.Type, Message: apiErr.Message}
		if apiErr.Response != nil {
			ve.RetryAfter = llm.RetryAfter(apiErr.Response.Header, time.Now())
		}
		return llm.Classify(c.provider, ve)
	}
	if errors.Is(err, context.Canceled) {
		return err
	}
	// A guard refusal (private address) will not change on retry; other transport
	// failures (refused connection, timeout) may.
	var guard *apperr.Error
	if errors.As(err, &guard) && guard.Code == fetch.CodeRefused {
		return fmt.Errorf("%w (%s: %s)", llm.ErrProvider, c.provider, guard.Message)
	}
	return apperr.Retryable(fmt.Errorf("%w (%s: %v)", llm.ErrProvider, c.provider, err), 0)
}
