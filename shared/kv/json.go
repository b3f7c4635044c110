package kv

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/firmoapi/firmo/shared/apperr"
)

// PutJSON writes v, encoded as JSON, as the document of an item.
func PutJSON(ctx context.Context, s Store, key Key, v any, cond Cond) (int64, error) {
	data, err := json.Marshal(v)
	if err != nil {
		return 0, fmt.Errorf("encode %s: %w", key, err)
	}
	ver, err := s.Put(ctx, key, data, cond)
	if err != nil {
		return 0, fmt.Errorf("put %s: %w", key, err)
	}
	return ver, nil
}

// GetJSON reads an item and decodes its JSON document into v.
func GetJSON(ctx context.Context, s Store, key Key, v any) (Item, error) {
	it, err := s.Get(ctx, key)
	if err != nil {
		return it, err
	}
	if err := json.Unmarshal(it.Data, v); err != nil {
		return it, fmt.Errorf("decode %s: %w", key, err)
	}
	return it, nil
}

// Lookup is GetJSON for an item that may be absent: found is false, v untouched and the
// error nil when there is no item under key.
func Lookup(ctx context.Context, s Store, key Key, v any) (found bool, err error) {
	_, err = GetJSON(ctx, s, key, v)
	if errors.Is(err, apperr.ErrNotFound) {
		return false, nil
	}
	return err == nil, err
}
