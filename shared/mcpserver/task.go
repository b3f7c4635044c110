package mcpserver

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/url"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// TaskStatusInput is the input of task_status.
type TaskStatusInput struct {
	Kind        string `json:"kind" jsonschema:"what the id names: gen (batch research, ICP validation, contact generation, CRM snapshots), bulkmatch, segment, email_job (find_email) or email_batch"`
	ID          string `json:"id" jsonschema:"the task_id, job_id or batch_id the submission answered"`
	WaitSeconds int    `json:"wait_seconds,omitempty" jsonschema:"wait up to this long for the task to finish before answering (0: answer at once)"`
}

// TaskStatusOutput is the answer of task_status.
type TaskStatusOutput struct {
	Kind           string           `json:"kind"`
	ID             string           `json:"id"`
	Status         string           `json:"status" jsonschema:"in_progress, completed, failed, cancelling or cancelled (email jobs: queued, processing, completed, failed)"`
	Progress       float64          `json:"progress" jsonschema:"percent done"`
	Done           int              `json:"done,omitempty"`
	Total          int              `json:"total,omitempty"`
	ResultCount    int              `json:"result_count" jsonschema:"result rows available so far"`
	Results        []map[string]any `json:"results" jsonschema:"the first result rows, main fields, long values shortened"`
	Error          any              `json:"error,omitempty"`
	Warnings       []string         `json:"warnings,omitempty"`
	CreditsCharged int64            `json:"credits_charged"`
	Note           string           `json:"note,omitempty"`
}

// statusRoute is the status route of a kind (README "Tasks": each kind is read only
// through its own route), with %s for the id.
func statusRoute(kind string) (string, bool) {
	switch kind {
	case "gen":
		return "/v1/gen/status/%s", true
	case "bulkmatch":
		return "/v1/bulkmatch/status/%s", true
	case "segment":
		return "/v1/segment/status/%s", true
	case "email_job":
		return "/v1/email/jobs/%s", true
	case "email_batch":
		return "/v1/email/batch/%s/results", true
	}
	return "", false
}

func (t *tools) addTaskTools(s *mcp.Server) {
	mcp.AddTool(s, &mcp.Tool{
		Name:        "task_status",
		Title:       "Task status",
		Annotations: readOnly("Task status"),
		Description: `Read the status, progress and first results of long work by its id: a find_email job (kind email_job), an email batch, a bulk match, a segmentation, or a batch research, ICP validation or contact generation task (kind gen). ` +
			`Answers the status, the percent done, how many result rows there are and the first 25 with their main fields. Optionally waits up to wait_seconds for the task to finish. ` +
			`Cost: reading is free, except that bulk match and segmentation results are billed as company records (net-new per 90 days) when they are first delivered.`,
		InputSchema: inputSchema[TaskStatusInput](map[string][]rule{
			"kind":         {enum("gen", "bulkmatch", "segment", "email_job", "email_batch")},
			"id":           {minLength(1)},
			"wait_seconds": {between(0, maxWait)},
		}),
	}, t.taskStatus)
}

func (t *tools) taskStatus(ctx context.Context, _ *mcp.CallToolRequest, in TaskStatusInput) (*mcp.CallToolResult, TaskStatusOutput, error) {
	route, ok := statusRoute(in.Kind)
	if !ok { // the schema's enum stops this first
		return nil, TaskStatusOutput{}, fmt.Errorf("task_status: kind %q is not one of gen, bulkmatch, segment, email_job, email_batch", in.Kind)
	}
	path := fmt.Sprintf(route, url.PathEscape(strings.TrimSpace(in.ID)))
	st, err := t.await(ctx, path, in.WaitSeconds)
	if err == nil && st == nil {
		st, err = t.api.Poll(ctx, path) // no answer within the wait: read it once
	}
	if err != nil {
		return nil, TaskStatusOutput{}, toolError("task_status", err)
	}
	out := TaskStatusOutput{Kind: in.Kind, ID: in.ID, Status: st.Status, Progress: st.Progress, Done: st.Done, Total: st.Total,
		Results: []map[string]any{}, CreditsCharged: st.Credits}
	rows, extra, err := taskRows(in.Kind, st.Body)
	if err != nil {
		return nil, TaskStatusOutput{}, toolError("task_status", err)
	}
	out.ResultCount = len(rows)
	out.Results = firstN(rows, maxRows)
	out.Error, out.Warnings = extra.Error, firstN(extra.Warnings, 5)
	var notes []string
	if len(rows) > len(out.Results) {
		notes = append(notes, fmt.Sprintf("showing %d of %d result rows; GET %s has them all (firmo's file commands write them to a file)", len(out.Results), len(rows), path))
	}
	if !st.Finished() {
		notes = append(notes, "not finished: call task_status again later, or with wait_seconds")
	}
	out.Note = strings.Join(notes, "; ")
	return nil, out, nil
}

// taskExtra are the status answer's fields besides the rows.
type taskExtra struct {
	Error    any      `json:"error"`
	Warnings []string `json:"warnings"`
}

// taskRows reads the result rows of a status answer, each trimmed to its main fields.
func taskRows(kind string, body []byte) ([]map[string]any, taskExtra, error) {
	var extra taskExtra
	_ = json.Unmarshal(body, &extra) // warnings of another shape are left out
	switch kind {
	case "gen":
		var head struct {
			Results        json.RawMessage `json:"results"`
			InterimResults json.RawMessage `json:"interim_results"`
		}
		if err := json.Unmarshal(body, &head); err != nil {
			return nil, extra, fmt.Errorf("decode status answer: %w", err)
		}
		raw := head.Results
		if len(bytes.TrimSpace(raw)) == 0 || string(raw) == "null" {
			raw = head.InterimResults
		}
		rows, err := keyedRows(raw)
		return rows, extra, err
	case "email_job":
		var j emailJob
		if err := json.Unmarshal(body, &j); err != nil {
			return nil, extra, fmt.Errorf("decode status answer: %w", err)
		}
		return []map[string]any{emailRow(j)}, extra, nil
	case "email_batch":
		var b struct {
			Results []emailJob `json:"results"`
		}
		if err := json.Unmarshal(body, &b); err != nil {
			return nil, extra, fmt.Errorf("decode status answer: %w", err)
		}
		rows := make([]map[string]any, 0, len(b.Results))
		for _, j := range b.Results {
			rows = append(rows, emailRow(j))
		}
		return rows, extra, nil
	}
	var b struct {
		Results []map[string]any `json:"results"`
	}
	if err := json.Unmarshal(body, &b); err != nil {
		return nil, extra, fmt.Errorf("decode status answer: %w", err)
	}
	keep := []string{"domain", "name", "match_confidence", "match_error"}
	if kind == "segment" {
		keep = []string{"domain", "name", "segment_id", "segment_description", "probability"}
	}
	rows := make([]map[string]any, 0, len(b.Results))
	for _, r := range b.Results {
		rows = append(rows, pick(r, keep))
	}
	return rows, extra, nil
}

// pick keeps the named fields of a result row and its input: columns.
func pick(r map[string]any, keep []string) map[string]any {
	out := map[string]any{}
	for _, k := range keep {
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

func emailRow(j emailJob) map[string]any {
	o := j.outcome()
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

// keyedRows reads a results object keyed by domain or persona id, in its order, as rows
// with that key in "key".
func keyedRows(raw json.RawMessage) ([]map[string]any, error) {
	rows := []map[string]any{}
	if len(bytes.TrimSpace(raw)) == 0 || string(raw) == "null" {
		return rows, nil
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	if tok, err := dec.Token(); err != nil || tok != json.Delim('{') {
		return nil, fmt.Errorf("decode status answer: results is not an object")
	}
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return nil, fmt.Errorf("decode status answer: %w", err)
		}
		var v any
		if err := dec.Decode(&v); err != nil {
			return nil, fmt.Errorf("decode status answer: %w", err)
		}
		row := map[string]any{}
		if m, ok := v.(map[string]any); ok {
			for k, x := range m {
				row[k] = trimValue(x, 1)
			}
		} else {
			row["value"] = trimValue(v, 1)
		}
		row["key"] = fmt.Sprint(tok)
		rows = append(rows, row)
	}
	return rows, nil
}
