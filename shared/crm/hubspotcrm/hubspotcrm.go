// Package hubspotcrm is Firmo's client for HubSpot's CRM API (v3 objects) as a
// crm.Provider: companies by their domain or website property and contacts by
// email, paged with paging.next.after, kept under HubSpot's per-account burst limit
// (100 requests per 10 s) by a client-side limiter.
//
// No HubSpot SDK for Go is served here, so the client is ours; it uses only the
// two list endpoints and the OAuth 2.0 endpoints (golang.org/x/oauth2 does the
// token work, the caller's crm.Conn carries the token).
package hubspotcrm

import (
	"context"
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"time"

	"golang.org/x/oauth2"

	"github.com/firmoapi/firmo/shared/crm"
	"github.com/firmoapi/firmo/shared/crm/internal/crmhttp"
)

// Real hosts and figures.
const (
	DefaultAuthURL    = "https://app.hubspot.com/oauth/authorize"
	DefaultTokenURL   = "https://api.hubapi.com/oauth/v1/token"
	DefaultAPIBase    = "https://api.hubapi.com"
	DefaultRateLimit  = 100
	DefaultRateWindow = 10 * time.Second
	// pageSize is the largest limit the v3 list endpoints accept.
	pageSize = 100
)

// DefaultScopes are the read scopes the snapshot needs.
var DefaultScopes = []string{"oauth", "crm.objects.companies.read", "crm.objects.contacts.read"}

// Options configure a Client; zero values take the real hosts and figures.
type Options struct {
	AuthURL, TokenURL string
	// APIBase is the API host; crm.Conn.BaseURL, when set, overrides it per call.
	APIBase string
	Scopes  []string
	// RateLimit requests per RateWindow per connection is HubSpot's limit; the
	// client paces itself to stay at nine tenths of it.
	RateLimit  int
	RateWindow time.Duration
	// MaxRetries and MaxWait bound the 429 answers waited out per call.
	MaxRetries int
	MaxWait    time.Duration
	// Now and Sleep are the clock (default time.Now and a timer).
	Now   func() time.Time
	Sleep func(ctx context.Context, d time.Duration) error
}

// Client is the HubSpot provider.
type Client struct {
	opts Options
	call crmhttp.Caller

	mu       sync.Mutex
	limiters map[*http.Client]*pacer
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
	if opts.APIBase == "" {
		opts.APIBase = DefaultAPIBase
	}
	if opts.Scopes == nil {
		opts.Scopes = DefaultScopes
	}
	if opts.RateLimit <= 0 {
		opts.RateLimit = DefaultRateLimit
	}
	if opts.RateWindow <= 0 {
		opts.RateWindow = DefaultRateWindow
	}
	if opts.Now == nil {
		opts.Now = time.Now
	}
	if opts.Sleep == nil {
		opts.Sleep = crmhttp.Sleep
	}
	return &Client{
		opts: opts,
		call: crmhttp.Caller{
			Provider: "hubspot", Message: message, MaxRetries: opts.MaxRetries, MaxWait: opts.MaxWait,
			Sleep: opts.Sleep, Now: opts.Now,
		},
		limiters: map[*http.Client]*pacer{},
	}
}

// Name implements crm.Provider.
func (c *Client) Name() string { return "hubspot" }

// Endpoint implements crm.Provider. HubSpot takes the client credentials in the
// token request's body.
func (c *Client) Endpoint() oauth2.Endpoint {
	return oauth2.Endpoint{AuthURL: c.opts.AuthURL, TokenURL: c.opts.TokenURL, AuthStyle: oauth2.AuthStyleInParams}
}

// Scopes implements crm.Provider.
func (c *Client) Scopes() []string { return append([]string(nil), c.opts.Scopes...) }

// Probe lists one company.
func (c *Client) Probe(ctx context.Context, conn crm.Conn) error {
	var p listPage
	return c.call.GetJSON(ctx, c.request(conn, "companies", url.Values{"limit": {"1"}, "properties": {"domain"}}), &p)
}

// Companies pages through every company, reporting its domain property or, when
// that is empty, its website.
func (c *Client) Companies(ctx context.Context, conn crm.Conn, page func(websites []string) error) error {
	return c.list(ctx, conn, "companies", "domain,website", func(p map[string]*string) string {
		if v := value(p["domain"]); v != "" {
			return v
		}
		return value(p["website"])
	}, page)
}

// ContactEmails pages through every contact's email property.
func (c *Client) ContactEmails(ctx context.Context, conn crm.Conn, page func(emails []string) error) error {
	return c.list(ctx, conn, "contacts", "email", func(p map[string]*string) string {
		return value(p["email"])
	}, page)
}

type listPage struct {
	Results []struct {
		Properties map[string]*string `json:"properties"`
	} `json:"results"`
	Paging *struct {
		Next *struct {
			After string `json:"after"`
		} `json:"next"`
	} `json:"paging"`
}

// list follows paging.next.after from the first page to the last. Only the after
// cursor is taken from the answer, never the link, so the token goes to no other host.
func (c *Client) list(ctx context.Context, conn crm.Conn, object, properties string,
	pick func(map[string]*string) string, page func([]string) error) error {
	after := ""
	for {
		q := url.Values{"limit": {fmt.Sprint(pageSize)}, "properties": {properties}, "archived": {"false"}}
		if after != "" {
			q.Set("after", after)
		}
		var p listPage
		if err := c.call.GetJSON(ctx, c.request(conn, object, q), &p); err != nil {
			return fmt.Errorf("list hubspot %s: %w", object, err)
		}
		values := make([]string, 0, len(p.Results))
		for _, r := range p.Results {
			if v := pick(r.Properties); strings.TrimSpace(v) != "" {
				values = append(values, v)
			}
		}
		if len(values) > 0 {
			if err := page(values); err != nil {
				return err
			}
		}
		if p.Paging == nil || p.Paging.Next == nil || p.Paging.Next.After == "" {
			return nil
		}
		if p.Paging.Next.After == after {
			return fmt.Errorf("list hubspot %s: paging did not advance past after=%s", object, after)
		}
		after = p.Paging.Next.After
	}
}

func (c *Client) request(conn crm.Conn, object string, q url.Values) crmhttp.Request {
	base := c.opts.APIBase
	if conn.BaseURL != "" {
		base = conn.BaseURL
	}
	return crmhttp.Request{
		HTTP: conn.HTTP,
		URL:  crmhttp.Join(base, "/crm/v3/objects/"+object) + "?" + q.Encode(),
		Pace: c.pacerFor(conn.HTTP).wait,
	}
}

func value(p *string) string {
	if p == nil {
		return ""
	}
	return *p
}

// message reads HubSpot's error body: {"status":"error","message":...,"category":...}.
func message(body []byte) string {
	var e struct{ Message, Category string }
	if crmhttp.DecodeError(body, &e) != nil {
		return ""
	}
	if e.Category != "" && e.Message != "" {
		return e.Category + ": " + e.Message
	}
	return e.Message
}
