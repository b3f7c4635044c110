package client

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/url"
)

// ProcessRequest is the body of POST /v1/gen/process: a research question asked of
// each domain.
type ProcessRequest struct {
	Query                string         `json:"query"`
	Domains              []string       `json:"domains"`
	ContextMode          string         `json:"context_mode,omitempty"`
	IntegrationID        string         `json:"integration_id,omitempty"`
	SearchProviderID     string         `json:"search_provider_id,omitempty"`
	SearchContextSize    string         `json:"search_context_size,omitempty"`
	WebSearch            *bool          `json:"web_search,omitempty"`
	IncludeXSearch       *bool          `json:"include_x_search,omitempty"`
	IncludeConfidence    *bool          `json:"include_confidence,omitempty"`
	TypedColumns         *bool          `json:"typed_columns,omitempty"`
	PreviousDiscogenData map[string]any `json:"previous_discogen_data,omitempty"`
}

// ProcessPersonasRequest is the body of POST /v1/gen/process-personas: a research
// question asked of each person.
type ProcessPersonasRequest struct {
	Query                string         `json:"query"`
	PersonaIDs           []int64        `json:"persona_ids"`
	ContextMode          string         `json:"context_mode,omitempty"`
	IntegrationID        string         `json:"integration_id,omitempty"`
	SearchProviderID     string         `json:"search_provider_id,omitempty"`
	SearchContextSize    string         `json:"search_context_size,omitempty"`
	WebSearch            *bool          `json:"web_search,omitempty"`
	IncludeXSearch       *bool          `json:"include_x_search,omitempty"`
	IncludeConfidence    *bool          `json:"include_confidence,omitempty"`
	TypedColumns         *bool          `json:"typed_columns,omitempty"`
	PreviousDiscogenData map[string]any `json:"previous_discogen_data,omitempty"`
}

// ValidateICPRequest is the body of POST /v1/validate/icp: does each domain fit the
// ideal customer profile.
type ValidateICPRequest struct {
	ICPText          string   `json:"icp_text"`
	Domains          []string `json:"domains"`
	ContextMode      string   `json:"context_mode,omitempty"`
	IntegrationID    string   `json:"integration_id,omitempty"`
	SearchProviderID string   `json:"search_provider_id,omitempty"`
	WebSearch        *bool    `json:"web_search,omitempty"`
}

// GenerateRequest is the body of POST /v1/contacts/discover/generate: find the people
// of each domain who fit the profile.
type GenerateRequest struct {
	ICPText              string   `json:"icp_text"`
	Domains              []string `json:"domains"`
	ContextMode          string   `json:"context_mode,omitempty"`
	IntegrationID        string   `json:"integration_id,omitempty"`
	SearchProviderID     string   `json:"search_provider_id,omitempty"`
	SearchContextSize    string   `json:"search_context_size,omitempty"`
	FindEmails           *bool    `json:"find_emails,omitempty"`
	MaxContactsPerDomain int      `json:"max_contacts_per_domain,omitempty"`
}

// TaskSubmitted is the answer of the routes that start a task read through
// GET /v1/gen/status (research, ICP validation, contact generation).
type TaskSubmitted struct {
	TaskID       string   `json:"task_id"`
	Status       string   `json:"status"`
	TotalDomains int      `json:"total_domains"`
	ColumnName   []string `json:"column_name"`
}

// TaskRef is the answer of POST /v1/bulkmatch and POST /v1/segment.
type TaskRef struct {
	TaskID string `json:"task_id"`
}

// StringList is a JSON string or list of strings, decoded as a list.
type StringList []string

// UnmarshalJSON accepts "a" and ["a", "b"].
func (s *StringList) UnmarshalJSON(b []byte) error {
	var one string
	if err := json.Unmarshal(b, &one); err == nil {
		*s = StringList{one}
		return nil
	}
	var list []string
	if err := json.Unmarshal(b, &list); err != nil {
		return err
	}
	*s = list
	return nil
}

// TypedColumn is one column of a typed research answer.
type TypedColumn struct {
	Key          string            `json:"key"`
	Label        string            `json:"label"`
	Kind         string            `json:"kind"`
	Instructions string            `json:"instructions"`
	Criteria     map[string]string `json:"criteria"`
}

// ResponseFormat describes the shape of a research task's answers.
type ResponseFormat struct {
	Description  string            `json:"description"`
	ResponseType string            `json:"response_type"`
	FieldLabels  map[string]string `json:"field_labels"`
	TypedColumns []TypedColumn     `json:"typed_columns"`
}

// GenerationTask is the answer of GET /v1/gen/status/{task_id}: research, ICP
// validation, contact generation and CRM snapshot tasks. Results and InterimResults
// are keyed by domain (or record).
type GenerationTask struct {
	TaskID          string                    `json:"task_id"`
	Status          string                    `json:"status"`
	Progress        int                       `json:"progress"`
	TotalDomains    int                       `json:"total_domains"`
	ColumnName      StringList                `json:"column_name"`
	EstimatedCost   float64                   `json:"estimated_cost"`
	CostMetadata    map[string]any            `json:"cost_metadata"`
	ResponseFormat  *ResponseFormat           `json:"response_format"`
	Results         map[string]map[string]any `json:"results,omitempty"`
	InterimResults  map[string]map[string]any `json:"interim_results,omitempty"`
	TitleValidation string                    `json:"title_validation,omitempty"`
	Warnings        []string                  `json:"warnings"`
	Error           *ErrorInfo                `json:"error,omitempty"`
	// ResultsOrder and InterimOrder are the keys of Results and InterimResults in the
	// answer's order.
	ResultsOrder []string `json:"-"`
	InterimOrder []string `json:"-"`
}

// BulkMatchRequest is the upload of POST /v1/bulkmatch: a CSV or Excel file and the
// names of its columns.
type BulkMatchRequest struct {
	// File is read to its end when the request is sent; FileName's extension (.csv,
	// .xlsx) tells its format.
	File               io.Reader `form:"file"`
	FileName           string    `form:"-"`
	NameColumn         string    `form:"name_column"`
	CountryColumn      string    `form:"country_column"`
	StateColumn        string    `form:"state_column"`
	CityColumn         string    `form:"city_column"`
	ZipCodeColumn      string    `form:"zip_code_column"`
	PhoneColumn        string    `form:"phone_column"`
	MinMatchConfidence int       `form:"min_match_confidence"`
	Strict             *bool     `form:"strict"`
	LocalMode          *bool     `form:"local_mode"`
}

func (r BulkMatchRequest) upload() (io.Reader, string) { return r.File, r.FileName }

// BulkMatchStatus is the answer of GET /v1/bulkmatch/status/{task_id}; Results are the
// file's rows with the match columns added.
type BulkMatchStatus struct {
	TaskID    string           `json:"task_id"`
	Status    string           `json:"status"`
	Progress  int              `json:"progress"`
	TotalRows int              `json:"total_rows"`
	Results   []map[string]any `json:"results"`
	Error     *ErrorInfo       `json:"error,omitempty"`
}

// SegmentRequest is the upload of POST /v1/segment: domains from a file, a list
// and/or saved queries.
type SegmentRequest struct {
	File         io.Reader `form:"file"`
	FileName     string    `form:"-"`
	DomainColumn string    `form:"domain_column"`
	// Domains are sent comma-separated in one field.
	Domains     []string `form:"domains,comma"`
	QueryID     []string `form:"query_id"`
	MaxSegments int      `form:"max_segments"`
}

func (r SegmentRequest) upload() (io.Reader, string) { return r.File, r.FileName }

// SegmentResultItem is one company of a segmentation with its segment.
type SegmentResultItem struct {
	CompanyProfile
	SegmentID          int     `json:"segment_id"`
	SegmentDescription string  `json:"segment_description"`
	Probability        float64 `json:"probability"`
}

// SegmentStatus is the answer of GET /v1/segment/status/{task_id}.
type SegmentStatus struct {
	TaskID           string              `json:"task_id"`
	Status           string              `json:"status"`
	Progress         int                 `json:"progress"`
	TotalDomains     int                 `json:"total_domains"`
	Segments         int                 `json:"segments"`
	OmittedClosed    int                 `json:"omitted_closed"`
	OmittedUnindexed int                 `json:"omitted_unindexed"`
	Results          []SegmentResultItem `json:"results"`
	Error            *ErrorInfo          `json:"error,omitempty"`
}

// Research calls POST /v1/gen/process; poll the task with GetGenerationTask or use
// ResearchAndWait.
func (c *Client) Research(ctx context.Context, req ProcessRequest) (*TaskSubmitted, *Response, error) {
	return callFor[TaskSubmitted](ctx, c, request{op: opPostProcess, json: req})
}

// ResearchPersonas calls POST /v1/gen/process-personas.
func (c *Client) ResearchPersonas(ctx context.Context, req ProcessPersonasRequest) (*TaskSubmitted, *Response, error) {
	return callFor[TaskSubmitted](ctx, c, request{op: opPostPersonas, json: req})
}

// ValidateICP calls POST /v1/validate/icp.
func (c *Client) ValidateICP(ctx context.Context, req ValidateICPRequest) (*TaskSubmitted, *Response, error) {
	return callFor[TaskSubmitted](ctx, c, request{op: opPostValidateICP, json: req})
}

// GenerateContacts calls POST /v1/contacts/discover/generate.
func (c *Client) GenerateContacts(ctx context.Context, req GenerateRequest) (*TaskSubmitted, *Response, error) {
	return callFor[TaskSubmitted](ctx, c, request{op: opPostGenerate, json: req})
}

// GetGenerationTask calls GET /v1/gen/status/{task_id}.
func (c *Client) GetGenerationTask(ctx context.Context, taskID string) (*GenerationTask, *Response, error) {
	return callFor[GenerationTask](ctx, c, request{op: opGetGenStatus, params: []string{taskID}})
}

// CancelTask calls DELETE /v1/gen/cancel/{task_id}.
func (c *Client) CancelTask(ctx context.Context, taskID string) (*TaskCancellation, *Response, error) {
	return callFor[TaskCancellation](ctx, c, request{op: opDeleteGenCancel, params: []string{taskID}})
}

// BulkMatch calls POST /v1/bulkmatch, uploading req.File.
func (c *Client) BulkMatch(ctx context.Context, req BulkMatchRequest) (*TaskRef, *Response, error) {
	return callFor[TaskRef](ctx, c, request{op: opPostBulkMatch, form: req})
}

// GetBulkMatchStatus calls GET /v1/bulkmatch/status/{task_id}. The answer that
// delivers a completed task's results is the one charged.
func (c *Client) GetBulkMatchStatus(ctx context.Context, taskID string) (*BulkMatchStatus, *Response, error) {
	return callFor[BulkMatchStatus](ctx, c, request{op: opGetBulkStatus, params: []string{taskID}})
}

// Segment calls POST /v1/segment.
func (c *Client) Segment(ctx context.Context, req SegmentRequest) (*TaskRef, *Response, error) {
	return callFor[TaskRef](ctx, c, request{op: opPostSegment, form: req})
}

// GetSegmentStatus calls GET /v1/segment/status/{task_id}.
func (c *Client) GetSegmentStatus(ctx context.Context, taskID string) (*SegmentStatus, *Response, error) {
	return callFor[SegmentStatus](ctx, c, request{op: opGetSegStatus, params: []string{taskID}})
}

// GenStatusPath is the status route of research, ICP validation, contact generation
// and CRM snapshot tasks.
func GenStatusPath(taskID string) string { return "/v1/gen/status/" + url.PathEscape(taskID) }

// BulkMatchStatusPath is the status route of a bulk match.
func BulkMatchStatusPath(taskID string) string {
	return "/v1/bulkmatch/status/" + url.PathEscape(taskID)
}

// SegmentStatusPath is the status route of a segmentation.
func SegmentStatusPath(taskID string) string {
	return "/v1/segment/status/" + url.PathEscape(taskID)
}

// ErrTaskFailed is returned (wrapped) by RunTask and ResumeTask when the task ended
// failed or cancelled; the final answer is returned with it.
var ErrTaskFailed = errors.New("client: task failed")

// TaskRun is what RunTask and ResumeTask return.
type TaskRun[T any] struct {
	// ID is the task (job, batch) id: give it to ResumeTask to wait again.
	ID string
	// Result is the last status answer, decoded: the finished result, or the interim
	// one when the wait ended first. Nil when no status answer was read.
	Result *T
	// Status is the last status answer (nil when none was read).
	Status *TaskStatus
	// Submitted is the submission's answer (nil for ResumeTask).
	Submitted *Response
	// Credits is what the submission and every poll were charged, summed
	// (X-Credits-Charged).
	Credits int64
	// Polls counts the status answers read.
	Polls int
}

// RunTask submits a task with submit (which returns its id), then polls
// statusPath(id) with backoff (Wait) until the task finishes, and returns the last
// answer decoded into T.
//
// When ctx ends first (a deadline), the interim answer is returned with an error
// wrapping ErrNotFinished: run.ID resumes it with ResumeTask. A task that ended failed
// or cancelled is returned with an error wrapping ErrTaskFailed. A failed submission
// returns its error and a nil run.
func RunTask[T any](ctx context.Context, c *Client, submit func(context.Context) (id string, resp *Response, err error), statusPath func(id string) string, opts WaitOptions) (*TaskRun[T], error) {
	id, resp, err := submit(ctx)
	if err != nil {
		return nil, err
	}
	if id == "" {
		return nil, errors.New("client: the submission answered no task id")
	}
	run := &TaskRun[T]{ID: id, Submitted: resp}
	if resp != nil {
		run.Credits = resp.Credits
	}
	return run, run.wait(ctx, c, statusPath(id), opts)
}

// ResumeTask waits for a task submitted earlier (by RunTask, the CLI or any caller),
// as RunTask does after submitting.
func ResumeTask[T any](ctx context.Context, c *Client, id string, statusPath func(id string) string, opts WaitOptions) (*TaskRun[T], error) {
	run := &TaskRun[T]{ID: id}
	return run, run.wait(ctx, c, statusPath(id), opts)
}

func (run *TaskRun[T]) wait(ctx context.Context, c *Client, path string, opts WaitOptions) error {
	onPoll := opts.OnPoll
	opts.OnPoll = func(st *TaskStatus) {
		run.Credits += st.Credits
		run.Polls++
		if onPoll != nil {
			onPoll(st)
		}
	}
	st, err := c.Wait(ctx, path, opts)
	if st != nil {
		run.Status = st
		var v T
		if derr := st.Decode(&v); derr != nil {
			return errors.Join(err, fmt.Errorf("client: %s: decode status: %w", path, derr))
		}
		run.Result = &v
	}
	if err != nil {
		if !errors.Is(err, ErrNotFinished) && ctx.Err() != nil {
			// The deadline came before the first status answer.
			return fmt.Errorf("%w: %s: %v", ErrNotFinished, path, err)
		}
		return err
	}
	switch st.Status {
	case "failed", "cancelled":
		var e struct {
			Error *ErrorInfo `json:"error"`
		}
		msg := ""
		if json.Unmarshal(st.Body, &e) == nil && e.Error != nil {
			msg = ": " + e.Error.Code + ": " + e.Error.Message
		}
		return fmt.Errorf("%w: task %s ended %s%s", ErrTaskFailed, run.ID, st.Status, msg)
	}
	return nil
}

// ResearchAndWait submits a research task and waits for it (RunTask).
func (c *Client) ResearchAndWait(ctx context.Context, req ProcessRequest, opts WaitOptions) (*TaskRun[GenerationTask], error) {
	return RunTask[GenerationTask](ctx, c, submitted(func(ctx context.Context) (*TaskSubmitted, *Response, error) { return c.Research(ctx, req) }), GenStatusPath, opts)
}

// ValidateICPAndWait submits an ICP validation and waits for it (RunTask).
func (c *Client) ValidateICPAndWait(ctx context.Context, req ValidateICPRequest, opts WaitOptions) (*TaskRun[GenerationTask], error) {
	return RunTask[GenerationTask](ctx, c, submitted(func(ctx context.Context) (*TaskSubmitted, *Response, error) { return c.ValidateICP(ctx, req) }), GenStatusPath, opts)
}

// GenerateContactsAndWait submits a contact generation and waits for it (RunTask).
func (c *Client) GenerateContactsAndWait(ctx context.Context, req GenerateRequest, opts WaitOptions) (*TaskRun[GenerationTask], error) {
	return RunTask[GenerationTask](ctx, c, submitted(func(ctx context.Context) (*TaskSubmitted, *Response, error) { return c.GenerateContacts(ctx, req) }), GenStatusPath, opts)
}

// BulkMatchAndWait uploads a bulk match and waits for its results (RunTask). The
// answer that delivers the results is the one charged: see run.Credits.
func (c *Client) BulkMatchAndWait(ctx context.Context, req BulkMatchRequest, opts WaitOptions) (*TaskRun[BulkMatchStatus], error) {
	return RunTask[BulkMatchStatus](ctx, c, func(ctx context.Context) (string, *Response, error) {
		ref, resp, err := c.BulkMatch(ctx, req)
		if err != nil {
			return "", resp, err
		}
		return ref.TaskID, resp, nil
	}, BulkMatchStatusPath, opts)
}

// SegmentAndWait submits a segmentation and waits for it (RunTask).
func (c *Client) SegmentAndWait(ctx context.Context, req SegmentRequest, opts WaitOptions) (*TaskRun[SegmentStatus], error) {
	return RunTask[SegmentStatus](ctx, c, func(ctx context.Context) (string, *Response, error) {
		ref, resp, err := c.Segment(ctx, req)
		if err != nil {
			return "", resp, err
		}
		return ref.TaskID, resp, nil
	}, SegmentStatusPath, opts)
}

func submitted(f func(context.Context) (*TaskSubmitted, *Response, error)) func(context.Context) (string, *Response, error) {
	return func(ctx context.Context) (string, *Response, error) {
		s, resp, err := f(ctx)
		if err != nil {
			return "", resp, err
		}
		return s.TaskID, resp, nil
	}
}
