package smtpverify

import (
	"context"
	"sync"
	"time"
)

// hostLimiter bounds the sessions one process opens to each MX host: at most perHost
// at once, and session starts at least interval apart. Mail hosts throttle or block
// clients that open many parallel connections, so politeness protects the results.
type hostLimiter struct {
	perHost  int
	interval time.Duration
	now      func() time.Time

	mu    sync.Mutex
	hosts map[string]*hostSlot
}

type hostSlot struct {
	sem  chan struct{}
	next time.Time // earliest start of the next session
	refs int
}

func newHostLimiter(perHost int, interval time.Duration) *hostLimiter {
	return &hostLimiter{perHost: perHost, interval: interval, now: time.Now, hosts: map[string]*hostSlot{}}
}

// acquire waits for a session slot on host, then for its politeness turn. It returns
// the context's error when the wait outlasts it.
func (l *hostLimiter) acquire(ctx context.Context, host string) (release func(), err error) {
	l.mu.Lock()
	s := l.hosts[host]
	if s == nil {
		s = &hostSlot{sem: make(chan struct{}, l.perHost)}
		l.hosts[host] = s
	}
	s.refs++
	l.mu.Unlock()
	done := func() {
		l.mu.Lock()
		s.refs--
		if s.refs == 0 && !s.next.After(l.now()) {
			delete(l.hosts, host) // keep the map as small as the set of busy hosts
		}
		l.mu.Unlock()
	}
	select {
	case s.sem <- struct{}{}:
	case <-ctx.Done():
		done()
		return nil, ctx.Err()
	}
	l.mu.Lock()
	now := l.now()
	start := now
	if s.next.After(now) {
		start = s.next
	}
	s.next = start.Add(l.interval)
	l.mu.Unlock()
	if wait := start.Sub(now); wait > 0 {
		t := time.NewTimer(wait)
		select {
		case <-t.C:
		case <-ctx.Done():
			t.Stop()
			<-s.sem
			done()
			return nil, ctx.Err()
		}
	}
	return func() { <-s.sem; done() }, nil
}

// catchAllCache remembers per domain whether its mail host accepts any recipient, so
// a domain is probed once per TTL rather than once per person.
type catchAllCache struct {
	ttl time.Duration
	now func() time.Time

	mu      sync.Mutex
	entries map[string]catchAllEntry
}

type catchAllEntry struct {
	catchAll bool
	expires  time.Time
}

// maxCacheEntries bounds the cache; expired entries are dropped when it is reached.
const maxCacheEntries = 100_000

func newCatchAllCache(ttl time.Duration) *catchAllCache {
	return &catchAllCache{ttl: ttl, now: time.Now, entries: map[string]catchAllEntry{}}
}

func (c *catchAllCache) get(domain string) (catchAll, ok bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	e, ok := c.entries[domain]
	if !ok || c.now().After(e.expires) {
		return false, false
	}
	return e.catchAll, true
}

func (c *catchAllCache) put(domain string, catchAll bool) {
	if c.ttl <= 0 {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	now := c.now()
	if len(c.entries) >= maxCacheEntries {
		for d, e := range c.entries {
			if now.After(e.expires) {
				delete(c.entries, d)
			}
		}
		if len(c.entries) >= maxCacheEntries {
			clear(c.entries)
		}
	}
	c.entries[domain] = catchAllEntry{catchAll: catchAll, expires: now.Add(c.ttl)}
}
