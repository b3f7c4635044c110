package app

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"path/filepath"
	"time"

	"github.com/firmoapi/firmo/shared/apperr"
	"github.com/firmoapi/firmo/shared/billing"
	"github.com/firmoapi/firmo/shared/bleveindex"
	"github.com/firmoapi/firmo/shared/company"
	"github.com/firmoapi/firmo/shared/config"
	"github.com/firmoapi/firmo/shared/kv"
	"github.com/firmoapi/firmo/shared/namematch"
	"github.com/firmoapi/firmo/shared/task"
)

// nameParts is company-name matching: the candidate index, the matcher, bulk match
// (a task kind) and the sync that keeps the index equal to the company store.
type nameParts struct {
	matcher *namematch.Matcher
	bulk    *namematch.Bulk
	syncer  *namematch.Syncer
	closer  io.Closer // the embedded index; nil on AWS
}

// NameIndexDir is the embedded candidate index under the data directory.
const NameIndexDir = "names.bleve"

// buildNames wires matching: locally a bleve index under the data directory; on AWS
// the OpenSearch adapter (shared/osmatch) is not wired yet, so matching answers 503
// and bulk rows search_failed there. The bulk kind is registered on the engine.
func buildNames(cfg config.Config, companies company.Store, tasks *task.Engine, store kv.Store, credits *billing.Service) (nameParts, error) {
	var parts nameParts
	var index namematch.Index = unwiredIndex{}
	if cfg.Backend == config.BackendLocal {
		ix, err := bleveindex.Open(filepath.Join(cfg.DataDir, NameIndexDir))
		if err != nil {
			return parts, err
		}
		index, parts.closer = ix, ix
	}
	parts.matcher = namematch.New(index, companies, namematch.Options{})
	parts.bulk = namematch.NewBulk(parts.matcher, tasks, store, credits)
	parts.syncer = namematch.NewSyncer(companies, index)
	if err := tasks.Kinds().Register(parts.bulk.Kind()); err != nil {
		parts.close()
		return parts, fmt.Errorf("register bulk match: %w", err)
	}
	return parts, nil
}

func (p nameParts) close() {
	if p.closer != nil {
		p.closer.Close()
	}
}

// unwiredIndex stands in for the candidate index of a deployment that has none.
type unwiredIndex struct{}

var errNoNameIndex = &apperr.Error{Kind: apperr.ErrUnavailable, Message: "Company-name search is not configured in this deployment."}

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
func (a *App) SyncNames(ctx context.Context) (namematch.SyncReport, error) {
	return a.names.syncer.Sync(ctx)
}

// StartNameSync syncs the name index now and then every interval until ctx ends or
// stop is called (firmo serve: the first pass picks up companies seeded or ingested
// while the server was stopped; later passes catch what reprocessing changed).
func (a *App) StartNameSync(ctx context.Context, every time.Duration, log *slog.Logger) (stop func()) {
	ctx, cancel := context.WithCancel(ctx)
	done := make(chan struct{})
	go func() {
		defer close(done)
		t := time.NewTicker(every)
		defer t.Stop()
		for {
			start := time.Now()
			rep, err := a.SyncNames(ctx)
			switch {
			case err != nil && ctx.Err() == nil:
				log.Error("company-name index sync", "err", err)
			case rep.Indexed > 0 || rep.Deleted > 0:
				log.Info("company-name index sync", "companies", rep.Companies, "indexed", rep.Indexed, "deleted", rep.Deleted, "took", time.Since(start).Round(time.Millisecond).String())
			}
			select {
			case <-ctx.Done():
				return
			case <-t.C:
			}
		}
	}()
	return func() { cancel(); <-done }
}
