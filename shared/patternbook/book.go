// Package patternbook is every address the service has seen, per domain, and the email
// pattern learned from them: the one answer behind contact search's email_pattern (a
// percentage there), contact generation's email_pattern, email_pattern_confidence (0-1)
// and email_pattern_guess, and the company tier of the email finder, so they never
// disagree.
//
// The addresses come from the contact store (source "contact:<persona_id>") and from a
// log of addresses seen elsewhere (Record): the ones the email finder proved
// ("found:<job id>") and the ones contact generation read verbatim on a company's pages
// ("page:<url>"). The patterns are learned by emailpattern.LearnAll, with a confidence
// calibrated on held-out people and the evidence behind each (email_pattern_evidence:
// how many addresses fit, how many contradict, example sources).
//
// API:
//
//	b := patternbook.New(patternbook.Deps{Contacts: contacts, Store: store})
//	l, ok := b.Pattern(ctx, "acme.com")   // emailpattern.Learned: Template, Domain,
//	                                      // Confidence (0-1), Guess, Evidence
//	l.Address()                           // "{first}.{last}@acme.com": email_pattern
//	b.Record(ctx, emailpattern.Observation{Domain: "acme.com", Name: "Jane Doe",
//		Email: "jane.doe@acme.com", Source: "page:https://acme.com/team"})
//	b.Publish(ctx)                        // every domain's summary and the model's
//	                                      // totals, for readers that must not learn
//	                                      // (shared/patternstore)
//
// The addresses are read on first use, not at start-up, by one background read that
// every concurrent caller waits for with its own context (a caller that gives up does
// not cancel the read for the others), and again after the TTL or a Record, while the
// old patterns keep answering.
package patternbook

import (
	"context"
	"fmt"
	"log/slog"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/firmoapi/firmo/shared/contact"
	"github.com/firmoapi/firmo/shared/emailpattern"
	"github.com/firmoapi/firmo/shared/kv"
	"github.com/firmoapi/firmo/shared/patternstore"
)

// DefaultTTL is how long learned patterns are trusted before the addresses are read
// again, so contacts ingested into a running deployment are picked up.
const DefaultTTL = 10 * time.Minute

// learnTimeout bounds one read of the addresses, whoever is waiting for it.
const learnTimeout = 5 * time.Minute

// Deps are what a Book reads.
type Deps struct {
	// Contacts is the contact store. Required.
	Contacts *contact.Store
	// Store holds the log of addresses seen elsewhere (Record); nil: contacts only.
	Store kv.Store
	// TTL is how long learned patterns are trusted; zero: DefaultTTL.
	TTL time.Duration
	// Log receives read failures no caller sees; nil discards them.
	Log *slog.Logger
	// MarkDirty makes Record also mark the domain for the next publish of its pattern
	// (patternstore.MarkDirty), where contact search reads published patterns
	// (OpenSearch).
	MarkDirty bool
}

// Book learns and answers the patterns. Safe for concurrent use.
type Book struct {
	contacts *contact.Store
	store    kv.Store
	ttl      time.Duration
	log      *slog.Logger
	now      func() time.Time
	dirty    bool

	mu      sync.Mutex
	byDom   map[string]emailpattern.Learned
	learned time.Time
	stale   bool          // a Record since the last read: read again on the next call
	reading chan struct{} // closed when the read in flight ends; nil when none
	lastErr error         // the failure of the last read, for callers who have no patterns yet
}

// New makes a Book; nothing is read until the first call.
func New(d Deps) *Book {
	if d.TTL <= 0 {
		d.TTL = DefaultTTL
	}
	if d.Log == nil {
		d.Log = slog.New(slog.DiscardHandler)
	}
	return &Book{contacts: d.Contacts, store: d.Store, ttl: d.TTL, log: d.Log, now: time.Now, dirty: d.MarkDirty}
}

// Pattern returns the pattern learned for domain; false when none is known (or the
// addresses could not be read before ctx ended).
func (b *Book) Pattern(ctx context.Context, domain string) (emailpattern.Learned, bool) {
	l, ok, err := b.lookup(ctx, domain)
	if err != nil {
		return emailpattern.Learned{}, false
	}
	return l, ok
}

// CompanyPattern is Pattern in the email finder's form (emailfind.PatternSource).
func (b *Book) CompanyPattern(ctx context.Context, domain string) (emailpattern.Pattern, bool, error) {
	l, ok, err := b.lookup(ctx, domain)
	if err != nil || !ok {
		return emailpattern.Pattern{}, false, err
	}
	return l.Pattern(), true, nil
}

// Record adds an address seen outside the contact store (a found address, one read on
// a page) to the log; the patterns are learned again on the next call. An address
// without a name or domain is ignored.
func (b *Book) Record(ctx context.Context, o emailpattern.Observation) error {
	if b.store == nil || strings.TrimSpace(o.Email) == "" || strings.TrimSpace(o.Domain) == "" || strings.TrimSpace(o.Name) == "" {
		return nil
	}
	if err := patternstore.RecordSeen(ctx, b.store, o); err != nil {
		return err
	}
	if b.dirty {
		if err := patternstore.MarkDirty(ctx, b.store, o.Domain); err != nil {
			return err
		}
	}
	b.mu.Lock()
	b.stale = true
	b.mu.Unlock()
	return nil
}

// Refresh learns the patterns again now and waits for it (after a seed).
func (b *Book) Refresh(ctx context.Context) error {
	b.mu.Lock()
	var done <-chan struct{} = b.reading
	if b.reading == nil {
		done = b.startRead()
	} else {
		b.stale = true // a read in flight may predate what is to be seen: read once more
	}
	b.mu.Unlock()
	for {
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-done:
		}
		b.mu.Lock()
		if !b.stale {
			err := b.lastErr
			b.mu.Unlock()
			return err
		}
		done = b.startRead()
		b.mu.Unlock()
	}
}

func (b *Book) lookup(ctx context.Context, domain string) (emailpattern.Learned, bool, error) {
	domain = strings.ToLower(strings.TrimSpace(domain))
	b.mu.Lock()
	if b.byDom != nil && !b.stale && b.now().Sub(b.learned) <= b.ttl {
		l, ok := b.byDom[domain]
		b.mu.Unlock()
		return l, ok, nil
	}
	done := b.startRead()
	if b.byDom != nil { // stale: answer from the old patterns while the read runs
		l, ok := b.byDom[domain]
		b.mu.Unlock()
		return l, ok, nil
	}
	b.mu.Unlock()
	select {
	case <-ctx.Done():
		return emailpattern.Learned{}, false, ctx.Err()
	case <-done:
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.byDom == nil {
		return emailpattern.Learned{}, false, b.lastErr
	}
	l, ok := b.byDom[domain]
	return l, ok, nil
}

// startRead starts the background read unless one is in flight, and returns the
// channel closed when it ends. b.mu is held.
func (b *Book) startRead() <-chan struct{} {
	if b.reading != nil {
		return b.reading
	}
	done := make(chan struct{})
	b.reading = done
	b.stale = false
	go func() {
		defer close(done)
		ctx, cancel := context.WithTimeout(context.Background(), learnTimeout)
		defer cancel()
		byDom, err := b.learn(ctx)
		if err != nil {
			b.log.Warn("learn email patterns", "err", err)
		}
		b.mu.Lock()
		defer b.mu.Unlock()
		b.reading, b.lastErr = nil, err
		if err == nil {
			b.byDom, b.learned = byDom, b.now()
		}
	}()
	return done
}

// learn reads every address and learns the patterns.
func (b *Book) learn(ctx context.Context) (map[string]emailpattern.Learned, error) {
	seen, err := b.observations(ctx)
	if err != nil {
		return nil, err
	}
	out, _ := emailpattern.LearnAll(seen)
	return out, nil
}

// observations reads every address: the contacts' (shard by shard, in persona id order),
// then the log of addresses seen elsewhere.
func (b *Book) observations(ctx context.Context) ([]emailpattern.Observation, error) {
	var seen []emailpattern.Observation
	err := b.contacts.List(ctx, func(r contact.Raw) error {
		if r.Email != "" {
			seen = append(seen, emailpattern.Observation{Domain: r.Domain, Name: r.Name, Email: r.Email, Source: "contact:" + strconv.FormatInt(r.PersonaID, 10)})
		}
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("read contacts: %w", err)
	}
	if b.store != nil {
		if err := patternstore.Seen(ctx, b.store, "", func(o emailpattern.Observation) { seen = append(seen, o) }); err != nil {
			return nil, err
		}
	}
	return seen, nil
}
