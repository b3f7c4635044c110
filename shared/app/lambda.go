package app

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"time"

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
//
// The records run under the invocation's deadline less a margin (sqsMargin): a record
// still running then is cut short (what it finished is kept: its row if written, the
// answers of its finished model calls, its spend) and given back in
// BatchItemFailures, and the handler returns before Lambda's own timeout, so the
// other records' outcomes stand and the given-back ones are redelivered after the
// queue's visibility timeout instead of the whole batch after a timed-out invocation.
func (c *Core) HandleSQS(ctx context.Context, ev events.SQSEvent) (events.SQSEventResponse, error) {
	work, stop, cancel := sqsDeadlines(ctx)
	defer cancel()
	type outcome struct {
		i      int
		failed bool
	}
	done := make(chan outcome, len(ev.Records)) // buffered: a record reporting late never blocks
	for i, rec := range ev.Records {
		go func() {
			var m task.Message
			if err := json.Unmarshal([]byte(rec.Body), &m); err != nil || m.TaskID == "" || m.OrgID == "" {
				c.Log.Error("task message unreadable; left for the DLQ", "message_id", rec.MessageId, "err", err)
				done <- outcome{i, true}
				return
			}
			if err := c.Tasks.Handle(work, m); err != nil {
				c.Log.Warn("task record not handled; left for redelivery", "message_id", rec.MessageId, "task", m.Ref.String(), "key", m.Key, "err", err)
				done <- outcome{i, true}
				return
			}
			done <- outcome{i, false}
		}()
	}
	failed := make([]bool, len(ev.Records))
	for i := range failed {
		failed[i] = true // given back unless it reports in time
	}
	timer := time.NewTimer(time.Until(stop))
	defer timer.Stop()
wait:
	for range ev.Records {
		select {
		case o := <-done:
			failed[o.i] = o.failed
		case <-timer.C:
			c.Log.Warn("worker deadline: records still running are given back")
			break wait
		}
	}
	resp := events.SQSEventResponse{BatchItemFailures: []events.SQSBatchItemFailure{}}
	for i, f := range failed {
		if f {
			resp.BatchItemFailures = append(resp.BatchItemFailures, events.SQSBatchItemFailure{ItemIdentifier: ev.Records[i].MessageId})
		}
	}
	return resp, nil
}

// sqsMargin is the time HandleSQS keeps before the invocation's deadline: a tenth of
// the time left, at most 20 s. Records are cut short at the deadline less the margin
// (work); the handler stops waiting for them at the deadline less half of it (stop),
// leaving the rest for writing what the cut-short records spent and for returning.
const sqsMargin = 20 * time.Second

func sqsDeadlines(ctx context.Context) (work context.Context, stop time.Time, cancel context.CancelFunc) {
	dl, ok := ctx.Deadline()
	if !ok {
		work, cancel = context.WithCancel(ctx)
		return work, time.Now().Add(100 * 365 * 24 * time.Hour), cancel
	}
	margin := min(sqsMargin, time.Until(dl)/10)
	work, cancel = context.WithDeadline(ctx, dl.Add(-margin))
	return work, dl.Add(-margin / 2), cancel
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
