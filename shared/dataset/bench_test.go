package dataset_test

import (
	"compress/gzip"
	"context"
	"io"
	"syscall"
	"testing"
	"time"

	"github.com/firmoapi/firmo/shared/dataset"
)

// BenchmarkAppend10000 appends all six datasets to the 10,000 domains of a seeded
// demo world (one request at the API's cap) and writes the JSON answer through gzip,
// reporting the answer's size raw and gzipped. BENCHMARKS.md has the figures.
func BenchmarkAppend10000(b *testing.B) {
	opts := worldOpts
	opts.Companies = dataset.MaxDomains
	w, _, ds := seededWorld(b, opts)
	req := dataset.Request{Sets: dataset.All, InputHeader: []string{"website"}}
	for i := range w.Len() {
		d := "https://www." + w.Domain(i) + "/"
		req.Rows = append(req.Rows, dataset.Input{Domain: d, Columns: []string{d}})
	}
	ctx := context.Background()
	b.ReportAllocs()
	b.ResetTimer()
	var raw, zipped countWriter
	cpu0 := cpuTime()
	for b.Loop() {
		res, err := ds.Append(ctx, req)
		if err != nil {
			b.Fatal(err)
		}
		raw, zipped = 0, 0
		zw, _ := gzip.NewWriterLevel(&zipped, gzip.DefaultCompression)
		if err := dataset.WriteJSON(io.MultiWriter(&raw, zw), res); err != nil {
			b.Fatal(err)
		}
		zw.Close()
	}
	// CPU seconds per request: on a loaded machine the wall time says more about the
	// neighbours than about the code; the CPU time over 2 cores is the wall time the
	// request needs with both cores to itself.
	b.ReportMetric((cpuTime()-cpu0).Seconds()/float64(b.N), "cpu-s/op")
	b.ReportMetric(float64(raw)/(1<<20), "MB-json")
	b.ReportMetric(float64(zipped)/(1<<20), "MB-gzip")
}

// cpuTime is the process's user and system CPU time so far.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

type countWriter int

func (c *countWriter) Write(p []byte) (int, error) { *c += countWriter(len(p)); return len(p), nil }
