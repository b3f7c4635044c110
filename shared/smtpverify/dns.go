package smtpverify

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/netip"
	"os"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/miekg/dns"
	"golang.org/x/sync/singleflight"
)

// DNS outcomes that decide a verification without SMTP.
var (
	ErrNoDomain   = errors.New("the domain does not exist (NXDOMAIN)")
	ErrNullMX     = errors.New("the domain accepts no mail (null MX, RFC 7505)")
	ErrNoMailHost = errors.New("the domain has neither MX nor address records")
)

// MX is one mail exchanger of a domain.
type MX struct {
	Host     string // lowercase, no trailing dot
	Pref     uint16
	Implicit bool // no MX record: the domain's own address records (RFC 5321 section 5.1)
}

// Resolver asks one DNS server (a recursive resolver) for MX and address records.
// Answers are cached for their TTL (at most maxCacheTTL) and concurrent identical
// questions share one query, so a batch of people at one company costs one MX lookup:
// a burst of hundreds of identical UDP questions would otherwise overflow the
// server's socket and lose answers.
type Resolver struct {
	server  string
	timeout time.Duration
	now     func() time.Time
	group   singleflight.Group

	mu    sync.Mutex
	cache map[string]cachedMsg
}

type cachedMsg struct {
	msg     *dns.Msg
	expires time.Time
}

// Cache bounds: answers live at most maxCacheTTL; NXDOMAIN and empty answers negTTL.
const (
	maxCacheTTL     = 5 * time.Minute
	negTTL          = time.Minute
	maxCachedAnswer = 10_000
)

// NewResolver makes a resolver that asks server (host:port). An empty server means the
// first nameserver of /etc/resolv.conf, and 127.0.0.1:53 when that file is unreadable.
func NewResolver(server string, timeout time.Duration) *Resolver {
	if server == "" {
		server = systemResolver()
	}
	if timeout <= 0 {
		timeout = 5 * time.Second
	}
	return &Resolver{server: server, timeout: timeout, now: time.Now, cache: map[string]cachedMsg{}}
}

func systemResolver() string {
	cfg, err := dns.ClientConfigFromFile("/etc/resolv.conf")
	if err != nil || len(cfg.Servers) == 0 {
		return "127.0.0.1:53"
	}
	return net.JoinHostPort(cfg.Servers[0], cfg.Port)
}

// Server is the address of the DNS server asked.
func (r *Resolver) Server() string { return r.server }

// MX returns the mail exchangers of domain, most preferred first. A domain without MX
// records falls back to itself as implicit MX when it has address records (RFC 5321
// section 5.1). Errors: ErrNoDomain, ErrNullMX, ErrNoMailHost, a timeout (net.Error
// with Timeout true, or the context's error), or another DNS failure (SERVFAIL,
// REFUSED, malformed answer).
func (r *Resolver) MX(ctx context.Context, domain string) ([]MX, error) {
	name := dns.Fqdn(strings.ToLower(domain))
	msg, err := r.query(ctx, name, dns.TypeMX)
	if err != nil {
		return nil, err
	}
	var out []MX
	null := false
	for _, rr := range msg.Answer {
		mx, ok := rr.(*dns.MX)
		if !ok {
			continue
		}
		host := strings.TrimSuffix(strings.ToLower(mx.Mx), ".")
		if host == "" {
			null = true
			continue
		}
		out = append(out, MX{Host: host, Pref: mx.Preference})
	}
	if null {
		// RFC 7505: a null MX says the domain accepts no mail; other MX records beside
		// it are a misconfiguration and do not override it.
		return nil, ErrNullMX
	}
	if len(out) == 0 {
		addrs, err := r.Addrs(ctx, name)
		if err != nil {
			if errors.Is(err, ErrNoDomain) || errors.Is(err, ErrNoMailHost) {
				return nil, ErrNoMailHost
			}
			return nil, err
		}
		if len(addrs) == 0 {
			return nil, ErrNoMailHost
		}
		return []MX{{Host: strings.TrimSuffix(name, "."), Implicit: true}}, nil
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].Pref < out[j].Pref })
	return out, nil
}

// Addrs returns the IPv4 addresses of host, then its IPv6 ones; ErrNoMailHost when it
// has none.
func (r *Resolver) Addrs(ctx context.Context, host string) ([]netip.Addr, error) {
	name := dns.Fqdn(strings.ToLower(host))
	var out []netip.Addr
	for _, qt := range []uint16{dns.TypeA, dns.TypeAAAA} {
		msg, err := r.query(ctx, name, qt)
		if err != nil {
			if len(out) > 0 { // the IPv4 answer is enough
				return out, nil
			}
			return nil, err
		}
		for _, rr := range msg.Answer {
			switch a := rr.(type) {
			case *dns.A:
				if ip, ok := netip.AddrFromSlice(a.A.To4()); ok {
					out = append(out, ip)
				}
			case *dns.AAAA:
				if ip, ok := netip.AddrFromSlice(a.AAAA); ok {
					out = append(out, ip)
				}
			}
		}
	}
	if len(out) == 0 {
		return nil, ErrNoMailHost
	}
	return out, nil
}

// DNSError is a DNS answer that is neither data nor NXDOMAIN (SERVFAIL, REFUSED, ...).
type DNSError struct {
	Name  string
	Rcode int
}

func (e *DNSError) Error() string {
	return fmt.Sprintf("DNS server answered %s for %s", dns.RcodeToString[e.Rcode], e.Name)
}

// query answers one question from the cache or the server. Concurrent callers of the
// same question share one exchange; each still stops at its own context's end.
func (r *Resolver) query(ctx context.Context, name string, qtype uint16) (*dns.Msg, error) {
	key := dns.TypeToString[qtype] + " " + name
	in, ok := r.cached(key)
	if !ok {
		ch := r.group.DoChan(key, func() (any, error) {
			// A flight that ended between this caller's cache miss and its DoChan has
			// stored its answer already: use it rather than ask again.
			if m, ok := r.cached(key); ok {
				return m, nil
			}
			// Detached from any one caller, bounded by the resolver's own timeouts.
			ctx, cancel := context.WithTimeout(context.Background(), 2*r.timeout+time.Second)
			defer cancel()
			m, err := r.exchange(ctx, name, qtype)
			if err == nil {
				r.store(key, m)
			}
			return m, err
		})
		select {
		case <-ctx.Done():
			return nil, fmt.Errorf("DNS %s: %w", key, ctx.Err())
		case res := <-ch:
			if res.Err != nil {
				return nil, res.Err
			}
			in = res.Val.(*dns.Msg)
		}
	}
	switch in.Rcode {
	case dns.RcodeSuccess:
		return in, nil
	case dns.RcodeNameError:
		return nil, ErrNoDomain
	}
	return nil, &DNSError{Name: strings.TrimSuffix(name, "."), Rcode: in.Rcode}
}

// exchange asks the server over UDP, over TCP when the answer was truncated, and once
// more over TCP when UDP timed out (a lost datagram). When that retry fails too, the
// UDP timeout is the error.
func (r *Resolver) exchange(ctx context.Context, name string, qtype uint16) (*dns.Msg, error) {
	m := new(dns.Msg)
	m.SetQuestion(name, qtype)
	m.RecursionDesired = true
	m.SetEdns0(1232, false)
	c := &dns.Client{Net: "udp", Timeout: r.timeout}
	in, _, err := c.ExchangeContext(ctx, m, r.server)
	if (err == nil && in.Truncated) || (err != nil && isTimeout(err) && ctx.Err() == nil) {
		tc := &dns.Client{Net: "tcp", Timeout: r.timeout}
		tin, _, terr := tc.ExchangeContext(ctx, m, r.server)
		if terr == nil || err == nil {
			in, err = tin, terr
		}
	}
	if err != nil {
		return nil, fmt.Errorf("DNS %s %s via %s: %w", dns.TypeToString[qtype], name, r.server, err)
	}
	return in, nil
}

func (r *Resolver) cached(key string) (*dns.Msg, bool) {
	r.mu.Lock()
	defer r.mu.Unlock()
	c, ok := r.cache[key]
	if !ok || r.now().After(c.expires) {
		return nil, false
	}
	return c.msg, true
}

// store caches an answer for its smallest TTL, at most maxCacheTTL; NXDOMAIN and
// empty answers for negTTL; server failures not at all.
func (r *Resolver) store(key string, m *dns.Msg) {
	ttl := negTTL
	switch {
	case m.Rcode != dns.RcodeSuccess && m.Rcode != dns.RcodeNameError:
		return
	case m.Rcode == dns.RcodeSuccess && len(m.Answer) > 0:
		ttl = maxCacheTTL
		for _, rr := range m.Answer {
			ttl = min(ttl, time.Duration(rr.Header().Ttl)*time.Second)
		}
	}
	if ttl <= 0 {
		return
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	now := r.now()
	if len(r.cache) >= maxCachedAnswer {
		for k, c := range r.cache {
			if now.After(c.expires) {
				delete(r.cache, k)
			}
		}
		if len(r.cache) >= maxCachedAnswer {
			clear(r.cache)
		}
	}
	r.cache[key] = cachedMsg{msg: m, expires: now.Add(ttl)}
}

// isTimeout reports whether err is a deadline or network timeout.
func isTimeout(err error) bool {
	var ne net.Error
	return errors.Is(err, context.DeadlineExceeded) || errors.Is(err, os.ErrDeadlineExceeded) || (errors.As(err, &ne) && ne.Timeout())
}
