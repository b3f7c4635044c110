// Package dnsmx is the DNS adapter of the company pipeline's MX port: a resolver that
// asks real DNS servers for MX records with github.com/miekg/dns, and a small
// authoritative server that answers MX questions for a zone held in memory (the demo
// world's domains, and tests).
package dnsmx

import (
	"context"
	"errors"
	"fmt"
	"net"
	"strings"
	"sync"
	"time"

	"github.com/miekg/dns"

	"github.com/firmoapi/firmo/shared/company"
)

// Resolver looks up MX records by asking its servers in order: a server that refuses
// the question (it is not authoritative for the name and does not recurse) hands it to
// the next. An answer (records, no records, or no such domain) ends the search; a
// timeout or SERVFAIL from the last server asked is an error, so the caller knows the
// provider is unresolved rather than absent.
//
// After failures in a row from every server the resolver rests for a while and fails
// fast, so an offline machine does not spend a timeout on every company.
type Resolver struct {
	servers []string
	timeout time.Duration

	mu        sync.Mutex
	failures  int
	restUntil time.Time
	now       func() time.Time
}

var _ company.MXResolver = (*Resolver)(nil)

// Rest settings: after failuresToRest failed lookups in a row, fail fast for restFor.
const (
	failuresToRest = 5
	restFor        = 30 * time.Second
)

// ErrResting is returned while the resolver rests after repeated failures.
var ErrResting = errors.New("dnsmx: resolvers unreachable; resting")

// New makes a Resolver over servers ("host:port"), each question bounded by timeout.
func New(servers []string, timeout time.Duration) *Resolver {
	return &Resolver{servers: servers, timeout: timeout, now: time.Now}
}

// SystemServers returns the name servers of /etc/resolv.conf as "host:port", or nil.
func SystemServers() []string {
	cfg, err := dns.ClientConfigFromFile("/etc/resolv.conf")
	if err != nil {
		return nil
	}
	out := make([]string, 0, len(cfg.Servers))
	for _, s := range cfg.Servers {
		out = append(out, net.JoinHostPort(s, cfg.Port))
	}
	return out
}

// LookupMX implements company.MXResolver.
func (r *Resolver) LookupMX(ctx context.Context, domain string) ([]company.MX, error) {
	if len(r.servers) == 0 {
		return nil, errors.New("dnsmx: no DNS server configured")
	}
	r.mu.Lock()
	resting := r.now().Before(r.restUntil)
	r.mu.Unlock()
	if resting {
		return nil, ErrResting
	}
	recs, err := r.lookup(ctx, domain)
	r.mu.Lock()
	defer r.mu.Unlock()
	if err != nil && ctx.Err() == nil {
		if r.failures++; r.failures >= failuresToRest {
			r.failures, r.restUntil = 0, r.now().Add(restFor)
		}
		return nil, err
	}
	r.failures = 0
	return recs, err
}

var errRefused = errors.New("refused")

func (r *Resolver) lookup(ctx context.Context, domain string) ([]company.MX, error) {
	q := new(dns.Msg)
	q.SetQuestion(dns.Fqdn(domain), dns.TypeMX)
	q.RecursionDesired = true
	var last error
	for _, server := range r.servers {
		recs, err := r.ask(ctx, q, server)
		if err == nil {
			return recs, nil
		}
		last = err
		if !errors.Is(err, errRefused) {
			return nil, err
		}
	}
	return nil, fmt.Errorf("MX %s: every server refused: %w", domain, last)
}

func (r *Resolver) ask(ctx context.Context, q *dns.Msg, server string) ([]company.MX, error) {
	ctx, cancel := context.WithTimeout(ctx, r.timeout)
	defer cancel()
	c := &dns.Client{Net: "udp", Timeout: r.timeout}
	resp, _, err := c.ExchangeContext(ctx, q, server)
	if err == nil && resp.Truncated {
		c.Net = "tcp"
		resp, _, err = c.ExchangeContext(ctx, q, server)
	}
	if err != nil {
		return nil, fmt.Errorf("MX %s via %s: %w", q.Question[0].Name, server, err)
	}
	switch resp.Rcode {
	case dns.RcodeSuccess:
	case dns.RcodeNameError:
		return []company.MX{}, nil // no such domain: no mail
	case dns.RcodeRefused:
		return nil, fmt.Errorf("MX %s via %s: %w", q.Question[0].Name, server, errRefused)
	default:
		return nil, fmt.Errorf("MX %s via %s: %s", q.Question[0].Name, server, dns.RcodeToString[resp.Rcode])
	}
	out := []company.MX{}
	for _, rr := range resp.Answer {
		if mx, ok := rr.(*dns.MX); ok {
			out = append(out, company.MX{Host: strings.TrimSuffix(mx.Mx, "."), Preference: mx.Preference})
		}
	}
	return out, nil
}

// Answer is what a zone says about a name.
type Answer struct {
	MX       []company.MX // a null MX is one record with Host ""
	A        []net.IP     // IPv4 address records (mail host names)
	NXDomain bool         // the name does not exist
	ServFail bool         // the zone is broken for this name (tests of unresolved lookups)
}

// Zone answers for the names it holds; ok is false for names outside it.
type Zone interface {
	Answer(name string) (a Answer, ok bool)
}

// Server is an authoritative DNS server for a Zone on UDP and TCP. Questions about
// names outside the zone are refused, and only MX and A questions get records.
type Server struct {
	udp, tcp *dns.Server
	addr     string
}

// Serve starts a Server on addr ("127.0.0.1:0" picks a free port; UDP and TCP share it).
func Serve(addr string, zone Zone) (*Server, error) {
	pc, ln, err := listenBoth(addr)
	if err != nil {
		return nil, err
	}
	h := dns.HandlerFunc(func(w dns.ResponseWriter, q *dns.Msg) { w.WriteMsg(reply(zone, q)) })
	s := &Server{
		udp:  &dns.Server{PacketConn: pc, Handler: h},
		tcp:  &dns.Server{Listener: ln, Handler: h},
		addr: pc.LocalAddr().String(),
	}
	var wg sync.WaitGroup
	wg.Add(2)
	s.udp.NotifyStartedFunc, s.tcp.NotifyStartedFunc = wg.Done, wg.Done
	go s.udp.ActivateAndServe()
	go s.tcp.ActivateAndServe()
	wg.Wait()
	return s, nil
}

// listenBoth opens UDP and TCP on one port. With port 0 the free UDP port may be taken
// on TCP by another process, so it tries again with another port.
func listenBoth(addr string) (net.PacketConn, net.Listener, error) {
	_, port, _ := net.SplitHostPort(addr)
	for attempt := 0; ; attempt++ {
		pc, err := net.ListenPacket("udp", addr)
		if err != nil {
			return nil, nil, fmt.Errorf("dns server: %w", err)
		}
		ln, err := net.Listen("tcp", pc.LocalAddr().String())
		if err == nil {
			return pc, ln, nil
		}
		pc.Close()
		if port != "0" || attempt == 20 {
			return nil, nil, fmt.Errorf("dns server: %w", err)
		}
	}
}

// Addr is the server's "host:port".
func (s *Server) Addr() string { return s.addr }

// Close stops the server.
func (s *Server) Close() error {
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
	defer cancel()
	return errors.Join(s.udp.ShutdownContext(ctx), s.tcp.ShutdownContext(ctx))
}

func reply(zone Zone, q *dns.Msg) *dns.Msg {
	m := new(dns.Msg)
	m.SetReply(q)
	if len(q.Question) != 1 {
		m.Rcode = dns.RcodeFormatError
		return m
	}
	qq := q.Question[0]
	name := strings.ToLower(strings.TrimSuffix(qq.Name, "."))
	a, ok := zone.Answer(name)
	switch {
	case !ok:
		m.Rcode = dns.RcodeRefused
		return m
	case a.ServFail:
		m.Rcode = dns.RcodeServerFailure
		return m
	case a.NXDomain:
		m.Rcode = dns.RcodeNameError
	}
	m.Authoritative = true
	if qq.Qtype == dns.TypeA && !a.NXDomain {
		for _, ip := range a.A {
			m.Answer = append(m.Answer, &dns.A{Hdr: dns.RR_Header{Name: qq.Name, Rrtype: dns.TypeA, Class: dns.ClassINET, Ttl: 3600}, A: ip})
		}
		return m
	}
	if qq.Qtype != dns.TypeMX || a.NXDomain {
		return m
	}
	for _, mx := range a.MX {
		host := "."
		if mx.Host != "" {
			host = dns.Fqdn(mx.Host)
		}
		m.Answer = append(m.Answer, &dns.MX{Hdr: dns.RR_Header{Name: qq.Name, Rrtype: dns.TypeMX, Class: dns.ClassINET, Ttl: 3600}, Preference: mx.Preference, Mx: host})
	}
	return m
}

// MapZone is a Zone held in a map, safe to replace while the server runs.
type MapZone struct {
	mu sync.RWMutex
	m  map[string]Answer
}

// Set replaces the zone's content.
func (z *MapZone) Set(m map[string]Answer) {
	z.mu.Lock()
	z.m = m
	z.mu.Unlock()
}

// Answer implements Zone.
func (z *MapZone) Answer(name string) (Answer, bool) {
	z.mu.RLock()
	defer z.mu.RUnlock()
	a, ok := z.m[name]
	return a, ok
}
