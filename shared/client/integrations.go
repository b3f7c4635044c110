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

// SearchProvider is a configured web search provider.
type SearchProvider struct {
	ProviderID string  `json:"provider_id"`
	Name       string  `json:"name"`
	Provider   string  `json:"provider"`
	APIKey     *string `json:"api_key"`
	IsDefault  bool    `json:"is_default"`
	CreatedAt  string  `json:"created_at,omitempty"`
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
	var out LLMIntegrations
	resp, err := c.call(ctx, request{op: opGetLLMs}, &out)
	return result(&out, resp, err)
}

// CreateLLMIntegration calls POST /v1/llm-providers/config.
func (c *Client) CreateLLMIntegration(ctx context.Context, req LLMIntegrationRequest) (*LLMIntegrationSaved, *Response, error) {
	var out LLMIntegrationSaved
	resp, err := c.call(ctx, request{op: opPostLLM, json: req}, &out)
	return result(&out, resp, err)
}

// GetLLMIntegration calls GET /v1/llm-providers/config/{integration_id}.
func (c *Client) GetLLMIntegration(ctx context.Context, integrationID string) (*LLMIntegration, *Response, error) {
	var out LLMIntegration
	resp, err := c.call(ctx, request{op: opGetLLM, params: []string{integrationID}}, &out)
	return result(&out, resp, err)
}

// UpdateLLMIntegration calls PUT /v1/llm-providers/config/{integration_id}.
func (c *Client) UpdateLLMIntegration(ctx context.Context, integrationID string, req LLMIntegrationUpdate) (*LLMIntegrationSaved, *Response, error) {
	var out LLMIntegrationSaved
	resp, err := c.call(ctx, request{op: opPutLLM, params: []string{integrationID}, json: req}, &out)
	return result(&out, resp, err)
}

// DeleteLLMIntegration calls DELETE /v1/llm-providers/config/{integration_id}.
func (c *Client) DeleteLLMIntegration(ctx context.Context, integrationID string) (*LLMIntegrationDeleted, *Response, error) {
	var out LLMIntegrationDeleted
	resp, err := c.call(ctx, request{op: opDeleteLLM, params: []string{integrationID}}, &out)
	return result(&out, resp, err)
}

// SetDefaultLLMIntegration calls POST /v1/llm-providers/config/{integration_id}/set-default.
func (c *Client) SetDefaultLLMIntegration(ctx context.Context, integrationID string) (*LLMIntegrationSaved, *Response, error) {
	var out LLMIntegrationSaved
	resp, err := c.call(ctx, request{op: opDefaultLLM, params: []string{integrationID}}, &out)
	return result(&out, resp, err)
}

// TestLLMConnection calls POST /v1/llm-providers/test-connection.
func (c *Client) TestLLMConnection(ctx context.Context, req LLMConnectionTest) (*LLMConnectionResult, *Response, error) {
	var out LLMConnectionResult
	resp, err := c.call(ctx, request{op: opTestLLM, json: req}, &out)
	return result(&out, resp, err)
}

// SearchProviders calls GET /v1/search-providers.
func (c *Client) SearchProviders(ctx context.Context) (*SearchProviders, *Response, error) {
	var out SearchProviders
	resp, err := c.call(ctx, request{op: opGetSearch}, &out)
	return result(&out, resp, err)
}

// CreateSearchProvider calls POST /v1/search-providers.
func (c *Client) CreateSearchProvider(ctx context.Context, req SearchProviderRequest) (*SearchProviderSaved, *Response, error) {
	var out SearchProviderSaved
	resp, err := c.call(ctx, request{op: opPostSearch, json: req}, &out)
	return result(&out, resp, err)
}

// DeleteSearchProvider calls DELETE /v1/search-providers/{provider_id}.
func (c *Client) DeleteSearchProvider(ctx context.Context, providerID string) (*SearchProviderDeleted, *Response, error) {
	var out SearchProviderDeleted
	resp, err := c.call(ctx, request{op: opDeleteSearch, params: []string{providerID}}, &out)
	return result(&out, resp, err)
}

// SetDefaultSearchProvider calls POST /v1/search-providers/{provider_id}/set-default.
func (c *Client) SetDefaultSearchProvider(ctx context.Context, providerID string) (*SearchProviderSaved, *Response, error) {
	var out SearchProviderSaved
	resp, err := c.call(ctx, request{op: opDefaultSearch, params: []string{providerID}}, &out)
	return result(&out, resp, err)
}
