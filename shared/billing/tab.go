package billing

import (
	"context"
	"errors"
	"fmt"

	"github.com/firmoapi/firmo/shared/account"
	"github.com/firmoapi/firmo/shared/apperr"
	"github.com/firmoapi/firmo/shared/kv"
)

// # Task billing: a running tab
//
// A task delivers its records one at a time, on many workers, possibly in several
// processes, yet its records are priced like one request's: at the plan's rate per
// 1,000 records, rounded up once. Accrue is the call a task record makes: the record
// joins the task's open batch, and batches are charged one at a time per task in a
// process (group commit: while one batch is charged, the records arriving meanwhile
// form the next, at most MaxTabBatch each), so a ledger entry covers a batch rather
// than a record and a record waits at most for the charge before its own.
//
// Each batch is a charge of the usual sequence (receipt, dedupe claims, one debit, one
// ledger entry), priced from the task's tab: a counter of the millicredits the task
// has accrued (net-new records times the rate per 1,000), kept in the store beside the
// receipts. A batch adds its millicredits with one atomic ADD and debits the whole
// credits the tab crossed: ceil(after/1000) - ceil(before/1000). Those differences
// add up, whatever the order batches land in and however many processes charge the
// task, to ceil(total/1000): the task pays what one request delivering all its
// records pays, rounding once.

// MaxTabBatch is the most records one batch of a task's tab charges.
const MaxTabBatch = 100

// tabCounter is the tab item's counter of accrued millicredits.
const tabCounter = "milli"

func tabKey(orgID, taskID string, kind Kind) kv.Key {
	return kv.Key{PK: "billing#" + orgID, SK: "tab#" + taskID + "#" + string(kind)}
}

// tabID names one running tab in a process.
type tabID struct {
	org, task, route string
	kind             Kind
}

// tab is a task's tab in this process: the batches waiting to be charged and whether
// a caller is charging them.
type tab struct {
	queue    []*tabBatch // the last one is open while it has room
	charging bool
}

// tabBatch is records charged together; done closes once each has its outcome.
type tabBatch struct {
	org     account.Org
	records []string
	errs    []error // by record
	done    chan struct{}
}

// Accrue bills the records one task record delivers (the route in ctx, as for Charge)
// at the exact per-record rate, in a batch with the task's other records; it returns
// once they are charged, or refused: a 402 when the balance cannot cover the whole
// credits a record's batch (or, when the batch as a whole does not fit, the record on
// its own) crosses. A dedupe kind's record already billed within the window, by this
// task or another charge, is free, so a record delivered again costs nothing more.
func (s *Service) Accrue(ctx context.Context, org account.Org, kind Kind, taskID string, records ...string) error {
	route, err := routeFor(ctx)
	if err != nil {
		return err
	}
	if err := checkKind(kind); err != nil {
		return err
	}
	if org.ID == "" || taskID == "" {
		return fmt.Errorf("accrue needs an organisation and a task id: %w", apperr.ErrInvalid)
	}
	if len(records) == 0 {
		return nil
	}
	id := tabID{org: org.ID, task: taskID, route: route, kind: kind}
	type place struct {
		b *tabBatch
		i int
	}
	places := make([]place, len(records))
	s.tabsMu.Lock()
	t := s.tabs[id]
	if t == nil {
		t = &tab{}
		s.tabs[id] = t
	}
	for j, record := range records {
		var b *tabBatch
		if n := len(t.queue); n > 0 && len(t.queue[n-1].records) < MaxTabBatch {
			b = t.queue[n-1] // the open batch (the one being charged is no longer queued)
		} else {
			b = &tabBatch{done: make(chan struct{})}
			t.queue = append(t.queue, b)
		}
		places[j] = place{b, len(b.records)}
		b.org = org // the latest plan prices the batch
		b.records = append(b.records, record)
		b.errs = append(b.errs, nil)
	}
	lead := !t.charging
	t.charging = true
	s.tabsMu.Unlock()
	if lead {
		s.chargeTab(context.WithoutCancel(ctx), id, t, places[len(places)-1].b)
	}
	for _, p := range places {
		select {
		case <-p.b.done:
		case <-ctx.Done():
			select {
			case <-p.b.done: // charged meanwhile: the outcome stands
			default:
				return ctx.Err()
			}
		}
		if err := p.b.errs[p.i]; err != nil {
			return err
		}
	}
	return nil
}

// chargeTab charges the tab's batches in order. A caller leading for its own records
// charges up to their batch (own) and hands what is left to a goroutine, so its
// record is not held charging others'; with own nil it charges until none is waiting,
// then lets the next caller lead. The batch being charged is closed to new records (a
// new one opens behind it).
func (s *Service) chargeTab(ctx context.Context, id tabID, t *tab, own *tabBatch) {
	for {
		s.tabsMu.Lock()
		if len(t.queue) == 0 {
			t.charging = false
			delete(s.tabs, id)
			s.tabsMu.Unlock()
			return
		}
		b := t.queue[0] // closed to new records from here: they open a batch behind it
		t.queue = t.queue[1:]
		s.tabsMu.Unlock()
		s.chargeBatch(ctx, id, b)
		close(b.done)
		if b == own {
			go s.chargeTab(ctx, id, t, nil)
			return
		}
	}
}

// chargeBatch charges a batch as one charge; when the balance refuses it, each record
// is charged on its own, so the records the balance covers still go.
func (s *Service) chargeBatch(ctx context.Context, id tabID, b *tabBatch) {
	err := s.chargeTabRecords(ctx, id, b.org, b.records)
	if !errors.Is(err, apperr.ErrPaymentRequired) || len(b.records) == 1 {
		for i := range b.errs {
			b.errs[i] = err
		}
		return
	}
	for i, rec := range b.records {
		b.errs[i] = s.chargeTabRecords(ctx, id, b.org, []string{rec})
	}
}

func (s *Service) chargeTabRecords(ctx context.Context, id tabID, org account.Org, records []string) error {
	parts, err := normalizeItems([]Items{{Kind: id.kind, Records: records}})
	if err != nil || len(parts) == 0 {
		return err
	}
	// The charge id hashes the records too: a batch of records already charged (a
	// record delivered again) replays that charge's receipt.
	requestID := "task-" + id.task
	tk := tabKey(org.ID, id.task, id.kind)
	c := &charge{s: s, org: org, endpoint: id.route, parts: parts, requestID: requestID, tab: &tk}
	c.id = chargeID(requestID, id.route, parts)
	c.key = receiptKey(org.ID, c.id)
	for range maxRestarts {
		_, err := c.run(ctx)
		if errors.Is(err, errRestart) {
			continue
		}
		return err
	}
	return &apperr.Error{Kind: apperr.ErrConflict, Message: "Another charge of the same records is in progress; retry."}
}

// tabPrice adds the part's millicredits to the task's tab and returns the whole
// credits the tab crossed, with an undo for a charge that is then refused.
func (c *charge) tabPrice(ctx context.Context, p partResult) (credits int64, undo func(), err error) {
	milli := int64(p.NetNew) * Rate(c.org.Plan, p.Kind)
	if milli == 0 {
		return 0, func() {}, nil
	}
	after, err := c.s.store.Add(ctx, *c.tab, tabCounter, milli, kv.AddCond{})
	if err != nil {
		return 0, nil, fmt.Errorf("accrue %d millicredits on the task's tab: %w", milli, err)
	}
	undo = func() { c.s.store.Add(context.WithoutCancel(ctx), *c.tab, tabCounter, -milli, kv.AddCond{}) }
	return ceilDiv(after, 1000) - ceilDiv(after-milli, 1000), undo, nil
}

func ceilDiv(a, b int64) int64 {
	if a <= 0 {
		return 0
	}
	return (a + b - 1) / b
}
