package task_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/firmoapi/firmo/shared/apperr"
	"github.com/firmoapi/firmo/shared/kv"
	"github.com/firmoapi/firmo/shared/kv/dynamokv"
	"github.com/firmoapi/firmo/shared/task"
	"github.com/firmoapi/firmo/shared/task/tasktest"
	"github.com/firmoapi/firmo/shared/testkit"
)

// TestOnDynamoDB runs the engine on the DynamoDB adapter (dynalite, which has no
// transactions): the storage layout relies only on conditional single-item writes and
// ADD counters, so a task completes with each record answered once, a cancel ends it
// cancelled, and another organisation's task is not found.
func TestOnDynamoDB(t *testing.T) {
	if testing.Short() {
		t.Skip("starts dynalite")
	}
	client := testkit.DynamoClient(t, testkit.Dynalite(t))
	ctx := context.Background()
	if err := dynamokv.EnsureTable(ctx, client, "tasks"); err != nil {
		t.Fatal(err)
	}
	var st kv.Store = dynamokv.New(client, "tasks")
	echo := &tasktest.Echo{}
	r := newRig(t, echo, rigOptions{store: st, workers: 8})
	records := append(tasktest.Keys("dyn", 150), task.Input{Key: "fail:x"}, task.Input{Key: "flaky1:x"})
	ref := r.submit(t, records)
	v := r.wait(t, ref)
	if v.Status != task.StatusCompleted || len(v.Results) != 152 {
		t.Fatalf("%s with %d rows", v.Status, len(v.Results))
	}
	for _, in := range tasktest.Keys("dyn", 150) {
		if row := decodeRow(t, v.Results[in.Key]); row["echo"] != in.Key || echo.RunsOf(in.Key) != 1 {
			t.Fatalf("row %s = %v after %d runs", in.Key, row, echo.RunsOf(in.Key))
		}
	}
	if row := decodeRow(t, v.Results["fail:x"]); row["echo"] != "Error: no answer for fail:x" {
		t.Fatalf("failed record = %v", row)
	}
	// A redelivered record is neither run nor written again.
	if err := r.eng.Handle(ctx, msg(ref, 0, "dyn0")); err != nil || echo.RunsOf("dyn0") != 1 {
		t.Fatalf("redelivery: %v, %d runs", err, echo.RunsOf("dyn0"))
	}
	if _, err := r.eng.Status(ctx, task.Ref{OrgID: "org-b", TaskID: ref.TaskID}); !errors.Is(err, apperr.ErrNotFound) {
		t.Fatalf("another organisation's status: %v", err)
	}

	slow := newRig(t, &tasktest.Echo{Delay: 50 * time.Millisecond}, rigOptions{store: st, workers: 4})
	ref2 := slow.submit(t, tasktest.Keys("slow", 200))
	for {
		s, err := slow.eng.Status(ctx, ref2)
		if err != nil {
			t.Fatal(err)
		}
		if len(s.InterimResults) >= 10 {
			break
		}
		time.Sleep(10 * time.Millisecond)
	}
	if c, err := slow.eng.Cancel(ctx, ref2); err != nil || c.Status != task.StatusCancelling {
		t.Fatalf("cancel = %+v, %v", c, err)
	}
	if v := slow.wait(t, ref2); v.Status != task.StatusCancelled || len(v.Results) < 10 || len(v.Results) >= 200 {
		t.Fatalf("after cancel: %s with %d rows", v.Status, len(v.Results))
	}
}
