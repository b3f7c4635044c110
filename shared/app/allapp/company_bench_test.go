package allapp_test

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"math/rand/v2"
	"net/http"
	"net/http/httptest"
	"sort"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/firmoapi/firmo/shared/account"
	"github.com/firmoapi/firmo/shared/app/allapp"
	"github.com/firmoapi/firmo/shared/company"
	"github.com/firmoapi/firmo/shared/config"
	"github.com/firmoapi/firmo/shared/world"
)

// lookupFixture is a server with the 2,000-company demo world, built once by the parent
// benchmark for its sub-benchmarks (seeding it is not what they measure).
type lookupFixture struct {
	srv     *httptest.Server
	domains []string
	keys    []string
}

// benchOrgs is how many ENTERPRISE organisations the clients spread over: one
// organisation is rate limited to 1,000 lookups a second, and the benchmark measures
// the server, not the limit.
const benchOrgs = 8

func lookupServer(b *testing.B) (*lookupFixture, error) {
	b.Helper()
	dir := b.TempDir()
	var fixture *lookupFixture
	fixtureErr := func() error {
		cfg, err := config.Load(func(k string) string {
			if k == "FIRMO_DATA_DIR" {
				return dir
			}
			return ""
		})
		if err != nil {
			return err
		}
		// The access log is formatted as `firmo serve` does, then discarded.
		a, err := allapp.NewLocal(context.Background(), cfg, slog.New(slog.NewTextHandler(io.Discard, nil)))
		if err != nil {
			return err
		}
		ctx := context.Background()
		opts := world.Options{Seed: allapp.DefaultWorldSeed, Companies: 2000, AsOf: time.Now()}.Normalized()
		b.Cleanup(func() { a.Close() })
		if _, err := a.SeedWorld(ctx, opts, company.LoadOptions{}, nil); err != nil {
			return err
		}
		f := &lookupFixture{srv: httptest.NewServer(a.Handler())}
		w := world.New(opts)
		for i := 0; i < w.Len(); i++ {
			f.domains = append(f.domains, w.Domain(i))
		}
		for i := 0; i < benchOrgs; i++ {
			org, _, err := a.Accounts.EnsureOrg(ctx, fmt.Sprintf("bench-%d", i), account.PlanEnterprise)
			if err != nil {
				return err
			}
			u, err := a.Accounts.CreateUser(ctx, org.ID, fmt.Sprintf("bench%d@bench.firmo.local", i), account.RoleMember, "")
			if err != nil {
				return err
			}
			secret, _, err := a.Accounts.CreateKey(ctx, org.ID, u.ID, "bench")
			if err != nil {
				return err
			}
			f.keys = append(f.keys, secret)
		}
		b.Cleanup(f.srv.Close)
		fixture = f
		return nil
	}()
	return fixture, fixtureErr
}

// BenchmarkCompanyLookups measures single-domain lookups through the whole HTTP stack
// (authentication, rate limits, access log, JSON) on a loopback server, with 32
// keep-alive clients on the same machine. Goal (shared/company/BENCHMARKS.md): at least 2,000
// requests/s on 2 cores with p95 at most 30 ms. Reported: req/s, p50/p95/p99 in ms.
func BenchmarkCompanyLookups(b *testing.B) {
	f, err := lookupServer(b)
	if err != nil {
		b.Fatal(err)
	}
	for _, ep := range []string{"bizdata", "score", "history"} {
		b.Run(ep, func(b *testing.B) { runLookups(b, f, ep) })
	}
}

func runLookups(b *testing.B, f *lookupFixture, endpoint string) {
	const clients = 32
	tr := &http.Transport{MaxIdleConns: clients, MaxIdleConnsPerHost: clients}
	defer tr.CloseIdleConnections()
	client := &http.Client{Transport: tr, Timeout: 10 * time.Second}
	var next atomic.Int64
	var failed atomic.Int64
	lat := make([][]time.Duration, clients)
	b.ResetTimer()
	start := time.Now()
	var wg sync.WaitGroup
	for c := 0; c < clients; c++ {
		wg.Add(1)
		go func(c int) {
			defer wg.Done()
			r := rand.New(rand.NewPCG(uint64(c), 7))
			k := f.keys[c%len(f.keys)]
			for next.Add(1) <= int64(b.N) {
				d := f.domains[r.IntN(len(f.domains))]
				url := fmt.Sprintf("%s/v1/%s?domain=%s", f.srv.URL, endpoint, d)
				if endpoint == "history" {
					url += "&max_records=100"
				}
				req, _ := http.NewRequest("GET", url, nil)
				req.Header.Set("x-service-key", k)
				t0 := time.Now()
				resp, err := client.Do(req)
				if err == nil {
					_, err = io.Copy(io.Discard, resp.Body)
					resp.Body.Close()
					if resp.StatusCode != 200 {
						err = fmt.Errorf("status %d", resp.StatusCode)
					}
				}
				lat[c] = append(lat[c], time.Since(t0))
				if err != nil {
					failed.Add(1)
				}
			}
		}(c)
	}
	wg.Wait()
	elapsed := time.Since(start)
	b.StopTimer()
	var all []time.Duration
	for _, l := range lat {
		all = append(all, l...)
	}
	sort.Slice(all, func(i, j int) bool { return all[i] < all[j] })
	pct := func(p float64) float64 {
		if len(all) == 0 {
			return 0
		}
		return float64(all[int(p*float64(len(all)-1))].Microseconds()) / 1000
	}
	b.ReportMetric(float64(len(all))/elapsed.Seconds(), "req/s")
	b.ReportMetric(pct(0.50), "p50-ms")
	b.ReportMetric(pct(0.95), "p95-ms")
	b.ReportMetric(pct(0.99), "p99-ms")
	b.ReportMetric(float64(failed.Load()), "failed")
	if n := failed.Load(); n > 0 {
		b.Errorf("%d of %d lookups failed", n, len(all))
	}
}

// BenchmarkSeed measures seeding the demo world into a fresh embedded store, in
// companies per second: "first-start" defers the text-derived fields to the
// reprocessing job as `firmo serve` does, "full" derives everything as `firmo seed` does.
func BenchmarkSeed(b *testing.B) {
	for _, mode := range []struct {
		name string
		load company.LoadOptions
	}{{"first-start", company.LoadOptions{DeferText: true}}, {"full", company.LoadOptions{}}} {
		b.Run(mode.name, func(b *testing.B) {
			const n = 1000
			var total time.Duration
			for i := 0; i < b.N; i++ {
				b.StopTimer()
				e := newEnvB(b)
				b.StartTimer()
				t0 := time.Now()
				if _, err := e.SeedWorld(context.Background(), world.Options{Seed: uint64(i + 1), Companies: n, AsOf: time.Now()}, mode.load, nil); err != nil {
					b.Fatal(err)
				}
				total += time.Since(t0)
				b.StopTimer()
				e.Close()
				b.StartTimer()
			}
			b.ReportMetric(float64(n*b.N)/total.Seconds(), "companies/s")
		})
	}
}

func newEnvB(b *testing.B) *allapp.App {
	b.Helper()
	dir := b.TempDir()
	cfg, err := config.Load(func(k string) string {
		if k == "FIRMO_DATA_DIR" {
			return dir
		}
		return ""
	})
	if err != nil {
		b.Fatal(err)
	}
	a, err := allapp.NewLocal(context.Background(), cfg, slog.New(slog.NewTextHandler(io.Discard, nil)))
	if err != nil {
		b.Fatal(err)
	}
	return a
}
