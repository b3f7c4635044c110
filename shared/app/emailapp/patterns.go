package emailapp

import (
	"context"
	"sync"
	"time"

	"github.com/firmoapi/firmo/shared/contact"
	"github.com/firmoapi/firmo/shared/emailfind"
	"github.com/firmoapi/firmo/shared/emailpattern"
)

// patternsTTL is how long learned patterns are trusted before the contacts are read
// again, so contacts ingested into a running deployment are picked up.
const patternsTTL = 10 * time.Minute

// learnTimeout bounds one read of the contact store, whoever is waiting for it.
const learnTimeout = 5 * time.Minute

// learnedPatterns is the finder's PatternSource: each company's address pattern,
// learned (emailpattern.InferPattern) from the contacts with an address at its domain.
// The contacts are read on first use, not at start-up, by one background read that
// every concurrent caller waits for with its own context (a caller that gives up does
// not cancel the read for the others), and again after patternsTTL, while the old
// patterns keep answering. It needs the contact store alone, not contact search's
// index, so the email function links no embedder or vector index.
type learnedPatterns struct {
	contacts *contact.Store
	now      func() time.Time

	mu      sync.Mutex
	byDom   map[string]emailpattern.Pattern
	learned time.Time
	reading chan struct{} // closed when the read in flight ends; nil when none
	lastErr error         // the failure of the last read, for callers who have no patterns yet
}

var _ emailfind.PatternSource = (*learnedPatterns)(nil)

func newLearnedPatterns(cs *contact.Store) *learnedPatterns {
	return &learnedPatterns{contacts: cs, now: time.Now}
}

// CompanyPattern returns the pattern learned for domain, if any.
func (l *learnedPatterns) CompanyPattern(ctx context.Context, domain string) (emailpattern.Pattern, bool, error) {
	l.mu.Lock()
	if l.byDom != nil && l.now().Sub(l.learned) <= patternsTTL {
		p, ok := l.byDom[domain]
		l.mu.Unlock()
		return p, ok, nil
	}
	done := l.startRead()
	if l.byDom != nil { // stale: answer from the old patterns while the read runs
		p, ok := l.byDom[domain]
		l.mu.Unlock()
		return p, ok, nil
	}
	l.mu.Unlock()
	select {
	case <-ctx.Done():
		return emailpattern.Pattern{}, false, ctx.Err()
	case <-done:
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.byDom == nil {
		return emailpattern.Pattern{}, false, l.lastErr
	}
	p, ok := l.byDom[domain]
	return p, ok, nil
}

// startRead starts the background read unless one is in flight, and returns the
// channel closed when it ends. l.mu is held.
func (l *learnedPatterns) startRead() <-chan struct{} {
	if l.reading != nil {
		return l.reading
	}
	done := make(chan struct{})
	l.reading = done
	go func() {
		defer close(done)
		ctx, cancel := context.WithTimeout(context.Background(), learnTimeout)
		defer cancel()
		byDom, err := l.learn(ctx)
		l.mu.Lock()
		defer l.mu.Unlock()
		l.reading, l.lastErr = nil, err
		if err == nil {
			l.byDom, l.learned = byDom, l.now()
		}
	}()
	return done
}

func (l *learnedPatterns) learn(ctx context.Context) (map[string]emailpattern.Pattern, error) {
	learner := emailpattern.NewLearner()
	err := l.contacts.List(ctx, func(r contact.Raw) error {
		learner.Add(r.Domain, r.Name, r.Email)
		return nil
	})
	if err != nil {
		return nil, err
	}
	return learner.Patterns(), nil
}
