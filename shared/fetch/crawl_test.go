package fetch_test

import (
	"context"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/firmoapi/firmo/shared/dnsmx"
	"github.com/firmoapi/firmo/shared/fetch"
)

// TestCrawlerOnALoopbackSite serves a site under a made-up name on loopback: the name
// resolves through the DNS server the client is given, the allow-listed host:port
// makes the crawl start over plain http, robots.txt is read once and honoured, and
// its Crawl-delay spaces the requests to the host.
func TestCrawlerOnALoopbackSite(t *testing.T) {
	var mu sync.Mutex
	var hits []string
	var times []time.Time
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		hits = append(hits, r.Host+r.URL.Path)
		if r.URL.Path != "/robots.txt" {
			times = append(times, time.Now())
		}
		mu.Unlock()
		switch r.URL.Path {
		case "/robots.txt":
			w.Write([]byte("User-agent: FirmoBot\nDisallow: /private\nCrawl-delay: 0.3\n\nUser-agent: *\nDisallow: /\n"))
		default:
			w.Write([]byte("<html><body>" + r.URL.Path + "</body></html>"))
		}
	}))
	defer srv.Close()
	_, port, _ := net.SplitHostPort(hostPort(t, srv))

	zone := &dnsmx.MapZone{}
	zone.Set(map[string]dnsmx.Answer{"acme-test.io": {A: []net.IP{net.ParseIP("127.0.0.1")}}})
	dns, err := dnsmx.Serve("127.0.0.1:0", zone)
	if err != nil {
		t.Fatal(err)
	}
	defer dns.Close()

	c := fetch.New(fetch.Options{AllowHosts: []string{"acme-test.io:" + port}, Resolver: fetch.DNSServer(dns.Addr()), WebPortsOnly: true})
	k := fetch.NewCrawler(c, fetch.CrawlOptions{})
	origin := k.Origin("acme-test.io")
	if origin != "http://acme-test.io:"+port {
		t.Fatalf("origin %q, want http://acme-test.io:%s", origin, port)
	}
	if got := k.Origin("example.com"); got != "https://example.com" {
		t.Errorf("origin of a host not allow-listed: %q", got)
	}
	ctx := context.Background()
	for _, p := range []string{"/", "/team/"} {
		resp, err := k.Get(ctx, origin+p)
		if err != nil || resp.Status != 200 || !strings.Contains(string(resp.Body), p) {
			t.Fatalf("%s: %v %+v", p, err, resp)
		}
	}
	_, err = k.Get(ctx, origin+"/private/board")
	wantCode(t, err, fetch.CodeDisallowed, "robots.txt")

	mu.Lock()
	defer mu.Unlock()
	robots := 0
	for _, h := range hits {
		if strings.HasSuffix(h, "/robots.txt") {
			robots++
		}
		if !strings.HasPrefix(h, "acme-test.io:"+port) {
			t.Errorf("request for %s: want the Host header acme-test.io:%s", h, port)
		}
	}
	if robots != 1 || len(times) != 2 {
		t.Fatalf("robots.txt read %d times, pages %d (%v); want 1 and 2", robots, len(times), hits)
	}
	if gap := times[1].Sub(times[0]); gap < 300*time.Millisecond {
		t.Errorf("two requests %s apart; the Crawl-delay is 0.3 s", gap)
	}
}

// TestWebPortsOnly: a crawl fetches public hosts on 80 and 443 only; an allow-listed
// host:port is the one exception.
func TestWebPortsOnly(t *testing.T) {
	dns := &fakeDNS{table: map[string][]string{"pub.example": {"93.184.216.34"}}}
	c := fetch.New(fetch.Options{Resolver: dns, WebPortsOnly: true})
	_, err := c.Get(context.Background(), "http://pub.example:8080/team")
	wantCode(t, err, fetch.CodeRefused, "only ports 80 and 443")
	if dns.lookups["pub.example"] != 0 {
		t.Errorf("the name was resolved before the port was refused")
	}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { w.Write([]byte("ok")) }))
	defer srv.Close()
	c = fetch.New(fetch.Options{AllowHosts: []string{hostPort(t, srv)}, WebPortsOnly: true})
	if resp, err := c.Get(context.Background(), srv.URL); err != nil || string(resp.Body) != "ok" {
		t.Fatalf("allow-listed host:port: %v", err)
	}
	// Without WebPortsOnly (an LLM base URL, a CRM) another port of a public host is
	// not refused for its port.
	c = fetch.New(fetch.Options{Resolver: dns, Timeout: 50 * time.Millisecond})
	if err := c.Check(context.Background(), "http://pub.example:8080/v1"); err != nil {
		t.Errorf("check without WebPortsOnly: %v", err)
	}
}
