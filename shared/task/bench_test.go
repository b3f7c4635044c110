package task_test

import (
	"context"
	"path/filepath"
	"testing"
	"time"

	"github.com/firmoapi/firmo/shared/kv"
	"github.com/firmoapi/firmo/shared/kv/boltkv"
	"github.com/firmoapi/firmo/shared/task"
	"github.com/firmoapi/firmo/shared/task/memqueue"
	"github.com/firmoapi/firmo/shared/task/tasktest"
)

// The task engine's goals (shared/task/BENCHMARKS.md), on the embedded composition wired as
// shared/app wires it: 50 workers per provider lane, at most 50 calls at once per
// provider, the workflow's default 250 ms progress poll. Results: BENCHMARKS.md.

type benchRig struct {
	eng  *task.Engine
	flow *memqueue.Workflow
}

func newBenchRig(b *testing.B, st kv.Store, kinds ...task.Kind) *benchRig {
	b.Helper()
	reg := task.NewRegistry()
	for _, k := range kinds {
		reg.Register(k)
	}
	q := memqueue.New(memqueue.Options{Workers: 50})
	flow := memqueue.NewWorkflow(memqueue.FlowOptions{})
	eng := task.New(task.Deps{Store: st, Kinds: reg, Queue: q, Flow: flow, Limiter: task.NewLimiter(nil, 50)})
	q.Run(eng)
	flow.Run(eng)
	b.Cleanup(func() {
		flow.Close()
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		q.Close(ctx)
	})
	return &benchRig{eng: eng, flow: flow}
}

func boltStore(b *testing.B) kv.Store {
	st, err := boltkv.Open(filepath.Join(b.TempDir(), "bench.db"))
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { st.Close() })
	return st
}

// run submits n records and waits until the workflow has finalized the task.
func (r *benchRig) run(b *testing.B, kind string, n int) time.Duration {
	b.Helper()
	start := time.Now()
	s, err := r.eng.Submit(context.Background(), task.Submission{OrgID: "bench", Kind: kind, Records: tasktest.Keys("r", n)})
	if err != nil {
		b.Fatal(err)
	}
	for r.flow.Running() > 0 {
		time.Sleep(2 * time.Millisecond)
	}
	wall := time.Since(start)
	v, err := r.eng.Status(context.Background(), task.Ref{OrgID: "bench", TaskID: s.TaskID})
	if err != nil || v.Status != task.StatusCompleted || len(v.Results) != n {
		b.Fatalf("task ended %s with %d rows (%v)", v.Status, len(v.Results), err)
	}
	return wall
}

// BenchmarkEngineOverhead: a no-op processor over 10,000 records; the whole run's wall
// time per record is the engine's overhead. On bbolt every record costs two fsynced
// write transactions (its row, its done mark), which bbolt runs one at a time; the
// in-memory store shows the engine's cost without them.
func BenchmarkEngineOverhead(b *testing.B) {
	for _, tc := range []struct {
		name  string
		store func(*testing.B) kv.Store
	}{
		{"bbolt", boltStore},
		{"memory", func(*testing.B) kv.Store { return newMemKV() }},
	} {
		b.Run(tc.name, func(b *testing.B) {
			const n = 10_000
			r := newBenchRig(b, tc.store(b), (&tasktest.Echo{}).Kind("noop"))
			var total time.Duration
			for b.Loop() {
				total += r.run(b, "noop", n)
			}
			b.ReportMetric(float64(total.Microseconds())/float64(b.N*n)/1000, "ms/record")
			b.ReportMetric(0, "ns/op")
		})
	}
}

// BenchmarkWallTime200ms: 10,000 records whose work is a 200 ms call, at concurrency 50.
// The ideal is 10,000 x 0.2 s / 50 = 40 s; the goal is at most 1.25x.
func BenchmarkWallTime200ms(b *testing.B) {
	const n, work, conc = 10_000, 200 * time.Millisecond, 50
	ideal := time.Duration(n/conc) * work
	r := newBenchRig(b, boltStore(b), (&tasktest.Echo{Delay: work, Prov: "remote"}).Kind("call"))
	var total time.Duration
	for b.Loop() {
		total += r.run(b, "call", n)
	}
	wall := total / time.Duration(b.N)
	b.ReportMetric(wall.Seconds(), "s/task")
	b.ReportMetric(wall.Seconds()/ideal.Seconds(), "x_ideal")
	b.ReportMetric(0, "ns/op")
}

// BenchmarkSubmit10k: the submit call with 10,000 records (the goal: under 100 ms).
func BenchmarkSubmit10k(b *testing.B) {
	st := boltStore(b)
	reg := task.NewRegistry()
	reg.Register((&tasktest.Echo{}).Kind("noop"))
	// A workflow that never runs: only the submission's own writes are measured.
	flow := memqueue.NewWorkflow(memqueue.FlowOptions{})
	eng := task.New(task.Deps{Store: st, Kinds: reg, Queue: memqueue.New(memqueue.Options{}), Flow: flow})
	records := tasktest.Keys("example-domain-", 10_000)
	for b.Loop() {
		if _, err := eng.Submit(context.Background(), task.Submission{OrgID: "bench", Kind: "noop", Records: records}); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(b.Elapsed().Microseconds())/float64(b.N)/1000, "ms/submit")
}
