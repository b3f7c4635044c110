package namematch_test

import (
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"runtime"
	"sort"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/firmoapi/firmo/shared/account"
	"github.com/firmoapi/firmo/shared/company"
	"github.com/firmoapi/firmo/shared/kv/boltkv"
	"github.com/firmoapi/firmo/shared/namematch"
	"github.com/firmoapi/firmo/shared/namematch/bleveindex"
	"github.com/firmoapi/firmo/shared/task"
	"github.com/firmoapi/firmo/shared/task/memqueue"
	"github.com/firmoapi/firmo/shared/testkit"
	"github.com/firmoapi/firmo/shared/world"
)

// Benchmarks of BENCHMARKS.md: single-match latency at 100k companies and bulk rows per
// second. The 100k-company store (bbolt, as `firmo serve` keeps it) and its bleve index
// take minutes to build, so they are built once into a cache directory
// (FIRMO_BENCH_CACHE, default <user cache dir>/firmo-bench) keyed by world seed, size,
// normalization and mapping versions; delete it to rebuild.

const benchCompanies = 100_000

type benchSet struct {
	store   *boltkv.Store
	records namematch.Records
	index   *bleveindex.Index
	recs    []company.Record // name, location and phone of every company, for queries
}

var (
	benchOnce sync.Once
	bench     *benchSet
	benchErr  error
)

func benchWorld(b *testing.B) *benchSet {
	b.Helper()
	benchOnce.Do(func() { bench, benchErr = buildBenchSet(b.Logf) })
	if benchErr != nil {
		b.Fatal(benchErr)
	}
	return bench
}

func benchCacheDir() string {
	return testkit.BenchCacheDir(fmt.Sprintf("namematch-%d-seed42-%s-n%d-m%s", benchCompanies, asOf.Format("20060102"), namematch.NormalizationVersion, bleveindex.MappingVersion))
}

func buildBenchSet(logf func(string, ...any)) (*benchSet, error) {
	dir := benchCacheDir()
	done := filepath.Join(dir, "complete")
	if _, err := os.Stat(done); err != nil {
		if err := os.RemoveAll(dir); err != nil {
			return nil, err
		}
		if err := os.MkdirAll(dir, 0o700); err != nil {
			return nil, err
		}
		start := time.Now()
		if err := fillBenchStore(dir, logf); err != nil {
			return nil, err
		}
		logf("built the %d-company store and index in %s (cached in %s)", benchCompanies, time.Since(start).Round(time.Second), dir)
		if err := os.WriteFile(done, []byte(time.Now().UTC().Format(time.RFC3339)), 0o600); err != nil {
			return nil, err
		}
	}
	store, err := boltkv.Open(filepath.Join(dir, "firmo.db"))
	if err != nil {
		return nil, err
	}
	ix, err := bleveindex.Open(filepath.Join(dir, "names.bleve"))
	if err != nil {
		store.Close()
		return nil, err
	}
	cs := company.NewKVStore(store)
	set := &benchSet{store: store, records: cs, index: ix}
	for cursor := ""; ; {
		recs, next, err := cs.List(context.Background(), cursor, 5000)
		if err != nil {
			return nil, err
		}
		for _, r := range recs {
			set.recs = append(set.recs, company.Record{Domain: r.Domain, Raw: company.Raw{Name: r.Raw.Name, City: r.Raw.City},
				Profile: company.Profile{Address: r.Profile.Address, Phones: r.Profile.Phones}})
		}
		if next == "" {
			break
		}
		cursor = next
	}
	return set, nil
}

// fillBenchStore derives the world's companies into a bbolt company store (fsync off
// while loading, as `firmo seed` does) and syncs the name index from it.
func fillBenchStore(dir string, logf func(string, ...any)) error {
	store, err := boltkv.Open(filepath.Join(dir, "firmo.db"))
	if err != nil {
		return err
	}
	defer store.Close()
	store.DB().NoSync = true
	cs := company.NewKVStore(store)
	w := world.New(world.Options{Seed: 42, Companies: benchCompanies, AsOf: asOf})
	var next atomic.Int64
	var wg sync.WaitGroup
	errs := make(chan error, runtime.GOMAXPROCS(0))
	for range runtime.GOMAXPROCS(0) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				i := int(next.Add(1) - 1)
				if i >= w.Len() {
					return
				}
				c := w.Company(i)
				dom, raw, err := c.Row.Parse()
				if err != nil {
					errs <- err
					return
				}
				p, sc, der, _ := deriver.Derive(context.Background(), company.Inputs{Domain: dom, Raw: raw, Certs: c.Certs})
				rec := company.Record{Domain: dom, Raw: raw, Profile: p, Score: sc, Derived: der}
				if err := cs.Put(context.Background(), &rec); err != nil {
					errs <- err
					return
				}
				if i%20000 == 0 {
					logf("bench store: %d companies", i)
				}
			}
		}()
	}
	wg.Wait()
	close(errs)
	if err := <-errs; err != nil {
		return err
	}
	store.DB().NoSync = false
	if err := store.DB().Sync(); err != nil {
		return err
	}
	ix, err := bleveindex.Open(filepath.Join(dir, "names.bleve"))
	if err != nil {
		return err
	}
	defer ix.Close()
	rep, err := namematch.NewSyncer(cs, ix).Sync(context.Background())
	logf("bench index: %+v", rep)
	return err
}

// benchQueries draws n queries from the world: names with the evaluation's damage
// kinds in turn, with no location, the country, or country and city.
func benchQueries(set *benchSet, n int) []namematch.Query {
	rng := rand.New(rand.NewPCG(3, 5))
	kinds := []string{"typo", "legal_dropped", "legal_changed", "abbreviation", "word_order", "accents_case", "no_location", "combined", "exact"}
	out := make([]namematch.Query, 0, n)
	for len(out) < n {
		r := set.recs[rng.IntN(len(set.recs))]
		kind := kinds[len(out)%len(kinds)]
		name := r.Raw.Name
		if kind != "exact" {
			d, ok := damage(rng, kind, name)
			if !ok {
				continue
			}
			name = d
		}
		q := namematch.Query{Name: name}
		switch rng.IntN(3) {
		case 1:
			q.Country = r.Profile.Address.Country
		case 2:
			q.Country, q.City = r.Profile.Address.Country, r.Raw.City
		}
		out = append(out, q)
	}
	return out
}

// cpuTime is the process's user plus system CPU time so far. Benchmarks report CPU
// per query besides wall time: the build machine is shared, and wall time there
// measures the other jobs as much as this code.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// loadAverage is the one-minute load average (Linux), 0 when unknown.
func loadAverage() float64 {
	b, err := os.ReadFile("/proc/loadavg")
	if err != nil {
		return 0
	}
	var l float64
	fmt.Sscan(string(b), &l)
	return l
}

func percentile(d []time.Duration, p float64) float64 {
	s := append([]time.Duration(nil), d...)
	sort.Slice(s, func(i, j int) bool { return s[i] < s[j] })
	i := int(p * float64(len(s)-1))
	return float64(s[i].Microseconds()) / 1000
}

// BenchmarkMatch100k: one op is 1,000 single matches in a row (one goroutine, as one
// request each), through namematch.Matcher on bleve and the bbolt company store.
// Reported: latency percentiles over every query of the run, and answered share.
func BenchmarkMatch100k(b *testing.B) {
	set := benchWorld(b)
	m := namematch.New(set.index, set.records, namematch.Options{})
	queries := benchQueries(set, 1000)
	ctx := context.Background()
	for _, q := range queries[:50] { // warm caches
		m.Match(ctx, q)
	}
	var lat []time.Duration
	answered := 0
	b.ResetTimer()
	cpu0 := cpuTime()
	for b.Loop() {
		for _, q := range queries {
			start := time.Now()
			a, err := m.Match(ctx, q)
			lat = append(lat, time.Since(start))
			if err != nil {
				b.Fatal(err)
			}
			if len(a.Matches) > 0 {
				answered++
			}
		}
	}
	b.ReportMetric(percentile(lat, 0.50), "p50_ms")
	b.ReportMetric(percentile(lat, 0.95), "p95_ms")
	b.ReportMetric(percentile(lat, 0.99), "p99_ms")
	b.ReportMetric(float64(answered)/float64(len(lat)), "answered")
	b.ReportMetric(float64((cpuTime()-cpu0).Microseconds())/1000/float64(len(lat)), "cpu_ms/query")
	b.ReportMetric(loadAverage(), "loadavg")
	b.ReportMetric(0, "ns/op")
}

// BenchmarkBulkRows100k measures bulk match throughput two ways:
//   - matcher: rows through Matcher.MatchRow on as many goroutines as cores (the
//     per-row work of a bulk task, without the task engine);
//   - task: a 2,000-row CSV submitted to the real task engine (bbolt with fsync,
//     in-process queue with 50 workers) until the task has completed, and its results
//     delivered (one status call, billing included).
func BenchmarkBulkRows100k(b *testing.B) {
	set := benchWorld(b)
	m := namematch.New(set.index, set.records, namematch.Options{})
	queries := benchQueries(set, 2000)
	b.Run("matcher", func(b *testing.B) {
		ctx := context.Background()
		var rows atomic.Int64
		cpu0 := cpuTime()
		for b.Loop() {
			var next atomic.Int64
			var wg sync.WaitGroup
			for range runtime.GOMAXPROCS(0) {
				wg.Add(1)
				go func() {
					defer wg.Done()
					for {
						i := int(next.Add(1) - 1)
						if i >= len(queries) {
							return
						}
						if _, err := m.MatchRow(ctx, queries[i]); err != nil {
							b.Error(err)
							return
						}
						rows.Add(1)
					}
				}()
			}
			wg.Wait()
		}
		b.ReportMetric(float64(rows.Load())/b.Elapsed().Seconds(), "rows/s")
		b.ReportMetric(float64((cpuTime()-cpu0).Microseconds())/1000/float64(rows.Load()), "cpu_ms/row")
		b.ReportMetric(loadAverage(), "loadavg")
		b.ReportMetric(0, "ns/op")
	})
	b.Run("task", func(b *testing.B) {
		var csv strings.Builder
		csv.WriteString("name,country,city\n")
		for _, q := range queries {
			fmt.Fprintf(&csv, "%q,%s,%q\n", q.Name, q.Country, q.City)
		}
		store, err := boltkv.Open(filepath.Join(b.TempDir(), "tasks.db"))
		if err != nil {
			b.Fatal(err)
		}
		defer store.Close()
		q := memqueue.New(memqueue.Options{Workers: 50})
		flow := memqueue.NewWorkflow(memqueue.FlowOptions{})
		eng := task.New(task.Deps{Store: store, Kinds: task.NewRegistry(), Queue: q, Flow: flow})
		bill := &charger{}
		bulk := namematch.NewBulk(namematch.BulkDeps{Matcher: m, Tasks: eng, Store: store, Billing: bill})
		if err := eng.Kinds().Register(bulk.Kind()); err != nil {
			b.Fatal(err)
		}
		q.Run(eng)
		flow.Run(eng)
		defer func() {
			flow.Close()
			ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
			defer cancel()
			q.Close(ctx)
		}()
		org := account.Org{ID: "bench", Plan: account.PlanEnterprise}
		ctx := context.Background()
		rows := 0
		cpu0 := cpuTime()
		for b.Loop() {
			sub, err := bulk.Submit(ctx, org.ID, strings.NewReader(csv.String()), namematch.BulkParams{NameColumn: "name", CountryColumn: "country", CityColumn: "city"})
			if err != nil {
				b.Fatal(err)
			}
			for {
				st, err := bulk.Status(ctx, org, sub.TaskID)
				if err != nil {
					b.Fatal(err)
				}
				if st.Status.Terminal() {
					if len(st.Results) != len(queries) {
						b.Fatalf("%d results for %d rows", len(st.Results), len(queries))
					}
					break
				}
				time.Sleep(50 * time.Millisecond)
			}
			rows += len(queries)
		}
		b.ReportMetric(float64(rows)/b.Elapsed().Seconds(), "rows/s")
		b.ReportMetric(float64((cpuTime()-cpu0).Microseconds())/1000/float64(rows), "cpu_ms/row")
		b.ReportMetric(loadAverage(), "loadavg")
		b.ReportMetric(0, "ns/op")
	})
}
