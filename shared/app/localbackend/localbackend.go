// Package localbackend is the backend of the local composition (`firmo serve`):
// items in an embedded bbolt file under the data directory, tasks on the in-process
// queue and workflow, rate limits counted in process (one process serves everything).
// Only the local composition imports it, so no Lambda links bbolt.
package localbackend

import (
	"context"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"time"

	"github.com/firmoapi/firmo/shared/app"
	"github.com/firmoapi/firmo/shared/config"
	"github.com/firmoapi/firmo/shared/kv/boltkv"
	"github.com/firmoapi/firmo/shared/ratelimit/memlimit"
	"github.com/firmoapi/firmo/shared/task"
	"github.com/firmoapi/firmo/shared/task/memqueue"
)

// StoreFile is the embedded store's file under the data directory.
const StoreFile = "firmo.db"

// New opens the embedded store under cfg.DataDir and makes the in-process task
// runtime. Nothing in the queue or workflow is persisted: unfinished tasks resume from
// the store when the core starts its tasks.
func New(cfg config.Config, log *slog.Logger) (app.Backend, error) {
	if err := os.MkdirAll(cfg.DataDir, 0o700); err != nil {
		return app.Backend{}, fmt.Errorf("create data dir: %w", err)
	}
	store, err := boltkv.Open(filepath.Join(cfg.DataDir, StoreFile))
	if err != nil {
		return app.Backend{}, err
	}
	q := memqueue.New(memqueue.Options{Workers: app.TaskConcurrency(), Log: log})
	f := memqueue.NewWorkflow(memqueue.FlowOptions{Log: log})
	return app.Backend{
		Store: store, Queue: q, Flow: f, Limiter: memlimit.New(time.Now),
		Run: func(e *task.Engine) {
			q.Run(e)
			f.Run(e)
		},
		Stop: func(ctx context.Context) error {
			f.Close()
			return q.Close(ctx)
		},
	}, nil
}

// Build composes the given families on the embedded backend: the local composition of
// a subset of the API (tests compose one family, as its Lambda does).
func Build(ctx context.Context, cfg config.Config, log *slog.Logger, families ...app.Composer) (*app.Core, error) {
	b, err := New(cfg, log)
	if err != nil {
		return nil, err
	}
	return app.Build(ctx, app.Deps{Config: cfg, Log: log, Backend: b}, families...)
}
