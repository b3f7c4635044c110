package patternbook

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/firmoapi/firmo/shared/apperr"
	"github.com/firmoapi/firmo/shared/emailpattern"
	"github.com/firmoapi/firmo/shared/kv"
)

// patternPartition is the kv partition of the published patterns, one item per domain
// (sort key: the domain).
const patternPartition = "emailpattern"

// Publish learns the patterns again from every address (as Refresh does) and writes each
// domain's pattern to the store, one item per domain, for Stored to read without
// learning: a process that must not read every address (a contacts Lambda) answers from
// them. It returns how many it wrote. A domain that lost its pattern keeps its last
// published one until the next Publish finds it again.
func (b *Book) Publish(ctx context.Context) (int, error) {
	if b.store == nil {
		return 0, fmt.Errorf("publish email patterns: no store: %w", apperr.ErrInternal)
	}
	if err := b.Refresh(ctx); err != nil {
		return 0, err
	}
	b.mu.Lock()
	byDom := b.byDom
	b.mu.Unlock()
	n := 0
	for dom, l := range byDom {
		data, err := json.Marshal(l)
		if err != nil {
			return n, err
		}
		if _, err := b.store.Put(ctx, kv.Key{PK: patternPartition, SK: dom}, data, kv.Cond{}); err != nil {
			return n, fmt.Errorf("publish the email pattern of %s: %w", dom, err)
		}
		n++
	}
	return n, nil
}

// Stored answers the patterns Publish wrote: one store read per domain asked, nothing
// learned. Contact search on OpenSearch uses it for its entries' email_pattern.
type Stored struct {
	Store kv.Store
}

// Pattern implements contactsearch.PatternSource: false when none is published (or the
// store cannot be read: an entry without a pattern, not a failed search).
func (s Stored) Pattern(ctx context.Context, domain string) (emailpattern.Learned, bool) {
	it, err := s.Store.Get(ctx, kv.Key{PK: patternPartition, SK: strings.ToLower(strings.TrimSpace(domain))})
	if err != nil {
		return emailpattern.Learned{}, false
	}
	var l emailpattern.Learned
	if json.Unmarshal(it.Data, &l) != nil {
		return emailpattern.Learned{}, false
	}
	return l, true
}
