package task

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/firmoapi/firmo/shared/apperr"
	"github.com/firmoapi/firmo/shared/kv"
	"github.com/firmoapi/firmo/shared/memo"
)

// Storage layout on the kv.Store port. It uses only what DynamoDB offers without
// transactions (dynalite has none): single-item conditional writes and ADD counters.
//
//	PK "task#<org_id>#<task_id>"      one partition per task; the organisation is in the
//	                                   key, so another organisation's task id is not found
//	  SK "meta"                        the Task document; its version guards status changes
//	  SK "params"                      the task's parameters, immutable (workers cache them)
//	  SK "in#<chunk, 5 digits>"        an input chunk: up to 500 records and ~192 KB
//	  SK "row#<record key>"            one record's answer, written once (Put IfAbsent)
//	  SK "spend#<attempt id>"          what one attempt of a record spent (LLM and search
//	                                   calls), written before anything else of the attempt
//	                                   (Put IfAbsent, so a retried write counts once); an
//	                                   attempt redone after a crash has a new id and counts too
//	  SK "done#<group, 5 digits>"      counters only: counter "r<i>" is > 0 once the row of
//	                                   record group*100+i is written. ADD +1 is idempotent
//	                                   by presence, so a redelivered record never counts twice
//	                                   and a crash between the row and the mark is repaired by
//	                                   the redelivery (the row put then fails, the mark is set).
//	PK "tasks#active"
//	  SK "<org_id>#<task_id>"          an unfinished task: written first at submit, deleted
//	                                   by Finalize; embedded start-up resumes what it lists,
//	                                   and cleans up submissions that never wrote their meta.
//
// Items stay small (a done group is ~1 KB), so counter updates cost little on DynamoDB,
// whose write cost follows item size.
const (
	skMeta        = "meta"
	skParams      = "params"
	skChunkPrefix = "in#"
	skRowPrefix   = "row#"
	skDonePrefix  = "done#"
	skSpendPrefix = "spend#"
	skCallPrefix  = "call#"
	pkActive      = "tasks#active"
	doneGroup     = 100
	queryPage     = 1000
)

// store is the task layout over a kv.Store.
type store struct{ kv kv.Store }

func taskPK(r Ref) string { return "task#" + r.OrgID + "#" + r.TaskID }

func chunkSK(i int) string { return fmt.Sprintf("%s%05d", skChunkPrefix, i) }

func doneSK(group int) string { return fmt.Sprintf("%s%05d", skDonePrefix, group) }

func doneCounter(i int) string { return "r" + strconv.Itoa(i%doneGroup) }

func activeKey(r Ref) kv.Key { return kv.Key{PK: pkActive, SK: r.OrgID + "#" + r.TaskID} }

// Input is one record of a submission: its key and an optional per-record input.
type Input struct {
	Key  string          `json:"k"`
	Data json.RawMessage `json:"in,omitempty"`
}

type chunkDoc struct {
	First   int     `json:"first"` // index of the chunk's first record
	Records []Input `json:"records"`
}

// rowDoc is a stored answer. Cells is the row as shown in results.
type rowDoc struct {
	Key       string          `json:"k"`
	Index     int             `json:"i"`
	Cells     json.RawMessage `json:"r"`
	Failed    bool            `json:"f,omitempty"`
	Warnings  []string        `json:"w,omitempty"`
	Usage     []Usage         `json:"u,omitempty"`
	Search    []SearchUsage   `json:"s,omitempty"`
	ExtraCost float64         `json:"x,omitempty"`
	Attempts  int             `json:"a"`
	At        int64           `json:"t"` // unix milliseconds when written
}

// spendDoc is what one attempt of a record spent (cost_metadata and estimated_cost
// sum these). Rows written before spend was recorded per attempt carry their record's
// spend themselves (rowDoc.Usage, Search, ExtraCost).
type spendDoc struct {
	Key       string        `json:"k"`
	Attempt   int           `json:"a"`
	Usage     []Usage       `json:"u,omitempty"`
	Search    []SearchUsage `json:"s,omitempty"`
	ExtraCost float64       `json:"x,omitempty"`
	At        int64         `json:"t"` // unix milliseconds when written
}

type activeDoc struct {
	CreatedAt int64 `json:"created_at"` // unix milliseconds
}

func (s store) getMeta(ctx context.Context, r Ref) (Task, int64, error) {
	it, err := s.kv.Get(ctx, kv.Key{PK: taskPK(r), SK: skMeta})
	if err != nil {
		return Task{}, 0, fmt.Errorf("get task %s: %w", r, err)
	}
	var t Task
	if err := json.Unmarshal(it.Data, &t); err != nil {
		return Task{}, 0, fmt.Errorf("decode task %s: %w", r, err)
	}
	return t, it.Version, nil
}

func (s store) putMeta(ctx context.Context, t Task, cond kv.Cond) (int64, error) {
	b, err := json.Marshal(t)
	if err != nil {
		return 0, fmt.Errorf("encode task %s: %w", t.Ref, err)
	}
	v, err := s.kv.Put(ctx, kv.Key{PK: taskPK(t.Ref), SK: skMeta}, b, cond)
	if err != nil {
		return 0, fmt.Errorf("put task %s: %w", t.Ref, err)
	}
	return v, nil
}

func (s store) putParams(ctx context.Context, r Ref, params json.RawMessage) error {
	if _, err := s.kv.Put(ctx, kv.Key{PK: taskPK(r), SK: skParams}, params, kv.Cond{}); err != nil {
		return fmt.Errorf("put params of %s: %w", r, err)
	}
	return nil
}

func (s store) getParams(ctx context.Context, r Ref) (json.RawMessage, error) {
	it, err := s.kv.Get(ctx, kv.Key{PK: taskPK(r), SK: skParams})
	if err != nil {
		return nil, fmt.Errorf("get params of %s: %w", r, err)
	}
	return it.Data, nil
}

func (s store) putChunk(ctx context.Context, r Ref, i int, c chunkDoc) error {
	b, err := json.Marshal(c)
	if err != nil {
		return fmt.Errorf("encode chunk %d of %s: %w", i, r, err)
	}
	if _, err := s.kv.Put(ctx, kv.Key{PK: taskPK(r), SK: chunkSK(i)}, b, kv.Cond{}); err != nil {
		return fmt.Errorf("put chunk %d of %s: %w", i, r, err)
	}
	return nil
}

func (s store) getChunk(ctx context.Context, r Ref, i int) (chunkDoc, error) {
	it, err := s.kv.Get(ctx, kv.Key{PK: taskPK(r), SK: chunkSK(i)})
	if err != nil {
		return chunkDoc{}, fmt.Errorf("get chunk %d of %s: %w", i, r, err)
	}
	var c chunkDoc
	if err := json.Unmarshal(it.Data, &c); err != nil {
		return chunkDoc{}, fmt.Errorf("decode chunk %d of %s: %w", i, r, err)
	}
	return c, nil
}

func (s store) rowExists(ctx context.Context, r Ref, key string) (bool, error) {
	_, err := s.kv.Get(ctx, kv.Key{PK: taskPK(r), SK: skRowPrefix + key})
	switch {
	case err == nil:
		return true, nil
	case errors.Is(err, apperr.ErrNotFound):
		return false, nil
	}
	return false, fmt.Errorf("get row %q of %s: %w", key, r, err)
}

// putRow writes a record's answer once. It reports false when a row was already there.
func (s store) putRow(ctx context.Context, r Ref, row rowDoc) (bool, error) {
	b, err := json.Marshal(row)
	if err != nil {
		return false, fmt.Errorf("encode row %q of %s: %w", row.Key, r, err)
	}
	_, err = s.kv.Put(ctx, kv.Key{PK: taskPK(r), SK: skRowPrefix + row.Key}, b, kv.Cond{IfAbsent: true})
	switch {
	case err == nil:
		return true, nil
	case errors.Is(err, apperr.ErrConflict):
		return false, nil
	}
	return false, fmt.Errorf("put row %q of %s: %w", row.Key, r, err)
}

// putSpend records an attempt's spend under its id; writing the same id again is a no-op.
func (s store) putSpend(ctx context.Context, r Ref, attemptID string, sp spendDoc) error {
	b, err := json.Marshal(sp)
	if err != nil {
		return fmt.Errorf("encode spend of %q in %s: %w", sp.Key, r, err)
	}
	_, err = s.kv.Put(ctx, kv.Key{PK: taskPK(r), SK: skSpendPrefix + attemptID}, b, kv.Cond{IfAbsent: true})
	if err != nil && !errors.Is(err, apperr.ErrConflict) {
		return fmt.Errorf("put spend of %q in %s: %w", sp.Key, r, err)
	}
	return nil
}

// spends returns the recorded spend of every attempt of the task.
func (s store) spends(ctx context.Context, r Ref) ([]spendDoc, error) {
	var out []spendDoc
	err := s.each(ctx, taskPK(r), skSpendPrefix, func(it kv.Item) error {
		var sp spendDoc
		if err := json.Unmarshal(it.Data, &sp); err != nil {
			return fmt.Errorf("decode spend %q: %w", it.SK, err)
		}
		out = append(out, sp)
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("read spend of %s: %w", r, err)
	}
	return out, nil
}

func (s store) markDone(ctx context.Context, r Ref, index int) error {
	if _, err := s.kv.Add(ctx, kv.Key{PK: taskPK(r), SK: doneSK(index / doneGroup)}, doneCounter(index), 1, kv.AddCond{}); err != nil {
		return fmt.Errorf("mark record %d of %s done: %w", index, r, err)
	}
	return nil
}

// done returns the indexes of the records whose rows are written.
func (s store) done(ctx context.Context, r Ref) (map[int]bool, error) {
	out := map[int]bool{}
	err := s.each(ctx, taskPK(r), skDonePrefix, func(it kv.Item) error {
		group, err := strconv.Atoi(strings.TrimPrefix(it.SK, skDonePrefix))
		if err != nil {
			return fmt.Errorf("done item %q: %w", it.SK, err)
		}
		readMarks(group, it.Counters, out)
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("read progress of %s: %w", r, err)
	}
	return out, nil
}

// doneIn returns the done marks of records first..first+n-1 (a few small items).
func (s store) doneIn(ctx context.Context, r Ref, first, n int) (map[int]bool, error) {
	out := map[int]bool{}
	for g := first / doneGroup; g <= (first+n-1)/doneGroup; g++ {
		it, err := s.kv.Get(ctx, kv.Key{PK: taskPK(r), SK: doneSK(g)})
		if errors.Is(err, apperr.ErrNotFound) {
			continue
		}
		if err != nil {
			return nil, fmt.Errorf("read progress of %s: %w", r, err)
		}
		readMarks(g, it.Counters, out)
	}
	return out, nil
}

func readMarks(group int, counters map[string]int64, out map[int]bool) {
	for name, v := range counters {
		if i, err := strconv.Atoi(strings.TrimPrefix(name, "r")); err == nil && v > 0 {
			out[group*doneGroup+i] = true
		}
	}
}

func (s store) rows(ctx context.Context, r Ref) ([]rowDoc, error) {
	var out []rowDoc
	err := s.each(ctx, taskPK(r), skRowPrefix, func(it kv.Item) error {
		var row rowDoc
		if err := json.Unmarshal(it.Data, &row); err != nil {
			return fmt.Errorf("decode row %q: %w", it.SK, err)
		}
		out = append(out, row)
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("read rows of %s: %w", r, err)
	}
	return out, nil
}

func (s store) each(ctx context.Context, pk, prefix string, fn func(kv.Item) error) error {
	cursor := ""
	for {
		page, err := s.kv.Query(ctx, pk, kv.QueryOptions{Prefix: prefix, Limit: queryPage, Cursor: cursor})
		if err != nil {
			return err
		}
		for _, it := range page.Items {
			if err := fn(it); err != nil {
				return err
			}
		}
		if page.Next == "" {
			return nil
		}
		cursor = page.Next
	}
}

func (s store) putActive(ctx context.Context, r Ref, createdMS int64) error {
	b, _ := json.Marshal(activeDoc{CreatedAt: createdMS})
	if _, err := s.kv.Put(ctx, activeKey(r), b, kv.Cond{IfAbsent: true}); err != nil {
		return fmt.Errorf("register task %s: %w", r, err)
	}
	return nil
}

func (s store) deleteActive(ctx context.Context, r Ref) error {
	if err := s.kv.Delete(ctx, activeKey(r), kv.Cond{}); err != nil {
		return fmt.Errorf("unregister task %s: %w", r, err)
	}
	return nil
}

// active lists the unfinished tasks.
func (s store) active(ctx context.Context) ([]Ref, error) {
	var out []Ref
	err := s.each(ctx, pkActive, "", func(it kv.Item) error {
		org, id, ok := strings.Cut(it.SK, "#")
		if !ok {
			return fmt.Errorf("active task item %q: %w", it.SK, apperr.ErrInvalid)
		}
		out = append(out, Ref{OrgID: org, TaskID: id})
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("list active tasks: %w", err)
	}
	return out, nil
}

// discard removes what an aborted submission wrote: meta, params, input chunks and
// the active entry. Rows and done marks cannot exist yet: no workflow was started.
func (s store) discard(ctx context.Context, r Ref) error {
	pk := taskPK(r)
	var errs []error
	errs = append(errs, s.kv.Delete(ctx, kv.Key{PK: pk, SK: skMeta}, kv.Cond{}))
	errs = append(errs, s.kv.Delete(ctx, kv.Key{PK: pk, SK: skParams}, kv.Cond{}))
	var chunks []string
	errs = append(errs, s.each(ctx, pk, skChunkPrefix, func(it kv.Item) error {
		chunks = append(chunks, it.SK)
		return nil
	}))
	for _, sk := range chunks {
		errs = append(errs, s.kv.Delete(ctx, kv.Key{PK: pk, SK: sk}, kv.Cond{}))
	}
	errs = append(errs, s.kv.Delete(ctx, activeKey(r), kv.Cond{}))
	if err := errors.Join(errs...); err != nil {
		return fmt.Errorf("discard task %s: %w", r, err)
	}
	return nil
}

// calls is the memo.Store of one record's finished paid calls (SK "call#").
type calls struct {
	kv  kv.Store
	ref Ref
	key string
}

var _ memo.Store = calls{}

func (s store) calls(r Ref, key string) calls { return calls{kv: s.kv, ref: r, key: key} }

func (c calls) sk(call string) string { return skCallPrefix + c.key + "#" + call }

func (c calls) Load(ctx context.Context, call string) ([]byte, bool, error) {
	it, err := c.kv.Get(ctx, kv.Key{PK: taskPK(c.ref), SK: c.sk(call)})
	switch {
	case err == nil:
		return it.Data, true, nil
	case errors.Is(err, apperr.ErrNotFound):
		return nil, false, nil
	}
	return nil, false, fmt.Errorf("get kept call of %q in %s: %w", c.key, c.ref, err)
}

func (c calls) Save(ctx context.Context, call string, val []byte) error {
	_, err := c.kv.Put(ctx, kv.Key{PK: taskPK(c.ref), SK: c.sk(call)}, val, kv.Cond{IfAbsent: true})
	if err != nil && !errors.Is(err, apperr.ErrConflict) {
		return fmt.Errorf("keep call of %q in %s: %w", c.key, c.ref, err)
	}
	return nil
}
