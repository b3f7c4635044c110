// Package sfnflow is the task engine's Workflow on AWS Step Functions: one execution
// of statemachines/task.asl.json per task, named by the task id, whose Task states call
// functions/steps (the contract is statemachines/README.md).
package sfnflow

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"strings"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/sfn"
	sfntypes "github.com/aws/aws-sdk-go-v2/service/sfn/types"
	"github.com/aws/smithy-go"

	"github.com/firmoapi/firmo/shared/apperr"
	"github.com/firmoapi/firmo/shared/task"
)

// Input is an execution's input (statemachines/README.md, "Starting an execution").
type Input struct {
	task.Ref
	// PollSeconds is the wait between progress checks; the ASL's Wait state reads it.
	PollSeconds int `json:"poll_seconds"`
	// ChecksPerExecution is how many progress checks one execution makes before it
	// continues as a new execution (ContinueAsNew), keeping each history under Step
	// Functions' 25,000 events.
	ChecksPerExecution int `json:"checks_per_execution"`
}

// ChecksPerExecution is Input.ChecksPerExecution: a check loop costs 11 history
// events (Wait, Task, Pass and Choice states), so 1,500 checks are about 16,500
// events, leaving room for some 2,800 retried Task attempts (3 events each) and the
// start's own states before the 25,000 limit. At the default 5 s poll one execution
// checks for about two hours.
const ChecksPerExecution = 1500

// Workflow starts task executions of one state machine.
type Workflow struct {
	client  *sfn.Client
	machine string
	poll    int
}

var _ task.Workflow = (*Workflow)(nil)

// IAMActions are the Step Functions actions a Workflow calls: StartExecution on the
// state machine, DescribeExecution on its executions (a start repeated for the same
// task). template.yaml grants them to every function that submits tasks;
// TestIAMActions and the template test compare them with the code.
var IAMActions = []string{"states:StartExecution", "states:DescribeExecution"}

// New returns a Workflow on the state machine machineARN whose executions check a
// task's progress every poll (rounded to whole seconds, at least one).
func New(client *sfn.Client, machineARN string, poll time.Duration) *Workflow {
	return &Workflow{client: client, machine: machineARN, poll: max(1, int(poll.Round(time.Second)/time.Second))}
}

// Start starts the task's execution, named by the task id. Starting it again is a
// no-op: Step Functions returns the running execution for the same name and input,
// and an ExecutionAlreadyExists for an execution with the same input (one that has
// ended) is success too. The same name with another input is a conflict.
func (w *Workflow) Start(ctx context.Context, r task.Ref) error {
	if r.TaskID == "" || r.OrgID == "" {
		return fmt.Errorf("start task workflow %s: org and task id are required: %w", r, apperr.ErrInternal)
	}
	in, err := json.Marshal(Input{Ref: r, PollSeconds: w.poll, ChecksPerExecution: ChecksPerExecution})
	if err != nil {
		return err
	}
	_, err = w.client.StartExecution(ctx, &sfn.StartExecutionInput{
		StateMachineArn: aws.String(w.machine),
		Name:            aws.String(r.TaskID),
		Input:           aws.String(string(in)),
	})
	var exists *sfntypes.ExecutionAlreadyExists
	if errors.As(err, &exists) {
		return w.sameInput(ctx, r, in)
	}
	if err != nil {
		return classify(fmt.Sprintf("start task workflow %s", r), err)
	}
	return nil
}

// sameInput checks that the existing execution of r was started with input in.
func (w *Workflow) sameInput(ctx context.Context, r task.Ref, in []byte) error {
	out, err := w.client.DescribeExecution(ctx, &sfn.DescribeExecutionInput{ExecutionArn: aws.String(ExecutionARN(w.machine, r.TaskID))})
	if err != nil {
		return classify(fmt.Sprintf("describe task workflow %s", r), err)
	}
	var got, want any
	if json.Unmarshal([]byte(aws.ToString(out.Input)), &got) != nil || json.Unmarshal(in, &want) != nil || !reflect.DeepEqual(got, want) {
		return fmt.Errorf("start task workflow %s: an execution with this name and another input exists: %w", r, apperr.ErrConflict)
	}
	return nil
}

// ExecutionARN is the ARN of the execution name of a state machine.
func ExecutionARN(machineARN, name string) string {
	return strings.Replace(machineARN, ":stateMachine:", ":execution:", 1) + ":" + name
}

// classify marks failures worth retrying (Step Functions unreachable, throttled,
// failing) as apperr.ErrUnavailable; a refused request is internal.
func classify(op string, err error) error {
	var apiErr smithy.APIError
	if !errors.As(err, &apiErr) || apiErr.ErrorFault() == smithy.FaultServer {
		return fmt.Errorf("%s: %w: %w", op, apperr.ErrUnavailable, err)
	}
	switch apiErr.ErrorCode() {
	case "ThrottlingException", "ExecutionLimitExceeded", "ServiceUnavailable":
		return fmt.Errorf("%s: %w: %w", op, apperr.ErrUnavailable, err)
	}
	return fmt.Errorf("%s: %w: %w", op, apperr.ErrInternal, err)
}
