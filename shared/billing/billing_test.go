package billing_test

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/firmoapi/firmo/shared/account"
	"github.com/firmoapi/firmo/shared/apperr"
	"github.com/firmoapi/firmo/shared/billing"
	"github.com/firmoapi/firmo/shared/kv"
	"github.com/firmoapi/firmo/shared/kv/boltkv"
	"github.com/firmoapi/firmo/shared/kv/dynamokv"
	"github.com/firmoapi/firmo/shared/testkit"
)

func boltStore(t *testing.T) kv.Store { return boltStoreB(t) }

func boltStoreB(t testing.TB) kv.Store {
	t.Helper()
	s, err := boltkv.Open(filepath.Join(t.TempDir(), "kv.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

func dynamoStore(t *testing.T) kv.Store {
	t.Helper()
	client := testkit.DynamoClient(t, testkit.Dynalite(t))
	table := fmt.Sprintf("firmo-billing-%d", time.Now().UnixNano())
	if err := dynamokv.EnsureTable(context.Background(), client, table); err != nil {
		t.Fatal(err)
	}
	return dynamokv.New(client, table)
}

// clock is a settable test clock.
type clock struct{ ns atomic.Int64 }

func newClock(t time.Time) *clock { c := &clock{}; c.set(t); return c }
func (c *clock) now() time.Time   { return time.Unix(0, c.ns.Load()).UTC() }
func (c *clock) set(t time.Time)  { c.ns.Store(t.UnixNano()) }
func (c *clock) add(d time.Duration) {
	c.ns.Add(int64(d))
}

var day0 = time.Date(2030, 3, 1, 9, 0, 0, 0, time.UTC)

var orgSeq atomic.Int64

// newOrg makes an organisation on plan with exactly balance credits.
func newOrg(t *testing.T, store kv.Store, plan account.Plan, balance int64) account.Org {
	return newOrgB(t, store, plan, balance)
}

func newOrgB(t testing.TB, store kv.Store, plan account.Plan, balance int64) account.Org {
	t.Helper()
	ctx := context.Background()
	org, _, err := account.New(store).EnsureOrg(ctx, fmt.Sprintf("org %s %d", t.Name(), orgSeq.Add(1)), plan)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := store.Add(ctx, kv.Key{PK: "org#" + org.ID, SK: "profile"}, account.CreditsCounter, balance-org.Credits, kv.AddCond{}); err != nil {
		t.Fatal(err)
	}
	org.Credits = balance
	return org
}

func balance(t *testing.T, svc *billing.Service, orgID string) int64 {
	t.Helper()
	b, err := svc.Balance(context.Background(), orgID)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func records(prefix string, from, to int) []string {
	var out []string
	for i := from; i < to; i++ {
		out = append(out, fmt.Sprintf("%s%d", prefix, i))
	}
	return out
}

func ledger(t *testing.T, svc *billing.Service, orgID string) []billing.Entry {
	t.Helper()
	es, err := svc.Entries(context.Background(), orgID, day0.AddDate(0, 0, -1), day0.AddDate(0, 0, 200))
	if err != nil {
		t.Fatal(err)
	}
	return es
}

func TestPrice(t *testing.T) {
	for _, c := range []struct {
		plan account.Plan
		kind billing.Kind
		n    int
		want int64
	}{
		{account.PlanFree, billing.KindContact, 1, 1},
		{account.PlanFree, billing.KindContact, 1000, 1000},
		{account.PlanEnterprise, billing.KindContact, 1000, 400},
		{account.PlanEnterprise, billing.KindContact, 1, 1}, // 0.4 rounds up to a whole credit
		{account.PlanEnterprise, billing.KindContact, 3, 2}, // 1.2 -> 2
		{account.PlanStarter, billing.KindCompany, 10, 4},
		{account.PlanPro, billing.KindEmail, 7, 7},
		{account.PlanPro, billing.KindAppendRow, 20, 3},
		{account.PlanFree, billing.KindEmail, 0, 0},
		{account.Plan("NOPE"), billing.KindContact, 5, 5}, // unknown plan pays FREE
	} {
		t.Run(fmt.Sprintf("%s/%s/%d", c.plan, c.kind, c.n), func(t *testing.T) {
			if got := billing.Price(c.plan, c.kind, c.n); got != c.want {
				t.Errorf("Price = %d, want %d", got, c.want)
			}
		})
	}
}

// TestRatesAreOrderedByPlan: a higher plan never pays more per record.
func TestRatesAreOrderedByPlan(t *testing.T) {
	plans := []account.Plan{account.PlanFree, account.PlanStarter, account.PlanPro, account.PlanEnterprise}
	for _, k := range billing.Kinds {
		for i := 1; i < len(plans); i++ {
			if billing.Rate(plans[i], k) > billing.Rate(plans[i-1], k) || billing.Rate(plans[i], k) <= 0 {
				t.Errorf("%s: %s rate %d vs %s rate %d", k, plans[i], billing.Rate(plans[i], k), plans[i-1], billing.Rate(plans[i-1], k))
			}
		}
	}
}

// TestDedupeWindow: a record billed on day 0 is free on day 89 and billed again on day 91.
func TestDedupeWindow(t *testing.T) {
	for _, kind := range []billing.Kind{billing.KindContact, billing.KindCompany, billing.KindEmail} {
		t.Run(string(kind), func(t *testing.T) {
			store := boltStore(t)
			clk := newClock(day0)
			svc := billing.New(store, billing.WithClock(clk.now))
			org := newOrg(t, store, account.PlanFree, 1000)
			ctx := context.Background()
			steps := []struct {
				day         int
				records     []string
				wantNetNew  int
				wantCredits int64
			}{
				{0, []string{"a1", "a2", "a3"}, 3, billing.Price(account.PlanFree, kind, 3)},
				{0, []string{"a1", "A2 ", "a3", "a1"}, 0, 0}, // same day, case and duplicates folded
				{89, []string{"a1", "a2", "b1"}, 1, billing.Price(account.PlanFree, kind, 1)},
				{91, []string{"a1", "a2", "a3"}, 3, billing.Price(account.PlanFree, kind, 3)},
				{92, []string{"a1", "a2", "a3"}, 0, 0},
				{89 + 89, []string{"b1"}, 0, 0}, // b1 was first billed on day 89: 89 days later it is still free
				{89 + 91, []string{"b1"}, 1, billing.Price(account.PlanFree, kind, 1)},
			}
			want := int64(1000)
			for i, st := range steps {
				clk.set(day0.Add(time.Duration(st.day) * 24 * time.Hour))
				got, err := svc.Charge(billing.WithRoute(ctx, "POST /v1/test"), org, kind, st.records, fmt.Sprintf("req-%d", i))
				if err != nil {
					t.Fatalf("step %d (day %d): %v", i, st.day, err)
				}
				want -= st.wantCredits
				if got.NetNew != st.wantNetNew || got.Credits != st.wantCredits || got.Balance != want {
					t.Fatalf("step %d (day %d): got %+v, want net_new %d credits %d balance %d", i, st.day, got, st.wantNetNew, st.wantCredits, want)
				}
			}
			if b := balance(t, svc, org.ID); b != want {
				t.Fatalf("balance = %d, want %d", b, want)
			}
		})
	}
}

func TestAppendRowsBillEveryTime(t *testing.T) {
	store := boltStore(t)
	svc := billing.New(store, billing.WithClock(newClock(day0).now))
	org := newOrg(t, store, account.PlanFree, 100)
	ctx := context.Background()
	rows := []string{"acme.com", "acme.com", "globex.com", "initech.com"} // a row each, duplicates included
	for i := 0; i < 2; i++ {
		got, err := svc.Charge(billing.WithRoute(ctx, "POST /v1/append"), org, billing.KindAppendRow, rows, fmt.Sprintf("r%d", i))
		if err != nil || got.NetNew != 4 || got.Credits != 1 {
			t.Fatalf("charge %d = %+v, %v; want 4 records for 1 credit", i, got, err)
		}
	}
	if b := balance(t, svc, org.ID); b != 98 {
		t.Fatalf("balance = %d, want 98", b)
	}
}

func TestOrganisationsHaveTheirOwnCache(t *testing.T) {
	store := boltStore(t)
	svc := billing.New(store, billing.WithClock(newClock(day0).now))
	a := newOrg(t, store, account.PlanFree, 100)
	b := newOrg(t, store, account.PlanFree, 100)
	ctx := context.Background()
	for _, org := range []account.Org{a, b} {
		got, err := svc.Charge(billing.WithRoute(ctx, "POST /v1/test"), org, billing.KindContact, []string{"1", "2"}, "same-request")
		if err != nil || got.NetNew != 2 || got.Credits != 2 {
			t.Fatalf("org %s: %+v, %v", org.Name, got, err)
		}
	}
}

func TestIdempotentPerRequestID(t *testing.T) {
	store := boltStore(t)
	svc := billing.New(store, billing.WithClock(newClock(day0).now))
	org := newOrg(t, store, account.PlanFree, 100)
	ctx := context.Background()
	first, err := svc.Charge(billing.WithRoute(ctx, "POST /v1/test"), org, billing.KindContact, []string{"1", "2", "3"}, "req-1")
	if err != nil {
		t.Fatal(err)
	}
	again, err := svc.Charge(billing.WithRoute(ctx, "POST /v1/test"), org, billing.KindContact, []string{"3", "2", "1"}, "req-1")
	if err != nil || again != first {
		t.Fatalf("replay = %+v, %v; want the first result %+v", again, err, first)
	}
	if b := balance(t, svc, org.ID); b != 97 {
		t.Fatalf("balance = %d, want 97 (charged once)", b)
	}
	if es := ledger(t, svc, org.ID); len(es) != 1 {
		t.Fatalf("ledger has %d entries, want 1", len(es))
	}
	// A client reusing its request id for other records gets a new charge, not a free replay.
	other, err := svc.Charge(billing.WithRoute(ctx, "POST /v1/test"), org, billing.KindContact, []string{"4", "5"}, "req-1")
	if err != nil || other.NetNew != 2 || other.Credits != 2 {
		t.Fatalf("same id, other records = %+v, %v", other, err)
	}
}

func TestInsufficientCreditsChangesNothing(t *testing.T) {
	store := boltStore(t)
	svc := billing.New(store, billing.WithClock(newClock(day0).now))
	org := newOrg(t, store, account.PlanFree, 5)
	ctx := context.Background()
	recs := records("p", 0, 8)
	_, err := svc.Charge(billing.WithRoute(ctx, "POST /v1/test"), org, billing.KindContact, recs, "req-1")
	refusedUntouched(t, svc, org.ID, err, 5, "8 credits", "8 new contact records", "5 credits left")
	// The refused records were not marked delivered: after a top-up they bill in full,
	// and the retry with the same request id works.
	if _, err := svc.Grant(ctx, org.ID, 10); err != nil {
		t.Fatal(err)
	}
	got, err := svc.Charge(billing.WithRoute(ctx, "POST /v1/test"), org, billing.KindContact, recs, "req-1")
	if err != nil || got.NetNew != 8 || got.Credits != 8 || got.Balance != 7 {
		t.Fatalf("after top-up: %+v, %v", got, err)
	}
	if err := svc.Require(ctx, org.ID, 8); !errors.Is(err, apperr.ErrPaymentRequired) {
		t.Fatalf("Require(8) with 7 left: %v", err)
	}
	if err := svc.Require(ctx, org.ID, 7); err != nil {
		t.Fatalf("Require(7) with 7 left: %v", err)
	}
}

// refusedUntouched checks that err is a 402 whose message holds every part of want and
// that the organisation still has balance credits and no ledger entry.
func refusedUntouched(t *testing.T, svc *billing.Service, orgID string, err error, balanceWas int64, want ...string) {
	t.Helper()
	var ae *apperr.Error
	if !errors.Is(err, apperr.ErrPaymentRequired) || !errors.As(err, &ae) || apperr.Status(err) != 402 {
		t.Fatalf("err = %v, want a 402 apperr.Error", err)
	}
	for _, w := range want {
		if !strings.Contains(ae.Message, w) {
			t.Errorf("message %q lacks %q", ae.Message, w)
		}
	}
	if b := balance(t, svc, orgID); b != balanceWas {
		t.Fatalf("balance = %d after a refused charge, want %d", b, balanceWas)
	}
	if es := ledger(t, svc, orgID); len(es) != 0 {
		t.Fatalf("ledger after a refused charge: %+v", es)
	}
}

func TestBadArguments(t *testing.T) {
	store := boltStore(t)
	svc := billing.New(store)
	org := newOrg(t, store, account.PlanFree, 5)
	ctx := billing.WithRoute(context.Background(), "e")
	for name, call := range map[string]func() error{
		"unknown kind":  func() error { _, err := svc.Charge(ctx, org, billing.Kind("x"), []string{"1"}, "r"); return err },
		"no request id": func() error { _, err := svc.Charge(ctx, org, billing.KindContact, []string{"1"}, ""); return err },
		"blank record":  func() error { _, err := svc.Charge(ctx, org, billing.KindContact, []string{" "}, "r"); return err },
		"no org": func() error {
			_, err := svc.Charge(ctx, account.Org{}, billing.KindContact, []string{"1"}, "r")
			return err
		},
	} {
		if err := call(); !errors.Is(err, apperr.ErrInvalid) {
			t.Errorf("%s: err = %v, want ErrInvalid", name, err)
		}
	}
	if got, err := svc.Charge(ctx, org, billing.KindContact, nil, "r"); err != nil || got.Credits != 0 || got.Balance != 5 {
		t.Errorf("empty charge = %+v, %v", got, err)
	}
}

// TestChargeWithoutRoute: a charge whose context names no route is a wiring bug, an
// internal error that bills nothing, claims nothing and writes no ledger entry with a
// blank endpoint; the same charge under a route then bills every record as new.
func TestChargeWithoutRoute(t *testing.T) {
	store := boltStore(t)
	svc := billing.New(store, billing.WithClock(newClock(day0).now))
	org := newOrg(t, store, account.PlanFree, 100)
	recs := records("c", 0, 10)
	calls := map[string]func(context.Context) (billing.Charge, error){
		"Charge": func(ctx context.Context) (billing.Charge, error) {
			return svc.Charge(ctx, org, billing.KindContact, recs, "req-1")
		},
		"ChargeAll": func(ctx context.Context) (billing.Charge, error) {
			return svc.ChargeAll(ctx, org, []billing.Items{{Kind: billing.KindContact, Records: recs}}, "req-1")
		},
	}
	for name, call := range calls {
		for _, ctx := range []context.Context{context.Background(), billing.WithRoute(context.Background(), "")} {
			if _, err := call(ctx); !errors.Is(err, apperr.ErrInternal) {
				t.Errorf("%s without a route: err = %v, want ErrInternal", name, err)
			}
		}
	}
	if b := balance(t, svc, org.ID); b != 100 {
		t.Fatalf("balance = %d after charges without a route, want 100", b)
	}
	if es := ledger(t, svc, org.ID); len(es) != 0 {
		t.Fatalf("ledger after charges without a route: %+v", es)
	}
	got, err := svc.Charge(billing.WithRoute(context.Background(), "POST /v1/contacts/discover"), org, billing.KindContact, recs, "req-1")
	if err != nil || got.NetNew != 10 || got.Credits != 10 {
		t.Fatalf("charge under a route = %+v, %v; want the 10 records billed as new for 10 credits", got, err)
	}
	if es := ledger(t, svc, org.ID); len(es) != 1 || es[0].Endpoint != "POST /v1/contacts/discover" {
		t.Fatalf("ledger = %+v, want one entry under POST /v1/contacts/discover", es)
	}
}

func TestUsage(t *testing.T) {
	store := boltStore(t)
	clk := newClock(day0)
	svc := billing.New(store, billing.WithClock(clk.now))
	org := newOrg(t, store, account.PlanFree, 1000)
	ctx := context.Background()
	charge := func(day int, endpoint string, kind billing.Kind, recs []string) {
		clk.set(day0.Add(time.Duration(day)*24*time.Hour + time.Hour))
		if _, err := svc.Charge(billing.WithRoute(ctx, endpoint), org, kind, recs, fmt.Sprintf("%d-%s-%v", day, endpoint, recs)); err != nil {
			t.Fatal(err)
		}
	}
	charge(0, "POST /v1/contacts/discover", billing.KindContact, records("c", 0, 10))
	charge(0, "POST /v1/contacts/discover", billing.KindCompany, records("d", 0, 4))
	charge(2, "POST /v1/contacts/discover", billing.KindContact, records("c", 5, 20)) // 10 new
	charge(2, "POST /v1/email/find", billing.KindEmail, []string{"a@x.com"})
	charge(5, "POST /v1/email/find", billing.KindEmail, []string{"b@x.com"}) // outside the range below

	u, err := svc.Usage(ctx, org.ID, day0, day0.AddDate(0, 0, 3))
	if err != nil {
		t.Fatal(err)
	}
	if u.From != "2030-03-01" || u.To != "2030-03-04" || len(u.ByDay) != 4 {
		t.Fatalf("range: %s..%s, %d days", u.From, u.To, len(u.ByDay))
	}
	wantDays := []billing.Totals{
		{Charges: 2, Records: 14, NetNew: 14, Credits: 10 + 2},
		{},
		{Charges: 2, Records: 16, NetNew: 11, Credits: 10 + 2},
		{},
	}
	for i, w := range wantDays {
		if u.ByDay[i].Totals != w {
			t.Errorf("day %s: %+v, want %+v", u.ByDay[i].Date, u.ByDay[i].Totals, w)
		}
	}
	if u.Total != (billing.Totals{Charges: 4, Records: 30, NetNew: 25, Credits: 24}) {
		t.Errorf("total = %+v", u.Total)
	}
	wantEP := []billing.EndpointUsage{
		{Endpoint: "POST /v1/contacts/discover", Kind: billing.KindContact, Totals: billing.Totals{Charges: 2, Records: 25, NetNew: 20, Credits: 20}},
		{Endpoint: "POST /v1/contacts/discover", Kind: billing.KindCompany, Totals: billing.Totals{Charges: 1, Records: 4, NetNew: 4, Credits: 2}},
		{Endpoint: "POST /v1/email/find", Kind: billing.KindEmail, Totals: billing.Totals{Charges: 1, Records: 1, NetNew: 1, Credits: 2}},
	}
	if fmt.Sprint(u.ByEndpoint) != fmt.Sprint(wantEP) {
		t.Errorf("by endpoint:\n got %+v\nwant %+v", u.ByEndpoint, wantEP)
	}
	for _, c := range []struct {
		from, to time.Time
		field    string
	}{
		{day0.AddDate(0, 0, 1), day0, "to"},
		{day0, day0.AddDate(0, 0, billing.MaxUsageDays), "from"},
	} {
		_, err := svc.Usage(ctx, org.ID, c.from, c.to)
		var ae *apperr.Error
		if !errors.As(err, &ae) || ae.Kind != apperr.ErrInvalid || ae.Field != c.field {
			t.Errorf("Usage(%s, %s): err = %v, want 422 on %s", c.from, c.to, err, c.field)
		}
	}
}

// TestREADMERateTable keeps the README's rate table equal to Rates.
func TestREADMERateTable(t *testing.T) {
	raw, err := os.ReadFile(filepath.Join("..", "..", "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	plans := []account.Plan{account.PlanFree, account.PlanStarter, account.PlanPro, account.PlanEnterprise}
	for _, k := range billing.Kinds {
		var row []string
		for _, line := range strings.Split(string(raw), "\n") {
			if strings.HasPrefix(line, "| `"+string(k)+"` |") {
				row = strings.Split(strings.Trim(line, "| "), " | ")
			}
		}
		if len(row) != 6 {
			t.Errorf("README.md has no rate row for %s", k)
			continue
		}
		for i, p := range plans {
			if got, want := row[2+i], strconv.FormatInt(billing.Rate(p, k), 10); got != want {
				t.Errorf("README.md: %s on %s = %s, Rates says %s", k, p, got, want)
			}
		}
	}
}
