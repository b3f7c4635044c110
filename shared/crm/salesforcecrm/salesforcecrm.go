// Package salesforcecrm is Firmo's client for Salesforce's REST API as a
// crm.Provider: companies are Account.Website and contacts Contact.Email, read with
// SOQL through the query resource on the connection's instance_url and followed
// page by page through nextRecordsUrl.
//
// No Salesforce SDK for Go is served here, so the client is ours. Salesforce's
// token response carries no expires_in: a session ends with the org's timeout and
// the next call answers 401 INVALID_SESSION_ID, which this client reports as
// crm.ErrTokenRejected; the token source in crm.Conn refreshes and retries.
package salesforcecrm

import (
	"context"
	"fmt"
	"net/http"
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
	DefaultAuthURL    = "https://login.salesforce.com/services/oauth2/authorize"
	DefaultTokenURL   = "https://login.salesforce.com/services/oauth2/token"
	DefaultAPIVersion = "v62.0"
)

// DefaultScopes: api for the REST API, refresh_token to be given one.
var DefaultScopes = []string{"api", "refresh_token"}

// The SOQL the snapshot and the probe run.
const (
	companiesSOQL = "SELECT Website FROM Account"
	contactsSOQL  = "SELECT Email FROM Contact"
	probeSOQL     = "SELECT Id FROM Account LIMIT 1"
)

// Options configure a Client; zero values take the real hosts.
type Options struct {
	AuthURL, TokenURL string
	// APIVersion is the REST API version in paths, "vXX.X".
	APIVersion string
	Scopes     []string
	// BatchSize, when set, asks for pages of that many records (200 to 2000;
	// Salesforce's default is 2000) through Sforce-Query-Options.
	BatchSize int
	// MaxRetries and MaxWait bound the 429 answers waited out per call.
	MaxRetries int
	MaxWait    time.Duration
	// Now and Sleep are the clock (default time.Now and a timer).
	Now   func() time.Time
	Sleep func(ctx context.Context, d time.Duration) error
}

// Client is the Salesforce provider.
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
	if opts.APIVersion == "" {
		opts.APIVersion = DefaultAPIVersion
	}
	if opts.Scopes == nil {
		opts.Scopes = DefaultScopes
	}
	return &Client{opts: opts, call: crmhttp.Caller{
		Provider: "salesforce", Message: message, Kind: kind, MaxRetries: opts.MaxRetries, MaxWait: opts.MaxWait,
		Sleep: opts.Sleep, Now: opts.Now,
	}}
}

// Name implements crm.Provider.
func (c *Client) Name() string { return "salesforce" }

// Endpoint implements crm.Provider; the client credentials go in the body.
func (c *Client) Endpoint() oauth2.Endpoint {
	return oauth2.Endpoint{AuthURL: c.opts.AuthURL, TokenURL: c.opts.TokenURL, AuthStyle: oauth2.AuthStyleInParams}
}

// Scopes implements crm.Provider.
func (c *Client) Scopes() []string { return append([]string(nil), c.opts.Scopes...) }

// Probe runs a one-row query.
func (c *Client) Probe(ctx context.Context, conn crm.Conn) error {
	base, err := instance(conn)
	if err != nil {
		return err
	}
	var p queryPage
	return c.call.GetJSON(ctx, c.request(conn, c.queryURL(base, probeSOQL)), &p)
}

// Companies pages through every Account's Website.
func (c *Client) Companies(ctx context.Context, conn crm.Conn, page func(websites []string) error) error {
	return c.query(ctx, conn, companiesSOQL, func(r record) string { return value(r.Website) }, page)
}

// ContactEmails pages through every Contact's Email.
func (c *Client) ContactEmails(ctx context.Context, conn crm.Conn, page func(emails []string) error) error {
	return c.query(ctx, conn, contactsSOQL, func(r record) string { return value(r.Email) }, page)
}

type record struct {
	Website *string `json:"Website"`
	Email   *string `json:"Email"`
}

type queryPage struct {
	TotalSize      int      `json:"totalSize"`
	Done           bool     `json:"done"`
	NextRecordsURL string   `json:"nextRecordsUrl"`
	Records        []record `json:"records"`
}

// query runs soql and follows nextRecordsUrl until done. The next URL must be a
// path under /services/data/ on the same instance: the token goes nowhere else.
func (c *Client) query(ctx context.Context, conn crm.Conn, soql string, pick func(record) string, page func([]string) error) error {
	base, err := instance(conn)
	if err != nil {
		return err
	}
	next := c.queryURL(base, soql)
	for {
		var p queryPage
		if err := c.call.GetJSON(ctx, c.request(conn, next), &p); err != nil {
			return fmt.Errorf("salesforce query %q: %w", soql, err)
		}
		values := make([]string, 0, len(p.Records))
		for _, r := range p.Records {
			if v := pick(r); strings.TrimSpace(v) != "" {
				values = append(values, v)
			}
		}
		if len(values) > 0 {
			if err := page(values); err != nil {
				return err
			}
		}
		if p.Done || p.NextRecordsURL == "" {
			return nil
		}
		if !strings.HasPrefix(p.NextRecordsURL, "/services/data/") {
			return fmt.Errorf("salesforce query %q: unexpected nextRecordsUrl %q: %w", soql, p.NextRecordsURL, apperr.ErrUnavailable)
		}
		following := crmhttp.Join(base, p.NextRecordsURL)
		if following == next {
			return fmt.Errorf("salesforce query %q: nextRecordsUrl did not advance", soql)
		}
		next = following
	}
}

func (c *Client) queryURL(base, soql string) string {
	return crmhttp.Join(base, "/services/data/"+c.opts.APIVersion+"/query") + "?" + url.Values{"q": {soql}}.Encode()
}

func (c *Client) request(conn crm.Conn, u string) crmhttp.Request {
	req := crmhttp.Request{HTTP: conn.HTTP, URL: u}
	if c.opts.BatchSize > 0 {
		req.Header = http.Header{"Sforce-Query-Options": {fmt.Sprintf("batchSize=%d", c.opts.BatchSize)}}
	}
	return req
}

// instance is the API host: the token's instance_url, or Conn.BaseURL when set.
func instance(conn crm.Conn) (string, error) {
	if conn.BaseURL != "" {
		return conn.BaseURL, nil
	}
	if conn.InstanceURL == "" {
		return "", fmt.Errorf("salesforce: the connection has no instance_url: %w", apperr.ErrInternal)
	}
	return conn.InstanceURL, nil
}

func value(p *string) string {
	if p == nil {
		return ""
	}
	return *p
}

// kind maps Salesforce's API limit answer (403 REQUEST_LIMIT_EXCEEDED: the org's
// daily request allowance is spent) to a rate limit rather than a refusal.
func kind(status int, body []byte) error {
	if status == http.StatusForbidden && strings.HasPrefix(message(body), "REQUEST_LIMIT_EXCEEDED") {
		return apperr.ErrRateLimited
	}
	return nil
}

// message reads Salesforce's error body: [{"message":...,"errorCode":...}].
func message(body []byte) string {
	var errs []struct{ Message, ErrorCode string }
	if crmhttp.DecodeError(body, &errs) != nil || len(errs) == 0 {
		return ""
	}
	if errs[0].ErrorCode != "" {
		return errs[0].ErrorCode + ": " + errs[0].Message
	}
	return errs[0].Message
}
