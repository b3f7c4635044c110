package kv

import (
	"context"
	"errors"
	"fmt"

	"github.com/firmoapi/firmo/shared/apperr"
)

// Pointer is an item that names another item by id, such as an organisation's default LLM
// integration or default search provider. Its document is {"id": ...}.
type Pointer struct {
	Store Store
	Key   Key
}

// Get returns the id pointed at, "" when the pointer is not set.
func (p Pointer) Get(ctx context.Context) (string, error) {
	var d struct {
		ID string `json:"id"`
	}
	if _, err := Lookup(ctx, p.Store, p.Key, &d); err != nil {
		return "", fmt.Errorf("pointer %s: %w", p.Key, err)
	}
	return d.ID, nil
}

// Set points at id under cond; with IfAbsent, a pointer already set is left alone and
// reported as apperr.ErrConflict.
func (p Pointer) Set(ctx context.Context, id string, cond Cond) error {
	_, err := PutJSON(ctx, p.Store, p.Key, map[string]string{"id": id}, cond)
	return err
}

// Clear removes the pointer.
func (p Pointer) Clear(ctx context.Context) error {
	if err := p.Store.Delete(ctx, p.Key, Cond{}); err != nil && !errors.Is(err, apperr.ErrNotFound) {
		return fmt.Errorf("clear pointer %s: %w", p.Key, err)
	}
	return nil
}

// Or returns id when it is given, else the id pointed at (viaPointer true), else unset,
// the caller's error for "nothing given and no default".
func (p Pointer) Or(ctx context.Context, id string, unset error) (resolved string, viaPointer bool, err error) {
	if id != "" {
		return id, false, nil
	}
	def, err := p.Get(ctx)
	if err != nil {
		return "", true, err
	}
	if def == "" {
		return "", true, unset
	}
	return def, true, nil
}
