package testkit

import (
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"testing"
	"time"

	"golang.org/x/sys/unix"
)

// ThreadCPU is the CPU time of the calling OS thread. Benchmarks on this shared machine
// lock their goroutine to its thread (runtime.LockOSThread) and report it next to wall
// time: it is what an operation costs whatever else runs.
func ThreadCPU() time.Duration { return cpuClock(unix.CLOCK_THREAD_CPUTIME_ID) }

// ProcessCPU is the CPU time of every thread of the process: a search that runs part of its
// work on another goroutine (hnswindex splits long exact scans) costs it all.
func ProcessCPU() time.Duration { return cpuClock(unix.CLOCK_PROCESS_CPUTIME_ID) }

// cpuClock reads a CPU-time clock; 0 where the system has none.
func cpuClock(id int32) time.Duration {
	var ts unix.Timespec
	if err := unix.ClockGettime(id, &ts); err != nil {
		return 0
	}
	return time.Duration(ts.Nano())
}

// Percentiles sorts d and returns its median, 99th percentile and mean. d must not be
// empty.
func Percentiles(d []time.Duration) (p50, p99, mean time.Duration) {
	slices.Sort(d)
	var sum time.Duration
	for _, x := range d {
		sum += x
	}
	return d[len(d)/2], d[len(d)*99/100], sum / time.Duration(len(d))
}

// Ms is d in milliseconds, for b.ReportMetric.
func Ms(d time.Duration) float64 { return float64(d.Nanoseconds()) / 1e6 }

// BenchCacheDir is where a benchmark keeps what is expensive to build (stores, graphs,
// indexes) between runs: $FIRMO_BENCH_CACHE/name, by default under the user cache
// directory (firmo-bench/name). Name it by everything that changes the content.
func BenchCacheDir(name string) string {
	dir := os.Getenv("FIRMO_BENCH_CACHE")
	if dir == "" {
		base, err := os.UserCacheDir()
		if err != nil {
			base = os.TempDir()
		}
		dir = filepath.Join(base, "firmo-bench")
	}
	return filepath.Join(dir, name)
}

// Latency is what TimeLoop measured: wall, thread-CPU and process-CPU percentiles of one
// operation.
type Latency struct {
	P50, P99, Mean             time.Duration // wall clock
	CPUP50, CPUP99, CPUMean    time.Duration // CPU time of the calling thread
	ProcP50, ProcP99, ProcMean time.Duration // CPU time of the whole process (helpers, the collector)
}

// TimeLoop runs op(i) for i = 0, 1, ... until b.Loop ends, on a goroutine locked to its
// thread, timing each call in wall, thread CPU and process CPU time; an error from op fails
// b. Thread CPU is what the call cost on its own thread, whatever else runs; process CPU
// adds the work of goroutines it started (and of the collector, while it runs). It reports
// p50-ms, p99-ms, cpu-p50-ms, cpu-p99-ms, proc-cpu-p50-ms and proc-cpu-p99-ms and returns
// the figures.
func TimeLoop(b *testing.B, op func(i int) error) Latency {
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	lat := make([]time.Duration, 0, b.N)
	cpu := make([]time.Duration, 0, b.N)
	proc := make([]time.Duration, 0, b.N)
	i := 0
	b.ResetTimer()
	for b.Loop() {
		start, startCPU, startProc := time.Now(), ThreadCPU(), ProcessCPU()
		if err := op(i); err != nil {
			b.Fatal(err)
		}
		cpu = append(cpu, ThreadCPU()-startCPU)
		proc = append(proc, ProcessCPU()-startProc)
		lat = append(lat, time.Since(start))
		i++
	}
	b.StopTimer()
	var l Latency
	l.P50, l.P99, l.Mean = Percentiles(lat)
	l.CPUP50, l.CPUP99, l.CPUMean = Percentiles(cpu)
	l.ProcP50, l.ProcP99, l.ProcMean = Percentiles(proc)
	b.ReportMetric(Ms(l.P50), "p50-ms")
	b.ReportMetric(Ms(l.P99), "p99-ms")
	b.ReportMetric(Ms(l.CPUP50), "cpu-p50-ms")
	b.ReportMetric(Ms(l.CPUP99), "cpu-p99-ms")
	b.ReportMetric(Ms(l.ProcP50), "proc-cpu-p50-ms")
	b.ReportMetric(Ms(l.ProcP99), "proc-cpu-p99-ms")
	return l
}
