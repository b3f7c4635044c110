package testkit

import (
	"os"
	"path/filepath"
	"slices"
	"time"

	"golang.org/x/sys/unix"
)

// ThreadCPU is the CPU time of the calling OS thread. Benchmarks on this shared machine
// lock their goroutine to its thread (runtime.LockOSThread) and report it next to wall
// time: it is what an operation costs whatever else runs.
func ThreadCPU() time.Duration {
	var ts unix.Timespec
	if err := unix.ClockGettime(unix.CLOCK_THREAD_CPUTIME_ID, &ts); err != nil {
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
