// Package task is the async task engine: one engine carries every long-running
// operation of the API reference (batch research, ICP validation, contact generation, ...).
//
// A task is a list of records (domains or persona ids) and one kind. A kind registers a
// Processor that answers one record; the engine stores the task, fans its records out
// through a Queue, and a Workflow drives it through four steps:
//
//	Prepare -> EnqueueChunk (repeated) -> CheckProgress (polled) -> Finalize
//
// Each step is an exported method with typed input and output, so the embedded
// workflow (a goroutine, memqueue.Workflow) and the AWS one (Step Functions calling
// functions/steps) run the same code. Handle processes one queued record; the
// embedded queue (memqueue) and the SQS worker Lambda both call it.
//
// Guarantees: each record is processed at least once and its result row is written
// exactly once (a conditional put keyed by task and record key); progress only rises;
// a failing record becomes an "Error: <reason>" cell, never a failed task. Storage is
// the kv.Store port, laid out so that it works the same on bbolt and on DynamoDB
// without transactions: see store.go.
package task

import (
	"encoding/json"
	"fmt"
	"time"
)

// Status is the state of a task (README, Tasks).
type Status string

const (
	StatusInProgress Status = "in_progress"
	StatusCompleted  Status = "completed"
	StatusFailed     Status = "failed"
	StatusCancelling Status = "cancelling"
	StatusCancelled  Status = "cancelled"
)

// Terminal reports whether no more work will happen on a task in this status.
func (s Status) Terminal() bool {
	return s == StatusCompleted || s == StatusFailed || s == StatusCancelled
}

// Ref names one task. The organisation is part of every storage key, so a task id
// looked up under another organisation does not exist.
type Ref struct {
	OrgID  string `json:"org_id"`
	TaskID string `json:"task_id"`
}

func (r Ref) String() string { return r.OrgID + "/" + r.TaskID }

// ColumnName is the label of a task's result column, or the labels of several. The
// spec types it "string or array of string": List chooses the array form.
type ColumnName struct {
	Names []string
	List  bool
}

// Columns is the array form of column labels.
func Columns(names ...string) ColumnName { return ColumnName{Names: names, List: true} }

// MarshalJSON writes a string or an array.
func (c ColumnName) MarshalJSON() ([]byte, error) {
	if !c.List && len(c.Names) == 1 {
		return json.Marshal(c.Names[0])
	}
	if c.Names == nil {
		return []byte("[]"), nil
	}
	return json.Marshal(c.Names)
}

// UnmarshalJSON reads a string or an array.
func (c *ColumnName) UnmarshalJSON(b []byte) error {
	var one string
	if err := json.Unmarshal(b, &one); err == nil {
		*c = ColumnName{Names: []string{one}}
		return nil
	}
	var many []string
	if err := json.Unmarshal(b, &many); err != nil {
		return fmt.Errorf("column_name: want a string or an array of strings")
	}
	*c = ColumnName{Names: many, List: true}
	return nil
}

// ResponseFormat describes a generation task's answers (spec: Generation task).
type ResponseFormat struct {
	ResponseType string            `json:"response_type"`
	Description  string            `json:"description"`
	FieldLabels  map[string]string `json:"field_labels"`
	TypedColumns []TypedColumn     `json:"typed_columns"`
}

// TypedColumn is an item of ResponseFormat.TypedColumns.
type TypedColumn struct {
	Key          string            `json:"key"`
	Label        string            `json:"label"`
	Kind         string            `json:"kind"`
	Instructions string            `json:"instructions"`
	Criteria     map[string]string `json:"criteria"`
}

// TaskError is why a task failed (README, Tasks: code and message).
type TaskError struct {
	Code    string `json:"code"`
	Message string `json:"message"`
}

// Warning is a non-fatal problem. At is when it last happened: warnings are
// deduplicated by message, keeping the most recent occurrence.
type Warning struct {
	Message string    `json:"message"`
	At      time.Time `json:"at"`
}

// Task is the stored state of a task, without its records and rows.
type Task struct {
	Ref
	Kind            string          `json:"kind"`
	Route           string          `json:"route,omitempty"` // that submitted it: its records charge under it (chargeRoute)
	ColumnName      ColumnName      `json:"column_name"`
	Status          Status          `json:"status"`
	Total           int             `json:"total"`          // records after duplicates were merged: progress counts these
	Sent            int             `json:"sent,omitempty"` // records as submitted, duplicates included: total_domains
	Chunks          int             `json:"chunks"`
	ResponseFormat  *ResponseFormat `json:"response_format,omitempty"`
	TitleValidation string          `json:"title_validation,omitempty"`
	Warnings        []Warning       `json:"warnings,omitempty"` // task-level (submit, finalize); rows carry their own
	Error           *TaskError      `json:"error,omitempty"`
	CreatedAt       time.Time       `json:"created_at"`
	UpdatedAt       time.Time       `json:"updated_at"`
	FinishedAt      *time.Time      `json:"finished_at,omitempty"`
}

// View is a task as the status endpoint shows it: the API reference's Generation task fields,
// plus error on a failed task. While the task runs, finished rows are in
// InterimResults; once it has ended (completed, cancelled or failed) they are in Results.
type View struct {
	TaskID          string                     `json:"task_id"`
	ColumnName      ColumnName                 `json:"column_name"`
	Status          Status                     `json:"status"`
	TotalDomains    int                        `json:"total_domains"` // echoed at submission: duplicates included
	Progress        int                        `json:"progress"`
	InterimResults  map[string]json.RawMessage `json:"interim_results,omitempty"`
	Results         map[string]json.RawMessage `json:"results,omitempty"`
	EstimatedCost   float64                    `json:"estimated_cost"`
	ResponseFormat  *ResponseFormat            `json:"response_format"`
	Warnings        []string                   `json:"warnings"`
	CostMetadata    map[string]any             `json:"cost_metadata"`
	TitleValidation string                     `json:"title_validation,omitempty"`
	Error           *TaskError                 `json:"error,omitempty"`
	// Page says which records' rows the answer holds (StatusPage); nil from Status.
	Page *PageInfo `json:"page,omitempty"`
}

// Submitted is the answer to a submission (spec: task_id, column_name, status,
// total_domains).
type Submitted struct {
	TaskID       string     `json:"task_id"`
	ColumnName   ColumnName `json:"column_name"`
	Status       Status     `json:"status"`
	TotalDomains int        `json:"total_domains"`
}

// Cancellation is the answer of DELETE /v1/gen/cancel/{task_id}.
type Cancellation struct {
	Success bool   `json:"success"`
	Message string `json:"message"`
	TaskID  string `json:"task_id"`
	Status  Status `json:"status"`
}
