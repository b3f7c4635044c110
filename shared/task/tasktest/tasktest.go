// Package tasktest holds a test task kind whose processor is observable: it counts
// how often each record ran and how many ran at once, and behaves by key prefix.
//
//	"fail:..."     fails without retry: the row holds "Error: <reason>"
//	"flaky<N>:..." fails with apperr.Retryable on its first N attempts (N = 1..9)
//	"down<N>:..."  fails with a bare apperr.ErrUnavailable on its first N attempts, as a
//	               storage adapter reports an outage (N = 1..9)
//	"warn:..."     answers with the warning "warned <key>" and the shared warning "shared warning"
//	"panic:..."    panics (the engine answers the record with an error)
//	anything else  answers {"echo": key, "attempt": n, "index": i} after Delay
//
// It is test code, never registered by the production composition.
package tasktest

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/firmoapi/firmo/shared/apperr"
	"github.com/firmoapi/firmo/shared/task"
)

// Columns are the echo kind's result columns.
var Columns = []string{"echo", "attempt", "index"}

// Echo is the test processor.
type Echo struct {
	Delay time.Duration
	Prov  string // provider for the concurrency limits; "" for none
	// OnRun, when set, is called as each run starts (a crash test logs runs to a
	// file, which a kill -9 does not lose).
	OnRun func(rec task.Record)

	mu      sync.Mutex
	runs    map[string]int
	active  atomic.Int64
	maxSeen atomic.Int64
	total   atomic.Int64
}

var _ task.Processor = (*Echo)(nil)

// Kind registers e under name, read through GET /v1/gen/status.
func (e *Echo) Kind(name string) task.Kind {
	return task.Kind{Name: name, Processor: e, Columns: Columns, StatusRoutes: []string{task.GenStatusRoute}}
}

// Provider implements task.Processor.
func (e *Echo) Provider() string { return e.Prov }

// Process implements task.Processor.
func (e *Echo) Process(ctx context.Context, rec task.Record) (task.Result, error) {
	e.total.Add(1)
	e.mu.Lock()
	if e.runs == nil {
		e.runs = map[string]int{}
	}
	e.runs[rec.Key]++
	e.mu.Unlock()
	if e.OnRun != nil {
		e.OnRun(rec)
	}
	n := e.active.Add(1)
	defer e.active.Add(-1)
	for {
		m := e.maxSeen.Load()
		if n <= m || e.maxSeen.CompareAndSwap(m, n) {
			break
		}
	}
	if e.Delay > 0 {
		t := time.NewTimer(e.Delay)
		select {
		case <-ctx.Done():
			t.Stop()
			return task.Result{}, ctx.Err()
		case <-t.C:
		}
	}
	return behave(rec)
}

func behave(rec task.Record) (task.Result, error) {
	key := rec.Key
	switch {
	case strings.HasPrefix(key, "fail:"):
		return task.Result{}, fmt.Errorf("no answer for %s", key)
	case strings.HasPrefix(key, "panic:"):
		panic("tasktest: panic for " + key)
	case strings.HasPrefix(key, "flaky") && len(key) > 6 && key[6] == ':':
		if n := int(key[5] - '0'); rec.Attempt <= n {
			return task.Result{}, apperr.Retryable(errors.New("provider busy"), time.Millisecond)
		}
	case strings.HasPrefix(key, "down") && len(key) > 5 && key[5] == ':':
		if n := int(key[4] - '0'); rec.Attempt <= n {
			return task.Result{}, fmt.Errorf("store down: %w", apperr.ErrUnavailable)
		}
	}
	tokens := int64(10)
	res := task.Result{
		Row:   map[string]any{"echo": key, "attempt": rec.Attempt, "index": rec.Index},
		Usage: []task.Usage{{Provider: "test", Model: "echo-1", Calls: 1, PromptTokens: &tokens, CostUSD: 0.001}},
	}
	if strings.HasPrefix(key, "warn:") {
		res.Warnings = []string{"warned " + key, "shared warning"}
	}
	return res, nil
}

// RunsOf returns how often a key ran in this process.
func (e *Echo) RunsOf(key string) int {
	e.mu.Lock()
	defer e.mu.Unlock()
	return e.runs[key]
}

// Calls is the number of Process calls.
func (e *Echo) Calls() int { return int(e.total.Load()) }

// MaxConcurrent is the most records that ran at once.
func (e *Echo) MaxConcurrent() int { return int(e.maxSeen.Load()) }

// Keys makes n record keys "<prefix>0", "<prefix>1", ...
func Keys(prefix string, n int) []task.Input {
	out := make([]task.Input, n)
	for i := range out {
		out[i] = task.Input{Key: fmt.Sprintf("%s%d", prefix, i)}
	}
	return out
}
