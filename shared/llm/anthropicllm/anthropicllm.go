// Package anthropicllm is the llm.Client adapter for Anthropic's Messages API, built on
// the official SDK (github.com/anthropics/anthropic-sdk-go).
package anthropicllm

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"time"

	"github.com/anthropics/anthropic-sdk-go"
	"github.com/anthropics/anthropic-sdk-go/option"

	"github.com/firmoapi/firmo/shared/apperr"
	"github.com/firmoapi/firmo/shared/fetch"
	"github.com/firmoapi/firmo/shared/llm"
)

// DefaultMaxTokens bounds a completion when the request gives no limit (the Messages
// API requires max_tokens).
const DefaultMaxTokens = 1024

// MaxSearches bounds the built-in web search tool per call (max_uses).
const MaxSearches = 3

// Options configure a Client.
type Options struct {
	APIKey     string
	BaseURL    string // empty for api.anthropic.com (tests point it at a local server)
	HTTPClient *http.Client
}

// Client calls the Messages API.
type Client struct{ sdk anthropic.Client }

var _ llm.Client = (*Client)(nil)

// New returns a Client; the SDK's own retries are off (the task engine retries).
func New(o Options) *Client {
	opts := []option.RequestOption{option.WithAPIKey(o.APIKey), option.WithMaxRetries(0)}
	if o.BaseURL != "" {
		opts = append(opts, option.WithBaseURL(strings.TrimRight(o.BaseURL, "/")+"/"))
	}
	if o.HTTPClient != nil {
		opts = append(opts, option.WithHTTPClient(o.HTTPClient))
	}
	return &Client{sdk: anthropic.NewClient(opts...)}
}

// Complete sends one user message. WebSearch adds the web_search_20250305 server tool
// for models that have it; the number of searches comes from
// usage.server_tool_use.web_search_requests.
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
	params := anthropic.MessageNewParams{
		Model:     anthropic.Model(req.Model),
		MaxTokens: int64(maxTokens),
		Messages:  []anthropic.MessageParam{anthropic.NewUserMessage(anthropic.NewTextBlock(req.Prompt))},
	}
	if system != "" {
		params.System = []anthropic.TextBlockParam{{Text: system}}
	}
	if req.WebSearch && llm.SupportsWebSearch("anthropic", req.Model) {
		params.Tools = []anthropic.ToolUnionParam{{OfWebSearchTool20250305: &anthropic.WebSearchTool20250305Param{MaxUses: anthropic.Int(MaxSearches)}}}
	}
	msg, err := c.sdk.Messages.New(ctx, params)
	if err != nil {
		return llm.Response{}, classify(err)
	}
	var text strings.Builder
	for _, b := range msg.Content {
		if b.Type == "text" {
			text.WriteString(b.Text)
		}
	}
	out := llm.Response{Text: text.String()}
	if msg.JSON.Usage.Valid() {
		out.UsageReported = true
		out.PromptTokens = int(msg.Usage.InputTokens + msg.Usage.CacheCreationInputTokens + msg.Usage.CacheReadInputTokens)
		out.CompletionTokens = int(msg.Usage.OutputTokens)
		out.SearchCalls = int(msg.Usage.ServerToolUse.WebSearchRequests)
	}
	out.CostUSD = llm.Cost("anthropic", req.Model, out.PromptTokens, out.CompletionTokens, out.SearchCalls)
	return out, nil
}

// Models lists the vendor's model ids (GET /v1/models).
func (c *Client) Models(ctx context.Context) ([]string, error) {
	page, err := c.sdk.Models.List(ctx, anthropic.ModelListParams{Limit: anthropic.Int(1000)})
	if err != nil {
		return nil, classify(err)
	}
	var ids []string
	for page != nil && len(page.Data) > 0 {
		for _, m := range page.Data {
			ids = append(ids, m.ID)
		}
		if page, err = page.GetNextPage(); err != nil {
			return nil, classify(err)
		}
	}
	return ids, nil
}

func classify(err error) error {
	var apiErr *anthropic.Error
	if errors.As(err, &apiErr) {
		var body struct {
			Error struct {
				Type    string `json:"type"`
				Message string `json:"message"`
			} `json:"error"`
		}
		_ = json.Unmarshal([]byte(apiErr.RawJSON()), &body)
		ve := llm.VendorError{Status: apiErr.StatusCode, Type: body.Error.Type, Message: body.Error.Message}
		if apiErr.Response != nil {
			ve.RetryAfter = llm.RetryAfter(apiErr.Response.Header, time.Now())
		}
		return llm.Classify("anthropic", ve)
	}
	if errors.Is(err, context.Canceled) {
		return err
	}
	var guard *apperr.Error
	if errors.As(err, &guard) && guard.Code == fetch.CodeRefused {
		return fmt.Errorf("%w (anthropic: %s)", llm.ErrProvider, guard.Message)
	}
	return apperr.Retryable(fmt.Errorf("%w (anthropic: %v)", llm.ErrProvider, err), 0)
}
