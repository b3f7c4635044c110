package cli

import (
	"context"
	"fmt"
	flag "github.com/spf13/pflag"
	"os"
	"strings"
	"time"

	"github.com/firmoapi/firmo/shared/icpfit"
	"github.com/firmoapi/firmo/shared/icpfit/icptrain"
	"github.com/firmoapi/firmo/shared/progress"
	"github.com/firmoapi/firmo/shared/world"
)

// icpTrainDefaults are the settings the shipped model (shared/icpfit/default_model.json)
// was trained with; shared/icpfit/EVALUATION.md reproduces it.
const (
	icpWorldSeed = 7
	icpCompanies = 3000
	icpPerCo     = 8
	icpSeed      = 1
	icpAsOf      = "2026-01-01"
)

// icpTrain runs `firmo icp-train`: derive a demo world's companies with the company
// pipeline, pair them with ICPs generated from the world's vocabularies, label the pairs
// (with --truth the world's truth, else an organisation's LLM integration), fit and
// calibrate the native ICP-fit model and write its versioned model file.
func icpTrain(ctx context.Context, env Env) error {
	fs := flag.NewFlagSet("icp-train", flag.ContinueOnError)
	fs.SetOutput(env.Stdout) // only the help page (--help) is printed through it
	truth := fs.Bool("truth", false, "label pairs with the demo world's truth instead of an LLM (offline; how the shipped model is trained)")
	org := fs.String("org", "", "organisation id whose LLM integration gives the verdicts (without --truth)")
	integrationID := fs.String("integration", "", "LLM integration id (default: the organisation's default integration)")
	companies := fs.Int("companies", icpCompanies, "demo-world companies to derive and pair (60% fit, 20% calibration, 20% held out)")
	perCompany := fs.Int("icps", icpPerCo, "ICPs paired with each company")
	worldSeed := fs.Uint64("world-seed", icpWorldSeed, "seed of the demo world the companies come from")
	icpSeedV := fs.Uint64("icp-seed", icpSeed, "seed of the ICP generator")
	asOf := fs.String("as-of", icpAsOf, "the world's date, YYYY-MM-DD")
	concurrency := fs.Int("concurrency", 4, "LLM calls in flight")
	version := fs.String("version", "", "model version written into the file (default: derived from the settings and today's date)")
	out := fs.String("out", "icp-model.json", "model file to write")
	svg := fs.String("svg", "", "also write the held-out reliability diagram (SVG) here")
	if _, err := parseArgs(fs, env.Args[1:]); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return fmt.Errorf("%w: unexpected argument %q", errUsage, fs.Arg(0))
	}
	if *companies < 10 || *companies > 200_000 {
		return fmt.Errorf("%w: --companies must be from 10 to 200000", errUsage)
	}
	if *perCompany < 1 || *perCompany > 100 {
		return fmt.Errorf("%w: --icps must be from 1 to 100", errUsage)
	}
	if *concurrency < 1 || *concurrency > 64 {
		return fmt.Errorf("%w: --concurrency must be from 1 to 64", errUsage)
	}
	if !*truth && strings.TrimSpace(*org) == "" {
		return fmt.Errorf("%w: give --org ORG_ID (the LLM integration's organisation) or --truth", errUsage)
	}
	day, err := time.Parse(time.DateOnly, *asOf)
	if err != nil {
		return fmt.Errorf("%w: --as-of %q is not a date (YYYY-MM-DD)", errUsage, *asOf)
	}
	wopts := world.Options{Seed: *worldSeed, Companies: *companies, AsOf: day}.Normalized()

	var labeler icptrain.Labeler = &icptrain.Truth{}
	var usage icptrain.Usage
	if !*truth {
		a, _, err := openApp(ctx, env)
		if err != nil {
			return err
		}
		defer a.Close()
		in, client, err := a.Integrations.Resolve(ctx, *org, *integrationID)
		if err != nil {
			return err
		}
		labeler = icptrain.LLM{Client: client, Provider: in.Provider, Model: in.Model, Usage: &usage}
		fmt.Fprintf(env.Stderr, "verdicts from integration %s (%s/%s)\n", in.ID, in.Provider, in.Model)
	}

	start := time.Now()
	w := world.New(wopts)
	bar := progress.New(env.Stderr, "deriving companies", int64(wopts.Companies))
	subjects, err := icptrain.NewPipeline(w).Subjects(ctx, w, 0, wopts.Companies, func() { bar.Add(1) })
	bar.Done()
	if err != nil {
		return err
	}
	pairs := wopts.Companies * *perCompany
	if *version == "" {
		*version = fmt.Sprintf("icpfit-%s-%s-w%d-n%d", time.Now().UTC().Format("20060102"), strings.SplitN(labeler.Describe(), ":", 2)[0], *worldSeed, pairs)
	}
	trainedOn := fmt.Sprintf("%d (ICP, company) pairs: %d companies of the demo world (seed %d, as of %s) derived by Firmo's company pipeline, "+
		"each paired with %d ICPs generated from the world's vocabularies (ICP seed %d); labels: %s. "+
		"Companies split 60/20/20 into logistic fit, isotonic calibration and held-out evaluation.",
		pairs, wopts.Companies, *worldSeed, world.DateOf(wopts), *perCompany, *icpSeedV, labelWords(labeler))
	lbar := progress.New(env.Stderr, "labelling pairs", int64(pairs))
	res, err := icptrain.Train(ctx, icptrain.Options{
		Subjects: subjects, ICPsPerCompany: *perCompany, Seed: *icpSeedV, Labeler: labeler, Concurrency: *concurrency,
		Version: *version, TrainedOn: trainedOn, OnLabel: func() { lbar.Add(1) },
	})
	lbar.Done()
	if err != nil {
		return err
	}
	data, err := res.File.Marshal()
	if err != nil {
		return err
	}
	if _, err := icpfit.Parse(data); err != nil {
		return fmt.Errorf("the written model does not load: %w", err)
	}
	if err := os.WriteFile(*out, data, 0o644); err != nil {
		return err
	}
	if *svg != "" {
		if err := os.WriteFile(*svg, icptrain.ReliabilitySVG(res.HeldOutMetrics, "Held-out reliability, "+*version), 0o644); err != nil {
			return err
		}
	}
	m := res.HeldOutMetrics
	fmt.Fprintf(env.Stdout, "wrote %s (version %s) in %s: %d pairs fit, %d calibration, %d held out, %d without a verdict\n",
		*out, *version, time.Since(start).Round(time.Millisecond), res.Fit, res.Calibrate, res.HeldOut, res.Failed)
	fmt.Fprintf(env.Stdout, "held out: Brier %.4f, ECE (10 bins) %.4f, high-confidence share %.3f with accuracy %.3f, medium %.3f, low %.3f, accuracy %.3f\n",
		m.Brier, m.ECE, m.HighShare, m.HighAccuracy, m.MediumShare, m.LowShare, m.Accuracy)
	if usage.Calls > 0 {
		fmt.Fprintf(env.Stdout, "LLM: %d calls, %d prompt and %d completion tokens, about $%.4f\n", usage.Calls, usage.PromptTokens, usage.CompletionTokens, usage.CostUSD)
	}
	return nil
}

func labelWords(l icptrain.Labeler) string {
	if l.Describe() == "truth" {
		return "the demo world generator's truth (a fit when every mandatory line holds for the true industry, head count, country and state, business model, homepage vendors, mail provider and revenue, and no reject line does)"
	}
	return "the Fit of " + strings.TrimPrefix(l.Describe(), "llm:") + " asked in the LLM validation run's Fit/Confidence/Reasoning shape"
}
