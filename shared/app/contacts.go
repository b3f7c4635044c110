package app

import (
	"context"
	"path/filepath"

	"github.com/firmoapi/firmo/shared/billing"
	"github.com/firmoapi/firmo/shared/company"
	"github.com/firmoapi/firmo/shared/config"
	"github.com/firmoapi/firmo/shared/contact"
	"github.com/firmoapi/firmo/shared/contactsearch"
	"github.com/firmoapi/firmo/shared/embed/ppmiembed"
	"github.com/firmoapi/firmo/shared/kv"
	"github.com/firmoapi/firmo/shared/query"
	"github.com/firmoapi/firmo/shared/world"
)

// buildContacts composes contact search: the contact store on the shared kv store, the
// built-in embedder (no network; trained lazily on the first search; its word space also
// widens summary terms), icp_prompt read by prompts (see prompt.go) and, locally, the
// HNSW graph persisted under the data dir.
func buildContacts(cfg config.Config, store kv.Store, companies company.Store, queries *query.Service, credits *billing.Service, prompts contactsearch.PromptExtractor) (*contact.Store, *contactsearch.Service) {
	cs := contact.NewStore(store)
	dir := ""
	if cfg.Backend == config.BackendLocal {
		dir = filepath.Join(cfg.DataDir, "vectors")
	}
	emb := ppmiembed.New()
	svc := contactsearch.New(contactsearch.Deps{Contacts: cs, Companies: companies, Embedder: emb,
		Scopes: queries, Saver: queries, Biller: credits, Dir: dir, Prompts: prompts, Thesaurus: emb})
	return cs, svc
}

// SeedContacts stores the demo world's contacts (world.ContactRows of every company).
func (a *App) SeedContacts(ctx context.Context, opts world.Options, onCompany func()) (int, error) {
	return world.SeedContacts(ctx, a.Contacts, world.New(opts), onCompany)
}
