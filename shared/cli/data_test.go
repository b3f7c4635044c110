package cli

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/firmoapi/firmo/shared/app/companyapp"
	"github.com/firmoapi/firmo/shared/company"
	"github.com/firmoapi/firmo/shared/kv/boltkv"
	"github.com/firmoapi/firmo/shared/namematch"
	"github.com/firmoapi/firmo/shared/namematch/bleveindex"
	"github.com/firmoapi/firmo/shared/world"
)

type run struct {
	code           int
	stdout, stderr string
}

// firmo runs the command in-process with a data dir of its own. MX lookups go to a
// closed local port, so an offline machine fails them at once instead of timing out.
func firmo(t *testing.T, dataDir string, args ...string) run {
	t.Helper()
	var out, errb bytes.Buffer
	vars := map[string]string{"FIRMO_DATA_DIR": dataDir, "FIRMO_LOG_LEVEL": "warn", "FIRMO_DNS_RESOLVER": "127.0.0.1:9"}
	code := Run(context.Background(), Env{Args: args, Stdout: &out, Stderr: &errb, Getenv: func(k string) string { return vars[k] }})
	return run{code, out.String(), errb.String()}
}

func TestSeedOutIsByteIdentical(t *testing.T) {
	a, b := t.TempDir(), t.TempDir()
	for _, dir := range []string{a, b} {
		r := firmo(t, t.TempDir(), "seed", "--companies", "40", "--seed", "3", "--as-of", "2025-06-01", "--out", dir)
		if r.code != 0 || !strings.Contains(r.stdout, "wrote a world of 40 companies (seed 3, as of 2025-06-01)") {
			t.Fatalf("seed --out = %d\n%s%s", r.code, r.stdout, r.stderr)
		}
	}
	for _, name := range []string{"companies.jsonl", "certs.jsonl", "pages.jsonl", "contacts.jsonl", "dns.jsonl", "truth.jsonl", "world.json", "teampages.csv", "teampeople.csv"} {
		x, _ := os.ReadFile(filepath.Join(a, name))
		y, _ := os.ReadFile(filepath.Join(b, name))
		if len(x) == 0 || !bytes.Equal(x, y) {
			t.Errorf("%s: %d bytes, identical %v", name, len(x), bytes.Equal(x, y))
		}
	}
}

// TestIngestExportedWorld ingests the world's files through the CLI, twice: the second
// run changes nothing.
func TestIngestExportedWorld(t *testing.T) {
	files, data := t.TempDir(), t.TempDir()
	if r := firmo(t, t.TempDir(), "seed", "--companies", "25", "--seed", "4", "--as-of", "2025-06-01", "--out", files); r.code != 0 {
		t.Fatalf("seed --out: %s", r.stderr)
	}
	for _, kind := range []string{"companies", "certs", "pages", "contacts"} {
		file := filepath.Join(files, kind+".jsonl")
		first := firmo(t, data, "ingest", kind, file)
		if first.code != 0 || strings.Contains(first.stdout, " 0 accepted") || !strings.Contains(first.stdout, "0 skipped") {
			t.Fatalf("ingest %s = %d\n%s%s", kind, first.code, first.stdout, first.stderr)
		}
		again := firmo(t, data, "ingest", kind, file)
		derived := "0 companies derived"
		if kind == "contacts" {
			derived = "0 skipped" // contacts derive no companies
		}
		if again.code != 0 || !strings.Contains(again.stdout, "(0 changed stored data)") || !strings.Contains(again.stdout, derived) {
			t.Fatalf("second ingest %s changed something:\n%s", kind, again.stdout)
		}
	}
}

// TestIngestCompaniesSyncsNameIndex: right after `firmo ingest companies`, the
// company-name index holds the new companies and the matcher finds them, without a
// `firmo serve` start in between; a second ingest adds a company and it is found too.
func TestIngestCompaniesSyncsNameIndex(t *testing.T) {
	data := t.TempDir()
	file := filepath.Join(t.TempDir(), "companies.csv")
	os.WriteFile(file, []byte("domain,name,country\nacme-widgets.de,Acme Widgets GmbH,DE\nbluefin-labs.fr,Bluefin Labs SAS,FR\n"), 0o644)
	r := firmo(t, data, "ingest", "companies", file)
	if r.code != 0 || !strings.Contains(r.stdout, "company-name index: 2 companies, 2 entries written, 0 removed") || !strings.Contains(r.stderr, "indexing company names") {
		t.Fatalf("ingest = %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	matchIn(t, data, "Acme Widgets", "DE", "acme-widgets.de")
	matchIn(t, data, "Bluefin Labs", "FR", "bluefin-labs.fr")
	os.WriteFile(file, []byte("domain,name,country\ncorvid-analytics.co.uk,Corvid Analytics Ltd,GB\n"), 0o644)
	r = firmo(t, data, "ingest", "companies", file)
	if r.code != 0 || !strings.Contains(r.stdout, "company-name index: 3 companies, 1 entries written, 0 removed") {
		t.Fatalf("second ingest = %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	matchIn(t, data, "Corvid Analytics", "GB", "corvid-analytics.co.uk")
}

// TestSeedSyncsNameIndex: `firmo seed` leaves an index with every seeded company that
// has a name, so `firmo seed && firmo serve` matches at once.
func TestSeedSyncsNameIndex(t *testing.T) {
	data := t.TempDir()
	r := firmo(t, data, "seed", "--companies", "20", "--seed", "9", "--as-of", "2025-06-01")
	if r.code != 0 || !strings.Contains(r.stdout, "company-name index: 20 companies") {
		t.Fatalf("seed = %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	ix, err := bleveindex.Open(filepath.Join(data, companyapp.NameIndexDir))
	if err != nil {
		t.Fatal(err)
	}
	defer ix.Close()
	fps, err := ix.Fingerprints(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	w := world.New(world.Options{Seed: 9, Companies: 20, AsOf: time.Date(2025, 6, 1, 0, 0, 0, 0, time.UTC)})
	missing := 0
	for i := 0; i < w.Len(); i++ {
		if _, ok := fps[w.Domain(i)]; !ok {
			missing++
		}
	}
	// A world company whose rows carry no usable name is not indexed; most have one.
	if len(fps) < 15 || missing != 20-len(fps) {
		t.Fatalf("index holds %d entries, %d of the world's 20 domains missing", len(fps), missing)
	}
}

// matchIn opens the data dir's store and name index the way firmo serve does and
// expects name to match domain.
func matchIn(t *testing.T, dataDir, name, country, domain string) {
	t.Helper()
	store, err := boltkv.Open(filepath.Join(dataDir, "firmo.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer store.Close()
	ix, err := bleveindex.Open(filepath.Join(dataDir, companyapp.NameIndexDir))
	if err != nil {
		t.Fatal(err)
	}
	defer ix.Close()
	a, err := namematch.New(ix, company.NewKVStore(store), namematch.Options{}).Match(context.Background(), namematch.Query{Name: name, Country: country})
	if err != nil {
		t.Fatal(err)
	}
	if len(a.Matches) == 0 || a.Matches[0].Profile.Domain != domain {
		t.Fatalf("match %q in %s: %d matches, want %s first", name, country, len(a.Matches), domain)
	}
}

func TestIngestReportsBadRows(t *testing.T) {
	data := t.TempDir()
	csv := filepath.Join(t.TempDir(), "companies.csv")
	os.WriteFile(csv, []byte("domain,name,country,employees\nacme.de,Acme GmbH,DE,12\nbeta.fr,Beta SAS,Frankreich,5\ngamma.it,Gamma,IT,many\n"), 0o644)
	r := firmo(t, data, "ingest", "companies", csv)
	if r.code != 1 {
		t.Fatalf("exit %d, want 1 for skipped rows\n%s%s", r.code, r.stdout, r.stderr)
	}
	for _, want := range []string{"line 3: country:", "line 4: employees:", "2 bad rows skipped", "the 1 good rows are stored"} {
		if !strings.Contains(r.stderr, want) {
			t.Errorf("stderr lacks %q:\n%s", want, r.stderr)
		}
	}
	if !strings.Contains(r.stdout, "3 rows: 1 accepted (1 changed stored data), 2 skipped; 1 companies derived") {
		t.Errorf("stdout = %s", r.stdout)
	}
}

func TestSeedAndIngestUsage(t *testing.T) {
	for _, args := range [][]string{
		{"seed", "--companies", "0"},
		{"seed", "--as-of", "June"},
		{"ingest"},
		{"ingest", "people", "x.csv"},
		{"ingest", "companies"},
		{"ingest", "pages", "--format", "pem", "x.jsonl"},
	} {
		dir := t.TempDir()
		f := filepath.Join(dir, "x.csv")
		os.WriteFile(f, []byte("domain\n"), 0o644)
		for i, a := range args {
			if strings.HasPrefix(a, "x.") {
				args[i] = filepath.Join(dir, a)
				os.WriteFile(args[i], []byte("domain\n"), 0o644)
			}
		}
		if r := firmo(t, dir, args...); r.code != 2 {
			t.Errorf("%v: exit %d, want 2 (usage)\n%s", args, r.code, r.stderr)
		}
	}
}
