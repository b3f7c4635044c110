package contactsearch

import (
	"context"
	"fmt"
	"os"
	"runtime"
	"slices"
	"sort"
	"testing"
	"time"

	"github.com/firmoapi/firmo/shared/hnswindex"
	"github.com/firmoapi/firmo/shared/testkit"
	"github.com/firmoapi/firmo/shared/vector"
)

// BenchmarkBreadth measures what graphBreadth (index.go) was chosen from: on the scale
// world of BenchmarkScale, for contact search's query shapes (the graph asked for k = a page
// of 10, 25, 50 or 100 plus a quarter, or 400, the head room of a page of 100 under
// per-company caps) and filters admitting about 100%, 10%, 3%, 1% and 0.1% of the contacts
// (real filters of the API, and filters drawn by persona id, which are not correlated with
// the query), it runs the 100 icp_text queries through the graph at a range of ef and
// EfUpper and through the exact plan, and prints recall@k by id against an exact float32
// scan of the filtered set and the thread CPU time per search (scans not split: the work
// of a search, whatever the other core does). Then it runs the same cells by the rule
// (Search's own plan) and checks that every exact plan's answer is the exact scan's, id
// for id. Bench only, and only with FIRMO_BENCH_BREADTH=1 (tens of minutes at 1M):
//
//	FIRMO_BENCH_BREADTH=1 go test -run '^$' -bench 'BenchmarkBreadth/n=100000' -benchtime 1x -timeout 60m ./shared/contactsearch
//	FIRMO_BENCH_BREADTH=1 FIRMO_BENCH_1M=1 go test -run '^$' -bench 'BenchmarkBreadth/n=1000000' -benchtime 1x -timeout 120m ./shared/contactsearch
//
// FIRMO_BENCH_BREADTH=rule runs only the second part (the rule's cells).
func BenchmarkBreadth(b *testing.B) {
	mode := os.Getenv("FIRMO_BENCH_BREADTH")
	if mode == "" {
		b.Skip("FIRMO_BENCH_BREADTH=1 runs the breadth sweep (see its comment)")
	}
	sizes := []int{100_000}
	if os.Getenv("FIRMO_BENCH_1M") == "1" {
		sizes = append(sizes, 1_000_000)
	}
	for _, n := range sizes {
		b.Run(fmt.Sprintf("n=%d", n), func(b *testing.B) {
			w := loadScaleWorld(b, n)
			defer w.close()
			for b.Loop() {
				w.breadthSweep(b, mode != "rule")
			}
		})
	}
}

// breadthKs are the k a similarity search asks the graph for (fetchSizes): a page of 10,
// 25, 50 and 100 contacts plus a quarter, and 400.
var breadthKs = []int{12, 31, 62, 125, 400}

// breadthFilter is one filter of the sweep.
type breadthFilter struct {
	name string
	f    vector.Filter
	n    int // contacts admitted
	done func()
}

func (w *scaleWorld) breadthFilters(b *testing.B) []breadthFilter {
	var out []breadthFilter
	add := func(name string, p Params) {
		req, err := Validate(p)
		if err != nil {
			b.Fatal(err)
		}
		f, err := w.svc.filtersOf(w.sn, req)
		if err != nil {
			b.Fatal(err)
		}
		vf, n, release := w.sn.vectorFilter(&f, nil, nil, scaleDims)
		out = append(out, breadthFilter{name, vf, n, release})
	}
	add("none", Params{})
	add("country-DE", Params{FilterCountry: Strings{"DE"}})
	add("AT-director", Params{PersonCountry: Strings{"AT"}, Seniority: Strings{"director", "executive"}})
	add("AT-executive-phone", Params{PersonCountry: Strings{"AT"}, Seniority: Strings{"executive"}, HasPhone: ptr(true)})
	// Filters by persona id: every per-mille-th contact, so exactly the share asked for.
	for _, permille := range []int{300, 100, 30, 10, 1} {
		var ids []int64
		for _, e := range w.sn.entries {
			if h := uint64(e.C.PersonaID) * 0x9e3779b97f4a7c15; int(h>>54) < permille {
				ids = append(ids, e.C.PersonaID)
			}
		}
		name := fmt.Sprintf("id-%.1f%%", float64(permille)/10)
		// The way vectorFilter hands sets to the index: small ones as a list, large ones
		// as a predicate.
		if len(ids)*20 <= len(w.sn.entries) {
			out = append(out, breadthFilter{name, vector.Filter{IDs: ids}, len(ids), func() {}})
			continue
		}
		set := make(map[int64]bool, len(ids))
		for _, id := range ids {
			set[id] = true
		}
		out = append(out, breadthFilter{name, vector.Filter{Allow: func(id int64) bool { return set[id] }}, len(ids), func() {}})
	}
	return out
}

// breadthCell is one measured cell.
type breadthCell struct {
	recall, minRecall float64
	p50, p99, mean    time.Duration
	plan              hnswindex.Plan
}

func (w *scaleWorld) breadthSweep(b *testing.B, sweep bool) {
	ctx := context.Background()
	runtime.LockOSThread() // thread CPU time
	defer runtime.UnlockOSThread()
	g := w.sn.graph()
	g.SetScanSplit(1, 0)
	defer g.SetScanSplit(0, 0)
	qs := make([][]float32, len(w.texts))
	for i, t := range w.texts {
		req, _ := Validate(Params{IcpText: t})
		q, _, err := w.svc.queryVector(ctx, w.sn, req)
		if err != nil {
			b.Fatal(err)
		}
		qs[i] = q
	}
	maxK := slices.Max(breadthKs)
	for _, bf := range w.breadthFilters(b) {
		sel := float64(bf.n) / float64(len(w.sn.entries))
		// The truth: an exact float32 scan of the filtered set, ties by persona id.
		truth := make([][]vector.Hit, len(qs))
		for i, q := range qs {
			hits, err := w.sn.scan(ctx, q, maxK, bf.f)
			if err != nil {
				b.Fatal(err)
			}
			truth[i] = hits
		}
		fmt.Printf("breadth n=%d filter=%s admitted=%d sel=%.4f\n", w.n, bf.name, bf.n, sel)
		for _, k := range breadthKs {
			if sweep {
				w.breadthCells(b, bf, qs, truth, k, sel)
			}
			c := w.breadthCell(b, bf, qs, truth, k, nil)
			fmt.Printf("  rule   k=%-3d %s recall %.4f (min %.2f) cpu p50 %.3f p99 %.3f mean %.3f ms\n",
				k, planName(c.plan), c.recall, c.minRecall, ms(c.p50), ms(c.p99), ms(c.mean))
			b.ReportMetric(c.recall, fmt.Sprintf("recall-%s-k%d", bf.name, k))
			b.ReportMetric(ms(c.p99), fmt.Sprintf("p99-ms-%s-k%d", bf.name, k))
		}
		bf.done()
	}
}

// breadthCells measures the exact plan and the graph at a range of breadths.
func (w *scaleWorld) breadthCells(b *testing.B, bf breadthFilter, qs [][]float32, truth [][]vector.Hit, k int, sel float64) {
	plans := []hnswindex.Plan{{Exact: true}}
	// A walk passes about ef x 2M / sel nodes: past 200,000 (tens of ms) it is never the
	// cheaper plan, and is not measured.
	walkable := func(ef int) bool { return float64(ef)*32/sel <= 200_000 }
	if walkable(k) {
		efs := map[int]bool{}
		for _, m := range []float64{1, 1.5, 2, 3, 4, 6} {
			efs[int(float64(k)*m)] = true
		}
		for _, ef := range []int{32, 64, 128, 256} {
			if ef > k {
				efs[ef] = true
			}
		}
		var list []int
		for ef := range efs {
			if walkable(ef) {
				list = append(list, ef)
			}
		}
		sort.Ints(list)
		for _, efUpper := range []int{1, 16, 64} {
			for _, ef := range list {
				plans = append(plans, hnswindex.Plan{Ef: ef, EfUpper: efUpper})
			}
		}
	}
	if bf.n == len(w.sn.entries) && k > breadthKs[0] {
		plans = plans[1:] // an exact scan of everything costs the same at every k: once
	}
	for _, p := range plans {
		c := w.breadthCell(b, bf, qs, truth, k, &p)
		fmt.Printf("  sweep  k=%-3d %s recall %.4f (min %.2f) cpu p50 %.3f p99 %.3f mean %.3f ms\n",
			k, planName(p), c.recall, c.minRecall, ms(c.p50), ms(c.p99), ms(c.mean))
	}
}

func planName(p hnswindex.Plan) string {
	if p.Exact {
		return "exact              "
	}
	return fmt.Sprintf("graph ef=%-4d up=%-3d", p.Ef, p.EfUpper)
}

// breadthCell runs every query by plan p (nil: Search's own) and compares with the truth.
// An exact plan must give the truth, id for id.
func (w *scaleWorld) breadthCell(b *testing.B, bf breadthFilter, qs [][]float32, truth [][]vector.Hit, k int, p *hnswindex.Plan) breadthCell {
	ctx := context.Background()
	g := w.sn.graph()
	var c breadthCell
	if p != nil {
		c.plan = *p
	} else {
		c.plan = g.PlanOf(bf.f, k)
	}
	c.minRecall = 1
	cpu := make([]time.Duration, 0, len(qs))
	for i, q := range qs {
		start := threadCPU()
		var hits []vector.Hit
		var err error
		if p != nil {
			hits, err = g.SearchPlan(ctx, q, k, bf.f, *p)
		} else {
			hits, err = g.Search(ctx, q, k, bf.f)
		}
		cpu = append(cpu, threadCPU()-start)
		if err != nil {
			b.Fatal(err)
		}
		want := truth[i][:min(k, len(truth[i]))]
		if len(want) == 0 {
			continue
		}
		in := map[int64]bool{}
		for _, h := range want {
			in[h.ID] = true
		}
		hit := 0
		for _, h := range hits {
			if in[h.ID] {
				hit++
			}
		}
		r := float64(hit) / float64(len(want))
		c.recall += r / float64(len(qs))
		c.minRecall = min(c.minRecall, r)
		if c.plan.Exact && !sameHitOrder(hits, want) {
			b.Errorf("%s k=%d query %d: the exact plan's answer differs from the exact scan's", bf.name, k, i)
		}
	}
	c.p50, c.p99, c.mean = testkit.Percentiles(cpu)
	return c
}

// sameHitOrder reports whether a and b list the same ids in the same order.
func sameHitOrder(a, b []vector.Hit) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i].ID != b[i].ID {
			return false
		}
	}
	return true
}
