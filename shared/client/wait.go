package client

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/url"
	"strconv"
	"time"
)

// ErrNotFinished is returned by Wait (wrapped) when its context ends before the task
// finishes; the interim status answer is returned with it.
var ErrNotFinished = errors.New("client: task not finished")

// TaskStatus is one answer of a task's status route.
type TaskStatus struct {
	// Status is the task's status: in_progress, cancelling, completed, failed or
	// cancelled (the email batch route has none: Wait reports in_progress until
	// completed plus failed equals total, then completed).
	Status string
	// Progress is the answer's progress field (0 when absent).
	Progress float64
	// Done and Total count records when the answer says: email batches, completed
	// plus failed of total; answers with total_rows (bulk match) or total_domains
	// (segmentation, research, ICP validation, contact generation), Done is Progress
	// percent of that total, rounded. Both 0 otherwise.
	Done, Total int
	// Body is the whole answer; decode it with Decode.
	Body json.RawMessage
	// Credits is what this poll was charged (X-Credits-Charged).
	Credits int64
}

// Finished reports whether the task will not change any more.
func (s *TaskStatus) Finished() bool {
	switch s.Status {
	case "completed", "failed", "cancelled":
		return true
	}
	return false
}

// Decode decodes the whole answer into v.
func (s *TaskStatus) Decode(v any) error { return json.Unmarshal(s.Body, v) }

// WaitOptions tunes Wait.
type WaitOptions struct {
	// Interval is the first wait between polls (default 1 s); it grows by half after
	// each poll that shows no progress, up to MaxInterval (default 15 s).
	Interval, MaxInterval time.Duration
	// OnPoll, when set, is called with every status answer (a progress display, say).
	OnPoll func(*TaskStatus)
}

// Poll reads a task's status once from statusPath (such as
// /v1/segment/status/<task id>).
func (c *Client) Poll(ctx context.Context, statusPath string) (*TaskStatus, error) {
	resp, err := c.Do(ctx, Call{Method: "GET", Path: statusPath})
	if err != nil {
		return nil, err
	}
	var head struct {
		Status    string   `json:"status"`
		Progress  *float64 `json:"progress"`
		Total     *int     `json:"total"`
		Completed *int     `json:"completed"`
		Failed    *int     `json:"failed"`
		// TotalRows (bulk match) and TotalDomains (the other tasks) size a task whose
		// answer has a progress percentage.
		TotalRows    *int `json:"total_rows"`
		TotalDomains *int `json:"total_domains"`
	}
	if err := json.Unmarshal(resp.Body, &head); err != nil {
		return nil, fmt.Errorf("client: %s: decode status: %w", statusPath, err)
	}
	st := &TaskStatus{Status: head.Status, Body: resp.Body, Credits: resp.Credits}
	if head.Progress != nil {
		st.Progress = *head.Progress
	}
	if head.Total != nil && head.Completed != nil {
		st.Total = *head.Total
		st.Done = *head.Completed
		if head.Failed != nil {
			st.Done += *head.Failed
		}
		if st.Status == "" {
			st.Status = "in_progress"
			if st.Done >= st.Total {
				st.Status = "completed"
			}
		}
		if st.Progress == 0 && st.Total > 0 {
			st.Progress = 100 * float64(st.Done) / float64(st.Total)
		}
	}
	if st.Total == 0 && head.Progress != nil {
		for _, n := range []*int{head.TotalRows, head.TotalDomains} {
			if n != nil && *n > 0 {
				st.Total = *n
				st.Done = min(int(st.Progress*float64(st.Total)/100+0.5), st.Total)
				break
			}
		}
	}
	if st.Status == "" {
		return nil, fmt.Errorf("client: %s: the answer has no status", statusPath)
	}
	return st, nil
}

// Wait polls statusPath until the task finishes and returns its last answer. When ctx
// ends first, it returns the last (interim) answer with an error wrapping
// ErrNotFinished; a poll that fails for another reason (after the client's retries)
// is returned as that error.
func (c *Client) Wait(ctx context.Context, statusPath string, opts WaitOptions) (*TaskStatus, error) {
	interval := opts.Interval
	if interval <= 0 {
		interval = time.Second
	}
	maxInterval := opts.MaxInterval
	if maxInterval <= 0 {
		maxInterval = 15 * time.Second
	}
	var last *TaskStatus
	for {
		st, err := c.Poll(ctx, statusPath)
		if err != nil {
			if last != nil && ctx.Err() != nil {
				return last, fmt.Errorf("%w: %s is %s at %.0f%%: %v", ErrNotFinished, statusPath, last.Status, last.Progress, ctx.Err())
			}
			return last, err
		}
		if opts.OnPoll != nil {
			opts.OnPoll(st)
		}
		if st.Finished() {
			return c.restOfPages(ctx, statusPath, st)
		}
		if last != nil && st.Progress == last.Progress && st.Done == last.Done {
			interval = min(interval*3/2, maxInterval)
		}
		last = st
		if err := c.sleep(ctx, interval); err != nil {
			return last, fmt.Errorf("%w: %s is %s at %.0f%%: %v", ErrNotFinished, statusPath, last.Status, last.Progress, err)
		}
	}
}

// restOfPages completes an ended task's answer whose results are paged (its page has a
// next_offset): it reads the following pages and folds their results into Body (an
// object's keys merged, an array's items appended), so callers see every result;
// Body's page then covers them all. Credits add up.
func (c *Client) restOfPages(ctx context.Context, statusPath string, st *TaskStatus) (*TaskStatus, error) {
	var body map[string]json.RawMessage
	if json.Unmarshal(st.Body, &body) != nil {
		return st, nil
	}
	type page struct {
		Offset     int  `json:"offset"`
		Limit      int  `json:"limit"`
		Returned   int  `json:"returned"`
		NextOffset *int `json:"next_offset"`
	}
	var pg page
	if json.Unmarshal(body["page"], &pg) != nil || pg.NextOffset == nil {
		return st, nil
	}
	var asMap map[string]json.RawMessage
	var asList []json.RawMessage
	isMap := json.Unmarshal(body["results"], &asMap) == nil
	if !isMap && json.Unmarshal(body["results"], &asList) != nil {
		return st, nil
	}
	for pg.NextOffset != nil {
		resp, err := c.Do(ctx, Call{Method: "GET", Path: statusPath, Query: url.Values{"offset": {strconv.Itoa(*pg.NextOffset)}, "limit": {strconv.Itoa(pg.Limit)}}})
		if err != nil {
			return st, err
		}
		st.Credits += resp.Credits
		var next struct {
			Results json.RawMessage `json:"results"`
			Page    page            `json:"page"`
		}
		if err := json.Unmarshal(resp.Body, &next); err != nil {
			return st, fmt.Errorf("client: %s: decode results page: %w", statusPath, err)
		}
		if isMap {
			var m map[string]json.RawMessage
			json.Unmarshal(next.Results, &m)
			for k, v := range m {
				asMap[k] = v
			}
		} else {
			var l []json.RawMessage
			json.Unmarshal(next.Results, &l)
			asList = append(asList, l...)
		}
		pg.NextOffset = next.Page.NextOffset
	}
	var all []byte
	if isMap {
		all, _ = json.Marshal(asMap)
		pg.Returned = len(asMap)
	} else {
		all, _ = json.Marshal(asList)
		pg.Returned = len(asList)
	}
	body["results"] = all
	body["page"], _ = json.Marshal(page{Offset: pg.Offset, Limit: pg.Limit, Returned: pg.Returned})
	b, err := json.Marshal(body)
	if err != nil {
		return st, err
	}
	st.Body = b
	return st, nil
}
