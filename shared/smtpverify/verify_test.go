package smtpverify

import (
	"context"
	"net"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/firmoapi/firmo/shared/testkit"
)

// Loopback addresses of the test mail hosts. Every MX host shares the one SMTP port of
// the verifier (as on the internet, where it is 25), so each host gets its own address.
const (
	ipPostfix  = "127.0.0.1" // the real MTA
	ipSilent   = "127.0.0.2" // accepts TCP and never speaks
	ipBroken   = "127.0.0.3" // speaks something that is not SMTP
	ipRefused  = "127.0.0.4" // nothing listens: connection refused
	ipRefusing = "127.0.0.5" // greets with 554
	ipFake     = "127.0.0.6" // scripted per test
)

// zone is the test world's DNS: one MX host name per loopback mail host.
func zone() testkit.DNSZone {
	mx := func(host string) []testkit.DNSMX { return []testkit.DNSMX{{Pref: 10, Host: host}} }
	return testkit.DNSZone{
		MX: map[string][]testkit.DNSMX{
			"strict.example.com":      mx("mx.postfix.example.net"),
			"catchall.example.com":    mx("mx.postfix.example.net"),
			"grey.example.com":        mx("mx.postfix.example.net"),
			"greyforever.example.com": mx("mx.postfix.example.net"),
			"busy.example.com":        mx("mx.postfix.example.net"),
			"closing.example.com":     mx("mx.postfix.example.net"),
			"notours.example.com":     mx("mx.postfix.example.net"),
			"backup.example.com":      {{Pref: 10, Host: "mx.refused.example.net"}, {Pref: 20, Host: "mx.postfix.example.net"}},
			"google.example.com":      mx("aspmx.l.google.com"),
			"silent.example.com":      mx("mx.silent.example.net"),
			"broken.example.com":      mx("mx.broken.example.net"),
			"refused.example.com":     mx("mx.refused.example.net"),
			"refusing.example.com":    mx("mx.refusing.example.net"),
			"fake.example.com":        mx("mx.fake.example.net"),
			"fake2.example.com":       mx("mx.fake.example.net"),
			"nullmx.example.com":      mx("."),
		},
		A: map[string][]string{
			"mx.postfix.example.net":  {ipPostfix},
			"implicit.example.com":    {ipPostfix},
			"aspmx.l.google.com":      {ipPostfix},
			"mx.silent.example.net":   {ipSilent},
			"mx.broken.example.net":   {ipBroken},
			"mx.refused.example.net":  {ipRefused},
			"mx.refusing.example.net": {ipRefusing},
			"mx.fake.example.net":     {ipFake},
		},
		AAAA:     map[string][]string{"nomail.example.com": nil},
		ServFail: []string{"servfail.example.com"},
		Silent:   []string{"dnstimeout.example.com"},
	}
}

// testSettings are short timeouts and waits so every case ends in about a second. The
// loopback test mail hosts are on the allow list, as FIRMO_FETCH_ALLOW_HOSTS puts them.
func testSettings(dnsAddr string, port int) Settings {
	var allow []string
	for _, ip := range []string{ipPostfix, ipSilent, ipBroken, ipRefused, ipRefusing, ipFake} {
		allow = append(allow, net.JoinHostPort(ip, strconv.Itoa(port)))
	}
	return Settings{
		Resolver:       dnsAddr,
		Port:           port,
		HELO:           "probe.firmo.test",
		From:           "verify@firmo.test",
		DNSTimeout:     400 * time.Millisecond,
		DialTimeout:    time.Second,
		CommandTimeout: time.Second,
		GreylistWait:   250 * time.Millisecond,
		CatchAllTTL:    time.Hour,
		HostInterval:   -1, // cases run in parallel against one MX host
		AllowHosts:     allow,
	}
}

func startPostfix(t *testing.T) *testkit.Postfix {
	t.Helper()
	return testkit.StartPostfix(t, testkit.PostfixConfig{
		Mailboxes: []string{
			"jane.doe@strict.example.com", "j.smith@strict.example.com",
			"@catchall.example.com",
			"jane.doe@grey.example.com", "jane.doe@greyforever.example.com",
			"jane.doe@busy.example.com", "jane.doe@closing.example.com",
			"jane.doe@backup.example.com", "jane.doe@implicit.example.com",
			"jane.doe@google.example.com",
		},
		Access: map[string]string{
			"greyforever.example.com": "450 4.7.1 Greylisted, please try again later",
			"busy.example.com":        "452 4.5.3 Too many recipients",
			"closing.example.com":     "421 4.7.0 Too many connections from your host, try later",
		},
		Greylist:      []string{"grey.example.com"},
		GreylistDelay: 600 * time.Millisecond,
		TLS:           true,
	})
}

type checkCase struct {
	name      string
	domain    string
	locals    []string
	opt       Options
	budget    time.Duration
	want      Status
	wantIndex int // accepted index when found
	wantCode  int
	wantMinAt int // minimum attempts
	catchAll  bool
	provider  string
	tls       bool // the host offers STARTTLS and a session got that far
}

func runChecks(t *testing.T, v *Verifier, cases []checkCase) {
	t.Helper()
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			budget := tc.budget
			if budget == 0 {
				budget = 5 * time.Second
			}
			ctx, cancel := context.WithTimeout(context.Background(), budget)
			defer cancel()
			got := v.Check(ctx, tc.domain, tc.locals, tc.opt)
			t.Logf("%s: %+v", tc.domain, got)
			if got.Status != tc.want {
				t.Fatalf("status = %s, want %s (detail: %s)", got.Status, tc.want, got.Detail)
			}
			if tc.want == Found && got.Accepted != tc.wantIndex {
				t.Errorf("accepted index = %d, want %d", got.Accepted, tc.wantIndex)
			}
			if tc.want != Found && got.Accepted != -1 {
				t.Errorf("accepted index = %d on %s, want -1", got.Accepted, got.Status)
			}
			if tc.wantCode != 0 && got.Code != tc.wantCode {
				t.Errorf("code = %d, want %d", got.Code, tc.wantCode)
			}
			if got.Attempts < tc.wantMinAt {
				t.Errorf("attempts = %d, want at least %d", got.Attempts, tc.wantMinAt)
			}
			if got.CatchAll != tc.catchAll {
				t.Errorf("catch-all = %v, want %v", got.CatchAll, tc.catchAll)
			}
			if got.Attempts > 0 && got.TLS != tc.tls {
				t.Errorf("TLS = %v, want %v", got.TLS, tc.tls)
			}
			if got.Provider != tc.provider {
				t.Errorf("provider = %q, want %q", got.Provider, tc.provider)
			}
		})
	}
}

// TestCheckPostfix holds real SMTP conversations with Postfix (STARTTLS included).
func TestCheckPostfix(t *testing.T) {
	pf := startPostfix(t)
	dns := testkit.StartDNS(t, zone())
	v := New(testSettings(dns.Addr, pf.Port))
	t.Run("cases", func(t *testing.T) {
		runChecks(t, v, []checkCase{
			{name: "found", domain: "strict.example.com", locals: []string{"jane", "jdoe", "jane.doe"}, want: Found, wantIndex: 2, wantCode: 250, wantMinAt: 1, tls: true},
			{name: "found second pattern", domain: "strict.example.com", locals: []string{"john.smith", "j.smith"}, want: Found, wantIndex: 1, wantCode: 250, tls: true},
			{name: "not found", domain: "strict.example.com", locals: []string{"nobody", "no.one"}, want: NotFound, wantCode: 550, wantMinAt: 1, tls: true},
			{name: "catch-all", domain: "catchall.example.com", locals: []string{"jane.doe"}, want: CatchAll, wantCode: 250, catchAll: true, tls: true},
			{name: "greylisted then found", domain: "grey.example.com", locals: []string{"jdoe", "jane.doe"}, want: Found, wantIndex: 1, wantCode: 250, wantMinAt: 2, tls: true},
			{name: "greylisted", domain: "greyforever.example.com", locals: []string{"jane.doe"}, budget: 2 * time.Second, want: Greylisted, wantCode: 450, wantMinAt: 2, tls: true},
			{name: "452 is rate limited, not catch-all", domain: "busy.example.com", locals: []string{"jane.doe"}, want: RateLimited, wantCode: 452, tls: true},
			{name: "421 is rate limited", domain: "closing.example.com", locals: []string{"jane.doe"}, want: RateLimited, wantCode: 421, tls: true},
			{name: "policy refusal is an error", domain: "notours.example.com", locals: []string{"jane.doe"}, want: Error, wantCode: 554, tls: true},
			{name: "implicit MX", domain: "implicit.example.com", locals: []string{"jane.doe"}, want: Found, wantCode: 250, tls: true},
			{name: "provider detected", domain: "google.example.com", locals: []string{"jane.doe"}, want: Found, wantCode: 250, provider: "google", tls: true},
		})
	})
	if _, cached := v.cache.get("busy.example.com"); cached {
		t.Error("a 452 to the probe was cached as a catch-all verdict")
	}
}

// TestCheckBackupMX falls through a refusing primary MX to the secondary one.
func TestCheckBackupMX(t *testing.T) {
	pf := startPostfix(t)
	dns := testkit.StartDNS(t, zone())
	v := New(testSettings(dns.Addr, pf.Port))
	got := v.Check(context.Background(), "backup.example.com", []string{"jane.doe"}, Options{})
	if got.Status != Found || got.MXHost != "mx.postfix.example.net" {
		t.Fatalf("got %+v, want found through mx.postfix.example.net", got)
	}
}

// freePort finds a port free on every test loopback address.
func freePort(t *testing.T) int {
	t.Helper()
	for attempt := 0; attempt < 20; attempt++ {
		l, err := net.Listen("tcp", ipPostfix+":0")
		if err != nil {
			t.Fatal(err)
		}
		port := l.Addr().(*net.TCPAddr).Port
		l.Close()
		ok := true
		for _, ip := range []string{ipSilent, ipBroken, ipRefused, ipRefusing, ipFake} {
			l, err := net.Listen("tcp", net.JoinHostPort(ip, strconv.Itoa(port)))
			if err != nil {
				ok = false
				break
			}
			l.Close()
		}
		if ok {
			return port
		}
	}
	t.Fatal("no port free on every loopback test address")
	return 0
}

// TestCheckNetworkAndDNS covers outcomes decided by DNS or by the TCP/SMTP layer.
func TestCheckNetworkAndDNS(t *testing.T) {
	dns := testkit.StartDNS(t, zone())
	port := freePort(t)
	listenFake(t, ipSilent, port, &fakeSMTP{})
	listenFake(t, ipBroken, port, &fakeSMTP{Raw: func(c net.Conn) {
		c.Write([]byte("HTTP/1.1 400 Bad Request\r\nContent-Length: 0\r\n\r\n"))
	}})
	listenFake(t, ipRefusing, port, &fakeSMTP{Greeting: "554 5.7.1 No SMTP service here"})
	v := New(testSettings(dns.Addr, port))
	runChecks(t, v, []checkCase{
		{name: "null MX", domain: "nullmx.example.com", locals: []string{"jane"}, want: Undeliverable},
		{name: "NXDOMAIN", domain: "missing.example.com", locals: []string{"jane"}, want: Undeliverable},
		{name: "no MX and no address", domain: "nomail.example.com", locals: []string{"jane"}, want: Undeliverable},
		{name: "connection refused", domain: "refused.example.com", locals: []string{"jane"}, want: Undeliverable, wantMinAt: 1},
		{name: "554 greeting", domain: "refusing.example.com", locals: []string{"jane"}, want: Undeliverable, wantCode: 554},
		{name: "silent host", domain: "silent.example.com", locals: []string{"jane"}, want: Timeout, wantMinAt: 1},
		{name: "silent DNS", domain: "dnstimeout.example.com", locals: []string{"jane"}, want: Timeout},
		{name: "not SMTP", domain: "broken.example.com", locals: []string{"jane"}, want: Error},
		{name: "SERVFAIL", domain: "servfail.example.com", locals: []string{"jane"}, want: Error},
	})
}

func TestCatchAllCacheAndProbes(t *testing.T) {
	dns := testkit.StartDNS(t, zone())
	port := freePort(t)
	// fake.example.com accepts every recipient; fake2.example.com none.
	f := &fakeSMTP{Greeting: "220 fake ESMTP", RCPT: func(addr string) string {
		if strings.HasSuffix(addr, "@fake2.example.com") {
			return "550 5.1.1 unknown"
		}
		return "250 2.1.5 Ok"
	}}
	listenFake(t, ipFake, port, f)
	v := New(testSettings(dns.Addr, port))
	ctx := context.Background()

	first := v.Check(ctx, "fake.example.com", []string{"jane.doe"}, Options{})
	if first.Status != CatchAll || first.Attempts != 1 || !first.CatchAll {
		t.Fatalf("first check: %+v, want catch_all in one session", first)
	}
	second := v.Check(ctx, "fake.example.com", []string{"john.roe"}, Options{})
	if second.Status != CatchAll || second.Attempts != 0 {
		t.Fatalf("second check: %+v, want catch_all from the cache without a session", second)
	}
	if n := f.sessions.Load(); n != 1 {
		t.Fatalf("sessions = %d, want 1 (the verdict is cached per domain)", n)
	}
	fresh := v.Check(ctx, "fake.example.com", []string{"john.roe"}, Options{FreshProbe: true})
	if fresh.Status != CatchAll || fresh.Attempts != 1 || f.sessions.Load() != 2 {
		t.Fatalf("fresh probe: %+v after %d sessions, want a new session", fresh, f.sessions.Load())
	}
	// fake2: every address rejected, so not catch-all; the verdict is cached too.
	nf := v.Check(ctx, "fake2.example.com", []string{"a", "b"}, Options{})
	if nf.Status != NotFound || nf.CatchAll {
		t.Fatalf("fake2: %+v, want not_found", nf)
	}
	if catchAll, ok := v.cache.get("fake2.example.com"); !ok || catchAll {
		t.Fatalf("fake2 cache = %v,%v; want a cached not-catch-all verdict", catchAll, ok)
	}
}

func TestTwoProbesCatchFirstRecipientTrick(t *testing.T) {
	dns := testkit.StartDNS(t, zone())
	port := freePort(t)
	f := &fakeSMTP{Raw: func(c net.Conn) {
		// Accepts the first RCPT of a session, rejects every later one.
		r := newLineReader(c)
		c.Write([]byte("220 trick ESMTP\r\n"))
		rcpts := 0
		for {
			line, err := r()
			if err != nil {
				return
			}
			cmd := strings.ToUpper(line)
			switch {
			case strings.HasPrefix(cmd, "EHLO"), strings.HasPrefix(cmd, "MAIL"), cmd == "RSET":
				c.Write([]byte("250 ok\r\n"))
			case strings.HasPrefix(cmd, "RCPT"):
				rcpts++
				if rcpts == 1 {
					c.Write([]byte("250 ok\r\n"))
				} else {
					c.Write([]byte("550 5.1.1 no such user\r\n"))
				}
			default:
				c.Write([]byte("221 bye\r\n"))
				return
			}
		}
	}}
	listenFake(t, ipFake, port, f)
	s := testSettings(dns.Addr, port)
	s.CatchAllTTL = -1 // no cache: both checks probe
	v := New(s)
	one := v.Check(context.Background(), "fake.example.com", []string{"jane.doe"}, Options{Probes: 1})
	if one.Status != CatchAll {
		t.Fatalf("one probe: %+v, want catch_all (the trick fools a single probe)", one)
	}
	two := v.Check(context.Background(), "fake.example.com", []string{"jane.doe"}, Options{Probes: 2})
	if two.Status != NotFound || two.CatchAll {
		t.Fatalf("two probes: %+v, want not_found and not catch-all", two)
	}
}

func newLineReader(c net.Conn) func() (string, error) {
	buf := make([]byte, 0, 512)
	one := make([]byte, 1)
	return func() (string, error) {
		buf = buf[:0]
		for {
			if _, err := c.Read(one); err != nil {
				return "", err
			}
			if one[0] == '\n' {
				return strings.TrimRight(string(buf), "\r"), nil
			}
			buf = append(buf, one[0])
		}
	}
}

func TestPerHostLimits(t *testing.T) {
	dns := testkit.StartDNS(t, zone())
	port := freePort(t)
	var mu sync.Mutex
	maxActive := int64(0)
	f := &fakeSMTP{Greeting: "220 fake ESMTP", Delay: 20 * time.Millisecond,
		RCPT: func(string) string { return "550 5.1.1 unknown" },
		OnStart: func(n int64) {
			mu.Lock()
			maxActive = max(maxActive, n)
			mu.Unlock()
		}}
	listenFake(t, ipFake, port, f)
	s := testSettings(dns.Addr, port)
	s.PerHost = 2
	s.HostInterval = 50 * time.Millisecond
	s.CatchAllTTL = -1
	v := New(s)
	var wg sync.WaitGroup
	for i := 0; i < 6; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if got := v.Check(context.Background(), "fake.example.com", []string{"a"}, Options{}); got.Status != NotFound {
				t.Errorf("got %+v, want not_found", got)
			}
		}()
	}
	wg.Wait()
	if maxActive > 2 {
		t.Errorf("max concurrent sessions on one host = %d, want <= 2", maxActive)
	}
	starts := f.sessionStarts()
	if len(starts) != 6 {
		t.Fatalf("sessions = %d, want 6", len(starts))
	}
	// Starts are reserved 50ms apart. Scheduling jitter between our dial and the
	// server's accept may move one start a little; without the interval, two sessions
	// of a wave would start together (a gap near zero).
	for i := 1; i < len(starts); i++ {
		if gap := starts[i].Sub(starts[i-1]); gap < 20*time.Millisecond {
			t.Errorf("session %d started %s after the previous one, want about 50ms", i, gap)
		}
	}
}

func TestCheckBudgetExpires(t *testing.T) {
	dns := testkit.StartDNS(t, zone())
	port := freePort(t)
	listenFake(t, ipSilent, port, &fakeSMTP{})
	s := testSettings(dns.Addr, port)
	s.CommandTimeout = time.Minute // the budget, not the command timeout, must end it
	v := New(s)
	ctx, cancel := context.WithTimeout(context.Background(), 300*time.Millisecond)
	defer cancel()
	start := time.Now()
	got := v.Check(ctx, "silent.example.com", []string{"jane"}, Options{})
	if got.Status != Timeout {
		t.Fatalf("got %+v, want timeout", got)
	}
	if el := time.Since(start); el > 5*time.Second {
		t.Errorf("check took %s after a 300ms budget", el)
	}
}
