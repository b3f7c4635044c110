package memqueue_test

import (
	"context"
	"errors"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/firmoapi/firmo/shared/task"
	"github.com/firmoapi/firmo/shared/task/memqueue"
)

// fakeSteps records the step calls of each task.
type fakeSteps struct {
	chunks     int
	doneAfter  int   // checks before Done
	failCheck  error // returned by every CheckProgress when set
	mu         sync.Mutex
	calls      []string
	finalized  map[task.Ref]task.FinalizeInput
	finalizeCh chan task.Ref
}

func newFakeSteps(chunks, doneAfter int) *fakeSteps {
	return &fakeSteps{chunks: chunks, doneAfter: doneAfter, finalized: map[task.Ref]task.FinalizeInput{}, finalizeCh: make(chan task.Ref, 10)}
}

func (f *fakeSteps) note(s string) {
	f.mu.Lock()
	f.calls = append(f.calls, s)
	f.mu.Unlock()
}

func (f *fakeSteps) Prepare(ctx context.Context, in task.PrepareInput) (task.PrepareOutput, error) {
	f.note("prepare")
	return task.PrepareOutput{Ref: in.Ref, Chunks: f.chunks, More: f.chunks > 0}, nil
}

func (f *fakeSteps) EnqueueChunk(ctx context.Context, in task.EnqueueInput) (task.EnqueueOutput, error) {
	f.note("enqueue")
	next := in.NextChunk + 1
	return task.EnqueueOutput{Ref: in.Ref, Chunks: in.Chunks, NextChunk: next, More: next < in.Chunks}, nil
}

func (f *fakeSteps) CheckProgress(ctx context.Context, in task.CheckInput) (task.CheckOutput, error) {
	f.note("check")
	if f.failCheck != nil {
		return task.CheckOutput{}, f.failCheck
	}
	out := task.CheckOutput{CheckInput: in}
	out.Checks++
	out.Done = out.Checks >= f.doneAfter
	return out, nil
}

func (f *fakeSteps) Finalize(ctx context.Context, in task.FinalizeInput) (task.FinalizeOutput, error) {
	f.note("finalize")
	f.mu.Lock()
	f.finalized[in.Ref] = in
	f.mu.Unlock()
	f.finalizeCh <- in.Ref
	return task.FinalizeOutput{Ref: in.Ref, Status: task.StatusCompleted}, nil
}

func (f *fakeSteps) waitFinalized(t *testing.T) task.Ref {
	t.Helper()
	select {
	case r := <-f.finalizeCh:
		return r
	case <-time.After(10 * time.Second):
		t.Fatal("no Finalize within 10 s")
		return task.Ref{}
	}
}

func TestWorkflowRunsTheSteps(t *testing.T) {
	steps := newFakeSteps(3, 3)
	w := memqueue.NewWorkflow(memqueue.FlowOptions{PollEvery: time.Millisecond})
	t.Cleanup(w.Close)
	ref := task.Ref{OrgID: "o", TaskID: "t1"}
	// Started before Run, and twice: it waits for Run and runs once.
	w.Start(context.Background(), ref)
	w.Start(context.Background(), ref)
	w.Run(steps)
	steps.waitFinalized(t)
	waitFor(t, func() bool { return w.Running() == 0 })
	got := strings.Join(steps.calls, ",")
	if want := "prepare,enqueue,enqueue,enqueue,check,check,check,finalize"; got != want {
		t.Fatalf("steps = %s, want %s", got, want)
	}
	if in := steps.finalized[ref]; in.Error != nil || in.GiveUp {
		t.Fatalf("finalize input = %+v", in)
	}
}

func TestWorkflowStepFailureFinalizesWithError(t *testing.T) {
	steps := newFakeSteps(1, 1)
	steps.failCheck = errors.New("store down: secret detail")
	w := memqueue.NewWorkflow(memqueue.FlowOptions{StepAttempts: 3, StepRetryDelay: time.Millisecond})
	t.Cleanup(w.Close)
	w.Run(steps)
	ref := task.Ref{OrgID: "o", TaskID: "t2"}
	w.Start(context.Background(), ref)
	steps.waitFinalized(t)
	in := steps.finalized[ref]
	if in.Error == nil || in.Error.Code != "workflow_failed" || !strings.Contains(in.Error.Message, "check progress") || strings.Contains(in.Error.Message, "secret") {
		t.Fatalf("finalize error = %+v", in.Error)
	}
	if n := strings.Count(strings.Join(steps.calls, ","), "check"); n != 3 {
		t.Fatalf("check progress tried %d times, want StepAttempts 3", n)
	}
}

// TestWorkflowCloseStopsWithoutFinalizing: a closing workflow leaves its tasks
// unfinished, for the next start to resume.
func TestWorkflowCloseStopsWithoutFinalizing(t *testing.T) {
	steps := newFakeSteps(1, 1_000_000)
	w := memqueue.NewWorkflow(memqueue.FlowOptions{PollEvery: time.Millisecond})
	w.Run(steps)
	w.Start(context.Background(), task.Ref{OrgID: "o", TaskID: "t3"})
	waitFor(t, func() bool { return w.Running() == 1 })
	time.Sleep(10 * time.Millisecond)
	w.Close()
	if len(steps.finalized) != 0 || w.Running() != 0 {
		t.Fatalf("after Close: %d finalized, %d running", len(steps.finalized), w.Running())
	}
	if err := w.Start(context.Background(), task.Ref{OrgID: "o", TaskID: "t4"}); !errors.Is(err, memqueue.ErrClosed) {
		t.Fatalf("Start after Close = %v", err)
	}
}
