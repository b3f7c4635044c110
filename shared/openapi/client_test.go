package openapi

import (
	"bytes"
	"flag"
	"os"
	"path/filepath"
	"testing"
)

var updateClient = flag.Bool("update-client", false, "rewrite shared/client/openapi.json from Document")

// TestClientReferenceIsTheServedDocument keeps the Go client module's copy of the API
// reference (shared/client/openapi.json, which its types are generated from) byte for
// byte the document the server serves. After a change to base.json or paths/*.json:
//
//	go test ./shared/openapi -run TestClientReferenceIsTheServedDocument -update-client
//	cd shared/client && go generate ./...
func TestClientReferenceIsTheServedDocument(t *testing.T) {
	doc, err := Document()
	if err != nil {
		t.Fatal(err)
	}
	want := append(doc, '\n')
	path := filepath.Join("..", "client", "openapi.json")
	if *updateClient {
		if err := os.WriteFile(path, want, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	got, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, want) {
		t.Fatalf("%s differs from the served document: run `go test ./shared/openapi -run %s -update-client`, then `go generate ./...` in shared/client", path, t.Name())
	}
}
