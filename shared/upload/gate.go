package upload

import (
	"context"
	"io"
	"runtime"
	"time"

	"github.com/firmoapi/firmo/shared/apperr"
)

// PerCore is how many uploads a Gate from NewGate lets parse at once per core.
const PerCore = 2

// DefaultWait is how long an upload waits for a parsing slot before it is refused.
const DefaultWait = 10 * time.Second

// Gate bounds the uploads parsed at once in a process: with Read's limits it bounds
// the memory uploads take together, whatever arrives. An upload waits for a slot up to
// the gate's wait, then is refused with a 503 carrying Retry-After. A nil *Gate lets
// everything through (the CLI, reading one local file).
type Gate struct {
	slots chan struct{}
	wait  time.Duration
}

// NewGate makes a gate of PerCore slots per core (runtime.GOMAXPROCS) whose uploads
// wait up to wait (DefaultWait when zero).
func NewGate(wait time.Duration) *Gate {
	return NewGateSize(PerCore*runtime.GOMAXPROCS(0), wait)
}

// NewGateSize makes a gate of n slots (at least one).
func NewGateSize(n int, wait time.Duration) *Gate {
	if wait <= 0 {
		wait = DefaultWait
	}
	return &Gate{slots: make(chan struct{}, max(n, 1)), wait: wait}
}

// Enter takes a slot, waiting for one up to the gate's wait or until ctx ends; the
// caller calls release once parsing is done. A refusal is apperr.ErrUnavailable (503)
// with a RetryAfter.
func (g *Gate) Enter(ctx context.Context) (release func(), err error) {
	if g == nil {
		return func() {}, nil
	}
	release = func() { <-g.slots }
	select {
	case g.slots <- struct{}{}:
		return release, nil
	default:
	}
	timer := time.NewTimer(g.wait)
	defer timer.Stop()
	select {
	case g.slots <- struct{}{}:
		return release, nil
	case <-timer.C:
		return nil, &apperr.Error{Kind: apperr.ErrUnavailable, Field: Field, RetryAfter: time.Second,
			Message: "the server is reading as many uploads as it can at once; send the file again shortly"}
	case <-ctx.Done():
		return nil, ctx.Err()
	}
}

// Read reads an upload (the package's Read) once a slot is free.
func (g *Gate) Read(ctx context.Context, r io.Reader, name string, limits Limits) (Table, error) {
	release, err := g.Enter(ctx)
	if err != nil {
		return Table{}, err
	}
	defer release()
	return Read(r, name, limits)
}
