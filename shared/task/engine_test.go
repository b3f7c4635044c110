package task_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"path/filepath"
	"strings"
	"testing"
	"time"

	bolt "go.etcd.io/bbolt"

	"github.com/firmoapi/firmo/shared/apperr"
	"github.com/firmoapi/firmo/shared/kv"
	"github.com/firmoapi/firmo/shared/kv/boltkv"
	"github.com/firmoapi/firmo/shared/task"
	"github.com/firmoapi/firmo/shared/task/memqueue"
	"github.com/firmoapi/firmo/shared/task/tasktest"
)

const org = "org-a"

// rig is the embedded composition of the engine: bbolt, memqueue and its workflow.
type rig struct {
	store kv.Store
	eng   *task.Engine
	queue *memqueue.Queue
	flow  *memqueue.Workflow
	echo  *tasktest.Echo
}

type rigOptions struct {
	workers int
	limits  map[string]int
	opts    task.Options
	queue   task.Queue // replaces memqueue's Send (memqueue still runs the workers)
	noRun   bool       // do not start workers and workflow
	store   kv.Store
}

func newRig(t *testing.T, echo *tasktest.Echo, o rigOptions) *rig {
	t.Helper()
	st := o.store
	if st == nil {
		st = openStore(t, filepath.Join(t.TempDir(), "tasks.db"))
	}
	reg := task.NewRegistry()
	if err := reg.Register(echo.Kind("echo")); err != nil {
		t.Fatal(err)
	}
	if o.workers == 0 {
		o.workers = 8
	}
	q := memqueue.New(memqueue.Options{Workers: o.workers, RetryDelay: 5 * time.Millisecond})
	flow := memqueue.NewWorkflow(memqueue.FlowOptions{PollEvery: 10 * time.Millisecond, StepRetryDelay: 5 * time.Millisecond})
	var send task.Queue = q
	if o.queue != nil {
		send = o.queue
	}
	if o.opts.Retry.Attempts == 0 {
		o.opts.Retry = task.RetryPolicy{Attempts: 4, Base: time.Millisecond, Max: 5 * time.Millisecond}
	}
	eng := task.New(task.Deps{Store: st, Kinds: reg, Queue: send, Flow: flow, Limiter: task.NewLimiter(o.limits, 0), Options: o.opts})
	if !o.noRun {
		q.Run(eng)
		flow.Run(eng)
	}
	t.Cleanup(func() {
		flow.Close()
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		q.Close(ctx)
	})
	return &rig{store: st, eng: eng, queue: q, flow: flow, echo: echo}
}

func openStore(t *testing.T, path string) kv.Store {
	t.Helper()
	st, err := boltkv.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	return st
}

func (r *rig) submit(t *testing.T, records []task.Input) task.Ref {
	t.Helper()
	s, err := r.eng.Submit(context.Background(), task.Submission{OrgID: org, Kind: "echo", Records: records, Field: "domains", Params: json.RawMessage(`{"q":1}`)})
	if err != nil {
		t.Fatal(err)
	}
	return task.Ref{OrgID: org, TaskID: s.TaskID}
}

// wait polls Status until the task ends, checking on every poll that progress never
// falls and that the rows shown only grow.
func (r *rig) wait(t *testing.T, ref task.Ref) task.View {
	t.Helper()
	deadline := time.Now().Add(60 * time.Second)
	last, lastRows := -1, 0
	for {
		v, err := r.eng.Status(context.Background(), ref)
		if err != nil {
			t.Fatal(err)
		}
		rows := len(v.InterimResults) + len(v.Results)
		if v.Progress < last || rows < lastRows {
			t.Fatalf("progress went from %d%% (%d rows) to %d%% (%d rows)", last, lastRows, v.Progress, rows)
		}
		last, lastRows = v.Progress, rows
		if v.Status.Terminal() {
			return v
		}
		if time.Now().After(deadline) {
			t.Fatalf("task %s still %s at %d%% after 60 s", ref.TaskID, v.Status, v.Progress)
		}
		time.Sleep(5 * time.Millisecond)
	}
}

func decodeRow(t *testing.T, raw json.RawMessage) map[string]any {
	t.Helper()
	var m map[string]any
	if err := json.Unmarshal(raw, &m); err != nil {
		t.Fatalf("row %s: %v", raw, err)
	}
	return m
}

// TestEndToEnd runs 300 records through the engine on the embedded adapters: every
// one answered exactly once, failures as error cells, retries, costs and warnings
// aggregated. (TestEndToEndOverHTTP is the 1,000-record acceptance run.)
func TestEndToEnd(t *testing.T) {
	echo := &tasktest.Echo{Delay: time.Millisecond}
	r := newRig(t, echo, rigOptions{})
	records := tasktest.Keys("d", 290)
	special := []string{"fail:a", "fail:b", "flaky2:a", "flaky9:a", "warn:a", "warn:b", "panic:a", "d0", "d1", "d2"}
	for _, k := range special {
		records = append(records, task.Input{Key: k})
	}
	ref := r.submit(t, records)
	v := r.wait(t, ref)

	if v.Status != task.StatusCompleted || v.Progress != 100 || v.InterimResults != nil {
		t.Fatalf("status %s, progress %d, interim %d rows", v.Status, v.Progress, len(v.InterimResults))
	}
	if v.TotalDomains != 300 || len(v.Results) != 297 {
		t.Fatalf("total_domains %d, results %d; want the 300 sent and 297 results (3 duplicates merged)", v.TotalDomains, len(v.Results))
	}
	for i := 0; i < 290; i++ {
		k := fmt.Sprintf("d%d", i)
		row := decodeRow(t, v.Results[k])
		if row["echo"] != k || row["attempt"] != 1.0 {
			t.Fatalf("row %s = %v", k, row)
		}
		if got := echo.RunsOf(k); got != 1 {
			t.Fatalf("record %s ran %d times, want 1", k, got)
		}
	}
	for _, tc := range []struct {
		key, wantEcho string
		runs          int
	}{
		{"fail:a", "Error: no answer for fail:a", 1},
		{"panic:a", "Error: internal error while processing the record", 1},
		{"flaky2:a", "flaky2:a", 3},             // two retryable failures, then an answer
		{"flaky9:a", "Error: provider busy", 4}, // retries exhausted after 4 attempts
		{"warn:a", "warn:a", 1},
	} {
		t.Run(tc.key, func(t *testing.T) {
			row := decodeRow(t, v.Results[tc.key])
			if row["echo"] != tc.wantEcho || echo.RunsOf(tc.key) != tc.runs {
				t.Fatalf("row %v after %d runs; want echo %q after %d", row, echo.RunsOf(tc.key), tc.wantEcho, tc.runs)
			}
			if strings.HasPrefix(tc.wantEcho, "Error: ") && (row["attempt"] != tc.wantEcho || row["index"] != tc.wantEcho) {
				t.Fatalf("a failed record holds the error in every column: %v", row)
			}
		})
	}
	wantWarnings := []string{"3 duplicate domains were merged: results are keyed by domains.", "shared warning", "warned warn:a", "warned warn:b"}
	if got := v.Warnings; len(got) != 4 || !sameSet(got, wantWarnings) {
		t.Fatalf("warnings = %q, want (deduplicated) %q", got, wantWarnings)
	}
	// Echo bills 0.001 per answered record: 297 minus fail:a, fail:b, flaky9:a, panic:a.
	b, _ := json.Marshal(v.CostMetadata)
	var meta map[string]struct {
		Calls        int     `json:"calls"`
		PromptTokens *int64  `json:"prompt_tokens"`
		Completion   *int64  `json:"completion_tokens"`
		CostUSD      float64 `json:"est_cost_usd"`
	}
	if err := json.Unmarshal(b, &meta); err != nil || len(meta) != 1 {
		t.Fatalf("cost_metadata = %s (%v)", b, err)
	}
	cost := meta["test/echo-1"]
	if cost.Calls != 293 || cost.PromptTokens == nil || *cost.PromptTokens != 2930 || cost.Completion != nil || cost.CostUSD != 0.293 || v.EstimatedCost != 0.293 {
		t.Fatalf("cost_metadata = %s, estimated_cost %v; want 293 calls, 2930 prompt tokens, no completion tokens, 0.293 USD", b, v.EstimatedCost)
	}
}

// TestRetriesWhatApperrCallsRetryable: the engine retries what apperr.IsRetryable
// accepts, not only apperr.Retryable errors: a bare ErrUnavailable from a storage
// adapter is retried too, while any other error answers the record at once.
func TestRetriesWhatApperrCallsRetryable(t *testing.T) {
	echo := &tasktest.Echo{}
	r := newRig(t, echo, rigOptions{})
	keys := []string{"down2:a", "down9:a", "flaky1:a", "fail:a"}
	var records []task.Input
	for _, k := range keys {
		records = append(records, task.Input{Key: k})
	}
	v := r.wait(t, r.submit(t, records))
	for _, tc := range []struct {
		key, wantEcho string
		runs          int
	}{
		{"down2:a", "down2:a", 3},                        // two outages, then an answer
		{"down9:a", "Error: store down: unavailable", 4}, // retries exhausted after 4 attempts
		{"flaky1:a", "flaky1:a", 2},
		{"fail:a", "Error: no answer for fail:a", 1},
	} {
		t.Run(tc.key, func(t *testing.T) {
			row := decodeRow(t, v.Results[tc.key])
			if row["echo"] != tc.wantEcho || echo.RunsOf(tc.key) != tc.runs {
				t.Fatalf("row %v after %d runs; want echo %q after %d", row, echo.RunsOf(tc.key), tc.wantEcho, tc.runs)
			}
		})
	}
}

func sameSet(a, b []string) bool {
	if len(a) != len(b) {
		return false
	}
	seen := map[string]int{}
	for _, s := range a {
		seen[s]++
	}
	for _, s := range b {
		seen[s]--
	}
	for _, n := range seen {
		if n != 0 {
			return false
		}
	}
	return true
}

// TestCancelMidway cancels a running task: it reports cancelling at once, then ends
// cancelled, keeps the rows finished before, and starts no record afterwards.
func TestCancelMidway(t *testing.T) {
	echo := &tasktest.Echo{Delay: 20 * time.Millisecond}
	r := newRig(t, echo, rigOptions{workers: 4})
	ref := r.submit(t, tasktest.Keys("c", 400))
	ctx := context.Background()
	for {
		v, err := r.eng.Status(ctx, ref)
		if err != nil {
			t.Fatal(err)
		}
		if len(v.InterimResults) >= 40 {
			break
		}
		time.Sleep(5 * time.Millisecond)
	}
	c, err := r.eng.Cancel(ctx, ref)
	if err != nil {
		t.Fatal(err)
	}
	if !c.Success || c.Status != task.StatusCancelling || c.TaskID != ref.TaskID || c.Message == "" {
		t.Fatalf("cancel = %+v", c)
	}
	v := r.wait(t, ref)
	if v.Status != task.StatusCancelled || v.Results == nil || v.InterimResults != nil {
		t.Fatalf("after cancel: status %s, %d results, interim %v", v.Status, len(v.Results), v.InterimResults != nil)
	}
	kept := len(v.Results)
	if kept < 40 || kept >= 400 {
		t.Fatalf("kept %d rows; want the >= 40 finished before the cancel and not all 400", kept)
	}
	calls := echo.Calls()
	if calls > kept+4 {
		t.Fatalf("%d records ran but only %d rows kept: more than the 4 in flight were started after the cancel", calls, kept)
	}
	time.Sleep(100 * time.Millisecond)
	if echo.Calls() != calls {
		t.Fatalf("records still start after the task was cancelled: %d -> %d", calls, echo.Calls())
	}
	// A record that passed its last status check as the task ended may still land its
	// row: results can only grow, by at most the 4 workers' records.
	after, err := r.eng.Status(ctx, ref)
	if err != nil || len(after.Results) < kept || len(after.Results) > kept+4 || after.Progress < v.Progress {
		t.Fatalf("results after the task ended: %d -> %d rows (%v)", kept, len(after.Results), err)
	}
	for k := range v.Results {
		if _, ok := after.Results[k]; !ok {
			t.Fatalf("row %s vanished", k)
		}
	}
	for k, raw := range v.Results {
		if row := decodeRow(t, raw); row["echo"] != k {
			t.Fatalf("kept row %s = %v", k, row)
		}
	}
	again, err := r.eng.Cancel(ctx, ref)
	if err != nil || !again.Success || again.Status != task.StatusCancelled {
		t.Fatalf("second cancel = %+v, %v", again, err)
	}
}

func TestCancelEndedTask(t *testing.T) {
	r := newRig(t, &tasktest.Echo{}, rigOptions{})
	ref := r.submit(t, tasktest.Keys("e", 5))
	r.wait(t, ref)
	c, err := r.eng.Cancel(context.Background(), ref)
	if err != nil || c.Success || c.Status != task.StatusCompleted {
		t.Fatalf("cancel of a completed task = %+v, %v; want success false, status completed", c, err)
	}
}

func TestOtherOrganisationIsNotFound(t *testing.T) {
	r := newRig(t, &tasktest.Echo{}, rigOptions{})
	ref := r.submit(t, tasktest.Keys("o", 3))
	other := task.Ref{OrgID: "org-b", TaskID: ref.TaskID}
	if _, err := r.eng.Status(context.Background(), other); !errors.Is(err, apperr.ErrNotFound) {
		t.Fatalf("status from another org: %v, want not found", err)
	}
	if _, err := r.eng.Cancel(context.Background(), other); !errors.Is(err, apperr.ErrNotFound) {
		t.Fatalf("cancel from another org: %v, want not found", err)
	}
	if v := r.wait(t, ref); v.Status != task.StatusCompleted {
		t.Fatalf("the owner's task: %s", v.Status)
	}
}

func TestSubmitValidation(t *testing.T) {
	r := newRig(t, &tasktest.Echo{}, rigOptions{noRun: true})
	tooMany := tasktest.Keys("x", task.MaxRecords+1)
	for _, tc := range []struct {
		name      string
		records   []task.Input
		params    string
		wantField string
	}{
		{"none", nil, "", "domains"},
		{"too many", tooMany, "", "domains"},
		{"blank key", []task.Input{{Key: "a"}, {Key: "  "}}, "", "domains[1]"},
		{"control character", []task.Input{{Key: "a\nb"}}, "", "domains[0]"},
		{"long key", []task.Input{{Key: strings.Repeat("k", task.MaxKeyBytes+1)}}, "", "domains[0]"},
		{"large input", []task.Input{{Key: "a", Data: json.RawMessage(`"` + strings.Repeat("x", task.MaxInputBytes) + `"`)}}, "", "domains[0]"},
		{"large params", []task.Input{{Key: "a"}}, `"` + strings.Repeat("p", task.MaxParamsBytes) + `"`, "params"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := r.eng.Submit(context.Background(), task.Submission{OrgID: org, Kind: "echo", Records: tc.records, Field: "domains", Params: json.RawMessage(tc.params)})
			var ae *apperr.Error
			if !errors.As(err, &ae) || ae.Kind != apperr.ErrInvalid || ae.Field != tc.wantField {
				t.Fatalf("err = %v, want a validation error on %s", err, tc.wantField)
			}
		})
	}
	if _, err := r.eng.Submit(context.Background(), task.Submission{OrgID: org, Kind: "nope", Records: tasktest.Keys("a", 1)}); !errors.Is(err, apperr.ErrInternal) {
		t.Fatalf("unknown kind: %v", err)
	}
	page, err := r.store.Query(context.Background(), "tasks#active", kv.QueryOptions{})
	if err != nil || len(page.Items) != 0 {
		t.Fatalf("refused submissions left %d active entries (%v)", len(page.Items), err)
	}
}

// failingFlow refuses to start workflows.
type failingFlow struct{}

func (failingFlow) Start(context.Context, task.Ref) error {
	return &apperr.Error{Kind: apperr.ErrUnavailable, Message: "down"}
}

// TestSubmitLeavesNothingWhenTheWorkflowCannotStart: a submission that fails after
// writing its chunks removes them.
func TestSubmitLeavesNothingWhenTheWorkflowCannotStart(t *testing.T) {
	st := openStore(t, filepath.Join(t.TempDir(), "t.db"))
	reg := task.NewRegistry()
	reg.Register((&tasktest.Echo{}).Kind("echo"))
	eng := task.New(task.Deps{Store: st, Kinds: reg, Queue: memqueue.New(memqueue.Options{}), Flow: failingFlow{}})
	_, err := eng.Submit(context.Background(), task.Submission{OrgID: org, Kind: "echo", Records: tasktest.Keys("k", 1200)})
	if !errors.Is(err, apperr.ErrUnavailable) {
		t.Fatalf("err = %v, want unavailable", err)
	}
	for _, pk := range []string{"tasks#active"} {
		if page, _ := st.Query(context.Background(), pk, kv.QueryOptions{}); len(page.Items) != 0 {
			t.Fatalf("%s holds %d items after a failed submission", pk, len(page.Items))
		}
	}
	if n := countItems(t, st); n != 0 {
		t.Fatalf("%d items left behind by a failed submission", n)
	}
}

// countItems counts every item of a bolt store, whatever its partition.
func countItems(t *testing.T, st kv.Store) int {
	t.Helper()
	n := 0
	err := st.(*boltkv.Store).DB().View(func(tx *bolt.Tx) error {
		return tx.ForEach(func(_ []byte, b *bolt.Bucket) error {
			return b.ForEach(func(k, _ []byte) error { n++; return nil })
		})
	})
	if err != nil {
		t.Fatal(err)
	}
	return n
}

// TestDuplicatesAreMerged: duplicate keys are answered once, with a warning, and
// total_domains echoes the records sent, at submission and on status alike.
func TestDuplicatesAreMerged(t *testing.T) {
	r := newRig(t, &tasktest.Echo{}, rigOptions{})
	s, err := r.eng.Submit(context.Background(), task.Submission{OrgID: org, Kind: "echo", Records: []task.Input{{Key: "a"}, {Key: "b"}, {Key: "a"}}, Field: "persona_ids"})
	if err != nil {
		t.Fatal(err)
	}
	if s.TotalDomains != 3 || s.Status != task.StatusInProgress || s.TaskID == "" {
		t.Fatalf("submitted = %+v", s)
	}
	cols, _ := json.Marshal(s.ColumnName)
	if string(cols) != `["echo","attempt","index"]` {
		t.Fatalf("column_name = %s, want the kind's columns", cols)
	}
	v := r.wait(t, task.Ref{OrgID: org, TaskID: s.TaskID})
	if len(v.Results) != 2 || len(v.Warnings) != 1 || !strings.Contains(v.Warnings[0], "1 duplicate persona_ids were merged") {
		t.Fatalf("results %d, warnings %q", len(v.Results), v.Warnings)
	}
	if v.TotalDomains != s.TotalDomains || v.Progress != 100 {
		t.Fatalf("status total_domains %d, progress %d; want the %d echoed at submission and 100", v.TotalDomains, v.Progress, s.TotalDomains)
	}
}

// TestProviderLimit: records of one provider never run more at once than its limit,
// whatever the worker count.
func TestProviderLimit(t *testing.T) {
	echo := &tasktest.Echo{Delay: 5 * time.Millisecond, Prov: "slowapi"}
	r := newRig(t, echo, rigOptions{workers: 16, limits: map[string]int{"slowapi": 3}})
	v := r.wait(t, r.submit(t, tasktest.Keys("p", 60)))
	if v.Status != task.StatusCompleted || len(v.Results) != 60 {
		t.Fatalf("%s with %d rows", v.Status, len(v.Results))
	}
	if got := echo.MaxConcurrent(); got != 3 {
		t.Fatalf("at most %d records ran at once; want exactly the limit 3", got)
	}
}
