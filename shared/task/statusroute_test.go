package task_test

import (
	"context"
	"errors"
	"path/filepath"
	"testing"

	"github.com/firmoapi/firmo/shared/apperr"
	"github.com/firmoapi/firmo/shared/billing"
	"github.com/firmoapi/firmo/shared/task"
)

// TestStatusReadsOnlyThroughTheKindsRoutes: Status shows a task only to a request on
// one of its kind's StatusRoutes (or to a caller outside any request); any other
// route, and a process that does not register the kind, answer not found, as for a
// task that does not exist.
func TestStatusReadsOnlyThroughTheKindsRoutes(t *testing.T) {
	const own, other = "GET /v1/own/status/{task_id}", "GET /v1/gen/status/{task_id}"
	st := openStore(t, filepath.Join(t.TempDir(), "tasks.db"))
	seen := &routeSeen{}
	reg := task.NewRegistry()
	for _, k := range []task.Kind{
		{Name: "owned", Processor: seen, Columns: []string{"ok"}, StatusRoutes: []string{own}},
		{Name: "unlisted", Processor: seen, Columns: []string{"ok"}},
	} {
		if err := reg.Register(k); err != nil {
			t.Fatal(err)
		}
	}
	eng := task.New(task.Deps{Store: st, Kinds: reg, Queue: &outbox{}, Flow: idleFlow{}})
	// Another process on the same store that does not register "owned" (the
	// generation Lambda does not know the bulk match kind).
	stranger := task.New(task.Deps{Store: st, Kinds: task.NewRegistry()})

	submit := func(kind string) task.Ref {
		t.Helper()
		sub, err := eng.Submit(billing.WithRoute(context.Background(), "POST /v1/own"), task.Submission{OrgID: org, Kind: kind, Records: []task.Input{{Key: "a"}}})
		if err != nil {
			t.Fatal(err)
		}
		return task.Ref{OrgID: org, TaskID: sub.TaskID}
	}
	owned, unlisted := submit("owned"), submit("unlisted")
	on := func(route string) context.Context {
		if route == "" {
			return context.Background()
		}
		return billing.WithRoute(context.Background(), route)
	}
	for _, tc := range []struct {
		name   string
		eng    *task.Engine
		ref    task.Ref
		route  string
		wantOK bool
	}{
		{"own route", eng, owned, own, true},
		{"another kind's route", eng, owned, other, false},
		{"the submitting route", eng, owned, "POST /v1/own", false},
		{"outside a request", eng, owned, "", true},
		{"kind without routes", eng, unlisted, other, false},
		{"kind without routes, outside a request", eng, unlisted, "", true},
		{"kind not registered here", stranger, owned, own, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			v, err := tc.eng.Status(on(tc.route), tc.ref)
			if tc.wantOK {
				if err != nil || v.TaskID != tc.ref.TaskID {
					t.Fatalf("Status = %+v, %v; want the task", v, err)
				}
				return
			}
			if !errors.Is(err, apperr.ErrNotFound) {
				t.Fatalf("Status err = %v (view %+v); want not found", err, v)
			}
		})
	}

}

// TestCancelReachesOnlyTheGenStatusKinds: DELETE /v1/gen/cancel stops only the kinds
// GET /v1/gen/status reads; another kind (a bulk match, an email batch) is not found
// there and keeps running, as another organisation's task would. Outside a request
// every kind may be cancelled (an email batch abandoning its own task).
func TestCancelReachesOnlyTheGenStatusKinds(t *testing.T) {
	const own = "GET /v1/own/status/{task_id}"
	st := openStore(t, filepath.Join(t.TempDir(), "tasks.db"))
	seen := &routeSeen{}
	reg := task.NewRegistry()
	for _, k := range []task.Kind{
		{Name: "gen", Processor: seen, Columns: []string{"ok"}, StatusRoutes: []string{task.GenStatusRoute}},
		{Name: "owned", Processor: seen, Columns: []string{"ok"}, StatusRoutes: []string{own}},
		{Name: "unlisted", Processor: seen, Columns: []string{"ok"}},
	} {
		if err := reg.Register(k); err != nil {
			t.Fatal(err)
		}
	}
	eng := task.New(task.Deps{Store: st, Kinds: reg, Queue: &outbox{}, Flow: idleFlow{}})
	stranger := task.New(task.Deps{Store: st, Kinds: task.NewRegistry()})
	submit := func(kind string) task.Ref {
		t.Helper()
		sub, err := eng.Submit(billing.WithRoute(context.Background(), "POST /v1/x"), task.Submission{OrgID: org, Kind: kind, Records: []task.Input{{Key: "a"}}})
		if err != nil {
			t.Fatal(err)
		}
		return task.Ref{OrgID: org, TaskID: sub.TaskID}
	}
	for _, tc := range []struct {
		name   string
		eng    *task.Engine
		kind   string
		route  string
		wantOK bool
	}{
		{"gen kind on the gen cancel route", eng, "gen", task.GenCancelRoute, true},
		{"another kind's task on the gen cancel route", eng, "owned", task.GenCancelRoute, false},
		{"kind without routes on the gen cancel route", eng, "unlisted", task.GenCancelRoute, false},
		{"gen kind on a route that is no cancel route", eng, "gen", "DELETE /v1/other/{task_id}", false},
		{"gen kind in a process that does not register it", stranger, "gen", task.GenCancelRoute, false},
		{"another kind outside a request", eng, "owned", "", true},
		{"kind without routes outside a request", eng, "unlisted", "", true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ref := submit(tc.kind)
			ctx := context.Background()
			if tc.route != "" {
				ctx = billing.WithRoute(ctx, tc.route)
			}
			c, err := tc.eng.Cancel(ctx, ref)
			v, serr := eng.Status(context.Background(), ref)
			if serr != nil {
				t.Fatal(serr)
			}
			if tc.wantOK {
				if err != nil || !c.Success || c.Status != task.StatusCancelling || v.Status != task.StatusCancelling {
					t.Fatalf("Cancel = %+v, %v (stored %s); want cancelling", c, err, v.Status)
				}
				return
			}
			if !errors.Is(err, apperr.ErrNotFound) || apperr.Describe(err).Status != 404 {
				t.Fatalf("Cancel = %+v, %v; want not found", c, err)
			}
			if v.Status != task.StatusInProgress {
				t.Fatalf("a refused cancel moved the task to %s", v.Status)
			}
			_, foreign := tc.eng.Cancel(ctx, task.Ref{OrgID: "org-b", TaskID: ref.TaskID})
			if foreign == nil || foreign.Error() != err.Error() {
				t.Fatalf("refused cancel says %v; another organisation's task says %v: want the same answer", err, foreign)
			}
		})
	}
}
