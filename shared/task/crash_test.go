package task_test

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/firmoapi/firmo/shared/app"
	"github.com/firmoapi/firmo/shared/app/allapp"
	"github.com/firmoapi/firmo/shared/config"
	"github.com/firmoapi/firmo/shared/kv"
	"github.com/firmoapi/firmo/shared/kv/boltkv"
	"github.com/firmoapi/firmo/shared/task"
	"github.com/firmoapi/firmo/shared/task/tasktest"
)

// The crash test runs the embedded composition in a separate process (this test
// binary, re-executed with crashHelperEnv set): it is the app that `firmo serve` builds
// (app.NewLocal, StartTasks with its resume), plus a "sleep" test kind that appends
// each run's key to runs.log (a plain write: the kernel keeps it through a kill -9).
const (
	crashHelperEnv = "FIRMO_TASK_CRASH_HELPER" // "submit" or "resume"
	crashTaskEnv   = "FIRMO_TASK_CRASH_TASK"
	crashOrg       = "crash-org"
	crashRecords   = 400
)

func TestMain(m *testing.M) {
	if mode := os.Getenv(crashHelperEnv); mode != "" {
		os.Exit(crashHelper(mode))
	}
	os.Exit(m.Run())
}

// crashHelper submits (mode submit) or resumes (mode resume) the task, then prints
// "rows <n> <status>" lines until it ends, then "done" and exits.
func crashHelper(mode string) int {
	cfg, err := config.Load(os.Getenv)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	ctx := context.Background()
	a, err := allapp.NewLocal(ctx, cfg, app.NewLogger(cfg, os.Stderr))
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	defer a.Close()
	runs, err := os.OpenFile(filepath.Join(cfg.DataDir, "runs.log"), os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o600)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	defer runs.Close()
	sleep := &tasktest.Echo{Delay: 100 * time.Millisecond, OnRun: func(rec task.Record) { runs.WriteString(rec.Key + "\n") }}
	a.Tasks.Kinds().Register(sleep.Kind("sleep"))
	if err := a.StartTasks(ctx); err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	id := os.Getenv(crashTaskEnv)
	if mode == "submit" {
		s, err := a.Tasks.Submit(ctx, task.Submission{OrgID: crashOrg, Kind: "sleep", Records: tasktest.Keys("k", crashRecords)})
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			return 1
		}
		id = s.TaskID
		fmt.Println("task", id)
	}
	for {
		v, err := a.Tasks.Status(ctx, task.Ref{OrgID: crashOrg, TaskID: id})
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			return 1
		}
		fmt.Println("rows", len(v.InterimResults)+len(v.Results), v.Status)
		if v.Status.Terminal() {
			fmt.Println("done")
			return 0
		}
		time.Sleep(10 * time.Millisecond)
	}
}

type helper struct {
	cmd    *exec.Cmd
	lines  chan string
	stderr *bytes.Buffer
}

func startHelper(t *testing.T, dataDir, mode, taskID string) *helper {
	t.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), crashHelperEnv+"="+mode, crashTaskEnv+"="+taskID, "FIRMO_DATA_DIR="+dataDir, "FIRMO_LOG_LEVEL=warn")
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	h := &helper{cmd: cmd, lines: make(chan string, 1000), stderr: &bytes.Buffer{}}
	cmd.Stderr = h.stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cmd.Process.Kill(); cmd.Wait() })
	go func() {
		sc := bufio.NewScanner(out)
		for sc.Scan() {
			h.lines <- sc.Text()
		}
		io.Copy(io.Discard, out)
		close(h.lines)
	}()
	return h
}

// until reads lines until one satisfies ok.
func (h *helper) until(t *testing.T, what string, ok func(string) bool) string {
	t.Helper()
	timeout := time.After(60 * time.Second)
	for {
		select {
		case l, open := <-h.lines:
			if !open {
				t.Fatalf("helper exited before %s; stderr:\n%s", what, h.stderr)
			}
			if ok(l) {
				return l
			}
		case <-timeout:
			t.Fatalf("no %s within 60 s; stderr:\n%s", what, h.stderr)
		}
	}
}

// TestCrashAndResume kills the engine's process with SIGKILL in the middle of a task,
// restarts it, and checks that the task completes with each record answered once.
func TestCrashAndResume(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the engine in subprocesses")
	}
	dir := t.TempDir()
	first := startHelper(t, dir, "submit", "")
	id := strings.TrimPrefix(first.until(t, "a task id", func(l string) bool { return strings.HasPrefix(l, "task ") }), "task ")
	at := first.until(t, "a quarter of the rows", func(l string) bool {
		f := strings.Fields(l)
		n, _ := strconv.Atoi(f[len(f)-2])
		return f[0] == "rows" && n >= crashRecords/4
	})
	// Workers start in waves (all free at once after a group commit), so a kill right at
	// a row count can fall between two waves; half a record's delay later, a wave runs.
	time.Sleep(50 * time.Millisecond)
	if err := first.cmd.Process.Signal(syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	first.cmd.Wait()
	t.Logf("killed with %s", at)

	second := startHelper(t, dir, "resume", id)
	second.until(t, "the end of the task", func(l string) bool { return l == "done" })
	if err := second.cmd.Wait(); err != nil {
		t.Fatalf("resumed process: %v; stderr:\n%s", err, second.stderr)
	}

	st, err := boltkv.Open(filepath.Join(dir, "firmo.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	ctx := context.Background()
	rows := map[string]int{}
	each(t, st, "task#"+crashOrg+"#"+id, "row#", func(it kv.Item) {
		var row struct {
			Key   string          `json:"k"`
			Cells json.RawMessage `json:"r"`
		}
		json.Unmarshal(it.Data, &row)
		var cells map[string]any
		json.Unmarshal(row.Cells, &cells)
		if cells["echo"] != row.Key || it.SK != "row#"+row.Key || it.Version != 1 {
			t.Errorf("row %s = %s (version %d): want its own echo, written once", it.SK, row.Cells, it.Version)
		}
		rows[row.Key]++
	})
	log, err := os.ReadFile(filepath.Join(dir, "runs.log"))
	if err != nil {
		t.Fatal(err)
	}
	runs := map[string]int{}
	for _, k := range strings.Fields(string(log)) {
		runs[k]++
	}
	reruns := 0
	for _, in := range tasktest.Keys("k", crashRecords) {
		if rows[in.Key] != 1 {
			t.Errorf("record %s has %d rows, want 1", in.Key, rows[in.Key])
		}
		if runs[in.Key] < 1 {
			t.Errorf("record %s never ran", in.Key)
		}
		reruns += runs[in.Key] - 1
	}
	if len(rows) != crashRecords {
		t.Errorf("%d rows, want %d", len(rows), crashRecords)
	}
	// Records running at the kill ran again after the restart, yet wrote one row each:
	// this is what shows the crash hit mid-record and idempotency held.
	if reruns == 0 {
		t.Error("no record ran twice: the kill did not interrupt any record, so the test proved nothing")
	}
	t.Logf("%d record runs were repeated after the restart; every record has exactly one row", reruns)
	meta, err := st.Get(ctx, kv.Key{PK: "task#" + crashOrg + "#" + id, SK: "meta"})
	if err != nil || !strings.Contains(string(meta.Data), `"status":"completed"`) {
		t.Fatalf("task meta = %s (%v)", meta.Data, err)
	}
	if page, _ := st.Query(ctx, "tasks#active", kv.QueryOptions{}); len(page.Items) != 0 {
		t.Errorf("%d tasks still listed active", len(page.Items))
	}
}

func each(t *testing.T, st kv.Store, pk, prefix string, fn func(kv.Item)) {
	t.Helper()
	cursor := ""
	for {
		page, err := st.Query(context.Background(), pk, kv.QueryOptions{Prefix: prefix, Limit: 1000, Cursor: cursor})
		if err != nil {
			t.Fatal(err)
		}
		for _, it := range page.Items {
			fn(it)
		}
		if page.Next == "" {
			return
		}
		cursor = page.Next
	}
}
