package main

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"log/slog"
	"os"
	"strings"
	"testing"

	"github.com/firmoapi/firmo/shared/app"
	"github.com/firmoapi/firmo/shared/app/localbackend"
	"github.com/firmoapi/firmo/shared/config"
	"github.com/firmoapi/firmo/shared/task"
	"github.com/firmoapi/firmo/shared/task/tasktest"
)

// The sample events name this organisation and task (events/README.md).
const (
	eventOrg  = "evt-org-0001"
	eventTask = "00000000-0000-4000-8000-000000000001"
)

// newSteps composes what functions/steps composes (the core alone), on the embedded
// backend with the test kind registered so a task can be submitted.
func newSteps(t *testing.T) *app.Core {
	t.Helper()
	env := map[string]string{"FIRMO_DATA_DIR": t.TempDir(), "FIRMO_TEST_TASK_KINDS": "true"}
	cfg, err := config.Load(func(k string) string { return env[k] })
	if err != nil {
		t.Fatal(err)
	}
	core, err := localbackend.Build(context.Background(), cfg, slog.New(slog.NewTextHandler(io.Discard, nil)))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { core.Close() })
	return core
}

// readStep reads a sample Task-state payload (what the ASL's Parameters build) and,
// when taskID is set, puts it in place of the sample's task id.
func readStep(t *testing.T, name, taskID string) json.RawMessage {
	t.Helper()
	raw, err := os.ReadFile("../../events/" + name)
	if err != nil {
		t.Fatal(err)
	}
	var probe map[string]any
	if err := json.Unmarshal(raw, &probe); err != nil || probe["step"] == nil || probe["org_id"] != eventOrg || probe["task_id"] != eventTask {
		t.Fatalf("events/%s: want a step payload for %s/%s (err %v)", name, eventOrg, eventTask, err)
	}
	if taskID != "" {
		raw = []byte(strings.ReplaceAll(string(raw), eventTask, taskID))
	}
	return raw
}

// TestStepEvents feeds the sample Step Functions payloads through the steps handler.
func TestStepEvents(t *testing.T) {
	ctx := context.Background()
	core := newSteps(t)
	sub, err := core.Tasks.Submit(ctx, task.Submission{OrgID: eventOrg, Kind: app.TestTaskKind, Records: tasktest.Keys("k", 3), Field: "domains"})
	if err != nil {
		t.Fatal(err)
	}

	t.Run("prepare a missing task is a permanent error", func(t *testing.T) {
		_, err := core.HandleStep(ctx, readStep(t, "steps-prepare.json", ""))
		var perm *app.PermanentError
		if !errors.As(err, &perm) {
			t.Fatalf("err = %v (%T), want *app.PermanentError (the ASL catches it into MarkFailed)", err, err)
		}
	})

	t.Run("prepare says how many chunks", func(t *testing.T) {
		out, err := core.HandleStep(ctx, readStep(t, "steps-prepare.json", sub.TaskID))
		if err != nil {
			t.Fatal(err)
		}
		p, ok := out.(task.PrepareOutput)
		if !ok || p.Chunks != 1 || p.Skip {
			t.Fatalf("prepare = %#v, want one chunk to enqueue", out)
		}
	})

	t.Run("check counts nothing done yet", func(t *testing.T) {
		out, err := core.HandleStep(ctx, readStep(t, "steps-check.json", sub.TaskID))
		if err != nil {
			t.Fatal(err)
		}
		c, ok := out.(task.CheckOutput)
		if !ok || c.Done || c.LastDone != 0 || c.Checks != 1 {
			t.Fatalf("check = %#v, want not done, 0 done, first check", out)
		}
	})

	t.Run("fail ends the task failed with the workflow's error", func(t *testing.T) {
		out, err := core.HandleStep(ctx, readStep(t, "steps-fail.json", sub.TaskID))
		if err != nil {
			t.Fatal(err)
		}
		if f, ok := out.(task.FinalizeOutput); !ok || f.Status != task.StatusFailed {
			t.Fatalf("fail = %#v, want status failed", out)
		}
		v, err := core.Tasks.Status(ctx, task.Ref{OrgID: eventOrg, TaskID: sub.TaskID})
		if err != nil {
			t.Fatal(err)
		}
		raw, _ := json.Marshal(v)
		if !strings.Contains(string(raw), "workflow_failed") || strings.Contains(string(raw), "300.00 seconds") {
			t.Fatalf("status = %s, want the workflow_failed error without the step's cause", raw)
		}
	})
}
