package contactsearch_test

import (
	"context"
	"path/filepath"
	"testing"

	"github.com/firmoapi/firmo/shared/contactsearch"
	"github.com/firmoapi/firmo/shared/contactsearch/contactsearchtest"
)

// TestContract runs the contact search contract suite on the embedded composition: the
// snapshot with its HNSW graph (the OpenSearch adapter runs the same suite in ossearch).
func TestContract(t *testing.T) {
	contactsearchtest.Run(t, func(t *testing.T, w *contactsearchtest.World) (contactsearchtest.Searcher, bool) {
		svc := contactsearch.New(contactsearch.Deps{Contacts: w.Contacts, Companies: w.Companies, Embedder: w.Embedder,
			Scopes: w.Queries, Saver: w.Queries, Dir: filepath.Join(w.Dir, "index")})
		if err := svc.Refresh(context.Background()); err != nil {
			t.Fatal(err)
		}
		return svc, true
	})
}
