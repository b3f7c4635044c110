package segment

import (
	"context"
	"fmt"
	"html"
	"regexp"
	"runtime"
	"testing"
	"time"

	"github.com/firmoapi/firmo/shared/apperr"
	"github.com/firmoapi/firmo/shared/company"
	"github.com/firmoapi/firmo/shared/embed/ppmiembed"
	"github.com/firmoapi/firmo/shared/world"
)

// worldCompanies is a company store of the demo world's companies with profiles made
// from their rows and homepages without running the pipeline: name and country from
// the row, the description from the homepage's meta description (else its title), the
// world's industry as the industry group. Segmentation reads and embeds the same fields
// of real profiles.
type worldCompanies map[string]company.Record

func (m worldCompanies) Get(_ context.Context, d string) (company.Record, error) {
	r, ok := m[d]
	if !ok {
		return company.Record{}, apperr.ErrNotFound
	}
	return r, nil
}

var (
	metaDescription = regexp.MustCompile(`<meta name="description" content="([^"]*)">`)
	pageTitle       = regexp.MustCompile(`<title>([^<]*)</title>`)
)

func newWorldCompanies(tb testing.TB, n int) (worldCompanies, []string) {
	tb.Helper()
	w := world.New(world.Options{Seed: 1, Companies: n, AsOf: time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)})
	m := worldCompanies{}
	var domains []string
	for i := range w.Len() {
		c := w.Company(i)
		dom, raw, err := c.Row.Parse()
		if err != nil {
			tb.Fatal(err)
		}
		desc := raw.Description
		for _, pg := range c.Pages {
			if m := metaDescription.FindStringSubmatch(pg.HTML); desc == "" && m != nil {
				desc = html.UnescapeString(m[1])
			}
			if m := pageTitle.FindStringSubmatch(pg.HTML); desc == "" && m != nil {
				desc = html.UnescapeString(m[1])
			}
		}
		p := company.Profile{Domain: dom, Name: raw.Name, Description: desc,
			Address:        company.Address{Country: raw.Country, City: raw.City},
			IndustryGroups: map[string]float64{c.Truth.Industry: 1},
			Status:         company.Status{Status: c.Truth.Status}}
		m[dom] = company.Record{Domain: dom, Raw: raw, Profile: p}
		domains = append(domains, dom)
	}
	return m, domains
}

// BenchmarkSegment10k is one segmentation of 10,000 companies, end to end in the
// record's processor: reading the companies, embedding their profiles with the
// built-in embedder (trained before the timer), projecting and clustering them, and
// describing the segments. Results: BENCHMARKS.md.
func BenchmarkSegment10k(b *testing.B) {
	companies, domains := newWorldCompanies(b, 10_000)
	emb := ppmiembed.New()
	emb.Warm()
	s := New(Deps{Companies: companies, Embedder: emb})
	runtime.GC()
	b.ResetTimer()
	for range b.N {
		start := time.Now()
		sum, _, err := s.segment(context.Background(), domains, 0)
		if err != nil {
			b.Fatal(err)
		}
		unclustered := sum.Assigned
		for _, sg := range sum.Segments {
			unclustered -= sg.Size
		}
		b.ReportMetric(float64(len(sum.Segments)), "segments")
		b.ReportMetric(100*float64(unclustered)/float64(sum.Assigned), "%unclustered")
		b.Logf("%d companies (%d closed), %d segments, took %s", sum.Assigned, sum.Closed, len(sum.Segments), time.Since(start).Round(time.Millisecond))
	}
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	b.ReportMetric(float64(ms.HeapSys)/(1<<20), "MB-heap-sys")
	_ = fmt.Sprint
}
