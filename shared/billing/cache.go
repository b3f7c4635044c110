package billing

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/firmoapi/firmo/shared/apperr"
	"github.com/firmoapi/firmo/shared/kv"
)

// seenDoc is a dedupe-cache entry: the charge that last billed the record, and when.
type seenDoc struct {
	At     time.Time `json:"at"`
	Charge string    `json:"charge"`
}

// claim is a cache entry this charge holds, at the version it wrote or found.
type claim struct {
	key     kv.Key
	version int64
}

// seenKey gives every record its own partition: the cache is only ever read by key,
// and DynamoDB spreads the writes of a large charge over many partitions.
func seenKey(orgID string, kind Kind, record string) kv.Key {
	return kv.Key{PK: fmt.Sprintf("billing#seen#%s#%s#%s", orgID, kind, record), SK: "seen"}
}

// claimAll claims the charge's records of dedupe kinds in the dedupe cache and returns
// the claims it holds (exactly the net-new records) and, by part, how many it won.
func (c *charge) claimAll(ctx context.Context, now time.Time) ([]claim, []int, error) {
	doc, err := json.Marshal(seenDoc{At: now, Charge: c.id})
	if err != nil {
		return nil, nil, err
	}
	type target struct {
		part int
		key  kv.Key
	}
	var targets []target
	for i, p := range c.parts {
		if !p.Kind.Dedupe() {
			continue
		}
		for _, rec := range p.Records {
			targets = append(targets, target{i, seenKey(c.org.ID, p.Kind, rec)})
		}
	}
	var (
		mu     sync.Mutex
		claims []claim
		won    = make([]int, len(c.parts))
	)
	err = parallel(ctx, len(targets), func(ctx context.Context, i int) error {
		ver, ok, err := c.claimOne(ctx, targets[i].key, doc, now)
		if err != nil || !ok {
			return err
		}
		mu.Lock()
		claims = append(claims, claim{key: targets[i].key, version: ver})
		won[targets[i].part]++
		mu.Unlock()
		return nil
	})
	if err != nil {
		// Give back what was won so far: a failed charge must not make records look billed.
		c.release(context.WithoutCancel(ctx), claims)
		return nil, nil, fmt.Errorf("claim records: %w", err)
	}
	return claims, won, nil
}

// claimOne claims one record. It wins a record no one holds, one whose entry is older
// than the window, and one this same charge claimed before (a retry).
func (c *charge) claimOne(ctx context.Context, key kv.Key, doc []byte, now time.Time) (version int64, won bool, err error) {
	for range 5 {
		v, err := c.s.store.Put(ctx, key, doc, kv.Cond{IfAbsent: true})
		if err == nil {
			return v, true, nil
		}
		if !errors.Is(err, apperr.ErrConflict) {
			return 0, false, err
		}
		it, err := c.s.store.Get(ctx, key)
		if errors.Is(err, apperr.ErrNotFound) {
			continue // released by a refused charge meanwhile
		}
		if err != nil {
			return 0, false, err
		}
		var prev seenDoc
		if err := json.Unmarshal(it.Data, &prev); err != nil {
			return 0, false, fmt.Errorf("decode %s: %w", key, err)
		}
		if prev.Charge == c.id {
			return it.Version, true, nil
		}
		if now.Sub(prev.At) < DedupeWindow {
			return 0, false, nil
		}
		v, err = c.s.store.Put(ctx, key, doc, kv.Cond{IfVersion: it.Version})
		if err == nil {
			return v, true, nil
		}
		if !errors.Is(err, apperr.ErrConflict) {
			return 0, false, err
		}
	}
	return 0, false, fmt.Errorf("claim %s: contended: %w", key, apperr.ErrConflict)
}

// release deletes claims, each only while it is still at the version this charge left,
// so a newer claim by another charge survives. An expired entry this charge replaced is
// deleted too, which bills the record as net-new next time, as the expired entry would.
func (c *charge) release(ctx context.Context, claims []claim) error {
	err := parallel(ctx, len(claims), func(ctx context.Context, i int) error {
		err := c.s.store.Delete(ctx, claims[i].key, kv.Cond{IfVersion: claims[i].version})
		if errors.Is(err, apperr.ErrConflict) {
			return nil
		}
		return err
	})
	if err != nil {
		return fmt.Errorf("release claims of refused charge: %w", err)
	}
	return nil
}
