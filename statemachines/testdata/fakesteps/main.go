// Command fakesteps is a stand-in for functions/steps that runs task.asl.json's step
// contract (statemachines/README.md) against a toy task kept in a JSON file per task
// under FAKESTEPS_DIR, so the state machine can be tested before the engine is wired
// to AWS. It decodes and answers with the shared/task step types, so a field renamed
// on either side breaks the test.
//
// The task id chooses the trouble: "transient-*" fails Prepare once with a
// TransientError; "crash-*" exits the process in the first EnqueueChunk of chunk 1;
// "broken-*" fails every CheckProgress with a PermanentError; "stuck-*" never ends
// until CheckProgress has run 3 times and then gives up; "long-*" needs 7 checks.
package main

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/aws/aws-lambda-go/lambda"

	"github.com/firmoapi/firmo/shared/task"
)

// TransientError and PermanentError are the named errors the state machine's Retry
// tells apart.
type TransientError struct{ Msg string }

func (e *TransientError) Error() string { return e.Msg }

type PermanentError struct{ Msg string }

func (e *PermanentError) Error() string { return e.Msg }

const chunks = 3

// journal is what the test reads back: every step call, in order.
type journal struct {
	Calls     []string         `json:"calls"`
	Enqueued  []int            `json:"enqueued"`
	Checks    int              `json:"checks"`
	Final     task.Status      `json:"final"`
	GaveUp    bool             `json:"gave_up"`
	Failure   *stepFailure     `json:"failure,omitempty"`
	Faults    map[string]int   `json:"faults"`
	LastCheck *task.CheckInput `json:"last_check,omitempty"`
}

type stepFailure struct {
	Error string `json:"Error"`
	Cause string `json:"Cause"`
}

func handle(_ context.Context, raw json.RawMessage) (any, error) {
	var head struct {
		Step string `json:"step"`
		task.Ref
		Failure *stepFailure `json:"failure"`
	}
	if err := json.Unmarshal(raw, &head); err != nil {
		return nil, &PermanentError{err.Error()}
	}
	path := filepath.Join(os.Getenv("FAKESTEPS_DIR"), head.TaskID+".json")
	var j journal
	if b, err := os.ReadFile(path); err == nil {
		json.Unmarshal(b, &j)
	}
	if j.Faults == nil {
		j.Faults = map[string]int{}
	}
	j.Calls = append(j.Calls, head.Step)
	out, err := step(&j, head.Step, head.TaskID, raw, head.Failure)
	b, _ := json.MarshalIndent(j, "", " ")
	if werr := os.WriteFile(path, b, 0o644); werr != nil {
		return nil, werr
	}
	return out, err
}

func step(j *journal, name, id string, raw json.RawMessage, failure *stepFailure) (any, error) {
	switch name {
	case "prepare":
		var in task.PrepareInput
		json.Unmarshal(raw, &in)
		if strings.HasPrefix(id, "transient-") && j.Faults["prepare"] == 0 {
			j.Faults["prepare"]++
			return nil, &TransientError{"the table is busy"}
		}
		return task.PrepareOutput{Ref: in.Ref, Chunks: chunks, NextChunk: 0, More: true}, nil
	case "enqueue":
		var in task.EnqueueInput
		json.Unmarshal(raw, &in)
		if strings.HasPrefix(id, "crash-") && in.NextChunk == 1 && j.Faults["enqueue"] == 0 {
			j.Faults["enqueue"]++
			b, _ := json.Marshal(j)
			os.WriteFile(filepath.Join(os.Getenv("FAKESTEPS_DIR"), id+".json"), b, 0o644)
			os.Exit(2)
		}
		j.Enqueued = append(j.Enqueued, in.NextChunk)
		next := in.NextChunk + 1
		return task.EnqueueOutput{Ref: in.Ref, Chunks: in.Chunks, NextChunk: next, More: next < in.Chunks, Enqueued: 10}, nil
	case "check":
		var in task.CheckInput
		json.Unmarshal(raw, &in)
		j.LastCheck = &in
		if strings.HasPrefix(id, "broken-") {
			return nil, &PermanentError{"the task's rows cannot be read"}
		}
		j.Checks++
		out := task.CheckOutput{CheckInput: in, Status: task.StatusInProgress, Total: 30}
		out.Checks++
		out.DoneRecords = min(30, out.Checks*15)
		out.LastDone = out.DoneRecords
		out.Done = out.Checks >= 2
		if strings.HasPrefix(id, "long-") {
			out.DoneRecords = min(30, out.Checks*4)
			out.LastDone, out.Done = out.DoneRecords, out.Checks >= 7
		}
		if strings.HasPrefix(id, "stuck-") {
			out.DoneRecords, out.LastDone, out.Done = 0, 0, out.Checks >= 3
			out.GiveUp = out.Done
		}
		return out, nil
	case "finalize":
		var in task.FinalizeInput
		json.Unmarshal(raw, &in)
		j.Final, j.GaveUp = task.StatusCompleted, in.GiveUp
		return task.FinalizeOutput{Ref: in.Ref, Status: j.Final}, nil
	case "fail":
		var in task.FinalizeInput
		json.Unmarshal(raw, &in)
		j.Final, j.Failure = task.StatusFailed, failure
		return task.FinalizeOutput{Ref: in.Ref, Status: j.Final}, nil
	}
	return nil, &PermanentError{fmt.Sprintf("unknown step %q", name)}
}

func main() { lambda.Start(handle) }
