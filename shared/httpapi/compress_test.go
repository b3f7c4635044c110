package httpapi_test

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/firmoapi/firmo/shared/httpapi"
)

func TestAcceptsGzip(t *testing.T) {
	for _, tc := range []struct {
		header []string // Accept-Encoding lines; nil: none
		want   bool
	}{
		{nil, false},
		{[]string{""}, false},
		{[]string{"gzip"}, true},
		{[]string{"GZip"}, true},
		{[]string{"x-gzip"}, true},
		{[]string{"gzip, deflate, br"}, true},
		{[]string{"br", "gzip;q=0.5"}, true}, // several header lines
		{[]string{"br, deflate"}, false},
		{[]string{"gzip;q=0"}, false},
		{[]string{"gzip; q=0.000"}, false},
		{[]string{"gzip;q=0.001"}, true},
		{[]string{"*"}, true},
		{[]string{"*;q=0"}, false},
		{[]string{"*, gzip;q=0"}, false},              // the specific entry wins over *
		{[]string{"identity;q=1, gzip;q=0.5"}, false}, // identity preferred
		{[]string{"identity;q=0.5, gzip;q=0.5"}, true},
		{[]string{"identity;q=0"}, false},      // gzip not listed, no *
		{[]string{"*;q=1, gzip;q=0.5"}, false}, // * covers identity
		{[]string{"gzip;q=abc"}, false},        // unreadable q: the item is ignored
		{[]string{"gzip;q=2"}, false},
		{[]string{"deflate;q=1, gzip;q=0.8, *;q=0.1"}, true},
	} {
		h := http.Header{}
		for _, v := range tc.header {
			h.Add("Accept-Encoding", v)
		}
		if got := httpapi.AcceptsGzip(h); got != tc.want {
			t.Errorf("Accept-Encoding %q: AcceptsGzip = %v, want %v", tc.header, got, tc.want)
		}
	}
}

// bigJSON is a JSON document of about n bytes that gzip shrinks a lot, as API answers.
func bigJSON(n int) string {
	var b strings.Builder
	b.WriteString(`{"items":[`)
	for i := 0; b.Len() < n; i++ {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteString(`{"name":"Jane Doe","title":"VP Engineering","domain":"acme.com"}`)
	}
	b.WriteString("]}\n")
	return b.String()
}

// testServer serves routes without authentication through the real middleware chain.
func testServer(routes ...httpapi.Route) *httpapi.Server {
	s := httpapi.NewServer(httpapi.Deps{Log: slog.New(slog.NewTextHandler(io.Discard, nil)), MaxBody: 1 << 20})
	for i := range routes {
		routes[i].Family, routes[i].Auth = httpapi.FamilyAccount, httpapi.AuthNone
	}
	s.Add(routes...)
	return s
}

func writeRoute(path, contentType string, status int, body string) httpapi.Route {
	return httpapi.Route{Method: "GET", Path: path, Handle: func(w http.ResponseWriter, r *http.Request) error {
		w.Header().Set("Content-Type", contentType)
		w.Header().Set(httpapi.HeaderCreditsCharged, "7")
		w.WriteHeader(status)
		// In pieces, as an encoder writes: the choice must not depend on the first write.
		for rest := body; len(rest) > 0; {
			n := min(len(rest), 1000)
			io.WriteString(w, rest[:n])
			rest = rest[n:]
		}
		return nil
	}}
}

func gunzip(t *testing.T, b []byte) string {
	t.Helper()
	zr, err := gzip.NewReader(bytes.NewReader(b))
	if err != nil {
		t.Fatalf("not gzip: %v", err)
	}
	out, err := io.ReadAll(zr)
	if err != nil {
		t.Fatalf("gunzip: %v", err)
	}
	return string(out)
}

func TestCompression(t *testing.T) {
	big, small := bigJSON(50_000), `{"ok":true,"items":[1,2,3]}`+"\n"
	h := testServer(
		writeRoute("/big", "application/json", http.StatusCreated, big),
		writeRoute("/small", "application/json", http.StatusOK, small),
		writeRoute("/png", "image/png", http.StatusOK, big),
		writeRoute("/csv", "text/csv; charset=utf-8", http.StatusOK, big),
		writeRoute("/none", "", http.StatusOK, big),
	).Handler()
	for _, tc := range []struct {
		name, method, path, accept string
		wantGzip                   bool
		want                       string
	}{
		{"large JSON, gzip accepted", "GET", "/big", "gzip, deflate", true, big},
		{"large JSON, no Accept-Encoding", "GET", "/big", "", false, big},
		{"large JSON, gzip refused", "GET", "/big", "gzip;q=0, identity", false, big},
		{"large JSON, identity preferred", "GET", "/big", "identity, gzip;q=0.2", false, big},
		{"small body untouched", "GET", "/small", "gzip", false, small},
		{"compressed type untouched", "GET", "/png", "gzip", false, big},
		{"CSV", "GET", "/csv", "gzip", true, big},
		{"no Content-Type: sniffed, then compressed", "GET", "/none", "gzip", true, big},
		{"HEAD", "HEAD", "/big", "gzip", false, big},
		{"error answer", "GET", "/nowhere", "gzip", false, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			req := httptest.NewRequest(tc.method, tc.path, nil)
			if tc.accept != "" {
				req.Header.Set("Accept-Encoding", tc.accept)
			}
			rec := httptest.NewRecorder()
			h.ServeHTTP(rec, req)
			res := rec.Result()
			if !strings.Contains(strings.Join(res.Header.Values("Vary"), ","), "Accept-Encoding") {
				t.Errorf("Vary = %q, want Accept-Encoding", res.Header.Values("Vary"))
			}
			gotGzip := res.Header.Get("Content-Encoding") == "gzip"
			if gotGzip != tc.wantGzip {
				t.Fatalf("Content-Encoding = %q, want gzip %v", res.Header.Get("Content-Encoding"), tc.wantGzip)
			}
			body := rec.Body.String()
			if gotGzip {
				if res.Header.Get("Content-Length") != "" {
					t.Error("Content-Length of the identity body kept on a gzip body")
				}
				if rec.Body.Len() >= len(tc.want)/2 {
					t.Errorf("gzip body %d bytes for %d: not compressed", rec.Body.Len(), len(tc.want))
				}
				body = gunzip(t, rec.Body.Bytes())
			}
			if tc.path == "/nowhere" {
				if res.StatusCode != http.StatusNotFound || !strings.Contains(body, `"not_found"`) {
					t.Errorf("status %d body %s, want the 404 error", res.StatusCode, body)
				}
				return
			}
			if tc.path == "/big" && tc.method == "GET" && res.StatusCode != http.StatusCreated {
				t.Errorf("status = %d, want the handler's 201", res.StatusCode)
			}
			if res.Header.Get(httpapi.HeaderCreditsCharged) != "7" {
				t.Errorf("handler's header lost: %v", res.Header)
			}
			if tc.method == "GET" && body != tc.want {
				t.Errorf("body differs from the handler's (%d bytes, want %d)", len(body), len(tc.want))
			}
			if tc.path == "/none" && res.Header.Get("Content-Type") != "text/plain; charset=utf-8" {
				t.Errorf("Content-Type = %q, want the sniffed type of the identity bytes", res.Header.Get("Content-Type"))
			}
		})
	}
}

// A handler that flushes through http.ResponseController streams: each flushed part
// reaches the client, gzipped, before the handler goes on.
func TestCompressionStreams(t *testing.T) {
	release := make(chan struct{})
	h := testServer(httpapi.Route{Method: "GET", Path: "/stream", Handle: func(w http.ResponseWriter, r *http.Request) error {
		w.Header().Set("Content-Type", "text/event-stream")
		io.WriteString(w, "event: one\n\n")
		if err := http.NewResponseController(w).Flush(); err != nil {
			return err
		}
		select {
		case <-release:
		case <-r.Context().Done():
		}
		io.WriteString(w, "event: two\n\n")
		return nil
	}}).Handler()
	srv := httptest.NewServer(h)
	defer srv.Close()
	defer close(release)

	req, _ := http.NewRequest("GET", srv.URL+"/stream", nil)
	req.Header.Set("Accept-Encoding", "gzip")
	client := &http.Client{Transport: &http.Transport{DisableCompression: true}} // see the encoding
	res, err := client.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	if res.Header.Get("Content-Encoding") != "gzip" {
		t.Fatalf("Content-Encoding = %q, want gzip", res.Header.Get("Content-Encoding"))
	}
	lines := make(chan string)
	go func() {
		defer close(lines)
		zr, err := gzip.NewReader(res.Body)
		if err != nil {
			return
		}
		sc := bufio.NewScanner(zr)
		for sc.Scan() {
			lines <- sc.Text()
		}
	}()
	select {
	case got := <-lines:
		if got != "event: one" {
			t.Fatalf("first line %q", got)
		}
	case <-time.After(10 * time.Second): // a guard against a hang, not a timing
		t.Fatal("the flushed part never reached the client")
	}
}
