// Package contactworld is the demo world contact search's tests search: 60 companies of
// seed 11 derived by the company pipeline into a bbolt store (with their MX answered by an
// in-process DNS server), their contacts stored, and the truth the brute-force checks read:
// every contact derived again, independently of any search, with its employer's profile.
// Both the contract suite (contactsearchtest) and contact search's own tests build it here,
// once per test binary each.
package contactworld

import (
	"context"
	"os"
	"path/filepath"
	"time"

	"github.com/firmoapi/firmo/shared/company"
	"github.com/firmoapi/firmo/shared/contact"
	"github.com/firmoapi/firmo/shared/dnsmx"
	"github.com/firmoapi/firmo/shared/embed/ppmiembed"
	"github.com/firmoapi/firmo/shared/extract"
	"github.com/firmoapi/firmo/shared/industry"
	"github.com/firmoapi/firmo/shared/kv"
	"github.com/firmoapi/firmo/shared/kv/boltkv"
	"github.com/firmoapi/firmo/shared/query"
	"github.com/firmoapi/firmo/shared/world"
)

// World is the seeded demo world: its stores, the embedder and the truth.
type World struct {
	Contacts  *contact.Store
	Companies company.Store
	Queries   *query.Service
	Embedder  *ppmiembed.Embedder
	Truth     []Row
	Dir       string   // a directory the caller may use (the store's own directory)
	KV        kv.Store // the store under the others (a caller may keep its own items there)
}

// Row is one contact of the truth.
type Row struct {
	C   contact.Contact
	Raw contact.Raw
	P   company.Profile
}

type classifier struct{ c *industry.Classifier }

func (x classifier) Classify(text, lang string) company.Classification {
	return company.Classification(x.c.Classify(text, lang))
}

type extractor struct{ e *extract.Extractor }

func (x extractor) Extract(html []byte, url string) (company.Extracted, error) {
	r, err := x.e.Extract(html, url)
	return company.Extracted(r), err
}

// Build seeds the world into a new store in a temporary directory (left for the caller:
// a test binary's shared fixture outlives any one test's TempDir).
func Build() (*World, error) {
	ctx := context.Background()
	dir, err := os.MkdirTemp("", "contactworld-")
	if err != nil {
		return nil, err
	}
	store, err := boltkv.Open(filepath.Join(dir, "kv.db"))
	if err != nil {
		return nil, err
	}
	store.DB().NoSync = true
	opts := world.Options{Seed: 11, Companies: 60, AsOf: time.Date(2026, 6, 1, 0, 0, 0, 0, time.UTC)}.Normalized()
	w := world.New(opts)
	zone := &dnsmx.MapZone{}
	zone.Set(w.Zone())
	dns, err := dnsmx.Serve("127.0.0.1:0", zone)
	if err != nil {
		return nil, err
	}
	defer dns.Close()
	now := func() time.Time { return opts.AsOf.Add(10 * time.Hour) }
	d := company.NewDeriver(company.DeriverDeps{Extractor: extractor{extract.New()}, Classifier: classifier{industry.New()}, MX: dnsmx.New([]string{dns.Addr()}, time.Second), Now: now})
	csvc := company.NewService(company.NewKVStore(store), d)
	if _, err := world.Seed(ctx, csvc, w, company.LoadOptions{}, nil); err != nil {
		return nil, err
	}
	cs := contact.NewStore(store)
	if _, err := world.SeedContacts(ctx, cs, w, nil); err != nil {
		return nil, err
	}
	out := &World{Contacts: cs, Companies: csvc.Store(), Queries: query.New(store), Embedder: ppmiembed.New(), Dir: dir, KV: store}
	err = cs.List(ctx, func(r contact.Raw) error {
		rec, err := csvc.Store().Get(ctx, r.Domain)
		if err != nil {
			return err
		}
		out.Truth = append(out.Truth, Row{C: contact.Derive(r), Raw: r, P: rec.Profile})
		return nil
	})
	return out, err
}
