package fetch_test

import (
	"bytes"
	"compress/gzip"
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/firmoapi/firmo/shared/apperr"
	"github.com/firmoapi/firmo/shared/fetch"
)

// fakeDNS answers from a table; a name with several answers lists them all. A name
// listed in seq answers the next entry on each lookup (DNS rebinding).
type fakeDNS struct {
	mu      sync.Mutex
	table   map[string][]string
	seq     map[string][]string
	lookups map[string]int
}

func (f *fakeDNS) LookupIPAddr(ctx context.Context, host string) ([]net.IPAddr, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.lookups == nil {
		f.lookups = map[string]int{}
	}
	f.lookups[host]++
	answers, ok := f.table[host]
	if s, isSeq := f.seq[host]; isSeq {
		i := f.lookups[host] - 1
		if i >= len(s) {
			i = len(s) - 1
		}
		answers, ok = []string{s[i]}, true
	}
	if !ok {
		return nil, &net.DNSError{Err: "no such host", Name: host, IsNotFound: true}
	}
	var out []net.IPAddr
	for _, a := range answers {
		out = append(out, net.IPAddr{IP: net.ParseIP(a)})
	}
	return out, nil
}

func hostPort(t *testing.T, srv *httptest.Server) string {
	t.Helper()
	u, err := url.Parse(srv.URL)
	if err != nil {
		t.Fatal(err)
	}
	return u.Host
}

// wantCode asserts a client-facing 400 with the code and a message containing want.
func wantCode(t *testing.T, err error, code, want string) {
	t.Helper()
	var ae *apperr.Error
	if !errors.As(err, &ae) {
		t.Fatalf("err = %v (%T), want *apperr.Error %s", err, err, code)
	}
	if !errors.Is(err, apperr.ErrBadRequest) || apperr.Status(err) != http.StatusBadRequest {
		t.Fatalf("err = %v, want a 400 (ErrBadRequest)", err)
	}
	if ae.Code != code {
		t.Fatalf("code = %q, want %q (message %q)", ae.Code, code, ae.Message)
	}
	if !strings.Contains(ae.Message, want) {
		t.Fatalf("message = %q, want it to mention %q", ae.Message, want)
	}
}

func TestBlocked(t *testing.T) {
	tests := []struct {
		ip   string
		want string
	}{
		{"8.8.8.8", ""},
		{"93.184.216.34", ""},
		{"2606:4700::1111", ""},
		{"127.0.0.1", "loopback address"},
		{"127.8.9.10", "loopback address"},
		{"::1", "loopback address"},
		{"10.0.0.5", "private address"},
		{"172.16.3.4", "private address"},
		{"172.31.255.255", "private address"},
		{"172.32.0.1", ""},
		{"192.168.1.1", "private address"},
		{"fc00::1", "private address"},
		{"fd12:3456::1", "private address"},
		{"169.254.1.1", "link-local address"},
		{"fe80::1", "link-local address"},
		{"169.254.169.254", "cloud metadata address"},
		{"fd00:ec2::254", "cloud metadata address"},
		{"100.100.100.200", "cloud metadata address"},
		{"100.64.0.1", "carrier-grade NAT address"},
		{"100.127.255.254", "carrier-grade NAT address"},
		{"0.0.0.0", "unspecified address"},
		{"0.1.2.3", "unspecified address"},
		{"::", "unspecified address"},
		{"224.0.0.1", "multicast address"},
		{"ff02::1", "multicast address"},
		{"255.255.255.255", "broadcast address"},
		{"240.0.0.1", "reserved address"},
		{"::ffff:127.0.0.1", "loopback address"},
		{"::ffff:169.254.169.254", "cloud metadata address"},
		{"64:ff9b::a00:5", "private address"},  // NAT64 of 10.0.0.5
		{"2002:7f00:1::1", "loopback address"}, // 6to4 of 127.0.0.1
		{"2002:808:808::1", ""},                // 6to4 of 8.8.8.8
		{"64:ff9b::808:808", ""},               // NAT64 of 8.8.8.8
	}
	for _, tt := range tests {
		t.Run(tt.ip, func(t *testing.T) {
			if got := fetch.Blocked(net.ParseIP(tt.ip)); got != tt.want {
				t.Errorf("Blocked(%s) = %q, want %q", tt.ip, got, tt.want)
			}
		})
	}
}

func TestGetAllowedLocalServer(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/old" {
			http.Redirect(w, r, "/new", http.StatusMovedPermanently)
			return
		}
		w.Header().Set("Content-Type", "text/html")
		fmt.Fprintf(w, "<p>hello %s %s</p>", r.URL.Path, r.Header.Get("User-Agent"))
	}))
	defer srv.Close()
	c := fetch.New(fetch.Options{AllowHosts: []string{hostPort(t, srv)}, UserAgent: "test-agent"})
	got, err := c.Get(context.Background(), srv.URL+"/old")
	if err != nil {
		t.Fatal(err)
	}
	if got.Status != 200 || got.FinalURL != srv.URL+"/new" || string(got.Body) != "<p>hello /new test-agent</p>" || got.Header.Get("Content-Type") != "text/html" {
		t.Fatalf("got %+v body %q", got, got.Body)
	}
	if err := c.Check(context.Background(), srv.URL); err != nil {
		t.Fatalf("Check on an allowed host: %v", err)
	}
}

func TestRefusals(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		fmt.Fprint(w, "secret")
	}))
	defer srv.Close()
	dns := &fakeDNS{table: map[string][]string{
		"internal.test": {"10.0.0.5"},
		"meta.test":     {"169.254.169.254"},
		"meta6.test":    {"fd00:ec2::254"},
		"mixed.test":    {"93.184.216.34", "192.168.0.10"},
		"local.test":    {"127.0.0.1"},
		"cgnat.test":    {"100.64.1.2"},
	}}
	c := fetch.New(fetch.Options{Resolver: dns, Timeout: 2 * time.Second})
	tests := []struct {
		name, url, code, want string
	}{
		{"loopback literal", srv.URL, fetch.CodeRefused, "127.0.0.1: loopback address"},
		{"localhost name", "http://localhost/", fetch.CodeFailed, "does not resolve"}, // the fake DNS does not know it
		{"private literal", "http://10.0.0.5/", fetch.CodeRefused, "refusing to fetch 10.0.0.5: private address"},
		{"metadata literal", "http://169.254.169.254/latest/meta-data/", fetch.CodeRefused, "cloud metadata address"},
		{"metadata ipv6 literal", "http://[fd00:ec2::254]/", fetch.CodeRefused, "cloud metadata address"},
		{"link-local literal", "http://169.254.10.1/", fetch.CodeRefused, "link-local address"},
		{"ipv6 loopback", "http://[::1]:8080/", fetch.CodeRefused, "loopback address"},
		{"mapped loopback", "http://[::ffff:127.0.0.1]/", fetch.CodeRefused, "loopback address"},
		{"dns to private", "https://internal.test/", fetch.CodeRefused, "internal.test: it resolves to 10.0.0.5, a private address"},
		{"dns to metadata", "http://meta.test/", fetch.CodeRefused, "it resolves to 169.254.169.254, a cloud metadata address"},
		{"dns to metadata v6", "http://meta6.test/", fetch.CodeRefused, "cloud metadata address"},
		{"dns with one private answer", "http://mixed.test/", fetch.CodeRefused, "192.168.0.10, a private address"},
		{"dns to loopback", "http://local.test:" + srv.URL[strings.LastIndex(srv.URL, ":")+1:] + "/", fetch.CodeRefused, "loopback address"},
		{"dns to cgnat", "http://cgnat.test/", fetch.CodeRefused, "carrier-grade NAT address"},
		{"ftp", "ftp://example.com/file", fetch.CodeRefused, "only http and https"},
		{"file", "file:///etc/passwd", fetch.CodeRefused, "only http and https"},
		{"gopher", "gopher://10.0.0.1:70/", fetch.CodeRefused, "only http and https"},
		{"relative", "/etc/passwd", fetch.CodeRefused, "not an absolute"},
		{"no host", "http:///path", fetch.CodeRefused, "has no host"},
		{"unknown host", "http://nowhere.test/", fetch.CodeFailed, "does not resolve"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := c.Get(context.Background(), tt.url)
			wantCode(t, err, tt.code, tt.want)
			wantCode(t, c.Check(context.Background(), tt.url), tt.code, tt.want)
		})
	}
}

func TestCheckPublic(t *testing.T) {
	dns := &fakeDNS{table: map[string][]string{"example.test": {"93.184.216.34", "2606:2800:220:1:248:1893:25c8:1946"}}}
	c := fetch.New(fetch.Options{Resolver: dns})
	for _, u := range []string{"https://example.test/v1", "http://example.test:8443/", "https://8.8.8.8/"} {
		if err := c.Check(context.Background(), u); err != nil {
			t.Errorf("Check(%s) = %v, want nil", u, err)
		}
	}
}

// The dial resolves again and connects to the address it vetted: a name whose second
// answer turns private (DNS rebinding) is refused at connection time.
func TestDNSRebindingRefusedAtDial(t *testing.T) {
	dns := &fakeDNS{seq: map[string][]string{"rebind.test": {"93.184.216.34", "127.0.0.1"}}}
	c := fetch.New(fetch.Options{Resolver: dns, Timeout: 2 * time.Second})
	_, err := c.Get(context.Background(), "http://rebind.test/")
	wantCode(t, err, fetch.CodeRefused, "rebind.test: it resolves to 127.0.0.1, a loopback address")
	if dns.lookups["rebind.test"] != 2 {
		t.Fatalf("lookups = %d, want 2 (check, then dial)", dns.lookups["rebind.test"])
	}
}

// An allowed name is dialled at the address the client's resolver gives, while TLS
// and the Host header keep the name.
func TestDialsResolvedAddressKeepingHost(t *testing.T) {
	var gotHost string
	srv := httptest.NewTLSServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		gotHost = r.Host
		fmt.Fprint(w, "ok")
	}))
	defer srv.Close()
	port := srv.URL[strings.LastIndex(srv.URL, ":")+1:]
	dns := &fakeDNS{table: map[string][]string{"site.test": {"127.0.0.1"}}}
	c := fetch.New(fetch.Options{Resolver: dns, AllowHosts: []string{"site.test:" + port}})
	_, err := c.Get(context.Background(), "https://site.test:"+port+"/")
	// The test server's certificate names example.com, not site.test: the TLS
	// failure proves SNI/verification used the URL's name, not the dialled IP.
	if err == nil || !strings.Contains(err.Error(), "cannot fetch") {
		t.Fatalf("err = %v, want a TLS verification failure", err)
	}
	plain := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		gotHost = r.Host
		fmt.Fprint(w, "ok")
	}))
	defer plain.Close()
	pport := plain.URL[strings.LastIndex(plain.URL, ":")+1:]
	c = fetch.New(fetch.Options{Resolver: dns, AllowHosts: []string{"site.test:" + pport}})
	got, err := c.Get(context.Background(), "http://site.test:"+pport+"/")
	if err != nil {
		t.Fatal(err)
	}
	if string(got.Body) != "ok" || gotHost != "site.test:"+pport {
		t.Fatalf("body %q host %q, want ok and site.test:%s", got.Body, gotHost, pport)
	}
}

func TestRedirectRefusals(t *testing.T) {
	inner := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		fmt.Fprint(w, "internal secret")
	}))
	defer inner.Close()
	outer := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/to-loopback":
			http.Redirect(w, r, inner.URL+"/", http.StatusFound)
		case "/to-metadata":
			http.Redirect(w, r, "http://169.254.169.254/latest/meta-data/iam/", http.StatusFound)
		case "/to-metadata-name":
			http.Redirect(w, r, "http://meta.test/latest/", http.StatusTemporaryRedirect)
		case "/to-file":
			http.Redirect(w, r, "file:///etc/passwd", http.StatusFound)
		case "/loop":
			http.Redirect(w, r, "/loop", http.StatusFound)
		}
	}))
	defer outer.Close()
	dns := &fakeDNS{table: map[string][]string{"meta.test": {"169.254.169.254"}}}
	c := fetch.New(fetch.Options{Resolver: dns, AllowHosts: []string{hostPort(t, outer)}, MaxRedirects: 3, Timeout: 2 * time.Second})
	tests := []struct{ path, code, want string }{
		{"/to-loopback", fetch.CodeRefused, "127.0.0.1: loopback address (redirected from " + outer.URL + "/to-loopback)"},
		{"/to-metadata", fetch.CodeRefused, "169.254.169.254: cloud metadata address"},
		{"/to-metadata-name", fetch.CodeRefused, "meta.test: it resolves to 169.254.169.254"},
		{"/to-file", fetch.CodeRefused, "only http and https"},
		{"/loop", fetch.CodeFailed, "stopped after 3 redirects"},
	}
	for _, tt := range tests {
		t.Run(tt.path, func(t *testing.T) {
			_, err := c.Get(context.Background(), outer.URL+tt.path)
			wantCode(t, err, tt.code, tt.want)
		})
	}
	noRedirects := fetch.New(fetch.Options{AllowHosts: []string{hostPort(t, outer)}, MaxRedirects: -1})
	got, err := noRedirects.Get(context.Background(), outer.URL+"/to-loopback")
	if err != nil || got.Status != http.StatusFound {
		t.Fatalf("MaxRedirects -1: %v %+v, want the 302 itself", err, got)
	}
}

func TestSizeLimit(t *testing.T) {
	big := bytes.Repeat([]byte("a"), 300<<10)
	var gz bytes.Buffer
	zw := gzip.NewWriter(&gz)
	zw.Write(bytes.Repeat([]byte{0}, 50<<20)) // 50 MiB of zeros, ~50 KiB compressed
	zw.Close()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/length":
			w.Write(big) // with Content-Length
		case "/chunked":
			for i := 0; i < 300; i++ {
				w.Write(big[:1<<10])
				w.(http.Flusher).Flush()
			}
		case "/gzip":
			w.Header().Set("Content-Encoding", "gzip")
			w.Write(gz.Bytes())
		case "/small":
			w.Write(big[:100<<10])
		}
	}))
	defer srv.Close()
	c := fetch.New(fetch.Options{AllowHosts: []string{hostPort(t, srv)}, MaxBytes: 200 << 10})
	for _, p := range []string{"/length", "/chunked", "/gzip"} {
		t.Run(p, func(t *testing.T) {
			_, err := c.Get(context.Background(), srv.URL+p)
			wantCode(t, err, fetch.CodeTooLarge, "larger than the 200 KiB fetch limit")
		})
	}
	got, err := c.Get(context.Background(), srv.URL+"/small")
	if err != nil || len(got.Body) != 100<<10 {
		t.Fatalf("small page: %v, %d bytes", err, len(got.Body))
	}
}

func TestStallingServerTimesOut(t *testing.T) {
	release := make(chan struct{})
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/headers": // never answers
		case "/drip": // answers headers, then a byte now and then, for ever
			w.Write([]byte("<html>"))
			for {
				w.(http.Flusher).Flush()
				select {
				case <-time.After(50 * time.Millisecond):
					w.Write([]byte("."))
				case <-r.Context().Done():
					return
				case <-release:
					return
				}
			}
		}
		select {
		case <-r.Context().Done():
		case <-release:
		}
	}))
	defer srv.Close()
	defer close(release)
	c := fetch.New(fetch.Options{AllowHosts: []string{hostPort(t, srv)}, Timeout: 300 * time.Millisecond})
	for _, p := range []string{"/headers", "/drip"} {
		t.Run(p, func(t *testing.T) {
			done := make(chan error, 1)
			go func() {
				_, err := c.Get(context.Background(), srv.URL+p)
				done <- err
			}()
			select {
			case err := <-done:
				wantCode(t, err, fetch.CodeTimeout, "did not answer within 300ms")
			case <-time.After(10 * time.Second):
				t.Fatal("Get hangs on a stalling server")
			}
		})
	}
}

func TestUpstreamStatusIsReturned(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		http.Error(w, "gone", http.StatusNotFound)
	}))
	defer srv.Close()
	c := fetch.New(fetch.Options{AllowHosts: []string{"127.0.0.1"}})
	got, err := c.Get(context.Background(), srv.URL+"/missing")
	if err != nil || got.Status != 404 {
		t.Fatalf("got %v %+v, want status 404 without error", err, got)
	}
}

func TestConnectionRefused(t *testing.T) {
	srv := httptest.NewServer(http.NotFoundHandler())
	addr := srv.URL
	srv.Close() // nothing listens there any more
	c := fetch.New(fetch.Options{AllowHosts: []string{"127.0.0.1"}, Timeout: 2 * time.Second})
	_, err := c.Get(context.Background(), addr)
	wantCode(t, err, fetch.CodeFailed, "could not be made")
}

func TestLocalhostWithSystemResolver(t *testing.T) {
	c := fetch.New(fetch.Options{Timeout: 2 * time.Second})
	_, err := c.Get(context.Background(), "http://localhost:1/")
	wantCode(t, err, fetch.CodeRefused, "localhost: it resolves to")
	wantCode(t, err, fetch.CodeRefused, "loopback address")
}
