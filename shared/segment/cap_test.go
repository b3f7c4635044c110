package segment

import (
	"context"
	"flag"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/firmoapi/firmo/shared/embed/ppmiembed"
	"github.com/firmoapi/firmo/shared/world"
)

var capSweep = flag.Bool("capsweep", false, "TestCapSweep: seed 1,000 demo-world companies through the company pipeline and sweep max_segments 2 to 15 on the first 500 and 1,000 (a few minutes; figures in BENCHMARKS.md)")

// capRun is one segmentation of a sweep.
type capRun struct {
	cap, segments, companies, largest, unclustered int
	nmi                                            float64
	labels                                         []string
}

func (r capRun) String() string {
	return fmt.Sprintf("cap %2d: %2d segments, largest %4.1f%%, unclustered %4.1f%%, NMI %.3f", r.cap, r.segments,
		100*float64(r.largest)/float64(r.companies), 100*float64(r.unclustered)/float64(r.companies), r.nmi)
}

// segmentWith segments domains under a cap and grades the result against the world's
// true industries.
func segmentWith(t testing.TB, s *Service, domains []string, truth map[string]string, cap int) capRun {
	t.Helper()
	sum, assigned, err := s.segment(context.Background(), domains, cap)
	if err != nil {
		t.Fatal(err)
	}
	r := capRun{cap: cap, segments: len(sum.Segments), companies: sum.Assigned}
	for _, sg := range sum.Segments {
		r.largest = max(r.largest, sg.Size)
		r.labels = append(r.labels, fmt.Sprintf("%s (%d)", sg.Description, sg.Size))
	}
	var classes, labels []int
	index := map[string]int{}
	for _, a := range assigned {
		if a.Segment < 0 {
			r.unclustered++
			continue
		}
		if _, ok := index[truth[a.Domain]]; !ok {
			index[truth[a.Domain]] = len(index)
		}
		classes, labels = append(classes, index[truth[a.Domain]]), append(labels, a.Segment)
	}
	r.nmi = nmi(classes, labels)
	return r
}

// checkCaps sweeps caps over one set of companies and checks what a cap must give:
// min(cap, uncapped) segments or one fewer, no segment over 40% of the companies for
// caps of 5 and more (60% below) unless the uncapped run has one, NMI with the true
// industry of at least minNMI for caps of 6 and more, at most 25% unclustered.
func checkCaps(t *testing.T, s *Service, domains []string, truth map[string]string, caps []int, minNMI float64) {
	t.Helper()
	free := segmentWith(t, s, domains, truth, 0)
	t.Logf("%d companies, uncapped: %s", free.companies, free)
	freeShare := float64(free.largest) / float64(free.companies)
	for _, c := range caps {
		r := segmentWith(t, s, domains, truth, c)
		t.Logf("%s  %s", r, strings.Join(r.labels, "; "))
		want := min(c, free.segments)
		if r.segments > c || r.segments < want-1 {
			t.Errorf("cap %d: %d segments, want %d or %d", c, r.segments, want, want-1)
		}
		limit := 0.6
		if c >= 5 {
			limit = 0.4
		}
		if share := float64(r.largest) / float64(r.companies); share > limit && freeShare <= limit {
			t.Errorf("cap %d: a segment holds %.1f%% of the companies (limit %.0f%%)", c, 100*share, 100*limit)
		}
		if c >= 6 && r.nmi < minNMI {
			t.Errorf("cap %d: NMI %.3f, want >= %.2f", c, r.nmi, minNMI)
		}
		if float64(r.unclustered) > 0.25*float64(r.companies) {
			t.Errorf("cap %d: %d of %d unclustered", c, r.unclustered, r.companies)
		}
	}
}

// TestCapKeepsCoherentSegments: max_segments below the natural number of segments gives
// that many segments (or one fewer), none swallowing the rest, still following the
// industries. Quick form on profiles made from the world's rows (newWorldCompanies);
// -capsweep runs the full sweep on pipeline profiles.
func TestCapKeepsCoherentSegments(t *testing.T) {
	if *capSweep {
		sweepPipeline(t)
		return
	}
	companies, domains := newWorldCompanies(t, 500)
	truth := map[string]string{}
	for d, r := range companies {
		for ind := range r.Profile.IndustryGroups {
			truth[d] = ind
		}
	}
	s := New(Deps{Companies: companies, Embedder: ppmiembed.New()})
	checkCaps(t, s, domains, truth, []int{2, 4, 6, 8, 12}, 0.75)
}

// sweepPipeline is the acceptance sweep: the first 500 and 1,000 companies of the demo
// world, derived by the company pipeline, every cap from 2 to 15.
func sweepPipeline(t *testing.T) {
	start := time.Now()
	store, domains := pipelineCompanies(t, 1000)
	w := world.New(world.Options{Seed: 1, Companies: 1000, AsOf: time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)})
	truth := map[string]string{}
	for i := range w.Len() {
		truth[w.Company(i).Domain] = w.Company(i).Truth.Industry
	}
	t.Logf("seeded in %s", time.Since(start).Round(time.Second))
	emb := ppmiembed.New()
	s := New(Deps{Companies: store, Embedder: emb})
	var caps []int
	for c := 2; c <= 15; c++ {
		caps = append(caps, c)
	}
	for _, n := range []int{500, 1000} {
		t.Run(fmt.Sprint(n), func(t *testing.T) { checkCaps(t, s, domains[:n], truth, caps, 0.75) })
	}
}
