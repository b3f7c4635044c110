package testkit

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/sfn"
	sfntypes "github.com/aws/aws-sdk-go-v2/service/sfn/types"
)

// asl builds a definition from a JSON template in which ECHO stands for the echo
// function's ARN.
func asl(tmpl string) string {
	return strings.ReplaceAll(tmpl, "ECHO", FunctionARN("echo"))
}

const echoMachine = `{
  "Comment": "echo, then a Task that fails with a named error until Retry gives up and Catch takes over",
  "StartAt": "Echo",
  "States": {
    "Echo": {
      "Type": "Task", "Resource": "ECHO",
      "Parameters": {"greeting.$": "$.greeting", "execution.$": "$$.Execution.Name"},
      "ResultSelector": {"echoed.$": "$.echo", "function.$": "$.function"},
      "ResultPath": "$.echo", "Next": "Flaky"
    },
    "Flaky": {
      "Type": "Task", "Resource": "ECHO",
      "Parameters": {"fail": "transient"},
      "Retry": [{"ErrorEquals": ["TransientError"], "IntervalSeconds": 1, "BackoffRate": 2, "MaxAttempts": 2}],
      "Catch": [{"ErrorEquals": ["States.ALL"], "ResultPath": "$.caught", "Next": "Invoke"}],
      "Next": "Invoke"
    },
    "Invoke": {
      "Type": "Task", "Resource": "arn:aws:states:::lambda:invoke",
      "Parameters": {"FunctionName": "ECHO", "Payload": {"n": 1}},
      "ResultSelector": {"n.$": "$.Payload.echo.n", "status.$": "$.StatusCode"},
      "ResultPath": "$.invoked", "End": true
    }
  }
}`

func createMachine(t *testing.T, c *sfn.Client, name, def string) string {
	t.Helper()
	out, err := c.CreateStateMachine(context.Background(), &sfn.CreateStateMachineInput{
		Name: aws.String(name), Definition: aws.String(def), RoleArn: aws.String("arn:aws:iam::123456789012:role/test"),
	})
	if err != nil {
		t.Fatalf("create state machine %s: %v", name, err)
	}
	return aws.ToString(out.StateMachineArn)
}

func startExecution(t *testing.T, c *sfn.Client, machine, name, input string) string {
	t.Helper()
	out, err := c.StartExecution(context.Background(), &sfn.StartExecutionInput{StateMachineArn: aws.String(machine), Name: aws.String(name), Input: aws.String(input)})
	if err != nil {
		t.Fatalf("start execution: %v", err)
	}
	return aws.ToString(out.ExecutionArn)
}

// awaitExecution polls DescribeExecution until the execution leaves RUNNING.
func awaitExecution(t *testing.T, c *sfn.Client, arn string, timeout time.Duration) *sfn.DescribeExecutionOutput {
	t.Helper()
	deadline := time.Now().Add(timeout)
	for {
		out, err := c.DescribeExecution(context.Background(), &sfn.DescribeExecutionInput{ExecutionArn: aws.String(arn)})
		if err != nil {
			t.Fatalf("describe execution: %v", err)
		}
		if out.Status != sfntypes.ExecutionStatusRunning {
			return out
		}
		if time.Now().After(deadline) {
			t.Fatalf("execution %s still RUNNING after %s", arn, timeout)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

func TestStepFunctionsWithLambda(t *testing.T) {
	l := NewLambda(t)
	c := SFNClient(t, StepFunctions(t, StepFunctionsOptions{Lambda: l.Endpoint(), Retry: 20 * time.Millisecond}))
	l.Add(LambdaFunction{Name: "echo", Binary: BuildLambda(t, "./shared/testkit/testdata/echo")})

	t.Run("real ASL drives the real function", func(t *testing.T) {
		machine := createMachine(t, c, "echo", asl(echoMachine))
		before := l.Invocations("echo")
		exec := startExecution(t, c, machine, "run-1", `{"greeting":"hi"}`)
		out := awaitExecution(t, c, exec, 20*time.Second)
		if out.Status != sfntypes.ExecutionStatusSucceeded {
			t.Fatalf("status %s (%s: %s), want SUCCEEDED", out.Status, aws.ToString(out.Error), aws.ToString(out.Cause))
		}
		var got struct {
			Greeting string
			Echo     struct {
				Echoed   map[string]string
				Function string
			}
			Caught  struct{ Error, Cause string }
			Invoked struct {
				N      int
				Status int
			}
		}
		if err := json.Unmarshal([]byte(aws.ToString(out.Output)), &got); err != nil {
			t.Fatalf("output %s: %v", aws.ToString(out.Output), err)
		}
		if got.Greeting != "hi" || got.Echo.Function != "echo" || got.Echo.Echoed["greeting"] != "hi" || got.Echo.Echoed["execution"] != "run-1" {
			t.Errorf("echo step: got %+v", got)
		}
		if got.Caught.Error != "TransientError" || !strings.Contains(got.Caught.Cause, `"errorMessage":"try again"`) {
			t.Errorf("caught %+v, want TransientError with the error document as cause", got.Caught)
		}
		if got.Invoked.N != 1 || got.Invoked.Status != 200 {
			t.Errorf("lambda:invoke step: got %+v", got.Invoked)
		}
		// Echo once, Flaky once plus two retries, Invoke once.
		if n := l.Invocations("echo") - before; n != 5 {
			t.Errorf("%d invocations, want 5", n)
		}
		hist, err := c.GetExecutionHistory(context.Background(), &sfn.GetExecutionHistoryInput{ExecutionArn: aws.String(exec)})
		if err != nil {
			t.Fatal(err)
		}
		var failed int
		for _, ev := range hist.Events {
			if ev.Type == sfntypes.HistoryEventTypeTaskFailed {
				failed++
			}
		}
		if last := hist.Events[len(hist.Events)-1].Type; failed != 3 || last != sfntypes.HistoryEventTypeExecutionSucceeded {
			t.Errorf("history: %d TaskFailed events ending in %s, want 3 ending in ExecutionSucceeded", failed, last)
		}
	})

	t.Run("failures carry Step Functions error names", func(t *testing.T) {
		for _, tc := range []struct{ name, def, wantError, wantCause string }{
			{"function error", `{"StartAt":"T","States":{"T":{"Type":"Task","Resource":"ECHO","Parameters":{"fail":"permanent"},"End":true}}}`, "PermanentError", "will not work"},
			{"process crash", `{"StartAt":"T","States":{"T":{"Type":"Task","Resource":"ECHO","Parameters":{"exit":true},"End":true}}}`, "Runtime.ExitError", "Runtime exited"},
			{"unknown function", `{"StartAt":"T","States":{"T":{"Type":"Task","Resource":"arn:aws:lambda:us-east-1:123456789012:function:missing","End":true}}}`, "Lambda.ResourceNotFoundException", "Function not found"},
			{"fail state", `{"StartAt":"F","States":{"F":{"Type":"Fail","Error":"Firmo.TaskFailed","Cause":"see the task"}}}`, "Firmo.TaskFailed", "see the task"},
		} {
			t.Run(tc.name, func(t *testing.T) {
				machine := createMachine(t, c, strings.ReplaceAll(tc.name, " ", "-"), asl(tc.def))
				out := awaitExecution(t, c, startExecution(t, c, machine, "x", `{}`), 20*time.Second)
				if out.Status != sfntypes.ExecutionStatusFailed || aws.ToString(out.Error) != tc.wantError || !strings.Contains(aws.ToString(out.Cause), tc.wantCause) {
					t.Fatalf("got %s %q %q, want FAILED %q with cause containing %q", out.Status, aws.ToString(out.Error), aws.ToString(out.Cause), tc.wantError, tc.wantCause)
				}
			})
		}
	})

	t.Run("executions: idempotent start, stop, list", func(t *testing.T) {
		machine := createMachine(t, c, "waiting", `{"StartAt":"W","States":{"W":{"Type":"Wait","Seconds":600,"End":true}}}`)
		first := startExecution(t, c, machine, "task-1", `{"a":1}`)
		if again := startExecution(t, c, machine, "task-1", `{"a":1}`); again != first {
			t.Errorf("same name and input started %s, want the running %s", again, first)
		}
		_, err := c.StartExecution(context.Background(), &sfn.StartExecutionInput{StateMachineArn: aws.String(machine), Name: aws.String("task-1"), Input: aws.String(`{"a":2}`)})
		var exists *sfntypes.ExecutionAlreadyExists
		if !errors.As(err, &exists) {
			t.Errorf("same name, other input: got %v, want ExecutionAlreadyExists", err)
		}
		if _, err := c.StopExecution(context.Background(), &sfn.StopExecutionInput{ExecutionArn: aws.String(first), Error: aws.String("Cancelled")}); err != nil {
			t.Fatal(err)
		}
		if out := awaitExecution(t, c, first, 5*time.Second); out.Status != sfntypes.ExecutionStatusAborted || aws.ToString(out.Error) != "Cancelled" {
			t.Errorf("after stop: %s %q, want ABORTED Cancelled", out.Status, aws.ToString(out.Error))
		}
		startExecution(t, c, machine, "task-2", `{}`)
		list, err := c.ListExecutions(context.Background(), &sfn.ListExecutionsInput{StateMachineArn: aws.String(machine), StatusFilter: sfntypes.ExecutionStatusRunning})
		if err != nil {
			t.Fatal(err)
		}
		if len(list.Executions) != 1 || aws.ToString(list.Executions[0].Name) != "task-2" {
			t.Errorf("running executions %+v, want only task-2", list.Executions)
		}
		_, err = c.DescribeExecution(context.Background(), &sfn.DescribeExecutionInput{ExecutionArn: aws.String(machine + "-nope")})
		var missing *sfntypes.ExecutionDoesNotExist
		if !errors.As(err, &missing) {
			t.Errorf("unknown execution: got %v, want ExecutionDoesNotExist", err)
		}
	})

	t.Run("invalid definition", func(t *testing.T) {
		_, err := c.CreateStateMachine(context.Background(), &sfn.CreateStateMachineInput{
			Name: aws.String("bad"), Definition: aws.String(`{"StartAt":"Nowhere","States":{}}`), RoleArn: aws.String("arn:aws:iam::123456789012:role/test"),
		})
		var invalid *sfntypes.InvalidDefinition
		if !errors.As(err, &invalid) {
			t.Fatalf("got %v, want InvalidDefinition", err)
		}
	})
}
