package namematch

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/firmoapi/firmo/shared/account"
	"github.com/firmoapi/firmo/shared/apperr"
	"github.com/firmoapi/firmo/shared/billing"
	"github.com/firmoapi/firmo/shared/kv"
	"github.com/firmoapi/firmo/shared/task"
	"github.com/firmoapi/firmo/shared/upload"
)

// Bulk match (POST /v1/bulkmatch): a CSV of names runs as a task of kind TaskKind on
// the task engine, one record per row; each row is matched like a single match
// (MatchRow: the best match only) and answered with its input columns.
const (
	// TaskKind is the task engine kind of bulk match.
	TaskKind = "bulkmatch"
	// MaxBulkBytes and MaxBulkRows bound an upload (as the API reference's segment upload).
	MaxBulkBytes = 1 << 20
	MaxBulkRows  = 10_000
	// resultColumn is the task's one result column; a row's answer is its value.
	resultColumn = "match"
	// InputPrefix prefixes the input columns in results.
	InputPrefix = "input:"
	// MaxEchoBytes bounds the input columns a row echoes in its result (their JSON,
	// names prefixed): checked for every row at submit, so a task stores and answers
	// at most this much input per row.
	MaxEchoBytes = 16 << 10
	// MatchErrorSearchFailed marks a row that could not be searched: not a no-match,
	// not billed, to be resubmitted.
	MatchErrorSearchFailed = "search_failed"
	// MatchErrorInvalidName marks a row whose name is blank after whitespace and
	// punctuation are stripped, or too long.
	MatchErrorInvalidName = "invalid_name"
)

// BulkParams are the parameters of POST /v1/bulkmatch besides the file: the columns
// (by header name) and the single-match options applied to every row.
type BulkParams struct {
	NameColumn         string `json:"name_column"`
	CountryColumn      string `json:"country_column,omitempty"`
	StateColumn        string `json:"state_column,omitempty"`
	CityColumn         string `json:"city_column,omitempty"`
	ZipCodeColumn      string `json:"zip_code_column,omitempty"`
	PhoneColumn        string `json:"phone_column,omitempty"`
	MinMatchConfidence int    `json:"min_match_confidence"`
	Strict             bool   `json:"strict"`
	LocalMode          bool   `json:"local_mode"`
}

// bulkTask is the task's parameters: the CSV header (so rows echo their input columns
// by name) and the bulk parameters.
type bulkTask struct {
	Header []string   `json:"header"`
	Params BulkParams `json:"params"`
}

// columns are the optional column parameters and where their value goes in a Query.
var columns = []struct {
	param string
	get   func(BulkParams) string
	set   func(*Query, string)
}{
	{"country_column", func(p BulkParams) string { return p.CountryColumn }, func(q *Query, v string) { q.Country = v }},
	{"state_column", func(p BulkParams) string { return p.StateColumn }, func(q *Query, v string) { q.State = v }},
	{"city_column", func(p BulkParams) string { return p.CityColumn }, func(q *Query, v string) { q.City = v }},
	{"zip_code_column", func(p BulkParams) string { return p.ZipCodeColumn }, func(q *Query, v string) { q.ZipCode = v }},
	{"phone_column", func(p BulkParams) string { return p.PhoneColumn }, func(q *Query, v string) { q.Phone = v }},
}

// ReadCSV reads and validates an upload through shared/upload (so a CSV in UTF-8,
// UTF-16 or Latin-1, or an Excel .xlsx workbook): at most MaxBulkBytes (413 naming
// file), a header of distinct non-blank names, 1 to MaxBulkRows data rows (blank rows
// skipped), every column parameter naming a header column (422 naming the parameter),
// min_match_confidence in range. It returns the header and the rows (cells beyond the
// header are dropped, missing ones are blank).
func ReadCSV(r io.Reader, p BulkParams) ([]string, [][]string, error) {
	if err := p.check(); err != nil {
		return nil, nil, err
	}
	t, err := upload.Read(r, "", upload.Limits{MaxBytes: MaxBulkBytes, MaxRows: MaxBulkRows})
	if err != nil {
		return nil, nil, err
	}
	seen := map[string]bool{}
	for _, h := range t.Header {
		seen[h] = true
	}
	if !seen[p.NameColumn] {
		return nil, nil, apperr.Invalid("name_column", "name_column %q is not a column of the file; its columns are %s", p.NameColumn, strings.Join(t.Header, ", "))
	}
	for _, c := range columns {
		if v := c.get(p); v != "" && !seen[v] {
			return nil, nil, apperr.Invalid(c.param, "%s %q is not a column of the file; its columns are %s", c.param, v, strings.Join(t.Header, ", "))
		}
	}
	var echo bytes.Buffer
	for i, row := range t.Rows {
		echo.Reset()
		inputFields(&echo, t.Header, row)
		if echo.Len() > MaxEchoBytes {
			return nil, nil, apperr.Invalid(upload.Field, "data row %d of the file echoes %d bytes of input columns in its result; at most %d (16 KB) are accepted per row: drop the columns the match does not need", i+1, echo.Len(), MaxEchoBytes)
		}
	}
	return t.Header, t.Rows, nil
}

func (p BulkParams) check() error {
	if strings.TrimSpace(p.NameColumn) == "" {
		return apperr.Invalid("name_column", "name_column is required: the header name of the column holding company names")
	}
	if p.MinMatchConfidence != 0 && (p.MinMatchConfidence < MinConfidence || p.MinMatchConfidence > MaxConfidence) {
		return apperr.Invalid("min_match_confidence", "min_match_confidence must be between %d and %d, not %d", MinConfidence, MaxConfidence, p.MinMatchConfidence)
	}
	return nil
}

// query builds a row's query.
func (t bulkTask) query(cells []string) Query {
	col := func(name string) string {
		for i, h := range t.Header {
			if h == name && i < len(cells) {
				return cells[i]
			}
		}
		return ""
	}
	q := Query{Name: col(t.Params.NameColumn), MinMatchConfidence: t.Params.MinMatchConfidence, Strict: t.Params.Strict, LocalMode: t.Params.LocalMode}
	for _, c := range columns {
		if name := c.get(t.Params); name != "" {
			c.set(&q, col(name))
		}
	}
	return q
}

// ---- the service ----

// Tasks is the part of the task engine bulk match uses; task.Engine implements it.
type Tasks interface {
	Submit(ctx context.Context, s task.Submission) (task.Submitted, error)
	Status(ctx context.Context, r task.Ref) (task.View, error)
	// RouteContext returns ctx carrying the route that submitted the task: the
	// results, delivered by a status request, are charged under it.
	RouteContext(ctx context.Context, r task.Ref) (context.Context, error)
}

// Charger bills delivered matches, under the route in ctx; billing.Service
// implements it.
type Charger interface {
	Charge(ctx context.Context, org account.Org, kind billing.Kind, records []string, requestID string) (billing.Charge, error)
}

// Bulk runs bulk matches. Register its Kind on the task engine before tasks start.
type Bulk struct {
	matcher *Matcher
	tasks   Tasks
	store   kv.Store
	bill    Charger
	uploads *upload.Gate
	now     func() time.Time
}

// BulkDeps are the services bulk match uses.
type BulkDeps struct {
	// Matcher matches each row.
	Matcher *Matcher
	// Tasks runs the bulk tasks (their Kind registered on it) and answers their status.
	Tasks Tasks
	// Store keeps one small item per bulk task: which task ids are bulk matches, and
	// whether their results were billed.
	Store kv.Store
	// Billing charges the delivered matches, once per task.
	Billing Charger
	// Uploads bounds the uploads parsed at once (nil: no bound).
	Uploads *upload.Gate
}

// NewBulk makes the bulk match service.
func NewBulk(d BulkDeps) *Bulk {
	return &Bulk{matcher: d.Matcher, tasks: d.Tasks, store: d.Store, bill: d.Billing, uploads: d.Uploads, now: time.Now}
}

// StatusRoute is the one route that reads bulk match tasks: it bills the results it
// delivers (Status), so no other status route may show them (task.Kind.StatusRoutes).
const StatusRoute = "GET /v1/bulkmatch/status/{task_id}"

// Kind is the task kind to register on the engine.
func (b *Bulk) Kind() task.Kind {
	return task.Kind{Name: TaskKind, Processor: processor{b}, Columns: []string{resultColumn}, Timeout: time.Minute,
		StatusRoutes: []string{StatusRoute}}
}

// BulkSubmitted is the answer of POST /v1/bulkmatch.
type BulkSubmitted struct {
	TaskID string `json:"task_id"`
}

// marker is the item recording a bulk task (partition "bulkmatch#<org>", sort key the
// task id). A task id without one is not a bulk match: its status here is a 404.
type marker struct {
	Rows      int       `json:"rows"`
	CreatedAt time.Time `json:"created_at"`
	Billed    bool      `json:"billed"`
	Credits   int64     `json:"credits"`
	Matched   int       `json:"matched"`
	NetNew    int       `json:"net_new"`
}

func markerKey(r task.Ref) kv.Key { return kv.Key{PK: "bulkmatch#" + r.OrgID, SK: r.TaskID} }

// Submit validates an upload and starts its task.
func (b *Bulk) Submit(ctx context.Context, orgID string, file io.Reader, p BulkParams) (BulkSubmitted, error) {
	release, err := b.uploads.Enter(ctx)
	if err != nil {
		return BulkSubmitted{}, err
	}
	header, rows, err := ReadCSV(file, p)
	release()
	if err != nil {
		return BulkSubmitted{}, err
	}
	params, err := json.Marshal(bulkTask{Header: header, Params: p})
	if err != nil {
		return BulkSubmitted{}, err
	}
	recs := make([]task.Input, len(rows))
	for i, row := range rows {
		cells, err := json.Marshal(row)
		if err != nil {
			return BulkSubmitted{}, err
		}
		recs[i] = task.Input{Key: strconv.Itoa(i + 1), Data: cells}
	}
	sub, err := b.tasks.Submit(ctx, task.Submission{OrgID: orgID, Kind: TaskKind, Records: recs, Field: "rows", Params: params})
	if err != nil {
		return BulkSubmitted{}, err
	}
	m, _ := json.Marshal(marker{Rows: len(rows), CreatedAt: b.now().UTC()})
	if _, err := b.store.Put(ctx, markerKey(task.Ref{OrgID: orgID, TaskID: sub.TaskID}), m, kv.Cond{IfAbsent: true}); err != nil {
		return BulkSubmitted{}, fmt.Errorf("record bulk match task %s: %w", sub.TaskID, err)
	}
	return BulkSubmitted{TaskID: sub.TaskID}, nil
}

// BulkStatus is the answer of GET /v1/bulkmatch/status/{task_id}.
type BulkStatus struct {
	TaskID    string            `json:"task_id"`
	Status    task.Status       `json:"status"`
	Progress  int               `json:"progress"`
	TotalRows int               `json:"total_rows"`
	Results   []json.RawMessage `json:"results"`
	Error     *task.TaskError   `json:"error,omitempty"`
	// Page says which rows Results holds (Paged); absent before results are delivered.
	Page *task.PageInfo `json:"page,omitempty"`
	// Credits is what delivering the results charged now (X-Credits-Charged): non-zero
	// only on the answer that billed them.
	Credits int64 `json:"-"`
}

// Status answers a bulk task's status. Results are delivered, and billed, once the
// task has ended: every matched row's domain is charged as a company record (net-new
// per 90 days, one charge per task, at the plan's rate); rows without a match or
// whose search failed are free. A short balance is a 402 and delivers nothing; the
// results stay and are billed once the balance allows.
func (b *Bulk) Status(ctx context.Context, org account.Org, taskID string) (BulkStatus, error) {
	ref := task.Ref{OrgID: org.ID, TaskID: taskID}
	it, err := b.store.Get(ctx, markerKey(ref))
	if errors.Is(err, apperr.ErrNotFound) {
		return BulkStatus{}, &apperr.Error{Kind: apperr.ErrNotFound, Field: "task_id", Message: fmt.Sprintf("Bulk match task %s was not found.", taskID)}
	}
	if err != nil {
		return BulkStatus{}, err
	}
	var mk marker
	if err := json.Unmarshal(it.Data, &mk); err != nil {
		return BulkStatus{}, fmt.Errorf("decode bulk match task %s: %w", taskID, err)
	}
	v, err := b.tasks.Status(ctx, ref)
	if err != nil {
		return BulkStatus{}, err
	}
	st := BulkStatus{TaskID: v.TaskID, Status: v.Status, Progress: v.Progress, TotalRows: v.TotalDomains, Results: []json.RawMessage{}, Error: v.Error}
	if !v.Status.Terminal() {
		return st, nil
	}
	rows, matched := orderedRows(v.Results)
	if !mk.Billed {
		credits, err := b.billOnce(ctx, org, ref, it.Version, mk, matched)
		if err != nil {
			return BulkStatus{}, err
		}
		st.Credits = credits
	}
	st.Results = rows
	return st, nil
}

// billOnce charges the matched domains of an ended task and marks the task billed. A
// retry (or a concurrent poll) repeats the same charge id, which billing answers once.
func (b *Bulk) billOnce(ctx context.Context, org account.Org, ref task.Ref, version int64, mk marker, domains []string) (int64, error) {
	var ch billing.Charge
	if len(domains) > 0 {
		// The results are the submission's delivery: they are charged under the route
		// that submitted the task, not the status route that happens to deliver them.
		ctx, err := b.tasks.RouteContext(ctx, ref)
		if err != nil {
			return 0, err
		}
		ch, err = b.bill.Charge(ctx, org, billing.KindCompany, domains, "bulkmatch-"+ref.TaskID)
		if err != nil {
			return 0, err
		}
	}
	mk.Billed, mk.Credits, mk.Matched, mk.NetNew = true, ch.Credits, len(domains), ch.NetNew
	data, _ := json.Marshal(mk)
	_, err := b.store.Put(ctx, markerKey(ref), data, kv.Cond{IfVersion: version})
	if errors.Is(err, apperr.ErrConflict) {
		return 0, nil // another poll marked it first; the charge was the same one
	}
	if err != nil {
		return 0, fmt.Errorf("mark bulk match task %s billed: %w", ref.TaskID, err)
	}
	return ch.Credits, nil
}

// orderedRows returns the rows' answers in file order and the domains of matched rows.
func orderedRows(results map[string]json.RawMessage) ([]json.RawMessage, []string) {
	type row struct {
		n   int
		doc json.RawMessage
	}
	var rows []row
	for key, cells := range results {
		n, _ := strconv.Atoi(key)
		var c map[string]json.RawMessage
		doc := json.RawMessage(nil)
		if json.Unmarshal(cells, &c) == nil {
			doc = c[resultColumn]
		}
		if len(doc) == 0 || doc[0] != '{' {
			// The engine answered the row itself (it gave up on it): the row could
			// not be searched.
			doc = failedRow(nil, nil, MatchErrorSearchFailed)
		}
		rows = append(rows, row{n, doc})
	}
	sort.Slice(rows, func(i, j int) bool { return rows[i].n < rows[j].n })
	var domains []string
	out := make([]json.RawMessage, len(rows))
	for i, r := range rows {
		out[i] = r.doc
		var probe struct {
			Domain *string `json:"domain"`
		}
		if json.Unmarshal(r.doc, &probe) == nil && probe.Domain != nil {
			domains = append(domains, *probe.Domain)
		}
	}
	return out, domains
}

// ---- one row ----

type processor struct{ b *Bulk }

// Provider implements task.Processor: matching calls no outside service.
func (processor) Provider() string { return "" }

// Process implements task.Processor. It never fails a row: a search the index could
// not answer after retries gives match_error search_failed (domain null), a blank
// name match_error invalid_name; only a cancelled context is returned, so the record
// is redone.
func (p processor) Process(ctx context.Context, rec task.Record) (task.Result, error) {
	var t bulkTask
	if err := json.Unmarshal(rec.Params, &t); err != nil {
		return task.Result{}, fmt.Errorf("bulk match parameters: %w", err)
	}
	var cells []string
	if err := json.Unmarshal(rec.Input, &cells); err != nil {
		return task.Result{}, fmt.Errorf("bulk match row %s: %w", rec.Key, err)
	}
	a, err := p.b.matcher.MatchRow(ctx, t.query(cells))
	var doc json.RawMessage
	switch {
	case err == nil && len(a.Matches) > 0:
		doc, err = matchedRow(t.Header, cells, a.Matches[0])
		if err != nil {
			return task.Result{}, err
		}
	case err == nil:
		doc = failedRow(t.Header, cells, "")
	case ctx.Err() != nil:
		return task.Result{}, ctx.Err()
	case errors.Is(err, apperr.ErrInvalid):
		doc = failedRow(t.Header, cells, MatchErrorInvalidName)
	default:
		// The index, or the company store behind it, could not answer.
		doc = failedRow(t.Header, cells, MatchErrorSearchFailed)
	}
	return task.Result{Row: map[string]any{resultColumn: doc}}, nil
}

// inputFields writes the input columns, prefixed, as the start of a JSON object.
func inputFields(b *bytes.Buffer, header, cells []string) {
	b.WriteByte('{')
	for i, h := range header {
		if i > 0 {
			b.WriteByte(',')
		}
		k, _ := json.Marshal(InputPrefix + h)
		v, _ := json.Marshal(cells[i])
		b.Write(k)
		b.WriteByte(':')
		b.Write(v)
	}
}

// matchedRow is the input columns, then the profile's fields, then match_confidence.
func matchedRow(header, cells []string, m Match) (json.RawMessage, error) {
	prof, err := m.MarshalJSON()
	if err != nil {
		return nil, err
	}
	var b bytes.Buffer
	inputFields(&b, header, cells)
	if len(header) > 0 {
		b.WriteByte(',')
	}
	b.Write(prof[1:]) // the profile object without its opening brace
	return b.Bytes(), nil
}

// failedRow is the input columns, domain null and match_confidence null, with
// match_error when the row failed (a row without a match has none).
func failedRow(header, cells []string, matchError string) json.RawMessage {
	var b bytes.Buffer
	inputFields(&b, header, cells)
	if len(header) > 0 {
		b.WriteByte(',')
	}
	b.WriteString(`"domain":null,"match_confidence":null`)
	if matchError != "" {
		fmt.Fprintf(&b, `,"match_error":%q`, matchError)
	}
	b.WriteByte('}')
	return b.Bytes()
}

// Paged keeps one page of the results (task.Slice: offset and limit over the results
// in order, cut at task.PageBytes); the rest of the answer is unchanged. Billing is
// done on the whole results before (Status), never per page.
func (s BulkStatus) Paged(p task.Page) BulkStatus {
	if len(s.Results) == 0 && s.Status != task.StatusCompleted {
		return s
	}
	from, to, next := task.Slice(len(s.Results), p, func(i int) int { return len(s.Results[i]) + 1 })
	s.Results = s.Results[from:to]
	s.Page = task.Info(p, to-from, next)
	return s
}
