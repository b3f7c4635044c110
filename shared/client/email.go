package client

import (
	"context"
	"net/url"
)

// EmailFindRequest asks for one person's email address at a company's domain.
type EmailFindRequest struct {
	FirstName    string `json:"first_name"`
	LastName     string `json:"last_name"`
	Domain       string `json:"domain"`
	KnownPattern string `json:"known_pattern,omitempty"`
}

// EmailBatchRequest is the body of POST /v1/email/find/batch.
type EmailBatchRequest struct {
	Requests []EmailFindRequest `json:"requests"`
	// Refs are the caller's references of the requests, one each (strings or
	// integers), echoed by nothing but kept with the jobs.
	Refs []any `json:"refs,omitempty"`
	// Round is verify or escalate.
	Round         string `json:"round,omitempty"`
	SourceQueryID string `json:"source_query_id,omitempty"`
}

// EmailJobRef is the answer of POST /v1/email/find: the job to poll.
type EmailJobRef struct {
	JobID string `json:"job_id"`
}

// EmailBatch is the answer of POST /v1/email/find/batch.
type EmailBatch struct {
	BatchID string   `json:"batch_id"`
	JobIDs  []string `json:"job_ids"`
	Total   int      `json:"total"`
}

// ErrorInfo is the error of a failed task or job.
type ErrorInfo struct {
	Code    string `json:"code"`
	Message string `json:"message"`
}

// FindEmail calls POST /v1/email/find: it starts a job; poll it with GetEmailJob or
// wait for it with FindEmailAndWait.
func (c *Client) FindEmail(ctx context.Context, req EmailFindRequest) (*EmailJobRef, *Response, error) {
	return callFor[EmailJobRef](ctx, c, request{op: opPostEmailFind, json: req})
}

// FindEmailBatch calls POST /v1/email/find/batch: one job per request.
func (c *Client) FindEmailBatch(ctx context.Context, req EmailBatchRequest) (*EmailBatch, *Response, error) {
	return callFor[EmailBatch](ctx, c, request{op: opPostEmailBatch, json: req})
}

// GetEmailJob calls GET /v1/email/jobs/{job_id}.
func (c *Client) GetEmailJob(ctx context.Context, jobID string) (*EmailJob, *Response, error) {
	return callFor[EmailJob](ctx, c, request{op: opGetEmailJob, params: []string{jobID}})
}

// GetEmailBatch calls GET /v1/email/batch/{batch_id}/results.
func (c *Client) GetEmailBatch(ctx context.Context, batchID string) (*EmailBatchResults, *Response, error) {
	return callFor[EmailBatchResults](ctx, c, request{op: opGetEmailBatch, params: []string{batchID}})
}

// EmailJobPath is the status route of an email job, for Wait and RunTask.
func EmailJobPath(jobID string) string { return "/v1/email/jobs/" + url.PathEscape(jobID) }

// EmailBatchPath is the results route of an email batch, for Wait and RunTask.
func EmailBatchPath(batchID string) string {
	return "/v1/email/batch/" + url.PathEscape(batchID) + "/results"
}

// FindEmailAndWait starts an email job and waits for it (see RunTask).
func (c *Client) FindEmailAndWait(ctx context.Context, req EmailFindRequest, opts WaitOptions) (*TaskRun[EmailJob], error) {
	return RunTask[EmailJob](ctx, c, func(ctx context.Context) (string, *Response, error) {
		ref, resp, err := c.FindEmail(ctx, req)
		if err != nil {
			return "", resp, err
		}
		return ref.JobID, resp, nil
	}, EmailJobPath, opts)
}

// FindEmailBatchAndWait starts an email batch and waits until every job ended (see
// RunTask).
func (c *Client) FindEmailBatchAndWait(ctx context.Context, req EmailBatchRequest, opts WaitOptions) (*TaskRun[EmailBatchResults], error) {
	return RunTask[EmailBatchResults](ctx, c, func(ctx context.Context) (string, *Response, error) {
		b, resp, err := c.FindEmailBatch(ctx, req)
		if err != nil {
			return "", resp, err
		}
		return b.BatchID, resp, nil
	}, EmailBatchPath, opts)
}
