package mcpserver

import (
	"context"
	"errors"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/firmoapi/firmo/shared/client"
)

// FindEmailInput is the input of find_email: the body of POST /v1/email/find, plus how
// long to wait for the answer.
type FindEmailInput struct {
	FirstName    string `json:"first_name" jsonschema:"the person's first name"`
	LastName     string `json:"last_name" jsonschema:"the person's last name"`
	Domain       string `json:"domain" jsonschema:"the domain of the person's employer (acme.com)"`
	KnownPattern string `json:"known_pattern,omitempty" jsonschema:"the company's address pattern when you know it: a local-part template such as {first}.{last} or {f}{last}"`
	WaitSeconds  *int   `json:"wait_seconds,omitempty" jsonschema:"how long to wait for the answer before returning the job id to read later with task_status (kind email_job)"`
}

// EmailOutcome is an email job's state and, once finished, its outcome.
type EmailOutcome struct {
	JobID      string  `json:"job_id"`
	JobStatus  string  `json:"job_status" jsonschema:"queued, processing, completed or failed"`
	Outcome    string  `json:"outcome,omitempty" jsonschema:"found, not_found, catch_all, catch_all_pattern, undeliverable, error, timeout, greylisted or rate_limited"`
	Email      *string `json:"email" jsonschema:"the address; null unless found"`
	Pattern    string  `json:"pattern,omitempty"`
	Tier       string  `json:"tier,omitempty"`
	Valid      *bool   `json:"valid,omitempty"`
	IsCatchAll bool    `json:"is_catch_all"`
	Provider   *string `json:"provider,omitempty" jsonschema:"the mail provider detected for the domain"`
	Note       string  `json:"note,omitempty"`
}

// find_email waits this long by default, and at most maxWait (an agent's call should
// not hang; the job goes on and task_status reads it).
const (
	defaultEmailWait = 20
	maxWait          = 60
)

func (t *tools) addEmailTools(s *mcp.Server) {
	mcp.AddTool(s, &mcp.Tool{
		Name:        "find_email",
		Title:       "Find an email address",
		Annotations: findEmailAnnotations(),
		Description: `Find a person's work email address from their name and employer's domain: the mail server is asked over SMTP which address on the company's pattern exists. ` +
			`Waits up to wait_seconds (default 20) for the outcome (found, not_found, catch_all, ...); if it takes longer, returns the job id to read with task_status (kind email_job). ` +
			`Cost: only a found address is billed (an email record, net-new per 90 days, at the plan's rate per 1,000); every other outcome is free.`,
		InputSchema: schemaFor[FindEmailInput](map[string][]rule{
			"first_name":   {minLength(1)},
			"last_name":    {minLength(1)},
			"domain":       {minLength(1)},
			"wait_seconds": {between(0, maxWait), defaultValue(defaultEmailWait)},
		}),
		OutputSchema: outputSchemaFor[EmailOutcome](nil),
	}, t.findEmail)
}

func (t *tools) findEmail(ctx context.Context, _ *mcp.CallToolRequest, in FindEmailInput) (*mcp.CallToolResult, EmailOutcome, error) {
	ref, _, err := t.api.FindEmail(ctx, client.EmailFindRequest{FirstName: in.FirstName, LastName: in.LastName,
		Domain: in.Domain, KnownPattern: in.KnownPattern})
	if err != nil {
		return nil, EmailOutcome{}, toolError("find_email", err)
	}
	wait := defaultEmailWait
	if in.WaitSeconds != nil {
		wait = *in.WaitSeconds
	}
	st, err := t.await(ctx, client.EmailJobPath(ref.JobID), wait)
	if err != nil {
		return nil, EmailOutcome{}, toolError("find_email", err)
	}
	var job client.EmailJob
	if st != nil {
		if err := st.Decode(&job); err != nil {
			return nil, EmailOutcome{}, toolError("find_email", err)
		}
	}
	out := outcomeOf(job)
	out.JobID = ref.JobID
	if out.JobStatus == "" {
		out.JobStatus = "queued"
	}
	if st == nil || !st.Finished() {
		out.Note = "still running: call task_status with kind email_job and this job_id"
	}
	return nil, out, nil
}

// await polls statusPath until the task finishes or seconds pass, and returns the last
// answer (nil when none came in time). A poll the API refuses is an error.
func (t *tools) await(ctx context.Context, statusPath string, seconds int) (*client.TaskStatus, error) {
	if seconds <= 0 {
		return t.api.Poll(ctx, statusPath)
	}
	wctx, cancel := context.WithTimeout(ctx, time.Duration(seconds)*time.Second)
	defer cancel()
	st, err := t.api.Wait(wctx, statusPath, client.WaitOptions{Interval: 250 * time.Millisecond, MaxInterval: 2 * time.Second})
	if err != nil && ctx.Err() == nil && (errors.Is(err, client.ErrNotFinished) || wctx.Err() != nil) {
		return st, nil // out of time: the interim answer
	}
	return st, err
}

// outcomeOf is an email job's state and outcome (the address only when found: the
// job's result.result is null otherwise).
func outcomeOf(j client.EmailJob) EmailOutcome {
	out := EmailOutcome{JobID: j.JobID, JobStatus: string(j.Status)}
	if r := j.Result; r != nil {
		out.Outcome, out.IsCatchAll, out.Provider = string(r.Status), r.IsCatchAll, r.Provider
		if f := r.Result; f != nil && f.Email != "" {
			email, valid := f.Email, f.Valid
			out.Email, out.Pattern, out.Tier, out.Valid = &email, f.Pattern, string(f.Tier), &valid
		}
	}
	if j.Error != nil {
		out.Note = "the job failed: " + j.Error.Code + ": " + j.Error.Message
	}
	return out
}

// findEmailAnnotations: the tool asks mail servers outside Firmo (open world) and
// changes nothing the caller owns beyond the credits of a found address.
func findEmailAnnotations() *mcp.ToolAnnotations {
	no, yes := false, true
	return &mcp.ToolAnnotations{Title: "Find an email address", IdempotentHint: true, DestructiveHint: &no, OpenWorldHint: &yes}
}
