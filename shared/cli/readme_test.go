package cli

import (
	"bufio"
	"context"
	"fmt"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"syscall"
	"testing"
	"time"
)

// asFirmoEnv makes this package's test binary act as the firmo command (TestMain).
const asFirmoEnv = "FIRMO_README_AS_FIRMO"

// readmeBlock is one ```sh block of README.md.
type readmeBlock struct {
	line int    // of the opening fence
	text string // the commands
	skip string // why it is not run: a readme-test marker on the line before
}

var skipMarker = regexp.MustCompile(`^<!-- readme-test: skip \((.+)\) -->$`)

// readmeBlocks are README.md's sh blocks, in order.
func readmeBlocks(t *testing.T, path string) []readmeBlock {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out []readmeBlock
	var cur *readmeBlock
	prev := ""
	sc := bufio.NewScanner(f)
	for n := 1; sc.Scan(); n++ {
		l := sc.Text()
		switch {
		case cur == nil && l == "```sh":
			cur = &readmeBlock{line: n}
			if m := skipMarker.FindStringSubmatch(prev); m != nil {
				cur.skip = m[1]
			}
		case cur != nil && l == "```":
			out = append(out, *cur)
			cur = nil
		case cur != nil:
			cur.text += l + "\n"
		}
		prev = l
	}
	return out
}

// TestREADMECommands runs every sh block of README.md, in order, as a user following it
// would: in a fresh directory whose bin/firmo is the firmo command (this test binary)
// and whose data/ is the data dir of a `bin/firmo serve` started on an empty store, as
// `make run` does. A block marked `<!-- readme-test: skip (why) -->` is listed with its
// reason and not run. What differs from a user's shell, each only to share this
// machine: the server's port (localhost:8080 becomes a free port), /tmp/ (the test's
// own directory), FIRMO_CONFIG (firmo login's file, in the test's directory), KEY and FIRMO_API_KEY set from data/demo-api-key as the first blocks
// set them, and a placeholder id (TASK_ID, <task_id>, <job_id>) replaced by the last id
// a curl of the block answered. A block fails when a command exits non-zero (set -e,
// pipefail) or when curl gets an HTTP error status the block does not name (the
// quickstart's "401", say).
func TestREADMECommands(t *testing.T) {
	if testing.Short() {
		t.Skip("starts a server on a fresh data dir (the demo world's first start)")
	}
	if _, err := exec.LookPath("bash"); err != nil {
		t.Skip("no bash")
	}
	for _, tool := range []string{"curl", "jq"} {
		if _, err := exec.LookPath(tool); err != nil {
			if os.Getenv("FIRMO_REQUIRE_STANDINS") == "1" {
				t.Fatalf("the README's examples use %s, which is not installed (.ci/run installs it)", tool)
			}
			t.Skipf("the README's examples use %s, which is not installed", tool)
		}
	}
	blocks := readmeBlocks(t, filepath.Join("..", "..", "README.md"))
	if len(blocks) < 10 {
		t.Fatalf("only %d sh blocks in README.md", len(blocks))
	}
	dir := t.TempDir()
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Join(dir, "bin"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Join(dir, "tmp"), 0o755); err != nil {
		t.Fatal(err)
	}
	script := fmt.Sprintf("#!/bin/sh\n%s=1 exec %s \"$@\"\n", asFirmoEnv, shellQuote(exe))
	if err := os.WriteFile(filepath.Join(dir, "bin", "firmo"), []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	port := freePort(t)
	base := fmt.Sprintf("http://127.0.0.1:%d", port)
	env := slicesDeleteFunc(os.Environ(), func(kv string) bool {
		return strings.HasPrefix(kv, "FIRMO_")
	})
	// firmo login's profiles go to the test's directory, not the user's home.
	env = append(env, "FIRMO_ADDR=127.0.0.1:"+fmt.Sprint(port), "FIRMO_URL="+base, "FIRMO_CONFIG="+filepath.Join(dir, "firmo-config.json"))

	var serveLog strings.Builder
	serve := exec.Command(filepath.Join(dir, "bin", "firmo"), "serve")
	serve.Dir, serve.Env, serve.Stdout, serve.Stderr = dir, env, &serveLog, &serveLog
	if err := serve.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		_ = serve.Process.Signal(syscall.SIGTERM)
		done := make(chan struct{})
		go func() { serve.Wait(); close(done) }()
		select {
		case <-done:
		case <-time.After(30 * time.Second):
			_ = serve.Process.Kill()
			<-done
		}
	})
	if err := waitReady(base, 4*time.Minute); err != nil {
		t.Fatalf("the server did not get ready: %v\n%s", err, serveLog.String())
	}
	key, err := os.ReadFile(filepath.Join(dir, "data", "demo-api-key"))
	if err != nil {
		t.Fatalf("no data/demo-api-key after the first start: %v", err)
	}
	env = append(env, "KEY="+strings.TrimSpace(string(key)), "FIRMO_API_KEY="+strings.TrimSpace(string(key)))

	idFile := filepath.Join(dir, "tmp", ".last-id")
	errFile := filepath.Join(dir, "tmp", ".http-errors")
	// curl as the README calls it, plus: remember the last task, job or batch id it
	// answered, and note every HTTP error status.
	prelude := `set -eo pipefail
curl() {
  local body status
  body=$(mktemp)
  status=$(command curl -w '%{http_code}' -o "$body" "$@")
  cat "$body"; echo
  local id
  id=$(grep -o '"\(task\|job\|batch\)_id":"[^"]*"' "$body" | head -1 | cut -d'"' -f4 || true)
  if [ -n "$id" ]; then printf '%s' "$id" > "$FIRMO_README_LAST_ID"; fi
  if [ "${status:-0}" -ge 400 ]; then echo "$status $*" >> "$FIRMO_README_HTTP_ERRORS"; fi
  rm -f "$body"
}
`
	placeholder := regexp.MustCompile(`\$TASK_ID\b|\bTASK_ID\b|<task_id>|<job_id>`)
	ran := 0
	for _, b := range blocks {
		name := fmt.Sprintf("README.md:%d", b.line)
		if b.skip != "" {
			t.Logf("%s not run: %s", name, b.skip)
			continue
		}
		text := strings.ReplaceAll(b.text, "localhost:8080", fmt.Sprintf("127.0.0.1:%d", port))
		text = strings.ReplaceAll(text, "/tmp/", filepath.Join(dir, "tmp")+"/")
		if !strings.Contains(text, "TASK_ID=") {
			text = placeholder.ReplaceAllLiteralString(text, `$(cat "$FIRMO_README_LAST_ID")`)
		}
		_ = os.Remove(errFile)
		ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
		cmd := exec.CommandContext(ctx, "bash", "-c", prelude+text)
		cmd.Dir = dir
		cmd.Env = append(env, "FIRMO_README_LAST_ID="+idFile, "FIRMO_README_HTTP_ERRORS="+errFile)
		out, err := cmd.CombinedOutput()
		cancel()
		ran++
		if err != nil {
			t.Errorf("%s failed (%v):\n%s\noutput:\n%s", name, err, b.text, out)
			continue
		}
		t.Logf("%s ran:\n%s", name, out)
		if raw, err := os.ReadFile(errFile); err == nil {
			for _, l := range strings.Split(strings.TrimSpace(string(raw)), "\n") {
				status, _, _ := strings.Cut(l, " ")
				if !strings.Contains(b.text, status) {
					t.Errorf("%s: curl got HTTP %s, which the block does not mention:\n%s\noutput:\n%s", name, l, b.text, out)
				}
			}
		}
	}
	t.Logf("%d of %d sh blocks run", ran, len(blocks))
}

func freePort(t *testing.T) int {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port
}

// waitReady polls base's /readyz until it answers 200.
func waitReady(base string, within time.Duration) error {
	deadline := time.Now().Add(within)
	var last error
	for time.Now().Before(deadline) {
		resp, err := http.Get(base + "/readyz")
		if err == nil {
			resp.Body.Close()
			if resp.StatusCode == http.StatusOK {
				return nil
			}
			last = fmt.Errorf("readyz %d", resp.StatusCode)
		} else {
			last = err
		}
		time.Sleep(500 * time.Millisecond)
	}
	return last
}

func slicesDeleteFunc(s []string, del func(string) bool) []string {
	out := s[:0:0]
	for _, x := range s {
		if !del(x) {
			out = append(out, x)
		}
	}
	return out
}
