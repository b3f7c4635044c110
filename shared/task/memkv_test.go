package task_test

import (
	"context"
	"encoding/base64"
	"errors"
	"fmt"
	"maps"
	"sort"
	"strings"
	"sync"
	"testing"

	"github.com/firmoapi/firmo/shared/apperr"
	"github.com/firmoapi/firmo/shared/kv"
	"github.com/firmoapi/firmo/shared/kv/kvtest"
)

// memKV is an in-memory kv.Store for the benchmarks only: it separates the engine's own
// cost per record from bbolt's (one fsynced transaction per write). It passes the kv
// contract suite (TestMemKVContract), so the engine runs on it unchanged.
type memKV struct {
	mu    sync.Mutex
	items map[kv.Key]*kv.Item
}

func newMemKV() *memKV { return &memKV{items: map[kv.Key]*kv.Item{}} }

func TestMemKVContract(t *testing.T) {
	kvtest.Run(t, func(t *testing.T) kv.Store { return newMemKV() })
}

func copyItem(it *kv.Item) kv.Item {
	out := *it
	out.Data = append([]byte(nil), it.Data...)
	if it.Data == nil {
		out.Data = nil
	}
	out.Counters = maps.Clone(it.Counters)
	return out
}

func (m *memKV) Get(ctx context.Context, key kv.Key) (kv.Item, error) {
	if err := kv.ValidateKey(key); err != nil {
		return kv.Item{}, err
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	it, ok := m.items[key]
	if !ok {
		return kv.Item{}, fmt.Errorf("get %s: %w", key, apperr.ErrNotFound)
	}
	return copyItem(it), nil
}

func (m *memKV) GetMany(ctx context.Context, keys []kv.Key) (map[kv.Key]kv.Item, error) {
	out := map[kv.Key]kv.Item{}
	for _, k := range keys {
		it, err := m.Get(ctx, k)
		if errors.Is(err, apperr.ErrNotFound) {
			continue
		}
		if err != nil {
			return nil, err
		}
		out[k] = it
	}
	return out, nil
}

func (m *memKV) Put(ctx context.Context, key kv.Key, data []byte, cond kv.Cond) (int64, error) {
	if err := kv.ValidateKey(key); err != nil {
		return 0, err
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	it, ok := m.items[key]
	has := ok && it.Version > 0
	if cond.IfAbsent && has {
		return 0, fmt.Errorf("put %s: %w", key, apperr.ErrConflict)
	}
	if cond.IfVersion > 0 && (!has || it.Version != cond.IfVersion) {
		return 0, fmt.Errorf("put %s: %w", key, apperr.ErrConflict)
	}
	if !ok {
		it = &kv.Item{Key: key}
		m.items[key] = it
	}
	it.Version++
	it.Data = append([]byte{}, data...)
	return it.Version, nil
}

func (m *memKV) Add(ctx context.Context, key kv.Key, counter string, delta int64, cond kv.AddCond) (int64, error) {
	if err := kv.ValidateKey(key); err != nil {
		return 0, err
	}
	if err := kv.ValidateCounter(counter); err != nil {
		return 0, err
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	it, ok := m.items[key]
	var cur int64
	if ok {
		cur = it.Counters[counter]
	}
	if cond.Min != nil && cur+delta < *cond.Min {
		return 0, fmt.Errorf("add %s: %w", key, apperr.ErrConflict)
	}
	if !ok {
		it = &kv.Item{Key: key}
		m.items[key] = it
	}
	if it.Counters == nil {
		it.Counters = map[string]int64{}
	}
	it.Counters[counter] = cur + delta
	return cur + delta, nil
}

func (m *memKV) Query(ctx context.Context, pk string, opts kv.QueryOptions) (kv.Page, error) {
	if err := kv.ValidateKey(kv.Key{PK: pk, SK: "-"}); err != nil {
		return kv.Page{}, err
	}
	after := ""
	if opts.Cursor != "" {
		raw, err := base64.RawURLEncoding.DecodeString(opts.Cursor)
		if err != nil {
			return kv.Page{}, fmt.Errorf("cursor: %w", apperr.ErrInvalid)
		}
		after = string(raw)
	}
	m.mu.Lock()
	var keys []string
	for k := range m.items {
		if k.PK == pk && strings.HasPrefix(k.SK, opts.Prefix) {
			keys = append(keys, k.SK)
		}
	}
	sort.Strings(keys)
	if opts.Reverse {
		for i, j := 0, len(keys)-1; i < j; i, j = i+1, j-1 {
			keys[i], keys[j] = keys[j], keys[i]
		}
	}
	var page kv.Page
	for _, sk := range keys {
		if after != "" && (!opts.Reverse && sk <= after || opts.Reverse && sk >= after) {
			continue
		}
		if len(page.Items) == opts.PageSize() {
			page.Next = base64.RawURLEncoding.EncodeToString([]byte(page.Items[len(page.Items)-1].SK))
			break
		}
		page.Items = append(page.Items, copyItem(m.items[kv.Key{PK: pk, SK: sk}]))
	}
	m.mu.Unlock()
	return page, nil
}

func (m *memKV) Delete(ctx context.Context, key kv.Key, cond kv.Cond) error {
	if err := kv.ValidateKey(key); err != nil {
		return err
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	it, ok := m.items[key]
	if cond.IfVersion > 0 && (!ok || it.Version != cond.IfVersion) {
		return fmt.Errorf("delete %s: %w", key, apperr.ErrConflict)
	}
	delete(m.items, key)
	return nil
}

func (m *memKV) Close() error { return nil }
