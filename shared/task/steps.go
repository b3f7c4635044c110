package task

import (
	"context"
	"errors"
	"fmt"

	"github.com/firmoapi/firmo/shared/apperr"
	"github.com/firmoapi/firmo/shared/kv"
)

// The workflow's steps. Each output carries what the next step needs, so a state
// machine can pass one step's output as the next one's input:
//
//	Prepare -> EnqueueChunk while More -> CheckProgress, wait, repeat until Done -> Finalize
//
// On a step's persistent failure the workflow calls Finalize with Error set.

// PrepareInput starts a task's workflow.
type PrepareInput struct {
	Ref
}

// PrepareOutput says how many chunks to enqueue. Skip means enqueue nothing and go to
// the progress check (the task was cancelled or has ended).
type PrepareOutput struct {
	Ref
	Chunks    int  `json:"chunks"`
	NextChunk int  `json:"next_chunk"`
	More      bool `json:"more"`
	Skip      bool `json:"skip"`
}

// EnqueueInput names the chunk to enqueue.
type EnqueueInput struct {
	Ref
	Chunks    int `json:"chunks"`
	NextChunk int `json:"next_chunk"`
}

// EnqueueOutput points at the following chunk; More is false after the last one or
// once the task stopped running.
type EnqueueOutput struct {
	Ref
	Chunks    int  `json:"chunks"`
	NextChunk int  `json:"next_chunk"`
	More      bool `json:"more"`
	Enqueued  int  `json:"enqueued"`
}

// CheckInput is the state of the progress loop, threaded from one check to the next.
type CheckInput struct {
	Ref
	Checks       int   `json:"checks"`
	LastDone     int   `json:"last_done"`
	StallSinceMS int64 `json:"stall_since_ms"`
	Requeues     int   `json:"requeues"`
}

// CheckOutput is the next CheckInput plus the verdict. Done means go to Finalize;
// GiveUp (pass it to Finalize) means records are still missing after every requeue.
type CheckOutput struct {
	CheckInput
	Done        bool   `json:"done"`
	GiveUp      bool   `json:"give_up"`
	Status      Status `json:"status"`
	Total       int    `json:"total"`
	DoneRecords int    `json:"done_records"`
	Progress    int    `json:"progress"`
}

// FinalizeInput ends a task. Error is set when the workflow failed.
type FinalizeInput struct {
	Ref
	GiveUp bool       `json:"give_up,omitempty"`
	Error  *TaskError `json:"error,omitempty"`
}

// FinalizeOutput is the task's final status ("" when the task no longer exists).
type FinalizeOutput struct {
	Ref
	Status Status `json:"status"`
}

// Prepare checks the task and returns the number of input chunks.
func (e *Engine) Prepare(ctx context.Context, in PrepareInput) (PrepareOutput, error) {
	t, _, err := e.store.getMeta(ctx, in.Ref)
	if err != nil {
		return PrepareOutput{}, fmt.Errorf("prepare: %w", err)
	}
	out := PrepareOutput{Ref: in.Ref, Chunks: t.Chunks}
	out.Skip = t.Status != StatusInProgress
	out.More = !out.Skip && t.Chunks > 0
	return out, nil
}

// EnqueueChunk sends one chunk's records that have no row yet (all of them on a fresh
// task; on a resumed one, those lost with the queue).
func (e *Engine) EnqueueChunk(ctx context.Context, in EnqueueInput) (EnqueueOutput, error) {
	out := EnqueueOutput{Ref: in.Ref, Chunks: in.Chunks, NextChunk: in.NextChunk + 1}
	out.More = out.NextChunk < in.Chunks
	t, _, err := e.store.getMeta(ctx, in.Ref)
	if err != nil {
		return EnqueueOutput{}, fmt.Errorf("enqueue: %w", err)
	}
	if t.Status != StatusInProgress || in.NextChunk >= t.Chunks {
		out.More = false
		return out, nil
	}
	c, err := e.store.getChunk(ctx, in.Ref, in.NextChunk)
	if err != nil {
		return EnqueueOutput{}, fmt.Errorf("enqueue: %w", err)
	}
	done, err := e.store.doneIn(ctx, in.Ref, c.First, len(c.Records))
	if err != nil {
		return EnqueueOutput{}, fmt.Errorf("enqueue: %w", err)
	}
	msgs := e.messages(t, c, done)
	if len(msgs) > 0 {
		if err := e.queue.Send(ctx, msgs); err != nil {
			return EnqueueOutput{}, fmt.Errorf("enqueue chunk %d of %s: %w", in.NextChunk, in.Ref, err)
		}
	}
	out.Enqueued = len(msgs)
	return out, nil
}

func (e *Engine) messages(t Task, c chunkDoc, done map[int]bool) []Message {
	provider := ""
	if k, ok := e.kinds.Lookup(t.Kind); ok {
		provider = k.Processor.Provider()
	}
	msgs := make([]Message, 0, len(c.Records))
	for j, r := range c.Records {
		i := c.First + j
		if !done[i] {
			msgs = append(msgs, Message{Ref: t.Ref, Index: i, Key: r.Key, Input: r.Data, Provider: provider})
		}
	}
	return msgs
}

// CheckProgress counts the finished records. Done when all are answered, when the
// task ended, or when it is cancelling and nothing finished since the previous check
// (the records already running have written their answers). When nothing finishes for
// StallAfter, it enqueues the unanswered records again, up to MaxRequeues times.
func (e *Engine) CheckProgress(ctx context.Context, in CheckInput) (CheckOutput, error) {
	t, _, err := e.store.getMeta(ctx, in.Ref)
	if err != nil {
		return CheckOutput{}, fmt.Errorf("check progress: %w", err)
	}
	done, err := e.store.done(ctx, in.Ref)
	if err != nil {
		return CheckOutput{}, fmt.Errorf("check progress: %w", err)
	}
	n := len(done)
	now := e.opts.Now().UnixMilli()
	out := CheckOutput{CheckInput: in, Status: t.Status, Total: t.Total, DoneRecords: n, Progress: progress(n, t.Total)}
	out.Checks++
	out.LastDone = n
	if in.StallSinceMS == 0 || n > in.LastDone {
		out.StallSinceMS = now
	}
	switch {
	case t.Status.Terminal(), n >= t.Total:
		out.Done = true
	case t.Status == StatusCancelling:
		out.Done = in.Checks > 0 && n == in.LastDone
	case now-out.StallSinceMS >= e.opts.StallAfter.Milliseconds():
		if in.Requeues >= e.opts.MaxRequeues {
			out.Done, out.GiveUp = true, true
			break
		}
		sent, err := e.requeue(ctx, t, done)
		if err != nil {
			return CheckOutput{}, fmt.Errorf("check progress: %w", err)
		}
		e.opts.Log.Warn("task stalled: records enqueued again", "task", t.Ref.String(), "records", sent, "round", in.Requeues+1)
		out.Requeues++
		out.StallSinceMS = now
	}
	return out, nil
}

// requeue sends again every record without a done mark.
func (e *Engine) requeue(ctx context.Context, t Task, done map[int]bool) (int, error) {
	sent := 0
	for i := 0; i < t.Chunks; i++ {
		c, err := e.store.getChunk(ctx, t.Ref, i)
		if err != nil {
			return sent, err
		}
		msgs := e.messages(t, c, done)
		if len(msgs) == 0 {
			continue
		}
		if err := e.queue.Send(ctx, msgs); err != nil {
			return sent, err
		}
		sent += len(msgs)
	}
	return sent, nil
}

// Finalize ends the task: cancelled if it was cancelling, failed if the workflow
// reported an error, else completed. A completed task has an answer for every record:
// records still unanswered (GiveUp) get an error cell first.
//
// Nothing atomic spans the task item and a row, so a record that passed Handle's last
// status check just before a cancelled or failed task ended can still write its row
// just after: its answer is kept (results only grow, progress only rises); no record
// starts after the cancel.
func (e *Engine) Finalize(ctx context.Context, in FinalizeInput) (FinalizeOutput, error) {
	for attempt := 0; ; attempt++ {
		t, v, err := e.store.getMeta(ctx, in.Ref)
		if errors.Is(err, apperr.ErrNotFound) {
			return FinalizeOutput{Ref: in.Ref}, e.store.deleteActive(ctx, in.Ref)
		}
		if err != nil {
			return FinalizeOutput{}, fmt.Errorf("finalize: %w", err)
		}
		if t.Status.Terminal() {
			return FinalizeOutput{Ref: in.Ref, Status: t.Status}, e.store.deleteActive(ctx, in.Ref)
		}
		now := e.opts.Now().UTC()
		switch {
		case t.Status == StatusCancelling:
			t.Status = StatusCancelled
		case in.Error != nil:
			t.Status, t.Error = StatusFailed, in.Error
		default:
			missing, err := e.answerMissing(ctx, t)
			if err != nil {
				return FinalizeOutput{}, fmt.Errorf("finalize: %w", err)
			}
			if missing > 0 {
				t.Warnings = append(t.Warnings, Warning{Message: fmt.Sprintf("%d records could not be processed and hold an error.", missing), At: now})
			}
			t.Status = StatusCompleted
		}
		t.UpdatedAt, t.FinishedAt = now, &now
		_, err = e.store.putMeta(ctx, t, kv.Cond{IfVersion: v})
		if errors.Is(err, apperr.ErrConflict) && attempt < 10 {
			continue // a cancel came in between: decide again
		}
		if err != nil {
			return FinalizeOutput{}, fmt.Errorf("finalize: %w", err)
		}
		return FinalizeOutput{Ref: in.Ref, Status: t.Status}, e.store.deleteActive(ctx, in.Ref)
	}
}

// answerMissing writes an error row for every record that has none.
func (e *Engine) answerMissing(ctx context.Context, t Task) (int, error) {
	done, err := e.store.done(ctx, t.Ref)
	if err != nil || len(done) >= t.Total {
		return 0, err
	}
	missing := 0
	for i := 0; i < t.Chunks; i++ {
		c, err := e.store.getChunk(ctx, t.Ref, i)
		if err != nil {
			return missing, err
		}
		for _, m := range e.messages(t, c, done) {
			row := e.errorRow(t, m, 0, "the record could not be processed; submit it again")
			written, err := e.store.putRow(ctx, t.Ref, row)
			if err != nil {
				return missing, err
			}
			if err := e.store.markDone(ctx, t.Ref, m.Index); err != nil {
				return missing, err
			}
			if written {
				missing++
			}
		}
	}
	return missing, nil
}
