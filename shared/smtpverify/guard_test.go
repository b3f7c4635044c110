package smtpverify

import (
	"context"
	"errors"
	"net"
	"net/netip"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"

	"github.com/firmoapi/firmo/shared/testkit"
)

// dialLog records every TCP connection a verifier starts, through the dialer's Control
// hook, and stops those to non-loopback addresses before they reach the network.
type dialLog struct {
	mu    sync.Mutex
	addrs []string
}

var errNoRoute = errors.New("test: only loopback addresses are dialed for real")

func (d *dialLog) attach(v *Verifier) {
	v.dialer.Control = func(_, address string, _ syscall.RawConn) error {
		d.mu.Lock()
		d.addrs = append(d.addrs, address)
		d.mu.Unlock()
		if ap, err := netip.ParseAddrPort(address); err != nil || !ap.Addr().IsLoopback() {
			return errNoRoute
		}
		return nil
	}
}

func (d *dialLog) list() []string {
	d.mu.Lock()
	defer d.mu.Unlock()
	return append([]string(nil), d.addrs...)
}

// loopbackPort finds a port free on 127.0.0.1 and, when the host has IPv6, on ::1.
func loopbackPort(t *testing.T) (port int, v6 bool) {
	t.Helper()
	for attempt := 0; attempt < 20; attempt++ {
		l, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			t.Fatal(err)
		}
		port = l.Addr().(*net.TCPAddr).Port
		l.Close()
		l6, err := net.Listen("tcp", net.JoinHostPort("::1", strconv.Itoa(port)))
		if err == nil {
			l6.Close()
			return port, true
		}
		probe, err := net.Listen("tcp", "[::1]:0")
		if err != nil {
			return port, false // no IPv6 loopback here
		}
		probe.Close()
	}
	t.Fatal("no port free on both loopback addresses")
	return 0, false
}

// addressRulesZone: one MX host per refused kind of address, a domain whose MX hosts
// are all refused, and a domain that is its own (private) mail host.
func addressRulesZone() testkit.DNSZone {
	mx := func(host string) []testkit.DNSMX { return []testkit.DNSMX{{Pref: 10, Host: host}} }
	return testkit.DNSZone{
		MX: map[string][]testkit.DNSMX{
			"loopback.example.com":   mx("mx.loopback.example.net"),
			"private.example.com":    mx("mx.private.example.net"),
			"metadata.example.com":   mx("mx.metadata.example.net"),
			"v6loopback.example.com": mx("mx.v6loopback.example.net"),
			"mixed.example.com": {
				{Pref: 10, Host: "mx.private.example.net"},
				{Pref: 20, Host: "mx.metadata.example.net"},
				{Pref: 30, Host: "mx.loopback.example.net"},
			},
		},
		A: map[string][]string{
			"mx.loopback.example.net": {"127.0.0.1"},
			"mx.private.example.net":  {"10.20.30.40"},
			"mx.metadata.example.net": {"169.254.169.254"},
			"implicit.example.com":    {"192.168.1.10"},
		},
		AAAA: map[string][]string{"mx.v6loopback.example.net": {"::1"}},
	}
}

// TestMXAddressRules: an MX host resolving to a loopback, private, link-local or cloud
// metadata address is refused without a TCP connection, whichever MX host it is, and
// is dialed when the allow list admits it.
func TestMXAddressRules(t *testing.T) {
	port, v6 := loopbackPort(t)
	p := strconv.Itoa(port)
	mail4 := &fakeSMTP{Greeting: "220 fake ESMTP"}
	listenFake(t, "127.0.0.1", port, mail4)
	mail6 := &fakeSMTP{Greeting: "220 fake ESMTP"}
	if v6 {
		listenFake(t, "::1", port, mail6)
	} else {
		t.Log("no IPv6 loopback: ::1 is checked for refusal only")
	}
	dns := testkit.StartDNS(t, addressRulesZone())
	ctx := context.Background()

	t.Run("refused", func(t *testing.T) {
		s := testSettings(dns.Addr, port)
		s.AllowHosts = []string{"127.0.0.1:1", "mx.loopback.example.net:25"} // other ports admit nothing here
		v := New(s)
		var dials dialLog
		dials.attach(v)
		cases := []struct{ domain, mxHost, why string }{
			{"loopback.example.com", "mx.loopback.example.net", "127.0.0.1 (loopback address)"},
			{"private.example.com", "mx.private.example.net", "10.20.30.40 (private address)"},
			{"metadata.example.com", "mx.metadata.example.net", "169.254.169.254 (cloud metadata address)"},
			{"v6loopback.example.com", "mx.v6loopback.example.net", "::1 (loopback address)"},
			{"mixed.example.com", "mx.private.example.net", "10.20.30.40 (private address)"},
			{"implicit.example.com", "implicit.example.com", "192.168.1.10 (private address)"},
		}
		for _, tc := range cases {
			got := v.Check(ctx, tc.domain, []string{"jane.doe"}, Options{})
			if got.Status != Undeliverable || got.Code != 0 || got.MXHost != tc.mxHost {
				t.Errorf("%s: %+v, want undeliverable from DNS alone, naming %s", tc.domain, got, tc.mxHost)
			}
			if want := "the MX host " + tc.mxHost + " points at " + tc.why; !strings.Contains(got.Detail, want) {
				t.Errorf("%s: detail %q, want it to say %q", tc.domain, got.Detail, want)
			}
		}
		// Rebinding: whatever name or lookup produced it, the dial itself refuses the address.
		for _, ip := range []string{"127.0.0.1", "10.0.0.1", "169.254.169.254", "::1", "::ffff:127.0.0.1", "fd00:ec2::254"} {
			nc, err := v.dial(ctx, "mx.example.net", netip.MustParseAddr(ip))
			var be *blockedError
			if !errors.As(err, &be) {
				if nc != nil {
					nc.Close()
				}
				t.Errorf("dial %s: %v, want the address refused", ip, err)
			}
		}
		if got := dials.list(); len(got) != 0 {
			t.Errorf("TCP connections started: %v, want none", got)
		}
		if n := mail4.sessions.Load() + mail6.sessions.Load(); n != 0 {
			t.Errorf("the loopback mail hosts accepted %d connections, want 0", n)
		}
	})

	t.Run("allowed", func(t *testing.T) {
		s := testSettings(dns.Addr, port)
		// By address and port, by host name, by address alone.
		s.AllowHosts = []string{"127.0.0.1:" + p, "[::1]:" + p, "MX.Private.Example.NET", "169.254.169.254"}
		v := New(s)
		var dials dialLog
		dials.attach(v)
		if got := v.Check(ctx, "loopback.example.com", []string{"jane.doe"}, Options{}); got.Status != CatchAll || mail4.sessions.Load() != 1 {
			t.Errorf("loopback: %+v after %d sessions, want catch_all in one session", got, mail4.sessions.Load())
		}
		if v6 {
			if got := v.Check(ctx, "v6loopback.example.com", []string{"jane.doe"}, Options{}); got.Status != CatchAll || mail6.sessions.Load() != 1 {
				t.Errorf("IPv6 loopback: %+v after %d sessions, want catch_all in one session", got, mail6.sessions.Load())
			}
		}
		// Admitted, so dialed; the test's dialer stops them before the network.
		for _, domain := range []string{"private.example.com", "metadata.example.com"} {
			if got := v.Check(ctx, domain, []string{"jane.doe"}, Options{}); got.Status != Undeliverable || !strings.Contains(got.Detail, "no mail host accepts connections") {
				t.Errorf("%s: %+v, want a dial that failed", domain, got)
			}
		}
		dialed := strings.Join(dials.list(), " ")
		for _, want := range []string{"10.20.30.40:" + p, "169.254.169.254:" + p} {
			if !strings.Contains(dialed, want) {
				t.Errorf("dialed %q, want %s among them", dialed, want)
			}
		}
	})
}
