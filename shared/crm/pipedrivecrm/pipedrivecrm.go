// Package pipedrivecrm is Firmo's client for Pipedrive's API v2 as a crm.Provider:
// companies are organizations (their website field) and contacts persons (every
// address in their emails array), listed with cursor paging, 500 at a time, on the
// connection's api_domain.
//
// No Pipedrive SDK for Go is served here, so the client is ours. The v2 list
// endpoints need a user with global permissions (others get 403, reported with
// Pipedrive's message). The organization schema of Pipedrive's own v2 client
// libraries names no website field, so besides the top-level website the client
// can read a custom field (Options.WebsiteField) where an account keeps it.
package pipedrivecrm

import (
	"context"
	"encoding/json"
	"fmt"
	"net/url"
	"strings"
	"time"

	"golang.org/x/oauth2"

	"github.com/firmoapi/firmo/shared/apperr"
	"github.com/firmoapi/firmo/shared/crm"
	"github.com/firmoapi/firmo/shared/crm/internal/crmhttp"
)

// Real hosts and figures.
const (
	DefaultAuthURL  = "https://oauth.pipedrive.com/oauth/authorize"
	DefaultTokenURL = "https://oauth.pipedrive.com/oauth/token"
	// pageSize is the largest limit the v2 lists accept.
	pageSize = 500
)

// Options configure a Client; zero values take the real hosts.
type Options struct {
	AuthURL, TokenURL string
	// Scopes are sent on the authorize URL when set. Pipedrive takes an app's
	// scopes from its Marketplace registration (contacts:read covers persons and
	// organizations), so the default is none.
	Scopes []string
	// WebsiteField, when set, is the key of an organization custom field that
	// holds the website (a 40-character hash in custom_fields), for accounts that
	// keep it there; it is read when the website field is empty.
	WebsiteField string
	// MaxRetries and MaxWait bound the 429 answers waited out per call.
	MaxRetries int
	MaxWait    time.Duration
	// Now and Sleep are the clock (default time.Now and a timer).
	Now   func() time.Time
	Sleep func(ctx context.Context, d time.Duration) error
}

// Client is the Pipedrive provider.
type Client struct {
	opts Options
	call crmhttp.Caller
}

var _ crm.Provider = (*Client)(nil)

// New returns a client.
func New(opts Options) *Client {
	if opts.AuthURL == "" {
		opts.AuthURL = DefaultAuthURL
	}
	if opts.TokenURL == "" {
		opts.TokenURL = DefaultTokenURL
	}
	return &Client{opts: opts, call: crmhttp.Caller{
		Provider: "pipedrive", Message: message, MaxRetries: opts.MaxRetries, MaxWait: opts.MaxWait,
		Sleep: opts.Sleep, Now: opts.Now,
	}}
}

// Name implements crm.Provider.
func (c *Client) Name() string { return "pipedrive" }

// Endpoint implements crm.Provider. Pipedrive takes the client credentials as
// HTTP Basic on the token request.
func (c *Client) Endpoint() oauth2.Endpoint {
	return oauth2.Endpoint{AuthURL: c.opts.AuthURL, TokenURL: c.opts.TokenURL, AuthStyle: oauth2.AuthStyleInHeader}
}

// Scopes implements crm.Provider.
func (c *Client) Scopes() []string { return append([]string(nil), c.opts.Scopes...) }

// Probe lists one organization.
func (c *Client) Probe(ctx context.Context, conn crm.Conn) error {
	base, err := apiDomain(conn)
	if err != nil {
		return err
	}
	var p listPage
	return c.call.GetJSON(ctx, crmhttp.Request{HTTP: conn.HTTP, URL: listURL(base, "organizations", 1, "")}, &p)
}

// Companies pages through every organization's website.
func (c *Client) Companies(ctx context.Context, conn crm.Conn, page func(websites []string) error) error {
	return c.list(ctx, conn, "organizations", func(it item) []string {
		if v := value(it.Website); v != "" || c.opts.WebsiteField == "" {
			return []string{v}
		}
		return []string{customText(it.CustomFields[c.opts.WebsiteField])}
	}, page)
}

// ContactEmails pages through every person's email addresses.
func (c *Client) ContactEmails(ctx context.Context, conn crm.Conn, page func(emails []string) error) error {
	return c.list(ctx, conn, "persons", func(it item) []string {
		out := make([]string, 0, len(it.Emails))
		for _, e := range it.Emails {
			out = append(out, e.Value)
		}
		return out
	}, page)
}

type item struct {
	Website      *string                    `json:"website"`
	CustomFields map[string]json.RawMessage `json:"custom_fields"`
	Emails       []struct {
		Value string `json:"value"`
	} `json:"emails"`
}

type listPage struct {
	Data           []item `json:"data"`
	AdditionalData struct {
		NextCursor *string `json:"next_cursor"`
	} `json:"additional_data"`
}

// list follows additional_data.next_cursor until it is null.
func (c *Client) list(ctx context.Context, conn crm.Conn, object string, pick func(item) []string, page func([]string) error) error {
	base, err := apiDomain(conn)
	if err != nil {
		return err
	}
	cursor := ""
	for {
		var p listPage
		if err := c.call.GetJSON(ctx, crmhttp.Request{HTTP: conn.HTTP, URL: listURL(base, object, pageSize, cursor)}, &p); err != nil {
			return fmt.Errorf("list pipedrive %s: %w", object, err)
		}
		var values []string
		for _, it := range p.Data {
			for _, v := range pick(it) {
				if strings.TrimSpace(v) != "" {
					values = append(values, v)
				}
			}
		}
		if len(values) > 0 {
			if err := page(values); err != nil {
				return err
			}
		}
		next := p.AdditionalData.NextCursor
		if next == nil || *next == "" {
			return nil
		}
		if *next == cursor {
			return fmt.Errorf("list pipedrive %s: cursor did not advance", object)
		}
		cursor = *next
	}
}

func listURL(base, object string, limit int, cursor string) string {
	q := url.Values{"limit": {fmt.Sprint(limit)}}
	if cursor != "" {
		q.Set("cursor", cursor)
	}
	return crmhttp.Join(base, "/api/v2/"+object) + "?" + q.Encode()
}

// apiDomain is the API host: the token's api_domain, or Conn.BaseURL when set.
func apiDomain(conn crm.Conn) (string, error) {
	if conn.BaseURL != "" {
		return conn.BaseURL, nil
	}
	if conn.APIDomain == "" {
		return "", fmt.Errorf("pipedrive: the connection has no api_domain: %w", apperr.ErrInternal)
	}
	return conn.APIDomain, nil
}

// customText reads a text custom field: a plain string, or {"value": "..."}.
func customText(raw json.RawMessage) string {
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return s
	}
	var v struct {
		Value string `json:"value"`
	}
	if json.Unmarshal(raw, &v) == nil {
		return v.Value
	}
	return ""
}

func value(p *string) string {
	if p == nil {
		return ""
	}
	return *p
}

// message reads Pipedrive's error body: {"success":false,"error":...,"error_info":...}.
func message(body []byte) string {
	var e struct {
		Error string `json:"error"`
	}
	if crmhttp.DecodeError(body, &e) != nil {
		return ""
	}
	return e.Error
}
