package allapp

import (
	"context"
	"runtime/debug"

	"github.com/firmoapi/firmo/shared/company"
	"github.com/firmoapi/firmo/shared/world"
)

// deferredSyncer is a store that can write without syncing each transaction and sync
// once at the end (shared/kv/boltkv).
type deferredSyncer interface {
	DeferSync() (synced func() error)
}

// DefaultWorldSeed is the seed of the world `firmo serve` makes on first start.
const DefaultWorldSeed = 1

// SeedWorld generates a demo world and loads it into the company store (local
// composition: the world's domains then resolve through its DNS server). On the
// embedded store the load runs with fsync off and syncs once at the end: a seed is
// repeatable, so a crash mid-way loses nothing that rerunning it does not restore.
// onCompany is called after each company. load.DeferText leaves the text-derived
// fields to the reprocessing job (benchmarks compare it; `firmo serve` derives every
// company in full, so that it is complete when ready).
func (a *App) SeedWorld(ctx context.Context, opts world.Options, load company.LoadOptions, onCompany func()) (world.SeedReport, error) {
	w := world.New(opts)
	if a.Composer.Pipeline().WorldZone != nil {
		a.Composer.Pipeline().WorldZone.Set(w.Zone())
	}
	if err := a.mail.set(w); err != nil {
		return world.SeedReport{}, err
	}
	// A bulk load allocates a lot of short-lived garbage; collecting less often saves a
	// fifth of the time for a bounded, temporary amount of memory.
	defer debug.SetGCPercent(debug.SetGCPercent(200))
	defer a.deferSync()()
	return world.Seed(ctx, a.Companies, w, load, onCompany)
}

// deferSync turns off the embedded store's fsync of each transaction for a seed (a
// no-op on other stores); the returned func syncs once and turns it back on.
func (a *App) deferSync() (synced func()) {
	b, ok := a.Core.Store.(deferredSyncer)
	if !ok {
		return func() {}
	}
	done := b.DeferSync()
	return func() {
		if err := done(); err != nil {
			a.Core.Log.Error("sync after seeding", "err", err)
		}
	}
}

// WorldSeeded reports whether a demo world was seeded into the store.
func (a *App) WorldSeeded(ctx context.Context) (bool, error) {
	_, ok, err := world.Stored(ctx, a.Companies.Store())
	return ok, err
}

// CompaniesEmpty reports whether the store holds no company yet (no world seeded, no
// company ingested): `firmo serve` then seeds the demo world.
func (a *App) CompaniesEmpty(ctx context.Context) (bool, error) {
	if seeded, err := a.WorldSeeded(ctx); err != nil || seeded {
		return false, err
	}
	recs, _, err := a.Companies.Store().List(ctx, "", 1)
	return len(recs) == 0, err
}

// SeedContacts stores the demo world's contacts (world.ContactRows of every company).
// Like SeedWorld it syncs once at the end, not after each contact: rerunning it
// restores what a crash mid-way loses; and it collects garbage less often.
func (a *App) SeedContacts(ctx context.Context, opts world.Options, onCompany func()) (int, error) {
	defer debug.SetGCPercent(debug.SetGCPercent(200))
	defer a.deferSync()()
	return world.SeedContacts(ctx, a.Contacts, world.New(opts), onCompany)
}

// loadWorldZone points the demo world's DNS server at the stored world's domains, so
// MX lookups of a world seeded by an earlier start resolve.
func (a *App) loadWorldZone(ctx context.Context) error {
	zone := a.Composer.Pipeline().WorldZone
	if zone == nil {
		return nil
	}
	opts, ok, err := world.Stored(ctx, a.Companies.Store())
	if err != nil || !ok {
		return err
	}
	w := world.New(opts)
	zone.Set(w.Zone())
	return a.mail.set(w)
}
