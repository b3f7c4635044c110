package cli

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/firmoapi/firmo/shared/testkit/osfake"
)

// TestReindexContacts: contacts ingested before FIRMO_OPENSEARCH_URL was set are not in
// the contacts index; `firmo reindex-contacts` writes every one of them, and without the
// setting it is a usage error naming it. It then publishes the email patterns.
func TestReindexContacts(t *testing.T) {
	data := t.TempDir()
	file := filepath.Join(t.TempDir(), "contacts.csv")
	os.WriteFile(file, []byte("name,domain,title,email\nAnn Archer,acme-widgets.de,CTO,ann.archer@acme-widgets.de\nBob Baker,acme-widgets.de,Head of Sales,bob.baker@acme-widgets.de\nCy Cole,bluefin-labs.fr,CFO,\n"), 0o644)
	if r := firmo(t, data, "ingest", "contacts", file); r.code != 0 {
		t.Fatalf("ingest = %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	if r := firmo(t, data, "reindex-contacts"); r.code != 2 || !strings.Contains(r.stderr, "FIRMO_OPENSEARCH_URL") {
		t.Fatalf("without a cluster = %d %s", r.code, r.stderr)
	}
	fake := osfake.New()
	defer fake.Close()
	var out, errb bytes.Buffer
	vars := map[string]string{"FIRMO_DATA_DIR": data, "FIRMO_LOG_LEVEL": "warn", "FIRMO_DNS_RESOLVER": "127.0.0.1:9",
		"FIRMO_OPENSEARCH_URL": fake.URL, "FIRMO_OPENSEARCH_CONTACTS_INDEX": "contacts-cli"}
	code := Run(context.Background(), Env{Args: []string{"reindex-contacts"}, Stdout: &out, Stderr: &errb, Getenv: func(k string) string { return vars[k] }})
	if code != 0 || !strings.Contains(out.String(), "contacts index: 3 contacts written") {
		t.Fatalf("reindex-contacts = %d\n%s%s", code, out.String(), errb.String())
	}
	if n := fake.Docs("contacts-cli"); n != 3 {
		t.Fatalf("the contacts index holds %d documents, want 3", n)
	}
	// Then the email patterns, for contact search's entries: acme-widgets.de's two
	// addresses give it one; bluefin-labs.fr has none.
	if !strings.Contains(out.String(), "email patterns: 1 domains published") {
		t.Fatalf("reindex-contacts published no pattern:\n%s", out.String())
	}
}
