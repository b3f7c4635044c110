package billing_test

import (
	"context"
	"errors"
	"sync"
	"testing"
	"time"

	"github.com/firmoapi/firmo/shared/account"
	"github.com/firmoapi/firmo/shared/apperr"
	"github.com/firmoapi/firmo/shared/billing"
)

// accrueAll accrues records on 50 workers, as the task engine runs them, and returns
// each record's error.
func accrueAll(t *testing.T, svc *billing.Service, org account.Org, kind billing.Kind, taskID string, recs []string) []error {
	t.Helper()
	ctx := billing.WithRoute(context.Background(), "POST /v1/validate/icp")
	errs := make([]error, len(recs))
	next := make(chan int)
	var wg sync.WaitGroup
	for range 50 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range next {
				errs[i] = svc.Accrue(ctx, org, kind, taskID, recs[i])
			}
		}()
	}
	for i := range recs {
		next <- i
	}
	close(next)
	wg.Wait()
	return errs
}

// The review's findings: 20 new companies on FREE cost 20 credits through a task and
// 10 through append; 593 on ENTERPRISE cost 593 where the rate gives 119; 108 found
// emails cost 108 where it gives 81. A task's records now cost what one request
// delivering them all costs, in ledger entries of at most MaxTabBatch records.
func TestAccrueBillsTheExactRate(t *testing.T) {
	cases := []struct {
		plan account.Plan
		kind billing.Kind
		n    int
		want int64
	}{
		{account.PlanFree, billing.KindCompany, 20, 10},
		{account.PlanEnterprise, billing.KindCompany, 593, 119},
		{account.PlanEnterprise, billing.KindEmail, 108, 81},
		{account.PlanPro, billing.KindContact, 1, 1},
		{account.PlanStarter, billing.KindCompany, 1001, 401},
	}
	for _, tc := range cases {
		t.Run(string(tc.plan)+"/"+string(tc.kind), func(t *testing.T) {
			store := boltStore(t)
			svc := billing.New(store)
			org := newOrg(t, store, tc.plan, 10_000)
			recs := records("r", 0, tc.n)
			for i, err := range accrueAll(t, svc, org, tc.kind, "task-1", recs) {
				if err != nil {
					t.Fatalf("record %d: %v", i, err)
				}
			}
			if got := 10_000 - balance(t, svc, org.ID); got != tc.want {
				t.Errorf("task charged %d credits, want %d", got, tc.want)
			}
			if want := billing.Price(tc.plan, tc.kind, tc.n); want != tc.want {
				t.Errorf("one request of the same records costs %d, want %d", want, tc.want)
			}
			es := ledgerNow(t, svc, org.ID)
			var credits int64
			netNew := 0
			for _, e := range es {
				if e.Records > billing.MaxTabBatch {
					t.Errorf("ledger entry of %d records, want at most %d", e.Records, billing.MaxTabBatch)
				}
				credits += e.Credits
				netNew += e.NetNew
			}
			if credits != tc.want || netNew != tc.n {
				t.Errorf("ledger: %d credits for %d records, want %d for %d", credits, netNew, tc.want, tc.n)
			}
			if tc.n >= 100 && len(es) >= tc.n/2 {
				t.Errorf("%d ledger entries for %d records: not batched", len(es), tc.n)
			}
			// Delivered again (a retried record, another task): free within the window.
			for i, err := range accrueAll(t, svc, org, tc.kind, "task-2", recs[:min(10, tc.n)]) {
				if err != nil {
					t.Fatalf("again, record %d: %v", i, err)
				}
			}
			if got := 10_000 - balance(t, svc, org.ID); got != tc.want {
				t.Errorf("after delivering records again: %d credits charged, want still %d", got, tc.want)
			}
		})
	}
}

// A balance that covers part of a task: the records it covers go, the rest are 402s,
// and nothing is overdrawn. 3 credits on FREE buy 6 companies at 500 per 1,000.
func TestAccrueShortBalance(t *testing.T) {
	store := boltStore(t)
	svc := billing.New(store)
	org := newOrg(t, store, account.PlanFree, 3)
	errs := accrueAll(t, svc, org, billing.KindCompany, "task-1", records("r", 0, 40))
	ok := 0
	for i, err := range errs {
		switch {
		case err == nil:
			ok++
		case !errors.Is(err, apperr.ErrPaymentRequired):
			t.Fatalf("record %d: %v, want nil or 402", i, err)
		}
	}
	if ok != 6 || balance(t, svc, org.ID) != 0 {
		t.Errorf("%d records charged, balance %d; want 6 and 0", ok, balance(t, svc, org.ID))
	}
	zero := newOrg(t, store, account.PlanFree, 0)
	for i, err := range accrueAll(t, svc, zero, billing.KindCompany, "task-2", records("z", 0, 5)) {
		if !errors.Is(err, apperr.ErrPaymentRequired) {
			t.Fatalf("0-credit record %d: %v, want 402", i, err)
		}
	}
	if es := ledgerNow(t, svc, zero.ID); len(es) != 0 {
		t.Errorf("refused charges left %d ledger entries", len(es))
	}
}

func ledgerNow(t *testing.T, svc *billing.Service, orgID string) []billing.Entry {
	t.Helper()
	es, err := svc.Entries(context.Background(), orgID, time.Now().AddDate(0, 0, -1), time.Now().AddDate(0, 0, 1))
	if err != nil {
		t.Fatal(err)
	}
	return es
}

func TestAccrueNeedsARoute(t *testing.T) {
	store := boltStore(t)
	svc := billing.New(store)
	org := newOrg(t, store, account.PlanFree, 10)
	if err := svc.Accrue(context.Background(), org, billing.KindCompany, "t", "a.com"); !errors.Is(err, apperr.ErrInternal) {
		t.Fatalf("Accrue without a route: %v, want an internal error", err)
	}
}

// One request of several kinds rounds once: on ENTERPRISE a contact (0.4 credits) and
// its company (0.2) cost 1 credit, not 1 + 1; the ledger's parts add up to it.
func TestChargeAllRoundsOnce(t *testing.T) {
	store := boltStore(t)
	svc := billing.New(store)
	org := newOrg(t, store, account.PlanEnterprise, 100)
	ctx := billing.WithRoute(context.Background(), "POST /v1/contacts/search")
	c, err := svc.ChargeAll(ctx, org, []billing.Items{{Kind: billing.KindContact, Records: []string{"p1"}}, {Kind: billing.KindCompany, Records: []string{"a.com"}}}, "req-1")
	if err != nil {
		t.Fatal(err)
	}
	if c.Credits != 1 || balance(t, svc, org.ID) != 99 {
		t.Errorf("charged %d credits (balance %d), want 1 (99)", c.Credits, balance(t, svc, org.ID))
	}
	var sum int64
	for _, e := range ledgerNow(t, svc, org.ID) {
		sum += e.Credits
	}
	if sum != 1 {
		t.Errorf("ledger parts sum to %d credits, want 1", sum)
	}
	// 3 contacts (1.2) and 4 companies (0.8) on ENTERPRISE: 2 credits.
	c, err = svc.ChargeAll(ctx, org, []billing.Items{{Kind: billing.KindContact, Records: records("p", 10, 13)}, {Kind: billing.KindCompany, Records: records("c", 0, 4)}}, "req-2")
	if err != nil || c.Credits != 2 {
		t.Errorf("second charge %+v, %v; want 2 credits", c, err)
	}
}
