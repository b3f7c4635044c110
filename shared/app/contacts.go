package app

import (
	"context"
	"fmt"
	"net/http"
	"path/filepath"
	"time"

	"github.com/opensearch-project/opensearch-go/v4/opensearchapi"

	"github.com/firmoapi/firmo/shared/billing"
	"github.com/firmoapi/firmo/shared/company"
	"github.com/firmoapi/firmo/shared/config"
	"github.com/firmoapi/firmo/shared/contact"
	"github.com/firmoapi/firmo/shared/contactsearch"
	"github.com/firmoapi/firmo/shared/contactsearch/osindex"
	"github.com/firmoapi/firmo/shared/embed"
	"github.com/firmoapi/firmo/shared/embed/openaiembed"
	"github.com/firmoapi/firmo/shared/embed/ppmiembed"
	"github.com/firmoapi/firmo/shared/kv"
	"github.com/firmoapi/firmo/shared/query"
	"github.com/firmoapi/firmo/shared/world"
)

// buildContacts composes contact search: the contact store on the shared kv store, the
// embedder FIRMO_EMBEDDER chooses (built in by default: no network, trained lazily on the
// first search), the built-in word space widening summary terms whatever the embedder,
// icp_prompt read by prompts (see prompt.go), and the vector index: the OpenSearch k-NN
// index FIRMO_OPENSEARCH_CONTACTS_INDEX when cluster is set (created at first use, with
// the embedder's dims), else the in-memory HNSW graph, persisted under the data dir locally.
func buildContacts(cfg config.Config, cluster *opensearchapi.Client, store kv.Store, companies company.Store, queries *query.Service, credits *billing.Service, prompts contactsearch.PromptExtractor) (*contact.Store, *contactsearch.Service, error) {
	cs := contact.NewStore(store)
	words := ppmiembed.New()
	emb, err := contactEmbedder(cfg.Embedder, words)
	if err != nil {
		return nil, nil, err
	}
	deps := contactsearch.Deps{Contacts: cs, Companies: companies, Embedder: emb,
		Scopes: queries, Saver: queries, Biller: credits, Prompts: prompts, Thesaurus: words}
	switch {
	case cluster != nil:
		deps.Remote = osindex.New(cluster, osindex.Config{Index: cfg.OpenSearch.ContactsIndex, Dims: emb.Dims()})
	case cfg.Backend == config.BackendLocal:
		deps.Dir = filepath.Join(cfg.DataDir, "vectors")
	}
	return cs, contactsearch.New(deps), nil
}

// contactEmbedder is the embedder FIRMO_EMBEDDER chooses: builtin, or an
// OpenAI-compatible endpoint. That endpoint is the operator's setting, not a user's URL,
// so it is called with a plain client with a timeout rather than the guarded fetch
// client (a self-hosted model often sits on a private network). The API key is sent as
// a bearer token and never logged.
func contactEmbedder(cfg config.Embedder, builtin embed.Embedder) (embed.Embedder, error) {
	if cfg.Kind != config.EmbedderOpenAI {
		return builtin, nil
	}
	e, err := openaiembed.New(openaiembed.Config{BaseURL: cfg.BaseURL, APIKey: cfg.APIKey, Model: cfg.Model,
		Dims: cfg.Dims, SendDimensions: cfg.SendDimensions}, &http.Client{Timeout: 60 * time.Second})
	if err != nil {
		return nil, fmt.Errorf("FIRMO_EMBEDDER=openai: %w", err)
	}
	return e, nil
}

// SeedContacts stores the demo world's contacts (world.ContactRows of every company).
func (a *App) SeedContacts(ctx context.Context, opts world.Options, onCompany func()) (int, error) {
	return world.SeedContacts(ctx, a.Contacts, world.New(opts), onCompany)
}
