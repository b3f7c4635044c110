package hubspotcrm_test

import (
	"context"
	"net/http"
	"slices"
	"testing"
	"time"

	"github.com/firmoapi/firmo/shared/crm"
	"github.com/firmoapi/firmo/shared/crm/crmtest"
	"github.com/firmoapi/firmo/shared/crm/hubspotcrm"
	"github.com/firmoapi/firmo/shared/testkit/crmfake"
)

func newClient(f *crmfake.Server, c crmtest.Clock) *hubspotcrm.Client {
	return hubspotcrm.New(hubspotcrm.Options{
		AuthURL: f.AuthURL(), TokenURL: f.TokenURL(), APIBase: f.URL(), Now: c.Now, Sleep: c.Sleep,
	})
}

func harness() crmtest.Harness {
	return crmtest.Harness{
		Provider: crmfake.HubSpot,
		New:      func(f *crmfake.Server, c crmtest.Clock) crm.Provider { return newClient(f, c) },
	}
}

func TestContract(t *testing.T) { crmtest.Run(t, harness()) }

func TestDefaultsAreTheRealHosts(t *testing.T) {
	c := hubspotcrm.New(hubspotcrm.Options{})
	ep := c.Endpoint()
	if ep.AuthURL != "https://app.hubspot.com/oauth/authorize" || ep.TokenURL != "https://api.hubapi.com/oauth/v1/token" {
		t.Errorf("Endpoint() = %+v, want HubSpot's hosts", ep)
	}
	for _, s := range []string{"crm.objects.companies.read", "crm.objects.contacts.read"} {
		if !slices.Contains(c.Scopes(), s) {
			t.Errorf("Scopes() = %v, want %s among them", c.Scopes(), s)
		}
	}
}

// TestConnBaseURLOverridesAPIBase: the service points a connection at a fake
// through crm.Conn.BaseURL even when the client was built for the real host.
func TestConnBaseURLOverridesAPIBase(t *testing.T) {
	clock := crmfake.NewVirtualClock(time.Now())
	fake, err := crmfake.Start(crmfake.Options{Provider: crmfake.HubSpot, Companies: 5, Now: clock.Now})
	if err != nil {
		t.Fatal(err)
	}
	defer fake.Close()
	client := hubspotcrm.New(hubspotcrm.Options{
		AuthURL: fake.AuthURL(), TokenURL: fake.TokenURL(), APIBase: "http://127.0.0.1:1", Now: clock.Now, Sleep: clock.Sleep,
	})
	conn, _, err := crmtest.Connect(context.Background(), fake, client)
	if err != nil {
		t.Fatal(err)
	}
	conn.BaseURL = fake.URL()
	if err := client.Probe(context.Background(), conn); err != nil {
		t.Fatalf("Probe through Conn.BaseURL: %v", err)
	}
}

// TestLargeSnapshotWithinRateLimit pages through 100,000 companies (20,000 with
// -short) against the fake's real limit, 100 requests per rolling 10 s, on a
// virtual clock: no request may be refused and none may be lost or repeated.
func TestLargeSnapshotWithinRateLimit(t *testing.T) {
	n := crmfake.MaxRecords
	if testing.Short() {
		n = 20_000
	}
	wall := time.Now()
	fake, took := crmtest.Snapshot(t, harness(), crmfake.Options{Companies: n, Seed: 42})
	st := fake.Stats()
	pages := (n + 99) / 100
	if st.Throttled != 0 || st.MaxInWindow > 100 || st.APICalls != pages+1 {
		t.Errorf("stats %+v: want 0 throttled, at most 100 calls in a window, %d calls (and one for no contacts)", st, pages+1)
	}
	// 100 calls per 10 s at most: the pages need at least this much (virtual) time.
	if minimum := time.Duration(pages/100-1) * 10 * time.Second; took < minimum {
		t.Errorf("snapshot took %s of virtual time, below the %s the limit allows", took, minimum)
	}
	t.Logf("%d companies, %d pages: %s virtual, %s wall", n, pages, took, time.Since(wall).Round(time.Millisecond))
}

// TestPacingIsPerConnection: two connections (two HTTP clients) have separate
// budgets, as HubSpot counts per account.
func TestPacingIsPerConnection(t *testing.T) {
	clock := crmfake.NewVirtualClock(time.Now())
	var waited time.Duration
	sleep := func(ctx context.Context, d time.Duration) error { waited += d; return clock.Sleep(ctx, d) }
	fakes := make([]*crmfake.Server, 2)
	for i := range fakes {
		f, err := crmfake.Start(crmfake.Options{Provider: crmfake.HubSpot, Companies: 1000, Now: clock.Now})
		if err != nil {
			t.Fatal(err)
		}
		defer f.Close()
		fakes[i] = f
	}
	client := hubspotcrm.New(hubspotcrm.Options{AuthURL: fakes[0].AuthURL(), TokenURL: fakes[0].TokenURL(), Now: clock.Now, Sleep: sleep})
	conn, _, err := crmtest.Connect(context.Background(), fakes[0], client)
	if err != nil {
		t.Fatal(err)
	}
	conn.BaseURL = fakes[0].URL()
	// The second connection is a different HTTP client on the same fake app.
	other := conn
	other.HTTP = &http.Client{Transport: conn.HTTP.Transport}
	drain := func(c crm.Conn) {
		if err := client.Companies(context.Background(), c, func([]string) error { return nil }); err != nil {
			t.Fatal(err)
		}
	}
	drain(conn) // 10 pages: within the burst of 10, no wait
	drain(other)
	if waited != 0 {
		t.Errorf("two connections of 10 calls each waited %s; each should have its own burst", waited)
	}
	drain(conn) // 10 more on the first: now paced
	if waited == 0 {
		t.Error("a connection past its burst did not wait")
	}
}
