package billing

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"sync"

	"github.com/firmoapi/firmo/shared/account"
	"github.com/firmoapi/firmo/shared/apperr"
	"github.com/firmoapi/firmo/shared/kv"
)

// Held are the charges made under one request (Hold), so that a response the platform
// then refuses to carry (422 response_too_large) gives them back: nothing is charged
// for an answer the caller never gets.
type Held struct {
	mu      sync.Mutex
	charges []heldCharge
}

type heldCharge struct {
	c   *charge
	res Charge
}

type heldKey struct{}

// Hold returns ctx recording in the returned Held every charge made under it.
func Hold(ctx context.Context) (context.Context, *Held) {
	h := &Held{}
	return context.WithValue(ctx, heldKey{}, h), h
}

func (h *Held) add(c *charge, res Charge) {
	if h == nil || (res.Credits == 0 && res.NetNew == 0) {
		return
	}
	h.mu.Lock()
	defer h.mu.Unlock()
	h.charges = append(h.charges, heldCharge{c, res})
}

// Credits is what the held charges debited.
func (h *Held) Credits() int64 {
	h.mu.Lock()
	defer h.mu.Unlock()
	var n int64
	for _, hc := range h.charges {
		n += hc.res.Credits
	}
	return n
}

func heldFrom(ctx context.Context) *Held {
	h, _ := ctx.Value(heldKey{}).(*Held)
	return h
}

// Refund gives back every charge h holds: the debited credits return to the balance,
// the records it billed are net-new again (their dedupe entries, when still this
// charge's, are removed), a ledger entry with the negated figures is written beside
// the charge's (the ledger stays append-only, and usage nets to zero), and the receipt
// is removed so that a retry with the same request id is charged afresh.
func (s *Service) Refund(ctx context.Context, h *Held) error {
	if h == nil {
		return nil
	}
	h.mu.Lock()
	charges := h.charges
	h.charges = nil
	h.mu.Unlock()
	var errs []error
	for _, hc := range charges {
		errs = append(errs, hc.c.refund(context.WithoutCancel(ctx), hc.res))
	}
	return errors.Join(errs...)
}

func (c *charge) refund(ctx context.Context, res Charge) error {
	var owned []claim
	for _, p := range c.parts {
		if !p.Kind.Dedupe() {
			continue
		}
		for _, rec := range p.Records {
			it, err := c.s.store.Get(ctx, seenKey(c.org.ID, p.Kind, rec))
			if errors.Is(err, apperr.ErrNotFound) {
				continue
			}
			if err != nil {
				return fmt.Errorf("refund charge %s: %w", c.id, err)
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
	bal := res.Balance
	if res.Credits > 0 {
		var err error
		if bal, err = c.s.store.Add(ctx, profileKey(c.org.ID), account.CreditsCounter, res.Credits, kv.AddCond{}); err != nil {
			return fmt.Errorf("refund %d credits of charge %s: %w", res.Credits, c.id, err)
		}
	}
	r, _, err := c.getReceipt(ctx)
	if err != nil && !errors.Is(err, apperr.ErrNotFound) {
		return err
	}
	d := ledgerDoc{Entry: Entry{Time: c.s.now().UTC(), Endpoint: c.endpoint, Kind: c.parts[0].Kind, Records: -res.Records, NetNew: -res.NetNew,
		Credits: -res.Credits, RequestID: c.requestID, ChargeID: c.id + "-refund", Balance: bal}}
	if len(r.Parts) > 0 {
		d.Kind = ""
		for _, p := range r.Parts {
			d.Parts = append(d.Parts, partResult{Kind: p.Kind, Records: -p.Records, NetNew: -p.NetNew, Credits: -p.Credits})
		}
	}
	b, err := json.Marshal(d)
	if err != nil {
		return err
	}
	key := kv.Key{PK: ledgerPK(c.org.ID), SK: d.Time.Format(ledgerTime) + "#" + c.id + "-refund"}
	if _, err := c.s.store.Put(ctx, key, b, kv.Cond{IfAbsent: true}); err != nil && !errors.Is(err, apperr.ErrConflict) {
		return fmt.Errorf("write refund ledger entry: %w", err)
	}
	return c.s.store.Delete(ctx, c.key, kv.Cond{})
}
