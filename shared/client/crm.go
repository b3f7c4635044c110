package client

import "context"

// CRMAuthorization is the answer of GET /v1/crm/{provider}/authorize: where to send
// the user to consent.
type CRMAuthorization struct {
	AuthorizeURL string `json:"authorize_url"`
}

// CRMCallbackParams are what the CRM's consent page redirects back with.
type CRMCallbackParams struct {
	State            string `json:"state,omitempty"`
	Code             string `json:"code,omitempty"`
	Error            string `json:"error,omitempty"`
	ErrorDescription string `json:"error_description,omitempty"`
}

// CRMConnected is the answer of GET /v1/crm/{provider}/callback.
type CRMConnected struct {
	Connection CRMConnection `json:"connection"`
	Message    string        `json:"message"`
}

// CRMSuppression is the answer of POST /v1/crm/{provider}/suppress: the snapshot task
// (read it with GetGenerationTask).
type CRMSuppression struct {
	Provider string `json:"provider"`
	Kind     string `json:"kind"`
	TaskID   string `json:"task_id,omitempty"`
	Message  string `json:"message"`
}

type probeParam struct {
	Probe bool `json:"probe,omitempty"`
}

type kindParam struct {
	Kind string `json:"kind,omitempty"`
}

// CRMConnections calls GET /v1/crm/connections; probe checks each connection with its
// CRM.
func (c *Client) CRMConnections(ctx context.Context, probe bool) ([]CRMConnection, *Response, error) {
	var out []CRMConnection
	resp, err := c.call(ctx, request{op: opGetCRMConns, query: probeParam{probe}}, &out)
	if err != nil {
		return nil, resp, err
	}
	return out, resp, nil
}

// CRMAuthorize calls GET /v1/crm/{provider}/authorize (hubspot, salesforce,
// pipedrive).
func (c *Client) CRMAuthorize(ctx context.Context, provider string) (*CRMAuthorization, *Response, error) {
	return callFor[CRMAuthorization](ctx, c, request{op: opGetCRMAuthorize, params: []string{provider}})
}

// CRMCallback calls GET /v1/crm/{provider}/callback with what the consent page
// redirected back with (asking for the JSON answer, not the HTML page).
func (c *Client) CRMCallback(ctx context.Context, provider string, p CRMCallbackParams) (*CRMConnected, *Response, error) {
	return callFor[CRMConnected](ctx, c, request{op: opGetCRMCallback, params: []string{provider}, query: p})
}

// DeleteCRMConnection calls DELETE /v1/crm/{provider}/connection (an admin app
// session only: see WithSession).
func (c *Client) DeleteCRMConnection(ctx context.Context, provider string) (*Message, *Response, error) {
	return callFor[Message](ctx, c, request{op: opDeleteCRMConn, params: []string{provider}})
}

// CRMSuppress calls POST /v1/crm/{provider}/suppress: a snapshot of the CRM's
// companies or contacts (kind) saved as an exclusion list.
func (c *Client) CRMSuppress(ctx context.Context, provider, kind string) (*CRMSuppression, *Response, error) {
	return callFor[CRMSuppression](ctx, c, request{op: opPostCRMSuppress, params: []string{provider}, query: kindParam{kind}})
}
