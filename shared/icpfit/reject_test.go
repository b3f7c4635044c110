package icpfit_test

import (
	"context"
	"flag"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/firmoapi/firmo/shared/icpfit"
	"github.com/firmoapi/firmo/shared/icpfit/icptrain"
	"github.com/firmoapi/firmo/shared/world"
)

var rejectSeed = flag.Uint64("reject-seed", 0, "measure the reject ICPs on this demo world seed (300 companies) instead of the held-out world's first 300")

// rejectICPs are ICPs whose "Reject if" lines cover business model, size, country,
// industry and revenue, the kinds a user rules companies out by.
var rejectICPs = []string{
	"Mandatory:\n- based in Germany\nReject if:\n- B2C companies selling to consumers\nNice-to-have:\n- construction\n",
	"Mid-sized B2B companies.\nMandatory:\n- B2B companies\nReject if:\n- fewer than 10 employees\nNice-to-have:\n- based in the United States\n",
	"Mandatory:\n- B2B companies\nReject if:\n- based in the United States\n- based in the United Kingdom\nNice-to-have:\n- more than 50 employees\n",
	"Mandatory:\n- more than 20 employees\nReject if:\n- financial services companies\n- real estate\nNice-to-have:\n- B2B\n",
	"Mandatory:\n- based in Europe\nReject if:\n- more than 1,000 employees\n- annual revenue under $1 million\nNice-to-have:\n- software\n",
	"Mandatory:\n- software or IT services companies\nReject if:\n- marketing agencies\n- B2C\nNice-to-have:\n- 50-500 employees\n",
	"Mandatory:\n- B2B\nReject if:\n- fewer than 50 staff\n- based in France\n- construction companies\nNice-to-have:\n- uses HubSpot\n",
}

type rejectSet struct {
	name     string
	subjects []icptrain.Subject
}

var demoRejectSet = sync.OnceValues(func() (rejectSet, error) {
	w := world.New(world.Options{Seed: *rejectSeed, Companies: 300, AsOf: time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)})
	subs, err := icptrain.NewPipeline(w).Subjects(context.Background(), w, 0, 300, nil)
	return rejectSet{fmt.Sprintf("world seed %d, 300 companies", *rejectSeed), subs}, err
})

// confusion counts verdicts against the world's truth: Yes, No because a reject line
// kept it from Yes (matched, not judged or in doubt) and No otherwise, against a fit
// (every mandatory line holds and no reject line does), a reject line true, and a
// mandatory line false with no reject line true.
type confusion [3][3]int

const (
	vYes = iota
	vNoReject
	vNoOther
)

const (
	tFit = iota
	tRejected
	tMandatory
)

func (c *confusion) add(o confusion) {
	for i := range c {
		for j := range c[i] {
			c[i][j] += o[i][j]
		}
	}
}

func (c confusion) rows() (n int) {
	for _, r := range c {
		for _, v := range r {
			n += v
		}
	}
	return n
}

func (c confusion) accuracy() float64 {
	right := c[vYes][tFit] + c[vNoReject][tRejected] + c[vNoReject][tMandatory] + c[vNoOther][tRejected] + c[vNoOther][tMandatory]
	return float64(right) / float64(c.rows())
}

func (c confusion) String() string {
	return fmt.Sprintf("Yes: fit %d, reject true %d, mandatory false %d | No (reject line): fit %d, reject true %d, mandatory false %d | No (other): fit %d, reject true %d, mandatory false %d | accuracy %.3f",
		c[0][0], c[0][1], c[0][2], c[1][0], c[1][1], c[1][2], c[2][0], c[2][1], c[2][2], c.accuracy())
}

// scoreReject scores every company against one ICP and returns the confusion; with
// check it also fails the test on a Yes beside a reject line that is matched, not
// judged or in doubt, and on a reasoning that does not name such a line.
func scoreReject(t *testing.T, m *icpfit.Model, text string, subjects []icptrain.Subject, check bool) confusion {
	var c confusion
	crit, _ := icpfit.ParseCriteria(text)
	for _, s := range subjects {
		v := m.Score(crit, s.Company)
		truth := icpfit.Evidence(crit, s.Truth)
		tr := tFit
		if !icpfit.Holds(truth) {
			tr = tMandatory
		}
		for _, r := range truth {
			if r.Section == icpfit.SectionReject && r.Met {
				tr = tRejected
			}
		}
		vr := vNoOther
		if v.Fit {
			vr = vYes
		}
		for _, r := range v.Criteria {
			if r.Section != icpfit.SectionReject || r.Evidence == "no constraint recognised in this line" {
				continue
			}
			held := r.Met || !r.Known || r.Strength >= 0.5 || r.Doubt != ""
			if held && !v.Fit {
				vr = vNoReject
			}
			if !check {
				continue
			}
			// A reject line the profile matches, cannot judge, or does not rule out
			// with confidence keeps the verdict from Yes.
			if v.Fit && held {
				t.Errorf("%s is a Yes (%.2f) beside the reject line %q (strength %.2f, known %v, doubt %q: %s)", s.Domain, v.Score, r.Text, r.Strength, r.Known, r.Doubt, r.Evidence)
			}
			if r.Met && !strings.Contains(v.Reasoning, fmt.Sprintf("Reject if %q matched", r.Text)) {
				t.Errorf("%s: the reasoning %q does not name the matched reject line %q", s.Domain, v.Reasoning, r.Text)
			}
			if held && !r.Met && r.Known && r.Strength < 0.5 && !strings.Contains(v.Reasoning, fmt.Sprintf("Reject if %q is uncertain on the evidence (%s: %s)", r.Text, r.Evidence, r.Doubt)) {
				t.Errorf("%s: the reasoning %q does not name the reject line in doubt %q with its evidence", s.Domain, v.Reasoning, r.Text)
			}
		}
		if check && v.Fit && tr == tRejected {
			t.Errorf("%s: Yes (%.2f) for %q though a reject line holds in the truth; the profile says: %s", s.Domain, v.Score, rejectLines(text), rejectEvidence(v.Criteria))
		}
		c[vr][tr]++
	}
	return c
}

// TestMatchedRejectIsDecisive scores 300 world companies against ICPs with reject
// lines of every kind. No row may be a Yes where a reject line holds for the world's
// truth, and a Yes never stands beside a reject line the evidence matches, cannot
// judge or does not rule out with confidence. It reports the confusion against the
// world's truth with and without the doubt rule, and fails when the rule costs more
// than a sixth of the true Yes rows.
func TestMatchedRejectIsDecisive(t *testing.T) {
	var set rejectSet
	if *rejectSeed != 0 {
		s, err := demoRejectSet()
		if err != nil {
			t.Fatal(err)
		}
		set = s
	} else {
		s, err := evalSet()
		if err != nil {
			t.Fatal(err)
		}
		set = rejectSet{fmt.Sprintf("world seed %d, first 300 companies", evalWorldSeed), s.subjects[:300]}
	}
	m, err := icpfit.DefaultModel()
	if err != nil {
		t.Fatal(err)
	}
	before := icpfit.WithoutDoubt(m)
	var all, allBefore confusion
	for _, text := range rejectICPs {
		c := scoreReject(t, m, text, set.subjects, true)
		b := scoreReject(t, before, text, set.subjects, false)
		t.Logf("%-62q\n  without doubt: %v\n  with doubt:    %v", rejectLines(text), b, c)
		all.add(c)
		allBefore.add(b)
	}
	t.Logf("%s, %d ICPs, %d rows\n  without doubt: %v\n  with doubt:    %v", set.name, len(rejectICPs), all.rows(), allBefore, all)
	if all[vYes][tRejected] != 0 {
		t.Errorf("%d of %d rows are a Yes where a reject line holds in the truth", all[vYes][tRejected], all.rows())
	}
	if lost := allBefore[vYes][tFit] - all[vYes][tFit]; 6*lost > allBefore[vYes][tFit] {
		t.Errorf("the doubt rule turns %d of %d true Yes rows into No: more than a sixth", lost, allBefore[vYes][tFit])
	}
}

// rejectLines are an ICP's reject lines, for the log.
func rejectLines(icp string) string {
	_, rest, _ := strings.Cut(icp, "Reject if:\n")
	line, _, _ := strings.Cut(rest, "\nNice")
	return strings.ReplaceAll(line, "\n", " ")
}

func rejectEvidence(rs []icpfit.CriterionResult) string {
	var out []string
	for _, r := range rs {
		if r.Section == icpfit.SectionReject {
			out = append(out, fmt.Sprintf("[%s: %.2f known=%v %s]", r.Text, r.Strength, r.Known, r.Evidence))
		}
	}
	return strings.Join(out, " ")
}

var doubtSweep = flag.Bool("doubt-sweep", false, "sweep the doubt rule's thresholds on the tuning worlds (seeds 2-6, 300 companies each; a few minutes)")

// TestDoubtThresholdSweep (opt-in, -doubt-sweep) is how the doubt rule's thresholds
// were chosen: the seven reject ICPs over the first 300 companies of demo worlds 2-6,
// which neither the held-out measurement (seeds 1, 11, 12, 13) nor the shipped model
// (seed 7) uses. Each threshold is moved around the shipped value, the others held; a
// row gives the Yes rows where a reject line holds in the truth and the true Yes rows
// lost against the rule without doubt. The shipped thresholds must give no false Yes
// here.
func TestDoubtThresholdSweep(t *testing.T) {
	if !*doubtSweep {
		t.Skip("opt-in: -doubt-sweep")
	}
	var subs []icptrain.Subject
	for seed := uint64(2); seed <= 6; seed++ {
		w := world.New(world.Options{Seed: seed, Companies: 300, AsOf: time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)})
		s, err := icptrain.NewPipeline(w).Subjects(context.Background(), w, 0, 300, nil)
		if err != nil {
			t.Fatal(err)
		}
		subs = append(subs, s...)
	}
	m, err := icpfit.DefaultModel()
	if err != nil {
		t.Fatal(err)
	}
	run := func(m *icpfit.Model) confusion {
		var all confusion
		for _, text := range rejectICPs {
			all.add(scoreReject(t, m, text, subs, false))
		}
		return all
	}
	base := run(icpfit.WithoutDoubt(m))
	t.Logf("without doubt: %v", base)
	def := icpfit.DefaultClearance()
	report := func(name string, c icpfit.Clearance) confusion {
		got := run(icpfit.WithClearance(m, c))
		t.Logf("%-22s Yes where a reject holds %3d, true Yes lost %3d of %d, accuracy %.4f", name, got[vYes][tRejected], base[vYes][tFit]-got[vYes][tFit], base[vYes][tFit], got.accuracy())
		return got
	}
	if got := report("shipped", def); got[vYes][tRejected] != 0 {
		t.Errorf("the shipped thresholds leave %d false Yes rows on the tuning worlds", got[vYes][tRejected])
	}
	for _, v := range []float64{0.3, 0.5} {
		c := def
		c.MaxStrength = v
		report(fmt.Sprintf("maxStrength %.2f", v), c)
	}
	for _, v := range []float64{0.15, 0.3, 2} {
		c := def
		c.ModelIn = v
		report(fmt.Sprintf("modelIn %.2f", v), c)
	}
	for _, v := range []float64{0.6, 0.7, 0.75, 0.9} {
		c := def
		c.ModelOut = v
		report(fmt.Sprintf("modelOut %.2f", v), c)
	}
	for _, v := range []float64{0.4, 0.8} {
		c := def
		c.ModelOutB2B = v
		report(fmt.Sprintf("modelOutB2B %.2f", v), c)
	}
	for _, v := range []float64{0.05, 0.3, 2} {
		c := def
		c.IndustryIn = v
		report(fmt.Sprintf("industryIn %.2f", v), c)
	}
	for _, v := range []int{0, 20, 60} {
		c := def
		c.MinWords = v
		report(fmt.Sprintf("minWords %d", v), c)
	}
}
