package segment

import (
	"context"
	"html"
	"math"
	"path/filepath"
	"regexp"
	"runtime"
	"runtime/metrics"
	"syscall"
	"testing"
	"time"

	"github.com/firmoapi/firmo/shared/apperr"
	"github.com/firmoapi/firmo/shared/company"
	"github.com/firmoapi/firmo/shared/embed/ppmiembed"
	"github.com/firmoapi/firmo/shared/extract"
	"github.com/firmoapi/firmo/shared/industry"
	"github.com/firmoapi/firmo/shared/kv/boltkv"
	"github.com/firmoapi/firmo/shared/world"
)

// worldCompanies is a company store of the demo world's companies with profiles made
// quickly from their rows and homepages without running the pipeline (for the unit
// tests; the benchmark runs the pipeline): name and country from
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

// pipelineCompanies seeds the first n companies of the demo world (seed 1) through the
// company pipeline as the local composition seeds them (page extraction, industry
// classification, keywords; no MX lookups) into a store in a temporary directory: the
// profiles segmentation reads in production, industry labels, sub-industries and
// keywords included.
func pipelineCompanies(tb testing.TB, n int) (company.Store, []string) {
	tb.Helper()
	kv, err := boltkv.Open(filepath.Join(tb.TempDir(), "kv.db"))
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { kv.Close() })
	kv.DB().NoSync = true
	opts := world.Options{Seed: 1, Companies: n, AsOf: time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)}
	w := world.New(opts)
	d := company.NewDeriver(company.DeriverDeps{Extractor: pageExtractor{extract.New()}, Classifier: textClassifier{industry.New()},
		Now: func() time.Time { return opts.AsOf.Add(10 * time.Hour) }})
	svc := company.NewService(company.NewKVStore(kv), d)
	if _, err := world.Seed(context.Background(), svc, w, company.LoadOptions{}, nil); err != nil {
		tb.Fatal(err)
	}
	domains := make([]string, w.Len())
	for i := range domains {
		domains[i] = w.Company(i).Domain
	}
	return svc.Store(), domains
}

// pageExtractor and textClassifier adapt shared/extract and shared/industry to the
// pipeline's ports, as shared/app/companyapp does.
type pageExtractor struct{ e *extract.Extractor }

func (p pageExtractor) Extract(html []byte, pageURL string) (company.Extracted, error) {
	r, err := p.e.Extract(html, pageURL)
	return company.Extracted(r), err
}

type textClassifier struct{ c *industry.Classifier }

func (t textClassifier) Classify(text, lang string) company.Classification {
	return company.Classification(t.c.Classify(text, lang))
}

// BenchmarkSegment10k is one segmentation of 10,000 companies of the demo world seeded
// through the company pipeline (before the timer: a few minutes on 2 cores), end to end
// in the record's processor: reading the companies from the store, embedding their
// profiles with the built-in embedder (trained before the timer), projecting and
// clustering them, and describing the segments. It reports the segments, the
// unclustered share, the NMI of the clustered companies against the world's industries
// the peak heap in use during the segmentation (sampled every 5 ms) and the CPU time it
// took (the process's user plus system time, which the machine's load does not
// inflate as it does the wall time). Results:
// BENCHMARKS.md.
func BenchmarkSegment10k(b *testing.B) {
	store, domains := pipelineCompanies(b, 10_000)
	w := world.New(world.Options{Seed: 1, Companies: 10_000, AsOf: time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)})
	truth := map[string]string{}
	for i := range w.Len() {
		truth[w.Company(i).Domain] = w.Company(i).Truth.Industry
	}
	emb := ppmiembed.New()
	emb.Warm()
	s := New(Deps{Companies: store, Embedder: emb})
	runtime.GC()
	b.ResetTimer()
	for range b.N {
		peak := sampleHeap()
		cpu0 := cpuTime()
		start := time.Now()
		sum, assigned, err := s.segment(context.Background(), domains, 0)
		took := time.Since(start)
		cpu := cpuTime() - cpu0
		heap := peak()
		if err != nil {
			b.Fatal(err)
		}
		var classes, labels []int
		index := map[string]int{}
		unclustered := 0
		for _, a := range assigned {
			if a.Segment < 0 {
				unclustered++
				continue
			}
			if _, ok := index[truth[a.Domain]]; !ok {
				index[truth[a.Domain]] = len(index)
			}
			classes, labels = append(classes, index[truth[a.Domain]]), append(labels, a.Segment)
		}
		share := 100 * float64(unclustered) / float64(sum.Assigned)
		b.ReportMetric(float64(len(sum.Segments)), "segments")
		b.ReportMetric(share, "%unclustered")
		b.ReportMetric(nmi(classes, labels), "NMI")
		b.ReportMetric(float64(heap)/(1<<20), "MB-peak-heap")
		b.ReportMetric(cpu.Seconds(), "CPU-s")
		b.Logf("%d companies (%d closed), %d segments, %.1f%% unclustered, NMI %.3f, %d dimensions, peak heap %d MB, took %s (CPU %s)",
			sum.Assigned, sum.Closed, len(sum.Segments), share, nmi(classes, labels), sum.Dimensions, heap>>20, took.Round(time.Millisecond), cpu.Round(time.Millisecond))
	}
}

// cpuTime is the process's user plus system CPU time so far.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// sampleHeap samples the heap in use every 5 ms until the returned func is called,
// which returns the largest sample.
func sampleHeap() func() uint64 {
	sample := []metrics.Sample{{Name: "/memory/classes/heap/objects:bytes"}}
	read := func() uint64 {
		metrics.Read(sample)
		return sample[0].Value.Uint64()
	}
	stop, done := make(chan struct{}), make(chan uint64)
	go func() {
		peak := read()
		t := time.NewTicker(5 * time.Millisecond)
		defer t.Stop()
		for {
			select {
			case <-stop:
				done <- max(peak, read())
				return
			case <-t.C:
				peak = max(peak, read())
			}
		}
	}()
	return func() uint64 {
		close(stop)
		return <-done
	}
}

// nmi is the normalized mutual information of two labelings (arithmetic mean of the
// entropies, scikit-learn's default).
func nmi(a, b []int) float64 {
	n := float64(len(a))
	type pair struct{ x, y int }
	pa, pb, pab := map[int]float64{}, map[int]float64{}, map[pair]float64{}
	for i := range a {
		pa[a[i]]++
		pb[b[i]]++
		pab[pair{a[i], b[i]}]++
	}
	var ha, hb, mi float64
	for _, c := range pa {
		ha -= c / n * math.Log(c/n)
	}
	for _, c := range pb {
		hb -= c / n * math.Log(c/n)
	}
	for k, c := range pab {
		mi += c / n * math.Log(c*n/(pa[k.x]*pb[k.y]))
	}
	if ha+hb == 0 {
		return 1
	}
	return 2 * mi / (ha + hb)
}
