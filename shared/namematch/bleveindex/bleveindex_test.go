package bleveindex_test

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/firmoapi/firmo/shared/company"
	"github.com/firmoapi/firmo/shared/namematch"
	"github.com/firmoapi/firmo/shared/namematch/bleveindex"
	"github.com/firmoapi/firmo/shared/namematch/namematchtest"
)

func open(t *testing.T, path string) *bleveindex.Index {
	t.Helper()
	ix, err := bleveindex.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	return ix
}

func TestContract(t *testing.T) {
	namematchtest.Run(t, func(t *testing.T) namematch.Index {
		ix := open(t, filepath.Join(t.TempDir(), "names.bleve"))
		t.Cleanup(func() { ix.Close() })
		return ix
	})
}

func acme() namematch.Entry {
	return namematch.EntryOf(company.Record{Domain: "acme.com", Profile: company.Profile{Domain: "acme.com", Name: "Acme Inc"}})
}

// The index persists across reopening; one made by another mapping version, or a
// directory that is not an index, is replaced by an empty index.
func TestOpenPersistsAndRebuilds(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "names.bleve")
	ix := open(t, path)
	if err := ix.Put(ctx, []namematch.Entry{acme()}); err != nil {
		t.Fatal(err)
	}
	ix.Close()

	ix = open(t, path)
	if n, err := ix.Count(); err != nil || n != 1 {
		t.Fatalf("after reopening: %d entries, %v; want 1", n, err)
	}
	ix.Close()

	corrupt := filepath.Join(t.TempDir(), "corrupt.bleve")
	if err := os.MkdirAll(corrupt, 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(corrupt, "index_meta.json"), []byte("{not json"), 0o600); err != nil {
		t.Fatal(err)
	}
	ix = open(t, corrupt)
	defer ix.Close()
	if n, err := ix.Count(); err != nil || n != 0 {
		t.Fatalf("a corrupt index should open empty: %d entries, %v", n, err)
	}
	if err := ix.Put(ctx, []namematch.Entry{acme()}); err != nil {
		t.Fatal(err)
	}
}

func TestSearchAfterClose(t *testing.T) {
	ix := open(t, filepath.Join(t.TempDir(), "names.bleve"))
	ix.Close()
	if _, err := ix.Search(context.Background(), namematch.Request{Terms: []namematch.Term{{Text: "acme", Boost: 1}}, Limit: 5}); err == nil {
		t.Fatal("search on a closed index should fail (the matcher retries it, then answers 503)")
	}
}
