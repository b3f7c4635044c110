package task_test

import (
	"context"
	"errors"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/firmoapi/firmo/shared/kv"
	"github.com/firmoapi/firmo/shared/task"
	"github.com/firmoapi/firmo/shared/task/tasktest"
)

func msg(ref task.Ref, i int, key string) task.Message {
	return task.Message{Ref: ref, Index: i, Key: key}
}

func (r *rig) doneRecords(t *testing.T, ref task.Ref) int {
	t.Helper()
	out, err := r.eng.CheckProgress(context.Background(), task.CheckInput{Ref: ref})
	if err != nil {
		t.Fatal(err)
	}
	return out.DoneRecords
}

// TestHandleIsIdempotent: a record delivered again is not processed again and its row
// is written once; a crash between the row and its done mark is repaired by the
// redelivery without running the processor.
func TestHandleIsIdempotent(t *testing.T) {
	echo := &tasktest.Echo{}
	r := newRig(t, echo, rigOptions{noRun: true})
	ref := r.submit(t, tasktest.Keys("h", 3))
	ctx := context.Background()
	for range 3 {
		if err := r.eng.Handle(ctx, msg(ref, 0, "h0")); err != nil {
			t.Fatal(err)
		}
	}
	if got := echo.RunsOf("h0"); got != 1 {
		t.Fatalf("h0 ran %d times after 3 deliveries, want 1", got)
	}
	if got := r.doneRecords(t, ref); got != 1 {
		t.Fatalf("done records = %d, want 1", got)
	}
	// The crash window: the row is written, the done mark is not (layout: store.go).
	if err := r.store.Delete(ctx, kv.Key{PK: "task#" + org + "#" + ref.TaskID, SK: "done#00000"}, kv.Cond{}); err != nil {
		t.Fatal(err)
	}
	if got := r.doneRecords(t, ref); got != 0 {
		t.Fatalf("done records after losing the mark = %d", got)
	}
	if err := r.eng.Handle(ctx, msg(ref, 0, "h0")); err != nil {
		t.Fatal(err)
	}
	if got, runs := r.doneRecords(t, ref), echo.RunsOf("h0"); got != 1 || runs != 1 {
		t.Fatalf("after redelivery: done %d, runs %d; want 1 and 1", got, runs)
	}
	v, err := r.eng.Status(ctx, ref)
	if err != nil || len(v.InterimResults) != 1 || v.Progress != 33 {
		t.Fatalf("status: %d interim rows, progress %d (%v)", len(v.InterimResults), v.Progress, err)
	}
}

// TestHandleCutShortWritesNothing: a record whose context ends mid-way (a shutdown)
// writes no row and asks for redelivery.
func TestHandleCutShortWritesNothing(t *testing.T) {
	r := newRig(t, &tasktest.Echo{Delay: 10 * time.Second}, rigOptions{noRun: true})
	ref := r.submit(t, tasktest.Keys("s", 1))
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Millisecond)
	defer cancel()
	if err := r.eng.Handle(ctx, msg(ref, 0, "s0")); !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("Handle = %v, want the context's error", err)
	}
	v, err := r.eng.Status(context.Background(), ref)
	if err != nil || len(v.InterimResults) != 0 {
		t.Fatalf("rows after a cut-short record: %d (%v)", len(v.InterimResults), err)
	}
}

func TestHandleSkipsCancelledTask(t *testing.T) {
	echo := &tasktest.Echo{}
	r := newRig(t, echo, rigOptions{noRun: true})
	ref := r.submit(t, tasktest.Keys("c", 2))
	if _, err := r.eng.Cancel(context.Background(), ref); err != nil {
		t.Fatal(err)
	}
	if err := r.eng.Handle(context.Background(), msg(ref, 0, "c0")); err != nil {
		t.Fatal(err)
	}
	if echo.Calls() != 0 {
		t.Fatal("a record of a cancelling task was processed")
	}
}

// lossyQueue loses every message while lose is true (a dead-lettered or dropped
// message) and forwards the rest.
type lossyQueue struct {
	next task.Queue
	mu   sync.Mutex
	lose func(sends int) bool
	sent int
	lost int
}

func (q *lossyQueue) Send(ctx context.Context, msgs []task.Message) error {
	q.mu.Lock()
	q.sent++
	lose := q.lose(q.sent)
	if lose {
		q.lost += len(msgs)
	}
	q.mu.Unlock()
	if lose {
		return nil
	}
	return q.next.Send(ctx, msgs)
}

// TestLostMessagesAreRequeued: when nothing finishes for StallAfter, CheckProgress
// sends the unanswered records again.
func TestLostMessagesAreRequeued(t *testing.T) {
	echo := &tasktest.Echo{}
	lossy := &lossyQueue{lose: func(n int) bool { return n == 1 }} // the first chunk vanishes
	r := newRig(t, echo, rigOptions{queue: lossy, opts: task.Options{StallAfter: 50 * time.Millisecond, MaxRequeues: 1000}})
	lossy.next = r.queue
	ref := r.submit(t, tasktest.Keys("l", 700)) // chunks of 500 and 200
	v := r.wait(t, ref)
	if v.Status != task.StatusCompleted || len(v.Results) != 700 || lossy.lost != 500 {
		t.Fatalf("%s with %d rows after losing %d messages", v.Status, len(v.Results), lossy.lost)
	}
	for i := range 700 {
		k := tasktest.Keys("l", 700)[i].Key
		if echo.RunsOf(k) != 1 || decodeRow(t, v.Results[k])["echo"] != k {
			t.Fatalf("record %s ran %d times; row %s", k, echo.RunsOf(k), v.Results[k])
		}
	}
}

// TestGiveUpAnswersEveryRecord: records that never get through are answered with an
// error cell after MaxRequeues rounds, so the task still completes with every record.
func TestGiveUpAnswersEveryRecord(t *testing.T) {
	lossy := &lossyQueue{lose: func(int) bool { return true }}
	r := newRig(t, &tasktest.Echo{}, rigOptions{queue: lossy, opts: task.Options{StallAfter: 10 * time.Millisecond, MaxRequeues: 2}})
	lossy.next = r.queue
	v := r.wait(t, r.submit(t, tasktest.Keys("g", 30)))
	if v.Status != task.StatusCompleted || len(v.Results) != 30 || lossy.sent != 3 {
		t.Fatalf("%s with %d rows after %d sends; want completed, 30 rows, 1 send + 2 requeues", v.Status, len(v.Results), lossy.sent)
	}
	if row := decodeRow(t, v.Results["g7"]); row["echo"] != "Error: the record could not be processed; submit it again" {
		t.Fatalf("row = %v", row)
	}
	if len(v.Warnings) != 1 || !strings.HasPrefix(v.Warnings[0], "30 records could not be processed") {
		t.Fatalf("warnings = %q", v.Warnings)
	}
}

type brokenQueue struct{}

func (brokenQueue) Send(context.Context, []task.Message) error { return errors.New("queue down") }

// TestWorkflowFailureFailsTheTask: a step that keeps failing ends the task failed, with
// its error, rather than leaving it running forever.
func TestWorkflowFailureFailsTheTask(t *testing.T) {
	r := newRig(t, &tasktest.Echo{}, rigOptions{queue: brokenQueue{}})
	v := r.wait(t, r.submit(t, tasktest.Keys("f", 3)))
	if v.Status != task.StatusFailed || v.Error == nil || v.Error.Code != "workflow_failed" || !strings.Contains(v.Error.Message, "enqueue") {
		t.Fatalf("status %s, error %+v", v.Status, v.Error)
	}
	if strings.Contains(v.Error.Message, "queue down") {
		t.Fatalf("the task error shows internal detail: %q", v.Error.Message)
	}
}

// TestResume: a task whose process stopped (its queue and workflow gone) completes after
// Resume in a new engine on the same store, redoing only the unanswered records. A
// submission that stopped before its task was stored is cleaned up.
func TestResume(t *testing.T) {
	echo := &tasktest.Echo{}
	first := newRig(t, echo, rigOptions{noRun: true})
	ref := first.submit(t, tasktest.Keys("r", 50))
	for i := range 10 {
		if err := first.eng.Handle(context.Background(), msg(ref, i, tasktest.Keys("r", 10)[i].Key)); err != nil {
			t.Fatal(err)
		}
	}
	first.flow.Close()
	// An aborted submission: the active entry and a chunk, no meta.
	ctx := context.Background()
	aborted := kv.Key{PK: "task#" + org + "#aborted", SK: "in#00000"}
	first.store.Put(ctx, kv.Key{PK: "tasks#active", SK: org + "#aborted"}, []byte(`{}`), kv.Cond{})
	first.store.Put(ctx, aborted, []byte(`{"records":[]}`), kv.Cond{})

	second := newRig(t, echo, rigOptions{store: first.store})
	n, err := second.eng.Resume(ctx)
	if err != nil || n != 1 {
		t.Fatalf("Resume = %d, %v; want 1 task", n, err)
	}
	v := second.wait(t, ref)
	if v.Status != task.StatusCompleted || len(v.Results) != 50 {
		t.Fatalf("%s with %d rows", v.Status, len(v.Results))
	}
	for _, in := range tasktest.Keys("r", 50) {
		if echo.RunsOf(in.Key) != 1 {
			t.Fatalf("%s ran %d times", in.Key, echo.RunsOf(in.Key))
		}
	}
	if _, err := first.store.Get(ctx, aborted); err == nil {
		t.Fatal("the aborted submission's chunk is still there")
	}
	// Finalize unlists the task just after storing its final status.
	for deadline := time.Now().Add(5 * time.Second); ; time.Sleep(5 * time.Millisecond) {
		page, _ := first.store.Query(ctx, "tasks#active", kv.QueryOptions{})
		if len(page.Items) == 0 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("%d tasks still listed active", len(page.Items))
		}
	}
}
