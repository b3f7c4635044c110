package salesforcecrm_test

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/firmoapi/firmo/shared/apperr"
	"github.com/firmoapi/firmo/shared/crm"
	"github.com/firmoapi/firmo/shared/crm/crmtest"
	"github.com/firmoapi/firmo/shared/crm/salesforcecrm"
	"github.com/firmoapi/firmo/shared/testkit/crmfake"
)

func newClient(f *crmfake.Server, c crmtest.Clock, batch int) *salesforcecrm.Client {
	return salesforcecrm.New(salesforcecrm.Options{
		AuthURL: f.AuthURL(), TokenURL: f.TokenURL(), BatchSize: batch, Now: c.Now, Sleep: c.Sleep,
	})
}

func harness(batch int) crmtest.Harness {
	return crmtest.Harness{
		Provider: crmfake.Salesforce,
		New:      func(f *crmfake.Server, c crmtest.Clock) crm.Provider { return newClient(f, c, batch) },
	}
}

func TestContract(t *testing.T) { crmtest.Run(t, harness(0)) }

func TestDefaultsAreTheRealHosts(t *testing.T) {
	ep := salesforcecrm.New(salesforcecrm.Options{}).Endpoint()
	if ep.AuthURL != "https://login.salesforce.com/services/oauth2/authorize" ||
		ep.TokenURL != "https://login.salesforce.com/services/oauth2/token" {
		t.Errorf("Endpoint() = %+v, want login.salesforce.com", ep)
	}
}

// TestLargeSnapshot pages through 20,000 accounts and contacts on the token's
// instance_url, at the default batch of 2000 and at a requested batch of 500.
func TestLargeSnapshot(t *testing.T) {
	const n = 20_000
	for _, tc := range []struct{ batch, pages int }{{0, n / 2000}, {500, n / 500}} {
		fake, _ := crmtest.Snapshot(t, harness(tc.batch), crmfake.Options{Companies: n, Contacts: n, Seed: 7})
		if got := fake.Stats().APICalls; got != 2*tc.pages {
			t.Errorf("batch %d: %d calls, want %d", tc.batch, got, 2*tc.pages)
		}
	}
}

// TestNextRecordsURLStaysOnTheInstance: a nextRecordsUrl naming another host is
// refused, and that host never sees the token.
func TestNextRecordsURLStaysOnTheInstance(t *testing.T) {
	var elsewhere atomic.Int32
	other := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { elsewhere.Add(1) }))
	defer other.Close()
	instance := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		w.Write([]byte(`{"totalSize":4,"done":false,"nextRecordsUrl":"` + other.URL + `/services/data/v62.0/query/01g-2","records":[{"Website":"a.com"},{"Website":"b.com"}]}`))
	}))
	defer instance.Close()
	client := salesforcecrm.New(salesforcecrm.Options{})
	conn := crm.Conn{HTTP: instance.Client(), InstanceURL: instance.URL}
	var got []string
	err := client.Companies(context.Background(), conn, func(w []string) error { got = append(got, w...); return nil })
	if err == nil || elsewhere.Load() != 0 {
		t.Fatalf("Companies = %v with %d calls to the other host, want an error and none", err, elsewhere.Load())
	}
	if !slices.Equal(got, []string{"a.com", "b.com"}) {
		t.Errorf("first page %v, want a.com and b.com reported before the error", got)
	}
}

func TestNoInstanceURL(t *testing.T) {
	err := salesforcecrm.New(salesforcecrm.Options{}).Probe(context.Background(), crm.Conn{HTTP: http.DefaultClient})
	if err == nil || errors.Is(err, crm.ErrTokenRejected) {
		t.Fatalf("Probe without instance_url = %v, want an error that is not a token rejection", err)
	}
}

func TestDailyLimitIsARateLimit(t *testing.T) {
	instance := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.WriteHeader(http.StatusForbidden)
		w.Write([]byte(`[{"message":"TotalRequests Limit exceeded.","errorCode":"REQUEST_LIMIT_EXCEEDED"}]`))
	}))
	defer instance.Close()
	err := salesforcecrm.New(salesforcecrm.Options{}).Probe(context.Background(), crm.Conn{HTTP: instance.Client(), InstanceURL: instance.URL})
	if !errors.Is(err, apperr.ErrRateLimited) || !strings.Contains(err.Error(), "TotalRequests Limit exceeded") {
		t.Fatalf("Probe over the daily limit = %v, want apperr.ErrRateLimited with Salesforce's message", err)
	}
}
