package memqueue

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"sync"
	"time"

	"github.com/firmoapi/firmo/shared/apperr"
	"github.com/firmoapi/firmo/shared/task"
)

// Steps are the task workflow's steps; task.Engine implements them. The Step
// Functions state machine calls the same methods through functions/steps.
type Steps interface {
	Prepare(ctx context.Context, in task.PrepareInput) (task.PrepareOutput, error)
	EnqueueChunk(ctx context.Context, in task.EnqueueInput) (task.EnqueueOutput, error)
	CheckProgress(ctx context.Context, in task.CheckInput) (task.CheckOutput, error)
	Finalize(ctx context.Context, in task.FinalizeInput) (task.FinalizeOutput, error)
}

// FlowOptions tune the workflow.
type FlowOptions struct {
	// PollEvery is the wait between progress checks; default 250 ms.
	PollEvery time.Duration
	// StepAttempts bounds tries of one step (the state machine's Retry); default 5.
	StepAttempts int
	// StepRetryDelay is the first delay between tries, doubling; default 200 ms.
	StepRetryDelay time.Duration
	Log            *slog.Logger
}

// Workflow is the in-process task.Workflow: one goroutine per running task, doing what
// the state machine in statemachines/ does on AWS.
type Workflow struct {
	opts    FlowOptions
	mu      sync.Mutex
	steps   Steps
	running map[task.Ref]bool
	pending []task.Ref
	closed  bool
	ctx     context.Context
	cancel  context.CancelFunc
	wg      sync.WaitGroup
}

var _ task.Workflow = (*Workflow)(nil)

// NewWorkflow makes a workflow. Tasks started before Run wait for it.
func NewWorkflow(opts FlowOptions) *Workflow {
	if opts.PollEvery <= 0 {
		opts.PollEvery = 250 * time.Millisecond
	}
	if opts.StepAttempts <= 0 {
		opts.StepAttempts = 5
	}
	if opts.StepRetryDelay <= 0 {
		opts.StepRetryDelay = 200 * time.Millisecond
	}
	if opts.Log == nil {
		opts.Log = slog.New(slog.DiscardHandler)
	}
	ctx, cancel := context.WithCancel(context.Background())
	return &Workflow{opts: opts, running: map[task.Ref]bool{}, ctx: ctx, cancel: cancel}
}

// Start implements task.Workflow. Starting a task that is already running does nothing.
func (w *Workflow) Start(_ context.Context, r task.Ref) error {
	w.mu.Lock()
	defer w.mu.Unlock()
	switch {
	case w.closed:
		return ErrClosed
	case w.running[r]:
		return nil
	}
	w.running[r] = true
	if w.steps == nil {
		w.pending = append(w.pending, r)
		return nil
	}
	w.launchLocked(r)
	return nil
}

// Run starts driving tasks with the steps.
func (w *Workflow) Run(steps Steps) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.steps = steps
	for _, r := range w.pending {
		w.launchLocked(r)
	}
	w.pending = nil
}

func (w *Workflow) launchLocked(r task.Ref) {
	w.wg.Add(1)
	go func() {
		defer w.wg.Done()
		w.drive(r)
		w.mu.Lock()
		delete(w.running, r)
		w.mu.Unlock()
	}()
}

// Close stops every driver and waits for them. Their tasks stay listed as unfinished
// in the store and resume at the next start.
func (w *Workflow) Close() {
	w.mu.Lock()
	w.closed = true
	w.mu.Unlock()
	w.cancel()
	w.wg.Wait()
}

// Running is the number of tasks being driven.
func (w *Workflow) Running() int {
	w.mu.Lock()
	defer w.mu.Unlock()
	return len(w.running)
}

// drive runs one task to its end: Prepare, EnqueueChunk per chunk, CheckProgress until
// done, Finalize. A step failing StepAttempts times fails the task (the state
// machine's Catch). When the workflow closes, it stops where it is.
func (w *Workflow) drive(r task.Ref) {
	ctx := w.ctx
	giveUp, err := w.run(ctx, r)
	if ctx.Err() != nil {
		return
	}
	in := task.FinalizeInput{Ref: r, GiveUp: giveUp}
	if err != nil {
		step := "workflow"
		var se stepError
		if errors.As(err, &se) {
			step = se.step
		}
		w.opts.Log.Error("task workflow failed", "task", r.String(), "err", err)
		in.Error = &task.TaskError{Code: "workflow_failed", Message: fmt.Sprintf("The task stopped because its %s step failed repeatedly; finished answers are kept.", step)}
	}
	if _, err := retry(ctx, w, "finalize", func() (task.FinalizeOutput, error) { return w.steps.Finalize(ctx, in) }); err != nil && ctx.Err() == nil {
		w.opts.Log.Error("task finalize failed; it resumes at the next start", "task", r.String(), "err", err)
	}
}

func (w *Workflow) run(ctx context.Context, r task.Ref) (giveUp bool, err error) {
	p, err := retry(ctx, w, "prepare", func() (task.PrepareOutput, error) { return w.steps.Prepare(ctx, task.PrepareInput{Ref: r}) })
	if err != nil {
		return false, err
	}
	in := task.EnqueueInput{Ref: r, Chunks: p.Chunks, NextChunk: p.NextChunk}
	for more := p.More; more; {
		out, err := retry(ctx, w, "enqueue", func() (task.EnqueueOutput, error) { return w.steps.EnqueueChunk(ctx, in) })
		if err != nil {
			return false, err
		}
		in.NextChunk, more = out.NextChunk, out.More
	}
	check := task.CheckInput{Ref: r}
	for {
		out, err := retry(ctx, w, "check progress", func() (task.CheckOutput, error) { return w.steps.CheckProgress(ctx, check) })
		if err != nil {
			return false, err
		}
		if out.Done {
			return out.GiveUp, nil
		}
		check = out.CheckInput
		if err := wait(ctx, w.opts.PollEvery); err != nil {
			return false, err
		}
	}
}

type stepError struct {
	step string
	err  error
}

func (e stepError) Error() string { return e.step + ": " + e.err.Error() }
func (e stepError) Unwrap() error { return e.err }

// retry runs a step up to StepAttempts times with doubling delays. A missing task is
// not retried.
func retry[T any](ctx context.Context, w *Workflow, step string, fn func() (T, error)) (T, error) {
	delay := w.opts.StepRetryDelay
	for attempt := 1; ; attempt++ {
		out, err := fn()
		if err == nil || ctx.Err() != nil {
			return out, err
		}
		if attempt >= w.opts.StepAttempts || errors.Is(err, apperr.ErrNotFound) {
			return out, stepError{step: step, err: err}
		}
		w.opts.Log.Warn("task step failed; retrying", "step", step, "attempt", attempt, "err", err)
		if err := wait(ctx, delay); err != nil {
			return out, err
		}
		delay = min(2*delay, 10*time.Second)
	}
}

func wait(ctx context.Context, d time.Duration) error {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-t.C:
		return nil
	}
}
