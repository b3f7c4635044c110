package contactgen

import (
	"context"
	"encoding/json"
	"runtime"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/firmoapi/firmo/shared/company"
	"github.com/firmoapi/firmo/shared/task"
	"github.com/firmoapi/firmo/shared/world"
)

// BenchmarkNativeEngine1000 answers 1,000 demo-world domains with the native engine
// (pages held in memory, a search provider returning no hits), GOMAXPROCS workers side
// by side: the engine's own cost, without storage or the task engine. cpu-s/run is
// the CPU time the run took (user and system), which the machine's load does not
// inflate the way it does the wall time; peak-heap-MiB the most heap in use (the
// world's pages, about 60 MiB, included).
// Figures: BENCHMARKS.md.
func BenchmarkNativeEngine1000(b *testing.B) {
	w := world.New(world.Options{Seed: 21, Companies: 1000, AsOf: time.Date(2025, 6, 1, 0, 0, 0, 0, time.UTC)})
	pages := fakeCompanies{}
	for i := 0; i < w.Len(); i++ {
		c := w.Company(i)
		pages[c.Domain] = append(append([]company.Page(nil), c.Pages...), w.TeamSite(i, c).Pages...)
	}
	s, err := New(Deps{Tasks: &fakeTasks{reg: task.NewRegistry()}, Integrations: fakeIntegrations{}, Searchers: &fakeSearch{}, Companies: pages})
	if err != nil {
		b.Fatal(err)
	}
	raw, _ := json.Marshal(params{ICP: "Heads of sales", Engine: EngineNative, MaxContacts: 10, SearchQueries: 1, SearchProviderID: "p1"})
	runtime.GC()
	cpu0 := cpuSeconds()
	b.ResetTimer()
	var rows atomic.Int64
	var peak atomic.Uint64
	stop := make(chan struct{})
	sampled := make(chan struct{})
	go func() { // the heap in use, every 20 ms
		defer close(sampled)
		var ms runtime.MemStats
		for {
			runtime.ReadMemStats(&ms)
			if ms.HeapInuse > peak.Load() {
				peak.Store(ms.HeapInuse)
			}
			select {
			case <-stop:
				return
			case <-time.After(20 * time.Millisecond):
			}
		}
	}()
	for range b.N {
		var next atomic.Int64
		var wg sync.WaitGroup
		for range runtime.GOMAXPROCS(0) {
			wg.Add(1)
			go func() {
				defer wg.Done()
				for i := int(next.Add(1) - 1); i < w.Len(); i = int(next.Add(1) - 1) {
					res, err := processor{s: s}.Process(context.Background(), task.Record{Ref: task.Ref{OrgID: "o", TaskID: "t"}, Key: w.Domain(i), Params: raw})
					if err != nil {
						b.Error(err)
						return
					}
					rows.Add(int64(len(res.Row["contacts"].([]Row))))
				}
			}()
		}
		wg.Wait()
	}
	close(stop)
	<-sampled
	b.ReportMetric(float64(rows.Load())/float64(b.N), "rows/run")
	b.ReportMetric(float64(peak.Load())/(1<<20), "peak-heap-MiB")
	b.ReportMetric((cpuSeconds()-cpu0)/float64(b.N), "cpu-s/run")
}

// cpuSeconds is the process's user and system CPU time: on a shared machine it says
// what the run cost whatever the load.
func cpuSeconds() float64 {
	var ru syscall.Rusage
	syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano()).Seconds()
}
