package companyapp

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"path/filepath"
	"sync"
	"time"

	"github.com/opensearch-project/opensearch-go/v4/opensearchapi"

	"github.com/firmoapi/firmo/shared/app"
	"github.com/firmoapi/firmo/shared/apperr"
	"github.com/firmoapi/firmo/shared/company"
	"github.com/firmoapi/firmo/shared/httpapi/companyhttp"
	"github.com/firmoapi/firmo/shared/namematch"
	"github.com/firmoapi/firmo/shared/namematch/osmatch"
	"github.com/firmoapi/firmo/shared/upload"
)

// nameParts is company-name matching: the candidate index, the matcher, bulk match
// (a task kind) and the sync that keeps the index equal to the company store.
type nameParts struct {
	matcher companyhttp.NameMatcher // the matcher, or unwiredMatcher without an index
	bulk    *namematch.Bulk
	syncer  *namematch.Syncer
	wired   bool // an index is configured (false: AWS without FIRMO_OPENSEARCH_URL)
}

// NameIndexDir is the embedded candidate index under the data directory.
const NameIndexDir = "names.bleve"

// buildNames wires matching. The candidate index is OpenSearch (namematch/osmatch,
// index FIRMO_OPENSEARCH_NAMES_INDEX) whenever cluster is set, on AWS and locally (a
// developer pointing `firmo serve` at a cluster); otherwise the embedded index the
// composition opens (locally bleve under the data directory), and none on AWS, where
// matching answers 503 and bulk rows search_failed. The bulk kind is registered on the
// engine.
func buildNames(c *app.Core, cluster *opensearchapi.Client, companies company.Store, embedded OpenNameIndex) (nameParts, error) {
	cfg := c.Config
	var parts nameParts
	var index namematch.Index = unwiredIndex{}
	switch {
	case cluster != nil:
		index = &ensuredNames{Index: osmatch.New(cluster, osmatch.Config{Index: cfg.OpenSearch.NamesIndex})}
		parts.wired = true
	case embedded != nil:
		ix, closer, err := embedded(filepath.Join(cfg.DataDir, NameIndexDir))
		if err != nil {
			return parts, err
		}
		c.Closer(closer)
		index, parts.wired = ix, true
	}
	m := namematch.New(index, companies, namematch.Options{})
	parts.matcher = m
	if !parts.wired {
		parts.matcher = unwiredMatcher{m}
	}
	// The same gate as datasetsapp.UploadGate (the same key), so the families that
	// parse uploads share its slots in a process composing both.
	uploads, err := app.Shared(c, "upload.Gate", func() (*upload.Gate, error) { return upload.NewGate(0), nil })
	if err != nil {
		return parts, err
	}
	parts.bulk = namematch.NewBulk(namematch.BulkDeps{Matcher: m, Tasks: c.Tasks, Store: c.Store, Billing: c.Billing, Uploads: uploads})
	parts.syncer = namematch.NewSyncer(companies, index)
	if err := c.Tasks.Kinds().Register(parts.bulk.Kind()); err != nil {
		return parts, fmt.Errorf("register bulk match: %w", err)
	}
	return parts, nil
}

// ensuredNames creates the OpenSearch index on first use rather than at start-up, so a
// Lambda's init makes no request (shared/app/LAMBDAS.md: nothing heavy at a cold start). A failed creation is retried by
// the next call; once it succeeded, calls go straight to the index.
type ensuredNames struct {
	*osmatch.Index
	mu    sync.Mutex
	ready bool
}

func (e *ensuredNames) ensure(ctx context.Context) error {
	e.mu.Lock()
	defer e.mu.Unlock()
	if e.ready {
		return nil
	}
	if err := e.Index.EnsureIndex(ctx); err != nil {
		return err
	}
	e.ready = true
	return nil
}

func (e *ensuredNames) Search(ctx context.Context, r namematch.Request) ([]namematch.Entry, error) {
	if err := e.ensure(ctx); err != nil {
		return nil, err
	}
	return e.Index.Search(ctx, r)
}

func (e *ensuredNames) Put(ctx context.Context, entries []namematch.Entry) error {
	if err := e.ensure(ctx); err != nil {
		return err
	}
	return e.Index.Put(ctx, entries)
}

func (e *ensuredNames) Delete(ctx context.Context, domains []string) error {
	if err := e.ensure(ctx); err != nil {
		return err
	}
	return e.Index.Delete(ctx, domains)
}

func (e *ensuredNames) Fingerprints(ctx context.Context) (map[string]string, error) {
	if err := e.ensure(ctx); err != nil {
		return nil, err
	}
	return e.Index.Fingerprints(ctx)
}

// unwiredMatcher answers a deployment without a name index: requests are still checked
// (422 naming the parameter), then answered with errNoNameIndex, which tells the operator
// what to set rather than the matcher's generic "unreachable".
type unwiredMatcher struct{ m *namematch.Matcher }

func (u unwiredMatcher) Match(ctx context.Context, q namematch.Query) (namematch.Answer, error) {
	a, err := u.m.Match(ctx, q)
	if errors.Is(err, apperr.ErrUnavailable) {
		return namematch.Answer{}, errNoNameIndex
	}
	return a, err
}

// unwiredIndex stands in for the candidate index of a deployment that has none.
type unwiredIndex struct{}

var errNoNameIndex = &apperr.Error{Kind: apperr.ErrUnavailable, Message: "Company-name search is not configured in this deployment: set FIRMO_OPENSEARCH_URL (template parameter OpenSearchEndpoint) to an OpenSearch cluster."}

func (unwiredIndex) Search(context.Context, namematch.Request) ([]namematch.Entry, error) {
	return nil, errNoNameIndex
}
func (unwiredIndex) Put(context.Context, []namematch.Entry) error { return errNoNameIndex }
func (unwiredIndex) Delete(context.Context, []string) error       { return errNoNameIndex }
func (unwiredIndex) Fingerprints(context.Context) (map[string]string, error) {
	return nil, errNoNameIndex
}

// SyncNames brings the company-name index up to date with the company store: new and
// changed companies are indexed, removed ones dropped. A missing index is rebuilt.
func (f *Composer) SyncNames(ctx context.Context) (namematch.SyncReport, error) {
	return f.names.syncer.Sync(ctx)
}

// StartNameSync syncs the name index every interval, first after one interval, until
// ctx ends or stop is called: the passes catch what reprocessing changed. firmo serve
// runs the first pass itself (SyncNames) before it is ready, which picks up companies
// seeded or ingested while the server was stopped.
func (f *Composer) StartNameSync(ctx context.Context, every time.Duration, log *slog.Logger) (stop func()) {
	return repeatAfter(ctx, every, func(ctx context.Context) {
		start := time.Now()
		rep, err := f.SyncNames(ctx)
		switch {
		case err != nil && ctx.Err() == nil:
			log.Error("company-name index sync", "err", err)
		case rep.Indexed > 0 || rep.Deleted > 0:
			log.Info("company-name index sync", "companies", rep.Companies, "indexed", rep.Indexed, "deleted", rep.Deleted, "took", time.Since(start).Round(time.Millisecond).String())
		}
	})
}

// repeat runs fn now and then every interval until ctx ends or stop is called; stop
// waits for a run in progress to return.
func repeat(ctx context.Context, every time.Duration, fn func(context.Context)) (stop func()) {
	return schedule(ctx, every, true, fn)
}

// repeatAfter is repeat whose first run comes after one interval.
func repeatAfter(ctx context.Context, every time.Duration, fn func(context.Context)) (stop func()) {
	return schedule(ctx, every, false, fn)
}

func schedule(ctx context.Context, every time.Duration, now bool, fn func(context.Context)) (stop func()) {
	ctx, cancel := context.WithCancel(ctx)
	done := make(chan struct{})
	go func() {
		defer close(done)
		t := time.NewTicker(every)
		defer t.Stop()
		for {
			if now {
				fn(ctx)
			}
			now = true
			select {
			case <-ctx.Done():
				return
			case <-t.C:
			}
		}
	}()
	return func() { cancel(); <-done }
}
