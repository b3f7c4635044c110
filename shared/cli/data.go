package cli

import (
	"context"
	"fmt"
	flag "github.com/spf13/pflag"
	"io"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/firmoapi/firmo/shared/app/allapp"
	"github.com/firmoapi/firmo/shared/app/contactsapp"
	"github.com/firmoapi/firmo/shared/company"
	"github.com/firmoapi/firmo/shared/config"
	"github.com/firmoapi/firmo/shared/contact"
	"github.com/firmoapi/firmo/shared/progress"
	"github.com/firmoapi/firmo/shared/world"
)

// seed runs `firmo seed`: the demo world into the store, or with --out into files.
func seed(ctx context.Context, env Env) error {
	fs := flag.NewFlagSet("seed", flag.ContinueOnError)
	fs.SetOutput(env.Stdout) // only the help page (--help) is printed through it
	companies := fs.Int("companies", 2000, "number of companies")
	contacts := fs.Int("contacts", 0, "reserved; every company gets about 20 contacts")
	seedValue := fs.Uint64("seed", allapp.DefaultWorldSeed, "random seed: the same seed and date give byte-identical data")
	asOf := fs.String("as-of", "", "the world's date, YYYY-MM-DD (default: today, UTC)")
	out := fs.String("out", "", "write the world as ingest files into this directory instead of the store")
	if _, err := parseArgs(fs, env.Args[1:]); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return fmt.Errorf("%w: unexpected argument %q", errUsage, fs.Arg(0))
	}
	if *companies < 1 || *companies > 1_000_000 {
		return fmt.Errorf("%w: --companies must be from 1 to 1000000", errUsage)
	}
	if *contacts < 0 {
		return fmt.Errorf("%w: --contacts must not be negative", errUsage)
	}
	opts := world.Options{Seed: *seedValue, Companies: *companies, Contacts: *contacts, AsOf: time.Now().UTC()}
	if *asOf != "" {
		t, err := time.Parse(time.DateOnly, *asOf)
		if err != nil {
			return fmt.Errorf("%w: --as-of %q is not a date (YYYY-MM-DD)", errUsage, *asOf)
		}
		opts.AsOf = t
	}
	opts = opts.Normalized()
	if *contacts > 0 {
		fmt.Fprintf(env.Stderr, "note: --contacts is reserved; each company gets about 20 contacts (world.ContactRows)\n")
	}
	start := time.Now()
	if *out != "" {
		w := world.New(opts)
		bar := progress.New(env.Stderr, "generating", int64(opts.Companies))
		err := w.Export(*out, func() { bar.Add(1) })
		bar.Done()
		if err != nil {
			return err
		}
		// The people pages and the people they list (world.TeamSite), for grading contact
		// generation offline; Export's own files are unchanged by this.
		bar = progress.New(env.Stderr, "team pages", int64(opts.Companies))
		err = w.ExportTeamSites(*out, func() { bar.Add(1) })
		bar.Done()
		if err != nil {
			return err
		}
		fmt.Fprintf(env.Stdout, "wrote a world of %d companies (seed %d, as of %s) to %s in %s: %s\n", opts.Companies, opts.Seed, world.DateOf(opts), *out, time.Since(start).Round(time.Millisecond), strings.Join(append(append([]string(nil), world.Files...), world.TeamFiles...), ", "))
		return nil
	}
	a, cfg, err := openApp(ctx, env)
	if err != nil {
		return err
	}
	defer a.Close()
	rep, err := seedWorld(ctx, env, a, opts, company.LoadOptions{})
	if err != nil {
		return err
	}
	nc, err := seedContacts(ctx, env, a, opts)
	if err != nil {
		return err
	}
	elapsed := time.Since(start)
	fmt.Fprintf(env.Stdout, "seeded %d contacts\n", nc)
	fmt.Fprintf(env.Stdout, "seeded %d companies (%d changed, %d certificates, %d pages; seed %d, as of %s) in %s, %.0f companies/s\n",
		rep.Companies, rep.Changed, rep.Certificates, rep.Pages, opts.Seed, world.DateOf(opts), elapsed.Round(time.Millisecond), float64(rep.Companies)/elapsed.Seconds())
	return syncNames(ctx, env, a, cfg)
}

// syncNames brings the company-name index up to date after a seed or an ingest, so
// that /v1/match finds the new companies as soon as `firmo serve` starts (or, on an
// OpenSearch cluster, at once), instead of after the background sync of its start.
// App.SyncNames reports no progress while it runs: the bar shows the companies read
// once the pass ends.
func syncNames(ctx context.Context, env Env, a *allapp.App, cfg config.Config) error {
	if cfg.Backend != config.BackendLocal && !cfg.OpenSearch.Enabled() {
		// AWS without FIRMO_OPENSEARCH_URL has no name index (shared/app/match.go).
		fmt.Fprintln(env.Stderr, "note: company-name index not synced: this deployment has none (FIRMO_OPENSEARCH_URL is unset)")
		return nil
	}
	start := time.Now()
	bar := progress.New(env.Stderr, "indexing company names", 0)
	rep, err := a.SyncNames(ctx)
	bar.Add(int64(rep.Companies))
	bar.Done()
	if err != nil {
		return fmt.Errorf("%w (the stored data is kept; firmo serve syncs the index again when it starts)", err)
	}
	fmt.Fprintf(env.Stdout, "company-name index: %d companies, %d entries written, %d removed in %s\n",
		rep.Companies, rep.Indexed, rep.Deleted, time.Since(start).Round(time.Millisecond))
	return nil
}

// seedContacts stores the world's contacts (about 20 per company).
func seedContacts(ctx context.Context, env Env, a *allapp.App, opts world.Options) (int, error) {
	bar := progress.New(env.Stderr, "seeding contacts", int64(opts.Companies))
	defer bar.Done()
	return a.SeedContacts(ctx, opts, func() { bar.Add(1) })
}

func seedWorld(ctx context.Context, env Env, a *allapp.App, opts world.Options, load company.LoadOptions) (world.SeedReport, error) {
	bar := progress.New(env.Stderr, "seeding demo world", int64(opts.Companies))
	defer bar.Done()
	return a.SeedWorld(ctx, opts, load, func() { bar.Add(1) })
}

// seedingMarker is a file of the data dir that exists while a first start seeds the
// demo world: a start stopped mid-way leaves it, and the next start seeds again (the
// same world: seeding is idempotent and skips what is stored).
const seedingMarker = "seeding-demo-world"

// needsSeeding reports whether `firmo serve` seeds the demo world: on an empty store,
// or to finish a first start that was stopped (FIRMO_SEED_COMPANIES=0 turns it off).
func needsSeeding(ctx context.Context, a *allapp.App, cfg config.Config) (bool, error) {
	if cfg.SeedCompanies == 0 {
		return false, nil
	}
	if _, err := os.Stat(filepath.Join(cfg.DataDir, seedingMarker)); err == nil {
		return true, nil
	}
	return a.CompaniesEmpty(ctx)
}

// seedOnFirstStart gives `firmo serve` its demo world of FIRMO_SEED_COMPANIES
// companies and their contacts; the server answers meanwhile.
func seedOnFirstStart(ctx context.Context, env Env, a *allapp.App, cfg config.Config) error {
	marker := filepath.Join(cfg.DataDir, seedingMarker)
	if err := os.WriteFile(marker, nil, 0o600); err != nil {
		return fmt.Errorf("seed the demo world: %w", err)
	}
	opts, resumed, err := world.Stored(ctx, a.Companies.Store())
	if err != nil {
		return err
	}
	if !resumed {
		opts = world.Options{Seed: allapp.DefaultWorldSeed, Companies: cfg.SeedCompanies, AsOf: time.Now()}.Normalized()
	}
	fmt.Fprintf(env.Stderr, "First start: seeding a demo world of %d companies in the background (firmo seed makes others); GET /readyz answers 200 when it is loaded.\n", opts.Companies)
	start := time.Now()
	// Every company is derived in full while it is seeded (description, language,
	// keywords, industries, business model, score), by world.Seed's workers on every
	// core: readiness means the answers are those of the settled world (README "The
	// demo world"), so nothing is left to a job that runs after ready.
	rep, err := seedWorld(ctx, env, a, opts, company.LoadOptions{})
	if err != nil {
		return fmt.Errorf("seed the demo world: %w", err)
	}
	companiesTook := time.Since(start)
	nc, err := seedContacts(ctx, env, a, opts)
	if err != nil {
		return fmt.Errorf("seed the demo world's contacts: %w", err)
	}
	if err := os.Remove(marker); err != nil {
		return fmt.Errorf("seed the demo world: %w", err)
	}
	fmt.Fprintf(env.Stderr, "Seeded and derived %d companies in %s and %d contacts in %s.\n",
		rep.Companies, companiesTook.Round(100*time.Millisecond), nc, (time.Since(start) - companiesTook).Round(100*time.Millisecond))
	return nil
}

// ingest runs `firmo ingest companies|contacts|certs|pages|sites FILE`.
func ingest(ctx context.Context, env Env) error {
	if len(env.Args) < 2 {
		return fmt.Errorf("%w: firmo ingest companies|contacts|certs|pages|sites FILE", errUsage)
	}
	kind := env.Args[1]
	fs := flag.NewFlagSet("ingest "+kind, flag.ContinueOnError)
	fs.SetOutput(env.Stdout) // only the help page (--help) is printed through it
	format := fs.String("format", "", "csv, jsonl or pem (default: from the file name, else from its content)")
	flagValues(fs, "format", "csv", "jsonl", "pem")
	if _, err := parseArgs(fs, env.Args[2:]); err != nil {
		return err
	}
	if fs.NArg() != 1 {
		return fmt.Errorf("%w: firmo ingest %s FILE", errUsage, kind)
	}
	f, err := parseFormat(*format)
	if err != nil {
		return err
	}
	path := fs.Arg(0)
	file, err := os.Open(path)
	if err != nil {
		return err
	}
	defer file.Close()
	var size int64
	if st, err := file.Stat(); err == nil {
		size = st.Size()
	}
	a, cfg, err := openApp(ctx, env)
	if err != nil {
		return err
	}
	defer a.Close()
	if kind == "contacts" {
		return ingestContacts(ctx, env, a, file, *format, path, size)
	}
	opts := company.IngestOptions{Size: size, Name: path, Progress: func(label string, total int64) company.Progress {
		return progress.New(env.Stderr, label, total)
	}}
	var rep company.Report
	switch kind {
	case "companies":
		rep, err = a.Companies.IngestCompanies(ctx, file, f, opts)
	case "certs", "certificates":
		rep, err = a.Companies.IngestCertificates(ctx, file, f, opts)
	case "pages":
		if f != company.FormatAuto && f != company.FormatJSONL {
			return fmt.Errorf("%w: pages are JSON Lines", errUsage)
		}
		rep, err = a.Companies.IngestPages(ctx, file, opts)
	case "sites":
		if f != company.FormatAuto && f != company.FormatJSONL {
			return fmt.Errorf("%w: sites are JSON Lines", errUsage)
		}
		rep, err = a.Companies.IngestSites(ctx, file, opts)
	default:
		return fmt.Errorf("%w: unknown ingest kind %q (companies, contacts, certs, pages, sites)", errUsage, kind)
	}
	printReport(env.Stdout, env.Stderr, rep)
	if err != nil {
		return err
	}
	if err := syncNames(ctx, env, a, cfg); err != nil {
		return err
	}
	if rep.Skipped > 0 {
		return fmt.Errorf("%d bad rows skipped (listed above); the %d good rows are stored", rep.Skipped, rep.Accepted)
	}
	return nil
}

func parseFormat(s string) (company.Format, error) {
	switch strings.ToLower(s) {
	case "":
		return company.FormatAuto, nil
	case "csv":
		return company.FormatCSV, nil
	case "jsonl", "ndjson", "json":
		return company.FormatJSONL, nil
	case "pem":
		return company.FormatPEM, nil
	}
	return 0, fmt.Errorf("%w: --format %q: want csv, jsonl or pem", errUsage, s)
}

// maxShownErrors bounds the bad rows listed; the count is always exact.
const maxShownErrors = 100

func printReport(stdout, stderr io.Writer, rep company.Report) {
	for i, e := range rep.Errors {
		if i == maxShownErrors {
			fmt.Fprintf(stderr, "... and %d more bad rows\n", len(rep.Errors)-maxShownErrors)
			break
		}
		fmt.Fprintln(stderr, e.String())
	}
	fmt.Fprintf(stdout, "%d rows: %d accepted (%d changed stored data), %d skipped; %d companies derived\n",
		rep.Rows, rep.Accepted, rep.Changed, rep.Skipped, rep.Refreshed)
}

// printRowErrors lists row errors or warnings on w, at most maxShownErrors of them.
func printRowErrors(w io.Writer, prefix string, errs []contact.RowError, what string) {
	for i, e := range errs {
		if i == maxShownErrors {
			fmt.Fprintf(w, "%s... and %d more %s\n", prefix, len(errs)-maxShownErrors, what)
			break
		}
		fmt.Fprintln(w, prefix+e.String())
	}
}

// contactsNote says when contact search serves ingested contacts: it answers from an
// in-memory snapshot that refreshes in the background once older than its MaxAge
// (contactsearch.Deps, 5 minutes), and nothing tells a running server of an ingest.
const contactsNote = "note: contact search serves from a snapshot: a firmo serve started after this ingest has the new contacts at once; " +
	"a running contacts function (FIRMO_BACKEND=aws) picks them up within 5 minutes, when its snapshot refreshes"

// ingestContacts runs `firmo ingest contacts FILE` (CSV with a header row or JSON Lines;
// columns in the README).
func ingestContacts(ctx context.Context, env Env, a *allapp.App, file io.Reader, format, path string, size int64) error {
	opts := contact.IngestOptions{Size: size, Name: path, Progress: func(label string, total int64) company.Progress {
		return progress.New(env.Stderr, label, total)
	}}
	switch strings.ToLower(format) {
	case "":
	case "csv":
		opts.CSV = true
	case "jsonl", "ndjson", "json":
		opts.JSONL = true
	default:
		return fmt.Errorf("%w: --format %q: contacts are csv or jsonl", errUsage, format)
	}
	rep, err := a.Contacts.Ingest(ctx, file, opts)
	printRowErrors(env.Stderr, "", rep.Errors, "bad rows")
	printRowErrors(env.Stderr, "warning: ", rep.Warnings, "dropped values")
	fmt.Fprintf(env.Stdout, "%d rows: %d accepted (%d changed stored data), %d skipped, %d invalid values dropped from kept rows\n",
		rep.Rows, rep.Accepted, rep.Changed, rep.Skipped, len(rep.Warnings))
	if err != nil {
		return err
	}
	if rep.Changed > 0 {
		fmt.Fprintln(env.Stdout, contactsNote)
	}
	if rep.Skipped > 0 {
		return fmt.Errorf("%d bad rows skipped (listed above); the %d good rows are stored", rep.Skipped, rep.Accepted)
	}
	return nil
}

// reindexContacts runs `firmo reindex-contacts`: every stored contact's document written
// to the OpenSearch contacts index (contacts stored before contact search ran there),
// then the email patterns published for its entries.
func reindexContacts(ctx context.Context, env Env) error {
	if len(env.Args) > 1 {
		return fmt.Errorf("%w: firmo reindex-contacts takes no arguments", errUsage)
	}
	a, cfg, err := openApp(ctx, env)
	if err != nil {
		return err
	}
	defer a.Close()
	if !cfg.OpenSearch.Enabled() {
		return fmt.Errorf("%w: firmo reindex-contacts needs FIRMO_OPENSEARCH_URL (the contacts index is in OpenSearch)", errUsage)
	}
	start := time.Now()
	bar := progress.New(env.Stderr, "indexing contacts", 0)
	last := 0
	n, err := contactsapp.Reindex(ctx, a.Core, func(n int) { bar.Add(int64(n - last)); last = n })
	bar.Done()
	if err != nil {
		return err
	}
	fmt.Fprintf(env.Stdout, "contacts index: %d contacts written in %s\n", n, time.Since(start).Round(time.Millisecond))
	start = time.Now()
	np, err := contactsapp.PublishPatterns(ctx, a.Core)
	if err != nil {
		return err
	}
	fmt.Fprintf(env.Stdout, "email patterns: %d domains published in %s\n", np, time.Since(start).Round(time.Millisecond))
	return nil
}
