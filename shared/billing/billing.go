// Package billing charges organisations credits for the records Firmo delivers, keeps
// the per-organisation ledger and reports usage.
//
// # What is billed
//
// Handlers call Charge with the records a response delivers (persona ids, domains,
// found emails, append rows). Dedupe kinds (contacts, companies, found emails) are billed
// once per organisation and record per DedupeWindow (90 days): a record first delivered
// on day 0 is free again on day 89 and billed again on day 91. Credits are the net-new
// count priced with the plan's rate per 1,000 records (Rates, rounded up per charge).
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
//     endpoint, kind and records. A finished receipt answers a replay with the same result.
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
}

// Option configures a Service.
type Option func(*Service)

// WithClock sets the clock (tests move it across the dedupe window).
func WithClock(now func() time.Time) Option { return func(s *Service) { s.now = now } }

// New returns a Service on store.
func New(store kv.Store, opts ...Option) *Service {
	s := &Service{store: store, now: time.Now, pollEvery: 25 * time.Millisecond, pollFor: 3 * time.Second}
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
}

func (c *charge) tokenKey(r receipt) kv.Key {
	return kv.Key{PK: "billing#" + c.org.ID, SK: "debit#" + c.id + "#" + r.Nonce}
}

func profileKey(orgID string) kv.Key { return kv.Key{PK: "org#" + orgID, SK: "profile"} }
func receiptKey(orgID, id string) kv.Key {
	return kv.Key{PK: "billing#" + orgID, SK: "charge#" + id}
}

// Charge bills the records a response delivers to org: the net-new ones for dedupe
// kinds, all of them otherwise. endpoint is the route pattern ("POST /v1/contacts/discover")
// and requestID the request's id: a repeated call with the same request id, endpoint,
// kind and records returns the first call's result and charges nothing more.
// A short balance is a 402 (apperr.ErrPaymentRequired) and changes nothing.
func (s *Service) Charge(ctx context.Context, org account.Org, endpoint string, kind Kind, records []string, requestID string) (Charge, error) {
	if err := checkKind(kind); err != nil {
		return Charge{}, err
	}
	if org.ID == "" || endpoint == "" || requestID == "" {
		return Charge{}, fmt.Errorf("charge needs an organisation, an endpoint and a request id: %w", apperr.ErrInvalid)
	}
	recs, err := normalizeRecords(kind, records)
	if err != nil {
		return Charge{}, err
	}
	if len(recs) == 0 { // nothing delivered: nothing to bill or record
		bal, err := s.Balance(ctx, org.ID)
		return Charge{Balance: bal}, err
	}
	c := &charge{s: s, org: org, endpoint: endpoint, kind: kind, records: recs, requestID: requestID}
	c.id = chargeID(requestID, endpoint, kind, recs)
	c.key = receiptKey(org.ID, c.id)
	for range maxRestarts {
		res, err := c.run(ctx)
		if errors.Is(err, errRestart) {
			continue
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

// chargeID identifies a charge by everything it bills, so a client reusing its
// x-request-id for different records gets different charges, not a free replay.
func chargeID(requestID, endpoint string, kind Kind, records []string) string {
	sorted := append([]string(nil), records...)
	sort.Strings(sorted)
	h := sha256.New()
	fmt.Fprintf(h, "%s\x00%s\x00%s\x00%d", requestID, endpoint, kind, len(sorted))
	for _, r := range sorted {
		h.Write([]byte{0})
		h.Write([]byte(r))
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
	kind      Kind
	records   []string
	requestID string
	id        string
	key       kv.Key
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
	res := r.Result
	if r.State == statePending {
		netNew := len(c.records)
		var claims []claim
		if c.kind.Dedupe() {
			if claims, err = c.claimAll(ctx, now); err != nil {
				return Charge{}, err
			}
			netNew = len(claims)
		}
		res = Charge{Credits: Price(c.org.Plan, c.kind, netNew), NetNew: netNew, Records: len(c.records)}
		if res.Credits > 0 {
			r, ver, res, err = c.debit(ctx, r, ver, res, claims)
			if err != nil || r.State == stateDone {
				return res, err
			}
		} else if res.Balance, err = s.Balance(ctx, c.org.ID); err != nil {
			return Charge{}, err
		}
	}
	if err := c.appendLedger(ctx, r.Created, res); err != nil {
		return Charge{}, err
	}
	r.State, r.Result = stateDone, res
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
		r := receipt{State: statePending, Created: now, Endpoint: c.endpoint, Kind: c.kind, RequestID: c.requestID, Nonce: newNonce()}
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

// debit takes the debit token and, holding it, debits the balance. Without the token it
// waits for the holder. It returns the receipt as it stands afterwards.
func (c *charge) debit(ctx context.Context, r receipt, ver int64, res Charge, claims []claim) (receipt, int64, Charge, error) {
	s := c.s
	tok, err := s.store.Add(ctx, c.tokenKey(r), tokenCounter, 1, kv.AddCond{})
	if err != nil {
		return r, ver, Charge{}, fmt.Errorf("take debit token: %w", err)
	}
	if tok != 1 {
		return c.awaitDebit(ctx, res)
	}
	zero := int64(0)
	bal, err := s.store.Add(ctx, profileKey(c.org.ID), account.CreditsCounter, -res.Credits, kv.AddCond{Min: &zero})
	if errors.Is(err, apperr.ErrConflict) {
		return r, ver, Charge{}, c.refuse(ctx, r, ver, res, claims)
	}
	if err != nil {
		// The debit may or may not have happened; the token stays taken, so a retry
		// treats it as done rather than debiting again.
		return r, ver, Charge{}, fmt.Errorf("debit %d credits: %w", res.Credits, err)
	}
	res.Balance = bal
	r.State, r.Result = stateDebited, res
	if v, err := c.putReceipt(ctx, r, ver); err == nil {
		ver = v
	}
	// A failed receipt update is not fatal: the ledger entry written next also proves
	// the debit to a retry (awaitDebit looks for it).
	return r, ver, res, nil
}

// awaitDebit waits while another call holding the debit token finishes.
func (c *charge) awaitDebit(ctx context.Context, res Charge) (receipt, int64, Charge, error) {
	s := c.s
	deadline := time.Now().Add(s.pollFor)
	for {
		r, ver, err := c.getReceipt(ctx)
		switch {
		case errors.Is(err, apperr.ErrNotFound):
			return r, ver, Charge{}, errRestart // refused and cleaned up: start again
		case err != nil:
			return r, ver, Charge{}, err
		case r.State == stateDebited || r.State == stateDone:
			return r, ver, r.Result, nil
		case r.State == stateRefused:
			return r, ver, Charge{}, c.abandon(ctx, ver)
		}
		if e, err := c.ledgerEntry(ctx, r.Created); err == nil {
			// The holder debited and wrote the ledger, then failed: the entry has the result.
			return r, ver, Charge{Credits: e.Credits, NetNew: e.NetNew, Records: e.Records, Balance: e.Balance}, nil
		} else if !errors.Is(err, apperr.ErrNotFound) {
			return r, ver, Charge{}, err
		}
		if s.now().Sub(r.Created) > staleAfter {
			// The holder died between taking the token and writing the ledger. Whether it
			// debited is unknown: count it as debited, never charge twice.
			bal, err := s.Balance(ctx, c.org.ID)
			if err != nil {
				return r, ver, Charge{}, err
			}
			res.Balance = bal
			return r, ver, res, nil
		}
		if time.Now().After(deadline) {
			return r, ver, Charge{}, &apperr.Error{Kind: apperr.ErrConflict, Message: "Another request with the same request id is being charged; retry."}
		}
		select {
		case <-ctx.Done():
			return r, ver, Charge{}, ctx.Err()
		case <-time.After(s.pollEvery):
		}
	}
}

// refuse undoes a charge the balance cannot cover and returns the 402.
func (c *charge) refuse(ctx context.Context, r receipt, ver int64, res Charge, claims []claim) error {
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
	return &apperr.Error{Kind: apperr.ErrPaymentRequired, Message: fmt.Sprintf(
		"This request needs %d credits (%d new %s records at %d credits per 1,000 on the %s plan), but the organisation has %d credits left.",
		res.Credits, res.NetNew, c.kind, Rate(c.org.Plan, c.kind), c.org.Plan, bal)}
}

// abandon finishes the clean-up of a refused charge (its owner may have died midway)
// and asks for a restart.
func (c *charge) abandon(ctx context.Context, ver int64) error {
	if c.kind.Dedupe() {
		var owned []claim
		for _, rec := range c.records {
			it, err := c.s.store.Get(ctx, seenKey(c.org.ID, c.kind, rec))
			if err != nil {
				continue
			}
			var d seenDoc
			if json.Unmarshal(it.Data, &d) == nil && d.Charge == c.id {
				owned = append(owned, claim{key: it.Key, version: it.Version})
			}
		}
		if err := c.release(ctx, owned); err != nil {
			return err
		}
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
