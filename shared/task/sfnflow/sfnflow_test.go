package sfnflow_test

import (
	"context"
	"encoding/json"
	"errors"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/sfn"
	sfntypes "github.com/aws/aws-sdk-go-v2/service/sfn/types"

	"github.com/firmoapi/firmo/shared/apperr"
	"github.com/firmoapi/firmo/shared/task"
	"github.com/firmoapi/firmo/shared/task/sfnflow"
	"github.com/firmoapi/firmo/shared/testkit"
)

// waitMachine waits poll_seconds and ends with its input: it checks that the
// execution input carries what task.asl.json reads.
const waitMachine = `{"StartAt":"W","States":{"W":{"Type":"Wait","SecondsPath":"$.poll_seconds","End":true}}}`

func TestStart(t *testing.T) {
	c := testkit.SFNClient(t, testkit.StepFunctions(t, testkit.StepFunctionsOptions{Lambda: "http://127.0.0.1:1"}))
	ctx := context.Background()
	sm, err := c.CreateStateMachine(ctx, &sfn.CreateStateMachineInput{
		Name: aws.String("wait"), Definition: aws.String(waitMachine), RoleArn: aws.String("arn:aws:iam::123456789012:role/test"),
	})
	if err != nil {
		t.Fatal(err)
	}
	machine := aws.ToString(sm.StateMachineArn)
	describe := func(t *testing.T, id string) *sfn.DescribeExecutionOutput {
		t.Helper()
		out, err := c.DescribeExecution(ctx, &sfn.DescribeExecutionInput{ExecutionArn: aws.String(sfnflow.ExecutionARN(machine, id))})
		if err != nil {
			t.Fatalf("describe execution %s: %v", id, err)
		}
		return out
	}

	t.Run("named by the task, input per the contract, idempotent", func(t *testing.T) {
		w := sfnflow.New(c, machine, 300*time.Second)
		r := task.Ref{OrgID: "org-a", TaskID: "11111111-1111-1111-1111-111111111111"}
		for range 3 {
			if err := w.Start(ctx, r); err != nil {
				t.Fatal(err)
			}
		}
		out := describe(t, r.TaskID)
		var got map[string]any
		json.Unmarshal([]byte(aws.ToString(out.Input)), &got)
		want := map[string]any{"org_id": "org-a", "task_id": r.TaskID, "poll_seconds": float64(300), "checks_per_execution": float64(sfnflow.ChecksPerExecution)}
		if len(got) != len(want) || got["org_id"] != want["org_id"] || got["task_id"] != want["task_id"] || got["poll_seconds"] != want["poll_seconds"] || got["checks_per_execution"] != want["checks_per_execution"] {
			t.Errorf("input %v, want %v", got, want)
		}
		list, err := c.ListExecutions(ctx, &sfn.ListExecutionsInput{StateMachineArn: aws.String(machine)})
		if err != nil {
			t.Fatal(err)
		}
		n := 0
		for _, e := range list.Executions {
			if aws.ToString(e.Name) == r.TaskID {
				n++
			}
		}
		if n != 1 {
			t.Errorf("%d executions named %s, want 1", n, r.TaskID)
		}
		// The same name with another input (another poll) is not this task's workflow.
		err = sfnflow.New(c, machine, 60*time.Second).Start(ctx, r)
		if !errors.Is(err, apperr.ErrConflict) {
			t.Errorf("same task, other input: got %v, want a conflict", err)
		}
	})

	t.Run("start after the execution ended is a no-op", func(t *testing.T) {
		w := sfnflow.New(c, machine, time.Second)
		r := task.Ref{OrgID: "org-a", TaskID: "22222222-2222-2222-2222-222222222222"}
		if err := w.Start(ctx, r); err != nil {
			t.Fatal(err)
		}
		deadline := time.Now().Add(10 * time.Second)
		for describe(t, r.TaskID).Status == sfntypes.ExecutionStatusRunning {
			if time.Now().After(deadline) {
				t.Fatal("execution still running")
			}
			time.Sleep(50 * time.Millisecond)
		}
		if err := w.Start(ctx, r); err != nil {
			t.Fatalf("start again after the end: %v", err)
		}
		if s := describe(t, r.TaskID).Status; s != sfntypes.ExecutionStatusSucceeded {
			t.Errorf("status %s, want the first execution's SUCCEEDED", s)
		}
	})

	t.Run("errors", func(t *testing.T) {
		r := task.Ref{OrgID: "org-a", TaskID: "33333333-3333-3333-3333-333333333333"}
		if err := sfnflow.New(c, machine+"-missing", time.Second).Start(ctx, r); !errors.Is(err, apperr.ErrInternal) {
			t.Errorf("missing state machine: got %v, want an internal error", err)
		}
		dead := testkit.SFNClient(t, "http://127.0.0.1:1")
		if err := sfnflow.New(dead, machine, time.Second).Start(ctx, r); !errors.Is(err, apperr.ErrUnavailable) {
			t.Errorf("unreachable Step Functions: got %v, want unavailable", err)
		}
	})
}
