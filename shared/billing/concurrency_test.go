package billing_test

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/firmoapi/firmo/shared/account"
	"github.com/firmoapi/firmo/shared/apperr"
	"github.com/firmoapi/firmo/shared/billing"
	"github.com/firmoapi/firmo/shared/kv"
)

// TestConcurrencyOnAdapters runs the concurrent-charging rules on both storage
// adapters: embedded bbolt and DynamoDB (dynalite), where the debit and the claims are
// single conditional writes without transactions.
func TestConcurrencyOnAdapters(t *testing.T) {
	for _, a := range []struct {
		name  string
		store func(t *testing.T) kv.Store
	}{{"bolt", boltStore}, {"dynamo", dynamoStore}} {
		t.Run(a.name, func(t *testing.T) {
			store := a.store(t)
			t.Run("OverlappingRecordsBilledOnce", func(t *testing.T) { overlappingRecordsBilledOnce(t, store) })
			t.Run("NeverOverdraws", func(t *testing.T) { neverOverdraws(t, store) })
			t.Run("DuplicateRequestsChargeOnce", func(t *testing.T) { duplicateRequestsChargeOnce(t, store) })
		})
	}
}

// overlappingRecordsBilledOnce: concurrent requests delivering overlapping records bill
// each record exactly once in total, and the ledger matches the balance.
func overlappingRecordsBilledOnce(t *testing.T, store kv.Store) {
	svc := billing.New(store, billing.WithClock(newClock(day0).now))
	org := newOrg(t, store, account.PlanFree, 1_000_000)
	const workers, perWorker, pool, size = 8, 3, 120, 40
	rng := rand.New(rand.NewPCG(1, 2))
	sets := make([][]string, workers*perWorker)
	for i := range sets {
		for _, j := range rng.Perm(pool)[:size] {
			sets[i] = append(sets[i], fmt.Sprint("persona-", j))
		}
	}
	var wg sync.WaitGroup
	var netNew, credits atomic.Int64
	errs := make(chan error, len(sets))
	for w := 0; w < workers; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := w * perWorker; i < (w+1)*perWorker; i++ {
				got, err := svc.Charge(billing.WithRoute(context.Background(), "POST /v1/contacts/discover"), org, billing.KindContact, sets[i], fmt.Sprint("req-", i))
				if err != nil {
					errs <- err
					return
				}
				netNew.Add(int64(got.NetNew))
				credits.Add(got.Credits)
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Fatal(err)
	}
	unique := map[string]bool{}
	for _, s := range sets {
		for _, r := range s {
			unique[r] = true
		}
	}
	if int(netNew.Load()) != len(unique) {
		t.Fatalf("net-new over all requests = %d, want %d distinct records (each billed exactly once)", netNew.Load(), len(unique))
	}
	// FREE contacts cost one credit each, so credits equal records.
	if credits.Load() != int64(len(unique)) {
		t.Fatalf("credits = %d, want %d", credits.Load(), len(unique))
	}
	if b := balance(t, svc, org.ID); b != 1_000_000-credits.Load() {
		t.Fatalf("balance = %d, want %d", b, 1_000_000-credits.Load())
	}
	var sum int64
	es := ledger(t, svc, org.ID)
	for _, e := range es {
		sum += e.Credits
	}
	if len(es) != len(sets) || sum != credits.Load() {
		t.Fatalf("ledger: %d entries summing %d credits, want %d entries summing %d", len(es), sum, len(sets), credits.Load())
	}
}

// neverOverdraws: many concurrent charges against a small balance: the ones that fit
// succeed, the others get 402, the balance never goes below zero, and refused records
// stay unbilled.
func neverOverdraws(t *testing.T, store kv.Store) {
	svc := billing.New(store, billing.WithClock(newClock(day0).now))
	org := newOrg(t, store, account.PlanFree, 10)
	const requests, each = 12, 3 // 36 credits wanted, 10 available: 3 requests fit
	var ok, refused atomic.Int64
	var wg sync.WaitGroup
	errs := make(chan error, requests)
	for i := 0; i < requests; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			_, err := svc.Charge(billing.WithRoute(context.Background(), "POST /v1/contacts/discover"), org, billing.KindContact, records(fmt.Sprintf("r%d-", i), 0, each), fmt.Sprint("req-", i))
			switch {
			case err == nil:
				ok.Add(1)
			case errors.Is(err, apperr.ErrPaymentRequired):
				refused.Add(1)
			default:
				errs <- err
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Fatal(err)
	}
	if ok.Load() != 3 || refused.Load() != requests-3 {
		t.Fatalf("%d charged, %d refused; want 3 and %d", ok.Load(), refused.Load(), requests-3)
	}
	if b := balance(t, svc, org.ID); b != 1 {
		t.Fatalf("balance = %d, want 1", b)
	}
	if es := ledger(t, svc, org.ID); len(es) != 3 {
		t.Fatalf("ledger has %d entries, want 3", len(es))
	}
	// Every refused request's records are still net-new.
	if _, err := svc.Grant(context.Background(), org.ID, 1000); err != nil {
		t.Fatal(err)
	}
	var all []string
	for i := 0; i < requests; i++ {
		all = append(all, records(fmt.Sprintf("r%d-", i), 0, each)...)
	}
	got, err := svc.Charge(billing.WithRoute(context.Background(), "POST /v1/contacts/discover"), org, billing.KindContact, all, "req-all")
	if err != nil || got.NetNew != int(refused.Load())*each {
		t.Fatalf("after top-up: %+v, %v; want %d net-new (the refused requests' records)", got, err, refused.Load()*each)
	}
}

// duplicateRequestsChargeOnce: the same request (id and records) arriving several times
// at once is charged once and every copy gets the same answer.
func duplicateRequestsChargeOnce(t *testing.T, store kv.Store) {
	svc := billing.New(store, billing.WithClock(newClock(day0).now))
	org := newOrg(t, store, account.PlanFree, 100)
	recs := records("dup", 0, 20)
	results := make([]billing.Charge, 6)
	errs := make([]error, len(results))
	var wg sync.WaitGroup
	for i := range results {
		wg.Add(1)
		go func() {
			defer wg.Done()
			results[i], errs[i] = svc.Charge(billing.WithRoute(context.Background(), "POST /v1/contacts/discover"), org, billing.KindContact, recs, "same-id")
		}()
	}
	wg.Wait()
	for i := range results {
		if errs[i] != nil {
			t.Fatalf("copy %d: %v", i, errs[i])
		}
		if results[i] != results[0] || results[i].Credits != 20 {
			t.Fatalf("copy %d = %+v, copy 0 = %+v; want the same 20-credit charge", i, results[i], results[0])
		}
	}
	if b := balance(t, svc, org.ID); b != 80 {
		t.Fatalf("balance = %d, want 80", b)
	}
	if es := ledger(t, svc, org.ID); len(es) != 1 {
		t.Fatalf("ledger has %d entries, want 1", len(es))
	}
}

// faultStore fails chosen writes, standing in for a process or network failure between
// the steps of a charge.
type faultStore struct {
	kv.Store
	fail func(op string, key kv.Key) error
}

func (f *faultStore) Put(ctx context.Context, k kv.Key, d []byte, c kv.Cond) (int64, error) {
	if err := f.fail("put", k); err != nil {
		return 0, err
	}
	return f.Store.Put(ctx, k, d, c)
}

func (f *faultStore) Add(ctx context.Context, k kv.Key, n string, d int64, c kv.AddCond) (int64, error) {
	if err := f.fail("add", k); err != nil {
		return 0, err
	}
	return f.Store.Add(ctx, k, n, d, c)
}

var errDown = fmt.Errorf("injected: %w", apperr.ErrUnavailable)

// TestRetryAfterFailureChargesOnce: a charge that fails at any step and is retried with
// the same request id ends with exactly one debit and one ledger entry.
func TestRetryAfterFailureChargesOnce(t *testing.T) {
	hasPrefix := func(s, p string) bool { return len(s) >= len(p) && s[:len(p)] == p }
	for _, c := range []struct {
		name string
		at   func(op string, k kv.Key) bool
		// wantFirstCharged: the failed attempt already debited (its debit came before the failure).
		wantFirstCharged bool
		// wantFirstOK: the failure is absorbed (a later write proves the debit).
		wantFirstOK bool
	}{
		{"claim", func(op string, k kv.Key) bool { return op == "put" && hasPrefix(k.PK, "billing#seen#") }, false, false},
		{"token", func(op string, k kv.Key) bool { return op == "add" && hasPrefix(k.SK, "debit#") }, false, false},
		{"record debit", func(op string, k kv.Key) bool { return op == "put" && hasPrefix(k.SK, "charge#") }, true, true},
		{"ledger", func(op string, k kv.Key) bool { return op == "put" && hasPrefix(k.PK, "ledger#") }, true, false},
		{"done", func(op string, k kv.Key) bool { return op == "put" && hasPrefix(k.SK, "charge#") }, true, false},
	} {
		t.Run(c.name, func(t *testing.T) {
			base := boltStore(t)
			clk := newClock(day0)
			org := newOrg(t, base, account.PlanFree, 100)
			var armed atomic.Bool
			var receiptPuts atomic.Int64
			fs := &faultStore{Store: base, fail: func(op string, k kv.Key) error {
				if !armed.Load() || !c.at(op, k) {
					return nil
				}
				// "record debit" is the second receipt write (the first creates it), "done" the third.
				nth := map[string]int64{"record debit": 2, "done": 3}[c.name]
				if nth > 0 && receiptPuts.Add(1) < nth {
					return nil
				}
				armed.Store(false)
				return errDown
			}}
			armed.Store(true)
			svc := billing.New(fs, billing.WithClock(clk.now))
			recs := records("x", 0, 10)
			_, err := svc.Charge(billing.WithRoute(context.Background(), "POST /v1/t"), org, billing.KindContact, recs, "req")
			if c.wantFirstOK && err != nil || !c.wantFirstOK && !errors.Is(err, apperr.ErrUnavailable) {
				t.Fatalf("first attempt: err = %v, want ok=%v or the injected failure", err, c.wantFirstOK)
			}
			if armed.Load() {
				t.Fatal("the fault was never injected")
			}
			wantAfterFirst := int64(100)
			if c.wantFirstCharged {
				wantAfterFirst = 90
			}
			if b := balance(t, svc, org.ID); b != wantAfterFirst {
				t.Fatalf("balance after the failed attempt = %d, want %d", b, wantAfterFirst)
			}
			got, err := svc.Charge(billing.WithRoute(context.Background(), "POST /v1/t"), org, billing.KindContact, recs, "req")
			if err != nil || got.Credits != 10 || got.NetNew != 10 {
				t.Fatalf("retry = %+v, %v; want the 10-credit charge", got, err)
			}
			if b := balance(t, svc, org.ID); b != 90 {
				t.Fatalf("balance after retry = %d, want 90 (one debit)", b)
			}
			if es := ledger(t, svc, org.ID); len(es) != 1 || es[0].Credits != 10 {
				t.Fatalf("ledger = %+v, want one 10-credit entry", es)
			}
		})
	}
}

// TestAmbiguousDebitIsNeverRepeated: when the debit itself fails (it may or may not have
// been applied), a retry does not debit again; once the first attempt is stale it
// completes the charge as debited.
func TestAmbiguousDebitIsNeverRepeated(t *testing.T) {
	base := boltStore(t)
	clk := newClock(day0)
	org := newOrg(t, base, account.PlanFree, 100)
	var armed atomic.Bool
	armed.Store(true)
	fs := &faultStore{Store: base, fail: func(op string, k kv.Key) error {
		if op == "add" && k.SK == "profile" && armed.CompareAndSwap(true, false) {
			// The write reached the store, but the answer was lost.
			base.Add(context.Background(), k, account.CreditsCounter, -10, kv.AddCond{})
			return errDown
		}
		return nil
	}}
	svc := billing.New(fs, billing.WithClock(clk.now))
	recs := records("y", 0, 10)
	if _, err := svc.Charge(billing.WithRoute(context.Background(), "POST /v1/t"), org, billing.KindContact, recs, "req"); !errors.Is(err, apperr.ErrUnavailable) {
		t.Fatalf("first attempt: %v", err)
	}
	// Right away, a retry cannot know whether the debit happened: it refuses to guess.
	if _, err := svc.Charge(billing.WithRoute(context.Background(), "POST /v1/t"), org, billing.KindContact, recs, "req"); !errors.Is(err, apperr.ErrConflict) {
		t.Fatalf("immediate retry: err = %v, want ErrConflict (in progress)", err)
	}
	clk.add(2 * time.Minute)
	got, err := svc.Charge(billing.WithRoute(context.Background(), "POST /v1/t"), org, billing.KindContact, recs, "req")
	if err != nil || got.Credits != 10 {
		t.Fatalf("retry after the stale limit = %+v, %v", got, err)
	}
	if b := balance(t, svc, org.ID); b != 90 {
		t.Fatalf("balance = %d, want 90: debited once", b)
	}
}
