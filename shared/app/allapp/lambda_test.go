package allapp_test

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/aws/aws-lambda-go/events"

	"github.com/firmoapi/firmo/shared/app"
	"github.com/firmoapi/firmo/shared/task"
	"github.com/firmoapi/firmo/shared/task/tasktest"
)

// The Lambda handlers' error naming and batch answers, on the embedded store (the
// AWS end-to-end run is TestTasksOnAWS).
func TestHandleStepErrors(t *testing.T) {
	a := routerApp(t)
	ctx := context.Background()
	if err := a.Tasks.Kinds().Register((&tasktest.Echo{}).Kind("echo")); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name, payload string
		wantType      string
	}{
		{"not JSON", `[1,2`, "PermanentError"},
		{"unknown step", `{"step":"explode","org_id":"o","task_id":"t"}`, "PermanentError"},
		{"no task id", `{"step":"prepare","org_id":"o"}`, "PermanentError"},
		{"missing task", `{"step":"prepare","org_id":"o","task_id":"00000000-0000-0000-0000-000000000000"}`, "PermanentError"},
		{"bad field type", `{"step":"check","org_id":"o","task_id":"t","checks":"two"}`, "PermanentError"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := a.HandleStep(ctx, json.RawMessage(tc.payload))
			var perm *app.PermanentError
			if !errors.As(err, &perm) {
				t.Fatalf("got %T %v, want *%s", err, err, tc.wantType)
			}
		})
	}

	t.Run("fail step fails the task with a user-facing error", func(t *testing.T) {
		demo, err := a.Accounts.EnsureDemo(ctx, "")
		if err != nil {
			t.Fatal(err)
		}
		// Submit needs a workflow: the local one is not started, so Start only records it.
		sub, err := a.Tasks.Submit(ctx, task.Submission{OrgID: demo.Org.ID, Kind: "echo", Records: tasktest.Keys("k", 3)})
		if err != nil {
			t.Fatal(err)
		}
		payload := `{"step":"fail","org_id":"` + demo.Org.ID + `","task_id":"` + sub.TaskID + `","failure":{"Error":"States.Timeout","Cause":"secret internals"}}`
		out, err := a.HandleStep(ctx, json.RawMessage(payload))
		if err != nil {
			t.Fatal(err)
		}
		if fo, _ := out.(task.FinalizeOutput); fo.Status != task.StatusFailed {
			t.Fatalf("output %+v, want status failed", out)
		}
		v, err := a.Tasks.Status(ctx, task.Ref{OrgID: demo.Org.ID, TaskID: sub.TaskID})
		if err != nil {
			t.Fatal(err)
		}
		if v.Error == nil || v.Error.Code != "workflow_failed" || v.Error.Message == "" || strings.Contains(v.Error.Message, "secret") {
			t.Errorf("task error %+v, want workflow_failed without the step's internals", v.Error)
		}
		// A finalize payload cannot fail a task: only the fail step can.
		out, err = a.HandleStep(ctx, json.RawMessage(`{"step":"finalize","org_id":"`+demo.Org.ID+`","task_id":"`+sub.TaskID+`","error":{"code":"x","message":"y"}}`))
		if fo, _ := out.(task.FinalizeOutput); err != nil || fo.Status != task.StatusFailed {
			t.Errorf("finalize of an ended task: %+v %v, want its status kept", out, err)
		}
	})
}

func TestHandleSQSReportsOnlyFailures(t *testing.T) {
	a := routerApp(t)
	gone, _ := json.Marshal(task.Message{Ref: task.Ref{OrgID: "o", TaskID: "00000000-0000-0000-0000-000000000000"}, Key: "x"})
	ev := events.SQSEvent{Records: []events.SQSMessage{
		{MessageId: "gone-task", Body: string(gone)}, // a task that no longer exists: nothing to do, delete
		{MessageId: "garbage", Body: "not json"},     // unreadable: left for the DLQ
		{MessageId: "no-ref", Body: `{"key":"x"}`},   // no task: left for the DLQ
	}}
	resp, err := a.HandleSQS(context.Background(), ev)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, f := range resp.BatchItemFailures {
		got = append(got, f.ItemIdentifier)
	}
	if len(got) != 2 || got[0] != "garbage" || got[1] != "no-ref" {
		t.Errorf("batch item failures %v, want [garbage no-ref]", got)
	}
}
