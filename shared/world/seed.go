package world

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"runtime"
	"sync"
	"sync/atomic"

	"github.com/firmoapi/firmo/shared/apperr"
	"github.com/firmoapi/firmo/shared/company"
)

// StateName is the company-store state under which the seeded world's options are kept,
// so a later start rebuilds the same world (for its DNS zone) without regenerating data.
const StateName = "world"

// SeedReport says what Seed did.
type SeedReport struct {
	Companies    int `json:"companies"`
	Changed      int `json:"changed"` // companies whose stored data changed
	Certificates int `json:"certificates"`
	Pages        int `json:"pages"`
}

// Seed loads the world into a company service: every company's row, certificates and
// pages, derived by the service's pipeline. Loading is idempotent (a company already
// stored unchanged is skipped) and runs on every core. onCompany, when set, is called
// after each company. The world's options are saved under StateName first. With
// load.DeferText the text-derived fields are left to the reprocessing job.
func Seed(ctx context.Context, svc *company.Service, w *World, load company.LoadOptions, onCompany func()) (SeedReport, error) {
	opts, err := json.Marshal(w.opts)
	if err != nil {
		return SeedReport{}, err
	}
	if err := svc.Store().PutState(ctx, StateName, opts); err != nil {
		return SeedReport{}, err
	}
	var rep SeedReport
	var changed, certs, pageCount atomic.Int64
	next := atomic.Int64{}
	var firstErr error
	var once sync.Once
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	var wg sync.WaitGroup
	for range seedWorkers() {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				i := int(next.Add(1) - 1)
				if i >= w.Len() || ctx.Err() != nil {
					return
				}
				c := w.Company(i)
				// The people pages (teamsite.go) come from their own stream.
				pages := append(c.Pages[:len(c.Pages):len(c.Pages)], w.TeamSite(i, c).Pages...)
				dom, raw, err := c.Row.Parse()
				if err == nil && dom != c.Domain {
					err = fmt.Errorf("row domain %s normalizes to %s", c.Domain, dom)
				}
				var ch bool
				if err == nil {
					ch, err = svc.Load(ctx, c.Domain, raw, c.Certs, pages, load)
				}
				if site := w.Site(i, c).Material; err == nil && !site.Empty() {
					err = svc.PutSite(ctx, c.Domain, site) // not profile input: never re-derives
				}
				if err != nil {
					once.Do(func() { firstErr = fmt.Errorf("seed %s: %w", c.Domain, err); cancel() })
					return
				}
				if ch {
					changed.Add(1)
				}
				certs.Add(int64(len(c.Certs)))
				pageCount.Add(int64(len(pages)))
				if onCompany != nil {
					onCompany()
				}
			}
		}()
	}
	wg.Wait()
	rep.Companies, rep.Changed, rep.Certificates, rep.Pages = w.Len(), int(changed.Load()), int(certs.Load()), int(pageCount.Load())
	return rep, firstErr
}

// Stored returns the options of the world seeded into a store, or false when none was.
func Stored(ctx context.Context, store company.Store) (Options, bool, error) {
	b, err := store.GetState(ctx, StateName)
	if errors.Is(err, apperr.ErrNotFound) {
		return Options{}, false, nil
	}
	if err != nil {
		return Options{}, false, err
	}
	var o Options
	if err := json.Unmarshal(b, &o); err != nil {
		return Options{}, false, fmt.Errorf("decode stored world: %w", err)
	}
	return o, true, nil
}

// seedWorkers is how many companies Seed loads at once. Each load is several store
// transactions that serialize on the store's writer, so with one worker per core the
// cores wait on each other's commits; more workers keep a core deriving while others
// wait, and the store commits their writes together.
// BenchmarkFirstStart in shared/app/allapp, 2 cores at load 1-2: the companies phase
// took 9.1 s with 2 workers, 7.9 s with 4, 4.7 s with 8 and 4.0 s with 16.
func seedWorkers() int {
	return min(4*runtime.GOMAXPROCS(0), 32)
}
