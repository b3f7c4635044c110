package integration

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"strings"

	"github.com/firmoapi/firmo/shared/apperr"
	"github.com/firmoapi/firmo/shared/llm"
	"github.com/firmoapi/firmo/shared/llm/anthropicllm"
	"github.com/firmoapi/firmo/shared/llm/openaillm"
	"github.com/firmoapi/firmo/shared/llm/typedllm"
)

// Adapters is the Connector that builds the real provider adapters.
type Adapters struct {
	HTTP *http.Client // the guarded client (llm.GuardedHTTPClient)
	// TypedBaseURL is the typed-judgment endpoint used when a typed integration has no
	// base_url of its own (FIRMO_TYPED_BASE_URL).
	TypedBaseURL string
	// OpenAIBaseURL and AnthropicBaseURL override the vendors' hosts (tests only).
	OpenAIBaseURL, AnthropicBaseURL string
}

var _ Connector = Adapters{}

// Client builds a generative client.
func (a Adapters) Client(c Conn) (llm.Client, error) {
	switch c.Provider {
	case ProviderOpenAI:
		return openaillm.New(openaillm.Options{Provider: "openai", APIKey: c.APIKey, BaseURL: first(c.BaseURL, a.OpenAIBaseURL), HTTPClient: a.HTTP}), nil
	case ProviderCustom:
		return openaillm.New(openaillm.Options{Provider: "custom", APIKey: c.APIKey, BaseURL: c.BaseURL, HTTPClient: a.HTTP}), nil
	case ProviderAnthropic:
		return anthropicllm.New(anthropicllm.Options{APIKey: c.APIKey, BaseURL: first(c.BaseURL, a.AnthropicBaseURL), HTTPClient: a.HTTP}), nil
	case ProviderTyped:
		return nil, apperr.BadRequest(CodeTypedNotGenerative, "A typed-judgment integration cannot answer generative prompts.")
	}
	return nil, fmt.Errorf("provider %q: %w", c.Provider, apperr.ErrInvalid)
}

// Judge builds the typed-judgment adapter.
func (a Adapters) Judge(c Conn) (llm.Judge, error) {
	if c.Provider != ProviderTyped {
		return nil, fmt.Errorf("provider %q is not typed: %w", c.Provider, apperr.ErrInvalid)
	}
	base := first(c.BaseURL, a.TypedBaseURL)
	if base == "" {
		return nil, apperr.BadRequest("typed_endpoint_missing", "The typed-judgment integration has no base_url and no typed endpoint is configured (FIRMO_TYPED_BASE_URL).")
	}
	return typedllm.New(typedllm.Options{APIKey: c.APIKey, BaseURL: base, Model: c.Model, HTTPClient: a.HTTP}), nil
}

type modelLister interface {
	Models(ctx context.Context) ([]string, error)
}

// Models lists the vendor's models; typed endpoints are not checked.
func (a Adapters) Models(ctx context.Context, c Conn) ([]string, error) {
	if c.Provider == ProviderTyped {
		return nil, nil
	}
	cl, err := a.Client(c)
	if err != nil {
		return nil, err
	}
	if m, ok := cl.(modelLister); ok {
		return m.Models(ctx)
	}
	return nil, nil
}

// Test makes one tiny real call: a 1-token completion, or a yes/no judgment.
func (a Adapters) Test(ctx context.Context, c Conn) error {
	if c.Provider == ProviderTyped {
		j, err := a.Judge(c)
		if err != nil {
			return err
		}
		_, err = j.Judge(ctx, llm.JudgeRequest{Kind: llm.KindYesNo, Question: "Is this a connection test?"})
		return testError(err)
	}
	cl, err := a.Client(c)
	if err != nil {
		return err
	}
	_, err = cl.Complete(ctx, llm.Request{Model: c.Model, Prompt: "Reply with OK.", MaxTokens: 5})
	return testError(err)
}

// testError turns an adapter failure into a 400 the API user can act on.
func testError(err error) error {
	if err == nil {
		return nil
	}
	if e := (*apperr.Error)(nil); asAppErr(err, &e) {
		return err
	}
	msg := err.Error()
	msg = strings.TrimPrefix(msg, "retryable: ")
	return apperr.BadRequest("connection_failed", "The connection test failed: %s", msg)
}

func asAppErr(err error, target **apperr.Error) bool { return errors.As(err, target) }

func first(a, b string) string {
	if a != "" {
		return a
	}
	return b
}
