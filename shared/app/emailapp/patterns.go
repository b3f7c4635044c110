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

// learnedPatterns is the finder's PatternSource: each company's address pattern,
// learned (emailpattern.InferPattern) from the contacts with an address at its domain.
// The contacts are read on first use, not at start-up, once for all concurrent
// callers, and again after patternsTTL. It needs the contact store alone, not contact
// search's index, so the email function links no embedder or vector index.
type learnedPatterns struct {
	contacts *contact.Store
	now      func() time.Time

	mu      sync.Mutex
	byDom   map[string]emailpattern.Pattern
	learned time.Time
}

var _ emailfind.PatternSource = (*learnedPatterns)(nil)

func newLearnedPatterns(cs *contact.Store) *learnedPatterns {
	return &learnedPatterns{contacts: cs, now: time.Now}
}

// CompanyPattern returns the pattern learned for domain, if any.
func (l *learnedPatterns) CompanyPattern(ctx context.Context, domain string) (emailpattern.Pattern, bool, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.byDom == nil || l.now().Sub(l.learned) > patternsTTL {
		byDom, err := l.learn(ctx)
		if err != nil {
			return emailpattern.Pattern{}, false, err
		}
		l.byDom, l.learned = byDom, l.now()
	}
	p, ok := l.byDom[domain]
	return p, ok, nil
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
