package task

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math/rand/v2"
	"strings"
	"sync"
	"time"

	"github.com/google/uuid"

	"github.com/firmoapi/firmo/shared/apperr"
	"github.com/firmoapi/firmo/shared/memo"
)

// Handle processes one queued record. It returns nil when the message may be deleted
// (answered now, answered before, or no longer wanted because the task stopped) and an
// error when it must be delivered again (storage failure, or ctx ended mid-record as
// in a shutdown: nothing is written then, so the record is simply redone).
//
// The row is written with a put-if-absent keyed by task and record key, so however
// often a record is delivered, its answer is written once; the done mark that follows
// is idempotent too.
//
// The processor runs under the route that submitted the task (see Task.withRoute),
// whichever process handles the message.
func (e *Engine) Handle(ctx context.Context, m Message) error {
	t, _, err := e.store.getMeta(ctx, m.Ref)
	if errors.Is(err, apperr.ErrNotFound) {
		return nil // the task is gone: nothing to answer
	}
	if err != nil {
		return err
	}
	if t.Status != StatusInProgress {
		return nil // cancelling or ended: no new record starts
	}
	ctx = t.withRoute(ctx)
	exists, err := e.store.rowExists(ctx, m.Ref, m.Key)
	if err != nil {
		return err
	}
	if !exists {
		row, err := e.answer(ctx, t, m)
		if err != nil {
			return err
		}
		// Re-read: a task that ended while the record ran takes no more rows, so its
		// results stay as they were when it was reported ended.
		if t, _, err = e.store.getMeta(ctx, m.Ref); err != nil {
			return err
		}
		if t.Status.Terminal() {
			return nil
		}
		if _, err := e.store.putRow(ctx, m.Ref, row); err != nil {
			return err
		}
	}
	return e.store.markDone(ctx, m.Ref, m.Index)
}

// answer runs the record's processor with retries and turns the outcome into a row.
// It fails only when ctx ends or storage fails.
func (e *Engine) answer(ctx context.Context, t Task, m Message) (rowDoc, error) {
	kind, ok := e.kinds.Lookup(t.Kind)
	if !ok {
		return e.errorRow(t, m, 0, fmt.Sprintf("the task kind %q is not available in this deployment", t.Kind)), nil
	}
	params, err := e.taskParams(ctx, m.Ref)
	if err != nil {
		return rowDoc{}, err
	}
	rec := Record{Ref: m.Ref, Key: m.Key, Index: m.Index, Input: m.Input, Params: params}
	timeout := e.attemptTimeout(kind)
	provider := kind.Processor.Provider()
	for attempt := 1; ; attempt++ {
		rec.Attempt = attempt
		release, err := e.limiter.Acquire(ctx, provider)
		if err != nil {
			return rowDoc{}, err
		}
		// Each run of an attempt keeps the answers of its finished paid calls in the task
		// store (memo, SK "call#"): a run redone after the record was given back, or a
		// retry, replays them instead of calling again on the customer's key.
		actx := memo.With(ctx, memo.NewScope(e.store.calls(m.Ref, m.Key)))
		cctx, calls := e.withCallLog(actx, m, attempt)
		res, perr := e.call(cctx, kind.Processor, rec, timeout)
		release()
		if err := e.recordSpend(ctx, m, attempt, calls.settle(res)); err != nil {
			return rowDoc{}, err
		}
		if ctx.Err() != nil {
			return rowDoc{}, ctx.Err()
		}
		if perr == nil {
			return e.resultRow(t, m, attempt, res), nil
		}
		if !apperr.IsRetryable(perr) || attempt >= e.opts.Retry.Attempts {
			e.opts.Log.Debug("record failed", "task", m.Ref.String(), "key", m.Key, "attempts", attempt, "err", perr)
			return e.errorRow(t, m, attempt, reason(perr)), nil
		}
		delay := e.backoff(attempt, perr)
		if !e.fits(ctx, delay, timeout) {
			return rowDoc{}, fmt.Errorf("record %q of %s after attempt %d: %w", m.Key, m.Ref, attempt, ErrNoTimeLeft)
		}
		if err := sleep(ctx, delay); err != nil {
			return rowDoc{}, err
		}
	}
}

// ErrNoTimeLeft is Handle's answer when a retry of a record would not fit before its
// context's deadline (the worker's invocation ends): the record is given back to the
// queue at once, and its redelivery starts with a full deadline.
var ErrNoTimeLeft = errors.New("not enough time left before the deadline for another attempt")

// attemptTimeout is the limit of one attempt of kind: its own Timeout or
// Options.RecordTimeout, at most Options.MaxRecordTimeout. An attempt also ends with
// the context it runs in (the worker's deadline less its margin).
func (e *Engine) attemptTimeout(k Kind) time.Duration {
	t := k.Timeout
	if t <= 0 {
		t = e.opts.RecordTimeout
	}
	if m := e.opts.MaxRecordTimeout; m > 0 && t > m {
		t = m
	}
	return t
}

// fits reports whether a retry after delay still has room before ctx's deadline: the
// whole attempt timeout, or at least Options.MinAttempt of it.
func (e *Engine) fits(ctx context.Context, delay, timeout time.Duration) bool {
	dl, ok := ctx.Deadline()
	if !ok {
		return true
	}
	return time.Until(dl)-delay >= min(timeout, e.opts.MinAttempt)
}

// spendWrite bounds the write of an attempt's spend, which runs even when the record's
// context has ended (a shutdown that cut the record short).
const spendWrite = 10 * time.Second

// recordSpend stores what one attempt spent (Result.Usage, Search, ExtraCostUSD, also
// when it returned an error) before the record's row or its retry, so cost_metadata
// counts every call made on the customer's keys: those of retried attempts, and those
// of a run cut short by a shutdown or a crash before its row was written, whose
// redelivery runs the record again. The item is keyed by a fresh attempt id, written
// with put-if-absent: a retried write of one attempt counts once.
func (e *Engine) recordSpend(ctx context.Context, m Message, attempt int, res Result) error {
	if len(res.Usage) == 0 && len(res.Search) == 0 && res.ExtraCostUSD == 0 {
		return nil
	}
	ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), spendWrite)
	defer cancel()
	sp := spendDoc{Key: m.Key, Attempt: attempt, Usage: res.Usage, Search: res.Search, ExtraCost: res.ExtraCostUSD, At: e.opts.Now().UnixMilli()}
	id := uuid.NewString()
	var err error
	for try := 0; try < 3; try++ {
		if err = e.store.putSpend(ctx, m.Ref, id, sp); err == nil || ctx.Err() != nil {
			break
		}
		if sleep(ctx, time.Duration(try+1)*100*time.Millisecond) != nil {
			break
		}
	}
	return err
}

// call runs one attempt under its own deadline. A panic in a processor is a bug; it
// answers the record with an error instead of killing the worker.
func (e *Engine) call(ctx context.Context, p Processor, rec Record, timeout time.Duration) (res Result, err error) {
	actx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	defer func() {
		if v := recover(); v != nil {
			e.opts.Log.Error("task processor panicked", "task", rec.Ref.String(), "key", rec.Key, "panic", fmt.Sprint(v))
			err = errors.New("internal error while processing the record")
		}
	}()
	res, err = p.Process(actx, rec)
	if err != nil && ctx.Err() == nil && errors.Is(actx.Err(), context.DeadlineExceeded) {
		err = apperr.Retryable(fmt.Errorf("timed out after %s", timeout), 0)
	}
	return res, err
}

// backoff is the delay before attempt+1: exponential with jitter, at least the
// provider's Retry-After hint, at most Retry.Max.
func (e *Engine) backoff(attempt int, err error) time.Duration {
	p := e.opts.Retry
	d := p.Base << (attempt - 1)
	if d > p.Max || d <= 0 {
		d = p.Max
	}
	d = d/2 + rand.N(d/2+1)
	if after := apperr.RetryAfter(err); after > d {
		d = min(after, p.Max)
	}
	return d
}

func sleep(ctx context.Context, d time.Duration) error {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-t.C:
		return nil
	}
}

func (e *Engine) resultRow(t Task, m Message, attempts int, res Result) rowDoc {
	cells, err := json.Marshal(res.Row)
	if err != nil {
		return e.errorRow(t, m, attempts, "the answer could not be encoded as JSON")
	}
	if len(cells) > maxRowBytes {
		return e.errorRow(t, m, attempts, fmt.Sprintf("the answer is %d bytes; the limit is %d", len(cells), maxRowBytes))
	}
	if res.Row == nil {
		cells = json.RawMessage("{}")
	}
	// The spend is not in the row: recordSpend stored it when the attempt returned.
	row := rowDoc{Key: m.Key, Index: m.Index, Cells: cells, Attempts: attempts, At: e.opts.Now().UnixMilli()}
	for _, w := range res.Warnings {
		if len(row.Warnings) == maxRowWarnings {
			break
		}
		row.Warnings = append(row.Warnings, clip(w))
	}
	return row
}

// errorRow answers a failed record: every result column holds "Error: <reason>".
func (e *Engine) errorRow(t Task, m Message, attempts int, why string) rowDoc {
	cell := "Error: " + clip(why)
	cols := t.ColumnName.Names
	if len(cols) == 0 {
		cols = []string{"result"}
	}
	row := make(map[string]string, len(cols))
	for _, c := range cols {
		row[c] = cell
	}
	cells, _ := json.Marshal(row)
	return rowDoc{Key: m.Key, Index: m.Index, Cells: cells, Failed: true, Attempts: attempts, At: e.opts.Now().UnixMilli()}
}

// reason is the client-facing text of a processor error. apperr.Retryable leaves the
// text as it was, so a retried error reads the same as a plain one.
func reason(err error) string {
	var ae *apperr.Error
	if errors.As(err, &ae) && ae.Message != "" {
		return ae.Message
	}
	return err.Error()
}

func clip(s string) string {
	s = strings.TrimSpace(s)
	if r := []rune(s); len(r) > maxReasonRunes {
		return string(r[:maxReasonRunes-1]) + "…"
	}
	return s
}

// localLimiter holds in-process semaphores, one per provider.
type localLimiter struct {
	mu       sync.Mutex
	limits   map[string]int
	fallback int
	sems     map[string]chan struct{}
}

// NewLimiter bounds concurrent records per provider within this process: limits per
// provider name, fallback for providers not listed (<= 0: unlimited). Records of no
// provider ("") are never limited. On AWS this bounds each worker instance; the
// queue's event source bounds the instances.
func NewLimiter(limits map[string]int, fallback int) Limiter {
	return &localLimiter{limits: limits, fallback: fallback, sems: map[string]chan struct{}{}}
}

func (l *localLimiter) Acquire(ctx context.Context, provider string) (func(), error) {
	sem := l.sem(provider)
	if sem == nil {
		return func() {}, nil
	}
	select {
	case sem <- struct{}{}:
		return func() { <-sem }, nil
	case <-ctx.Done():
		return nil, ctx.Err()
	}
}

func (l *localLimiter) sem(provider string) chan struct{} {
	if provider == "" {
		return nil
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	if s, ok := l.sems[provider]; ok {
		return s
	}
	n, ok := l.limits[provider]
	if !ok {
		n = l.fallback
	}
	var s chan struct{}
	if n > 0 {
		s = make(chan struct{}, n)
	}
	l.sems[provider] = s
	return s
}
