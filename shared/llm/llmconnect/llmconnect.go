// Package llmconnect builds the real provider adapters of shared/llm for an organisation's
// LLM integration: it is the adapter of integration.Connector. It lives apart from the
// integration domain so that only a composition that serves LLM calls links the vendors'
// SDKs (openaillm, anthropicllm, typedllm).
package llmconnect

import (
	"context"
	"errors"
	"fmt"
	"net/http"

	"github.com/firmoapi/firmo/shared/apperr"
	"github.com/firmoapi/firmo/shared/integration"
	"github.com/firmoapi/firmo/shared/llm"
	"github.com/firmoapi/firmo/shared/llm/anthropicllm"
	"github.com/firmoapi/firmo/shared/llm/openaillm"
	"github.com/firmoapi/firmo/shared/llm/typedllm"
)

// Connector builds the provider adapters of a connection.
type Connector struct {
	HTTP *http.Client // the guarded client (llm.GuardedHTTPClient)
	// TypedBaseURL is the typed-judgment endpoint used when a typed integration has no
	// base_url of its own (FIRMO_TYPED_BASE_URL).
	TypedBaseURL string
	// OpenAIBaseURL and AnthropicBaseURL override the vendors' hosts (tests only).
	OpenAIBaseURL, AnthropicBaseURL string
}

var _ integration.Connector = Connector{}

// Client builds a generative client. It is llm.Replayable: inside a task record's run
// a completion finished by an earlier run of the record is not sent again.
func (a Connector) Client(c integration.Conn) (llm.Client, error) {
	cl, err := a.client(c)
	if err != nil {
		return nil, err
	}
	return llm.Replayable(cl, c.Provider+" "+c.BaseURL), nil
}

func (a Connector) client(c integration.Conn) (llm.Client, error) {
	switch c.Provider {
	case integration.ProviderOpenAI:
		return openaillm.New(openaillm.Options{Provider: "openai", APIKey: c.APIKey, BaseURL: first(c.BaseURL, a.OpenAIBaseURL), HTTPClient: a.HTTP}), nil
	case integration.ProviderCustom:
		return openaillm.New(openaillm.Options{Provider: "custom", APIKey: c.APIKey, BaseURL: c.BaseURL, HTTPClient: a.HTTP}), nil
	case integration.ProviderAnthropic:
		return anthropicllm.New(anthropicllm.Options{APIKey: c.APIKey, BaseURL: first(c.BaseURL, a.AnthropicBaseURL), HTTPClient: a.HTTP}), nil
	case integration.ProviderTyped:
		return nil, apperr.BadRequest(integration.CodeTypedNotGenerative, "A typed-judgment integration cannot answer generative prompts.")
	}
	return nil, fmt.Errorf("provider %q: %w", c.Provider, apperr.ErrInvalid)
}

// Judge builds the typed-judgment adapter.
func (a Connector) Judge(c integration.Conn) (llm.Judge, error) {
	if c.Provider != integration.ProviderTyped {
		return nil, fmt.Errorf("provider %q is not typed: %w", c.Provider, apperr.ErrInvalid)
	}
	base := first(c.BaseURL, a.TypedBaseURL)
	if base == "" {
		return nil, apperr.BadRequest("typed_endpoint_missing", "The typed-judgment integration has no base_url and no typed endpoint is configured (FIRMO_TYPED_BASE_URL).")
	}
	return llm.ReplayableJudge(typedllm.New(typedllm.Options{APIKey: c.APIKey, BaseURL: base, Model: c.Model, HTTPClient: a.HTTP}), "typed "+base+" "+c.Model), nil
}

// modelLister is the optional capability of the adapters whose vendor lists its models.
type modelLister interface {
	Models(ctx context.Context) ([]string, error)
}

// Models lists the vendor's models; typed endpoints are not checked.
func (a Connector) Models(ctx context.Context, c integration.Conn) ([]string, error) {
	if c.Provider == integration.ProviderTyped {
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
func (a Connector) Test(ctx context.Context, c integration.Conn) error {
	if c.Provider == integration.ProviderTyped {
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
	var e *apperr.Error
	if errors.As(err, &e) {
		return err
	}
	// A transient failure (apperr.Retryable) is reported too: the user is waiting for a
	// verdict now, and no task retries a connection test.
	return apperr.BadRequest("connection_failed", "The connection test failed: %s", err)
}

func first(vals ...string) string {
	for _, v := range vals {
		if v != "" {
			return v
		}
	}
	return ""
}
