package llm

import (
	"context"
	"fmt"
	"net"
	"net/http"
	"strings"
	"time"

	"github.com/firmoapi/firmo/shared/apperr"
	"github.com/firmoapi/firmo/shared/fetch"
)

// GuardedHTTPClient returns the HTTP client every provider adapter (LLM and web
// search) uses. It applies the rules of shared/fetch at dial time: the host is resolved
// here, every address is judged by fetch.Blocked (private, loopback, link-local,
// metadata... refused) and the vetted address is dialled, so a DNS answer that changes
// after a check cannot slip through. allowHosts (FIRMO_FETCH_ALLOW_HOSTS) admits local
// test servers. Redirects are not followed: provider APIs do not redirect, and a
// redirect is the classic way round an address check.
//
// It is a separate client from fetch.Client because the vendor SDKs need an
// *http.Client, and fetch.Client exposes only Get and Check.
func GuardedHTTPClient(allowHosts []string, timeout time.Duration) *http.Client {
	g := &guard{allow: map[string]bool{}, dialer: net.Dialer{Timeout: 10 * time.Second, KeepAlive: 30 * time.Second}}
	for _, h := range allowHosts {
		if h = strings.ToLower(strings.TrimSpace(h)); h != "" {
			g.allow[h] = true
			g.allow[strings.Trim(h, "[]")] = true
		}
	}
	transport := &http.Transport{
		Proxy:                 nil, // a proxy would make the dial check meaningless
		DialContext:           g.dial,
		ForceAttemptHTTP2:     true,
		MaxIdleConns:          100,
		MaxIdleConnsPerHost:   16,
		IdleConnTimeout:       60 * time.Second,
		TLSHandshakeTimeout:   10 * time.Second,
		ResponseHeaderTimeout: timeout,
	}
	return &http.Client{
		Transport:     transport,
		Timeout:       timeout,
		CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse },
	}
}

type guard struct {
	allow  map[string]bool
	dialer net.Dialer
}

func (g *guard) dial(ctx context.Context, network, addr string) (net.Conn, error) {
	host, port, err := net.SplitHostPort(addr)
	if err != nil {
		return nil, err
	}
	host = strings.ToLower(strings.TrimSuffix(host, "."))
	allowed := g.allow[host] || g.allow[net.JoinHostPort(host, port)]
	var ips []net.IP
	if ip := net.ParseIP(host); ip != nil {
		ips = []net.IP{ip}
	} else {
		addrs, err := net.DefaultResolver.LookupIPAddr(ctx, host)
		if err != nil {
			return nil, fmt.Errorf("resolve %s: %w", host, err)
		}
		for _, a := range addrs {
			ips = append(ips, a.IP)
		}
	}
	if !allowed {
		for _, ip := range ips {
			if reason := fetch.Blocked(ip); reason != "" {
				return nil, &apperr.Error{Kind: apperr.ErrBadRequest, Code: fetch.CodeRefused,
					Message: fmt.Sprintf("refusing to connect to %s: it resolves to %s, a %s", host, ip, reason)}
			}
		}
	}
	var firstErr error
	for _, ip := range ips {
		conn, err := g.dialer.DialContext(ctx, network, net.JoinHostPort(ip.String(), port))
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
	if firstErr == nil {
		firstErr = fmt.Errorf("%s has no addresses", host)
	}
	return nil, firstErr
}
