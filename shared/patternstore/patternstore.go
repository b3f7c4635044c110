// Package patternstore is the email patterns published for processes that must not
// learn them from every address (contact search on OpenSearch, whose Lambdas read a
// page of contacts at most): one summary per domain (emailpattern.Summary) and the
// totals the model is fit on (emailpattern.Totals), both in the kv store, from which
// Reader answers a domain's pattern with one read. The answer is the one the pattern
// book (shared/patternbook), learning from every address, gives for the same addresses.
//
// Writers:
//   - PublishAll writes every summary and the totals from every address (firmo
//     reindex-contacts, through patternbook.Book.Publish).
//   - Publisher.PublishDomain summarizes one domain's addresses again (its contacts,
//     through Addresses, and the addresses seen elsewhere, logged by RecordSeen) and moves
//     the totals by the difference: the company pipeline calls it for every company it
//     stores (derived, rescored or reprocessed).
//   - MarkDirty notes a domain whose addresses changed (a contact stored, an address
//     recorded); Publisher.PublishDirty publishes the marked domains: the scheduled pass
//     runs it.
//
// API:
//
//	patternstore.RecordSeen(ctx, store, emailpattern.Observation{...})
//	p := patternstore.Publisher{Store: store, Contacts: addresses}
//	p.PublishDomain(ctx, "acme.com")
//	patternstore.MarkDirty(ctx, store, "acme.com"); p.PublishDirty(ctx)
//	l, ok := patternstore.Reader{Store: store}.Pattern(ctx, "acme.com")
package patternstore

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"github.com/firmoapi/firmo/shared/apperr"
	"github.com/firmoapi/firmo/shared/emailpattern"
	"github.com/firmoapi/firmo/shared/kv"
)

const (
	// seenPartition logs the addresses seen outside the contact store; the sort key is
	// "<domain>#<email>".
	seenPartition = "emailseen"
	// summaryPartition holds one emailpattern.Summary per domain (sort key: the domain).
	summaryPartition = "emailsummary"
	// dirtyPartition marks the domains whose addresses changed since they were last
	// published (sort key: the domain).
	dirtyPartition = "emailpattern-dirty"
)

// totalsKey holds the emailpattern.Totals of every published summary.
var totalsKey = kv.Key{PK: "emailpattern-model", SK: "totals"}

// maxRetries bounds the optimistic retries of one domain's publish against concurrent
// publishers.
const maxRetries = 8

// seenDoc is one logged address.
type seenDoc struct {
	Name   string `json:"name"`
	Source string `json:"source"`
}

func norm(domain string) string { return strings.ToLower(strings.TrimSpace(domain)) }

// RecordSeen logs an address seen outside the contact store (a found address, one read
// on a page). One without a name, address or domain is ignored.
func RecordSeen(ctx context.Context, store kv.Store, o emailpattern.Observation) error {
	email, domain := strings.ToLower(strings.TrimSpace(o.Email)), norm(o.Domain)
	if email == "" || domain == "" || strings.TrimSpace(o.Name) == "" {
		return nil
	}
	data, err := json.Marshal(seenDoc{Name: o.Name, Source: o.Source})
	if err != nil {
		return err
	}
	if _, err := store.Put(ctx, kv.Key{PK: seenPartition, SK: domain + "#" + email}, data, kv.Cond{}); err != nil {
		return fmt.Errorf("record a seen address: %w", err)
	}
	return nil
}

// Seen calls fn for every logged address, or with domain set only for that domain's, in
// sort-key order.
func Seen(ctx context.Context, store kv.Store, domain string, fn func(emailpattern.Observation)) error {
	prefix := ""
	if domain != "" {
		prefix = norm(domain) + "#"
	}
	cursor := ""
	for {
		page, err := store.Query(ctx, seenPartition, kv.QueryOptions{Prefix: prefix, Limit: 1000, Cursor: cursor})
		if err != nil {
			return fmt.Errorf("read seen addresses: %w", err)
		}
		for _, it := range page.Items {
			dom, email, ok := strings.Cut(it.Key.SK, "#")
			var doc seenDoc
			if !ok || json.Unmarshal(it.Data, &doc) != nil {
				continue
			}
			fn(emailpattern.Observation{Domain: dom, Name: doc.Name, Email: email, Source: doc.Source})
		}
		if page.Next == "" {
			return nil
		}
		cursor = page.Next
	}
}

// MarkDirty notes that domain's addresses changed, for the next PublishDirty.
func MarkDirty(ctx context.Context, store kv.Store, domain string) error {
	d := norm(domain)
	if d == "" {
		return nil
	}
	if _, err := store.Put(ctx, kv.Key{PK: dirtyPartition, SK: d}, []byte("{}"), kv.Cond{}); err != nil {
		return fmt.Errorf("mark the email pattern of %s for publishing: %w", d, err)
	}
	return nil
}

// PublishAll replaces the published patterns with those of observations (every address
// the service holds, in the pattern book's order): every domain's summary, the totals,
// and no summary for a domain without addresses. It returns how many domains have a
// pattern.
func PublishAll(ctx context.Context, store kv.Store, observations []emailpattern.Observation) (int, error) {
	sums := emailpattern.Summarize(observations)
	n := 0
	m := emailpattern.TotalsOf(sums).Model()
	for dom, s := range sums {
		data, err := json.Marshal(s)
		if err != nil {
			return n, err
		}
		if _, err := store.Put(ctx, kv.Key{PK: summaryPartition, SK: dom}, data, kv.Cond{}); err != nil {
			return n, fmt.Errorf("publish the email pattern of %s: %w", dom, err)
		}
		if _, ok := m.LearnSummary(dom, s); ok {
			n++
		}
	}
	cursor := ""
	for {
		page, err := store.Query(ctx, summaryPartition, kv.QueryOptions{Limit: 1000, Cursor: cursor})
		if err != nil {
			return n, fmt.Errorf("read published email patterns: %w", err)
		}
		for _, it := range page.Items {
			if _, ok := sums[it.Key.SK]; !ok {
				if err := store.Delete(ctx, it.Key, kv.Cond{}); err != nil {
					return n, fmt.Errorf("remove the email pattern of %s: %w", it.Key.SK, err)
				}
			}
		}
		if page.Next == "" {
			break
		}
		cursor = page.Next
	}
	data, err := json.Marshal(emailpattern.TotalsOf(sums))
	if err != nil {
		return n, err
	}
	if _, err := store.Put(ctx, totalsKey, data, kv.Cond{}); err != nil {
		return n, fmt.Errorf("publish the email pattern model: %w", err)
	}
	return n, nil
}

// Addresses gives the addresses of the contacts stored at a domain, in the contact
// store's listing order (shared/company/oscontactfields reads them from the contacts
// index).
type Addresses interface {
	DomainAddresses(ctx context.Context, domain string) ([]emailpattern.Observation, error)
}

// Publisher publishes single domains.
type Publisher struct {
	Store    kv.Store
	Contacts Addresses
}

// PublishDomain summarizes domain's addresses again (its contacts, then the addresses
// seen elsewhere, as the pattern book reads them), stores the summary when it changed
// and moves the totals by the change. A publisher racing another on the same domain
// retries on the summary's version, so each change moves the totals once. A process
// stopped between the summary and the totals leaves the totals off by that domain's
// change until the next PublishAll.
func (p Publisher) PublishDomain(ctx context.Context, domain string) error {
	dom := norm(domain)
	if dom == "" {
		return nil
	}
	obs, err := p.Contacts.DomainAddresses(ctx, dom)
	if err != nil {
		return fmt.Errorf("publish the email pattern of %s: %w", dom, err)
	}
	if err := Seen(ctx, p.Store, dom, func(o emailpattern.Observation) { obs = append(obs, o) }); err != nil {
		return fmt.Errorf("publish the email pattern of %s: %w", dom, err)
	}
	for i := range obs {
		obs[i].Domain = dom // the summary is the domain's, whatever case the contacts wrote
	}
	next, has := emailpattern.Summarize(obs)[dom]
	key := kv.Key{PK: summaryPartition, SK: dom}
	for range maxRetries {
		var old emailpattern.Summary
		had := false
		it, err := p.Store.Get(ctx, key)
		exists := err == nil
		switch {
		case exists:
			if json.Unmarshal(it.Data, &old) == nil {
				had = true
			}
		case !errors.Is(err, apperr.ErrNotFound):
			return fmt.Errorf("read the email pattern of %s: %w", dom, err)
		}
		oldData, _ := json.Marshal(old)
		newData, err := json.Marshal(next)
		if err != nil {
			return err
		}
		if had == has && (!has || string(oldData) == string(newData)) {
			return nil
		}
		cond := kv.Cond{IfAbsent: true}
		if exists {
			cond = kv.Cond{IfVersion: it.Version}
		}
		if has {
			_, err = p.Store.Put(ctx, key, newData, cond)
		} else {
			err = p.Store.Delete(ctx, key, cond)
		}
		if errors.Is(err, apperr.ErrConflict) {
			continue
		}
		if err != nil {
			return fmt.Errorf("publish the email pattern of %s: %w", dom, err)
		}
		delta := emailpattern.Totals{}
		if has {
			delta = next.Tally()
		}
		if had {
			delta = delta.Plus(old.Tally(), -1)
		}
		return p.moveTotals(ctx, delta)
	}
	return fmt.Errorf("publish the email pattern of %s: too many concurrent writers: %w", dom, apperr.ErrConflict)
}

// moveTotals adds delta to the stored totals, retrying on their version.
func (p Publisher) moveTotals(ctx context.Context, delta emailpattern.Totals) error {
	for range maxRetries {
		var cur emailpattern.Totals
		it, err := p.Store.Get(ctx, totalsKey)
		cond := kv.Cond{IfAbsent: true}
		switch {
		case err == nil:
			if err := json.Unmarshal(it.Data, &cur); err != nil {
				return fmt.Errorf("read the email pattern model: %w", err)
			}
			cond = kv.Cond{IfVersion: it.Version}
		case !errors.Is(err, apperr.ErrNotFound):
			return fmt.Errorf("read the email pattern model: %w", err)
		}
		data, err := json.Marshal(cur.Plus(delta, 1))
		if err != nil {
			return err
		}
		_, err = p.Store.Put(ctx, totalsKey, data, cond)
		if errors.Is(err, apperr.ErrConflict) {
			continue
		}
		if err != nil {
			return fmt.Errorf("publish the email pattern model: %w", err)
		}
		return nil
	}
	return fmt.Errorf("publish the email pattern model: too many concurrent writers: %w", apperr.ErrConflict)
}

// PublishDirty publishes every domain MarkDirty noted, and removes each mark unless the
// domain was marked again meanwhile; it returns how many domains it published. It stops
// at ctx's end, leaving the rest marked.
func (p Publisher) PublishDirty(ctx context.Context) (int, error) {
	n := 0
	cursor := ""
	for {
		page, err := p.Store.Query(ctx, dirtyPartition, kv.QueryOptions{Limit: 100, Cursor: cursor})
		if err != nil {
			return n, fmt.Errorf("read the email patterns to publish: %w", err)
		}
		for _, it := range page.Items {
			if err := ctx.Err(); err != nil {
				return n, err
			}
			if err := p.PublishDomain(ctx, it.Key.SK); err != nil {
				return n, err
			}
			n++
			if err := p.Store.Delete(ctx, it.Key, kv.Cond{IfVersion: it.Version}); err != nil && !errors.Is(err, apperr.ErrConflict) && !errors.Is(err, apperr.ErrNotFound) {
				return n, fmt.Errorf("unmark the email pattern of %s: %w", it.Key.SK, err)
			}
		}
		if page.Next == "" {
			return n, nil
		}
		cursor = page.Next
	}
}

// Reader answers the published patterns: one read (the domain's summary and the totals)
// per domain asked, nothing learned.
type Reader struct {
	Store kv.Store
}

// Pattern implements contactsearch.PatternSource: false when none is published for
// domain (or the store cannot be read: an entry without a pattern, not a failed search).
func (r Reader) Pattern(ctx context.Context, domain string) (emailpattern.Learned, bool) {
	dom := norm(domain)
	if dom == "" {
		return emailpattern.Learned{}, false
	}
	key := kv.Key{PK: summaryPartition, SK: dom}
	items, err := r.Store.GetMany(ctx, []kv.Key{key, totalsKey})
	if err != nil {
		return emailpattern.Learned{}, false
	}
	si, ok1 := items[key]
	ti, ok2 := items[totalsKey]
	var s emailpattern.Summary
	var t emailpattern.Totals
	if !ok1 || !ok2 || json.Unmarshal(si.Data, &s) != nil || json.Unmarshal(ti.Data, &t) != nil {
		return emailpattern.Learned{}, false
	}
	return t.Model().LearnSummary(dom, s)
}
