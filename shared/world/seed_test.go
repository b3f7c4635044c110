package world_test

import (
	"context"
	"path/filepath"
	"testing"
	"time"

	"github.com/firmoapi/firmo/shared/company"
	"github.com/firmoapi/firmo/shared/dnsmx"
	"github.com/firmoapi/firmo/shared/extract"
	"github.com/firmoapi/firmo/shared/industry"
	"github.com/firmoapi/firmo/shared/kv/boltkv"
	"github.com/firmoapi/firmo/shared/world"
)

// classifier adapts shared/industry to the pipeline's port, as shared/app does.
type classifier struct{ c *industry.Classifier }

func (x classifier) Classify(text, lang string) company.Classification {
	return company.Classification(x.c.Classify(text, lang))
}

func (x classifier) ClassifyPage(p company.PageStatements) company.Classification {
	return company.Classification(x.c.ClassifyPage(industry.Page(p)))
}

// extractor adapts shared/extract to the pipeline's port, as shared/app does.
type extractor struct{ e *extract.Extractor }

func (x extractor) Extract(html []byte, url string) (company.Extracted, error) {
	r, err := x.e.Extract(html, url)
	return company.Extracted(r), err
}

// seeded seeds a world into a fresh embedded store, with the world's DNS zone served
// by an in-process DNS server that the pipeline queries.
func seeded(t *testing.T, opts world.Options) (*world.World, *company.Service) {
	t.Helper()
	kv, err := boltkv.Open(filepath.Join(t.TempDir(), "kv.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { kv.Close() })
	kv.DB().NoSync = true // a test database need not survive a crash
	w := world.New(opts)
	zone := &dnsmx.MapZone{}
	zone.Set(w.Zone())
	dns, err := dnsmx.Serve("127.0.0.1:0", zone)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { dns.Close() })
	now := func() time.Time { return opts.AsOf.Add(10 * time.Hour) }
	d := company.NewDeriver(company.DeriverDeps{Extractor: extractor{extract.New()}, Classifier: classifier{industry.New()}, MX: dnsmx.New([]string{dns.Addr()}, time.Second), Now: now})
	svc := company.NewService(company.NewKVStore(kv), d)
	rep, err := world.Seed(context.Background(), svc, w, company.LoadOptions{}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if rep.Companies != opts.Companies || rep.Changed != opts.Companies {
		t.Fatalf("seed report = %+v", rep)
	}
	return w, svc
}

// TestPipelineRecoversTheWorld seeds a world and grades what the pipeline derived from
// its raw material against the generator's truth.
func TestPipelineRecoversTheWorld(t *testing.T) {
	opts := world.Options{Seed: 11, Companies: 250, AsOf: time.Date(2025, 6, 1, 0, 0, 0, 0, time.UTC)}
	w, svc := seeded(t, opts)
	ctx := context.Background()
	var statusOK, mxOK, langOK, langTotal, geoOK, phoneOK, phoneTotal, redirectOK, redirects int
	var top1, top2, modelOK, classified int
	for i := 0; i < w.Len(); i++ {
		c := w.Company(i)
		p, err := svc.Profile(ctx, c.Domain)
		if err != nil {
			t.Fatalf("%s: %v", c.Domain, err)
		}
		if p.Status.Status == c.Truth.Status {
			statusOK++
		} else {
			t.Logf("%s (%s): status %s, truth %s", c.Domain, c.Truth.Shape, p.Status.Status, c.Truth.Status)
		}
		got := ""
		if p.MXProvider != nil {
			got = *p.MXProvider
		}
		if got == c.Truth.MXProvider {
			mxOK++
		} else {
			t.Logf("%s: mx_provider %q, truth %q", c.Domain, got, c.Truth.MXProvider)
		}
		if c.Truth.Language != "" {
			classified++
			best, second := topTwo(p.IndustryGroups)
			if best == c.Truth.Industry {
				top1++
			}
			if best == c.Truth.Industry || second == c.Truth.Industry {
				top2++
			}
			if m, _ := topTwo(p.BusinessModel); m == c.Truth.BusinessModel {
				modelOK++
			}
			langTotal++
			if p.Language != nil && *p.Language == c.Truth.Language {
				langOK++
			}
		}
		if p.Latitude != nil && p.GeoPrecision != nil && *p.GeoPrecision == "city" && p.Address.State != "" {
			geoOK++
		}
		if c.Row.Phone != "" {
			phoneTotal++
			if e, ok := company.E164(c.Row.Phone, c.Truth.Country); ok && len(p.Phones) > 0 && p.Phones[0] == e {
				phoneOK++
			}
		}
		if c.Truth.RedirectTo != "" {
			redirects++
			if p.RedirectDomain != nil && *p.RedirectDomain == c.Truth.RedirectTo {
				redirectOK++
			}
		}
		if len(c.Certs) > 0 && (p.StartDate == nil || *p.StartDate != company.Date(c.Certs[0].DateFrom)) {
			t.Errorf("%s: start_date %v, first certificate %s", c.Domain, p.StartDate, c.Certs[0].DateFrom)
		}
		if c.Truth.Status == company.StatusActive && p.Score == 0 {
			t.Errorf("%s: an active company scored 0", c.Domain)
		}
	}
	n := w.Len()
	grades := []struct {
		what      string
		ok, total int
		min       float64
	}{
		{"status", statusOK, n, 1}, {"mx_provider", mxOK, n, 1}, {"language", langOK, langTotal, 0.95},
		{"coordinates and state", geoOK, n, 1}, {"E.164 phone", phoneOK, phoneTotal, 1}, {"redirect_domain", redirectOK, redirects, 1},
		// shared/industry's classifier on the world's homepages (measured 95.0%, 98.2%
		// and 77.0% on this world; the world and the classifier are deterministic).
		{"industry top 1", top1, classified, 0.9}, {"industry top 2", top2, classified, 0.95},
		{"business model", modelOK, classified, 0.7},
	}
	for _, g := range grades {
		rate := float64(g.ok) / float64(g.total)
		t.Logf("%s: %d/%d (%.1f%%)", g.what, g.ok, g.total, 100*rate)
		if g.total == 0 || rate < g.min {
			t.Errorf("%s: %d/%d right, want at least %.0f%%", g.what, g.ok, g.total, 100*g.min)
		}
	}

	// Seeding the same world again changes nothing.
	rep, err := world.Seed(ctx, svc, w, company.LoadOptions{}, nil)
	if err != nil || rep.Changed != 0 {
		t.Fatalf("second seed = %+v, %v; want no change", rep, err)
	}
	got, ok, err := world.Stored(ctx, svc.Store())
	if err != nil || !ok || got.Seed != 11 || got.Companies != 250 {
		t.Fatalf("stored world = %+v, %v, %v", got, ok, err)
	}
}

// topTwo returns the two labels with the highest scores.
func topTwo(m map[string]float64) (string, string) {
	var a, b string
	for k, v := range m {
		switch {
		case a == "" || v > m[a] || (v == m[a] && k < a):
			a, b = k, a
		case b == "" || v > m[b] || (v == m[b] && k < b):
			b = k
		}
	}
	return a, b
}
