// Package fetch is Firmo's one guarded outbound HTTP client. Every fetch of a URL a
// user can influence (page extraction, crawling, custom LLM base URLs, CRM and search
// providers) goes through it, so server-side request forgery is refused in one place:
//
//   - only http and https;
//   - the client resolves DNS itself and refuses loopback, private, link-local,
//     CGNAT, unspecified, multicast, reserved and cloud-metadata addresses, for every
//     address a name resolves to, on the first request and after every redirect;
//   - it dials the vetted IP address rather than the name, so a DNS answer that
//     changes between the check and the connection (DNS rebinding) cannot slip
//     through; TLS SNI and the Host header still carry the name;
//   - redirects, response size and total time are bounded, and each limit ends in a
//     clear error rather than a hang or unbounded memory;
//   - names resolve through the system's resolvers, or through one DNS server
//     (DNSServer, FIRMO_FETCH_DNS_RESOLVER);
//   - a crawl of web pages (WebPortsOnly, and the Crawler of crawl.go: robots.txt,
//     one request at a time per host, Crawl-delay) fetches only ports 80 and 443.
//
// The allow list (FIRMO_FETCH_ALLOW_HOSTS, tests only) admits hosts whatever their
// addresses; a host:port entry also makes a crawl of that host start at
// http://host:port (Origin), so a test can serve a site under a made-up name on
// loopback over plain http.
//
// Errors meant for the API user wrap apperr.ErrBadRequest (HTTP 400): the target was
// refused (code fetch_refused), did not answer in time (fetch_timeout), was too large
// (fetch_too_large) or could not be fetched (fetch_failed). The fault lies with the
// URL the user chose, not with Firmo, so none of them is a 5xx.
package fetch

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"

	"github.com/firmoapi/firmo/shared/apperr"
)

// Error codes of the errors Get and Check return (all HTTP 400).
const (
	CodeRefused  = "fetch_refused"
	CodeTimeout  = "fetch_timeout"
	CodeTooLarge = "fetch_too_large"
	CodeFailed   = "fetch_failed"
)

// Defaults used when an Options field is zero.
const (
	DefaultMaxBytes     = 5 << 20
	DefaultTimeout      = 15 * time.Second
	DefaultMaxRedirects = 5
	DefaultUserAgent    = "FirmoBot/1.0 (+https://firmo.example/bot)"
)

// Resolver looks up the addresses of a host name; *net.Resolver implements it.
type Resolver interface {
	LookupIPAddr(ctx context.Context, host string) ([]net.IPAddr, error)
}

// Options configures a Client. Zero fields take the defaults above.
type Options struct {
	// AllowHosts admits hosts ("localhost") or host:port pairs ("127.0.0.1:8081")
	// whatever their addresses: for local test servers only (FIRMO_FETCH_ALLOW_HOSTS).
	AllowHosts []string
	// MaxBytes bounds the (decompressed) response body.
	MaxBytes int64
	// Timeout bounds the whole exchange: DNS, connect, TLS, redirects and body.
	Timeout time.Duration
	// MaxRedirects is the number of redirects followed; negative follows none.
	MaxRedirects int
	// Resolver resolves host names; net.DefaultResolver when nil.
	Resolver Resolver
	// UserAgent is sent on every request.
	UserAgent string
	// WebPortsOnly refuses every port but 80 and 443 (a crawl of web pages), except
	// on allow-listed host:port pairs.
	WebPortsOnly bool
}

// Response is a fetched page.
type Response struct {
	FinalURL string // the URL after redirects
	Status   int
	Header   http.Header
	Body     []byte
}

// Client fetches URLs under the guard. It is safe for concurrent use.
type Client struct {
	opts   Options
	allow  AllowList
	http   *http.Client
	dialer net.Dialer
}

// New makes a Client.
func New(o Options) *Client {
	if o.MaxBytes <= 0 {
		o.MaxBytes = DefaultMaxBytes
	}
	if o.Timeout <= 0 {
		o.Timeout = DefaultTimeout
	}
	if o.MaxRedirects == 0 {
		o.MaxRedirects = DefaultMaxRedirects
	}
	if o.Resolver == nil {
		o.Resolver = net.DefaultResolver
	}
	if o.UserAgent == "" {
		o.UserAgent = DefaultUserAgent
	}
	c := &Client{opts: o, allow: NewAllowList(o.AllowHosts), dialer: net.Dialer{Timeout: o.Timeout, KeepAlive: 30 * time.Second}}
	transport := &http.Transport{
		// No proxy: a proxy would make the dial below meaningless.
		Proxy:                  nil,
		DialContext:            c.dial,
		ForceAttemptHTTP2:      true,
		MaxIdleConns:           100,
		MaxIdleConnsPerHost:    4,
		IdleConnTimeout:        60 * time.Second,
		TLSHandshakeTimeout:    o.Timeout,
		ResponseHeaderTimeout:  o.Timeout,
		MaxResponseHeaderBytes: 64 << 10,
	}
	c.http = &http.Client{Transport: transport, Timeout: o.Timeout, CheckRedirect: c.checkRedirect}
	return c
}

// DNSServer is a Resolver that asks one DNS server ("host:port") for every name, in
// place of the system's resolvers (FIRMO_FETCH_DNS_RESOLVER).
func DNSServer(server string) Resolver {
	return &net.Resolver{PreferGo: true, Dial: func(ctx context.Context, network, _ string) (net.Conn, error) {
		var d net.Dialer
		return d.DialContext(ctx, network, server)
	}}
}

// Origin is where a crawl of a domain starts: https://<host>, or http://<host>:<port>
// when the allow list holds that host with a port (a test's site on loopback, served
// over plain http).
func (c *Client) Origin(host string) string {
	if port, ok := c.allow.PortOf(host); ok {
		return "http://" + net.JoinHostPort(host, port)
	}
	return "https://" + host
}

// Get fetches rawURL and returns its response, whatever its status code. The body is
// read whole, up to MaxBytes.
func (c *Client) Get(ctx context.Context, rawURL string) (*Response, error) {
	u, err := c.parse(rawURL)
	if err != nil {
		return nil, err
	}
	// Refuse early with the clearest message; the dial repeats the check on the
	// address it actually connects to.
	if err := c.checkURL(ctx, u); err != nil {
		return nil, err
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, u.String(), nil)
	if err != nil {
		return nil, failed(u, "the URL cannot be requested")
	}
	req.Header.Set("User-Agent", c.opts.UserAgent)
	req.Header.Set("Accept", "text/html,application/xhtml+xml,text/plain;q=0.9,*/*;q=0.5")
	resp, err := c.http.Do(req)
	if err != nil {
		return nil, c.explain(ctx, u, err)
	}
	defer resp.Body.Close()
	if resp.ContentLength > c.opts.MaxBytes {
		return nil, c.tooLarge(resp.Request.URL)
	}
	body, err := io.ReadAll(io.LimitReader(resp.Body, c.opts.MaxBytes+1))
	if err != nil {
		return nil, c.explain(ctx, resp.Request.URL, err)
	}
	if int64(len(body)) > c.opts.MaxBytes {
		return nil, c.tooLarge(resp.Request.URL)
	}
	return &Response{FinalURL: resp.Request.URL.String(), Status: resp.StatusCode, Header: resp.Header, Body: body}, nil
}

// Check validates a URL without fetching it: scheme, host, and every address the host
// resolves to. It returns the same refusals Get would.
func (c *Client) Check(ctx context.Context, rawURL string) error {
	u, err := c.parse(rawURL)
	if err != nil {
		return err
	}
	return c.checkURL(ctx, u)
}

func (c *Client) parse(rawURL string) (*url.URL, error) {
	u, err := url.Parse(strings.TrimSpace(rawURL))
	if err != nil {
		return nil, refused("%q is not a valid URL", rawURL)
	}
	if err := checkScheme(u); err != nil {
		return nil, err
	}
	return u, nil
}

func checkScheme(u *url.URL) error {
	switch strings.ToLower(u.Scheme) {
	case "http", "https":
	default:
		if u.Scheme == "" {
			return refused("%q is not an absolute http or https URL", u.String())
		}
		return refused("refusing to fetch %s: only http and https URLs are fetched, not %s", u.Redacted(), u.Scheme)
	}
	if u.Hostname() == "" {
		return refused("%q has no host", u.Redacted())
	}
	return nil
}

// checkURL vets the URL's host: allowed hosts pass; others must resolve only to
// public addresses.
func (c *Client) checkURL(ctx context.Context, u *url.URL) error {
	host, port := u.Hostname(), u.Port()
	if port == "" {
		port = "443"
		if strings.EqualFold(u.Scheme, "http") {
			port = "80"
		}
	}
	if c.allowed(host, port) {
		return nil
	}
	if c.opts.WebPortsOnly && port != "80" && port != "443" {
		return refused("refusing to fetch %s: only ports 80 and 443 are crawled, not %s", u.Redacted(), port)
	}
	_, err := c.vetted(ctx, host)
	return err
}

func (c *Client) allowed(host, port string) bool { return c.allow.Allows(host, port) }

// vetted resolves host and returns its addresses when every one of them is public.
// One bad answer refuses the host: a name that points anywhere private is not fetched.
func (c *Client) vetted(ctx context.Context, host string) ([]net.IP, error) {
	ips, err := c.resolve(ctx, host)
	if err != nil {
		return nil, err
	}
	for _, ip := range ips {
		if reason := Blocked(ip); reason != "" {
			if net.ParseIP(host) != nil {
				return nil, refused("refusing to fetch %s: %s", host, reason)
			}
			return nil, refused("refusing to fetch %s: it resolves to %s, %s", host, ip, withArticle(reason))
		}
	}
	return ips, nil
}

func (c *Client) resolve(ctx context.Context, host string) ([]net.IP, error) {
	if ip := net.ParseIP(strings.Trim(host, "[]")); ip != nil {
		return []net.IP{ip}, nil
	}
	addrs, err := c.opts.Resolver.LookupIPAddr(ctx, host)
	if err != nil {
		var dnsErr *net.DNSError
		if errors.As(err, &dnsErr) && dnsErr.IsTimeout || errors.Is(err, context.DeadlineExceeded) {
			return nil, &apperr.Error{Kind: apperr.ErrBadRequest, Code: CodeTimeout, Message: fmt.Sprintf("resolving %s timed out", host)}
		}
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		return nil, &apperr.Error{Kind: apperr.ErrBadRequest, Code: CodeFailed, Message: fmt.Sprintf("cannot fetch from %s: the host name does not resolve", host)}
	}
	if len(addrs) == 0 {
		return nil, &apperr.Error{Kind: apperr.ErrBadRequest, Code: CodeFailed, Message: fmt.Sprintf("cannot fetch from %s: the host name has no addresses", host)}
	}
	ips := make([]net.IP, len(addrs))
	for i, a := range addrs {
		ips[i] = a.IP
	}
	return ips, nil
}

// dial connects to a vetted address of the host, never to the name itself, so the
// address checked is the address used.
func (c *Client) dial(ctx context.Context, network, addr string) (net.Conn, error) {
	host, port, err := net.SplitHostPort(addr)
	if err != nil {
		return nil, err
	}
	var ips []net.IP
	switch {
	case c.allowed(host, port):
		ips, err = c.resolve(ctx, host)
	case c.opts.WebPortsOnly && port != "80" && port != "443":
		return nil, refused("refusing to connect to %s: only ports 80 and 443 are crawled", addr)
	default:
		ips, err = c.vetted(ctx, host)
	}
	if err != nil {
		return nil, err
	}
	var firstErr error
	for _, ip := range ips {
		conn, err := c.dialer.DialContext(ctx, network, net.JoinHostPort(ip.String(), port))
		if err == nil {
			return conn, nil
		}
		if firstErr == nil {
			firstErr = err
		}
		if ctx.Err() != nil {
			break
		}
	}
	return nil, firstErr
}

func (c *Client) checkRedirect(req *http.Request, via []*http.Request) error {
	if c.opts.MaxRedirects < 0 {
		return http.ErrUseLastResponse
	}
	if len(via) > c.opts.MaxRedirects {
		return &apperr.Error{Kind: apperr.ErrBadRequest, Code: CodeFailed, Message: fmt.Sprintf("stopped after %d redirects from %s", c.opts.MaxRedirects, via[0].URL.Redacted())}
	}
	if err := checkScheme(req.URL); err != nil {
		return redirected(via[len(via)-1].URL, err)
	}
	if err := c.checkURL(req.Context(), req.URL); err != nil {
		return redirected(via[len(via)-1].URL, err)
	}
	return nil
}

// redirected adds where a refused redirect came from to its message.
func redirected(from *url.URL, err error) error {
	var ae *apperr.Error
	if errors.As(err, &ae) {
		cp := *ae
		cp.Message = fmt.Sprintf("%s (redirected from %s)", ae.Message, from.Redacted())
		return &cp
	}
	return err
}

// explain turns a transport error into a clear client-facing error.
func (c *Client) explain(ctx context.Context, u *url.URL, err error) error {
	var ae *apperr.Error
	if errors.As(err, &ae) {
		return ae
	}
	if ctx.Err() == context.Canceled {
		return ctx.Err()
	}
	var netErr net.Error
	if errors.Is(err, context.DeadlineExceeded) || errors.As(err, &netErr) && netErr.Timeout() {
		return &apperr.Error{Kind: apperr.ErrBadRequest, Code: CodeTimeout, Message: fmt.Sprintf("%s did not answer within %s", u.Redacted(), c.opts.Timeout)}
	}
	var opErr *net.OpError
	if errors.As(err, &opErr) && opErr.Op == "dial" {
		return failed(u, "the connection was refused or could not be made")
	}
	return failed(u, "the server's answer could not be read")
}

func (c *Client) tooLarge(u *url.URL) error {
	return &apperr.Error{Kind: apperr.ErrBadRequest, Code: CodeTooLarge, Message: fmt.Sprintf("the page at %s is larger than the %s fetch limit", u.Redacted(), humanBytes(c.opts.MaxBytes))}
}

func refused(format string, args ...any) error {
	return &apperr.Error{Kind: apperr.ErrBadRequest, Code: CodeRefused, Message: fmt.Sprintf(format, args...)}
}

func failed(u *url.URL, why string) error {
	return &apperr.Error{Kind: apperr.ErrBadRequest, Code: CodeFailed, Message: fmt.Sprintf("cannot fetch %s: %s", u.Redacted(), why)}
}

func withArticle(s string) string {
	if s == "" {
		return s
	}
	switch s[0] {
	case 'a', 'e', 'i', 'o', 'u':
		return "an " + s
	}
	return "a " + s
}

func humanBytes(n int64) string {
	switch {
	case n >= 1<<20 && n%(1<<20) == 0:
		return strconv.FormatInt(n>>20, 10) + " MiB"
	case n >= 1<<10 && n%(1<<10) == 0:
		return strconv.FormatInt(n>>10, 10) + " KiB"
	}
	return strconv.FormatInt(n, 10) + " bytes"
}

// HTTPClient is the guarded *http.Client itself, for API clients that make their own
// requests (the CRM providers): every dial is checked as Get's (public addresses only,
// unless allow-listed), and so is every redirect. Bodies are not bounded here: the
// caller reads them.
func (c *Client) HTTPClient() *http.Client { return c.http }
