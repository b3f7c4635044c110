package emailfind

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"strconv"
	"strings"
	"sync"
	"time"
	"unicode/utf8"

	"github.com/google/uuid"

	"github.com/firmoapi/firmo/shared/account"
	"github.com/firmoapi/firmo/shared/apperr"
	"github.com/firmoapi/firmo/shared/billing"
	"github.com/firmoapi/firmo/shared/domain"
	"github.com/firmoapi/firmo/shared/emailpattern"
	"github.com/firmoapi/firmo/shared/kv"
	"github.com/firmoapi/firmo/shared/smtpverify"
	"github.com/firmoapi/firmo/shared/task"
)

// TaskKind is the task engine kind that runs email jobs; Provider is its lane.
const (
	TaskKind = "email_find"
	Provider = "smtp"
	column   = "result"
)

// The routes that read email jobs, and the only ones that read their task
// (task.Kind.StatusRoutes): GET /v1/gen/status does not show an email batch.
const (
	JobRoute          = "GET /v1/email/jobs/{job_id}"
	BatchResultsRoute = "GET /v1/email/batch/{batch_id}/results"
)

// MaxBatch is the largest batch (spec: 1-500 requests).
const MaxBatch = 500

// Job statuses.
const (
	JobQueued     = "queued"
	JobProcessing = "processing"
	JobCompleted  = "completed"
	JobFailed     = "failed"
)

// Tasks is the part of the task engine the jobs use; task.Engine implements it.
type Tasks interface {
	Submit(ctx context.Context, s task.Submission) (task.Submitted, error)
	Status(ctx context.Context, r task.Ref) (task.View, error)
	Cancel(ctx context.Context, r task.Ref) (task.Cancellation, error)
	Kinds() *task.Registry
}

// Biller charges found emails, under the route in ctx (the task engine puts the
// submitting route there), at the exact per-record rate on the job's task tab (a batch
// of jobs is one task, priced like one request); billing.Service implements it.
type Biller interface {
	Accrue(ctx context.Context, org account.Org, kind billing.Kind, taskID string, records ...string) error
}

// Orgs reads an organisation (its plan prices the charge); account.Service implements it.
type Orgs interface {
	GetOrg(ctx context.Context, id string) (account.Org, error)
}

// Service runs email jobs on the task engine: a batch is one task whose records are
// its jobs, keyed by job id.
//
// Storage (partition / sort key), beside the task's own items:
//
//	emailbatch#<org> / <batch id>        the batch (round, source query, chunk count);
//	                                     counters "p<i>": job i started processing
//	emailbatch#<org> / <batch id>#<nn>   chunk nn: jobs 100*nn.. in order (id, names, domain, ref)
//	emailjob#<org>   / <job id>          which batch and position a job is
//
// The batch id is the task id. The items are written after the task is stored, the
// batch's document last, so the ids the caller receives always resolve; when they
// cannot be written the task is cancelled, what was written is removed and the
// submission refused. Only found addresses bill (billing.KindEmail,
// deduplicated per organisation for 90 days); the charge is made when the job
// completes, with the job id as request id, so a retried job never bills twice.
type Service struct {
	store  kv.Store
	tasks  Tasks
	finder *Finder
	bill   Biller
	orgs   Orgs
	seen   SeenRecorder
	log    *slog.Logger
	now    func() time.Time
}

// SeenRecorder keeps the addresses the finder proves, as evidence of their company's
// pattern (shared/patternbook).
type SeenRecorder interface {
	Record(ctx context.Context, o emailpattern.Observation) error
}

// ServiceDeps are the services the email jobs use.
type ServiceDeps struct {
	// Store holds the batch, chunk and job items (see Service).
	Store kv.Store
	// Tasks runs the jobs; the email_find kind is registered on it.
	Tasks Tasks
	// Finder finds each job's address; its escalate budget sets the record deadline.
	Finder *Finder
	// Billing charges the found addresses.
	Billing Biller
	// Orgs reads the organisation whose plan prices a charge.
	Orgs Orgs
	// Seen, when set, records every found address with the person's name (source
	// "found:<job id>"), so the company's learned pattern counts it.
	Seen SeenRecorder
	// Log receives the failures no caller sees (an abandoned batch's cleanup, a lost
	// progress mark); nil discards them.
	Log *slog.Logger
}

// NewService makes the service and registers the email_find kind on the engine.
func NewService(d ServiceDeps) (*Service, error) {
	if d.Log == nil {
		d.Log = slog.New(slog.DiscardHandler)
	}
	s := &Service{store: d.Store, tasks: d.Tasks, finder: d.Finder, bill: d.Billing, orgs: d.Orgs, seen: d.Seen, log: d.Log, now: time.Now}
	err := d.Tasks.Kinds().Register(task.Kind{
		Name: TaskKind, Processor: processor{s}, Columns: []string{column},
		// A batch is read as jobs (Job, Batch), never as a raw task.
		StatusRoutes: []string{JobRoute, BatchResultsRoute},
		// The record deadline leaves the find its whole budget plus the billing call,
		// and stays within the AWS worker's 300 s with the default budgets.
		Timeout: d.Finder.Budget(RoundEscalate) + 30*time.Second,
	})
	if err != nil {
		return nil, err
	}
	return s, nil
}

// Finder is the service's finder, for callers that find one address synchronously.
func (s *Service) Finder() *Finder { return s.finder }

// Batch is a submission of one or more people.
type Batch struct {
	Requests      []Request
	SourceQueryID string
	Refs          []string // contact row ids aligned with Requests; needs SourceQueryID
	Round         Round
	// Single marks the find of one person (POST /v1/email/find), whose body holds the
	// request's fields at the top: errors name them bare ("last_name", not
	// "requests[0].last_name").
	Single bool
}

// Submitted is the answer to a batch submission.
type Submitted struct {
	BatchID string   `json:"batch_id"`
	JobIDs  []string `json:"job_ids"`
	Total   int      `json:"total"`
}

// Field limits of a request.
const (
	maxNameRunes    = 100
	maxPatternRunes = 100
	maxRefBytes     = 200
)

// CheckRequest validates and normalizes one request. field prefixes the names of
// offending fields ("requests[3]."); the error is a 422 naming the field.
func CheckRequest(field string, r Request) (Request, error) {
	out := Request{FirstName: strings.TrimSpace(r.FirstName), LastName: strings.TrimSpace(r.LastName)}
	for _, f := range []struct{ name, v string }{{"first_name", out.FirstName}, {"last_name", out.LastName}} {
		switch {
		case f.v == "":
			return Request{}, apperr.Invalid(field+f.name, "%s is required", f.name)
		case utf8.RuneCountInString(f.v) > maxNameRunes:
			return Request{}, apperr.Invalid(field+f.name, "%s must be at most %d characters", f.name, maxNameRunes)
		case emailpattern.Fold(f.v) == "":
			return Request{}, apperr.Invalid(field+f.name, "%s %q has no Latin letters or digits to build an address from", f.name, f.v)
		}
	}
	if strings.TrimSpace(r.Domain) == "" {
		return Request{}, apperr.Invalid(field+"domain", "domain is required")
	}
	d, err := domain.Host(r.Domain)
	if err != nil {
		return Request{}, apperr.Invalid(field+"domain", "%q is not a domain name", r.Domain)
	}
	out.Domain = d
	if kp := strings.TrimSpace(r.KnownPattern); kp != "" {
		if utf8.RuneCountInString(kp) > maxPatternRunes {
			return Request{}, apperr.Invalid(field+"known_pattern", "known_pattern must be at most %d characters", maxPatternRunes)
		}
		t, err := emailpattern.ParseTemplate(field+"known_pattern", kp)
		if err != nil {
			return Request{}, err
		}
		out.KnownPattern = string(t)
	}
	return out, nil
}

// jobInput is a record's input: the checked request.
type jobInput struct {
	Request
}

// jobParams are the task's parameters.
type jobParams struct {
	Round         Round  `json:"round"`
	SourceQueryID string `json:"source_query_id,omitempty"`
}

// batchDoc is a batch: its meta item holds everything but Jobs, which are stored in
// chunk items of jobsPerChunk.
type batchDoc struct {
	Jobs          []batchJob `json:"jobs,omitempty"`
	Round         Round      `json:"round"`
	SourceQueryID string     `json:"source_query_id,omitempty"`
	CreatedAt     time.Time  `json:"created_at"`
	Chunks        int        `json:"chunks"`
}

// jobsPerChunk bounds a chunk item: 100 jobs of at most about 1.5 KB each (names,
// domain, pattern and ref at their limits) stay well below DynamoDB's 400 KB items.
const jobsPerChunk = 100

type chunkDoc struct {
	Jobs []batchJob `json:"jobs"`
}

type batchJob struct {
	JobID string `json:"job_id"`
	Request
	Ref string `json:"ref,omitempty"`
}

type jobDoc struct {
	BatchID string `json:"batch_id"`
	Index   int    `json:"index"`
}

func batchKey(orgID, batchID string) kv.Key { return kv.Key{PK: "emailbatch#" + orgID, SK: batchID} }
func chunkKey(orgID, batchID string, i int) kv.Key {
	return kv.Key{PK: "emailbatch#" + orgID, SK: fmt.Sprintf("%s#%02d", batchID, i)}
}
func jobKey(orgID, jobID string) kv.Key { return kv.Key{PK: "emailjob#" + orgID, SK: jobID} }
func startedCounter(i int) string       { return "p" + strconv.Itoa(i) }

// Submit validates a batch, stores its task and its jobs, and returns their ids.
func (s *Service) Submit(ctx context.Context, orgID string, b Batch) (Submitted, error) {
	if len(b.Requests) == 0 || len(b.Requests) > MaxBatch {
		return Submitted{}, apperr.Invalid("requests", "give 1 to %d requests; got %d", MaxBatch, len(b.Requests))
	}
	if b.Round == "" {
		b.Round = RoundVerify
	}
	if b.Round != RoundVerify && b.Round != RoundEscalate {
		return Submitted{}, apperr.Invalid("round", "round must be verify or escalate, not %q", b.Round)
	}
	b.SourceQueryID = strings.TrimSpace(b.SourceQueryID)
	if len(b.SourceQueryID) > maxRefBytes {
		return Submitted{}, apperr.Invalid("source_query_id", "source_query_id must be at most %d bytes", maxRefBytes)
	}
	if b.Refs != nil {
		if b.SourceQueryID == "" {
			return Submitted{}, apperr.Invalid("refs", "refs require source_query_id")
		}
		if len(b.Refs) != len(b.Requests) {
			return Submitted{}, apperr.Invalid("refs", "refs must align with requests: %d refs for %d requests", len(b.Refs), len(b.Requests))
		}
		for i, ref := range b.Refs {
			if strings.TrimSpace(ref) == "" || len(ref) > maxRefBytes {
				return Submitted{}, apperr.Invalid(fmt.Sprintf("refs[%d]", i), "a ref must be a non-empty id of at most %d bytes", maxRefBytes)
			}
		}
	}
	doc := batchDoc{Round: b.Round, SourceQueryID: b.SourceQueryID, CreatedAt: s.now().UTC()}
	records := make([]task.Input, len(b.Requests))
	ids := make([]string, len(b.Requests))
	for i, r := range b.Requests {
		field := "requests[" + strconv.Itoa(i) + "]."
		if b.Single {
			field = ""
		}
		req, err := CheckRequest(field, r)
		if err != nil {
			return Submitted{}, err
		}
		ids[i] = uuid.NewString()
		in, _ := json.Marshal(jobInput{req})
		records[i] = task.Input{Key: ids[i], Data: in}
		j := batchJob{JobID: ids[i], Request: req}
		if b.Refs != nil {
			j.Ref = strings.TrimSpace(b.Refs[i])
		}
		doc.Jobs = append(doc.Jobs, j)
	}
	params, _ := json.Marshal(jobParams{Round: b.Round, SourceQueryID: b.SourceQueryID})
	sub, err := s.tasks.Submit(ctx, task.Submission{OrgID: orgID, Kind: TaskKind, Records: records, Field: "requests", Params: params})
	if err != nil {
		return Submitted{}, err
	}
	if err := s.index(ctx, orgID, sub.TaskID, doc); err != nil {
		s.abandon(orgID, sub.TaskID, doc)
		return Submitted{}, fmt.Errorf("store email batch %s: %w", sub.TaskID, err)
	}
	return Submitted{BatchID: sub.TaskID, JobIDs: ids, Total: len(ids)}, nil
}

// index writes the chunk items and one item per job, then the batch's meta item,
// whose document marks the batch complete.
func (s *Service) index(ctx context.Context, orgID, batchID string, doc batchDoc) error {
	chunks := splitJobs(doc.Jobs)
	errs := make([]error, len(chunks))
	var wg sync.WaitGroup
	for i, c := range chunks {
		wg.Add(1)
		go func() {
			defer wg.Done()
			raw, err := json.Marshal(chunkDoc{Jobs: c})
			if err == nil {
				_, err = s.store.Put(ctx, chunkKey(orgID, batchID, i), raw, kv.Cond{IfAbsent: true})
			}
			errs[i] = err
		}()
	}
	wg.Wait()
	if err := errors.Join(errs...); err != nil {
		return err
	}
	err := s.eachJob(ctx, doc, func(i int, j batchJob) error {
		raw, _ := json.Marshal(jobDoc{BatchID: batchID, Index: i})
		_, err := s.store.Put(ctx, jobKey(orgID, j.JobID), raw, kv.Cond{IfAbsent: true})
		return err
	})
	if err != nil {
		return err
	}
	meta := doc
	meta.Jobs, meta.Chunks = nil, len(chunks)
	raw, err := json.Marshal(meta)
	if err != nil {
		return err
	}
	_, err = s.store.Put(ctx, batchKey(orgID, batchID), raw, kv.Cond{IfAbsent: true})
	return err
}

func splitJobs(jobs []batchJob) [][]batchJob {
	var out [][]batchJob
	for len(jobs) > jobsPerChunk {
		out = append(out, jobs[:jobsPerChunk])
		jobs = jobs[jobsPerChunk:]
	}
	return append(out, jobs)
}

// abandon undoes a submission whose jobs could not be stored: the task is cancelled
// and whatever was written is removed. It runs even when the caller's context is done.
func (s *Service) abandon(orgID, batchID string, doc batchDoc) {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	if _, err := s.tasks.Cancel(ctx, task.Ref{OrgID: orgID, TaskID: batchID}); err != nil {
		s.log.Error("cancel abandoned email batch", "batch", batchID, "err", err)
	}
	err := s.eachJob(ctx, doc, func(_ int, j batchJob) error {
		return s.store.Delete(ctx, jobKey(orgID, j.JobID), kv.Cond{})
	})
	for i := range splitJobs(doc.Jobs) {
		err = errors.Join(err, s.store.Delete(ctx, chunkKey(orgID, batchID, i), kv.Cond{}))
	}
	if err = errors.Join(err, s.store.Delete(ctx, batchKey(orgID, batchID), kv.Cond{})); err != nil {
		s.log.Error("remove abandoned email batch", "batch", batchID, "err", err)
	}
}

// eachJob runs fn over the jobs, 16 at a time (each write is a round trip on DynamoDB).
func (s *Service) eachJob(ctx context.Context, doc batchDoc, fn func(int, batchJob) error) error {
	errs := make([]error, len(doc.Jobs))
	sem := make(chan struct{}, 16)
	var wg sync.WaitGroup
	for i, j := range doc.Jobs {
		wg.Add(1)
		sem <- struct{}{}
		go func() {
			defer func() { <-sem; wg.Done() }()
			errs[i] = fn(i, j)
		}()
	}
	wg.Wait()
	return errors.Join(errs...)
}

// Job is a job as the API shows it.
type Job struct {
	JobID  string    `json:"job_id"`
	Status string    `json:"status"`
	Kind   string    `json:"kind"`
	Result *Result   `json:"result"`
	Error  *JobError `json:"error,omitempty"`
}

// JobError is why a job failed (the job, not the address: an address that could not
// be verified is a completed job with a status such as timeout).
type JobError struct {
	Code    string `json:"code"`
	Message string `json:"message"`
}

// BatchView is the answer of GET /v1/email/batch/{batch_id}/results.
type BatchView struct {
	BatchID   string `json:"batch_id"`
	Total     int    `json:"total"`
	Completed int    `json:"completed"`
	Failed    int    `json:"failed"`
	Results   []Job  `json:"results"`
}

// row is a job's answer in its task row.
type row struct {
	Result *Result   `json:"result"`
	Error  *JobError `json:"error,omitempty"`
}

// Batch returns a batch and all its jobs. Another organisation's batch is not found.
func (s *Service) Batch(ctx context.Context, orgID, batchID string) (BatchView, error) {
	doc, started, err := s.batch(ctx, orgID, batchID)
	if err != nil {
		return BatchView{}, err
	}
	v, err := s.tasks.Status(ctx, task.Ref{OrgID: orgID, TaskID: batchID})
	if err != nil {
		return BatchView{}, err
	}
	out := BatchView{BatchID: batchID, Total: len(doc.Jobs), Results: make([]Job, len(doc.Jobs))}
	for i, j := range doc.Jobs {
		out.Results[i] = jobView(j, i, v, started)
		switch out.Results[i].Status {
		case JobCompleted:
			out.Completed++
		case JobFailed:
			out.Failed++
		}
	}
	return out, nil
}

// Job returns one job. Another organisation's job is not found.
func (s *Service) Job(ctx context.Context, orgID, jobID string) (Job, error) {
	var jd jobDoc
	it, err := s.store.Get(ctx, jobKey(orgID, jobID))
	if errors.Is(err, apperr.ErrNotFound) {
		return Job{}, jobNotFound(jobID)
	}
	if err != nil {
		return Job{}, err
	}
	if err := json.Unmarshal(it.Data, &jd); err != nil {
		return Job{}, fmt.Errorf("read email job %s: %w", jobID, err)
	}
	doc, started, err := s.batch(ctx, orgID, jd.BatchID)
	if err != nil {
		return Job{}, err
	}
	if jd.Index < 0 || jd.Index >= len(doc.Jobs) {
		return Job{}, fmt.Errorf("email job %s: index %d outside batch %s: %w", jobID, jd.Index, jd.BatchID, apperr.ErrInternal)
	}
	v, err := s.tasks.Status(ctx, task.Ref{OrgID: orgID, TaskID: jd.BatchID})
	if err != nil {
		return Job{}, err
	}
	return jobView(doc.Jobs[jd.Index], jd.Index, v, started), nil
}

func jobNotFound(id string) error {
	return &apperr.Error{Kind: apperr.ErrNotFound, Message: fmt.Sprintf("Email job %s was not found.", id), Field: "job_id"}
}

// batch reads a batch: its meta item (with the processing counters) and its chunks,
// one query over the batch's items in sort-key order.
func (s *Service) batch(ctx context.Context, orgID, batchID string) (batchDoc, map[string]int64, error) {
	var doc batchDoc
	notFound := &apperr.Error{Kind: apperr.ErrNotFound, Message: fmt.Sprintf("Email batch %s was not found.", batchID), Field: "batch_id"}
	var items []kv.Item
	opts := kv.QueryOptions{Prefix: batchID, Limit: 100}
	for {
		page, err := s.store.Query(ctx, batchKey(orgID, batchID).PK, opts)
		if err != nil {
			return doc, nil, err
		}
		items = append(items, page.Items...)
		if page.Next == "" {
			break
		}
		opts.Cursor = page.Next
	}
	// A meta item with counters only: a job started before Submit finished storing
	// the batch, which is being stored or was abandoned.
	if len(items) == 0 || items[0].SK != batchID || items[0].Data == nil {
		return doc, nil, notFound
	}
	if err := json.Unmarshal(items[0].Data, &doc); err != nil {
		return doc, nil, fmt.Errorf("read email batch %s: %w", batchID, err)
	}
	if len(items)-1 != doc.Chunks {
		return doc, nil, fmt.Errorf("email batch %s has %d of %d chunks: %w", batchID, len(items)-1, doc.Chunks, apperr.ErrInternal)
	}
	for _, it := range items[1:] {
		var c chunkDoc
		if err := json.Unmarshal(it.Data, &c); err != nil {
			return doc, nil, fmt.Errorf("read email batch %s chunk %s: %w", batchID, it.SK, err)
		}
		doc.Jobs = append(doc.Jobs, c.Jobs...)
	}
	return doc, items[0].Counters, nil
}

// jobView derives a job's state from its task row: a row is a completed job, or a
// failed one when it holds an error; without a row the job is processing once it has
// started, else queued, and failed when the task ended without answering it.
func jobView(j batchJob, i int, v task.View, started map[string]int64) Job {
	out := Job{JobID: j.JobID, Kind: "find"}
	cells, ok := v.Results[j.JobID]
	if !ok {
		cells, ok = v.InterimResults[j.JobID]
	}
	if ok {
		var r row
		if err := json.Unmarshal(cells, &r); err != nil || (r.Result == nil && r.Error == nil) {
			// An engine error cell ("Error: <reason>"): the job could not run.
			var raw map[string]string
			json.Unmarshal(cells, &raw)
			out.Status = JobFailed
			out.Error = &JobError{Code: "internal_error", Message: strings.TrimPrefix(raw[column], "Error: ")}
			return out
		}
		if r.Error != nil {
			out.Status, out.Error = JobFailed, r.Error
			return out
		}
		out.Status, out.Result = JobCompleted, r.Result
		return out
	}
	switch {
	case v.Status.Terminal():
		out.Status = JobFailed
		out.Error = &JobError{Code: "not_run", Message: fmt.Sprintf("The batch ended (%s) before this job ran.", v.Status)}
	case started[startedCounter(i)] > 0:
		out.Status = JobProcessing
	default:
		out.Status = JobQueued
	}
	return out
}

// processor answers one job for the task engine.
type processor struct{ s *Service }

func (p processor) Provider() string { return Provider }

func (p processor) Process(ctx context.Context, rec task.Record) (task.Result, error) {
	s := p.s
	var in jobInput
	var params jobParams
	if err := json.Unmarshal(rec.Input, &in); err != nil {
		return task.Result{}, fmt.Errorf("read job input: %w", err)
	}
	if err := json.Unmarshal(rec.Params, &params); err != nil {
		return task.Result{}, fmt.Errorf("read job parameters: %w", err)
	}
	if params.Round == "" {
		params.Round = RoundVerify
	}
	// Mark the job as processing; a lost mark only shows it as queued a while longer.
	if _, err := s.store.Add(ctx, batchKey(rec.OrgID, rec.TaskID), startedCounter(rec.Index), 1, kv.AddCond{}); err != nil {
		s.log.Warn("mark email job processing", "batch", rec.TaskID, "job", rec.Key, "err", err)
	}
	// Each run has the round's whole budget, counted from its own start (Finder.Find): a
	// job redone after a crash or a shutdown holds its SMTP conversation again.
	res := s.finder.Find(ctx, in.Request, params.Round)
	if ctx.Err() != nil {
		return task.Result{}, ctx.Err() // shut down mid-job: the engine redoes it
	}
	if res.Status == string(smtpverify.Timeout) && res.Attempts == 0 {
		// No SMTP session was tried (the mail host's DNS did not answer in time): not a
		// verdict on the address. Retried with a fresh budget; when no try gets that
		// far, the job fails rather than answer timeout.
		return task.Result{}, apperr.Retryable(fmt.Errorf("no SMTP session with the mail host of %s could be started in time", in.Domain), 0)
	}
	if res.Result != nil {
		if jerr, err := s.charge(ctx, rec, res.Result.Email); err != nil {
			return task.Result{}, apperr.Retryable(err, 0)
		} else if jerr != nil {
			return task.Result{Row: map[string]any{column: nil, "error": jerr}}, nil
		}
		if s.seen != nil {
			o := emailpattern.Observation{Domain: in.Domain, Name: in.FirstName + " " + in.LastName, Email: res.Result.Email, Source: "found:" + rec.Key}
			if err := s.seen.Record(ctx, o); err != nil {
				s.log.Warn("record a found address", "job", rec.Key, "err", err)
			}
		}
	}
	return task.Result{Row: map[string]any{column: res}}, nil
}

// charge bills a found address. A short balance fails the job (the address is not
// shown unpaid); other errors are returned for a retry.
func (s *Service) charge(ctx context.Context, rec task.Record, email string) (*JobError, error) {
	if s.bill == nil || s.orgs == nil {
		return nil, nil
	}
	org, err := s.orgs.GetOrg(ctx, rec.OrgID)
	if err != nil {
		return nil, err
	}
	err = s.bill.Accrue(ctx, org, billing.KindEmail, rec.TaskID, email)
	if errors.Is(err, apperr.ErrPaymentRequired) {
		return &JobError{Code: "insufficient_credits", Message: "The address was found, but the organisation does not have enough credits to receive it."}, nil
	}
	return nil, err
}
