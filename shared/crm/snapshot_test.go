package crm_test

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"sync/atomic"
	"testing"
	"time"

	"github.com/firmoapi/firmo/shared/crm"
	"github.com/firmoapi/firmo/shared/crm/hubspotcrm"
	"github.com/firmoapi/firmo/shared/query"
	"github.com/firmoapi/firmo/shared/testkit/crmfake"
)

// expiring wraps a provider: after the given page of companies, the fake expires every
// access token it issued, as a token running out mid-snapshot would.
type expiring struct {
	crm.Provider
	after  int
	expire func()
	pages  atomic.Int64
}

func (e *expiring) Companies(ctx context.Context, c crm.Conn, page func([]string) error) error {
	return e.Provider.Companies(ctx, c, func(w []string) error {
		if e.pages.Add(1) == int64(e.after) {
			e.expire()
		}
		return page(w)
	})
}

// TestHubSpotSnapshotOf100000Companies pages through 100,000 companies of the HubSpot
// fake at its real limit (100 requests per rolling 10 s), on a virtual clock the fake,
// the client and the service share (the client's waits advance it, so the 1,000
// requests take about 110 virtual seconds and no real ones). Halfway the fake expires
// the access token: the service refreshes once and the snapshot goes on. Every
// company's domain is kept exactly once, no request was throttled, and neither token
// ever reaches storage or the log in plain text.
func TestHubSpotSnapshotOf100000Companies(t *testing.T) {
	if testing.Short() {
		t.Skip("100,000 companies")
	}
	ctx := context.Background()
	clock := crmfake.NewVirtualClock(time.Now())
	var wrapped *expiring
	var r *rig
	r = newRig(t, rigOptions{
		fake: crmfake.Options{Companies: crmfake.MaxRecords, Seed: 42},
		now:  clock.Now,
		hub:  hubspotcrm.Options{Now: clock.Now, Sleep: clock.Sleep},
		hooks: map[string]func(crm.Provider) crm.Provider{crm.HubSpot: func(p crm.Provider) crm.Provider {
			wrapped = &expiring{Provider: p, after: 500, expire: func() { r.fakes[crm.HubSpot].ExpireAccessTokens() }}
			return wrapped
		}},
	})
	r.connect(ctx, "acme", crm.HubSpot)
	if _, err := r.svc.Suppress(ctx, "acme", query.Actor{UserID: "u"}, crm.HubSpot, crm.KindCompanies); err != nil {
		t.Fatal(err)
	}
	start := clock.Now()
	snap, err := r.run(ctx)
	if err != nil {
		t.Fatal(err)
	}
	fake := r.fakes[crm.HubSpot]
	st := fake.Stats()
	want := normalized(fake.Websites())
	got, _, err := r.queries.Lists(ctx, "acme", snap.QueryID)
	if err != nil {
		t.Fatal(err)
	}
	seen := map[string]bool{}
	for _, d := range got {
		if seen[d] {
			t.Fatalf("domain %s twice in the list", d)
		}
		seen[d] = true
	}
	for _, d := range want {
		if !seen[d] {
			t.Fatalf("domain %s of the fake missing from the list", d)
		}
	}
	if len(got) != len(want) || snap.Read != len(fake.Websites()) {
		t.Fatalf("list has %d domains (read %d), want %d (read %d)", len(got), snap.Read, len(want), len(fake.Websites()))
	}
	if st.Throttled != 0 || st.MaxInWindow > hubspotcrm.DefaultRateLimit {
		t.Fatalf("fake stats %+v: the snapshot went over the rate limit", st)
	}
	if st.Refreshes != 1 || st.Unauthorized != 1 {
		t.Fatalf("fake stats %+v: want exactly one refused call and one refresh", st)
	}
	t.Logf("100,000 companies: %d requests, %d distinct domains, %s of virtual time, busiest window %d requests; %+v",
		st.APICalls, len(got), clock.Now().Sub(start).Round(time.Second), st.MaxInWindow, st)
	assertNoTokenInPlainText(t, r)
}

// assertNoTokenInPlainText reads the raw bbolt file and the captured log for every
// access and refresh token the fakes issued.
func assertNoTokenInPlainText(t *testing.T, r *rig) {
	t.Helper()
	raw, err := os.ReadFile(r.dbPath)
	if err != nil {
		t.Fatal(err)
	}
	r.mu.Lock()
	tokens := append([]string(nil), r.tokens...)
	r.mu.Unlock()
	if len(tokens) < 2 {
		t.Fatalf("only %d tokens recorded", len(tokens))
	}
	for _, tok := range tokens {
		if bytes.Contains(raw, []byte(tok)) {
			t.Fatalf("token %.6s... is in the bbolt file in plain text", tok)
		}
		if bytes.Contains(r.log.Bytes(), []byte(tok)) {
			t.Fatalf("token %.6s... is in the log", tok)
		}
	}
}

// TestTokensNeverInPlainText: after connecting, probing, refreshing and snapshotting
// on every provider, no token is in the raw storage or the log.
func TestTokensNeverInPlainText(t *testing.T) {
	ctx := context.Background()
	r := newRig(t, rigOptions{fake: crmfake.Options{Companies: 20, Contacts: 20}})
	for _, p := range crm.Names() {
		r.connect(ctx, "acme", p)
		r.fakes[p].ExpireAccessTokens() // the next call refreshes
		if list, err := r.svc.Connections(ctx, "acme", true); err != nil || len(list) == 0 {
			t.Fatalf("probe: %+v %v", list, err)
		}
		r.svc.Suppress(ctx, "acme", query.Actor{}, p, crm.KindCompanies)
		if _, err := r.run(ctx); err != nil {
			t.Fatal(err)
		}
		if st := r.fakes[p].Stats(); st.Refreshes != 1 {
			t.Fatalf("%s: %d refreshes, want 1", p, st.Refreshes)
		}
	}
	assertNoTokenInPlainText(t, r)
}

// TestRefreshBeforeExpiryOnceAtATime: a token within a minute of its expiry is refreshed
// before it is used, by one of eight concurrent probes only (the others wait and use the
// new token), and the rotated refresh token is stored: the next refresh uses it.
func TestRefreshBeforeExpiryOnceAtATime(t *testing.T) {
	ctx := context.Background()
	clock := crmfake.NewVirtualClock(time.Now())
	r := newRig(t, rigOptions{fake: crmfake.Options{Companies: 3, Contacts: 3, TokenLifetime: 30 * time.Minute}, now: clock.Now})
	r.connect(ctx, "acme", crm.Pipedrive)
	fake := r.fakes[crm.Pipedrive]
	probeAll := func() {
		t.Helper()
		done := make(chan error, 8)
		for range 8 {
			go func() {
				list, err := r.svc.Connections(ctx, "acme", true)
				if err == nil && (len(list) != 1 || list[0].Status != crm.StatusActive || list[0].ProbeError != "") {
					err = fmt.Errorf("probe = %+v", list)
				}
				done <- err
			}()
		}
		for range 8 {
			if err := <-done; err != nil {
				t.Fatal(err)
			}
		}
	}
	probeAll()
	if st := fake.Stats(); st.Refreshes != 0 {
		t.Fatalf("%d refreshes of a fresh token", st.Refreshes)
	}
	clock.Advance(29*time.Minute + 30*time.Second)
	probeAll()
	if st := fake.Stats(); st.Refreshes != 1 || st.Unauthorized != 0 || st.InvalidGrants != 0 {
		t.Fatalf("stats %+v: want one refresh before expiry and no refused call", st)
	}
	clock.Advance(29*time.Minute + 30*time.Second)
	probeAll() // refreshes with the rotated refresh token (a reused one is invalid_grant)
	if st := fake.Stats(); st.Refreshes != 2 || st.InvalidGrants != 0 {
		t.Fatalf("stats %+v: want a second refresh with the rotated token", st)
	}
}
