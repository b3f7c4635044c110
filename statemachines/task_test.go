package statemachines

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/sfn"
	sfntypes "github.com/aws/aws-sdk-go-v2/service/sfn/types"

	"github.com/firmoapi/firmo/shared/task"
	"github.com/firmoapi/firmo/shared/testkit"
)

// journal mirrors what testdata/fakesteps records per task.
type journal struct {
	Calls     []string
	Enqueued  []int
	Checks    int
	Final     task.Status
	GaveUp    bool `json:"gave_up"`
	Failure   *struct{ Error, Cause string }
	LastCheck *task.CheckInput `json:"last_check"`
	Faults    map[string]int
}

// TestTaskWorkflow runs the real task.asl.json on the Step Functions stand-in, its
// Task states invoking a real Lambda binary that speaks the step contract with the
// shared/task types, through the happy path and each kind of failure.
func TestTaskWorkflow(t *testing.T) {
	dir := t.TempDir()
	l := testkit.NewLambda(t)
	// Retry intervals shortened; Wait states keep the input's poll_seconds.
	c := testkit.SFNClient(t, testkit.StepFunctions(t, testkit.StepFunctionsOptions{Lambda: l.Endpoint(), Retry: 20 * time.Millisecond}))
	l.Add(testkit.LambdaFunction{
		Name: "steps", Binary: testkit.BuildLambda(t, "./statemachines/testdata/fakesteps"),
		Env: map[string]string{"FAKESTEPS_DIR": dir}, Instances: 3,
	})
	def, err := Definition("task", map[string]string{"StepsFunctionArn": testkit.FunctionARN("steps")})
	if err != nil {
		t.Fatal(err)
	}
	sm, err := c.CreateStateMachine(context.Background(), &sfn.CreateStateMachineInput{
		Name: aws.String("firmo-task"), Definition: aws.String(def), RoleArn: aws.String("arn:aws:iam::123456789012:role/steps"),
	})
	if err != nil {
		t.Fatal(err)
	}

	for _, tc := range []struct {
		id         string
		wantStatus sfntypes.ExecutionStatus
		check      func(t *testing.T, j journal, out *sfn.DescribeExecutionOutput)
	}{
		{"ok-1", sfntypes.ExecutionStatusSucceeded, func(t *testing.T, j journal, out *sfn.DescribeExecutionOutput) {
			want := []string{"prepare", "enqueue", "enqueue", "enqueue", "check", "check", "finalize"}
			if !slices.Equal(j.Calls, want) {
				t.Errorf("calls %v, want %v", j.Calls, want)
			}
			// The second check got the first one's output: the loop threads its state.
			if j.LastCheck == nil || j.LastCheck.Checks != 1 || j.LastCheck.LastDone != 15 || j.LastCheck.OrgID != "org-a" {
				t.Errorf("last check input %+v, want checks 1, last_done 15, org_id org-a", j.LastCheck)
			}
			var final task.FinalizeOutput
			json.Unmarshal([]byte(aws.ToString(out.Output)), &final)
			if final.Status != task.StatusCompleted || final.TaskID != "ok-1" || final.OrgID != "org-a" {
				t.Errorf("execution output %s, want the FinalizeOutput of a completed task", aws.ToString(out.Output))
			}
		}},
		{"transient-1", sfntypes.ExecutionStatusSucceeded, func(t *testing.T, j journal, _ *sfn.DescribeExecutionOutput) {
			if j.Faults["prepare"] != 1 || len(j.Calls) < 2 || j.Calls[0] != "prepare" || j.Calls[1] != "prepare" || j.Final != task.StatusCompleted {
				t.Errorf("calls %v final %q, want prepare retried after its TransientError and a completed task", j.Calls, j.Final)
			}
		}},
		{"crash-1", sfntypes.ExecutionStatusSucceeded, func(t *testing.T, j journal, _ *sfn.DescribeExecutionOutput) {
			if j.Faults["enqueue"] != 1 || !slices.Equal(j.Enqueued, []int{0, 1, 2}) || j.Final != task.StatusCompleted {
				t.Errorf("enqueued %v final %q, want chunks 0,1,2 once each after the crash was retried", j.Enqueued, j.Final)
			}
		}},
		{"stuck-1", sfntypes.ExecutionStatusSucceeded, func(t *testing.T, j journal, _ *sfn.DescribeExecutionOutput) {
			if j.Checks != 3 || !j.GaveUp {
				t.Errorf("checks %d gave_up %v, want 3 checks and give_up passed to finalize", j.Checks, j.GaveUp)
			}
		}},
		{"long-1", sfntypes.ExecutionStatusSucceeded, func(t *testing.T, j journal, out *sfn.DescribeExecutionOutput) {
			// checks_per_execution 2: the first execution checks twice and continues as
			// long-1-c2, which continues as long-1-c4 and long-1-c6; the last one finalizes.
			if j.Checks != 7 || j.Final != task.StatusCompleted || j.LastCheck == nil || j.LastCheck.Checks != 6 {
				t.Fatalf("checks %d final %q last check %+v, want 7 checks threaded across executions and a completed task", j.Checks, j.Final, j.LastCheck)
			}
			if n := strings.Count(strings.Join(j.Calls, ","), "prepare"); n != 1 {
				t.Errorf("prepare ran %d times, want once: a continued execution resumes the loop", n)
			}
			last := await(t, c, strings.Replace(aws.ToString(out.ExecutionArn), ":long-1", ":long-1-c6", 1), 30*time.Second)
			var final task.FinalizeOutput
			json.Unmarshal([]byte(aws.ToString(last.Output)), &final)
			if last.Status != sfntypes.ExecutionStatusSucceeded || final.Status != task.StatusCompleted {
				t.Errorf("last execution %s output %s, want the FinalizeOutput of a completed task", last.Status, aws.ToString(last.Output))
			}
			for _, name := range []string{"long-1-c2", "long-1-c4"} {
				e := await(t, c, strings.Replace(aws.ToString(out.ExecutionArn), ":long-1", ":"+name, 1), 30*time.Second)
				if e.Status != sfntypes.ExecutionStatusSucceeded || !strings.Contains(aws.ToString(e.Input), `"checks_per_execution":2`) {
					t.Errorf("%s: %s input %s", name, e.Status, aws.ToString(e.Input))
				}
			}
		}},
		{"broken-1", sfntypes.ExecutionStatusFailed, func(t *testing.T, j journal, out *sfn.DescribeExecutionOutput) {
			checks := 0
			for _, c := range j.Calls {
				if c == "check" {
					checks++
				}
			}
			if checks != 1 {
				t.Errorf("check ran %d times, want once: a PermanentError is not retried", checks)
			}
			if j.Final != task.StatusFailed || j.Failure == nil || j.Failure.Error != "PermanentError" || !strings.Contains(j.Failure.Cause, "cannot be read") {
				t.Errorf("final %q failure %+v, want the fail step told of the PermanentError", j.Final, j.Failure)
			}
			if aws.ToString(out.Error) != "PermanentError" {
				t.Errorf("execution error %q, want the step's PermanentError", aws.ToString(out.Error))
			}
		}},
	} {
		t.Run(tc.id, func(t *testing.T) {
			t.Parallel()
			perExec := 100
			if strings.HasPrefix(tc.id, "long-") {
				perExec = 2
			}
			input := fmt.Sprintf(`{"org_id":"org-a","task_id":%q,"poll_seconds":1,"checks_per_execution":%d}`, tc.id, perExec)
			start, err := c.StartExecution(context.Background(), &sfn.StartExecutionInput{StateMachineArn: sm.StateMachineArn, Name: aws.String(tc.id), Input: aws.String(input)})
			if err != nil {
				t.Fatal(err)
			}
			out := await(t, c, aws.ToString(start.ExecutionArn), 30*time.Second)
			if strings.HasPrefix(tc.id, "long-") { // the journal is complete once the last execution ends
				awaitStarted(t, c, strings.Replace(aws.ToString(start.ExecutionArn), ":long-1", ":long-1-c6", 1), 60*time.Second)
			}
			if out.Status != tc.wantStatus {
				t.Fatalf("status %s (%s: %s), want %s", out.Status, aws.ToString(out.Error), aws.ToString(out.Cause), tc.wantStatus)
			}
			var j journal
			raw, err := os.ReadFile(filepath.Join(dir, tc.id+".json"))
			if err != nil {
				t.Fatal(err)
			}
			if err := json.Unmarshal(raw, &j); err != nil {
				t.Fatal(err)
			}
			tc.check(t, j, out)
		})
	}
}

func await(t *testing.T, c *sfn.Client, arn string, timeout time.Duration) *sfn.DescribeExecutionOutput {
	t.Helper()
	deadline := time.Now().Add(timeout)
	for {
		out, err := c.DescribeExecution(context.Background(), &sfn.DescribeExecutionInput{ExecutionArn: aws.String(arn)})
		if err != nil {
			t.Fatal(err)
		}
		if out.Status != sfntypes.ExecutionStatusRunning {
			return out
		}
		if time.Now().After(deadline) {
			t.Fatalf("%s still running after %s", arn, timeout)
		}
		time.Sleep(100 * time.Millisecond)
	}
}

// awaitStarted waits for an execution that another one starts (ContinueAsNew) to exist
// and then to end.
func awaitStarted(t *testing.T, c *sfn.Client, arn string, timeout time.Duration) *sfn.DescribeExecutionOutput {
	t.Helper()
	deadline := time.Now().Add(timeout)
	for {
		_, err := c.DescribeExecution(context.Background(), &sfn.DescribeExecutionInput{ExecutionArn: aws.String(arn)})
		if err == nil {
			return await(t, c, arn, time.Until(deadline))
		}
		if time.Now().After(deadline) {
			t.Fatalf("%s was never started: %v", arn, err)
		}
		time.Sleep(100 * time.Millisecond)
	}
}
