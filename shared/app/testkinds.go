package app

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"time"

	"github.com/firmoapi/firmo/shared/apperr"
	"github.com/firmoapi/firmo/shared/billing"
	"github.com/firmoapi/firmo/shared/task"
	"github.com/firmoapi/firmo/shared/task/tasktest"
)

// TestTaskKind is the task kind FIRMO_TEST_TASK_KINDS registers: tasktest's echo
// processor, slowed by the task parameter delay_ms, whose rows also name the route
// their record ran under (cell "route": the route its charges would be recorded
// under). End-to-end tests submit it and run it in the real worker and steps
// binaries; no deployment sets the variable.
const TestTaskKind = "test_echo"

// registerTestKinds adds TestTaskKind. With FIRMO_TEST_RUN_LOG set, each run first
// appends its record key to that file, so a test counts runs across worker processes
// (and runs cut short by a kill).
func registerTestKinds(c *Core) error {
	return c.Tasks.Kinds().Register(task.Kind{
		Name:         TestTaskKind,
		Processor:    &delayedEcho{echo: &tasktest.Echo{}, runLog: c.Config.AWS.TestRunLog},
		Columns:      tasktest.Columns,
		StatusRoutes: []string{task.GenStatusRoute},
	})
}

type delayedEcho struct {
	echo   *tasktest.Echo
	runLog string
}

func (d *delayedEcho) Provider() string { return "" }

func (d *delayedEcho) Process(ctx context.Context, rec task.Record) (task.Result, error) {
	if d.runLog != "" {
		f, err := os.OpenFile(d.runLog, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o644)
		if err != nil {
			return task.Result{}, apperr.Retryable(fmt.Errorf("run log: %w", err), 0)
		}
		_, err = fmt.Fprintln(f, rec.Key) // one short O_APPEND write: whole lines across processes
		f.Close()
		if err != nil {
			return task.Result{}, apperr.Retryable(fmt.Errorf("run log: %w", err), 0)
		}
	}
	var p struct {
		DelayMS int `json:"delay_ms"`
	}
	json.Unmarshal(rec.Params, &p)
	if p.DelayMS > 0 {
		t := time.NewTimer(time.Duration(p.DelayMS) * time.Millisecond)
		select {
		case <-ctx.Done():
			t.Stop()
			return task.Result{}, ctx.Err()
		case <-t.C:
		}
	}
	res, err := d.echo.Process(ctx, rec)
	if err == nil && res.Row != nil {
		res.Row["route"] = billing.RouteOf(ctx)
	}
	return res, err
}
