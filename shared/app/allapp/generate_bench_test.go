package allapp_test

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"runtime"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/firmoapi/firmo/shared/company"
	"github.com/firmoapi/firmo/shared/world"
)

// BenchmarkContactGeneration1000 runs POST /v1/contacts/discover/generate over 1,000
// demo-world domains on the native engine (built-in native search provider, no LLM)
// and waits for completion; the world is seeded before the timer starts. It reports
// the run's wall time, its CPU time (user and system, all of the process) and the peak
// heap in use while it ran (sampled every 20 ms).
// Figures: shared/contactgen/BENCHMARKS.md.
func BenchmarkContactGeneration1000(b *testing.B) {
	a := newEnvB(b)
	ctx := context.Background()
	demo, err := a.EnsureDemo(ctx)
	if err != nil {
		b.Fatal(err)
	}
	srv := httptest.NewServer(a.Handler())
	b.Cleanup(func() { srv.Close(); a.Close() })
	opts := world.Options{Seed: 21, Companies: 1000, AsOf: time.Now()}.Normalized()
	if _, err := a.SeedWorld(ctx, opts, company.LoadOptions{}, nil); err != nil {
		b.Fatal(err)
	}
	if err := a.StartTasks(ctx); err != nil {
		b.Fatal(err)
	}
	call := func(method, path, body string) (int, map[string]any) {
		req, _ := http.NewRequest(method, srv.URL+path, strings.NewReader(body))
		req.Header.Set("x-service-key", demo.Key)
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			b.Fatal(err)
		}
		defer resp.Body.Close()
		var out map[string]any
		json.NewDecoder(resp.Body).Decode(&out)
		return resp.StatusCode, out
	}
	if code, out := call("POST", "/v1/search-providers", `{"provider":"native","name":"Firmo pages"}`); code != 200 && code != 201 {
		b.Fatalf("create search provider: %d %v", code, out)
	}
	w := world.New(opts)
	doms := make([]string, w.Len())
	for i := range doms {
		doms[i] = w.Domain(i)
	}
	body, _ := json.Marshal(map[string]any{"icp_text": "Heads of sales and marketing", "domains": doms})
	runtime.GC()
	b.ResetTimer()
	for range b.N {
		var peak uint64
		stop := make(chan struct{})
		var wg sync.WaitGroup
		wg.Add(1)
		go func() {
			defer wg.Done()
			var ms runtime.MemStats
			for {
				runtime.ReadMemStats(&ms)
				peak = max(peak, ms.HeapInuse)
				select {
				case <-stop:
					return
				case <-time.After(20 * time.Millisecond):
				}
			}
		}()
		start, cpu0 := time.Now(), processCPU()
		code, sub := call("POST", "/v1/contacts/discover/generate", string(body))
		if code != 200 {
			b.Fatalf("submit: %d %v", code, sub)
		}
		id := sub["task_id"].(string)
		for {
			_, st := call("GET", "/v1/gen/status/"+id, "")
			if st["status"] == "completed" {
				break
			}
			if time.Since(start) > 10*time.Minute {
				b.Fatalf("not completed after 10 minutes: %v", st["progress"])
			}
			time.Sleep(time.Second) // each poll reads every result so far: keep the polling light
		}
		elapsed, cpu := time.Since(start), processCPU()-cpu0
		close(stop)
		wg.Wait()
		b.ReportMetric(elapsed.Seconds(), "s/run")
		b.ReportMetric(float64(peak)/(1<<20), "peak-heap-MiB")
		b.ReportMetric(cpu, "cpu-s/run")
	}
}

// processCPU is the process's user and system CPU time in seconds: what a run cost,
// whatever the load of a shared machine does to its wall time.
func processCPU() float64 {
	var ru syscall.Rusage
	syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano()).Seconds()
}
