package icpfit_test

import (
	"context"
	"encoding/json"
	"flag"
	"os"
	"sync"
	"testing"
	"time"

	"github.com/firmoapi/firmo/shared/icpfit"
	"github.com/firmoapi/firmo/shared/icpfit/icptrain"
	"github.com/firmoapi/firmo/shared/world"
)

var update = flag.Bool("update", false, "rewrite reliability.svg and testdata/heldout.json from the held-out evaluation")

// The held-out set: a demo world the shipped model never saw (it was trained on seed
// 7; `firmo serve` seeds seed 1), paired with ICPs from another generator seed.
const (
	evalWorldSeed = 11
	evalCompanies = 400
	evalPerCo     = 10
	evalICPSeed   = 2
)

type heldOut struct {
	subjects []icptrain.Subject
	pairs    []icptrain.Pair
}

var evalSet = sync.OnceValues(func() (heldOut, error) {
	w := world.New(world.Options{Seed: evalWorldSeed, Companies: evalCompanies, AsOf: time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)})
	subs, err := icptrain.NewPipeline(w).Subjects(context.Background(), w, 0, evalCompanies, nil)
	if err != nil {
		return heldOut{}, err
	}
	pairs := icptrain.Pairs(subs, evalPerCo, evalICPSeed)
	if _, err := icptrain.Label(context.Background(), icptrain.Options{Subjects: subs, Labeler: &icptrain.Truth{}}, pairs); err != nil {
		return heldOut{}, err
	}
	return heldOut{subs, pairs}, nil
})

// TestHeldOutEvaluation recomputes the figures of EVALUATION.md: the shipped model on
// 4,000 (ICP, company) pairs of a world it never saw, labelled by the world's truth.
func TestHeldOutEvaluation(t *testing.T) {
	set, err := evalSet()
	if err != nil {
		t.Fatal(err)
	}
	m, err := icpfit.DefaultModel()
	if err != nil {
		t.Fatal(err)
	}
	got := icptrain.Evaluate(m, set.subjects, set.pairs)
	t.Logf("model %s on %d held-out pairs: Brier %.4f, ECE %.4f, high %.3f (accuracy %.3f), medium %.3f, low %.3f, accuracy %.3f, fits %.3f",
		m.Version(), got.Pairs, got.Brier, got.ECE, got.HighShare, got.HighAccuracy, got.MediumShare, got.LowShare, got.Accuracy, got.Positives)
	if got.Pairs != evalCompanies*evalPerCo {
		t.Fatalf("%d pairs, want %d", got.Pairs, evalCompanies*evalPerCo)
	}
	if got.Positives < 0.15 || got.Positives > 0.85 {
		t.Errorf("fits are %.3f of the pairs: the set would not test both sides", got.Positives)
	}
	if got.ECE > 0.03 {
		t.Errorf("ECE %.4f, goal <= 0.03", got.ECE)
	}
	if got.HighAccuracy < 0.95 {
		t.Errorf("accuracy within the high-confidence bands %.4f, goal >= 0.95", got.HighAccuracy)
	}
	if got.Brier > 0.08 {
		t.Errorf("Brier %.4f: worse than a model this informed should be", got.Brier)
	}
	if *update {
		b, _ := json.MarshalIndent(struct {
			Model    string         `json:"model"`
			World    string         `json:"world"`
			Measured icpfit.Metrics `json:"measured"`
		}{m.Version(), "seed 11, 400 companies, as of 2026-01-01, 10 ICPs each (ICP seed 2), truth labels", got}, "", "  ")
		if err := os.WriteFile("testdata/heldout.json", append(b, '\n'), 0o644); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile("reliability.svg", icptrain.ReliabilitySVG(got, "Held-out reliability of "+m.Version()), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// TestModelBeatsItsEvidence checks the model adds something over counting lines: its
// Brier score is below that of "fit when every line's evidence says so" (0 or 1).
func TestModelBeatsItsEvidence(t *testing.T) {
	set, err := evalSet()
	if err != nil {
		t.Fatal(err)
	}
	m, _ := icpfit.DefaultModel()
	var scores []float64
	var labels []bool
	for _, p := range set.pairs {
		s := 0.0
		if icpfit.Holds(m.Score(p.ICP, set.subjects[p.Subject].Company).Criteria) {
			s = 1
		}
		scores = append(scores, s)
		labels = append(labels, p.Label)
	}
	naive := icpfit.Evaluate(scores, labels)
	model := icptrain.Evaluate(m, set.subjects, set.pairs)
	if model.Brier >= naive.Brier {
		t.Errorf("model Brier %.4f is no better than the evidence's yes/no (%.4f)", model.Brier, naive.Brier)
	}
}
