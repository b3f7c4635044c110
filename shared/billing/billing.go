// Package billing charges organisations credits for the records Firmo delivers, keeps
// the per-organisation ledger and reports usage.
//
// # What is billed
//
// Handlers call Charge with the records a response delivers (persona ids, domains,
// found emails, append rows), or ChargeAll when one response delivers records of
// several kinds (contact search: contacts and their companies), so that the response
// is billed by one charge with one debit. Dedupe kinds (contacts, companies, found emails) are billed
// once per organisation and record per DedupeWindow (90 days): a record first delivered
// on day 0 is free again on day 89 and billed again on day 91. Credits are the net-new
// count priced with the plan's rate per 1,000 records (Rates), rounded up once per
// request (the kinds of a ChargeAll summed first). Tasks call Accrue per record
// instead: their records are charged in batches and rounded up once over the task
// (tab.go).
//
// Every charge is recorded under the route that was called, which the context
// carries (WithRoute, set by the HTTP server for every authenticated request and by
// the task engine for every task record): the ledger's and usage report's endpoint.
//
// # Storage (partition / sort key)
//
//	org#<org>                           / profile       counter "credits": the balance (owned by account)
//	billing#<org>                       / charge#<id>   receipt of one charge
//	billing#<org>                       / debit#<id>#<nonce>  counter "n": the receipt's once-only debit token
//	ledger#<org>                        / <time>#<id>   ledger entry, written once, never changed (append-only)
//	billing#seen#<org>#<kind>#<record>  / seen          dedupe cache: which charge claimed the record, and when
//
// # Charging without transactions
//
// DynamoDB's stand-in has no transactions, so a charge is a sequence of single-item
// conditional writes ordered so that concurrent requests never bill a record twice and
// never overdraw, a retry with the same request id finishes or repeats the same charge,
// and a refused charge leaves nothing behind:
//
//  1. The receipt is created (IfAbsent) under the charge id, a hash of request id,
//     route, kind and records. A finished receipt answers a replay with the same result.
//  2. Each record is claimed in the dedupe cache with a conditional write naming the
//     charge; of concurrent charges exactly one wins a record. A record still claimed by
//     another charge within the window is free. The won records are the net-new ones.
//  3. The debit token (a counter named by the receipt's random nonce, so a receipt made
//     again after a refusal has a fresh one) is taken with an atomic ADD: only the caller
//     that brings it to 1 debits the balance, so a charge debits at most once.
//     The debit is an ADD with Min 0, which DynamoDB refuses atomically when the balance
//     is short: never an overdraft.
//  4. Short balance: the receipt is marked refused, the claims are deleted (each only if
//     still at the version this charge wrote), the receipt is deleted, and the caller is
//     refused with 402. A retry after a top-up starts afresh.
//  5. Otherwise the receipt records the debit, the ledger entry is written (IfAbsent,
//     keyed by the receipt's time and charge id, so a retry cannot write a second one),
//     and the receipt is marked done with the result.
//
// A charge of several kinds (ChargeAll) is the same sequence with one receipt, the
// claims of every kind, one debit of the summed price and one ledger item listing the
// kinds. Charging the kinds one after the other instead would take the first kind's
// credits before learning that the second does not fit: a 402 after a debit, a partial
// write. A refund of the first debit would not fix that, since a crash before the
// refund keeps the partial charge. With one debit there is no such step: the balance
// moves once or not at all, and the ledger item that records it is a single write.
//
// A process that dies between the token and the receipt update leaves a pending receipt
// whose debit may or may not have happened; a retry waits for it and, once it is older
// than staleAfter, treats it as debited. The ambiguity is resolved in the customer's
// favour (at most one debit), never by charging twice.
package billing

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/firmoapi/firmo/shared/account"
	"github.com/firmoapi/firmo/shared/apperr"
	"github.com/firmoapi/firmo/shared/kv"
)

// DedupeWindow is how long a delivered record of a dedupe kind stays free.
const DedupeWindow = 90 * 24 * time.Hour

const (
	tokenCounter = "n"
	// staleAfter is when a pending receipt's owner is surely gone: longer than any
	// request may run (API Gateway stops at 30 s).
	staleAfter = time.Minute
	// claimWorkers bounds the concurrent dedupe-cache writes of one charge.
	claimWorkers = 16
	maxRestarts  = 3
)

// Receipt states.
const (
	statePending = "pending"
	stateDebited = "debited"
	stateRefused = "refused"
	stateDone    = "done"
)

// Charge is the outcome of one Charge call.
type Charge struct {
	Credits int64 `json:"credits"` // credits debited
	NetNew  int   `json:"net_new"` // records billed (first delivered within the window)
	Records int   `json:"records"` // records delivered
	Balance int64 `json:"balance"` // the balance after the charge
}

// Service charges credits. It is safe for concurrent use.
type Service struct {
	store kv.Store
	now   func() time.Time
	// pollEvery and pollFor bound how a duplicate charge waits for the one holding the
	// debit token.
	pollEvery, pollFor time.Duration

	// tabs are the running tabs of the tasks charging in this process (Accrue).
	tabsMu sync.Mutex
	tabs   map[tabID]*tab
}

// Option configures a Service.
type Option func(*Service)

// WithClock sets the clock (tests move it across the dedupe window).
func WithClock(now func() time.Time) Option { return func(s *Service) { s.now = now } }

// New returns a Service on store.
func New(store kv.Store, opts ...Option) *Service {
	s := &Service{store: store, now: time.Now, pollEvery: 25 * time.Millisecond, pollFor: 3 * time.Second, tabs: map[tabID]*tab{}}
	for _, o := range opts {
		o(s)
	}
	return s
}

type receipt struct {
	State     string    `json:"state"`
	Created   time.Time `json:"created"`
	Endpoint  string    `json:"endpoint"`
	Kind      Kind      `json:"kind"`
	RequestID string    `json:"request_id"`
	Nonce     string    `json:"nonce"` // names the debit token of this incarnation
	Result    Charge    `json:"result"`
	// Parts is the result by kind of a charge of several kinds (empty for one kind):
	// a retry after a crash writes the ledger item from it.
	Parts []partResult `json:"parts,omitempty"`
}

// Items are the records of one kind that a response delivers.
type Items struct {
	Kind    Kind
	Records []string
}

// partResult is what one kind of a charge billed.
type partResult struct {
	Kind    Kind  `json:"kind"`
	Records int   `json:"records"`
	NetNew  int   `json:"net_new"`
	Credits int64 `json:"credits"`
}

// sum is the charge's totals over its kinds (without the balance).
func sum(parts []partResult) Charge {
	var c Charge
	for _, p := range parts {
		c.Credits += p.Credits
		c.NetNew += p.NetNew
		c.Records += p.Records
	}
	return c
}

func (c *charge) tokenKey(r receipt) kv.Key {
	return kv.Key{PK: "billing#" + c.org.ID, SK: "debit#" + c.id + "#" + r.Nonce}
}

func profileKey(orgID string) kv.Key { return kv.Key{PK: "org#" + orgID, SK: "profile"} }
func receiptKey(orgID, id string) kv.Key {
	return kv.Key{PK: "billing#" + orgID, SK: "charge#" + id}
}

// Charge bills the records a response delivers to org: the net-new ones for dedupe
// kinds, all of them otherwise. The charge is recorded under the route in ctx
// (WithRoute; none is an internal error) and requestID is the request's id: a
// repeated call with the same request id, route, kind and records returns the first
// call's result and charges nothing more.
// A short balance is a 402 (apperr.ErrPaymentRequired) and changes nothing.
func (s *Service) Charge(ctx context.Context, org account.Org, kind Kind, records []string, requestID string) (Charge, error) {
	return s.ChargeAll(ctx, org, []Items{{Kind: kind, Records: records}}, requestID)
}

// ChargeAll bills the records of several kinds that one response delivers as one
// charge: the result is the sum over the kinds, the balance is debited once with the
// total, and a short balance refuses the whole charge (402) with nothing billed, not
// even the kinds that would have fitted. Items of the same kind are merged; the ledger
// and usage still count each kind on its own. Replays work as for Charge.
func (s *Service) ChargeAll(ctx context.Context, org account.Org, items []Items, requestID string) (Charge, error) {
	endpoint, err := routeFor(ctx)
	if err != nil {
		return Charge{}, err
	}
	for _, it := range items {
		if err := checkKind(it.Kind); err != nil {
			return Charge{}, err
		}
	}
	if org.ID == "" || requestID == "" {
		return Charge{}, fmt.Errorf("charge needs an organisation and a request id: %w", apperr.ErrInvalid)
	}
	parts, err := normalizeItems(items)
	if err != nil {
		return Charge{}, err
	}
	if len(parts) == 0 { // nothing delivered: nothing to bill or record
		bal, err := s.Balance(ctx, org.ID)
		return Charge{Balance: bal}, err
	}
	c := &charge{s: s, org: org, endpoint: endpoint, parts: parts, requestID: requestID}
	c.id = chargeID(requestID, endpoint, parts)
	c.key = receiptKey(org.ID, c.id)
	for range maxRestarts {
		res, err := c.run(ctx)
		if errors.Is(err, errRestart) {
			continue
		}
		if err == nil {
			heldFrom(ctx).add(c, res) // a request whose answer may yet be refused (Refund)
		}
		return res, err
	}
	return Charge{}, &apperr.Error{Kind: apperr.ErrConflict, Message: "Another request with the same request id is being charged; retry."}
}

// errRestart: a refused duplicate removed the receipt; run the charge again from the start.
var errRestart = errors.New("billing: restart charge")

// normalizeRecords lowercases and trims the records; dedupe kinds also drop duplicates,
// which a response may list more than once.
func normalizeRecords(kind Kind, records []string) ([]string, error) {
	out := make([]string, 0, len(records))
	seen := map[string]bool{}
	for i, r := range records {
		r = strings.ToLower(strings.TrimSpace(r))
		if r == "" || len(r) > 512 {
			return nil, fmt.Errorf("billing record %d %q: %w", i, r, apperr.ErrInvalid)
		}
		if kind.Dedupe() {
			if seen[r] {
				continue
			}
			seen[r] = true
		}
		out = append(out, r)
	}
	return out, nil
}

// normalizeItems merges the items of each kind (in the order kinds first appear),
// normalizes their records and drops kinds without records.
func normalizeItems(items []Items) ([]Items, error) {
	var merged []Items
	at := map[Kind]int{}
	for _, it := range items {
		i, ok := at[it.Kind]
		if !ok {
			i = len(merged)
			at[it.Kind] = i
			merged = append(merged, Items{Kind: it.Kind})
		}
		merged[i].Records = append(merged[i].Records, it.Records...)
	}
	out := merged[:0]
	for _, it := range merged {
		recs, err := normalizeRecords(it.Kind, it.Records)
		if err != nil {
			return nil, err
		}
		if len(recs) > 0 {
			out = append(out, Items{Kind: it.Kind, Records: recs})
		}
	}
	return out, nil
}

// chargeID identifies a charge by everything it bills, so a client reusing its
// x-request-id for different records gets different charges, not a free replay. A
// charge of one kind hashes exactly as before ChargeAll existed, so receipts written
// then still answer their replays.
func chargeID(requestID, endpoint string, parts []Items) string {
	h := sha256.New()
	fmt.Fprintf(h, "%s\x00%s", requestID, endpoint)
	for _, p := range parts {
		sorted := append([]string(nil), p.Records...)
		sort.Strings(sorted)
		fmt.Fprintf(h, "\x00%s\x00%d", p.Kind, len(sorted))
		for _, r := range sorted {
			h.Write([]byte{0})
			h.Write([]byte(r))
		}
	}
	return hex.EncodeToString(h.Sum(nil))[:32]
}

func newNonce() string {
	b := make([]byte, 8)
	rand.Read(b)
	return hex.EncodeToString(b)
}

// charge is one Charge call in progress.
type charge struct {
	s         *Service
	org       account.Org
	endpoint  string
	parts     []Items // one per kind, records normalized and non-empty
	requestID string
	id        string
	key       kv.Key
	// tab is the task tab pricing the charge (Accrue), nil for a request's charge.
	tab *kv.Key
}

func (c *charge) run(ctx context.Context) (Charge, error) {
	s := c.s
	now := s.now().UTC()
	r, ver, err := c.openReceipt(ctx, now)
	if err != nil {
		return Charge{}, err
	}
	switch r.State {
	case stateDone:
		return r.Result, nil
	case stateRefused:
		return Charge{}, c.abandon(ctx, ver)
	}
	res, parts := r.Result, r.Parts
	if r.State == statePending {
		claims, won, err := c.claimAll(ctx, now)
		if err != nil {
			return Charge{}, err
		}
		parts = make([]partResult, len(c.parts))
		for i, p := range c.parts {
			netNew := len(p.Records)
			if p.Kind.Dedupe() {
				netNew = won[i]
			}
			parts[i] = partResult{Kind: p.Kind, Records: len(p.Records), NetNew: netNew}
		}
		undo := func() {}
		if c.tab != nil {
			if parts[0].Credits, undo, err = c.tabPrice(ctx, parts[0]); err != nil {
				c.release(context.WithoutCancel(ctx), claims)
				return Charge{}, err
			}
		} else {
			priceParts(c.org.Plan, parts)
		}
		res = sum(parts)
		if res.Credits > 0 {
			r, ver, res, parts, err = c.debit(ctx, r, ver, res, parts, claims)
			if errors.Is(err, apperr.ErrPaymentRequired) {
				undo()
			}
			if err != nil || r.State == stateDone {
				return res, err
			}
		} else if res.Balance, err = s.Balance(ctx, c.org.ID); err != nil {
			return Charge{}, err
		}
	}
	if err := c.appendLedger(ctx, r.Created, res, parts); err != nil {
		return Charge{}, err
	}
	r.State, r.Result = stateDone, res
	if len(c.parts) > 1 {
		r.Parts = parts
	}
	if _, err := c.putReceipt(ctx, r, ver); err != nil {
		if !errors.Is(err, apperr.ErrConflict) {
			return Charge{}, err
		}
		// A duplicate finished first: its result is the same charge.
		if got, _, gerr := c.getReceipt(ctx); gerr == nil && got.State == stateDone {
			return got.Result, nil
		}
		return Charge{}, err
	}
	return res, nil
}

// openReceipt returns the charge's receipt, creating it when absent.
func (c *charge) openReceipt(ctx context.Context, now time.Time) (receipt, int64, error) {
	for range 3 {
		r := receipt{State: statePending, Created: now, Endpoint: c.endpoint, Kind: c.parts[0].Kind, RequestID: c.requestID, Nonce: newNonce()}
		ver, err := c.putReceipt(ctx, r, 0)
		if err == nil {
			return r, ver, nil
		}
		if !errors.Is(err, apperr.ErrConflict) {
			return receipt{}, 0, err
		}
		got, gver, err := c.getReceipt(ctx)
		if err == nil {
			return got, gver, nil
		}
		if !errors.Is(err, apperr.ErrNotFound) {
			return receipt{}, 0, err
		}
		// Deleted by a refused duplicate between our two calls: create it again.
	}
	return receipt{}, 0, fmt.Errorf("open receipt %s: %w", c.key, apperr.ErrConflict)
}

func (c *charge) getReceipt(ctx context.Context) (receipt, int64, error) {
	it, err := c.s.store.Get(ctx, c.key)
	if err != nil {
		return receipt{}, 0, err
	}
	if it.Data == nil { // only the token counter exists: a refused charge's leftover
		return receipt{}, 0, fmt.Errorf("receipt %s has no document: %w", c.key, apperr.ErrNotFound)
	}
	var r receipt
	if err := json.Unmarshal(it.Data, &r); err != nil {
		return receipt{}, 0, fmt.Errorf("decode receipt %s: %w", c.key, err)
	}
	return r, it.Version, nil
}

// putReceipt writes the receipt: IfAbsent when ver is 0, else only over version ver.
func (c *charge) putReceipt(ctx context.Context, r receipt, ver int64) (int64, error) {
	b, err := json.Marshal(r)
	if err != nil {
		return 0, err
	}
	cond := kv.Cond{IfVersion: ver, IfAbsent: ver == 0}
	return c.s.store.Put(ctx, c.key, b, cond)
}

// debit takes the debit token and, holding it, debits the balance with the charge's
// total: one ADD for every kind of the charge. Without the token it waits for the
// holder. It returns the receipt as it stands afterwards.
func (c *charge) debit(ctx context.Context, r receipt, ver int64, res Charge, parts []partResult, claims []claim) (receipt, int64, Charge, []partResult, error) {
	s := c.s
	tok, err := s.store.Add(ctx, c.tokenKey(r), tokenCounter, 1, kv.AddCond{})
	if err != nil {
		return r, ver, Charge{}, nil, fmt.Errorf("take debit token: %w", err)
	}
	if tok != 1 {
		return c.awaitDebit(ctx, res, parts)
	}
	zero := int64(0)
	bal, err := s.store.Add(ctx, profileKey(c.org.ID), account.CreditsCounter, -res.Credits, kv.AddCond{Min: &zero})
	if errors.Is(err, apperr.ErrConflict) {
		return r, ver, Charge{}, nil, c.refuse(ctx, r, ver, res, parts, claims)
	}
	if err != nil {
		// The debit may or may not have happened; the token stays taken, so a retry
		// treats it as done rather than debiting again.
		return r, ver, Charge{}, nil, fmt.Errorf("debit %d credits: %w", res.Credits, err)
	}
	res.Balance = bal
	r.State, r.Result = stateDebited, res
	if len(c.parts) > 1 {
		r.Parts = parts
	}
	if v, err := c.putReceipt(ctx, r, ver); err == nil {
		ver = v
	}
	// A failed receipt update is not fatal: the ledger entry written next also proves
	// the debit to a retry (awaitDebit looks for it).
	return r, ver, res, parts, nil
}

// awaitDebit waits while another call holding the debit token finishes.
func (c *charge) awaitDebit(ctx context.Context, res Charge, parts []partResult) (receipt, int64, Charge, []partResult, error) {
	s := c.s
	deadline := time.Now().Add(s.pollFor)
	for {
		r, ver, err := c.getReceipt(ctx)
		switch {
		case errors.Is(err, apperr.ErrNotFound):
			return r, ver, Charge{}, nil, errRestart // refused and cleaned up: start again
		case err != nil:
			return r, ver, Charge{}, nil, err
		case r.State == stateDebited || r.State == stateDone:
			if len(r.Parts) == 0 {
				r.Parts = parts // one kind: the caller's part is the receipt's
			}
			return r, ver, r.Result, r.Parts, nil
		case r.State == stateRefused:
			return r, ver, Charge{}, nil, c.abandon(ctx, ver)
		}
		if e, err := c.ledgerEntry(ctx, r.Created); err == nil {
			// The holder debited and wrote the ledger, then failed: the entry has the result.
			got := parts
			if len(e.Parts) > 0 {
				got = e.Parts
			}
			return r, ver, Charge{Credits: e.Credits, NetNew: e.NetNew, Records: e.Records, Balance: e.Balance}, got, nil
		} else if !errors.Is(err, apperr.ErrNotFound) {
			return r, ver, Charge{}, nil, err
		}
		if s.now().Sub(r.Created) > staleAfter {
			// The holder died between taking the token and writing the ledger. Whether it
			// debited is unknown: count it as debited, never charge twice.
			bal, err := s.Balance(ctx, c.org.ID)
			if err != nil {
				return r, ver, Charge{}, nil, err
			}
			res.Balance = bal
			return r, ver, res, parts, nil
		}
		if time.Now().After(deadline) {
			return r, ver, Charge{}, nil, &apperr.Error{Kind: apperr.ErrConflict, Message: "Another request with the same request id is being charged; retry."}
		}
		select {
		case <-ctx.Done():
			return r, ver, Charge{}, nil, ctx.Err()
		case <-time.After(s.pollEvery):
		}
	}
}

// refuse undoes a charge the balance cannot cover and returns the 402.
func (c *charge) refuse(ctx context.Context, r receipt, ver int64, res Charge, parts []partResult, claims []claim) error {
	s := c.s
	r.State = stateRefused
	if v, err := c.putReceipt(ctx, r, ver); err == nil {
		ver = v
	}
	if err := c.release(ctx, claims); err != nil {
		return err
	}
	// The token item stays: a duplicate that takes it later must find it taken.
	s.store.Delete(ctx, c.key, kv.Cond{IfVersion: ver})
	bal, _ := s.Balance(ctx, c.org.ID)
	var what []string
	for _, p := range parts {
		if p.Credits > 0 {
			what = append(what, fmt.Sprintf("%d new %s records at %d credits per 1,000", p.NetNew, p.Kind, Rate(c.org.Plan, p.Kind)))
		}
	}
	return &apperr.Error{Kind: apperr.ErrPaymentRequired, Message: fmt.Sprintf(
		"This request needs %d credits (%s on the %s plan), but the organisation has %d credits left.",
		res.Credits, strings.Join(what, " and "), c.org.Plan, bal)}
}

// abandon finishes the clean-up of a refused charge (its owner may have died midway)
// and asks for a restart.
func (c *charge) abandon(ctx context.Context, ver int64) error {
	var owned []claim
	for _, p := range c.parts {
		if !p.Kind.Dedupe() {
			continue
		}
		for _, rec := range p.Records {
			it, err := c.s.store.Get(ctx, seenKey(c.org.ID, p.Kind, rec))
			if err != nil {
				continue
			}
			var d seenDoc
			if json.Unmarshal(it.Data, &d) == nil && d.Charge == c.id {
				owned = append(owned, claim{key: it.Key, version: it.Version})
			}
		}
	}
	if err := c.release(ctx, owned); err != nil {
		return err
	}
	c.s.store.Delete(ctx, c.key, kv.Cond{IfVersion: ver})
	return errRestart
}

// Balance is the organisation's credit balance.
func (s *Service) Balance(ctx context.Context, orgID string) (int64, error) {
	it, err := s.store.Get(ctx, profileKey(orgID))
	if err != nil {
		return 0, fmt.Errorf("balance of %s: %w", orgID, err)
	}
	return it.Counters[account.CreditsCounter], nil
}

// Require refuses (402) when the organisation has fewer than credits: the check a
// handler makes before costly work whose exact price it learns only afterwards.
func (s *Service) Require(ctx context.Context, orgID string, credits int64) error {
	bal, err := s.Balance(ctx, orgID)
	if err != nil {
		return err
	}
	if bal < credits || bal <= 0 {
		return &apperr.Error{Kind: apperr.ErrPaymentRequired, Message: fmt.Sprintf(
			"This request needs at least %d credits, but the organisation has %d credits left.", max(credits, 1), bal)}
	}
	return nil
}

// Grant adds credits to the organisation's balance (top-ups; tests).
func (s *Service) Grant(ctx context.Context, orgID string, credits int64) (int64, error) {
	if credits <= 0 {
		return 0, fmt.Errorf("grant %d credits: %w", credits, apperr.ErrInvalid)
	}
	return s.store.Add(ctx, profileKey(orgID), account.CreditsCounter, credits, kv.AddCond{})
}

// parallel runs fn over n indexes with at most claimWorkers at once and returns the
// first error.
func parallel(ctx context.Context, n int, fn func(ctx context.Context, i int) error) error {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	var (
		wg    sync.WaitGroup
		once  sync.Once
		first error
		next  = make(chan int)
	)
	for range min(claimWorkers, n) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range next {
				if err := fn(ctx, i); err != nil {
					once.Do(func() { first = err; cancel() })
				}
			}
		}()
	}
feed:
	for i := 0; i < n; i++ {
		select {
		case next <- i:
		case <-ctx.Done():
			break feed
		}
	}
	close(next)
	wg.Wait()
	if first == nil && ctx.Err() != nil {
		return ctx.Err()
	}
	return first
}
