package kv

import (
	"context"
	"encoding/json"
	"fmt"
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
