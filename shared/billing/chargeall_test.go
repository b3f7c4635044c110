package billing_test

import (
	"context"
	"errors"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/firmoapi/firmo/shared/account"
	"github.com/firmoapi/firmo/shared/apperr"
	"github.com/firmoapi/firmo/shared/billing"
	"github.com/firmoapi/firmo/shared/kv"
)

// contactsAndCompanies is one contact-search response: 8 contacts (8 credits on FREE)
// at 6 companies (3 credits on FREE).
func contactsAndCompanies() []billing.Items {
	return []billing.Items{
		{Kind: billing.KindContact, Records: records("p", 0, 8)},
		{Kind: billing.KindCompany, Records: records("d", 0, 6)},
	}
}

// TestChargeAllShortBalanceChangesNothing: when the contacts fit the balance but
// contacts and companies together do not, nothing is charged: not the contacts either
// (the partial write of charging the kinds one after the other).
func TestChargeAllShortBalanceChangesNothing(t *testing.T) {
	for _, a := range adapters {
		t.Run(a.name, func(t *testing.T) {
			store := a.store(t)
			svc := billing.New(store, billing.WithClock(newClock(day0).now))
			org := newOrg(t, store, account.PlanFree, 10)
			ctx := context.Background()
			_, err := svc.ChargeAll(billing.WithRoute(ctx, "POST /v1/contacts/discover"), org, contactsAndCompanies(), "req-1")
			// The contacts alone (8 credits) would have fitted the 10 credits.
			refusedUntouched(t, svc, org.ID, err, 10, "11 credits", "8 new contact records at 1000 credits per 1,000",
				"6 new company records at 500 credits per 1,000", "10 credits left")
			// Neither kind was marked delivered: each bills in full on its own under
			// another request id.
			if _, err := svc.Grant(ctx, org.ID, 100); err != nil {
				t.Fatal(err)
			}
			for _, it := range contactsAndCompanies() {
				got, err := svc.Charge(billing.WithRoute(ctx, "POST /v1/contacts/discover"), org, it.Kind, it.Records, "req-2-"+string(it.Kind))
				if err != nil || got.NetNew != len(it.Records) {
					t.Fatalf("%s after top-up: %+v, %v; want all %d net-new", it.Kind, got, err, len(it.Records))
				}
			}
		})
	}
}

var adapters = []struct {
	name  string
	store func(t *testing.T) kv.Store
}{{"bolt", boltStore}, {"dynamo", dynamoStore}}

// TestChargeAllDebitsOnceAndLedgersEachKind: one charge over two kinds debits the sum
// of the per-kind prices once, the ledger lists each kind (same charge id), usage
// counts them by kind, a replay charges nothing more, and records already billed within
// the window are free per kind.
func TestChargeAllDebitsOnceAndLedgersEachKind(t *testing.T) {
	store := boltStore(t)
	clk := newClock(day0)
	svc := billing.New(store, billing.WithClock(clk.now))
	org := newOrg(t, store, account.PlanFree, 100)
	ctx := context.Background()
	// Two companies were billed before: 4 of the 6 are net-new (2 credits).
	if _, err := svc.Charge(billing.WithRoute(ctx, "POST /v1/match"), org, billing.KindCompany, records("d", 0, 2), "before"); err != nil {
		t.Fatal(err)
	}
	clk.add(time.Second) // the ledger lists in time order
	got, err := svc.ChargeAll(billing.WithRoute(ctx, "POST /v1/contacts/discover"), org, contactsAndCompanies(), "req-1")
	want := billing.Charge{Credits: 8 + 2, NetNew: 8 + 4, Records: 14, Balance: 100 - 1 - 10}
	if err != nil || got != want {
		t.Fatalf("ChargeAll = %+v, %v; want %+v", got, err, want)
	}
	again, err := svc.ChargeAll(billing.WithRoute(ctx, "POST /v1/contacts/discover"), org, contactsAndCompanies(), "req-1")
	if err != nil || again != got {
		t.Fatalf("replay = %+v, %v; want %+v", again, err, got)
	}
	if b := balance(t, svc, org.ID); b != 89 {
		t.Fatalf("balance = %d, want 89", b)
	}
	es := ledger(t, svc, org.ID)
	if len(es) != 3 {
		t.Fatalf("ledger = %+v, want the earlier charge and one entry per kind", es)
	}
	c, d := es[1], es[2]
	if c.Kind != billing.KindContact || c.Records != 8 || c.NetNew != 8 || c.Credits != 8 ||
		d.Kind != billing.KindCompany || d.Records != 6 || d.NetNew != 4 || d.Credits != 2 ||
		c.ChargeID != d.ChargeID || c.Balance != 89 || d.Balance != 89 || c.RequestID != "req-1" {
		t.Fatalf("ledger entries of the charge:\n%+v\n%+v", c, d)
	}
	u, err := svc.Usage(ctx, org.ID, day0, day0)
	if err != nil {
		t.Fatal(err)
	}
	if u.Total.Credits != 11 || len(u.ByEndpoint) != 3 {
		t.Fatalf("usage = %+v", u)
	}
}

// TestChargeAllMergesAndSkips: items of the same kind are merged, empty kinds are
// left out (a one-kind ChargeAll is a Charge: same id, so replays agree), and a bad
// kind or record is refused before anything is written.
func TestChargeAllMergesAndSkips(t *testing.T) {
	store := boltStore(t)
	svc := billing.New(store, billing.WithClock(newClock(day0).now))
	org := newOrg(t, store, account.PlanFree, 100)
	ctx := context.Background()
	got, err := svc.ChargeAll(billing.WithRoute(ctx, "e"), org, []billing.Items{
		{Kind: billing.KindContact, Records: []string{"1", "2"}},
		{Kind: billing.KindCompany},
		{Kind: billing.KindContact, Records: []string{"2", "3"}},
	}, "r")
	if err != nil || got.NetNew != 3 || got.Credits != 3 {
		t.Fatalf("merged = %+v, %v; want 3 net-new contacts", got, err)
	}
	replay, err := svc.Charge(billing.WithRoute(ctx, "e"), org, billing.KindContact, []string{"3", "2", "1"}, "r")
	if err != nil || replay != got {
		t.Fatalf("Charge of the same records = %+v, %v; want the replay %+v", replay, err, got)
	}
	for name, items := range map[string][]billing.Items{
		"unknown kind": {{Kind: billing.KindContact, Records: []string{"9"}}, {Kind: "x", Records: []string{"1"}}},
		"blank record": {{Kind: billing.KindContact, Records: []string{"9"}}, {Kind: billing.KindCompany, Records: []string{" "}}},
	} {
		if _, err := svc.ChargeAll(billing.WithRoute(ctx, "e"), org, items, "bad"); !errors.Is(err, apperr.ErrInvalid) {
			t.Errorf("%s: err = %v, want ErrInvalid", name, err)
		}
	}
	if b := balance(t, svc, org.ID); b != 97 {
		t.Fatalf("balance = %d, want 97", b)
	}
}

// TestChargeAllRetryAfterFailure: a two-kind charge that fails at any step (a crash
// between steps) and is retried ends with one debit of the total and one ledger item;
// a failure before the debit leaves the balance untouched.
func TestChargeAllRetryAfterFailure(t *testing.T) {
	hasPrefix := strings.HasPrefix
	for _, c := range []struct {
		name          string
		at            func(op string, k kv.Key) bool
		chargedBefore bool // the failed attempt had debited already
	}{
		{"claim company", func(op string, k kv.Key) bool {
			return op == "put" && hasPrefix(k.PK, "billing#seen#") && strings.Contains(k.PK, "#company#")
		}, false},
		{"token", func(op string, k kv.Key) bool { return op == "add" && hasPrefix(k.SK, "debit#") }, false},
		{"ledger", func(op string, k kv.Key) bool { return op == "put" && hasPrefix(k.PK, "ledger#") }, true},
	} {
		t.Run(c.name, func(t *testing.T) {
			base := boltStore(t)
			org := newOrg(t, base, account.PlanFree, 100)
			var armed atomic.Bool
			armed.Store(true)
			fs := &faultStore{Store: base, fail: func(op string, k kv.Key) error {
				if c.at(op, k) && armed.CompareAndSwap(true, false) {
					return errDown
				}
				return nil
			}}
			svc := billing.New(fs, billing.WithClock(newClock(day0).now))
			if _, err := svc.ChargeAll(billing.WithRoute(context.Background(), "POST /v1/t"), org, contactsAndCompanies(), "req"); !errors.Is(err, apperr.ErrUnavailable) {
				t.Fatalf("first attempt: err = %v, want the injected failure", err)
			}
			want := int64(100)
			if c.chargedBefore {
				want = 89
			}
			if b := balance(t, svc, org.ID); b != want {
				t.Fatalf("balance after the failed attempt = %d, want %d", b, want)
			}
			if es := ledger(t, svc, org.ID); len(es) != 0 {
				t.Fatalf("ledger after the failed attempt: %+v", es)
			}
			got, err := svc.ChargeAll(billing.WithRoute(context.Background(), "POST /v1/t"), org, contactsAndCompanies(), "req")
			if err != nil || got.Credits != 11 || got.NetNew != 14 {
				t.Fatalf("retry = %+v, %v; want the 11-credit charge", got, err)
			}
			if b := balance(t, svc, org.ID); b != 89 {
				t.Fatalf("balance after retry = %d, want 89 (one debit)", b)
			}
			if es := ledger(t, svc, org.ID); len(es) != 2 || es[0].Credits+es[1].Credits != 11 {
				t.Fatalf("ledger = %+v, want one entry per kind, 11 credits", es)
			}
		})
	}
}
