package hnswindex_test

import (
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/firmoapi/firmo/shared/embed/ppmiembed"
	"github.com/firmoapi/firmo/shared/hnswindex"
	"github.com/firmoapi/firmo/shared/testkit"
	"github.com/firmoapi/firmo/shared/vector"
	"github.com/firmoapi/firmo/shared/vector/vectortest"
)

// The benchmark worlds, 384 dimensions, built into a graph (M=16, efConstruction=200) by two
// writers:
//
//   - contacts: synthetic contact profiles (a title, a skill list and a summary of one
//     function, drawn from the built-in embedder's corpus) embedded by ppmiembed; queries
//     are held-out profiles and bare titles ("VP Engineering"), as icp_text sends them.
//   - gaussian: 2,000 wide Gaussian topics (spread 2.0: a vector's cosine with its centre is
//     about 0.45), which is much harder for a graph than real embeddings (100k only).
//
// 100k runs by default; 1M contacts needs FIRMO_BENCH_1M=1 (about 2 GB of memory and tens of
// minutes of build on 2 cores):
//
//	go test -run '^$' -bench BenchmarkSearch -benchtime 2000x -timeout 120m ./shared/hnswindex
//	FIRMO_BENCH_1M=1 go test -run '^$' -bench BenchmarkSearch -benchtime 2000x -timeout 120m ./shared/hnswindex
const (
	benchDims     = 384
	benchQueries  = 500
	benchEfConstr = 200
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
	exactCPU      time.Duration             // thread CPU time per exact query
	truth         map[string][][]vector.Hit // filter name -> exact top 10 per query
	truthFilterOf map[string]vector.Filter
}

var benchWorlds sync.Map // "dataset/n" -> *benchWorld

type benchCase struct {
	dataset string
	n       int
}

func benchCases() []benchCase {
	cs := []benchCase{{"contacts", 100_000}, {"gaussian", 100_000}}
	if os.Getenv("FIRMO_BENCH_1M") == "1" {
		cs = append(cs, benchCase{"contacts", 1_000_000})
	}
	return cs
}

// contactTexts draws n synthetic profiles (seeded) from the corpus: its lines come in blocks of
// 260 per function, cycling title, title, title | skills, skills, summary, summary.
func contactTexts(b *testing.B, n int, seed uint64) []string {
	raw, err := os.ReadFile("../embed/ppmiembed/corpus.txt")
	if err != nil {
		b.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(string(raw)), "\n")[1:] // the first line is a comment
	const block = 260
	groups := len(lines) / block
	rng := rand.New(rand.NewPCG(seed, 99))
	pick := func(g int, kinds ...int) string {
		for {
			i := g*block + rng.IntN(block)
			for _, k := range kinds {
				if i%block%6 == k {
					return lines[i]
				}
			}
		}
	}
	out := make([]string, n)
	for i := range out {
		g := rng.IntN(groups)
		g2 := g
		if rng.IntN(10) == 0 { // some people changed function: a summary from elsewhere
			g2 = rng.IntN(groups)
		}
		out[i] = pick(g, 0, 1) + " | " + pick(g, 3) + " | " + pick(g2, 4, 5)
	}
	return out
}

func embedAll(b *testing.B, texts []string) [][]float32 {
	e := ppmiembed.New()
	out := make([][]float32, len(texts))
	var wg sync.WaitGroup
	for part := 0; part < 2; part++ {
		wg.Add(1)
		go func(part int) {
			defer wg.Done()
			for i := part; i < len(texts); i += 2 {
				v, err := e.Embed(context.Background(), texts[i:i+1])
				if err != nil {
					b.Error(err)
					return
				}
				out[i] = v[0]
			}
		}(part)
	}
	wg.Wait()
	return out
}

func benchData(b *testing.B, c benchCase) (data, queries [][]float32) {
	switch c.dataset {
	case "contacts":
		data = embedAll(b, contactTexts(b, c.n, 1))
		qs := contactTexts(b, benchQueries/2, 2)
		for i := 0; i < benchQueries/2; i++ {
			qs = append(qs, strings.Split(qs[i], " | ")[0]) // the bare title
		}
		return data, embedAll(b, qs)
	default:
		topics := vectortest.NewClusters(benchDims, 2000, 77)
		topics.Spread = 2.0
		return topics.Draw(c.n, 1), topics.Draw(benchQueries, 2)
	}
}

func getBenchWorld(b *testing.B, c benchCase) *benchWorld {
	key := fmt.Sprintf("%s/%d", c.dataset, c.n)
	if w, ok := benchWorlds.Load(key); ok {
		return w.(*benchWorld)
	}
	// Only one world in memory at a time: the 1M one needs the room.
	benchWorlds.Range(func(k, _ any) bool { benchWorlds.Delete(k); return true })
	b.StopTimer()
	defer b.StartTimer()
	w := &benchWorld{n: c.n}
	w.data, w.queries = benchData(b, c)

	runtime.GC()
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	w.ix = hnswindex.New(benchDims, hnswindex.Config{M: 16, EfConstruction: benchEfConstr, Seed: 1})
	// FIRMO_BENCH_CACHE=dir keeps built graphs between runs (the worlds are seeded, so the
	// same file fits): a rerun then measures searches without the build.
	cache := os.Getenv("FIRMO_BENCH_CACHE")
	cached := cache != "" && w.ix.LoadFile(fmt.Sprintf("%s/%s-%d-efc%d.hnsw", cache, c.dataset, c.n, benchEfConstr)) == nil
	if !cached {
		start := time.Now()
		build(b, w.ix, w.data)
		w.buildRate = float64(c.n) / time.Since(start).Seconds()
		if cache != "" {
			if err := w.ix.SaveFile(fmt.Sprintf("%s/%s-%d-efc%d.hnsw", cache, c.dataset, c.n, benchEfConstr)); err != nil {
				b.Fatal(err)
			}
		}
	}
	runtime.GC()
	runtime.ReadMemStats(&after)
	w.bytesPerVec = float64(after.HeapAlloc-before.HeapAlloc) / float64(c.n)

	w.ref = vector.NewExact(benchDims)
	for i, v := range w.data {
		_ = w.ref.Upsert(context.Background(), int64(i), v)
	}
	w.data = nil // the graph and the reference hold copies
	// Exact-scan latency over a few queries: the baseline of the speed-up.
	runtime.LockOSThread()
	start, startCPU := time.Now(), threadCPU()
	const exactRuns = 20
	for _, q := range w.queries[:exactRuns] {
		_, _ = w.ref.Search(context.Background(), q, 10, vector.Filter{})
	}
	w.exactCPU = (threadCPU() - startCPU) / exactRuns
	w.exactLatency = time.Since(start) / exactRuns
	runtime.UnlockOSThread()
	w.truth = map[string][][]vector.Hit{}
	w.truthFilterOf = map[string]vector.Filter{}
	fmt.Printf("bench world %s (graph loaded from cache: %v): build %.0f vectors/s, %.0f bytes/vector in the graph, exact scan %.2f ms/query (%.2f ms CPU)\n",
		key, cached, w.buildRate, w.bytesPerVec, ms(w.exactLatency), ms(w.exactCPU))
	benchWorlds.Store(key, w)
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
	for _, c := range benchCases() {
		n := c.n
		kinds := []struct {
			name string
			ef   int
			f    func() vector.Filter
		}{
			{"similarity/ef=32", 32, nil},
			{"similarity/ef=64", 64, nil},
			{"similarity/ef=128", 128, nil},
			{"similarity/ef=256", 256, nil},
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
			b.Run(fmt.Sprintf("%s/n=%d/%s", c.dataset, n, k.name), func(b *testing.B) {
				w := getBenchWorld(b, c)
				var f vector.Filter
				if k.f != nil {
					f = k.f()
				}
				truth := w.truthFor(k.name, f)
				w.ix.SetEfSearch(k.ef)
				ctx := context.Background()
				recall, recallEps := 0.0, 0.0
				for i, q := range w.queries {
					got, _ := w.ix.Search(ctx, q, 10, f)
					recall += vector.Recall(got, truth[i])
					recallEps += vector.RecallByScore(got, truth[i], 1e-3)
				}
				recall /= float64(len(w.queries))
				recallEps /= float64(len(w.queries))
				// The machine is shared: besides wall time, measure this thread's CPU time,
				// which other processes' load does not inflate.
				l := testkit.TimeLoop(b, func(i int) error {
					_, _ = w.ix.Search(ctx, w.queries[i%len(w.queries)], 10, f)
					return nil
				})
				mean, cpuMean := l.Mean, l.ProcMean // process CPU: a split exact scan's parts
				b.ReportMetric(recall, "recall@10")
				b.ReportMetric(recallEps, "recall@10-eps")
				b.ReportMetric(float64(w.exactLatency)/float64(mean), "x-exact")
				b.ReportMetric(float64(w.exactCPU)/float64(cpuMean), "x-exact-cpu")
				if k.f == nil && k.ef == 64 && w.buildRate > 0 {
					b.ReportMetric(w.buildRate, "build-vec/s")
					b.ReportMetric(w.bytesPerVec, "B/vector")
				}
			})
		}
	}
}

var (
	threadCPU = testkit.ThreadCPU
	ms        = testkit.Ms
)
