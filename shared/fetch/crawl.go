package fetch

import (
	"context"
	"fmt"
	"net/url"
	"strings"
	"sync"
	"time"

	"github.com/temoto/robotstxt"

	"github.com/firmoapi/firmo/shared/apperr"
)

// CodeDisallowed is the error code of a page robots.txt keeps the crawler from.
const CodeDisallowed = "fetch_disallowed"

// Crawler fetches web pages politely through a guarded Client: each origin's
// robots.txt is read once (for an hour) and honoured for the client's user agent
// (github.com/temoto/robotstxt reads it), one request at a time per host, and its
// Crawl-delay (at most MaxDelay) or MinDelay between two requests to one host.
// Redirects, size and time limits are the Client's. It is safe for concurrent use.
type Crawler struct {
	c        *Client
	minDelay time.Duration
	maxDelay time.Duration

	mu     sync.Mutex
	robots map[string]*robotsEntry
	hosts  map[string]*hostGate
}

// CrawlOptions tune a Crawler; zero fields take the defaults.
type CrawlOptions struct {
	MinDelay time.Duration // between two requests to one host; default 0
	MaxDelay time.Duration // the most a robots.txt Crawl-delay is honoured for; default 5 s
}

type robotsEntry struct {
	once    sync.Once
	data    *robotstxt.RobotsData // nil: everything allowed
	fetched time.Time
}

type hostGate struct {
	mu   sync.Mutex
	last time.Time
}

const robotsTTL = time.Hour

// NewCrawler makes a Crawler over c.
func NewCrawler(c *Client, o CrawlOptions) *Crawler {
	if o.MaxDelay <= 0 {
		o.MaxDelay = 5 * time.Second
	}
	return &Crawler{c: c, minDelay: o.MinDelay, maxDelay: o.MaxDelay, robots: map[string]*robotsEntry{}, hosts: map[string]*hostGate{}}
}

// Origin is where a crawl of a domain starts (Client.Origin).
func (k *Crawler) Origin(host string) string { return k.c.Origin(host) }

// Get fetches a page unless the origin's robots.txt disallows it (CodeDisallowed,
// HTTP 400), waiting its turn on the host.
func (k *Crawler) Get(ctx context.Context, rawURL string) (*Response, error) {
	u, err := k.c.parse(rawURL)
	if err != nil {
		return nil, err
	}
	rules := k.rulesFor(ctx, u)
	agent := k.agent()
	if rules != nil && !rules.TestAgent(pathOf(u), agent) {
		return nil, &apperr.Error{Kind: apperr.ErrBadRequest, Code: CodeDisallowed, Message: fmt.Sprintf("robots.txt of %s disallows %s", u.Host, u.Redacted())}
	}
	delay := k.minDelay
	if rules != nil {
		if g := rules.FindGroup(agent); g != nil && g.CrawlDelay > delay {
			delay = min(g.CrawlDelay, k.maxDelay)
		}
	}
	gate := k.gate(strings.ToLower(u.Host))
	gate.mu.Lock()
	defer gate.mu.Unlock()
	if wait := time.Until(gate.last.Add(delay)); wait > 0 {
		select {
		case <-time.After(wait):
		case <-ctx.Done():
			return nil, ctx.Err()
		}
	}
	defer func() { gate.last = time.Now() }()
	return k.c.Get(ctx, u.String())
}

// agent is the product token robots.txt groups are matched on ("FirmoBot").
func (k *Crawler) agent() string {
	a, _, _ := strings.Cut(k.c.opts.UserAgent, "/")
	return a
}

func pathOf(u *url.URL) string {
	p := u.EscapedPath()
	if p == "" {
		p = "/"
	}
	if u.RawQuery != "" {
		p += "?" + u.RawQuery
	}
	return p
}

func (k *Crawler) gate(host string) *hostGate {
	k.mu.Lock()
	defer k.mu.Unlock()
	g := k.hosts[host]
	if g == nil {
		g = &hostGate{}
		k.hosts[host] = g
	}
	return g
}

// rulesFor reads the origin's robots.txt once (again after robotsTTL). A missing
// robots.txt (4xx) allows everything; a server error (5xx) disallows everything, as
// RFC 9309 says; an origin that cannot be reached at all is left to the page's own
// fetch, which fails the same way and says why.
func (k *Crawler) rulesFor(ctx context.Context, u *url.URL) *robotstxt.RobotsData {
	origin := strings.ToLower(u.Scheme + "://" + u.Host)
	k.mu.Lock()
	e := k.robots[origin]
	if e == nil || !e.fetched.IsZero() && time.Since(e.fetched) > robotsTTL {
		e = &robotsEntry{}
		k.robots[origin] = e
	}
	k.mu.Unlock()
	e.once.Do(func() {
		e.fetched = time.Now()
		resp, err := k.c.Get(ctx, origin+"/robots.txt")
		switch {
		case err != nil:
			// Unreachable: the page's own fetch meets the same failure and says why.
			e.data = nil
		default:
			data, perr := robotstxt.FromStatusAndBytes(resp.Status, resp.Body)
			if perr != nil {
				data, _ = robotstxt.FromStatusAndBytes(404, nil)
			}
			e.data = data
		}
	})
	return e.data
}
