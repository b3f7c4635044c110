package cli

import (
	"bytes"
	"context"
	"slices"
	"strings"
	"testing"
)

func runArgs(args ...string) remoteRun {
	var out, errb bytes.Buffer
	code := Run(context.Background(), Env{Args: args, Stdout: &out, Stderr: &errb, Getenv: func(string) string { return "" }})
	return remoteRun{code, out.String(), errb.String()}
}

// TestCommandLineConventions: a mistyped command or flag is one line naming the nearest
// one (exit 2); help pages carry synopsis, examples and flags (exit 0); cobra writes the
// completion scripts; GNU flags (--flag=value) parse.
func TestCommandLineConventions(t *testing.T) {
	r := runArgs("segmnt", "x.csv")
	if r.code != 2 || !strings.Contains(r.stderr, `unknown command "segmnt" (did you mean segment?)`) {
		t.Errorf("mistyped command: exit %d, %q", r.code, r.stderr)
	}
	r = runArgs("bulkmatch", "x.csv", "--nme_column", "Company")
	if r.code != 2 || !strings.Contains(r.stderr, "unknown flag: --nme_column; did you mean --name_column?") || strings.Count(r.stderr, "\n") != 1 {
		t.Errorf("mistyped flag: exit %d, %q", r.code, r.stderr)
	}
	// A help page asked for goes to stdout (`firmo append --help | less`), alone: not
	// followed by the root usage (cobra printed it after a command's page).
	for _, args := range [][]string{{"help", "append"}, {"append", "--help"}} {
		r = runArgs(args...)
		h := r.stdout
		if r.code != 0 || !strings.Contains(h, "Usage: firmo append FILE --dataset") || !strings.Contains(h, "Examples:\n  firmo append data/samples/domains.csv") ||
			!strings.Contains(h, "--chunk-size int") || !strings.Contains(h, "Exit codes:") ||
			strings.Contains(h, "the Firmo B2B data API") || r.stderr != "" {
			t.Errorf("%v: exit %d, stdout %q, stderr %q", args, r.code, h, r.stderr)
		}
	}
	r = runArgs("api", "score", "--help")
	if r.code != 0 || !strings.Contains(r.stdout, "Usage: firmo api score [DOMAIN] [flags]") || !strings.Contains(r.stdout, "GET /v1/score") ||
		strings.Contains(r.stdout, "the Firmo B2B data API") || r.stderr != "" {
		t.Errorf("api score --help: exit %d, stdout %q, stderr %q", r.code, r.stdout, r.stderr)
	}
	r = runArgs("completion", "bash")
	if r.code != 0 || !strings.Contains(r.stdout, "bash completion") || !strings.Contains(r.stdout, "__start_firmo") {
		t.Errorf("completion bash: exit %d, %.200q", r.code, r.stdout)
	}
	r = runArgs("__complete", "api", "")
	if r.code != 0 || !strings.Contains(r.stdout, "request\n") || !strings.Contains(r.stdout, "bizdata\n") {
		t.Errorf("completion of api: exit %d, %q", r.code, r.stdout)
	}
	// --flag=value.
	dir := t.TempDir()
	var out, errb bytes.Buffer
	code := Run(context.Background(), Env{Args: []string{"samples", "--out=" + dir + "/s"}, Stdout: &out, Stderr: &errb,
		Getenv: func(k string) string { return map[string]string{"FIRMO_DATA_DIR": dir}[k] }})
	if code != 0 || !strings.Contains(out.String(), dir+"/s/companies.csv") {
		t.Errorf("samples --out=DIR: exit %d, %q %q", code, out.String(), errb.String())
	}
}

// TestFlagCompletion: the shell completes each command's own flags (read from the
// command's flag set) and the values of those that declare them: datasets (a comma
// list keeps what is typed), plans, formats, the API reference's booleans; a file
// argument still gets the shell's file completion.
func TestFlagCompletion(t *testing.T) {
	complete := func(args ...string) []string {
		t.Helper()
		r := runArgs(append([]string{"__completeNoDesc"}, args...)...)
		if r.code != 0 {
			t.Fatalf("__complete %q: exit %d, %s", args, r.code, r.stderr)
		}
		lines := strings.Split(strings.TrimSpace(r.stdout), "\n")
		return lines[:len(lines)-1] // the last line is cobra's directive
	}
	for _, c := range []struct {
		args []string
		want []string
	}{
		{[]string{"append", "in.csv", "--dataset", ""}, []string{"bizdata", "domain_status", "redirects", "growth", "vendors", "subdomains"}},
		{[]string{"append", "in.csv", "--dataset", "bizdata,gr"}, []string{"bizdata,growth"}},
		{[]string{"append", "in.csv", "--dataset=redirects,"}, []string{"redirects,bizdata", "redirects,domain_status", "redirects,growth", "redirects,vendors", "redirects,subdomains"}},
		{[]string{"append", "in.csv", "--data"}, []string{"--dataset"}},
		{[]string{"bulkmatch", "in.csv", "--format", ""}, []string{"csv", "json"}},
		{[]string{"research", "in.csv", "--search_context_size", "m"}, []string{"medium"}},
		{[]string{"keys", "create", "--plan", ""}, []string{"FREE", "STARTER", "PRO", "ENTERPRISE"}},
		{[]string{"keys", "create", "--ro"}, []string{"--role"}},
		{[]string{"ingest", "certs", "--format", "j"}, []string{"jsonl"}},
		{[]string{"api", "count", "--has_email="}, []string{"true", "false"}},
		{[]string{"api", "bizdata", "--js"}, []string{"--json"}},
		{[]string{"api", "history", "--max"}, []string{"--max_records"}},
		{[]string{"api", "b"}, []string{"bizdata"}},
	} {
		if got := complete(c.args...); !slices.Equal(got, c.want) {
			t.Errorf("complete %q = %q, want %q", c.args, got, c.want)
		}
	}
	// A file argument: no candidates from firmo, the shell's files (directive 0).
	r := runArgs("__completeNoDesc", "bulkmatch", "")
	if !strings.HasSuffix(strings.TrimSpace(r.stdout), ":0") {
		t.Errorf("bulkmatch's file argument: %q, want the shell's file completion", r.stdout)
	}
}
