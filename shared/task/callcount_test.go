package task_test

import (
	"context"
	"encoding/json"
	"path/filepath"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/firmoapi/firmo/shared/kv"
	"github.com/firmoapi/firmo/shared/task"
	"github.com/firmoapi/firmo/shared/task/memqueue"
)

// killable dies (every write fails, as far as the engine can tell) once killed.
type killable struct {
	kv.Store
	dead *atomic.Bool
}

func (s killable) Put(ctx context.Context, key kv.Key, data []byte, cond kv.Cond) (int64, error) {
	if s.dead.Load() {
		return 0, errKilled
	}
	return s.Store.Put(ctx, key, data, cond)
}

// inFlight starts its model call (counting it), then the process is killed while the
// call is in flight: no answer, no Result, nothing more written.
type inFlight struct {
	dead    *atomic.Bool
	started sync.WaitGroup
	calls   atomic.Int64
}

func (*inFlight) Provider() string { return "llm" }

func (p *inFlight) Process(ctx context.Context, rec task.Record) (task.Result, error) {
	task.CallStarted(ctx, "test", "slow-1")
	p.calls.Add(1)
	p.started.Done()
	p.started.Wait() // every record's call is in flight
	p.dead.Store(true)
	<-ctx.Done()
	return task.Result{}, ctx.Err()
}

// The review's finding: 350 calls made, 300 reported after a kill -9 (the calls in
// flight were counted only with their answers). A call is now counted as it starts: a
// process killed with five calls in flight leaves cost_metadata at five calls.
func TestCallsInFlightAtAKillAreCounted(t *testing.T) {
	st := openStore(t, filepath.Join(t.TempDir(), "tasks.db"))
	dead := &atomic.Bool{}
	proc := &inFlight{dead: dead}
	reg := task.NewRegistry()
	if err := reg.Register(task.Kind{Name: "slow", Processor: proc, Columns: []string{"answer"}}); err != nil {
		t.Fatal(err)
	}
	eng := task.New(task.Deps{Store: killable{Store: st, dead: dead}, Kinds: reg, Queue: memqueue.New(memqueue.Options{}),
		Flow: memqueue.NewWorkflow(memqueue.FlowOptions{}), Limiter: task.NewLimiter(nil, 0)})
	const n = 5
	var inputs []task.Input
	for i := range n {
		inputs = append(inputs, task.Input{Key: string(rune('a' + i))})
	}
	sub, err := eng.Submit(context.Background(), task.Submission{OrgID: org, Kind: "slow", Records: inputs, Field: "domains", Params: json.RawMessage(`{}`)})
	if err != nil {
		t.Fatal(err)
	}
	ref := task.Ref{OrgID: org, TaskID: sub.TaskID}
	proc.started.Add(n)
	ctx, kill := context.WithCancel(context.Background())
	var wg sync.WaitGroup
	for i, in := range inputs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			_ = eng.Handle(ctx, task.Message{Ref: ref, Index: i, Key: in.Key})
		}()
	}
	proc.started.Wait()
	kill()
	wg.Wait()

	// The next process reads the task from the same store.
	next := task.New(task.Deps{Store: st, Kinds: reg, Queue: memqueue.New(memqueue.Options{}), Flow: memqueue.NewWorkflow(memqueue.FlowOptions{})})
	v, err := next.Status(context.Background(), ref)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := json.Marshal(v.CostMetadata)
	var meta map[string]struct {
		Calls int `json:"calls"`
	}
	if err := json.Unmarshal(b, &meta); err != nil {
		t.Fatal(err)
	}
	if got := meta["test/slow-1"].Calls; got != n || proc.calls.Load() != n {
		t.Fatalf("cost_metadata = %s after a kill with %d calls in flight, want %d calls", b, proc.calls.Load(), n)
	}
}
