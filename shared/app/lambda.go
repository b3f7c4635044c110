package app

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"sync"

	"github.com/aws/aws-lambda-go/events"

	"github.com/firmoapi/firmo/shared/apperr"
	"github.com/firmoapi/firmo/shared/task"
)

// The task engine's Lambda entrypoints on AWS: functions/worker (SQS per-record
// messages) and functions/steps (the Task states of statemachines/task.asl.json).
// They turn events into engine calls and engine errors into what SQS and Step
// Functions act on; the engine itself never sees an events.* type.

// HandleSQS is functions/worker's handler: it runs Engine.Handle for each message of
// the batch at once (a batch is at most the event source's batch size) and names the
// messages to deliver again in BatchItemFailures (the event source mapping has
// FunctionResponseTypes: [ReportBatchItemFailures]); the others are deleted. A body
// that is not a task message is reported too, so it ends in the DLQ, where the alarm
// shows it, rather than vanish.
func (c *Core) HandleSQS(ctx context.Context, ev events.SQSEvent) (events.SQSEventResponse, error) {
	failed := make([]bool, len(ev.Records))
	var wg sync.WaitGroup
	for i, rec := range ev.Records {
		wg.Add(1)
		go func() {
			defer wg.Done()
			var m task.Message
			if err := json.Unmarshal([]byte(rec.Body), &m); err != nil || m.TaskID == "" || m.OrgID == "" {
				c.Log.Error("task message unreadable; left for the DLQ", "message_id", rec.MessageId, "err", err)
				failed[i] = true
				return
			}
			if err := c.Tasks.Handle(ctx, m); err != nil {
				c.Log.Warn("task record not handled; left for redelivery", "message_id", rec.MessageId, "task", m.Ref.String(), "key", m.Key, "err", err)
				failed[i] = true
			}
		}()
	}
	wg.Wait()
	resp := events.SQSEventResponse{BatchItemFailures: []events.SQSBatchItemFailure{}}
	for i, f := range failed {
		if f {
			resp.BatchItemFailures = append(resp.BatchItemFailures, events.SQSBatchItemFailure{ItemIdentifier: ev.Records[i].MessageId})
		}
	}
	return resp, nil
}

// TransientError is a step failure worth retrying soon (DynamoDB throttled, SQS
// unreachable). The type name is the error name task.asl.json's Retry matches:
// aws-lambda-go reports it as errorType.
type TransientError struct{ Msg string }

func (e *TransientError) Error() string { return e.Msg }

// PermanentError is a step failure no retry mends (the task does not exist, the input
// is malformed): task.asl.json catches it into MarkFailed at once.
type PermanentError struct{ Msg string }

func (e *PermanentError) Error() string { return e.Msg }

// StepRequest is a Task state's payload: the step's name and its input fields
// (statemachines/README.md, "The steps Lambda").
type StepRequest struct {
	Step string `json:"step"`
	// Failure is the caught Step Functions error, for the "fail" step only.
	Failure *StepFailure `json:"failure,omitempty"`
}

// StepFailure is the Step Functions error a Catch puts at $.failure.
type StepFailure struct {
	Error string `json:"Error"`
	Cause string `json:"Cause"`
}

// workflowFailed is what a task failed by its workflow tells the user; the step's
// own error text stays in the logs.
var workflowFailed = task.TaskError{Code: "workflow_failed", Message: "The task stopped because a step of its workflow failed repeatedly; finished answers are kept."}

// HandleStep is functions/steps' handler: it decodes the step's typed input, runs the
// engine's step and returns its typed output, with errors named for Retry and Catch.
func (c *Core) HandleStep(ctx context.Context, raw json.RawMessage) (any, error) {
	var req StepRequest
	if err := json.Unmarshal(raw, &req); err != nil {
		return nil, &PermanentError{Msg: "step payload is not a JSON object: " + err.Error()}
	}
	out, err := c.step(ctx, req, raw)
	if err != nil {
		return nil, stepError(req.Step, err)
	}
	return out, nil
}

func (c *Core) step(ctx context.Context, req StepRequest, raw json.RawMessage) (any, error) {
	switch req.Step {
	case "prepare":
		in, err := decodeStep[task.PrepareInput](raw)
		if err != nil {
			return nil, err
		}
		return c.Tasks.Prepare(ctx, in)
	case "enqueue":
		in, err := decodeStep[task.EnqueueInput](raw)
		if err != nil {
			return nil, err
		}
		return c.Tasks.EnqueueChunk(ctx, in)
	case "check":
		in, err := decodeStep[task.CheckInput](raw)
		if err != nil {
			return nil, err
		}
		return c.Tasks.CheckProgress(ctx, in)
	case "finalize":
		in, err := decodeStep[task.FinalizeInput](raw)
		if err != nil {
			return nil, err
		}
		in.Error = nil // only the fail step fails a task
		return c.Tasks.Finalize(ctx, in)
	case "fail":
		in, err := decodeStep[task.FinalizeInput](raw)
		if err != nil {
			return nil, err
		}
		failure := StepFailure{}
		if req.Failure != nil {
			failure = *req.Failure
		}
		c.Log.Error("task workflow failed", "task", in.Ref.String(), "error", failure.Error, "cause", failure.Cause)
		te := workflowFailed
		in.GiveUp, in.Error = false, &te
		return c.Tasks.Finalize(ctx, in)
	default:
		return nil, fmt.Errorf("unknown step %q: %w", req.Step, apperr.ErrInvalid)
	}
}

// decodeStep reads a step's input type; the extra "step" field is ignored.
func decodeStep[T any](raw json.RawMessage) (T, error) {
	var in T
	if err := json.Unmarshal(raw, &in); err != nil {
		return in, fmt.Errorf("step input: %v: %w", err, apperr.ErrInvalid)
	}
	var ref struct{ task.Ref }
	json.Unmarshal(raw, &ref)
	if ref.OrgID == "" || ref.TaskID == "" {
		return in, fmt.Errorf("step input: org_id and task_id are required: %w", apperr.ErrInvalid)
	}
	return in, nil
}

// stepError names an engine error for the state machine: a missing task or a bad
// input is permanent; an unavailable dependency or a cut-short call is transient;
// anything else stays unnamed and gets the ASL's two catch-all retries.
func stepError(step string, err error) error {
	msg := step + ": " + err.Error()
	switch {
	case errors.Is(err, apperr.ErrNotFound), errors.Is(err, apperr.ErrInvalid):
		return &PermanentError{Msg: msg}
	case apperr.IsRetryable(err), errors.Is(err, context.Canceled):
		return &TransientError{Msg: msg}
	}
	return err
}
