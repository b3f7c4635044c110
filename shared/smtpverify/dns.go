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
	"time"

	"github.com/miekg/dns"
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
type Resolver struct {
	server  string
	timeout time.Duration
}

// NewResolver makes a resolver that asks server (host:port). An empty server means the
// first nameserver of /etc/resolv.conf, and 127.0.0.1:53 when that file is unreadable.
func NewResolver(server string, timeout time.Duration) *Resolver {
	if server == "" {
		server = systemResolver()
	}
	if timeout <= 0 {
		timeout = 5 * time.Second
	}
	return &Resolver{server: server, timeout: timeout}
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

// query asks one question over UDP, again over TCP when the answer was truncated.
func (r *Resolver) query(ctx context.Context, name string, qtype uint16) (*dns.Msg, error) {
	m := new(dns.Msg)
	m.SetQuestion(name, qtype)
	m.RecursionDesired = true
	m.SetEdns0(1232, false)
	c := &dns.Client{Net: "udp", Timeout: r.timeout}
	in, _, err := c.ExchangeContext(ctx, m, r.server)
	if err == nil && in.Truncated {
		c.Net = "tcp"
		in, _, err = c.ExchangeContext(ctx, m, r.server)
	}
	if err != nil {
		return nil, fmt.Errorf("DNS %s %s via %s: %w", dns.TypeToString[qtype], name, r.server, err)
	}
	switch in.Rcode {
	case dns.RcodeSuccess:
		return in, nil
	case dns.RcodeNameError:
		return nil, ErrNoDomain
	}
	return nil, &DNSError{Name: strings.TrimSuffix(name, "."), Rcode: in.Rcode}
}

// isTimeout reports whether err is a deadline or network timeout.
func isTimeout(err error) bool {
	var ne net.Error
	return errors.Is(err, context.DeadlineExceeded) || errors.Is(err, os.ErrDeadlineExceeded) || (errors.As(err, &ne) && ne.Timeout())
}
