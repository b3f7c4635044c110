package billing_test

import (
	"context"
	"fmt"
	"testing"

	"github.com/firmoapi/firmo/shared/account"
	"github.com/firmoapi/firmo/shared/billing"
)

// BenchmarkCharge measures one charge of 1,000 contact records on bbolt (fsync per
// write): all net-new, and all already billed within the window.
func BenchmarkCharge(b *testing.B) {
	for _, fresh := range []bool{true, false} {
		name := map[bool]string{true: "1000_new", false: "1000_seen"}[fresh]
		b.Run(name, func(b *testing.B) {
			store := boltStoreB(b)
			svc := billing.New(store)
			org := newOrgB(b, store, account.PlanEnterprise, 1<<50)
			ctx := context.Background()
			seen := records("seen-", 0, 1000)
			if _, err := svc.Charge(billing.WithRoute(ctx, "POST /v1/contacts/discover"), org, billing.KindContact, seen, "warm"); err != nil {
				b.Fatal(err)
			}
			b.ResetTimer()
			for i := 0; b.Loop(); i++ {
				recs := seen
				if fresh {
					recs = records(fmt.Sprintf("new-%d-", i), 0, 1000)
				}
				if _, err := svc.Charge(billing.WithRoute(ctx, "POST /v1/contacts/discover"), org, billing.KindContact, recs, fmt.Sprint("req-", i)); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(b.Elapsed().Microseconds())/float64(b.N)/1000, "µs/record")
		})
	}
}

// BenchmarkChargeAll measures one contact-search response billed as one charge (1,000
// new contacts at 100 new companies) against the same records billed as two charges,
// the way contact search billed before ChargeAll, on bbolt (fsync per write).
func BenchmarkChargeAll(b *testing.B) {
	for _, one := range []bool{true, false} {
		name := map[bool]string{true: "one_charge", false: "two_charges"}[one]
		b.Run(name, func(b *testing.B) {
			store := boltStoreB(b)
			svc := billing.New(store)
			org := newOrgB(b, store, account.PlanEnterprise, 1<<50)
			ctx := context.Background()
			for i := 0; b.Loop(); i++ {
				items := []billing.Items{
					{Kind: billing.KindContact, Records: records(fmt.Sprintf("p%d-", i), 0, 1000)},
					{Kind: billing.KindCompany, Records: records(fmt.Sprintf("d%d-", i), 0, 100)},
				}
				req := fmt.Sprint("req-", i)
				if one {
					if _, err := svc.ChargeAll(billing.WithRoute(ctx, "POST /v1/contacts/discover"), org, items, req); err != nil {
						b.Fatal(err)
					}
					continue
				}
				for _, it := range items {
					if _, err := svc.Charge(billing.WithRoute(ctx, "POST /v1/contacts/discover"), org, it.Kind, it.Records, req); err != nil {
						b.Fatal(err)
					}
				}
			}
		})
	}
}
