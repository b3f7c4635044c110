package client

import "context"

// Health is the answer of GET /healthz and GET /readyz.
type Health struct {
	Status string `json:"status"`
}

// ModelInfo is one model of an LLM provider.
type ModelInfo struct {
	Name              string `json:"name"`
	SupportsWebSearch bool   `json:"supports_web_search"`
}

// GenModels is the answer of GET /v1/gen/models: the models of each provider.
type GenModels struct {
	Models map[string][]ModelInfo `json:"models"`
}

// Healthz calls GET /healthz.
func (c *Client) Healthz(ctx context.Context) (*Health, *Response, error) {
	return callFor[Health](ctx, c, request{op: opGetHealthz})
}

// Readyz calls GET /readyz.
func (c *Client) Readyz(ctx context.Context) (*Health, *Response, error) {
	return callFor[Health](ctx, c, request{op: opGetReadyz})
}

// OpenAPIDocument calls GET /v1/openapi.json and returns the API reference as served.
func (c *Client) OpenAPIDocument(ctx context.Context) ([]byte, *Response, error) {
	resp, err := c.call(ctx, request{op: opGetOpenAPI}, nil)
	if err != nil {
		return nil, resp, err
	}
	return resp.Body, resp, nil
}

// GenModels calls GET /v1/gen/models.
func (c *Client) GenModels(ctx context.Context) (*GenModels, *Response, error) {
	return callFor[GenModels](ctx, c, request{op: opGetGenModels})
}
