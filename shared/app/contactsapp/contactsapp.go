// Package contactsapp composes the contacts family: contact search (discover, count,
// lookup, the legacy list) over the contact store, with the embedder and vector index
// the configuration chooses, and icp_prompt read with the organisation's LLM
// integration.
package contactsapp

import (
	"context"

	"github.com/opensearch-project/opensearch-go/v4/opensearchapi"

	"log/slog"
	"path/filepath"

	"github.com/firmoapi/firmo/shared/app"
	"github.com/firmoapi/firmo/shared/app/embedding"
	"github.com/firmoapi/firmo/shared/app/integrationsapp"
	"github.com/firmoapi/firmo/shared/app/patternsapp"
	"github.com/firmoapi/firmo/shared/app/queriesapp"
	"github.com/firmoapi/firmo/shared/apperr"
	"github.com/firmoapi/firmo/shared/company"
	"github.com/firmoapi/firmo/shared/config"
	"github.com/firmoapi/firmo/shared/contact"
	"github.com/firmoapi/firmo/shared/contactsearch"
	"github.com/firmoapi/firmo/shared/contactsearch/ossearch"
	"github.com/firmoapi/firmo/shared/httpapi"
	"github.com/firmoapi/firmo/shared/httpapi/contacthttp"
	"github.com/firmoapi/firmo/shared/integration"
	"github.com/firmoapi/firmo/shared/osclient"
	"github.com/firmoapi/firmo/shared/patternstore"
)

// Services are the contact store and contact search over it.
type Services struct {
	Store *contact.Store
	// Search is nil on AWS without an OpenSearch cluster (see routes).
	Search *contactsearch.Service
}

// Build returns the core's contact search, building it on first use: the contact store
// on the core's kv store, the embedder FIRMO_EMBEDDER chooses (built in by default: no
// network, trained lazily on the first search), the built-in word space widening
// summary terms whatever the embedder, icp_prompt read with the organisation's default
// LLM integration, and where searches run: in OpenSearch (the index
// FIRMO_OPENSEARCH_CONTACTS_INDEX, created at first use with the embedder's dims) when a
// cluster is configured, else on the in-memory snapshot and HNSW graph, persisted under
// the data dir locally.
func Build(ctx context.Context, c *app.Core) (Services, error) {
	return app.Shared(c, "contactsapp.Build", func() (Services, error) { return build(ctx, c) })
}

// Composer composes the contacts family.
func Composer() app.Composer { return app.NewComposer(httpapi.FamilyContacts, Build, routes) }

// routes serve contact search, or, on AWS without an OpenSearch cluster, answer every
// valid request 503 naming the setting: a Lambda never reads every contact at cold start.
func routes(s Services) []httpapi.Route {
	if s.Search == nil {
		return contacthttp.ContactRoutes(unwiredSearch{})
	}
	return contacthttp.ContactRoutes(s.Search)
}

func build(ctx context.Context, c *app.Core) (Services, error) {
	cfg := c.Config
	cluster, err := osclient.Open(ctx, cfg.OpenSearch, c.AWS)
	if err != nil {
		return Services{}, err
	}
	providers, err := integrationsapp.Build(ctx, c, integrationsapp.OpenOnly())
	if err != nil {
		return Services{}, err
	}
	embedders, err := embedding.Build(ctx, c)
	if err != nil {
		return Services{}, err
	}
	emb, words := embedders.Text, embedders.Words
	queries, err := queriesapp.Service(ctx, c)
	if err != nil {
		return Services{}, err
	}
	store := contact.NewStore(c.Store)
	deps := contactsearch.Deps{Contacts: store, Companies: company.NewKVStore(c.Store), Embedder: emb,
		Scopes: queries, Saver: queries, Biller: c.Billing, Prompts: promptReader(providers.Integrations, c.Log), Thesaurus: words}
	switch {
	case cluster != nil:
		// Every search and count is an OpenSearch query (ossearch): nothing reads every
		// contact. The pattern book would (it learns from every address), so entries
		// carry the published patterns (shared/patternstore: written in full by
		// PublishPatterns, kept current domain by domain by the company pipeline and
		// the scheduled pass): one store read per company of a page.
		idx, err := ContactIndex(cfg, cluster, emb.Dims())
		if err != nil {
			return Services{}, err
		}
		deps.Engine = idx
		deps.Patterns = patternstore.Reader{Store: c.Store}
		// A contact stored is indexed at once (its employer's fields read once): the
		// pipeline's write, so no search has to read the store. Its domain is marked for
		// the scheduled pass to publish its email pattern again (the index shows the
		// contact by then).
		companies := deps.Companies
		store.OnChange(func(ctx context.Context, r contact.Raw) error {
			if err := contactsearch.IndexContacts(ctx, idx, companies, emb, []contact.Raw{r}); err != nil {
				return err
			}
			return patternstore.MarkDirty(ctx, c.Store, r.Domain)
		})
	case cfg.Backend == config.BackendLocal:
		deps.Patterns = patternsapp.Book(c) // the email patterns contact generation also answers (shared/patternbook)
		deps.Dir = filepath.Join(cfg.DataDir, "vectors")
	default: // AWS without a cluster: the in-memory graph would load every contact per cold start
		return Services{Store: store}, nil
	}
	return Services{Store: store, Search: contactsearch.New(deps)}, nil
}

// ContactIndex is the OpenSearch contacts index the configuration names, with its layout
// (FIRMO_OPENSEARCH_CONTACTS_*; defaults from the README's capacity model) and dims.
func ContactIndex(cfg config.Config, cluster *opensearchapi.Client, dims int) (*ossearch.Index, error) {
	return ossearch.New(cluster, ossearch.ConfigOf(cfg.OpenSearch, dims))
}

// promptReader lets contact search read icp_prompt with the organisation's default LLM
// integration, resolved by the same integration service batch research uses. An
// organisation without one, or a call that fails or takes longer than
// contactsearch.DefaultPromptTimeout, gets the rule-based parser's reading; the call
// runs on the organisation's own key and charges no credits (as batch research).
func promptReader(integrations *integration.Service, log *slog.Logger) contactsearch.PromptExtractor {
	return contactsearch.NewLLMPrompts(integrations, contactsearch.DefaultPromptTimeout, log)
}

// errNoCluster is Reindex's answer without a cluster.
var errNoCluster = &apperr.Error{Kind: apperr.ErrInvalid, Message: "There is no contacts index to write: set FIRMO_OPENSEARCH_URL."}

// reindexBatch is how many contacts one write of Reindex carries.
const reindexBatch = 500

// Reindex writes the document of every stored contact to the OpenSearch contacts index,
// in batches: a deployment's first indexing (contacts stored before contact search ran on
// OpenSearch) or after the index was dropped. It reads every contact, so it is a command
// (firmo reindex-contacts), never a Lambda's work. done reports the contacts written so
// far.
func Reindex(ctx context.Context, c *app.Core, done func(n int)) (int, error) {
	cluster, err := osclient.Open(ctx, c.Config.OpenSearch, c.AWS)
	if err != nil {
		return 0, err
	}
	if cluster == nil {
		return 0, errNoCluster
	}
	embedders, err := embedding.Build(ctx, c)
	if err != nil {
		return 0, err
	}
	emb := embedders.Text
	idx, err := ContactIndex(c.Config, cluster, emb.Dims())
	if err != nil {
		return 0, err
	}
	companies := company.NewKVStore(c.Store)
	var batch []contact.Raw
	n := 0
	flush := func() error {
		if len(batch) == 0 {
			return nil
		}
		if err := contactsearch.IndexContacts(ctx, idx, companies, emb, batch); err != nil {
			return err
		}
		n += len(batch)
		batch = batch[:0]
		if done != nil {
			done(n)
		}
		return nil
	}
	err = contact.NewStore(c.Store).List(ctx, func(r contact.Raw) error {
		batch = append(batch, r)
		if len(batch) == reindexBatch {
			return flush()
		}
		return nil
	})
	if err == nil {
		err = flush()
	}
	return n, err
}

// PublishPatterns learns the email patterns from every address (the pattern book) and
// writes one item per domain, which contact search on OpenSearch answers its entries'
// email_pattern from (patternstore.Reader). It reads every address, so it is a command
// (firmo reindex-contacts runs it after the contacts), never a contacts Lambda's work.
func PublishPatterns(ctx context.Context, c *app.Core) (int, error) {
	return patternsapp.Book(c).Publish(ctx)
}
