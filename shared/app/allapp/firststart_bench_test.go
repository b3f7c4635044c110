package allapp_test

import (
	"context"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/firmoapi/firmo/shared/app/patternsapp"
	"github.com/firmoapi/firmo/shared/company"
	"github.com/firmoapi/firmo/shared/world"
)

// BenchmarkFirstStart measures what `firmo serve` does on an empty data directory
// before GET /readyz answers 200, phase by phase, on a fresh embedded store: seeding
// the 2,000-company demo world, every company derived in full; its contacts; then
// what stands between the stored world and ready: the company-name index synced, the
// email pattern book learned and contact search loaded (contactsearch.Prepare:
// searchable by exact scan), the three at once as `firmo serve` runs them. After ready:
// the HNSW graph, and the verification pass of the contacts' addresses against the
// world's mail (what sets email_validated), each alone. It reports wall seconds per
// phase and the process's CPU seconds to ready, for the graph and for the pass, the
// figures that depend least on what else the machine runs (README "The demo world";
// figures in BENCHMARKS.md beside this file).
func BenchmarkFirstStart(b *testing.B) {
	const companies = 2000
	var seed, contacts, index, graph, verify, cpuReady, cpuGraph, cpuVerify time.Duration
	for i := 0; i < b.N; i++ {
		b.StopTimer()
		a := newEnvB(b)
		ctx := context.Background()
		opts := world.Options{Seed: 1, Companies: companies, AsOf: time.Now()}
		b.StartTimer()
		cpu0, t0 := cpuTime(b), time.Now()
		if _, err := a.SeedWorld(ctx, opts, company.LoadOptions{}, nil); err != nil {
			b.Fatal(err)
		}
		t1 := time.Now()
		n, err := a.SeedContacts(ctx, opts, nil)
		if err != nil || n == 0 {
			b.Fatalf("seeded %d contacts: %v", n, err)
		}
		t2 := time.Now()
		var wg sync.WaitGroup
		wg.Add(2)
		go func() {
			defer wg.Done()
			if _, err := a.SyncNames(ctx); err != nil {
				b.Error(err)
			}
		}()
		go func() {
			defer wg.Done()
			if err := patternsapp.Book(a.Core).Refresh(ctx); err != nil {
				b.Error(err)
			}
		}()
		build, err := a.ContactSearch.Prepare(ctx)
		wg.Wait()
		if err != nil {
			b.Fatal(err)
		}
		t3, cpu3 := time.Now(), cpuTime(b)
		if err := build(ctx); err != nil {
			b.Fatal(err)
		}
		t4, cpu4 := time.Now(), cpuTime(b)
		rep, err := a.EmailChecks().Run(ctx)
		if err != nil || rep.Checked == 0 {
			b.Fatalf("verification pass %+v: %v", rep, err)
		}
		t5 := time.Now()
		cpuReady, cpuGraph, cpuVerify = cpuReady+cpu3-cpu0, cpuGraph+cpu4-cpu3, cpuVerify+cpuTime(b)-cpu4
		seed, contacts, index, graph, verify = seed+t1.Sub(t0), contacts+t2.Sub(t1), index+t3.Sub(t2), graph+t4.Sub(t3), verify+t5.Sub(t4)
		b.StopTimer()
		a.Close()
		b.StartTimer()
	}
	per := func(d time.Duration) float64 { return d.Seconds() / float64(b.N) }
	b.ReportMetric(per(seed), "companies-s")
	b.ReportMetric(per(contacts), "contacts-s")
	b.ReportMetric(per(index), "index-s")
	b.ReportMetric(per(seed+contacts+index), "ready-s")
	b.ReportMetric(per(cpuReady), "ready-cpu-s")
	b.ReportMetric(per(graph), "graph-s")
	b.ReportMetric(per(cpuGraph), "graph-cpu-s")
	b.ReportMetric(per(verify), "verify-s")
	b.ReportMetric(per(cpuVerify), "verify-cpu-s")
}

// cpuTime is the user and system CPU time of the process so far.
func cpuTime(b *testing.B) time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		b.Fatal(err)
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
