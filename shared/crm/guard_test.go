package crm_test

import (
	"context"
	"errors"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/firmoapi/firmo/shared/crm"
	"github.com/firmoapi/firmo/shared/kv"
	"github.com/firmoapi/firmo/shared/testkit/crmfake"
)

// The connection records who made it, and a new authorization records the one it
// replaced: who had made it, when, and when it was replaced.
func TestConnectionRecordsWhoAndWhatItReplaced(t *testing.T) {
	ctx := context.Background()
	r := newRig(t, rigOptions{fake: crmfake.Options{Companies: 3, Contacts: 3, Seed: 1}})
	first := r.connect(ctx, "org1", crm.HubSpot)
	if first.ConnectedBy != "user-org1" || first.Replaced != nil {
		t.Fatalf("first connection %+v, want connected_by user-org1 and nothing replaced", first)
	}
	second := r.connect(ctx, "org1", crm.HubSpot)
	if second.Replaced == nil || second.Replaced.ConnectedBy != "user-org1" || !second.Replaced.ConnectedAt.Equal(*first.ConnectedAt) || second.Replaced.ReplacedAt.IsZero() {
		t.Fatalf("second connection %+v, want it to record the first (by user-org1 at %v) and when it was replaced", second, first.ConnectedAt)
	}
	list, err := r.svc.Connections(ctx, "org1", false)
	if err != nil || len(list) != 1 || list[0].Replaced == nil || list[0].ConnectedBy != "user-org1" {
		t.Fatalf("connections %+v, %v", list, err)
	}
}

// The review's finding: 210 authorize calls left 275 stored items; unused state
// tokens were never deleted. An authorization now sweeps the organisation's expired
// tokens and keeps at most crm.MaxOpenStates unused ones.
func TestUnusedStateTokensAreSwept(t *testing.T) {
	ctx := context.Background()
	now := time.Now()
	r := newRig(t, rigOptions{fake: crmfake.Options{Companies: 3, Contacts: 3, Seed: 1}, now: func() time.Time { return now }})
	count := func() int {
		t.Helper()
		n := 0
		for _, pk := range []string{"crmstates#org1"} {
			page, err := r.store.Query(ctx, pk, kv.QueryOptions{Limit: 1000})
			if err != nil {
				t.Fatal(err)
			}
			n += len(page.Items)
		}
		return n
	}
	var first string
	for i := range 210 {
		// Time moves between authorizations, so "oldest" means something: with one
		// instant for all, tokens tie on expiry and their order is their random hashes'.
		now = now.Add(time.Millisecond)
		u, err := r.svc.Authorize(ctx, "org1", "admin", crm.HubSpot)
		if err != nil {
			t.Fatal(err)
		}
		if i == 0 {
			first = u
		}
	}
	if n := count(); n > crm.MaxOpenStates {
		t.Errorf("%d unused state tokens kept after 210 authorizations, want at most %d", n, crm.MaxOpenStates)
	}
	// The oldest was swept: its callback finds no token.
	q := consent(t, first)
	if _, err := r.svc.Complete(ctx, crm.Callback{Provider: crm.HubSpot, State: q.Get("state"), Code: q.Get("code")}); !errors.Is(err, crm.ErrState) {
		t.Errorf("callback of a swept state: %v, want a state refusal", err)
	}
	// Past their expiry, the next authorization sweeps them all but its own.
	now = now.Add(crm.StateTTL + time.Minute)
	if _, err := r.svc.Authorize(ctx, "org1", "admin", crm.HubSpot); err != nil {
		t.Fatal(err)
	}
	if n := count(); n != 1 {
		t.Errorf("%d state tokens after the expired ones were swept, want 1", n)
	}
}

// roundTripFunc is an http.RoundTripper.
type roundTripFunc func(*http.Request) (*http.Response, error)

func (f roundTripFunc) RoundTrip(r *http.Request) (*http.Response, error) { return f(r) }

// The review's finding: Salesforce's instance_url and Pipedrive's api_domain from a
// token response were used over plain http on loopback. CRM requests go only over https
// to hosts under a provider's domain; allow-listed hosts (the test fakes) only
// otherwise. The rules apply to whatever client the service is given.
func TestCRMRequestsGoOnlyToTheProviders(t *testing.T) {
	var sent []string
	base := roundTripFunc(func(r *http.Request) (*http.Response, error) {
		sent = append(sent, r.URL.String())
		return &http.Response{StatusCode: 200, Body: http.NoBody, Header: http.Header{}, Request: r}, nil
	})
	svc := crm.New(crm.Deps{HTTP: &http.Client{Transport: base}, AllowHosts: []string{"127.0.0.1:8081"}})
	client := svc.HTTPClient()
	for _, tc := range []struct {
		url string
		ok  bool
	}{
		{"https://acme.my.salesforce.com/services/data/v60.0/query", true},
		{"https://api.hubapi.com/crm/v3/objects/companies", true},
		{"https://acme.pipedrive.com/api/v2/organizations", true},
		{"https://login.salesforce.com/services/oauth2/token", true},
		{"http://acme.my.salesforce.com/services/data", false}, // plain http
		{"http://127.0.0.1:9/services/data", false},            // a token's instance_url on loopback
		{"https://127.0.0.1/services/data", false},
		{"https://evil.example/api", false},
		{"https://salesforce.com.evil.example/", false},
		{"https://acme.pipedrive.com:8443/api", false},
		{"http://127.0.0.1:8081/token", true}, // allow-listed fake
	} {
		sent = nil
		resp, err := client.Get(tc.url)
		if resp != nil {
			resp.Body.Close()
		}
		if got := err == nil && len(sent) == 1; got != tc.ok {
			t.Errorf("%s: sent %v, err %v; want sent %v", tc.url, sent, err, tc.ok)
		}
		if !tc.ok && err != nil && !strings.Contains(err.Error(), "refused") {
			t.Errorf("%s: error %v does not say it was refused", tc.url, err)
		}
	}
}
