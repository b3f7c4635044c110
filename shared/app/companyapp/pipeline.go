package companyapp

import (
	"context"
	"fmt"
	"log/slog"
	"time"

	"github.com/firmoapi/firmo/shared/app"
	"github.com/firmoapi/firmo/shared/company"
	"github.com/firmoapi/firmo/shared/company/oscontactfields"
	"github.com/firmoapi/firmo/shared/config"
	"github.com/firmoapi/firmo/shared/dnsmx"
	"github.com/firmoapi/firmo/shared/extract"
	"github.com/firmoapi/firmo/shared/industry"
	"github.com/firmoapi/firmo/shared/osclient"
	"github.com/firmoapi/firmo/shared/patternstore"
)

// Pipeline is the company service and, locally, the demo world's DNS zone that the
// pipeline asks for MX records of the world's domains.
type Pipeline struct {
	Service *company.Service
	// WorldZone is the zone of the in-process DNS server the local composition asks
	// first for MX records, holding the demo world's domains once it is seeded (see
	// shared/app/allapp); nil on AWS.
	WorldZone *dnsmx.MapZone
	// Extractor is the pipeline's page extractor, shared with /v1/extract so the
	// language models load once.
	Extractor *extract.Extractor
	// Patterns publishes domains' email patterns for contact search on OpenSearch
	// (every company stored publishes its own; the scheduled pass publishes the domains
	// marked since); nil without a cluster.
	Patterns *patternstore.Publisher
}

// Build returns the core's company pipeline, building it on first use (batch research
// reads profiles and extracts pages through it too).
func Build(c *app.Core) (*Pipeline, error) {
	return app.Shared(c, "companyapp.Build", func() (*Pipeline, error) { return buildPipeline(c) })
}

// mxTimeout bounds one MX question.
const mxTimeout = 2 * time.Second

// buildPipeline wires the company pipeline: shared/extract reads pages, shared/industry
// classifies their text, MX lookups go
// first to the demo world's in-process DNS server (local composition only; it refuses
// names outside the world, which then go on) and then to FIRMO_DNS_RESOLVER or the
// system's resolvers.
func buildPipeline(c *app.Core) (*Pipeline, error) {
	cfg := c.Config
	parts := &Pipeline{}
	var servers []string
	if cfg.Backend == config.BackendLocal {
		parts.WorldZone = &dnsmx.MapZone{}
		srv, err := dnsmx.Serve("127.0.0.1:0", parts.WorldZone)
		if err != nil {
			return nil, fmt.Errorf("demo world DNS server: %w", err)
		}
		c.OnClose(func() error { srv.Close(); return nil })
		servers = append(servers, srv.Addr())
	}
	if cfg.DNSResolver != "" {
		servers = append(servers, cfg.DNSResolver)
	} else {
		servers = append(servers, dnsmx.SystemServers()...)
	}
	parts.Extractor = extract.New()
	d := company.NewDeriver(company.DeriverDeps{Extractor: pageExtractor{parts.Extractor}, Classifier: textClassifier{industry.New()}, MX: dnsmx.New(servers, mxTimeout)})
	var store company.Store = company.NewKVStore(c.Store)
	if cfg.OpenSearch.Enabled() {
		// Contact search runs on OpenSearch: a company stored (derived, rescored,
		// reprocessed) rewrites its fields in its contacts' documents and publishes its
		// email pattern again from its contacts' addresses (read from the index).
		cluster, err := osclient.Open(context.Background(), cfg.OpenSearch, c.AWS) // no request is made here
		if err != nil {
			return nil, err
		}
		parts.Patterns = &patternstore.Publisher{Store: c.Store, Contacts: oscontactfields.Addresses{Client: cluster, Index: cfg.OpenSearch.ContactsIndex}}
		store = oscontactfields.Store{Store: store, Rewriter: oscontactfields.Rewriter{Client: cluster, Index: cfg.OpenSearch.ContactsIndex}, Patterns: parts.Patterns}
	}
	parts.Service = company.NewService(store, d)
	return parts, nil
}

// pageExtractor adapts shared/extract to the pipeline's Extractor port.
type pageExtractor struct{ e *extract.Extractor }

func (p pageExtractor) Extract(html []byte, pageURL string) (company.Extracted, error) {
	r, err := p.e.Extract(html, pageURL)
	return company.Extracted(r), err
}

// textClassifier adapts shared/industry to the pipeline's Classifier port.
type textClassifier struct{ c *industry.Classifier }

func (t textClassifier) Classify(text, lang string) company.Classification {
	return company.Classification(t.c.Classify(text, lang))
}

func (t textClassifier) ClassifyPage(p company.PageStatements) company.Classification {
	return company.Classification(t.c.ClassifyPage(industry.Page(p)))
}

// StartReprocessing runs the scheduled pass now and then every interval until ctx ends
// or stop is called: the company reprocessing job (company.Service.Reprocess), then,
// with contact search on OpenSearch, the email patterns of the domains marked since
// (PublishPatterns). stop waits for a run in progress to end its current record. Each
// run continues the day's pass where the last one stopped.
func (f *Composer) StartReprocessing(ctx context.Context, every time.Duration, log *slog.Logger) (stop func()) {
	return repeat(ctx, every, func(ctx context.Context) {
		rep, err := f.pipeline.Service.Reprocess(ctx, company.JobOptions{})
		switch {
		case err != nil && ctx.Err() == nil:
			log.Error("company reprocessing", "err", err)
		case !rep.Idle && rep.Visited > 0:
			log.Info("company reprocessing", "visited", rep.Visited, "rescored", rep.Rescored, "refreshed", rep.Refreshed, "failed", rep.Failed, "complete", rep.Complete)
		}
		n, err := f.PublishPatterns(ctx)
		switch {
		case err != nil && ctx.Err() == nil:
			log.Error("email pattern publishing", "err", err)
		case n > 0:
			log.Info("email pattern publishing", "domains", n)
		}
	})
}

// PublishPatterns publishes the email patterns of the domains whose addresses changed
// since (a contact stored, an address recorded: patternstore.MarkDirty) and returns how
// many; nothing without contact search on OpenSearch (the pattern book then learns in
// process).
func (f *Composer) PublishPatterns(ctx context.Context) (int, error) {
	if f.pipeline.Patterns == nil {
		return 0, nil
	}
	return f.pipeline.Patterns.PublishDirty(ctx)
}

// reprocessMargin is the time kept before an invocation's deadline to save progress.
const reprocessMargin = 20 * time.Second

// ReprocessOnce runs the reprocessing job until the day's pass is complete or ctx's
// deadline (a Lambda's) is reprocessMargin away; the next call resumes from there. The
// scheduler Lambda calls it on every EventBridge tick.
func (f *Composer) ReprocessOnce(ctx context.Context) (company.JobReport, error) {
	if dl, ok := ctx.Deadline(); ok {
		var cancel context.CancelFunc
		ctx, cancel = context.WithDeadline(ctx, dl.Add(-reprocessMargin))
		defer cancel()
	}
	rep, err := f.pipeline.Service.Reprocess(ctx, company.JobOptions{})
	f.core.Log.Info("company reprocessing", "visited", rep.Visited, "rescored", rep.Rescored, "refreshed", rep.Refreshed, "failed", rep.Failed, "complete", rep.Complete, "idle", rep.Idle)
	return rep, err
}
