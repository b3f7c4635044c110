// Package contactverify sets the contact record's email_validated from a real SMTP
// verification of each stored address (the conversation of shared/smtpverify: MX
// lookup, EHLO, MAIL FROM, a catch-all probe, RCPT TO the address, QUIT; no mail is
// sent), never from what an ingest file claims.
//
// A Pass lists the contacts with an address and checks those whose address has no
// fresh verdict yet, at most MaxPerRun per run, domain by domain: the addresses of one
// domain are asked in one conversation (up to 50 RCPTs after one catch-all probe,
// smtpverify.Options.Each), 16 domains at a time. A verdict is kept per
// address (kv partition "emailcheck") for Recheck, so a run after a restart, or the next
// scheduled one, resumes where the last stopped and checks nothing twice; a contact
// whose flag disagrees with a kept verdict (re-ingested, re-seeded) gets the verdict
// again without a new conversation.
//
// Verdicts: found (accepted by a domain that is not catch-all) validates the address;
// not_found, undeliverable and catch_all (SMTP cannot prove an address on a domain
// that accepts anything) are kept as not validated; greylisted, timeout, rate_limited
// and error are no verdict: the address is tried again on the next run.
package contactverify

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"strings"
	"sync"
	"time"

	"github.com/firmoapi/firmo/shared/apperr"
	"github.com/firmoapi/firmo/shared/contact"
	"github.com/firmoapi/firmo/shared/kv"
	"github.com/firmoapi/firmo/shared/smtpverify"
)

// Checker verifies local parts of a domain over SMTP (smtpverify.Verifier).
type Checker interface {
	Check(ctx context.Context, domain string, locals []string, opt smtpverify.Options) smtpverify.Outcome
}

// Defaults of Deps.
const (
	DefaultConcurrency = 16 // domains at once; the verifier still limits the sessions per MX host
	DefaultMaxPerRun   = 20_000
	DefaultRecheck     = 30 * 24 * time.Hour
	DefaultBudget      = time.Minute
)

// checkPartition holds one verdict per address; the sort key is the address.
const checkPartition = "emailcheck"

// Deps configure a Pass.
type Deps struct {
	Contacts *contact.Store // required
	Store    kv.Store       // where verdicts are kept; required
	Checker  Checker        // required
	Log      *slog.Logger   // nil discards
	// Concurrency is how many domains are checked at once; MaxPerRun bounds the
	// addresses checked in one run; Recheck is how long a verdict is kept; Budget bounds
	// one domain's check, greylisting retries included. Zero: the defaults.
	Concurrency int
	MaxPerRun   int
	Recheck     time.Duration
	Budget      time.Duration
}

// Pass verifies stored contacts' addresses.
type Pass struct {
	d   Deps
	now func() time.Time
	mu  sync.Mutex // one run at a time
}

// New makes a Pass.
func New(d Deps) *Pass {
	if d.Log == nil {
		d.Log = slog.New(slog.DiscardHandler)
	}
	if d.Concurrency <= 0 {
		d.Concurrency = DefaultConcurrency
	}
	if d.MaxPerRun <= 0 {
		d.MaxPerRun = DefaultMaxPerRun
	}
	if d.Recheck <= 0 {
		d.Recheck = DefaultRecheck
	}
	if d.Budget <= 0 {
		d.Budget = DefaultBudget
	}
	return &Pass{d: d, now: time.Now}
}

// Report counts what a run did.
type Report struct {
	Contacts  int `json:"contacts"`  // contacts with an address
	Checked   int `json:"checked"`   // SMTP checks made
	Validated int `json:"validated"` // of them, addresses found
	Reused    int `json:"reused"`    // contacts set from a kept verdict, without a check
	Pending   int `json:"pending"`   // no verdict yet (inconclusive, or past MaxPerRun)
	Updated   int `json:"updated"`   // contacts whose email_validated changed
}

// verdict is what is kept per address.
type verdict struct {
	Status    string    `json:"status"`
	Validated bool      `json:"validated"`
	CheckedAt time.Time `json:"checked_at"`
}

// work is one contact to look at.
type work struct {
	id            int64
	email         string
	validated     bool
	local, domain string
}

// Run makes one pass. It returns when every contact is settled, MaxPerRun checks were
// made, or ctx ends (then with ctx's error; what was checked is kept).
func (p *Pass) Run(ctx context.Context) (Report, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	var todo []work
	err := p.d.Contacts.List(ctx, func(r contact.Raw) error {
		email := strings.ToLower(strings.TrimSpace(r.Email))
		at := strings.LastIndexByte(email, '@')
		if at <= 0 || at == len(email)-1 {
			return nil
		}
		todo = append(todo, work{id: r.PersonaID, email: email, validated: r.EmailValidated, local: email[:at], domain: email[at+1:]})
		return nil
	})
	if err != nil {
		return Report{}, fmt.Errorf("list contacts: %w", err)
	}
	rep := Report{Contacts: len(todo)}
	var mu sync.Mutex
	count := func(checked bool, v verdict, ok, changed bool) {
		mu.Lock()
		defer mu.Unlock()
		switch {
		case checked:
			rep.Checked++
		case ok:
			rep.Reused++
		}
		if checked && v.Validated {
			rep.Validated++
		}
		if !ok {
			rep.Pending++
		}
		if changed {
			rep.Updated++
		}
	}
	jobs := make(chan []work)
	var wg sync.WaitGroup
	for range p.d.Concurrency {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for group := range jobs {
				for i, r := range p.settle(ctx, group) {
					w := group[i]
					changed := false
					if r.ok && r.v.Validated != w.validated {
						if err := p.setFlag(ctx, w.id, w.email, r.v.Validated); err != nil {
							p.d.Log.Warn("set email_validated", "persona_id", w.id, "err", err)
						} else {
							changed = true
						}
					}
					count(r.checked, r.v, r.ok, changed)
				}
			}
		}()
	}
	// The addresses to check are asked domain by domain, up to groupSize in one
	// conversation (one MX lookup, one catch-all probe, a RCPT per address), instead of
	// one conversation per address.
	var groups [][]work
	byDomain := map[string]int{} // domain -> index of its open group
	checks := 0
	for _, w := range todo {
		if ctx.Err() != nil {
			break
		}
		v, fresh, err := p.kept(ctx, w.email)
		if err != nil {
			p.d.Log.Warn("read an email verdict", "err", err)
			continue
		}
		if fresh {
			changed := false
			if v.Validated != w.validated {
				changed = p.setFlag(ctx, w.id, w.email, v.Validated) == nil
			}
			count(false, v, true, changed)
			continue
		}
		if checks >= p.d.MaxPerRun {
			count(false, verdict{}, false, false)
			continue
		}
		checks++
		gi, ok := byDomain[w.domain]
		if !ok || len(groups[gi]) >= groupSize {
			gi = len(groups)
			groups = append(groups, nil)
			byDomain[w.domain] = gi
		}
		groups[gi] = append(groups[gi], w)
	}
	for _, g := range groups {
		select {
		case jobs <- g:
		case <-ctx.Done():
		}
	}
	close(jobs)
	wg.Wait()
	return rep, ctx.Err()
}

// groupSize bounds the addresses of one domain asked in one conversation.
const groupSize = 50

// kept returns the kept verdict of an address and whether it is still fresh.
func (p *Pass) kept(ctx context.Context, email string) (verdict, bool, error) {
	it, err := p.d.Store.Get(ctx, kv.Key{PK: checkPartition, SK: email})
	if errors.Is(err, apperr.ErrNotFound) {
		return verdict{}, false, nil
	}
	if err != nil {
		return verdict{}, false, err
	}
	var v verdict
	if err := json.Unmarshal(it.Data, &v); err != nil {
		return verdict{}, false, nil // unreadable: check again
	}
	return v, p.now().Sub(v.CheckedAt) < p.d.Recheck, nil
}

// settled is what a check said about one address; ok is false when it gave no verdict.
type settled struct {
	checked, ok bool
	v           verdict
}

// settle checks the addresses of one domain over SMTP in one conversation (retried for
// greylisting within the budget) and keeps each verdict.
func (p *Pass) settle(ctx context.Context, group []work) []settled {
	out := make([]settled, len(group))
	locals := make([]string, len(group))
	for i, w := range group {
		locals[i] = w.local
	}
	cctx, cancel := context.WithTimeout(ctx, p.d.Budget)
	res := p.d.Checker.Check(cctx, group[0].domain, locals, smtpverify.Options{Probes: 1, Each: true})
	cancel()
	if ctx.Err() != nil {
		return out
	}
	for i, w := range group {
		st := res.Status
		if i < len(res.Each) {
			st = res.Each[i]
		}
		out[i].checked = true
		switch st {
		case smtpverify.Found, smtpverify.NotFound, smtpverify.Undeliverable, smtpverify.CatchAll:
		default: // greylisted, timeout, rate_limited, error: no verdict on the address
			continue
		}
		v := verdict{Status: string(st), Validated: st == smtpverify.Found, CheckedAt: p.now()}
		data, _ := json.Marshal(v)
		if _, err := p.d.Store.Put(ctx, kv.Key{PK: checkPartition, SK: w.email}, data, kv.Cond{}); err != nil {
			p.d.Log.Warn("keep an email verdict", "err", err)
		}
		out[i] = settled{checked: true, ok: true, v: v}
	}
	return out
}

// setFlag sets a contact's email_validated, unless its address changed meanwhile.
func (p *Pass) setFlag(ctx context.Context, id int64, email string, validated bool) error {
	r, err := p.d.Contacts.Get(ctx, id)
	if err != nil {
		return err
	}
	if !strings.EqualFold(strings.TrimSpace(r.Email), email) || r.EmailValidated == validated {
		return nil
	}
	r.EmailValidated = validated
	_, err = p.d.Contacts.Put(ctx, r)
	return err
}

// Verdict is the kept verdict of an address: its status (found, not_found,
// undeliverable, catch_all) and when it was checked; ok is false when there is none.
func (p *Pass) Verdict(ctx context.Context, email string) (status string, checkedAt time.Time, ok bool, err error) {
	v, _, err := p.kept(ctx, strings.ToLower(strings.TrimSpace(email)))
	if err != nil || v.Status == "" {
		return "", time.Time{}, false, err
	}
	return v.Status, v.CheckedAt, true, nil
}
