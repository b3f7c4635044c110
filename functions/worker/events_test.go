package main

import (
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"os"
	"strings"
	"testing"

	"github.com/aws/aws-lambda-go/events"

	"github.com/firmoapi/firmo/shared/app"
	"github.com/firmoapi/firmo/shared/app/companyapp"
	"github.com/firmoapi/firmo/shared/app/emailapp"
	"github.com/firmoapi/firmo/shared/app/generationapp"
	"github.com/firmoapi/firmo/shared/app/localbackend"
	"github.com/firmoapi/firmo/shared/config"
	"github.com/firmoapi/firmo/shared/task"
	"github.com/firmoapi/firmo/shared/task/tasktest"
)

// The sample events name this organisation and task (events/README.md); a test that
// needs the task to exist submits one and puts its id in place of the sample's.
const (
	eventOrg  = "evt-org-0001"
	eventTask = "00000000-0000-4000-8000-000000000001"
)

// newWorker composes what functions/worker composes, on the embedded backend with the
// observable test kind, and without starting the in-process workers: the handler under
// test is the only thing that runs records.
func newWorker(t *testing.T) *app.Core {
	t.Helper()
	env := map[string]string{"FIRMO_DATA_DIR": t.TempDir(), "FIRMO_TEST_TASK_KINDS": "true"}
	cfg, err := config.Load(func(k string) string { return env[k] })
	if err != nil {
		t.Fatal(err)
	}
	core, err := localbackend.Build(context.Background(), cfg, slog.New(slog.NewTextHandler(io.Discard, nil)),
		emailapp.Composer(), generationapp.Composer(), &companyapp.Composer{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { core.Close() })
	return core
}

// readSQS decodes a sample event strictly, so the files stay what SQS delivers.
func readSQS(t *testing.T, name string) events.SQSEvent {
	t.Helper()
	raw, err := os.ReadFile("../../events/" + name)
	if err != nil {
		t.Fatal(err)
	}
	dec := json.NewDecoder(strings.NewReader(string(raw)))
	dec.DisallowUnknownFields()
	var ev events.SQSEvent
	if err := dec.Decode(&ev); err != nil {
		t.Fatalf("events/%s: %v", name, err)
	}
	for _, r := range ev.Records {
		if r.EventSource != "aws:sqs" || r.MessageId == "" {
			t.Fatalf("events/%s: a record without eventSource aws:sqs or messageId", name)
		}
	}
	return ev
}

func failed(resp events.SQSEventResponse) []string {
	var ids []string
	for _, f := range resp.BatchItemFailures {
		ids = append(ids, f.ItemIdentifier)
	}
	return ids
}

// TestSQSEvents feeds the sample SQS events through the worker's handler.
func TestSQSEvents(t *testing.T) {
	ctx := context.Background()
	core := newWorker(t)

	t.Run("records of a task that no longer exists are dropped", func(t *testing.T) {
		resp, err := core.HandleSQS(ctx, readSQS(t, "worker-task-records.json"))
		if err != nil || len(resp.BatchItemFailures) != 0 {
			t.Fatalf("failures %v, err %v; want none (nothing to answer)", failed(resp), err)
		}
	})

	t.Run("records of a task are answered once", func(t *testing.T) {
		sub, err := core.Tasks.Submit(ctx, task.Submission{OrgID: eventOrg, Kind: app.TestTaskKind, Records: tasktest.Keys("k", 2), Field: "domains"})
		if err != nil {
			t.Fatal(err)
		}
		ev := readSQS(t, "worker-task-records.json")
		for i := range ev.Records {
			ev.Records[i].Body = strings.ReplaceAll(ev.Records[i].Body, eventTask, sub.TaskID)
		}
		for range 2 { // SQS delivers at least once: the second delivery changes nothing
			resp, err := core.HandleSQS(ctx, ev)
			if err != nil || len(resp.BatchItemFailures) != 0 {
				t.Fatalf("failures %v, err %v", failed(resp), err)
			}
		}
		v, err := core.Tasks.Status(ctx, task.Ref{OrgID: eventOrg, TaskID: sub.TaskID})
		if err != nil {
			t.Fatal(err)
		}
		raw, _ := json.Marshal(v)
		var got struct {
			Interim map[string]struct {
				Echo string `json:"echo"`
			} `json:"interim_results"`
			Cost map[string]struct {
				Calls int `json:"calls"`
			} `json:"cost_metadata"`
		}
		if err := json.Unmarshal(raw, &got); err != nil {
			t.Fatal(err)
		}
		if len(got.Interim) != 2 || got.Interim["k0"].Echo != "k0" || got.Interim["k1"].Echo != "k1" {
			t.Errorf("rows = %+v, want k0 and k1 answered", got.Interim)
		}
		calls := 0
		for _, c := range got.Cost {
			calls += c.Calls
		}
		if calls != 2 {
			t.Errorf("the processor ran %d times for 2 records delivered twice, want 2: %s", calls, raw)
		}
	})

	t.Run("an unreadable message is left for the dead-letter queue", func(t *testing.T) {
		ev := readSQS(t, "worker-unreadable.json")
		resp, err := core.HandleSQS(ctx, ev)
		if err != nil {
			t.Fatal(err)
		}
		if got := failed(resp); len(got) != 1 || got[0] != ev.Records[0].MessageId {
			t.Fatalf("failures %v, want [%s]", got, ev.Records[0].MessageId)
		}
	})
}
