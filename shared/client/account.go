package client

import (
	"context"
	"net/http"
)

// SessionCookie is the cookie an admin app session travels in (POST /v1/auth/login
// sets it).
const SessionCookie = "firmo_session"

// Account is the answer of GET /v1/account: who the caller is.
type Account struct {
	UserID        string `json:"user_id"`
	Email         string `json:"email"`
	OrgID         string `json:"org_id"`
	Organization  string `json:"organization"`
	Plan          string `json:"plan"`
	Role          string `json:"role"`
	AuthMethod    string `json:"auth_method"`
	KeyID         string `json:"key_id"`
	CreditBalance int64  `json:"credit_balance"`
}

// Key is an API key (its secret shown only once, on creation).
type Key struct {
	KeyID      string  `json:"key_id"`
	Name       string  `json:"name"`
	UserID     string  `json:"user_id"`
	Active     bool    `json:"active"`
	CreatedAt  string  `json:"created_at"`
	LastUsedAt *string `json:"last_used_at"`
	RevokedAt  *string `json:"revoked_at"`
}

// Keys is the answer of GET /v1/account/keys.
type Keys struct {
	Keys []Key `json:"keys"`
}

// KeyCreated is the answer of POST /v1/account/keys: the new key and its secret.
type KeyCreated struct {
	Key
	Secret  string `json:"key"`
	Message string `json:"message"`
}

// KeyRevoked is the answer of DELETE /v1/account/keys/{key_id}.
type KeyRevoked struct {
	KeyID     string `json:"key_id"`
	Message   string `json:"message"`
	RevokedAt string `json:"revoked_at"`
}

// createKey is the body of POST /v1/account/keys.
type createKey struct {
	Name string `json:"name,omitempty"`
}

// UsageParams bound GET /v1/account/usage (dates as YYYY-MM-DD; default the last 30
// days).
type UsageParams struct {
	From string `json:"from,omitempty"`
	To   string `json:"to,omitempty"`
}

// UsageTotals are charges, credits and records summed.
type UsageTotals struct {
	Charges int64 `json:"charges"`
	Credits int64 `json:"credits"`
	Records int64 `json:"records"`
	NetNew  int64 `json:"net_new"`
}

// UsageDay is one day of usage.
type UsageDay struct {
	UsageTotals
	Date string `json:"date"`
}

// UsageEndpoint is the usage of one endpoint and kind of record.
type UsageEndpoint struct {
	UsageTotals
	Endpoint string `json:"endpoint"`
	Kind     string `json:"kind"`
}

// Usage is the answer of GET /v1/account/usage.
type Usage struct {
	From          string          `json:"from"`
	To            string          `json:"to"`
	CreditBalance int64           `json:"credit_balance"`
	Total         UsageTotals     `json:"total"`
	ByDay         []UsageDay      `json:"by_day"`
	ByEndpoint    []UsageEndpoint `json:"by_endpoint"`
}

// LoginRequest is the body of POST /v1/auth/login.
type LoginRequest struct {
	Email    string `json:"email"`
	Password string `json:"password"`
}

// LoginResult is the answer of POST /v1/auth/login.
type LoginResult struct {
	OrgID     string `json:"org_id"`
	ExpiresAt string `json:"expires_at"`
	Message   string `json:"message"`
	// Session is the session cookie's value (from Set-Cookie): give it to WithSession.
	Session string `json:"-"`
}

// Message is an answer that only says what was done.
type Message struct {
	Message string `json:"message"`
}

// GetAccount calls GET /v1/account.
func (c *Client) GetAccount(ctx context.Context) (*Account, *Response, error) {
	return callFor[Account](ctx, c, request{op: opGetAccount})
}

// APIKeys calls GET /v1/account/keys.
func (c *Client) APIKeys(ctx context.Context) (*Keys, *Response, error) {
	return callFor[Keys](ctx, c, request{op: opGetKeys})
}

// CreateAPIKey calls POST /v1/account/keys; the secret is in the answer's Secret.
func (c *Client) CreateAPIKey(ctx context.Context, name string) (*KeyCreated, *Response, error) {
	return callFor[KeyCreated](ctx, c, request{op: opPostKeys, json: createKey{Name: name}})
}

// RevokeAPIKey calls DELETE /v1/account/keys/{key_id}.
func (c *Client) RevokeAPIKey(ctx context.Context, keyID string) (*KeyRevoked, *Response, error) {
	return callFor[KeyRevoked](ctx, c, request{op: opDeleteKey, params: []string{keyID}})
}

// Usage calls GET /v1/account/usage.
func (c *Client) Usage(ctx context.Context, p UsageParams) (*Usage, *Response, error) {
	return callFor[Usage](ctx, c, request{op: opGetUsage, query: p})
}

// Login calls POST /v1/auth/login and returns the session in LoginResult.Session;
// c.WithSession(result.Session) calls as that session (routes that refuse API keys,
// such as removing a CRM connection).
func (c *Client) Login(ctx context.Context, req LoginRequest) (*LoginResult, *Response, error) {
	var out LoginResult
	resp, err := c.call(ctx, request{op: opPostLogin, json: req}, &out)
	if err != nil {
		return nil, resp, err
	}
	for _, ck := range (&http.Response{Header: resp.Header}).Cookies() {
		if ck.Name == SessionCookie {
			out.Session = ck.Value
		}
	}
	return &out, resp, nil
}

// Logout calls POST /v1/auth/logout, ending the client's session.
func (c *Client) Logout(ctx context.Context) (*Message, *Response, error) {
	return callFor[Message](ctx, c, request{op: opPostLogout})
}

// WithSession returns a copy of the client that authenticates with an admin app
// session (the cookie of Login) instead of the API key.
func (c *Client) WithSession(session string) *Client {
	cp := *c
	cp.key = ""
	cp.session = session
	return &cp
}
