package httpapi_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/firmoapi/firmo/shared/account"
	"github.com/firmoapi/firmo/shared/apperr"
	"github.com/firmoapi/firmo/shared/extract"
	"github.com/firmoapi/firmo/shared/fetch"
	"github.com/firmoapi/firmo/shared/httpapi"
	"github.com/firmoapi/firmo/shared/httpapi/companyhttp"
)

// planAuth authenticates the key "<plan>-key" as an organisation on that plan.
type planAuth struct{}

func (planAuth) Authenticate(ctx context.Context, secret string) (account.Principal, error) {
	plan, err := account.ParsePlan(strings.TrimSuffix(secret, "-key"))
	if err != nil {
		return account.Principal{}, apperr.New(apperr.ErrUnauthorized, "bad key")
	}
	return account.Principal{Org: account.Org{ID: "org-" + string(plan), Plan: plan}, User: account.User{Role: account.RoleAdmin}, Via: account.ViaKey}, nil
}

func (planAuth) SessionPrincipal(ctx context.Context, token string) (account.Principal, error) {
	return account.Principal{}, apperr.New(apperr.ErrUnauthorized, "no sessions here")
}

var (
	extractor     *extract.Extractor
	extractorOnce sync.Once
)

func sharedExtractor() *extract.Extractor {
	extractorOnce.Do(func() { extractor = extract.New() })
	return extractor
}

type reply struct {
	status int
	body   map[string]any
	raw    string
}

func (r reply) errField(key string) string {
	e, _ := r.body["error"].(map[string]any)
	s, _ := e[key].(string)
	return s
}

func serve(t *testing.T, routes []httpapi.Route) *httptest.Server {
	t.Helper()
	s := httpapi.NewServer(httpapi.Deps{Log: slog.New(slog.NewTextHandler(io.Discard, nil)), Auth: planAuth{}, MaxBody: 1 << 20})
	s.Add(routes...)
	srv := httptest.NewServer(s.Handler())
	t.Cleanup(srv.Close)
	return srv
}

func call(t *testing.T, srv *httptest.Server, key, query string) reply {
	t.Helper()
	req, _ := http.NewRequest("GET", srv.URL+"/v1/extract?"+query, nil)
	req.Header.Set("x-service-key", key)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	raw, _ := io.ReadAll(resp.Body)
	r := reply{status: resp.StatusCode, raw: string(raw)}
	json.Unmarshal(raw, &r.body)
	return r
}

// fakeDNS answers from a table.
type fakeDNS map[string]string

func (f fakeDNS) LookupIPAddr(ctx context.Context, host string) ([]net.IPAddr, error) {
	ip, ok := f[host]
	if !ok {
		return nil, &net.DNSError{Err: "no such host", Name: host, IsNotFound: true}
	}
	return []net.IPAddr{{IP: net.ParseIP(ip)}}, nil
}

func hostOf(t *testing.T, s *httptest.Server) string {
	u, err := url.Parse(s.URL)
	if err != nil {
		t.Fatal(err)
	}
	return u.Host
}

func TestExtractLive(t *testing.T) {
	page, err := os.ReadFile("../extract/testdata/pages/saas-de.html")
	if err != nil {
		t.Fatal(err)
	}
	release := make(chan struct{})
	site := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/":
			w.Header().Set("Content-Type", "text/html; charset=utf-8")
			w.Write(page)
		case "/moved":
			http.Redirect(w, r, "/", http.StatusMovedPermanently)
		case "/big":
			w.Header().Set("Content-Type", "text/html")
			for i := 0; i < 100; i++ {
				w.Write(page)
			}
		case "/stall":
			select {
			case <-r.Context().Done():
			case <-release:
			}
		case "/missing":
			http.NotFound(w, r)
		case "/logo.png":
			w.Header().Set("Content-Type", "image/png")
			w.Write([]byte("\x89PNG\r\n\x1a\n"))
		}
	}))
	defer site.Close()
	defer close(release)
	private := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		fmt.Fprint(w, "<p>internal admin console</p>")
	}))
	defer private.Close()
	redirector := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/to-private":
			http.Redirect(w, r, private.URL+"/", http.StatusFound)
		case "/to-metadata":
			http.Redirect(w, r, "http://169.254.169.254/latest/meta-data/", http.StatusFound)
		}
	}))
	defer redirector.Close()

	client := fetch.New(fetch.Options{
		// The test servers listen on loopback; only these two are admitted, as
		// FIRMO_FETCH_ALLOW_HOSTS would admit them. private is not.
		AllowHosts: []string{hostOf(t, site), hostOf(t, redirector)},
		Resolver:   fakeDNS{"intranet.test": "10.1.2.3", "metadata.test": "169.254.169.254", "ll.test": "fe80::1"},
		MaxBytes:   1 << 20,
		Timeout:    500 * time.Millisecond,
	})
	srv := serve(t, companyhttp.ExtractRoutes(client, sharedExtractor(), nil))

	ok := call(t, srv, "starter-key", "url="+url.QueryEscape(site.URL+"/moved"))
	if ok.status != 200 || ok.body["language"] != "deu" || !strings.Contains(ok.body["text"].(string), "Lumora ist die Buchhaltungssoftware") {
		t.Fatalf("extract = %d %s", ok.status, ok.raw)
	}
	if len(ok.body) != 2 {
		t.Errorf("answer has fields %v, want language and text", ok.body)
	}

	tests := []struct {
		name, query string
		status      int
		code, want  string
	}{
		{"loopback", "url=" + url.QueryEscape(private.URL+"/"), 400, fetch.CodeRefused, "loopback address"},
		{"private", "url=http://10.0.0.5/", 400, fetch.CodeRefused, "10.0.0.5: private address"},
		{"link-local", "url=http://169.254.7.7/", 400, fetch.CodeRefused, "link-local address"},
		{"metadata", "url=http://169.254.169.254/latest/meta-data/", 400, fetch.CodeRefused, "cloud metadata address"},
		{"metadata ipv6", "url=" + url.QueryEscape("http://[fd00:ec2::254]/"), 400, fetch.CodeRefused, "cloud metadata address"},
		{"redirect to loopback", "url=" + url.QueryEscape(redirector.URL+"/to-private"), 400, fetch.CodeRefused, "loopback address (redirected from"},
		{"redirect to metadata", "url=" + url.QueryEscape(redirector.URL+"/to-metadata"), 400, fetch.CodeRefused, "cloud metadata address (redirected from"},
		{"dns to private", "url=https://intranet.test/", 400, fetch.CodeRefused, "intranet.test: it resolves to 10.1.2.3, a private address"},
		{"dns to metadata", "url=http://metadata.test/", 400, fetch.CodeRefused, "it resolves to 169.254.169.254, a cloud metadata address"},
		{"dns to link-local", "url=http://ll.test/", 400, fetch.CodeRefused, "link-local address"},
		{"oversized", "url=" + url.QueryEscape(site.URL+"/big"), 400, fetch.CodeTooLarge, "larger than the 1 MiB fetch limit"},
		{"stalling", "url=" + url.QueryEscape(site.URL+"/stall"), 400, fetch.CodeTimeout, "did not answer within 500ms"},
		{"upstream 404", "url=" + url.QueryEscape(site.URL+"/missing"), 400, fetch.CodeFailed, "answered HTTP 404"},
		{"not html", "url=" + url.QueryEscape(site.URL+"/logo.png"), 400, "not_html", "image/png"},
		{"free plan", "url=" + url.QueryEscape(site.URL+"/"), 403, "plan_required", "STARTER"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			key := "starter-key"
			if tt.code == "plan_required" {
				key = "free-key"
			}
			done := make(chan reply, 1)
			go func() { done <- call(t, srv, key, tt.query) }()
			var got reply
			select {
			case got = <-done:
			case <-time.After(10 * time.Second):
				t.Fatal("extract hangs")
			}
			if got.status != tt.status || got.errField("code") != tt.code || !strings.Contains(got.errField("message"), tt.want) {
				t.Fatalf("got %d %s, want %d %s mentioning %q", got.status, got.raw, tt.status, tt.code, tt.want)
			}
			if strings.Contains(got.raw, "internal admin console") {
				t.Fatal("the private page leaked")
			}
		})
	}
}

func TestExtractValidation(t *testing.T) {
	srv := serve(t, companyhttp.ExtractRoutes(&fakeFetcher{}, sharedExtractor(), nil))
	tests := []struct {
		query, field string
	}{
		{"", "url"},
		{"url=", "url"},
		{"domain=", "domain"},
		{"url=https://a.com/&domain=a.com", "domain"},
		{"url=ftp://a.com/file", "url"},
		{"url=a.com/about", "url"},
		{"url=https:///nohost", "url"},
		{"url=" + strings.Repeat("a", 2100), "url"},
		{"url=https://a.com/&url=https://b.com/", "url"},
		{"domain=not+a+domain", "domain"},
		{"domain=localhost", "domain"},
		{"domain=10.0.0.1", "domain"},
		{"page=https://a.com/", "page"},
	}
	for _, tt := range tests {
		t.Run(tt.query, func(t *testing.T) {
			got := call(t, srv, "pro-key", tt.query)
			if got.status != 422 || got.errField("code") != "validation_error" || got.errField("field") != tt.field {
				t.Fatalf("got %d %s, want 422 naming %s", got.status, got.raw, tt.field)
			}
		})
	}
}

// fakeFetcher serves one page for any URL and records what was asked.
type fakeFetcher struct {
	mu   sync.Mutex
	urls []string
	page string
}

func (f *fakeFetcher) Get(ctx context.Context, rawURL string) (*fetch.Response, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.urls = append(f.urls, rawURL)
	return &fetch.Response{FinalURL: rawURL, Status: 200, Header: http.Header{"Content-Type": {"text/html"}}, Body: []byte(f.page)}, nil
}

// homepages is a cache of home pages by domain.
type homepages struct {
	pages map[string]string
	asked []string
	err   error
}

func (h *homepages) Homepage(ctx context.Context, dom string) ([]byte, string, error) {
	h.asked = append(h.asked, dom)
	if h.err != nil {
		return nil, "", h.err
	}
	p, ok := h.pages[dom]
	if !ok {
		return nil, "", fmt.Errorf("homepage of %s: %w", dom, apperr.ErrNotFound)
	}
	return []byte(p), "https://" + dom + "/", nil
}

func TestExtractDomain(t *testing.T) {
	const cached = `<html><body><p>Wij ontwikkelen software voor woningcorporaties en helpen hen om onderhoud, verhuur en financiën op één plek te beheren.</p></body></html>`
	const live = `<html><body><p>Nous fabriquons des meubles en bois massif dans notre atelier de Bretagne depuis quarante ans.</p></body></html>`
	f := &fakeFetcher{page: live}
	home := &homepages{pages: map[string]string{"example.co.uk": cached}}
	srv := serve(t, companyhttp.ExtractRoutes(f, sharedExtractor(), home))

	got := call(t, srv, "enterprise-key", "domain="+url.QueryEscape("https://WWW.Shop.Example.co.uk/about"))
	if got.status != 200 || got.body["language"] != "nld" || !strings.Contains(got.body["text"].(string), "woningcorporaties") {
		t.Fatalf("cached = %d %s", got.status, got.raw)
	}
	if len(f.urls) != 0 || strings.Join(home.asked, ",") != "example.co.uk" {
		t.Fatalf("fetched %v, asked cache %v: want the cache only, under the registrable domain", f.urls, home.asked)
	}

	got = call(t, srv, "starter-key", "domain=atelier.fr")
	if got.status != 200 || got.body["language"] != "fra" {
		t.Fatalf("live = %d %s", got.status, got.raw)
	}
	if strings.Join(f.urls, ",") != "https://atelier.fr/" {
		t.Fatalf("fetched %v, want https://atelier.fr/ after a cache miss", f.urls)
	}

	// A cache that fails (not a miss) is an internal error, not a silent live fetch.
	home.err = errors.New("disk on fire")
	got = call(t, srv, "starter-key", "domain=example.co.uk")
	if got.status != 500 || strings.Contains(got.raw, "disk on fire") {
		t.Fatalf("cache failure = %d %s, want 500 without detail", got.status, got.raw)
	}

	// No cache configured: always live.
	f.urls = nil
	srv = serve(t, companyhttp.ExtractRoutes(f, sharedExtractor(), nil))
	if got = call(t, srv, "starter-key", "domain=example.co.uk"); got.status != 200 || strings.Join(f.urls, ",") != "https://example.co.uk/" {
		t.Fatalf("no cache = %d %s, fetched %v", got.status, got.raw, f.urls)
	}
}
