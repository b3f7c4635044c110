package query

import (
	"context"
	"encoding/json"
	"fmt"
	"sync"

	"github.com/firmoapi/firmo/shared/kv"
)

// lists are the full contents of one query.
type lists struct {
	domains  []string
	personas []int64
	gen      int // the query's generation these contents are (Replace)
}

func (l *lists) size() int { return len(l.domains) + len(l.personas) }

// Resolve returns the union of the domains and of the persona ids of the organisation's
// queries ids. An unknown id, or another organisation's, is a not-found error naming it.
func (s *Service) Resolve(ctx context.Context, orgID string, ids []string) (map[string]struct{}, map[int64]struct{}, error) {
	domains := map[string]struct{}{}
	personas := map[int64]struct{}{}
	for _, id := range ids {
		l, err := s.load(ctx, orgID, id)
		if err != nil {
			return nil, nil, err
		}
		for _, d := range l.domains {
			domains[d] = struct{}{}
		}
		for _, p := range l.personas {
			personas[p] = struct{}{}
		}
	}
	return domains, personas, nil
}

// Lists returns one query's domains and persona ids in saved order.
func (s *Service) Lists(ctx context.Context, orgID, id string) (domains []string, personaIDs []int64, err error) {
	l, err := s.load(ctx, orgID, id)
	if err != nil {
		return nil, nil, err
	}
	return append([]string(nil), l.domains...), append([]int64(nil), l.personas...), nil
}

func (s *Service) load(ctx context.Context, orgID, id string) (*lists, error) {
	// The metadata is read every time: it is what makes a deleted query disappear.
	q, err := s.Get(ctx, orgID, id)
	if err != nil {
		return nil, err
	}
	if l := s.cache.get(orgID, id); l != nil && l.gen == q.Gen {
		return l, nil
	}
	l := &lists{gen: q.Gen}
	if err := s.readChunks(ctx, dataPK(orgID, id), chunkPrefix("d#", q.Gen), q.DomainChunks, &l.domains); err != nil {
		return nil, err
	}
	if err := s.readChunks(ctx, dataPK(orgID, id), chunkPrefix("p#", q.Gen), q.PersonaChunk, &l.personas); err != nil {
		return nil, err
	}
	if len(l.domains) != q.DomainCount || len(l.personas) != q.PersonaCount {
		return nil, fmt.Errorf("query %s: read %d domains and %d persona ids, want %d and %d", id, len(l.domains), len(l.personas), q.DomainCount, q.PersonaCount)
	}
	s.cache.put(orgID, id, l)
	return l, nil
}

func readChunk[T any](data []byte, into *[]T) error {
	var part []T
	if err := json.Unmarshal(data, &part); err != nil {
		return err
	}
	*into = append(*into, part...)
	return nil
}

func (s *Service) readChunks(ctx context.Context, pk, prefix string, n int, into any) error {
	opts := kv.QueryOptions{Prefix: prefix, Limit: 20}
	read := 0
	for {
		page, err := s.store.Query(ctx, pk, opts)
		if err != nil {
			return fmt.Errorf("read %s: %w", pk, err)
		}
		for _, it := range page.Items {
			switch dst := into.(type) {
			case *[]string:
				err = readChunk(it.Data, dst)
			case *[]int64:
				err = readChunk(it.Data, dst)
			}
			if err != nil {
				return fmt.Errorf("decode %s: %w", it.Key, err)
			}
			read++
		}
		if page.Next == "" {
			break
		}
		opts.Cursor = page.Next
	}
	if read != n {
		return fmt.Errorf("read %s: %d chunks, want %d", pk, read, n)
	}
	return nil
}

// listCache keeps query contents by id, bounded by the number of entries held. Contents
// of one generation never change, so entries need no invalidation beyond deletion and
// a newer generation (Replace).
type listCache struct {
	mu    sync.Mutex
	limit int
	held  int
	items map[string]*lists
	order []string // insertion order, for eviction
}

func newListCache(limit int) *listCache {
	return &listCache{limit: limit, items: map[string]*lists{}}
}

func (c *listCache) get(orgID, id string) *lists {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.items[orgID+"/"+id]
}

func (c *listCache) put(orgID, id string, l *lists) {
	if l.size() > c.limit {
		return
	}
	k := orgID + "/" + id
	c.mu.Lock()
	defer c.mu.Unlock()
	if e, ok := c.items[k]; ok {
		if e.gen >= l.gen {
			return
		}
		c.held -= e.size()
		delete(c.items, k) // an older generation: replaced below
	}
	for c.held+l.size() > c.limit && len(c.order) > 0 {
		old := c.order[0]
		c.order = c.order[1:]
		if e, ok := c.items[old]; ok {
			c.held -= e.size()
			delete(c.items, old)
		}
	}
	c.items[k] = l
	c.order = append(c.order, k)
	c.held += l.size()
}

func (c *listCache) drop(orgID, id string) {
	k := orgID + "/" + id
	c.mu.Lock()
	defer c.mu.Unlock()
	if e, ok := c.items[k]; ok {
		c.held -= e.size()
		delete(c.items, k)
		// The key stays in order until evicted; eviction skips keys no longer held.
	}
}
