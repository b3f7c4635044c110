package client

import "context"

// LLMIntegration is a stored LLM integration; the API key is never shown ("*****").
type LLMIntegration struct {
	IntegrationID     string  `json:"integration_id"`
	IntegrationName   string  `json:"integration_name"`
	Provider          string  `json:"provider"`
	ModelName         string  `json:"model_name"`
	BaseURL           *string `json:"base_url"`
	APIKey            string  `json:"api_key"`
	IsDefault         bool    `json:"is_default"`
	ModelDeprecated   bool    `json:"model_deprecated"`
	SupportsWebSearch bool    `json:"supports_web_search"`
	CreatedAt         string  `json:"created_at,omitempty"`
	UpdatedAt         string  `json:"updated_at,omitempty"`
}

// LLMIntegrations is the answer of GET /v1/llm-providers/config.
type LLMIntegrations struct {
	Providers []LLMIntegration `json:"providers"`
	Mtime     string           `json:"mtime"`
}

// LLMIntegrationRequest is the body of POST /v1/llm-providers/config.
type LLMIntegrationRequest struct {
	IntegrationName string `json:"integration_name"`
	// Provider is openai, anthropic, custom (an OpenAI-compatible server at BaseURL)
	// or typed.
	Provider  string  `json:"provider"`
	ModelName string  `json:"model_name"`
	APIKey    string  `json:"api_key"`
	BaseURL   *string `json:"base_url,omitempty"`
}

// LLMIntegrationUpdate is the body of PUT /v1/llm-providers/config/{integration_id}:
// the fields to change.
type LLMIntegrationUpdate struct {
	IntegrationName string  `json:"integration_name,omitempty"`
	Provider        string  `json:"provider,omitempty"`
	ModelName       string  `json:"model_name,omitempty"`
	APIKey          string  `json:"api_key,omitempty"`
	BaseURL         *string `json:"base_url,omitempty"`
}

// LLMIntegrationSaved is the answer of creating, updating or making default an LLM
// integration.
type LLMIntegrationSaved struct {
	IntegrationID string          `json:"integration_id"`
	Message       string          `json:"message"`
	Integration   *LLMIntegration `json:"integration,omitempty"`
}

// LLMIntegrationDeleted is the answer of DELETE /v1/llm-providers/config/{integration_id}.
type LLMIntegrationDeleted struct {
	IntegrationID string `json:"integration_id"`
	Message       string `json:"message"`
}

// LLMConnectionTest is the body of POST /v1/llm-providers/test-connection.
type LLMConnectionTest struct {
	Provider  string  `json:"provider"`
	ModelName string  `json:"model_name"`
	APIKey    string  `json:"api_key"`
	BaseURL   *string `json:"base_url,omitempty"`
}

// LLMConnectionResult is the answer of POST /v1/llm-providers/test-connection.
type LLMConnectionResult struct {
	Status  string `json:"status"`
	Message string `json:"message"`
}

// SearchProviders is the answer of GET /v1/search-providers.
type SearchProviders struct {
	Providers []SearchProvider `json:"providers"`
}

// SearchProviderRequest is the body of POST /v1/search-providers.
type SearchProviderRequest struct {
	// Provider is native, brave or serper.
	Provider string `json:"provider"`
	Name     string `json:"name,omitempty"`
	APIKey   string `json:"api_key,omitempty"`
}

// SearchProviderSaved is the answer of creating or making default a search provider.
type SearchProviderSaved struct {
	ProviderID string          `json:"provider_id"`
	Message    string          `json:"message"`
	Provider   *SearchProvider `json:"provider,omitempty"`
}

// SearchProviderDeleted is the answer of DELETE /v1/search-providers/{provider_id}.
type SearchProviderDeleted struct {
	ProviderID string `json:"provider_id"`
	Message    string `json:"message"`
}

// LLMIntegrations calls GET /v1/llm-providers/config.
func (c *Client) LLMIntegrations(ctx context.Context) (*LLMIntegrations, *Response, error) {
	return callFor[LLMIntegrations](ctx, c, request{op: opGetLLMs})
}

// CreateLLMIntegration calls POST /v1/llm-providers/config.
func (c *Client) CreateLLMIntegration(ctx context.Context, req LLMIntegrationRequest) (*LLMIntegrationSaved, *Response, error) {
	return callFor[LLMIntegrationSaved](ctx, c, request{op: opPostLLM, json: req})
}

// GetLLMIntegration calls GET /v1/llm-providers/config/{integration_id}.
func (c *Client) GetLLMIntegration(ctx context.Context, integrationID string) (*LLMIntegration, *Response, error) {
	return callFor[LLMIntegration](ctx, c, request{op: opGetLLM, params: []string{integrationID}})
}

// UpdateLLMIntegration calls PUT /v1/llm-providers/config/{integration_id}.
func (c *Client) UpdateLLMIntegration(ctx context.Context, integrationID string, req LLMIntegrationUpdate) (*LLMIntegrationSaved, *Response, error) {
	return callFor[LLMIntegrationSaved](ctx, c, request{op: opPutLLM, params: []string{integrationID}, json: req})
}

// DeleteLLMIntegration calls DELETE /v1/llm-providers/config/{integration_id}.
func (c *Client) DeleteLLMIntegration(ctx context.Context, integrationID string) (*LLMIntegrationDeleted, *Response, error) {
	return callFor[LLMIntegrationDeleted](ctx, c, request{op: opDeleteLLM, params: []string{integrationID}})
}

// SetDefaultLLMIntegration calls POST /v1/llm-providers/config/{integration_id}/set-default.
func (c *Client) SetDefaultLLMIntegration(ctx context.Context, integrationID string) (*LLMIntegrationSaved, *Response, error) {
	return callFor[LLMIntegrationSaved](ctx, c, request{op: opDefaultLLM, params: []string{integrationID}})
}

// TestLLMConnection calls POST /v1/llm-providers/test-connection.
func (c *Client) TestLLMConnection(ctx context.Context, req LLMConnectionTest) (*LLMConnectionResult, *Response, error) {
	return callFor[LLMConnectionResult](ctx, c, request{op: opTestLLM, json: req})
}

// SearchProviders calls GET /v1/search-providers.
func (c *Client) SearchProviders(ctx context.Context) (*SearchProviders, *Response, error) {
	return callFor[SearchProviders](ctx, c, request{op: opGetSearch})
}

// CreateSearchProvider calls POST /v1/search-providers.
func (c *Client) CreateSearchProvider(ctx context.Context, req SearchProviderRequest) (*SearchProviderSaved, *Response, error) {
	return callFor[SearchProviderSaved](ctx, c, request{op: opPostSearch, json: req})
}

// DeleteSearchProvider calls DELETE /v1/search-providers/{provider_id}.
func (c *Client) DeleteSearchProvider(ctx context.Context, providerID string) (*SearchProviderDeleted, *Response, error) {
	return callFor[SearchProviderDeleted](ctx, c, request{op: opDeleteSearch, params: []string{providerID}})
}

// SetDefaultSearchProvider calls POST /v1/search-providers/{provider_id}/set-default.
func (c *Client) SetDefaultSearchProvider(ctx context.Context, providerID string) (*SearchProviderSaved, *Response, error) {
	return callFor[SearchProviderSaved](ctx, c, request{op: opDefaultSearch, params: []string{providerID}})
}
