package icptrain

import (
	"context"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"sync"
	"sync/atomic"

	"github.com/firmoapi/firmo/shared/icpfit"
)

// Options are one training run.
type Options struct {
	// Subjects are the derived world companies, in index order.
	Subjects []Subject
	// ICPsPerCompany is how many ICPs each company is paired with.
	ICPsPerCompany int
	// Seed seeds the ICP generator's streams (one per pair).
	Seed uint64
	// Labeler gives each pair's verdict; Concurrency bounds calls in flight (1 when 0).
	Labeler     Labeler
	Concurrency int
	// Version and TrainedOn go into the model file.
	Version, TrainedOn string
	// OnLabel, when set, is called after each pair is labelled.
	OnLabel func()
	// MaxFailures is how many pairs may fail to get a verdict (skipped) before the run
	// fails; 0 means 5% of the pairs.
	MaxFailures int
}

// Split shares of the companies: the logistic fit, the calibration and the held-out
// evaluation each see different companies (and so different pairs).
const (
	fitShare   = 0.6
	calibShare = 0.2
)

// Pair is one labelled (ICP, company) pair.
type Pair struct {
	ICP     icpfit.Criteria
	Subject int // index into Options.Subjects
	Label   bool
}

// Result is a training run's outcome.
type Result struct {
	File      icpfit.File
	Fit       int // pairs in each split
	Calibrate int
	HeldOut   int
	Failed    int // pairs without a verdict, skipped
	// HeldOutMetrics are the figures on the held-out split (also in File.HeldOut).
	HeldOutMetrics icpfit.Metrics
}

// Pairs generates the ICPs: pair k of company i is drawn from its own stream
// (Seed, i*ICPsPerCompany+k), around an anchor that is the company itself half of the
// time and otherwise another company of the same split.
func Pairs(subjects []Subject, perCompany int, seed uint64) []Pair {
	g := NewGenerator()
	n := len(subjects)
	var out []Pair
	for i := range subjects {
		lo, hi := splitRange(i, n)
		for k := range perCompany {
			r := rand.New(rand.NewPCG(seed, uint64(i*perCompany+k)))
			anchor := i
			if r.IntN(2) == 0 {
				anchor = lo + r.IntN(hi-lo)
			}
			out = append(out, Pair{ICP: g.ICP(r, subjects[anchor].Truth), Subject: i})
		}
	}
	return out
}

// split is 0 (fit), 1 (calibration) or 2 (held out) for company position i of n.
func split(i, n int) int {
	switch {
	case float64(i) < fitShare*float64(n):
		return 0
	case float64(i) < (fitShare+calibShare)*float64(n):
		return 1
	default:
		return 2
	}
}

func splitRange(i, n int) (lo, hi int) {
	s := split(i, n)
	lo, hi = i, i+1
	for lo > 0 && split(lo-1, n) == s {
		lo--
	}
	for hi < n && split(hi, n) == s {
		hi++
	}
	return lo, hi
}

// Label gives every pair its verdict, Concurrency at a time. Pairs whose verdict
// failed are returned in failed (and left out of training).
func Label(ctx context.Context, o Options, pairs []Pair) (failed []bool, err error) {
	failed = make([]bool, len(pairs))
	workers := max(o.Concurrency, 1)
	maxFail := o.MaxFailures
	if maxFail == 0 {
		maxFail = max(len(pairs)/20, 1)
	}
	var next, nfail atomic.Int64
	var mu sync.Mutex
	var lastErr error
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	var wg sync.WaitGroup
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				i := int(next.Add(1) - 1)
				if i >= len(pairs) || ctx.Err() != nil {
					return
				}
				y, err := o.Labeler.Label(ctx, pairs[i].ICP, o.Subjects[pairs[i].Subject])
				if err != nil {
					failed[i] = true
					mu.Lock()
					lastErr = err
					mu.Unlock()
					if int(nfail.Add(1)) > maxFail {
						cancel()
						return
					}
				}
				pairs[i].Label = y
				if o.OnLabel != nil {
					o.OnLabel()
				}
			}
		}()
	}
	wg.Wait()
	if int(nfail.Load()) > maxFail {
		return failed, fmt.Errorf("%d of %d verdicts failed (more than %d); the last: %w", nfail.Load(), len(pairs), maxFail, lastErr)
	}
	if err := context.Cause(ctx); err != nil && !errors.Is(err, context.Canceled) {
		return failed, err
	}
	return failed, nil
}

// lambda is the L2 penalty of the logistic fit.
const lambda = 1e-3

// Train labels the pairs, fits the logistic model on the fit split, calibrates it by
// isotonic regression on the calibration split and measures it on the held-out split.
func Train(ctx context.Context, o Options) (Result, error) {
	if len(o.Subjects) < 10 {
		return Result{}, fmt.Errorf("need at least 10 companies, got %d", len(o.Subjects))
	}
	if o.ICPsPerCompany < 1 {
		o.ICPsPerCompany = 1
	}
	pairs := Pairs(o.Subjects, o.ICPsPerCompany, o.Seed)
	failed, err := Label(ctx, o, pairs)
	if err != nil {
		return Result{}, err
	}
	if err := ctx.Err(); err != nil {
		return Result{}, err
	}
	var zero icpfit.Model // reads features only; its cache keeps the lines read
	var X [3][][]float64
	var Y [3][]float64
	res := Result{}
	for i, p := range pairs {
		if failed[i] {
			res.Failed++
			continue
		}
		x, _ := zero.Features(p.ICP, o.Subjects[p.Subject].Company)
		s := split(p.Subject, len(o.Subjects))
		X[s] = append(X[s], x)
		Y[s] = append(Y[s], b2f(p.Label))
	}
	res.Fit, res.Calibrate, res.HeldOut = len(X[0]), len(X[1]), len(X[2])
	if len(X[0]) == 0 || len(X[1]) == 0 || len(X[2]) == 0 {
		return res, fmt.Errorf("a split has no labelled pairs (fit %d, calibration %d, held out %d)", len(X[0]), len(X[1]), len(X[2]))
	}
	w, b, err := fitLogistic(X[0], Y[0], lambda)
	if err != nil {
		return res, err
	}
	w, b = round6(w), round6([]float64{b})[0]
	f := icpfit.File{Format: icpfit.FileFormat, Version: o.Version, TrainedOn: o.TrainedOn, Labels: o.Labeler.Describe(),
		Features: icpfit.FeatureNames(), Weights: w, Bias: b, Calibration: icpfit.Calibration{Method: "none"}}
	m, err := icpfit.New(f)
	if err != nil {
		return res, err
	}
	raw := make([]float64, len(X[1]))
	for i, x := range X[1] {
		raw[i] = m.Raw(x)
	}
	xs, ys := isotonic(raw, Y[1])
	f.Calibration = icpfit.Calibration{Method: "isotonic", X: round6(xs), Y: round6(ys), Pairs: len(raw)}
	if m, err = icpfit.New(f); err != nil {
		return res, err
	}
	res.HeldOutMetrics = Measure(m, X[2], Y[2])
	f.HeldOut = &res.HeldOutMetrics
	res.File = f
	return res, nil
}

// Measure scores feature rows as Model.Score does (calibrated, two decimals) and
// evaluates them against labels.
func Measure(m *icpfit.Model, X [][]float64, y []float64) icpfit.Metrics {
	scores := make([]float64, len(X))
	labels := make([]bool, len(X))
	for i, x := range X {
		scores[i] = roundScore(m.Calibrate(m.Raw(x)))
		labels[i] = y[i] == 1
	}
	return icpfit.Evaluate(scores, labels)
}

// Evaluate scores labelled pairs with a model and measures the verdicts.
func Evaluate(m *icpfit.Model, subjects []Subject, pairs []Pair) icpfit.Metrics {
	scores := make([]float64, len(pairs))
	labels := make([]bool, len(pairs))
	for i, p := range pairs {
		scores[i] = m.Score(p.ICP, subjects[p.Subject].Company).Score
		labels[i] = p.Label
	}
	return icpfit.Evaluate(scores, labels)
}

func roundScore(v float64) float64 { return math.Round(v*100) / 100 }

func round6(v []float64) []float64 {
	out := make([]float64, len(v))
	for i, x := range v {
		out[i] = math.Round(x*1e6) / 1e6
	}
	return out
}

func b2f(b bool) float64 {
	if b {
		return 1
	}
	return 0
}
