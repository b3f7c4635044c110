package mcpserver

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/firmoapi/firmo/shared/client"
)

// TaskStatusInput is the input of task_status.
type TaskStatusInput struct {
	Kind        string `json:"kind" jsonschema:"what the id names: gen (batch research, ICP validation, contact generation, CRM snapshots), bulkmatch, segment, email_job (find_email) or email_batch"`
	ID          string `json:"id" jsonschema:"the task_id, job_id or batch_id the submission answered"`
	WaitSeconds int    `json:"wait_seconds,omitempty" jsonschema:"wait up to this long for the task to finish before answering (0: answer at once)"`
}

// TaskStatusOutput is the answer of task_status.
type TaskStatusOutput struct {
	Kind           string            `json:"kind"`
	ID             string            `json:"id"`
	Status         string            `json:"status" jsonschema:"in_progress, completed, failed, cancelling or cancelled (email jobs: queued, processing, completed, failed)"`
	Progress       float64           `json:"progress" jsonschema:"percent done"`
	Done           int               `json:"done,omitempty"`
	Total          int               `json:"total,omitempty"`
	ResultCount    int               `json:"result_count" jsonschema:"result rows available so far"`
	Results        []map[string]any  `json:"results" jsonschema:"the first result rows, main fields, long values shortened"`
	Error          *client.ErrorInfo `json:"error,omitempty"`
	Warnings       []string          `json:"warnings,omitempty"`
	CreditsCharged int64             `json:"credits_charged"`
	Note           string            `json:"note,omitempty"`
}

// statusPath is the status route of a kind for an id (README "Tasks": each kind is read
// only through its own route).
func statusPath(kind, id string) (string, bool) {
	paths := map[string]func(string) string{
		"gen": client.GenStatusPath, "bulkmatch": client.BulkMatchStatusPath, "segment": client.SegmentStatusPath,
		"email_job": client.EmailJobPath, "email_batch": client.EmailBatchPath,
	}
	p, ok := paths[kind]
	if !ok {
		return "", false
	}
	return p(id), true
}

func (t *tools) addTaskTools(s *mcp.Server) {
	mcp.AddTool(s, &mcp.Tool{
		Name:        "task_status",
		Title:       "Task status",
		Annotations: readOnly("Task status"),
		Description: `Read the status, progress and first results of long work by its id: a find_email job (kind email_job), an email batch, a bulk match, a segmentation, or a batch research, ICP validation or contact generation task (kind gen). ` +
			`Answers the status, the percent done, how many result rows there are and the first 25 with their main fields. Optionally waits up to wait_seconds for the task to finish. ` +
			`Cost: reading is free, except that bulk match and segmentation results are billed as company records (net-new per 90 days) when they are first delivered.`,
		InputSchema: schemaFor[TaskStatusInput](map[string][]rule{
			"kind":         {enum("gen", "bulkmatch", "segment", "email_job", "email_batch")},
			"id":           {minLength(1)},
			"wait_seconds": {between(0, maxWait)},
		}),
		OutputSchema: outputSchemaFor[TaskStatusOutput](nil),
	}, t.taskStatus)
}

func (t *tools) taskStatus(ctx context.Context, _ *mcp.CallToolRequest, in TaskStatusInput) (*mcp.CallToolResult, TaskStatusOutput, error) {
	path, ok := statusPath(in.Kind, strings.TrimSpace(in.ID))
	if !ok { // the schema's enum stops this first
		return nil, TaskStatusOutput{}, fmt.Errorf("task_status: kind %q is not one of gen, bulkmatch, segment, email_job, email_batch", in.Kind)
	}
	st, err := t.await(ctx, path, in.WaitSeconds)
	if err == nil && st == nil {
		st, err = t.api.Poll(ctx, path) // no answer within the wait: read it once
	}
	if err != nil {
		return nil, TaskStatusOutput{}, toolError("task_status", asIDArgument(err))
	}
	out := TaskStatusOutput{Kind: in.Kind, ID: in.ID, Status: st.Status, Progress: st.Progress, Done: st.Done, Total: st.Total,
		Results: []map[string]any{}, CreditsCharged: st.Credits}
	a, err := readTask(in.Kind, st.Body)
	if err != nil {
		return nil, TaskStatusOutput{}, toolError("task_status", fmt.Errorf("decode status answer: %w", err))
	}
	if st.Status == "completed" && out.Progress == 0 {
		// Email jobs and batches carry no progress: a completed one is all done.
		out.Progress = 100
	}
	out.ResultCount = len(a.rows)
	out.Results = firstN(a.rows, maxRows)
	out.Error, out.Warnings = a.err, firstN(a.warnings, 5)
	var notes []string
	if len(a.rows) > len(out.Results) {
		notes = append(notes, fmt.Sprintf("showing %d of %d result rows; GET %s has them all (firmo's file commands write them to a file)", len(out.Results), len(a.rows), path))
	}
	if !st.Finished() {
		notes = append(notes, "not finished: call task_status again later, or with wait_seconds")
	}
	out.Note = strings.Join(notes, "; ")
	return nil, out, nil
}

// asIDArgument names the tool's argument, id, in an API error about the route's path
// parameter (task_id, job_id or batch_id), which the agent never saw.
func asIDArgument(err error) error {
	var e *client.Error
	if errors.As(err, &e) && (e.Field == "task_id" || e.Field == "job_id" || e.Field == "batch_id") {
		c := *e
		c.Field = "id"
		c.Message = strings.ReplaceAll(c.Message, e.Field, "id")
		return &c
	}
	return err
}

// taskAnswer is what task_status reads from a status answer besides its status: the
// result rows, each trimmed to its main fields, the warnings and the task's error.
type taskAnswer struct {
	rows     []map[string]any
	warnings []string
	err      *client.ErrorInfo
}

// readTask decodes a status answer of kind into the client's type for it.
func readTask(kind string, body []byte) (taskAnswer, error) {
	switch kind {
	case "gen":
		var g client.GenerationTask
		if err := json.Unmarshal(body, &g); err != nil {
			return taskAnswer{}, err
		}
		results, order := g.Results, g.ResultsOrder
		if g.Results == nil {
			results, order = g.InterimResults, g.InterimOrder
		}
		rows := make([]map[string]any, 0, len(order))
		for _, k := range order {
			row := map[string]any{}
			for c, v := range results[k] {
				row[c] = trimValue(v, 1)
			}
			row["key"] = k
			rows = append(rows, row)
		}
		return taskAnswer{rows: rows, warnings: g.Warnings, err: g.Error}, nil
	case "email_job":
		var j client.EmailJob
		if err := json.Unmarshal(body, &j); err != nil {
			return taskAnswer{}, err
		}
		var jobErr *client.ErrorInfo
		if j.Error != nil {
			jobErr = &client.ErrorInfo{Code: j.Error.Code, Message: j.Error.Message}
		}
		return taskAnswer{rows: []map[string]any{emailRow(j)}, err: jobErr}, nil
	case "email_batch":
		var b client.EmailBatchResults
		if err := json.Unmarshal(body, &b); err != nil {
			return taskAnswer{}, err
		}
		rows := make([]map[string]any, 0, len(b.Results))
		for _, j := range b.Results {
			rows = append(rows, emailRow(j))
		}
		return taskAnswer{rows: rows}, nil
	case "segment":
		var sg client.SegmentStatus
		if err := json.Unmarshal(body, &sg); err != nil {
			return taskAnswer{}, err
		}
		rows := make([]map[string]any, 0, len(sg.Results))
		for _, r := range sg.Results {
			rows = append(rows, segmentRow(r))
		}
		return taskAnswer{rows: rows, err: sg.Error}, nil
	}
	var bm client.BulkMatchStatus
	if err := json.Unmarshal(body, &bm); err != nil {
		return taskAnswer{}, err
	}
	rows := make([]map[string]any, 0, len(bm.Results))
	for _, r := range bm.Results {
		rows = append(rows, matchRow(r))
	}
	return taskAnswer{rows: rows, err: bm.Error}, nil
}

// matchRow keeps a bulk match row's match fields, its input: columns and its country.
func matchRow(r map[string]any) map[string]any {
	out := map[string]any{}
	for _, k := range []string{"domain", "name", "match_confidence", "match_error"} {
		if v, ok := r[k]; ok {
			out[k] = trimValue(v, 1)
		}
	}
	for k, v := range r {
		if strings.HasPrefix(k, "input:") {
			out[k] = trimValue(v, 1)
		}
	}
	if a, ok := r["address"].(map[string]any); ok && a["country"] != nil {
		out["country"] = a["country"]
	}
	return out
}

// segmentRow is a segmented company's domain, name, country and segment.
func segmentRow(r client.SegmentResultItem) map[string]any {
	row := map[string]any{"domain": r.Domain, "name": clip(r.Name, 300), "segment_id": r.SegmentID,
		"segment_description": clip(r.SegmentDescription, 300), "probability": r.Probability}
	if r.Address.Country != "" {
		row["country"] = r.Address.Country
	}
	return row
}

func emailRow(j client.EmailJob) map[string]any {
	o := outcomeOf(j)
	row := map[string]any{"job_id": j.JobID, "job_status": o.JobStatus}
	if o.Outcome != "" {
		row["outcome"] = o.Outcome
	}
	if o.Email != nil {
		row["email"] = *o.Email
	}
	if o.IsCatchAll {
		row["is_catch_all"] = true
	}
	return row
}
