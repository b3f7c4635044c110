// Package memo keeps the answers of paid outside calls (model calls on a customer's
// keys) for one unit of work, so that a unit redone after it was cut short (a record
// given back to the queue before the Lambda deadline, a redelivered message) answers
// the calls that already finished from the kept copy instead of making them again.
//
// The unit of work puts a Scope in the context (With); a caller wraps a call with Do
// and a key naming the call's content. Outside a scope Do simply calls.
package memo

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"strconv"
	"sync"
	"time"
)

// Store keeps answers by key for one unit of work (the task engine keeps them in its
// task store, beside the record's row).
type Store interface {
	// Load returns the kept answer of key; ok is false when there is none.
	Load(ctx context.Context, key string) (val []byte, ok bool, err error)
	// Save keeps an answer. Saving a key again keeps the first answer.
	Save(ctx context.Context, key string, val []byte) error
}

// Scope is one run of a unit of work over its Store. It numbers repeated calls with
// the same content (the second identical call of a run is a call of its own, and a
// redone run replays it as the second), so a Scope belongs to one run: make a new one
// for each.
type Scope struct {
	st   Store
	mu   sync.Mutex
	seen map[string]int
}

// NewScope starts a run over st.
func NewScope(st Store) *Scope { return &Scope{st: st, seen: map[string]int{}} }

func (s *Scope) next(key string) string {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.seen[key]++
	return key + "." + strconv.Itoa(s.seen[key])
}

type scopeKey struct{}

// With returns ctx carrying the scope.
func With(ctx context.Context, s *Scope) context.Context {
	return context.WithValue(ctx, scopeKey{}, s)
}

func from(ctx context.Context) *Scope {
	s, _ := ctx.Value(scopeKey{}).(*Scope)
	return s
}

type startKey struct{}

// OnCall returns ctx carrying fn, which Do runs just before it makes a call itself, never
// for an answer it replays: a caller counts a paid call there as it starts (the task
// engine's cost_metadata), so a call in flight when the process dies is counted once, and
// a replayed one is not counted again.
func OnCall(ctx context.Context, fn func()) context.Context {
	return context.WithValue(ctx, startKey{}, fn)
}

func started(ctx context.Context) {
	if fn, _ := ctx.Value(startKey{}).(func()); fn != nil {
		fn()
	}
}

// Key names a call by its content: a SHA-256 of the parts' JSON, in hex.
func Key(parts ...any) string {
	h := sha256.New()
	enc := json.NewEncoder(h)
	for _, p := range parts {
		enc.Encode(p) // hashing writes never fail; an unencodable part hashes as nothing
	}
	return hex.EncodeToString(h.Sum(nil))
}

// saveWithin bounds the write of a finished call's answer, which runs even when the
// unit's context ended just as the call returned: the call was made and paid for.
const saveWithin = 5 * time.Second

// Do returns the answer kept for this call of key in ctx's scope (replayed true), or
// runs fn and keeps its answer when it succeeds. Failed calls are not kept: a redone
// run calls again. Without a scope in ctx it runs fn.
func Do[T any](ctx context.Context, key string, fn func() (T, error)) (v T, replayed bool, err error) {
	s := from(ctx)
	if s == nil {
		started(ctx)
		v, err = fn()
		return v, false, err
	}
	k := s.next(key)
	raw, ok, err := s.st.Load(ctx, k)
	if err != nil {
		return v, false, fmt.Errorf("read the kept answer of a call: %w", err)
	}
	if ok {
		if err := json.Unmarshal(raw, &v); err == nil {
			return v, true, nil
		}
		// an unreadable copy (a changed answer type): call again
	}
	started(ctx)
	v, err = fn()
	if err != nil {
		return v, false, err
	}
	b, merr := json.Marshal(v)
	if merr == nil {
		sctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), saveWithin)
		defer cancel()
		// A failed save costs only the replay of this call; the answer itself stands.
		_ = s.st.Save(sctx, k, b)
	}
	return v, false, nil
}
