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
// task that does not exist. Cancel is the same on every route.
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

	c, err := eng.Cancel(on(other), owned)
	if err != nil || !c.Success || c.Status != task.StatusCancelling {
		t.Fatalf("Cancel on another route = %+v, %v; want cancelling", c, err)
	}
}
