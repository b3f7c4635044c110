// Package app is the core of Firmo's composition: configuration, storage, accounts,
// billing, rate limits, the task engine and the HTTP server, built once per process
// (Build) on a Backend, embedded (shared/app/localbackend) or AWS (AWSBackend). Each
// endpoint family is composed on top of that core by its own composer
// (shared/app/<family>app), which builds only the family's services, routes and task
// kinds, so a Lambda links and initialises only what its family serves.
//
// Nothing heavy happens here: models, indexes and clients are built by the families
// on first use.
package app

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"sync"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"

	"github.com/firmoapi/firmo/shared/account"
	"github.com/firmoapi/firmo/shared/billing"
	"github.com/firmoapi/firmo/shared/config"
	"github.com/firmoapi/firmo/shared/httpapi"
	"github.com/firmoapi/firmo/shared/kv"
	"github.com/firmoapi/firmo/shared/openapi"
	"github.com/firmoapi/firmo/shared/ratelimit"
	"github.com/firmoapi/firmo/shared/task"
)

// Composer builds one endpoint family on a core: its services, its routes (added to
// Core.Server) and its task kinds (registered on Core.Tasks). Whatever it opens it
// hands to Core.OnClose.
type Composer interface {
	Family() httpapi.Family
	Compose(ctx context.Context, c *Core) error
}

// NewComposer makes the Composer of a family from the function that builds its
// services on a core (once per core: families that share a service build it through
// Shared) and the function that makes its routes over them.
func NewComposer[S any](family httpapi.Family, build func(context.Context, *Core) (S, error), routes func(S) []httpapi.Route) Composer {
	return composerFunc{family: family, compose: func(ctx context.Context, c *Core) error {
		s, err := build(ctx, c)
		if err != nil {
			return err
		}
		c.Server.Add(routes(s)...)
		return nil
	}}
}

type composerFunc struct {
	family  httpapi.Family
	compose func(context.Context, *Core) error
}

func (f composerFunc) Family() httpapi.Family                     { return f.family }
func (f composerFunc) Compose(ctx context.Context, c *Core) error { return f.compose(ctx, c) }

// Backend is what differs between the compositions: the item store, the task
// runtime, the rate-limit counters and, on AWS, the SDK configuration.
type Backend struct {
	Store   kv.Store
	Queue   task.Queue    // nil: submissions answer 503 (see task.Deps)
	Flow    task.Workflow // nil: likewise
	Tasks   task.Options  // the engine's timeouts and retries for this runtime
	Limiter ratelimit.Limiter
	// AWS is the SDK configuration of the AWS composition; nil locally, where a family
	// that needs one (OpenSearch with SigV4) loads it itself.
	AWS *aws.Config
	// Run starts the runtime's in-process workers on the engine (embedded queue and
	// workflow); nil on AWS, where SQS and Step Functions run tasks.
	Run func(*task.Engine)
	// Stop ends what Run started, letting in-flight records finish until ctx ends.
	Stop func(ctx context.Context) error
}

// Core holds the services every family shares.
type Core struct {
	Config   config.Config
	Log      *slog.Logger
	Store    kv.Store
	AWS      *aws.Config // nil locally
	Accounts *account.Service
	Billing  *billing.Service
	// Tasks is the async task engine; families register their kinds on Tasks.Kinds().
	Tasks  *task.Engine
	Server *httpapi.Server

	backend Backend
	started bool

	mu      sync.Mutex
	closers []func() error
	shared  map[string]*sharedPart
}

// taskConcurrency bounds the records of one provider running at once (each provider
// gets its own lane of that many workers in the embedded queue).
const taskConcurrency = 50

// TaskConcurrency is the per-provider concurrency of the embedded queue.
func TaskConcurrency() int { return taskConcurrency }

// Deps are what a core is built from.
type Deps struct {
	// Config is the process's configuration, read by the core and every family.
	Config config.Config
	// Log receives the logs of the core, the HTTP server, the task engine and the
	// families. Required.
	Log *slog.Logger
	// Backend is the composition's storage and task runtime (localbackend.New or
	// AWSBackend). The core owns it from then on: closing the core closes its Store.
	Backend Backend
}

// Build makes the core on d.Backend and composes the given families on it, in order.
// On error everything opened so far is closed.
func Build(ctx context.Context, d Deps, families ...Composer) (*Core, error) {
	cfg, b := d.Config, d.Backend
	c := &Core{Config: cfg, Log: d.Log, Store: b.Store, AWS: b.AWS, backend: b, shared: map[string]*sharedPart{}}
	c.OnClose(b.Store.Close)
	c.build()
	if cfg.AWS.TestTaskKinds {
		if err := registerTestKinds(c); err != nil {
			c.Close()
			return nil, err
		}
	}
	for _, f := range families {
		if err := f.Compose(ctx, c); err != nil {
			c.Close()
			return nil, fmt.Errorf("compose family %s: %w", f.Family(), err)
		}
	}
	return c, nil
}

// build makes the core services; none of them opens anything or can fail.
func (c *Core) build() {
	c.Accounts = account.New(c.Store, account.WithLogger(c.Log))
	c.Billing = billing.New(c.Store)
	c.Server = httpapi.NewServer(httpapi.Deps{Log: c.Log, Auth: c.Accounts, MaxBody: c.Config.MaxBodyBytes, Known: knownRoutes, Refunds: c.Billing})
	c.Server.UseRateLimits(c.backend.Limiter)
	opts := c.backend.Tasks
	opts.Log = c.Log
	c.Tasks = task.New(task.Deps{Store: c.Store, Kinds: task.NewRegistry(), Queue: c.backend.Queue, Flow: c.backend.Flow, Limiter: task.NewLimiter(nil, taskConcurrency), Options: opts})
}

// knownRoutes lists every operation of the API reference as a route pattern.
func knownRoutes() ([]string, error) {
	ops, err := openapi.Operations()
	if err != nil {
		return nil, fmt.Errorf("read API reference: %w", err)
	}
	known := make([]string, len(ops))
	for i, op := range ops {
		known[i] = op.Method + " " + op.Path
	}
	return known, nil
}

// OnClose registers fn to run when the core closes, after everything registered later
// (the reverse order of opening).
func (c *Core) OnClose(fn func() error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.closers = append(c.closers, fn)
}

// Closer registers an io.Closer with OnClose; nil is ignored.
func (c *Core) Closer(cl io.Closer) {
	if cl != nil {
		c.OnClose(cl.Close)
	}
}

// Close stops the task workers, then closes everything the composition opened, last
// opened first. It is the one cleanup path of every composition.
func (c *Core) Close() error {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	errs := []error{c.StopTasks(ctx)}
	c.mu.Lock()
	closers := c.closers
	c.closers = nil
	c.mu.Unlock()
	for i := len(closers) - 1; i >= 0; i-- {
		errs = append(errs, closers[i]())
	}
	return errors.Join(errs...)
}

// StartTasks runs the in-process task workers and resumes every unfinished task (after
// a crash, the records without an answer are enqueued again). On AWS, SQS and Step
// Functions run tasks and this does nothing.
func (c *Core) StartTasks(ctx context.Context) error {
	if c.backend.Run == nil || c.started {
		return nil
	}
	c.started = true
	c.backend.Run(c.Tasks)
	n, err := c.Tasks.Resume(ctx)
	if err != nil {
		return fmt.Errorf("resume unfinished tasks: %w", err)
	}
	if n > 0 {
		c.Log.Info("resumed unfinished tasks", "tasks", n)
	}
	return nil
}

// StopTasks stops the in-process workers, letting in-flight records finish until ctx
// ends; records cut short write nothing and are redone at the next start.
func (c *Core) StopTasks(ctx context.Context) error {
	if c.backend.Stop == nil {
		return nil
	}
	return c.backend.Stop(ctx)
}

// Handler serves the given endpoint families, or every family composed.
func (c *Core) Handler(families ...httpapi.Family) http.Handler {
	return c.Server.Handler(families...)
}

// sharedPart is one service several families use, built once per core.
type sharedPart struct {
	once sync.Once
	v    any
	err  error
}

// Shared returns the part named key, building it on first use. Families that need the
// same service (the company pipeline, the LLM integrations) build it through Shared, so
// a composition of several families builds it once. key names the builder, by its
// package and function ("emailapp.Service"), so it is unique in the program.
func Shared[T any](c *Core, key string, build func() (T, error)) (T, error) {
	c.mu.Lock()
	p := c.shared[key]
	if p == nil {
		p = &sharedPart{}
		c.shared[key] = p
	}
	c.mu.Unlock()
	p.once.Do(func() { p.v, p.err = build() })
	if p.err != nil {
		var zero T
		return zero, p.err
	}
	return p.v.(T), nil
}

// NewLogger makes the structured logger the configuration asks for.
func NewLogger(cfg config.Config, w io.Writer) *slog.Logger {
	opts := &slog.HandlerOptions{Level: cfg.LogLevel}
	if cfg.LogFormat == "json" {
		return slog.New(slog.NewJSONHandler(w, opts))
	}
	return slog.New(slog.NewTextHandler(w, opts))
}
