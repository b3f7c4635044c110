package task_test

import (
	"context"
	"encoding/json"
	"errors"
	"path/filepath"
	"sync"
	"testing"

	"github.com/firmoapi/firmo/shared/apperr"
	"github.com/firmoapi/firmo/shared/billing"
	"github.com/firmoapi/firmo/shared/kv"
	"github.com/firmoapi/firmo/shared/task"
)

// routeSeen is a processor that notes the route each record runs under: the route
// its charges would be recorded under.
type routeSeen struct {
	mu     sync.Mutex
	routes map[string]string
}

func (p *routeSeen) Provider() string { return "" }

func (p *routeSeen) Process(ctx context.Context, rec task.Record) (task.Result, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.routes == nil {
		p.routes = map[string]string{}
	}
	p.routes[rec.Key] = billing.RouteOf(ctx)
	return task.Result{Row: map[string]any{"ok": true}}, nil
}

func (p *routeSeen) of(key string) string {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.routes[key]
}

// outbox is the queue of the submitting process: it keeps what would go to SQS.
type outbox struct {
	mu   sync.Mutex
	msgs []task.Message
}

func (q *outbox) Send(_ context.Context, msgs []task.Message) error {
	q.mu.Lock()
	defer q.mu.Unlock()
	q.msgs = append(q.msgs, msgs...)
	return nil
}

// idleFlow accepts every start: the test runs the steps itself.
type idleFlow struct{}

func (idleFlow) Start(context.Context, task.Ref) error { return nil }

// process is one process of the AWS composition over the shared store: its own
// registry, engine and processor, nothing in memory shared with the others.
type process struct {
	eng  *task.Engine
	seen *routeSeen
	out  *outbox
}

func newProcess(t *testing.T, st kv.Store, kinds ...string) *process {
	t.Helper()
	p := &process{seen: &routeSeen{}, out: &outbox{}}
	reg := task.NewRegistry()
	for _, k := range kinds {
		if err := reg.Register(task.Kind{Name: k, Processor: p.seen, Columns: []string{"ok"}}); err != nil {
			t.Fatal(err)
		}
	}
	p.eng = task.New(task.Deps{Store: st, Kinds: reg, Queue: p.out, Flow: idleFlow{}})
	return p
}

// submitAndEnqueue submits a task of kind under ctx and runs the workflow's enqueue
// steps, returning its messages as a queue delivers them (JSON, as SQS carries them).
func (p *process) submitAndEnqueue(t *testing.T, ctx context.Context, kind string, keys ...string) (task.Ref, []task.Message) {
	t.Helper()
	recs := make([]task.Input, len(keys))
	for i, k := range keys {
		recs[i] = task.Input{Key: k}
	}
	sub, err := p.eng.Submit(ctx, task.Submission{OrgID: org, Kind: kind, Records: recs})
	if err != nil {
		t.Fatal(err)
	}
	ref := task.Ref{OrgID: org, TaskID: sub.TaskID}
	bg := context.Background() // the workflow runs outside the request
	prep, err := p.eng.Prepare(bg, task.PrepareInput{Ref: ref})
	if err != nil {
		t.Fatal(err)
	}
	for in := (task.EnqueueInput{Ref: ref, Chunks: prep.Chunks, NextChunk: prep.NextChunk}); ; {
		out, err := p.eng.EnqueueChunk(bg, in)
		if err != nil {
			t.Fatal(err)
		}
		if !out.More {
			break
		}
		in.NextChunk = out.NextChunk
	}
	p.out.mu.Lock()
	defer p.out.mu.Unlock()
	var msgs []task.Message
	for _, m := range p.out.msgs {
		if m.Ref != ref {
			continue
		}
		raw, err := json.Marshal(m)
		if err != nil {
			t.Fatal(err)
		}
		var got task.Message
		if err := json.Unmarshal(raw, &got); err != nil {
			t.Fatal(err)
		}
		msgs = append(msgs, got)
	}
	if len(msgs) != len(keys) {
		t.Fatalf("enqueued %d messages for %d records", len(msgs), len(keys))
	}
	return ref, msgs
}

// TestRecordsRunUnderTheSubmittingRoute: the API process submits a task under the
// route that was called; a worker process with its own engine, whose context names
// another route or none, handles the queued records, and every record runs under the
// submitting route, the one its charges are recorded under.
func TestRecordsRunUnderTheSubmittingRoute(t *testing.T) {
	st := openStore(t, filepath.Join(t.TempDir(), "tasks.db"))
	api, worker := newProcess(t, st, "routed"), newProcess(t, st, "routed")
	const route = "POST /v1/test/routed"
	_, msgs := api.submitAndEnqueue(t, billing.WithRoute(context.Background(), route), "routed", "a", "b")
	for i, ctx := range []context.Context{context.Background(), billing.WithRoute(context.Background(), "GET /v1/elsewhere")} {
		if err := worker.eng.Handle(ctx, msgs[i]); err != nil {
			t.Fatal(err)
		}
	}
	for _, k := range []string{"a", "b"} {
		if got := worker.seen.of(k); got != route {
			t.Errorf("record %s ran under %q, want the submitting route %q", k, got, route)
		}
	}
}

// TestRecordsOfTasksWithoutARoute: a task stored without a route (before the engine
// recorded routes) runs under its kind's former route, and one whose kind had none
// under no route at all (its charges are refused), never the route of whatever runs it.
func TestRecordsOfTasksWithoutARoute(t *testing.T) {
	st := openStore(t, filepath.Join(t.TempDir(), "tasks.db"))
	api, worker := newProcess(t, st, "bulkmatch", "newkind"), newProcess(t, st, "bulkmatch", "newkind")
	for kind, want := range map[string]string{"bulkmatch": "POST /v1/bulkmatch", "newkind": ""} {
		_, msgs := api.submitAndEnqueue(t, context.Background(), kind, kind+"-1")
		if err := worker.eng.Handle(billing.WithRoute(context.Background(), "GET /v1/elsewhere"), msgs[0]); err != nil {
			t.Fatal(err)
		}
		if got := worker.seen.of(kind + "-1"); got != want {
			t.Errorf("a %s record of a task without a route ran under %q, want %q", kind, got, want)
		}
	}
}

// TestRouteContext: work charged on a task's behalf outside its records (bulk match
// bills on delivery) gets the submitting route, whatever route delivers it.
func TestRouteContext(t *testing.T) {
	st := openStore(t, filepath.Join(t.TempDir(), "tasks.db"))
	api, other := newProcess(t, st, "routed"), newProcess(t, st, "routed")
	const route = "POST /v1/test/routed"
	ref, _ := api.submitAndEnqueue(t, billing.WithRoute(context.Background(), route), "routed", "a")
	ctx, err := other.eng.RouteContext(billing.WithRoute(context.Background(), "GET /v1/test/status/{id}"), ref)
	if err != nil || billing.RouteOf(ctx) != route {
		t.Fatalf("RouteContext = %q, %v; want %q", billing.RouteOf(ctx), err, route)
	}
	_, err = other.eng.RouteContext(context.Background(), task.Ref{OrgID: "org-b", TaskID: ref.TaskID})
	if !errors.Is(err, apperr.ErrNotFound) {
		t.Fatalf("another organisation's task: err = %v, want not found", err)
	}
}
