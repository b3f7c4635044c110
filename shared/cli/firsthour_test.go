package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// TestMatchNoMatch: a name nothing matches is a 204; the command says so on stderr
// and exits 0, printing {"matches":[]} as JSON and "(0 rows)" as a table, instead of
// failing to decode an empty body or printing an empty line.
func TestMatchNoMatch(t *testing.T) {
	s := server(t)
	r := s.firmo(t, "api", "match", "Zzzyxq Nonexistent", "--json")
	var got struct {
		Matches []json.RawMessage `json:"matches"`
	}
	mustJSON(t, r, &got)
	if got.Matches == nil || len(got.Matches) != 0 || !strings.Contains(r.stderr, "answered 204") {
		t.Fatalf("--json: stdout %q, stderr %q", r.stdout, r.stderr)
	}
	r = s.firmo(t, "api", "match", "Zzzyxq Nonexistent", "--table")
	if r.code != 0 || strings.TrimSpace(r.stdout) != "(0 rows)" || !strings.Contains(r.stderr, "no company reached min_match_confidence") {
		t.Fatalf("--table: exit %d, stdout %q, stderr %q", r.code, r.stdout, r.stderr)
	}
	// A name that matches still prints its rows.
	r = s.firmo(t, "api", "match", s.world.Company(0).Row.Name, "--json")
	mustJSON(t, r, &got)
	if len(got.Matches) == 0 {
		t.Fatalf("no match for the world's first company: %s", r.stdout)
	}
}

// TestFailedFirstChunkLeavesNothing: an append whose first chunk fails (a misspelt
// dataset, a 422) leaves neither the output nor its state file, so the corrected
// command runs at once.
func TestFailedFirstChunkLeavesNothing(t *testing.T) {
	s := server(t)
	var rows [][]string
	for i := range 5 {
		rows = append(rows, []string{s.world.Domain(i)})
	}
	in := writeCSV(t, "d5.csv", []string{"domain"}, rows)
	out := filepath.Join(t.TempDir(), "out.csv")
	r := s.firmo(t, "append", in, "--dataset", "bizdata,grwoth", "--out", out)
	if r.code != 1 || !strings.Contains(r.stderr, "422") {
		t.Fatalf("misspelt dataset: exit %d\n%s", r.code, r.stderr)
	}
	for _, p := range []string{out, statePath(out)} {
		if _, err := os.Stat(p); err == nil {
			t.Fatalf("the failed run left %s", p)
		}
	}
	r = s.firmo(t, "append", in, "--dataset", "bizdata,growth", "--out", out)
	if r.code != 0 {
		t.Fatalf("corrected command: exit %d\n%s", r.code, r.stderr)
	}
	if recs := readCSV(t, out); len(recs) != 6 {
		t.Fatalf("%d output rows, want 5", len(recs)-1)
	}
	if !strings.Contains(r.stderr, "summary: 5 rows in, 5 out (input order)") {
		t.Fatalf("no summary line:\n%s", r.stderr)
	}
	// A state left by an older run that did nothing (killed before its first chunk
	// ended) does not block another command either.
	if err := os.WriteFile(statePath(out), []byte(`{"command":"append","input_sha256":"other","chunk_size":500,"chunks":1,"chunks_done":0,"out_bytes":0}`), 0o644); err != nil {
		t.Fatal(err)
	}
	if r = s.firmo(t, "append", in, "--dataset", "bizdata", "--out", out); r.code != 0 {
		t.Fatalf("over an empty stale state: exit %d\n%s", r.code, r.stderr)
	}
}

// TestConnectionFailureHint: with no server at FIRMO_URL, each wait between retries is
// printed ("retrying in N s (connection refused ...)") and the error is one line naming
// the address, FIRMO_URL and the serve command as invoked.
func TestConnectionFailureHint(t *testing.T) {
	t.Parallel() // about 15 s of backoff, spent beside the other tests
	srv := httptest.NewServer(http.NotFoundHandler())
	dead := srv.URL
	srv.Close()
	var out, errb bytes.Buffer
	vars := map[string]string{"FIRMO_URL": dead, "FIRMO_API_KEY": "fk_x"}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	code := Run(ctx, Env{Program: "./bin/firmo", Args: []string{"api", "score", "hansen.de"}, Stdout: &out, Stderr: &errb,
		Getenv: func(k string) string { return vars[k] }})
	msg := errb.String()
	if code != 1 {
		t.Fatalf("exit %d\n%s", code, msg)
	}
	if n := len(regexp.MustCompile(`(?m)^retrying in \d+ s \(connection refused; GET /v1/score, attempt \d\)$`).FindAllString(msg, -1)); n != 4 {
		t.Errorf("%d retry lines, want 4:\n%s", n, msg)
	}
	last := regexp.MustCompile(`(?m)^firmo: .*$`).FindString(msg)
	if !strings.Contains(last, "cannot reach a Firmo server at "+dead+" (connection refused)") || !strings.Contains(last, "FIRMO_URL") ||
		!strings.Contains(last, "'./bin/firmo serve'") {
		t.Errorf("error line %q", last)
	}
}

// TestResumeHintAsInvoked: the resume command repeats the program as it was invoked.
func TestResumeHintAsInvoked(t *testing.T) {
	got := resumeCommand("./bin/firmo", []string{"segment", "my file.csv", "--resume", "old", "--out", "s.json"}, "T1")
	if want := "./bin/firmo segment 'my file.csv' --out s.json --resume T1"; got != want {
		t.Fatalf("resume command %q, want %q", got, want)
	}
	if got := commandLine("/opt/firmo", []string{"append", "d.csv"}); got != "/opt/firmo append d.csv" {
		t.Fatalf("command line %q", got)
	}
}
