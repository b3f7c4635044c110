package hubspotcrm_test

import (
	"context"
	"testing"
	"time"

	"github.com/firmoapi/firmo/shared/crm/crmtest"
	"github.com/firmoapi/firmo/shared/testkit/crmfake"
)

// BenchmarkSnapshot100k pages 100,000 companies from the HubSpot fake under its
// real limit (100 requests per rolling 10 s) on a virtual clock shared by fake and
// client: ns/op is the client's and the fake's HTTP and JSON work; virtual_s/op is
// how long the same snapshot takes against HubSpot's limit.
func BenchmarkSnapshot100k(b *testing.B) {
	var virtual time.Duration
	rounds := 0
	for b.Loop() {
		b.StopTimer()
		clock := crmfake.NewVirtualClock(time.Now())
		fake, err := crmfake.Start(crmfake.Options{Provider: crmfake.HubSpot, Companies: crmfake.MaxRecords, Seed: 42, Now: clock.Now})
		if err != nil {
			b.Fatal(err)
		}
		client := newClient(fake, crmtest.Clock{Now: clock.Now, Sleep: clock.Sleep})
		conn, _, err := crmtest.Connect(context.Background(), fake, client)
		if err != nil {
			b.Fatal(err)
		}
		start := clock.Now()
		b.StartTimer()
		n := 0
		if err := client.Companies(context.Background(), conn, func(w []string) error { n += len(w); return nil }); err != nil {
			b.Fatal(err)
		}
		b.StopTimer()
		if st := fake.Stats(); n != len(fake.Websites()) || st.Throttled != 0 {
			b.Fatalf("%d websites (want %d), %d throttled", n, len(fake.Websites()), st.Throttled)
		}
		virtual += clock.Now().Sub(start)
		rounds++
		fake.Close()
		b.StartTimer()
	}
	b.ReportMetric(virtual.Seconds()/float64(rounds), "virtual_s/op")
}
