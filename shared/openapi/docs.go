package openapi

import (
	"bytes"
	"crypto/sha256"
	"embed"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"strings"
)

// redocFiles holds redoc/redoc.standalone.js when `make docs-assets` put it there
// (redoc/README.md says how); the README alone keeps the pattern matching on a fresh
// clone.
//
//go:embed redoc
var redocFiles embed.FS

// RedocBundle is the embedded file of the Redoc renderer.
const RedocBundle = "redoc/redoc.standalone.js"

// DocsPage is the browsable reference: its HTML and the Content-Security-Policy it is
// served with.
type DocsPage struct {
	HTML []byte
	CSP  string
	// Renderer is "redoc" for the full reference, "plain" for the fallback.
	Renderer string
}

// plainCSP is the fallback page's policy: no scripts at all.
const plainCSP = "default-src 'none'; style-src 'unsafe-inline'"

// redocInit starts Redoc on the document, expanding the success answers' schemas. The
// document's URL is relative, so a path prefix in front of the API is kept.
const redocInit = `Redoc.init("v1/openapi.json",{expandResponses:"200,201,202",jsonSampleExpandLevel:3,hideDownloadButton:false},document.getElementById("redoc"));`

// Docs renders /docs: Redoc (the bundle inline, with the document fetched from
// /v1/openapi.json) when the bundle was built in, else the plain HTML reference with a
// note. Redoc renders every request and response schema, examples and Markdown.
func Docs() (DocsPage, error) {
	bundle, err := fs.ReadFile(redocFiles, RedocBundle)
	if errors.Is(err, fs.ErrNotExist) {
		return plainDocs()
	}
	if err != nil {
		return DocsPage{}, err
	}
	if bytes.Contains(bytes.ToLower(bundle), []byte("</script")) {
		return DocsPage{}, fmt.Errorf("openapi: %s holds </script and cannot be inlined", RedocBundle)
	}
	var d doc
	if raw, err := Document(); err == nil {
		_ = json.Unmarshal(raw, &d)
	}
	var b bytes.Buffer
	b.WriteString(`<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">`)
	fmt.Fprintf(&b, "<title>%s reference</title>", htmlEscape(d.Info.Title)) // "Firmo API reference", as the plain page
	b.WriteString(`<style>body{margin:0}</style></head><body><div id="redoc"></div><script>`)
	b.Write(bundle)
	b.WriteString("</script><script>")
	b.WriteString(redocInit)
	b.WriteString("</script></body></html>")
	csp := fmt.Sprintf("default-src 'none'; script-src %s %s; style-src 'unsafe-inline'; connect-src 'self'; img-src 'self' data:; font-src 'self' data:; worker-src blob:",
		scriptHash(bundle), scriptHash([]byte(redocInit)))
	return DocsPage{HTML: b.Bytes(), CSP: csp, Renderer: "redoc"}, nil
}

// plainDocs is the fallback: the plain HTML reference, saying how to get the full one.
func plainDocs() (DocsPage, error) {
	page, err := HTML()
	if err != nil {
		return DocsPage{}, err
	}
	note := `<p class="v"><strong>This binary was built without the Redoc renderer</strong>, so request and response schemas are not shown here: build with <code>make build</code> (or <code>make docs-assets</code> before <code>go build</code>), or read <a href="/v1/openapi.json">openapi.json</a>.</p>`
	page = bytes.Replace(page, []byte("<nav>"), []byte(note+"<nav>"), 1)
	return DocsPage{HTML: page, CSP: plainCSP, Renderer: "plain"}, nil
}

// scriptHash is a CSP source allowing one inline script.
func scriptHash(script []byte) string {
	h := sha256.Sum256(script)
	return "'sha256-" + base64.StdEncoding.EncodeToString(h[:]) + "'"
}

func htmlEscape(s string) string {
	return strings.NewReplacer("&", "&amp;", "<", "&lt;", ">", "&gt;", `"`, "&quot;").Replace(s)
}
