// Package kv is the item storage port: a small interface shaped like DynamoDB that
// holds accounts and every later per-organisation record.
//
// An item is addressed by a partition key and a sort key. It carries an opaque
// document (Data, usually JSON) with a version for optimistic locking, and named
// int64 counters that are updated atomically and independently of the document.
// Adapters: boltkv (embedded) and dynamokv (AWS). The contract is kvtest.Run.
package kv

import (
	"context"
	"fmt"
	"strings"

	"github.com/firmoapi/firmo/shared/apperr"
)

// Key addresses one item.
type Key struct {
	PK string // partition key, e.g. "org#<id>"
	SK string // sort key, e.g. "key#<id>"
}

func (k Key) String() string { return k.PK + "/" + k.SK }

// Item is one stored record.
type Item struct {
	Key
	Data     []byte           // the document; nil when the item only holds counters
	Version  int64            // incremented by every Put; 0 when no document was ever put
	Counters map[string]int64 // atomic counters kept apart from the document
}

// Cond is the condition of a conditional write. The zero value writes unconditionally.
type Cond struct {
	IfAbsent  bool  // succeed only when the item has no document yet
	IfVersion int64 // when > 0, succeed only when the stored version equals it
}

// AddCond bounds an atomic counter update.
type AddCond struct {
	// Min, when set, refuses the update (ErrConflict) if the counter would fall below it.
	// A counter that does not exist counts as 0.
	Min *int64
}

// QueryOptions select and page the items of one partition.
type QueryOptions struct {
	Prefix  string // sort-key prefix; empty selects the whole partition
	Limit   int    // page size; <= 0 means 100
	Cursor  string // opaque cursor returned as Page.Next by the previous call
	Reverse bool   // descending sort-key order
}

// Page is one page of a query. Next is empty when there is nothing more.
type Page struct {
	Items []Item
	Next  string
}

// Store is the storage port. Errors: apperr.ErrNotFound for a missing item,
// apperr.ErrConflict for a failed condition, apperr.ErrInvalid for a bad key.
type Store interface {
	// Get returns the item or an error wrapping apperr.ErrNotFound.
	Get(ctx context.Context, key Key) (Item, error)
	// GetMany reads many items at once (DynamoDB: BatchGetItem, 100 keys a call; bbolt:
	// one read transaction): the items found, by key; a missing key is absent from the
	// map, not an error. Repeated keys are read once.
	GetMany(ctx context.Context, keys []Key) (map[Key]Item, error)
	// Put writes the document of an item, keeping its counters, and returns the new version.
	Put(ctx context.Context, key Key, data []byte, cond Cond) (int64, error)
	// Add adds delta to a named counter and returns its new value.
	Add(ctx context.Context, key Key, counter string, delta int64, cond AddCond) (int64, error)
	// Query lists the items of a partition in sort-key order.
	Query(ctx context.Context, pk string, opts QueryOptions) (Page, error)
	// Delete removes an item (document and counters). Deleting a missing item is not an
	// error unless cond.IfVersion is set.
	Delete(ctx context.Context, key Key, cond Cond) error
	// Close releases the store's resources.
	Close() error
}

// MaxKeyLen bounds both key parts; DynamoDB allows 2048 bytes for a partition key.
const MaxKeyLen = 1024

// ValidateKey checks a key for the rules every adapter shares.
func ValidateKey(k Key) error {
	switch {
	case k.PK == "" || k.SK == "":
		return fmt.Errorf("key %q: %w", k.String(), apperr.ErrInvalid)
	case len(k.PK) > MaxKeyLen || len(k.SK) > MaxKeyLen:
		return fmt.Errorf("key too long: %w", apperr.ErrInvalid)
	case strings.ContainsRune(k.PK, 0) || strings.ContainsRune(k.SK, 0):
		return fmt.Errorf("key contains NUL: %w", apperr.ErrInvalid)
	}
	return nil
}

// ValidateCounter checks a counter name.
func ValidateCounter(name string) error {
	if name == "" || len(name) > 64 {
		return fmt.Errorf("counter name %q: %w", name, apperr.ErrInvalid)
	}
	for _, r := range name {
		if !(r == '_' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9') {
			return fmt.Errorf("counter name %q: %w", name, apperr.ErrInvalid)
		}
	}
	return nil
}

// PageSize applies the default page size.
func (o QueryOptions) PageSize() int {
	if o.Limit <= 0 {
		return 100
	}
	if o.Limit > 1000 {
		return 1000
	}
	return o.Limit
}
