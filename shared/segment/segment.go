// Package segment is segmentation (POST /v1/segment): a set of 5 to 10,000 company
// domains, from an upload, a list and saved queries, is clustered into described
// segments by HDBSCAN over the companies' profile embeddings and industry labels. It
// runs as a task of kind TaskKind on the task engine: one record does the whole set
// (clustering needs every point at once), reading the domains the submission stored
// and writing the assignments for the status route, which delivers and bills them.
package segment

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"sort"
	"strings"
	"time"

	"github.com/google/uuid"

	"github.com/firmoapi/firmo/shared/account"
	"github.com/firmoapi/firmo/shared/apperr"
	"github.com/firmoapi/firmo/shared/billing"
	"github.com/firmoapi/firmo/shared/company"
	"github.com/firmoapi/firmo/shared/domain"
	"github.com/firmoapi/firmo/shared/embed"
	"github.com/firmoapi/firmo/shared/kv"
	"github.com/firmoapi/firmo/shared/task"
)

// Limits of the API reference's segmentation.
const (
	MinDomains  = 5
	MaxDomains  = 10_000
	MinSegments = 2
	MaxSegments = 100
)

const (
	// TaskKind is the task engine kind of segmentation.
	TaskKind = "segment"
	// StatusRoute is the one route that reads segmentation tasks: it bills the results
	// it delivers, so no other status route may show them (task.Kind.StatusRoutes).
	StatusRoute = "GET /v1/segment/status/{task_id}"
	// Unclustered is the segment_description of segment -1.
	Unclustered = "UNCLUSTERED"
	// recordKey is the key of the task's one record.
	recordKey = "segment"
	// resultColumn is the task's one result column: the record's summary.
	resultColumn = "segmentation"
	// chunkBytes bounds one stored chunk of domains or assignments (a DynamoDB item
	// holds 400 KB).
	chunkBytes = 150_000
)

// Request is a segmentation request: its domain sources and the segment cap.
type Request struct {
	// File holds the values of the upload's domain column; values that are not domains
	// (a blank cell, a name) are skipped.
	File []string
	// Domains is the domains parameter; a value that is not a domain is a 422 naming it.
	Domains []string
	// QueryIDs are saved queries whose domains are unioned in, each up to MaxDomains.
	QueryIDs []string
	// MaxSegments caps the segments (MinSegments to MaxSegments); 0 is automatic.
	MaxSegments int
}

// Submitted is the answer of POST /v1/segment.
type Submitted struct {
	TaskID string `json:"task_id"`
}

// Queries reads saved queries' domains, scoped to the organisation (an unknown id, or
// another organisation's, is a not-found error naming it); query.Service implements it.
type Queries interface {
	Lists(ctx context.Context, orgID, id string) (domains []string, personaIDs []int64, err error)
}

// Companies reads company records; company.Store implements it.
type Companies interface {
	Get(ctx context.Context, domain string) (company.Record, error)
}

// Tasks is the part of the task engine segmentation uses; task.Engine implements it.
type Tasks interface {
	Submit(ctx context.Context, s task.Submission) (task.Submitted, error)
	Status(ctx context.Context, r task.Ref) (task.View, error)
	// RouteContext returns ctx carrying the route that submitted the task: the results,
	// delivered by a status request, are charged under it.
	RouteContext(ctx context.Context, r task.Ref) (context.Context, error)
}

// Charger bills delivered company records, under the route in ctx; billing.Service
// implements it.
type Charger interface {
	Charge(ctx context.Context, org account.Org, kind billing.Kind, records []string, requestID string) (billing.Charge, error)
}

// Deps are the services segmentation uses.
type Deps struct {
	Tasks     Tasks
	Store     kv.Store // the submission's domains, the assignments and the task marker
	Companies Companies
	Queries   Queries
	// Embedder places each company's profile text; the same embedder contact search
	// uses (shared/app/embedding).
	Embedder embed.Embedder
	Billing  Charger
}

// Service runs segmentations. Register its Kind on the task engine before tasks start.
type Service struct {
	d   Deps
	now func() time.Time
}

// New makes the segmentation service.
func New(d Deps) *Service { return &Service{d: d, now: time.Now} }

// Kind is the task kind to register on the engine. Its one record runs within the
// runtime's record timeout (75 s on AWS, 5 minutes locally): 10,000 companies take
// well under that on 2 cores (BENCHMARKS.md).
func (s *Service) Kind() task.Kind {
	return task.Kind{Name: TaskKind, Processor: processor{s}, Columns: []string{resultColumn},
		StatusRoutes: []string{StatusRoute}}
}

// params are the task's parameters: where the domains are and the segment cap.
type params struct {
	Job         string `json:"job"`
	Domains     int    `json:"domains"`
	Chunks      int    `json:"chunks"`
	MaxSegments int    `json:"max_segments"`
}

// marker is the item recording a segmentation task (partition "segment#<org>", sort
// key the task id). A task id without one is not a segmentation: its status is a 404.
type marker struct {
	Job       string    `json:"job"`
	Domains   int       `json:"domains"`
	CreatedAt time.Time `json:"created_at"`
	Billed    bool      `json:"billed"`
	Credits   int64     `json:"credits"`
	NetNew    int       `json:"net_new"`
}

func markerKey(r task.Ref) kv.Key { return kv.Key{PK: "segment#" + r.OrgID, SK: r.TaskID} }

// jobPK is the partition of a job's domains ("d#") and assignments ("a#") chunks.
func jobPK(job string) string { return "segmentjob#" + job }

// Submit unions the request's domains, stores them and starts the task.
func (s *Service) Submit(ctx context.Context, orgID string, req Request) (Submitted, error) {
	if req.MaxSegments != 0 && (req.MaxSegments < MinSegments || req.MaxSegments > MaxSegments) {
		return Submitted{}, apperr.Invalid("max_segments", "max_segments must be between %d and %d, not %d", MinSegments, MaxSegments, req.MaxSegments)
	}
	domains, err := s.union(ctx, orgID, req)
	if err != nil {
		return Submitted{}, err
	}
	job := uuid.NewString()
	chunks, err := s.writeChunks(ctx, jobPK(job), "d#", domains)
	if err != nil {
		return Submitted{}, err
	}
	p, _ := json.Marshal(params{Job: job, Domains: len(domains), Chunks: chunks, MaxSegments: req.MaxSegments})
	sub, err := s.d.Tasks.Submit(ctx, task.Submission{OrgID: orgID, Kind: TaskKind, Records: []task.Input{{Key: recordKey}}, Field: "domains", Params: p})
	if err != nil {
		return Submitted{}, err
	}
	m, _ := json.Marshal(marker{Job: job, Domains: len(domains), CreatedAt: s.now().UTC()})
	if _, err := s.d.Store.Put(ctx, markerKey(task.Ref{OrgID: orgID, TaskID: sub.TaskID}), m, kv.Cond{IfAbsent: true}); err != nil {
		return Submitted{}, fmt.Errorf("record segmentation task %s: %w", sub.TaskID, err)
	}
	return Submitted{TaskID: sub.TaskID}, nil
}

// union is the distinct normalized domains of every source, sorted (so the same set
// in any order is the same input). It holds MinDomains to MaxDomains domains or is a
// 422 saying how many it holds.
func (s *Service) union(ctx context.Context, orgID string, req Request) ([]string, error) {
	set := map[string]struct{}{}
	for _, v := range req.File {
		if d, err := domain.Normalize(v); err == nil {
			set[d] = struct{}{}
		}
	}
	for _, v := range req.Domains {
		d, err := domain.NormalizeField("domains", v)
		if err != nil {
			return nil, err
		}
		set[d] = struct{}{}
	}
	for _, id := range req.QueryIDs {
		ds, _, err := s.d.Queries.Lists(ctx, orgID, id)
		if err != nil {
			var ae *apperr.Error
			if errors.As(err, &ae) && ae.Field == "" {
				ae.Field = "query_id"
			}
			return nil, err
		}
		for _, d := range ds[:min(len(ds), MaxDomains)] {
			set[d] = struct{}{}
		}
	}
	if n := len(set); n < MinDomains || n > MaxDomains {
		return nil, apperr.Invalid(sourceField(req), "segmentation needs %d to %d distinct domains (file, domains and query_id together); these hold %d", MinDomains, MaxDomains, n)
	}
	out := make([]string, 0, len(set))
	for d := range set {
		out = append(out, d)
	}
	sort.Strings(out)
	return out, nil
}

// sourceField names the parameter a wrong domain count is blamed on: the only source
// given, else domains.
func sourceField(req Request) string {
	switch {
	case req.File != nil && len(req.Domains) == 0 && len(req.QueryIDs) == 0:
		return "file"
	case req.File == nil && len(req.Domains) == 0 && len(req.QueryIDs) > 0:
		return "query_id"
	}
	return "domains"
}

// writeChunks stores values as JSON arrays of at most chunkBytes each, under pk with
// sort keys prefix+index, and returns how many it wrote.
func (s *Service) writeChunks(ctx context.Context, pk, prefix string, values any) (int, error) {
	data, err := json.Marshal(values)
	if err != nil {
		return 0, err
	}
	var raw []json.RawMessage
	if err := json.Unmarshal(data, &raw); err != nil {
		return 0, err
	}
	n, start, size := 0, 0, 0
	flush := func(end int) error {
		b, _ := json.Marshal(raw[start:end])
		if _, err := s.d.Store.Put(ctx, kv.Key{PK: pk, SK: fmt.Sprintf("%s%05d", prefix, n)}, b, kv.Cond{}); err != nil {
			return fmt.Errorf("store segmentation chunk %d: %w", n, err)
		}
		n, start, size = n+1, end, 0
		return nil
	}
	for i, r := range raw {
		if size+len(r)+1 > chunkBytes && i > start {
			if err := flush(i); err != nil {
				return 0, err
			}
		}
		size += len(r) + 1
	}
	if start < len(raw) || n == 0 {
		if err := flush(len(raw)); err != nil {
			return 0, err
		}
	}
	return n, nil
}

// readChunks reads the values writeChunks stored under pk and prefix in want chunks.
func readChunks[T any](ctx context.Context, store kv.Store, pk, prefix string, want int) ([]T, error) {
	var out []T
	opts := kv.QueryOptions{Prefix: prefix, Limit: 20}
	read := 0
	for {
		page, err := store.Query(ctx, pk, opts)
		if err != nil {
			return nil, fmt.Errorf("read %s: %w", pk, err)
		}
		for _, it := range page.Items {
			var part []T
			if err := json.Unmarshal(it.Data, &part); err != nil {
				return nil, fmt.Errorf("decode %s %s: %w", pk, it.Key.SK, err)
			}
			out = append(out, part...)
			read++
		}
		if page.Next == "" {
			break
		}
		opts.Cursor = page.Next
	}
	if read != want {
		return nil, fmt.Errorf("read %s: %d chunks, want %d", pk, read, want)
	}
	return out, nil
}

// ---- the status ----

// Status is the answer of GET /v1/segment/status/{task_id}.
type Status struct {
	TaskID   string      `json:"task_id"`
	Status   task.Status `json:"status"`
	Progress int         `json:"progress"`
	// TotalDomains is the distinct domains submitted.
	TotalDomains int `json:"total_domains"`
	// Segments is the number of segments found (segment -1 not counted).
	Segments int `json:"segments"`
	// OmittedClosed and OmittedUnindexed count the submitted domains left out of the
	// results: closed companies, and domains Firmo holds no company for.
	OmittedClosed    int               `json:"omitted_closed"`
	OmittedUnindexed int               `json:"omitted_unindexed"`
	Results          []json.RawMessage `json:"results"`
	Error            *task.TaskError   `json:"error,omitempty"`
	// Credits is what delivering the results charged now (X-Credits-Charged).
	Credits int64 `json:"-"`
	// Page says which results Results holds (Paged); absent before results are delivered.
	Page *task.PageInfo `json:"page,omitempty"`
}

// summary is the record's result: what the clustering found, where its assignments are.
type summary struct {
	Segments   []Segment `json:"segments"`
	Assigned   int       `json:"assigned"`
	Chunks     int       `json:"chunks"`
	Closed     int       `json:"closed"`
	Unindexed  int       `json:"unindexed"`
	Dimensions int       `json:"dimensions"`
}

// Segment is one segment of a result: its id, label and size.
type Segment struct {
	ID          int    `json:"id"`
	Description string `json:"description"`
	Size        int    `json:"size"`
}

// assignment is one company's place: domain, segment (-1 unclustered), probability.
type assignment struct {
	Domain      string  `json:"d"`
	Segment     int     `json:"s"`
	Probability float64 `json:"p"`
}

// Status answers a segmentation task's status. Results are delivered, and billed, once
// the task has completed: every delivered company is a company record (net-new per 90
// days, one charge per task, at the plan's rate). A short balance is a 402 and delivers
// nothing; the results stay and are billed once the balance allows.
func (s *Service) Status(ctx context.Context, org account.Org, taskID string) (Status, error) {
	ref := task.Ref{OrgID: org.ID, TaskID: taskID}
	it, err := s.d.Store.Get(ctx, markerKey(ref))
	if errors.Is(err, apperr.ErrNotFound) {
		return Status{}, &apperr.Error{Kind: apperr.ErrNotFound, Field: "task_id", Message: fmt.Sprintf("Segmentation task %s was not found.", taskID)}
	}
	if err != nil {
		return Status{}, err
	}
	var mk marker
	if err := json.Unmarshal(it.Data, &mk); err != nil {
		return Status{}, fmt.Errorf("decode segmentation task %s: %w", taskID, err)
	}
	v, err := s.d.Tasks.Status(ctx, ref)
	if err != nil {
		return Status{}, err
	}
	st := Status{TaskID: v.TaskID, Status: v.Status, Progress: v.Progress, TotalDomains: mk.Domains, Results: []json.RawMessage{}, Error: v.Error}
	if !v.Status.Terminal() {
		return st, nil
	}
	sum, failure := recordSummary(v.Results)
	if failure != "" {
		st.Status = task.StatusFailed
		if st.Error == nil {
			st.Error = &task.TaskError{Code: "segmentation_failed", Message: failure}
		}
		return st, nil
	}
	if v.Status != task.StatusCompleted {
		return st, nil
	}
	st.Segments, st.OmittedClosed, st.OmittedUnindexed = len(sum.Segments), sum.Closed, sum.Unindexed
	assigned, err := readChunks[assignment](ctx, s.d.Store, jobPK(mk.Job), "a#", sum.Chunks)
	if err != nil {
		return Status{}, err
	}
	rows, domains, err := s.rows(ctx, sum, assigned)
	if err != nil {
		return Status{}, err
	}
	if !mk.Billed {
		credits, err := s.billOnce(ctx, org, ref, it.Version, mk, domains)
		if err != nil {
			return Status{}, err
		}
		st.Credits = credits
	}
	st.Results = rows
	return st, nil
}

// recordSummary reads the record's summary; failure is the record's error cell when
// the engine gave up on it.
func recordSummary(results map[string]json.RawMessage) (summary, string) {
	var cells map[string]json.RawMessage
	if err := json.Unmarshal(results[recordKey], &cells); err != nil {
		return summary{}, "the segmentation produced no result"
	}
	var sum summary
	if err := json.Unmarshal(cells[resultColumn], &sum); err != nil {
		var msg string
		if json.Unmarshal(cells[resultColumn], &msg) == nil && msg != "" {
			return summary{}, msg
		}
		return summary{}, "the segmentation produced no result"
	}
	return sum, ""
}

// rows are the result items, by segment (-1 last), most probable first, then domain;
// a company closed or gone since the clustering is left out.
func (s *Service) rows(ctx context.Context, sum summary, assigned []assignment) ([]json.RawMessage, []string, error) {
	desc := map[int]string{-1: Unclustered}
	for _, sg := range sum.Segments {
		desc[sg.ID] = sg.Description
	}
	sort.SliceStable(assigned, func(i, j int) bool {
		a, b := assigned[i], assigned[j]
		if a.Segment != b.Segment {
			if a.Segment < 0 || b.Segment < 0 {
				return b.Segment < 0
			}
			return a.Segment < b.Segment
		}
		if a.Probability != b.Probability {
			return a.Probability > b.Probability
		}
		return a.Domain < b.Domain
	})
	doms := make([]string, len(assigned))
	for i, a := range assigned {
		doms[i] = a.Domain
	}
	recs, err := loadRecords(ctx, s.d.Companies, doms)
	if err != nil {
		return nil, nil, err
	}
	out := make([]json.RawMessage, 0, len(assigned))
	var delivered []string
	for i, a := range assigned {
		rec := recs[i]
		if rec == nil || rec.Profile.Status.Status == company.StatusClosed {
			continue
		}
		row, err := resultItem(rec.Profile, a, desc[a.Segment])
		if err != nil {
			return nil, nil, err
		}
		out = append(out, row)
		delivered = append(delivered, a.Domain)
	}
	return out, delivered, nil
}

// resultItem is the profile's fields, then segment_id, segment_description and
// probability.
func resultItem(p company.Profile, a assignment, description string) (json.RawMessage, error) {
	prof, err := p.MarshalJSON()
	if err != nil {
		return nil, err
	}
	extra, err := json.Marshal(struct {
		SegmentID          int     `json:"segment_id"`
		SegmentDescription string  `json:"segment_description"`
		Probability        float64 `json:"probability"`
	}{a.Segment, description, a.Probability})
	if err != nil {
		return nil, err
	}
	var b strings.Builder
	b.Grow(len(prof) + len(extra))
	b.Write(prof[:len(prof)-1])
	b.WriteByte(',')
	b.Write(extra[1:])
	return json.RawMessage(b.String()), nil
}

// billOnce charges the delivered companies of an ended task and marks the task billed.
// A retry (or a concurrent poll) repeats the same charge id, which billing answers once.
func (s *Service) billOnce(ctx context.Context, org account.Org, ref task.Ref, version int64, mk marker, domains []string) (int64, error) {
	var ch billing.Charge
	if len(domains) > 0 {
		// The results are the submission's delivery: charged under the route that
		// submitted the task, not the status route that happens to deliver them.
		ctx, err := s.d.Tasks.RouteContext(ctx, ref)
		if err != nil {
			return 0, err
		}
		ch, err = s.d.Billing.Charge(ctx, org, billing.KindCompany, domains, "segment-"+ref.TaskID)
		if err != nil {
			return 0, err
		}
	}
	mk.Billed, mk.Credits, mk.NetNew = true, ch.Credits, ch.NetNew
	data, _ := json.Marshal(mk)
	_, err := s.d.Store.Put(ctx, markerKey(ref), data, kv.Cond{IfVersion: version})
	if errors.Is(err, apperr.ErrConflict) {
		return 0, nil // another poll marked it first; the charge was the same one
	}
	if err != nil {
		return 0, fmt.Errorf("mark segmentation task %s billed: %w", ref.TaskID, err)
	}
	return ch.Credits, nil
}

// Paged keeps one page of the results (task.Slice: offset and limit over the results
// in order, cut at task.PageBytes); the rest of the answer is unchanged. Billing is
// done on the whole results before (Status), never per page.
func (s Status) Paged(p task.Page) Status {
	if len(s.Results) == 0 && s.Status != task.StatusCompleted {
		return s
	}
	from, to, next := task.Slice(len(s.Results), p, func(i int) int { return len(s.Results[i]) + 1 })
	s.Results = s.Results[from:to]
	s.Page = task.Info(p, to-from, next)
	return s
}
