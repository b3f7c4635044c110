package openapi

import (
	"bytes"
	"context"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"strings"
	"testing"
	"time"
)

// chromiumPath is Debian's Chromium (.ci/run installs it).
const chromiumPath = "/usr/bin/chromium"

// TestDocsRenderInChromium serves /docs and /v1/openapi.json as the account family
// does (the page's Content-Security-Policy included), opens /docs in headless Chromium
// and reads the DOM Redoc rendered: POST /v1/email/find's section shows its request
// body schema with the property known_pattern, and GET /v1/account's its response
// schema with credit_balance. Neither name is in the page as served (only the
// renderer, run in a real browser against the document, puts them there).
func TestDocsRenderInChromium(t *testing.T) {
	d, err := Docs()
	if err != nil {
		t.Fatal(err)
	}
	if d.Renderer != "redoc" {
		if os.Getenv("FIRMO_REQUIRE_STANDINS") == "1" {
			t.Fatalf("%s is missing: make docs-assets puts it there", RedocBundle)
		}
		t.Skipf("%s is missing (make docs-assets): /docs is the plain fallback", RedocBundle)
	}
	if !bytes.Contains(d.HTML, []byte("<title>Firmo API reference</title>")) {
		t.Fatalf("the page's title is not \"Firmo API reference\": %.400s", d.HTML)
	}
	if _, err := os.Stat(chromiumPath); err != nil {
		if os.Getenv("FIRMO_REQUIRE_STANDINS") == "1" {
			t.Fatalf("no %s: apt-get install chromium", chromiumPath)
		}
		t.Skipf("no %s (apt-get install chromium)", chromiumPath)
	}
	for _, name := range []string{"known_pattern", "credit_balance"} {
		if bytes.Contains(d.HTML, []byte(name)) {
			t.Fatalf("the served page already holds %q: the check would prove nothing", name)
		}
	}
	doc, err := Document()
	if err != nil {
		t.Fatal(err)
	}
	mux := http.NewServeMux()
	mux.HandleFunc("GET /docs", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		w.Header().Set("Content-Security-Policy", d.CSP)
		w.Write(d.HTML)
	})
	mux.HandleFunc("GET /v1/openapi.json", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		w.Write(doc)
	})
	srv := httptest.NewServer(mux)
	defer srv.Close()

	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	// The flags a headless Chromium needs on a machine without a network or a sandbox.
	cmd := exec.CommandContext(ctx, chromiumPath, "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic",
		"--no-first-run", "--disable-background-networking", "--disable-component-update", "--disable-sync",
		"--user-data-dir="+t.TempDir(), "--virtual-time-budget=20000", "--dump-dom", srv.URL+"/docs")
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("chromium: %v\n%.2000s", err, stderr.String())
	}
	dom := string(out)
	// Redoc renders each operation as <div data-section-id="operation/ID" id="operation/ID">,
	// its request and response schemas inside, up to the next operation's section.
	check := func(op, heading, property string) {
		t.Helper()
		i := strings.Index(dom, ` id="operation/`+op+`"`)
		if i < 0 {
			t.Fatalf("no section of operation %s in the rendered page (%d bytes)", op, len(dom))
		}
		section := dom[i:]
		if next := strings.Index(section, `data-section-id="operation/`); next > 0 {
			section = section[:next]
		}
		h := strings.Index(section, heading)
		p := strings.Index(section, `title="`+property+`"`)
		if h < 0 || p < 0 || p < h {
			t.Errorf("%s: heading %q at %d, property %s at %d: want the property under the heading", op, heading, h, property, p)
		}
	}
	check("postEmailFind", "Request Body schema", "known_pattern")
	check("getAccount", "Response Schema", "credit_balance")
	if n := strings.Count(dom, "Request Body schema"); n < 18 {
		t.Errorf("%d request body schemas rendered, want every operation with a body (18 or more)", n)
	}
}

// TestPlainDocsFallback: without the Redoc bundle, /docs is the plain reference with no
// script, saying how to get the full one.
func TestPlainDocsFallback(t *testing.T) {
	d, err := plainDocs()
	if err != nil {
		t.Fatal(err)
	}
	page := string(d.HTML)
	if d.Renderer != "plain" || strings.Contains(page, "<script") || !strings.Contains(page, "make docs-assets") ||
		!strings.Contains(page, "/v1/account/keys/{key_id}") || strings.Contains(d.CSP, "script-src") ||
		!strings.Contains(page, "<title>Firmo API reference</title>") {
		t.Fatalf("fallback: renderer %s, CSP %q, page %.300s", d.Renderer, d.CSP, page)
	}
}
