package cli

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
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
	for _, name := range []string{"companies.jsonl", "certs.jsonl", "pages.jsonl", "dns.jsonl", "truth.jsonl", "world.json"} {
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
	for _, kind := range []string{"companies", "certs", "pages"} {
		file := filepath.Join(files, map[string]string{"companies": "companies.jsonl", "certs": "certs.jsonl", "pages": "pages.jsonl"}[kind])
		first := firmo(t, data, "ingest", kind, file)
		if first.code != 0 || strings.Contains(first.stdout, " 0 accepted") || !strings.Contains(first.stdout, "0 skipped") {
			t.Fatalf("ingest %s = %d\n%s%s", kind, first.code, first.stdout, first.stderr)
		}
		again := firmo(t, data, "ingest", kind, file)
		if again.code != 0 || !strings.Contains(again.stdout, "(0 changed stored data)") || !strings.Contains(again.stdout, "0 companies derived") {
			t.Fatalf("second ingest %s changed something:\n%s", kind, again.stdout)
		}
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
