package task

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"slices"
	"strings"
	"sync"
	"time"
	"unicode/utf8"

	"github.com/google/uuid"

	"github.com/firmoapi/firmo/shared/apperr"
	"github.com/firmoapi/firmo/shared/billing"
	"github.com/firmoapi/firmo/shared/kv"
)

// Message is one queued record. It carries the record's input, so a worker reads
// neither the input chunk nor anything but the task's small meta item and params.
type Message struct {
	Ref
	Index    int             `json:"i"`
	Key      string          `json:"key"`
	Input    json.RawMessage `json:"input,omitempty"`
	Provider string          `json:"provider,omitempty"` // lane of the embedded queue
}

// Queue carries per-record messages to workers that call Engine.Handle: in-process on
// embedded storage (memqueue), SQS with a dead-letter queue on AWS. Delivery is at
// least once; Handle is idempotent.
type Queue interface {
	Send(ctx context.Context, msgs []Message) error
}

// Workflow drives a task through Prepare, EnqueueChunk, CheckProgress and Finalize: a
// goroutine on embedded storage (memqueue.Workflow), a Step Functions execution on AWS.
// Start must be idempotent per task.
type Workflow interface {
	Start(ctx context.Context, r Ref) error
}

// Limiter bounds how many records calling one provider run at once.
type Limiter interface {
	// Acquire waits for a slot of the provider and returns its release.
	Acquire(ctx context.Context, provider string) (release func(), err error)
}

// Limits of a submission.
const (
	MaxRecords     = 10_000
	MaxKeyBytes    = 512
	MaxInputBytes  = 64 << 10
	MaxParamsBytes = 256 << 10
	maxRowBytes    = 300 << 10 // DynamoDB items stop at 400 KB
	chunkRecords   = 500
	chunkBytes     = 192 << 10
	maxWarnings    = 20 // shown per task, the most recent
	maxRowWarnings = 5
	maxReasonRunes = 300
)

// RetryPolicy retries a record's retryable errors with exponential backoff and jitter.
type RetryPolicy struct {
	Attempts int           // tries in all, including the first
	Base     time.Duration // delay before the second try
	Max      time.Duration // cap of one delay
}

// Options tune the engine. Zero values take the defaults noted.
type Options struct {
	RecordTimeout time.Duration // one attempt of one record; default 5 minutes
	// MaxRecordTimeout caps every kind's attempt timeout (Kind.Timeout included), so
	// that a record's attempts fit the worker's own timeout; 0 caps nothing.
	MaxRecordTimeout time.Duration
	// MinAttempt is the least time a retry must have before the deadline of the
	// context the record runs in (capped by the attempt timeout); with less the record
	// is given back (ErrNoTimeLeft). Default 10 s.
	MinAttempt time.Duration
	Retry      RetryPolicy // default 4 attempts, 500 ms base, 30 s cap
	// StallAfter is how long CheckProgress waits without any record finishing before it
	// enqueues the unfinished records again (a lost message, a dead-lettered one).
	StallAfter time.Duration // default 15 minutes
	// MaxRequeues bounds those rounds; after them Finalize answers the records still
	// missing with an error cell, so every record gets an answer.
	MaxRequeues int // default 3
	Log         *slog.Logger
	Now         func() time.Time
}

func (o Options) withDefaults() Options {
	if o.RecordTimeout <= 0 {
		o.RecordTimeout = 5 * time.Minute
	}
	if o.MinAttempt <= 0 {
		o.MinAttempt = 10 * time.Second
	}
	if o.Retry.Attempts <= 0 {
		o.Retry.Attempts = 4
	}
	if o.Retry.Base <= 0 {
		o.Retry.Base = 500 * time.Millisecond
	}
	if o.Retry.Max <= 0 {
		o.Retry.Max = 30 * time.Second
	}
	if o.StallAfter <= 0 {
		o.StallAfter = 15 * time.Minute
	}
	if o.MaxRequeues <= 0 {
		o.MaxRequeues = 3
	}
	if o.Log == nil {
		o.Log = slog.New(slog.DiscardHandler)
	}
	if o.Now == nil {
		o.Now = time.Now
	}
	return o
}

// Engine runs tasks. It is safe for concurrent use.
type Engine struct {
	store   store
	kinds   *Registry
	queue   Queue
	flow    Workflow
	limiter Limiter
	opts    Options

	paramsMu sync.Mutex
	params   map[Ref]json.RawMessage // immutable once written: a cache without expiry
}

// Deps are what an engine runs on.
type Deps struct {
	// Store holds the tasks: their meta items, params, input chunks and results.
	Store kv.Store
	// Kinds are the task kinds the engine runs; families register theirs on it
	// (Engine.Kinds) before tasks start. Required.
	Kinds *Registry
	// Queue carries records to the workers. nil: a composition without one, where
	// status and cancel work and submissions are refused (503).
	Queue Queue
	// Flow drives tasks through their steps. nil: likewise.
	Flow Workflow
	// Limiter bounds the records running at once per provider. nil limits nothing.
	Limiter Limiter
	// Options tune timeouts, retries and requeues; zero fields take their defaults.
	Options Options
}

// New makes an engine.
func New(d Deps) *Engine {
	if d.Limiter == nil {
		d.Limiter = NewLimiter(nil, 0)
	}
	if d.Queue == nil {
		d.Queue = unconfigured{}
	}
	if d.Flow == nil {
		d.Flow = unconfigured{}
	}
	return &Engine{store: store{kv: d.Store}, kinds: d.Kinds, queue: d.Queue, flow: d.Flow, limiter: d.Limiter, opts: d.Options.withDefaults(), params: map[Ref]json.RawMessage{}}
}

// unconfigured stands in for the queue or workflow of a composition that has none:
// status and cancel work, submissions are refused.
type unconfigured struct{}

var errUnconfigured = &apperr.Error{Kind: apperr.ErrUnavailable, Message: "Tasks cannot run in this deployment: no task queue is configured."}

func (unconfigured) Send(context.Context, []Message) error { return errUnconfigured }
func (unconfigured) Start(context.Context, Ref) error      { return errUnconfigured }

// Kinds is the engine's registry.
func (e *Engine) Kinds() *Registry { return e.kinds }

// Submission is a new task.
type Submission struct {
	OrgID   string
	Kind    string
	Records []Input
	// Field names the records in error messages: "domains" or "persona_ids".
	Field  string
	Params json.RawMessage
	// ColumnName defaults to the kind's columns in the array form.
	ColumnName      ColumnName
	ResponseFormat  *ResponseFormat
	TitleValidation string
	Warnings        []string
}

// Submit stores a task and starts its workflow. It answers in a few storage writes
// whatever the record count: records are stored in chunks of up to 500 and fanned out
// by the workflow, not here. Duplicate keys are merged (results are keyed by record
// key), with a warning; total_domains still echoes the count sent, at submission and
// on status (Task.Sent). The route in ctx (billing.WithRoute) is kept with the task:
// its records charge under it.
func (e *Engine) Submit(ctx context.Context, s Submission) (Submitted, error) {
	kind, ok := e.kinds.Lookup(s.Kind)
	if !ok || s.OrgID == "" {
		return Submitted{}, fmt.Errorf("submit task of kind %q for org %q: %w", s.Kind, s.OrgID, apperr.ErrInternal)
	}
	records, merged, err := checkRecords(s)
	if err != nil {
		return Submitted{}, err
	}
	if len(s.Params) > MaxParamsBytes {
		return Submitted{}, apperr.Invalid("params", "the task's parameters are %d bytes; the limit is %d", len(s.Params), MaxParamsBytes)
	}
	params := s.Params
	if len(params) == 0 {
		params = json.RawMessage("{}")
	}
	now := e.opts.Now().UTC()
	cols := s.ColumnName
	if len(cols.Names) == 0 {
		cols = Columns(kind.Columns...)
	}
	t := Task{
		Ref: Ref{OrgID: s.OrgID, TaskID: uuid.NewString()}, Kind: s.Kind, Route: billing.RouteOf(ctx), ColumnName: cols, Status: StatusInProgress,
		Total: len(records), Sent: len(s.Records), ResponseFormat: s.ResponseFormat, TitleValidation: s.TitleValidation, CreatedAt: now, UpdatedAt: now,
	}
	for _, w := range s.Warnings {
		t.Warnings = append(t.Warnings, Warning{Message: w, At: now})
	}
	if merged > 0 {
		t.Warnings = append(t.Warnings, Warning{Message: fmt.Sprintf("%d duplicate %s were merged: results are keyed by %s.", merged, fieldName(s), fieldName(s)), At: now})
	}
	chunks := split(records)
	t.Chunks = len(chunks)
	if err := e.store.putActive(ctx, t.Ref, now.UnixMilli()); err != nil {
		return Submitted{}, err
	}
	if err := e.write(ctx, t, params, chunks); err != nil {
		e.discard(t.Ref)
		return Submitted{}, err
	}
	if err := e.flow.Start(ctx, t.Ref); err != nil {
		e.discard(t.Ref)
		return Submitted{}, fmt.Errorf("start workflow of %s: %w", t.Ref, err)
	}
	return Submitted{TaskID: t.TaskID, ColumnName: t.ColumnName, Status: t.Status, TotalDomains: t.totalDomains()}, nil
}

func fieldName(s Submission) string {
	if s.Field == "" {
		return "records"
	}
	return s.Field
}

// write stores params and chunks (in parallel: they are independent items, and on
// DynamoDB each write is a round trip), then the meta item, which makes the task visible.
func (e *Engine) write(ctx context.Context, t Task, params json.RawMessage, chunks []chunkDoc) error {
	errs := make([]error, len(chunks)+1)
	sem := make(chan struct{}, 8)
	var wg sync.WaitGroup
	for i := range chunks {
		wg.Add(1)
		sem <- struct{}{}
		go func() {
			defer func() { <-sem; wg.Done() }()
			errs[i] = e.store.putChunk(ctx, t.Ref, i, chunks[i])
		}()
	}
	errs[len(chunks)] = e.store.putParams(ctx, t.Ref, params)
	wg.Wait()
	if err := errors.Join(errs...); err != nil {
		return err
	}
	_, err := e.store.putMeta(ctx, t, kv.Cond{IfAbsent: true})
	return err
}

// discard removes a submission that could not be completed, so no partial task is
// left behind. It runs even when the caller's context is done.
func (e *Engine) discard(r Ref) {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	if err := e.store.discard(ctx, r); err != nil {
		e.opts.Log.Error("discard aborted task submission", "task", r.String(), "err", err)
	}
}

// checkRecords validates the records and merges duplicate keys, keeping the first.
func checkRecords(s Submission) ([]Input, int, error) {
	field := fieldName(s)
	if len(s.Records) == 0 || len(s.Records) > MaxRecords {
		return nil, 0, apperr.Invalid(field, "give 1 to %d %s; got %d", MaxRecords, field, len(s.Records))
	}
	seen := make(map[string]bool, len(s.Records))
	out := make([]Input, 0, len(s.Records))
	for i, r := range s.Records {
		if msg := badKey(r.Key); msg != "" {
			return nil, 0, apperr.Invalid(fmt.Sprintf("%s[%d]", field, i), "%s", msg)
		}
		if len(r.Data) > MaxInputBytes {
			return nil, 0, apperr.Invalid(fmt.Sprintf("%s[%d]", field, i), "the record's input is %d bytes; the limit is %d", len(r.Data), MaxInputBytes)
		}
		if seen[r.Key] {
			continue
		}
		seen[r.Key] = true
		out = append(out, r)
	}
	return out, len(s.Records) - len(out), nil
}

func badKey(k string) string {
	switch {
	case strings.TrimSpace(k) == "":
		return "must not be blank"
	case len(k) > MaxKeyBytes:
		return fmt.Sprintf("must be at most %d bytes", MaxKeyBytes)
	case !utf8.ValidString(k):
		return "must be valid UTF-8"
	case strings.ContainsFunc(k, func(r rune) bool { return r < 0x20 || r == 0x7f }):
		return "must not contain control characters"
	}
	return ""
}

// split cuts records into chunks of at most chunkRecords records and ~chunkBytes.
func split(records []Input) []chunkDoc {
	var out []chunkDoc
	cur := chunkDoc{}
	size := 0
	for i, r := range records {
		n := len(r.Key) + len(r.Data) + 16
		if len(cur.Records) > 0 && (len(cur.Records) == chunkRecords || size+n > chunkBytes) {
			out = append(out, cur)
			cur, size = chunkDoc{First: i}, 0
		}
		cur.Records = append(cur.Records, r)
		size += n
	}
	return append(out, cur)
}

// Status returns a task as the status endpoint shows it. Another organisation's
// task, or one whose kind the request's route does not read (Kind.StatusRoutes), is
// not found.
func (e *Engine) Status(ctx context.Context, r Ref) (View, error) {
	v, _, err := e.status(ctx, r)
	return v.View, err
}

// fullView is a status answer with every row, the rows themselves and the number of
// records (after duplicates were merged).
type fullView struct {
	View
	records int
}

func (e *Engine) status(ctx context.Context, r Ref) (fullView, []rowDoc, error) {
	t, _, err := e.store.getMeta(ctx, r)
	if errors.Is(err, apperr.ErrNotFound) {
		return fullView{}, nil, notFound(r)
	}
	if err != nil {
		return fullView{}, nil, err
	}
	if !e.readsKind(billing.RouteOf(ctx), t.Kind) {
		return fullView{}, nil, notFound(r)
	}
	rows, err := e.store.rows(ctx, r)
	if err != nil {
		return fullView{}, nil, err
	}
	spends, err := e.store.spends(ctx, r)
	if err != nil {
		return fullView{}, nil, err
	}
	return fullView{View: view(t, rows, spends), records: t.Total}, rows, nil
}

// readsKind reports whether a request on route may read tasks of kind. A kind this
// process does not register is read by no route (the generation Lambda does not know
// bulkmatch, and must not show it either).
func (e *Engine) readsKind(route, kind string) bool {
	if route == "" {
		return true // not a request: the engine's own steps, a submission's cleanup
	}
	k, ok := e.kinds.Lookup(kind)
	return ok && slices.Contains(k.StatusRoutes, route)
}

func notFound(r Ref) error {
	return &apperr.Error{Kind: apperr.ErrNotFound, Message: fmt.Sprintf("Task %s was not found.", r.TaskID), Field: "task_id"}
}

// cancelReads is the status route whose kinds a request on route may cancel: a request
// stops only a task it may read there (readsKind). Any other route is checked as it
// is, so a route that reads no kind cancels none; no route ("") stays "".
func cancelReads(route string) string {
	if route == GenCancelRoute {
		return GenStatusRoute
	}
	return route
}

// Cancel stops a running task: no new record starts, finished answers are kept, and
// the workflow ends the task as cancelled. Cancelling a task that already ended
// answers success false with its status. A request cancels only the kinds its cancel
// route's status route reads (cancelReads, Kind.StatusRoutes): through
// DELETE /v1/gen/cancel/{task_id}, those GET /v1/gen/status/{task_id} shows; any other
// kind is not found, as another organisation's task is (README, Tasks). Callers
// outside a request (no route in ctx) cancel every kind.
func (e *Engine) Cancel(ctx context.Context, r Ref) (Cancellation, error) {
	route := cancelReads(billing.RouteOf(ctx))
	for attempt := 0; ; attempt++ {
		t, v, err := e.store.getMeta(ctx, r)
		if errors.Is(err, apperr.ErrNotFound) {
			return Cancellation{}, notFound(r)
		}
		if err != nil {
			return Cancellation{}, err
		}
		if !e.readsKind(route, t.Kind) {
			return Cancellation{}, notFound(r)
		}
		out := Cancellation{Success: true, TaskID: r.TaskID, Status: t.Status}
		switch t.Status {
		case StatusCancelling:
			out.Message = "The task is already being cancelled; finished answers are kept."
			return out, nil
		case StatusCancelled:
			out.Message = "The task is already cancelled."
			return out, nil
		case StatusCompleted, StatusFailed:
			out.Success = false
			out.Message = fmt.Sprintf("The task already ended (%s); there is nothing to cancel.", t.Status)
			return out, nil
		}
		t.Status, t.UpdatedAt = StatusCancelling, e.opts.Now().UTC()
		_, err = e.store.putMeta(ctx, t, kv.Cond{IfVersion: v})
		if errors.Is(err, apperr.ErrConflict) && attempt < 10 {
			continue // the workflow or another cancel changed it: look again
		}
		if err != nil {
			return Cancellation{}, err
		}
		out.Status = StatusCancelling
		out.Message = "Cancellation requested: no new records start, and answers already finished are kept."
		return out, nil
	}
}

// Resume restarts the workflow of every unfinished task and discards submissions that
// stopped before their task was stored. The embedded composition calls it at start-up,
// when it is the only process using the store; the queue lost its messages in a crash,
// and EnqueueChunk sends again every record without a row.
func (e *Engine) Resume(ctx context.Context) (int, error) {
	refs, err := e.store.active(ctx)
	if err != nil {
		return 0, err
	}
	n := 0
	for _, r := range refs {
		_, _, err := e.store.getMeta(ctx, r)
		if errors.Is(err, apperr.ErrNotFound) {
			if err := e.store.discard(ctx, r); err != nil {
				return n, err
			}
			continue
		}
		if err != nil {
			return n, err
		}
		if err := e.flow.Start(ctx, r); err != nil {
			return n, fmt.Errorf("resume %s: %w", r, err)
		}
		n++
	}
	return n, nil
}

// taskParams returns a task's parameters, cached: they never change once written.
func (e *Engine) taskParams(ctx context.Context, r Ref) (json.RawMessage, error) {
	e.paramsMu.Lock()
	p, ok := e.params[r]
	e.paramsMu.Unlock()
	if ok {
		return p, nil
	}
	p, err := e.store.getParams(ctx, r)
	if err != nil {
		return nil, err
	}
	e.paramsMu.Lock()
	if len(e.params) >= 1024 {
		clear(e.params) // a few tasks run at once; a full reset is simpler than an LRU
	}
	e.params[r] = p
	e.paramsMu.Unlock()
	return p, nil
}
