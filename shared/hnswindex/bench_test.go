package hnswindex_test

import (
	"context"
	"fmt"
	"os"
	"runtime"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/firmoapi/firmo/shared/hnswindex"
	"github.com/firmoapi/firmo/shared/vector"
	"github.com/firmoapi/firmo/shared/vector/vectortest"
)

// The benchmark world: n synthetic contact embeddings of 384 dimensions drawn from 2,000 wide
// topics (spread 2.0), built into a graph with two writers. 100k runs by default; 1M needs
// FIRMO_BENCH_1M=1 (about 2 GB of memory and several minutes of build on 2 cores).
//
//	go test -run '^$' -bench BenchmarkSearch -benchtime 2000x ./shared/hnswindex
//	FIRMO_BENCH_1M=1 go test -run '^$' -bench BenchmarkSearch -benchtime 2000x -timeout 60m ./shared/hnswindex
const (
	benchDims     = 384
	benchTopics   = 2000
	benchQueries  = 500
	benchEfConstr = 100
	// benchSpread 2.0 puts a vector at cosine ~0.45 from its topic centre: neighbourhoods
	// overlap and the graph has to work (at 1.0 every setting reaches recall 0.99+).
	benchSpread = 2.0
)

type benchWorld struct {
	n             int
	data          [][]float32
	queries       [][]float32
	ix            *hnswindex.Index
	ref           *vector.Exact
	buildRate     float64 // vectors per second
	bytesPerVec   float64 // heap growth of the graph per vector
	exactLatency  time.Duration
	truth         map[string][][]vector.Hit // filter name -> exact top 10 per query
	truthFilterOf map[string]vector.Filter
}

var benchWorlds sync.Map // n -> *benchWorld

func benchSizes() []int {
	if os.Getenv("FIRMO_BENCH_1M") == "1" {
		return []int{100_000, 1_000_000}
	}
	return []int{100_000}
}

func getBenchWorld(b *testing.B, n int) *benchWorld {
	if w, ok := benchWorlds.Load(n); ok {
		return w.(*benchWorld)
	}
	b.StopTimer()
	defer b.StartTimer()
	topics := vectortest.NewClusters(benchDims, benchTopics, 77)
	topics.Spread = benchSpread
	w := &benchWorld{n: n, data: topics.Draw(n, 1), queries: topics.Draw(benchQueries, 2)}

	runtime.GC()
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	w.ix = hnswindex.New(benchDims, hnswindex.Config{M: 16, EfConstruction: benchEfConstr, Seed: 1})
	start := time.Now()
	build(b, w.ix, w.data)
	w.buildRate = float64(n) / time.Since(start).Seconds()
	runtime.GC()
	runtime.ReadMemStats(&after)
	w.bytesPerVec = float64(after.HeapAlloc-before.HeapAlloc) / float64(n)

	w.ref = vector.NewExact(benchDims)
	for i, v := range w.data {
		_ = w.ref.Upsert(context.Background(), int64(i), v)
	}
	// Exact-scan latency over a few queries: the baseline of the speed-up.
	start = time.Now()
	const exactRuns = 20
	for _, q := range w.queries[:exactRuns] {
		_, _ = w.ref.Search(context.Background(), q, 10, vector.Filter{})
	}
	w.exactLatency = time.Since(start) / exactRuns
	w.truth = map[string][][]vector.Hit{}
	w.truthFilterOf = map[string]vector.Filter{}
	fmt.Printf("bench world n=%d: build %.0f vectors/s, %.0f bytes/vector in the graph, exact scan %.2f ms/query\n",
		n, w.buildRate, w.bytesPerVec, float64(w.exactLatency.Microseconds())/1000)
	benchWorlds.Store(n, w)
	return w
}

// truthFor computes (once) the exact top 10 of every query under a named filter.
func (w *benchWorld) truthFor(name string, f vector.Filter) [][]vector.Hit {
	if t, ok := w.truth[name]; ok {
		return t
	}
	out := make([][]vector.Hit, len(w.queries))
	var wg sync.WaitGroup
	for part := 0; part < 2; part++ {
		wg.Add(1)
		go func(part int) {
			defer wg.Done()
			for i := part; i < len(w.queries); i += 2 {
				out[i], _ = w.ref.Search(context.Background(), w.queries[i], 10, f)
			}
		}(part)
	}
	wg.Wait()
	w.truth[name] = out
	return out
}

// bitmapFilter admits the ids whose bit is set, the way contact search hands over the result
// of its attribute filters.
func bitmapFilter(n int, keep func(i int) bool) vector.Filter {
	bits := make([]bool, n)
	for i := range bits {
		bits[i] = keep(i)
	}
	return vector.Filter{Allow: func(id int64) bool { return id >= 0 && int(id) < len(bits) && bits[id] }}
}

// BenchmarkSearch reports, per size and query kind: p50 and p99 latency, recall@10 against
// exact search, throughput relative to an exact scan of all vectors, and (on the unfiltered
// case) the build rate and memory per vector.
func BenchmarkSearch(b *testing.B) {
	for _, n := range benchSizes() {
		kinds := []struct {
			name string
			ef   int
			f    func() vector.Filter
		}{
			{"similarity/ef=32", 32, nil},
			{"similarity/ef=64", 64, nil},
			{"similarity/ef=128", 128, nil},
			{"filtered-50pct/ef=64", 64, func() vector.Filter { return bitmapFilter(n, func(i int) bool { return i%2 == 0 }) }},
			{"filtered-5pct/ef=64", 64, func() vector.Filter { return bitmapFilter(n, func(i int) bool { return i%20 == 7 }) }},
			{"filtered-0.3pct-exact/ef=64", 64, func() vector.Filter { return bitmapFilter(n, func(i int) bool { return i%300 == 11 }) }},
			{"candidate-set-5000-exact", 64, func() vector.Filter {
				ids := make([]int64, 0, 5000)
				for i := 0; len(ids) < 5000; i += n / 5000 {
					ids = append(ids, int64(i))
				}
				return vector.Filter{IDs: ids}
			}},
		}
		for _, k := range kinds {
			b.Run(fmt.Sprintf("n=%d/%s", n, k.name), func(b *testing.B) {
				w := getBenchWorld(b, n)
				var f vector.Filter
				if k.f != nil {
					f = k.f()
				}
				truth := w.truthFor(k.name, f)
				w.ix.SetEfSearch(k.ef)
				ctx := context.Background()
				recall := 0.0
				for i, q := range w.queries {
					got, _ := w.ix.Search(ctx, q, 10, f)
					recall += vector.Recall(got, truth[i])
				}
				recall /= float64(len(w.queries))
				lat := make([]time.Duration, 0, b.N)
				i := 0
				b.ResetTimer()
				for b.Loop() {
					start := time.Now()
					_, _ = w.ix.Search(ctx, w.queries[i%len(w.queries)], 10, f)
					lat = append(lat, time.Since(start))
					i++
				}
				b.StopTimer()
				slices.Sort(lat)
				p50, p99 := lat[len(lat)/2], lat[len(lat)*99/100]
				var sum time.Duration
				for _, d := range lat {
					sum += d
				}
				mean := sum / time.Duration(len(lat))
				b.ReportMetric(float64(p50.Microseconds())/1000, "p50-ms")
				b.ReportMetric(float64(p99.Microseconds())/1000, "p99-ms")
				b.ReportMetric(recall, "recall@10")
				b.ReportMetric(float64(w.exactLatency)/float64(mean), "x-exact")
				if k.f == nil && k.ef == 64 {
					b.ReportMetric(w.buildRate, "build-vec/s")
					b.ReportMetric(w.bytesPerVec, "B/vector")
				}
			})
		}
	}
}
