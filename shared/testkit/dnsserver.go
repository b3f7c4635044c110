package testkit

import (
	"net"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/miekg/dns"
)

// DNSZone is what the in-process DNS server answers. Names are matched without case
// and without the trailing dot. A name found in no field is NXDOMAIN; a name found in
// some field but not for the asked type gets an empty NOERROR answer (NODATA).
type DNSZone struct {
	MX       map[string][]DNSMX  // domain -> exchangers; the host "." is a null MX (RFC 7505)
	A        map[string][]string // name -> IPv4 addresses
	AAAA     map[string][]string // name -> IPv6 addresses
	ServFail []string            // names answered with SERVFAIL
	Silent   []string            // names never answered: the client times out
}

// DNSMX is one MX record.
type DNSMX struct {
	Pref uint16
	Host string
}

// DNSServer is a running in-process DNS server.
type DNSServer struct {
	Addr    string // host:port on 127.0.0.1, the same port for UDP and TCP
	queries atomic.Int64
}

// Queries counts the questions the server received.
func (s *DNSServer) Queries() int64 { return s.queries.Load() }

// StartDNS serves zone over UDP and TCP on a free loopback port (github.com/miekg/dns)
// for the life of the test.
func StartDNS(t testing.TB, zone DNSZone) *DNSServer {
	t.Helper()
	srv := &DNSServer{}
	h := dns.HandlerFunc(func(w dns.ResponseWriter, req *dns.Msg) {
		srv.queries.Add(1)
		if m, ok := zone.answer(req); ok {
			w.WriteMsg(m)
		}
	})
	var udp net.PacketConn
	var tcp net.Listener
	var err error
	for attempt := 0; attempt < 5; attempt++ {
		if udp, err = net.ListenPacket("udp", "127.0.0.1:0"); err != nil {
			continue
		}
		if tcp, err = net.Listen("tcp", udp.LocalAddr().String()); err == nil {
			break
		}
		udp.Close()
	}
	if err != nil {
		t.Fatalf("dns server: listen: %v", err)
	}
	us := &dns.Server{PacketConn: udp, Handler: h}
	ts := &dns.Server{Listener: tcp, Handler: h}
	go us.ActivateAndServe()
	go ts.ActivateAndServe()
	t.Cleanup(func() { us.Shutdown(); ts.Shutdown() })
	srv.Addr = udp.LocalAddr().String()
	return srv
}

func (z DNSZone) answer(req *dns.Msg) (*dns.Msg, bool) {
	m := new(dns.Msg)
	m.SetReply(req)
	m.Authoritative = true
	m.RecursionAvailable = true
	if len(req.Question) != 1 {
		m.Rcode = dns.RcodeFormatError
		return m, true
	}
	q := req.Question[0]
	name := strings.TrimSuffix(strings.ToLower(q.Name), ".")
	if has(z.Silent, name) {
		return nil, false
	}
	if has(z.ServFail, name) {
		m.Rcode = dns.RcodeServerFailure
		return m, true
	}
	_, inMX := z.MX[name]
	_, inA := z.A[name]
	_, inAAAA := z.AAAA[name]
	if !inMX && !inA && !inAAAA {
		m.Rcode = dns.RcodeNameError
		return m, true
	}
	hdr := dns.RR_Header{Name: q.Name, Class: dns.ClassINET, Ttl: 60}
	switch q.Qtype {
	case dns.TypeMX:
		hdr.Rrtype = dns.TypeMX
		for _, mx := range z.MX[name] {
			m.Answer = append(m.Answer, &dns.MX{Hdr: hdr, Preference: mx.Pref, Mx: dns.Fqdn(mx.Host)})
		}
	case dns.TypeA:
		hdr.Rrtype = dns.TypeA
		for _, ip := range z.A[name] {
			m.Answer = append(m.Answer, &dns.A{Hdr: hdr, A: net.ParseIP(ip).To4()})
		}
	case dns.TypeAAAA:
		hdr.Rrtype = dns.TypeAAAA
		for _, ip := range z.AAAA[name] {
			m.Answer = append(m.Answer, &dns.AAAA{Hdr: hdr, AAAA: net.ParseIP(ip)})
		}
	}
	return m, true
}

func has(list []string, name string) bool {
	for _, n := range list {
		if strings.EqualFold(strings.TrimSuffix(n, "."), name) {
			return true
		}
	}
	return false
}
