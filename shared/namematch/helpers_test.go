package namematch_test

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"sync"
	"testing"
	"time"

	"github.com/firmoapi/firmo/shared/apperr"
	"github.com/firmoapi/firmo/shared/company"
	"github.com/firmoapi/firmo/shared/namematch"
	"github.com/firmoapi/firmo/shared/namematch/bleveindex"
	"github.com/firmoapi/firmo/shared/world"
)

// memRecords is an in-memory company store for the matcher (Records) and the syncer
// (Source).
type memRecords struct {
	mu   sync.RWMutex
	recs map[string]company.Record
}

func newMemRecords() *memRecords { return &memRecords{recs: map[string]company.Record{}} }

func (m *memRecords) put(rec company.Record) {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.recs[rec.Domain] = rec
}

func (m *memRecords) remove(dom string) {
	m.mu.Lock()
	defer m.mu.Unlock()
	delete(m.recs, dom)
}

func (m *memRecords) Get(ctx context.Context, dom string) (company.Record, error) {
	m.mu.RLock()
	defer m.mu.RUnlock()
	rec, ok := m.recs[dom]
	if !ok {
		return company.Record{}, fmt.Errorf("company %s: %w", dom, apperr.ErrNotFound)
	}
	return rec, nil
}

// List pages in domain order; the cursor is the last domain returned.
func (m *memRecords) List(ctx context.Context, cursor string, limit int) ([]company.Record, string, error) {
	m.mu.RLock()
	defer m.mu.RUnlock()
	doms := make([]string, 0, len(m.recs))
	for d := range m.recs {
		if d > cursor {
			doms = append(doms, d)
		}
	}
	sort.Strings(doms)
	next := ""
	if len(doms) > limit {
		doms, next = doms[:limit], doms[limit-1]
	}
	out := make([]company.Record, len(doms))
	for i, d := range doms {
		out[i] = m.recs[d]
	}
	return out, next, nil
}

// asOf is the evaluation world's "today".
var asOf = time.Date(2026, 1, 15, 0, 0, 0, 0, time.UTC)

// deriver is the company pipeline without extractor, classifier or MX resolver:
// enough for names, addresses, E.164 phones and scores.
var deriver = company.NewDeriver(company.DeriverDeps{Now: func() time.Time { return asOf }})

// record derives the record of a company row (and its certificates).
func record(tb testing.TB, row company.CompanyRow, certs []company.Certificate) company.Record {
	tb.Helper()
	dom, raw, err := row.Parse()
	if err != nil {
		tb.Fatalf("row %s: %v", row.Domain, err)
	}
	p, sc, der, _ := deriver.Derive(context.Background(), company.Inputs{Domain: dom, Raw: raw, Certs: certs})
	return company.Record{Domain: dom, Raw: raw, Profile: p, Score: sc, Derived: der}
}

// worldRecords derives the first n companies of the demo world (seed 42) in parallel.
func worldRecords(tb testing.TB, n int) ([]company.Record, *world.World) {
	tb.Helper()
	w := world.New(world.Options{Seed: 42, Companies: n, AsOf: asOf})
	out := make([]company.Record, n)
	var wg sync.WaitGroup
	workers := 4
	for k := range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := k; i < n; i += workers {
				c := w.Company(i)
				out[i] = record(tb, c.Row, c.Certs)
			}
		}()
	}
	wg.Wait()
	return out, w
}

// realRecords reads testdata/real_companies.jsonl.
func realRecords(tb testing.TB) []company.Record {
	tb.Helper()
	f, err := os.Open(filepath.Join("testdata", "real_companies.jsonl"))
	if err != nil {
		tb.Fatal(err)
	}
	defer f.Close()
	var out []company.Record
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		var row company.CompanyRow
		if err := json.Unmarshal(sc.Bytes(), &row); err != nil {
			tb.Fatal(err)
		}
		out = append(out, record(tb, row, nil))
	}
	return out
}

// newBleve opens an empty bleve index in a temporary directory.
func newBleve(tb testing.TB) *bleveindex.Index {
	tb.Helper()
	ix, err := bleveindex.Open(filepath.Join(tb.TempDir(), "names.bleve"))
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { ix.Close() })
	return ix
}

// fixture is a matcher over a bleve index synced from in-memory records.
type fixture struct {
	recs    *memRecords
	index   namematch.Index
	matcher *namematch.Matcher
	syncer  *namematch.Syncer
}

func newFixture(tb testing.TB, recs []company.Record, opts namematch.Options) *fixture {
	tb.Helper()
	f := &fixture{recs: newMemRecords(), index: newBleve(tb)}
	for _, r := range recs {
		f.recs.put(r)
	}
	f.syncer = namematch.NewSyncer(f.recs, f.index)
	if _, err := f.syncer.Sync(context.Background()); err != nil {
		tb.Fatal(err)
	}
	f.matcher = namematch.New(f.index, f.recs, opts)
	return f
}

// co is a small company record for table tests.
type co struct {
	domain, name              string
	alt                       []string
	country, state, city, zip string
	phone                     string
	score                     int
}

func (c co) record() company.Record {
	rec := company.Record{Domain: c.domain, Raw: company.Raw{Name: c.name, AlternateNames: c.alt}}
	rec.Profile = company.Profile{Domain: c.domain, Name: c.name, Score: c.score,
		Address: company.Address{City: c.city, State: c.state, Zip: c.zip, Country: c.country}}
	if c.phone != "" {
		rec.Profile.Phones = []string{c.phone}
	}
	return rec
}

func records(cs ...co) []company.Record {
	out := make([]company.Record, len(cs))
	for i, c := range cs {
		out[i] = c.record()
	}
	return out
}
