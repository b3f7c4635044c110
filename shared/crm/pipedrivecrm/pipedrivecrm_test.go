package pipedrivecrm_test

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"slices"
	"testing"

	"github.com/firmoapi/firmo/shared/crm"
	"github.com/firmoapi/firmo/shared/crm/crmtest"
	"github.com/firmoapi/firmo/shared/crm/pipedrivecrm"
	"github.com/firmoapi/firmo/shared/testkit/crmfake"
	"golang.org/x/oauth2"
)

func newClient(f *crmfake.Server, c crmtest.Clock) *pipedrivecrm.Client {
	return pipedrivecrm.New(pipedrivecrm.Options{AuthURL: f.AuthURL(), TokenURL: f.TokenURL(), Now: c.Now, Sleep: c.Sleep})
}

func harness() crmtest.Harness {
	return crmtest.Harness{
		Provider: crmfake.Pipedrive,
		New:      func(f *crmfake.Server, c crmtest.Clock) crm.Provider { return newClient(f, c) },
	}
}

func TestContract(t *testing.T) { crmtest.Run(t, harness()) }

func TestDefaultsAreTheRealHosts(t *testing.T) {
	ep := pipedrivecrm.New(pipedrivecrm.Options{}).Endpoint()
	if ep.AuthURL != "https://oauth.pipedrive.com/oauth/authorize" || ep.TokenURL != "https://oauth.pipedrive.com/oauth/token" {
		t.Errorf("Endpoint() = %+v, want oauth.pipedrive.com", ep)
	}
	if ep.AuthStyle != oauth2.AuthStyleInHeader {
		t.Errorf("AuthStyle = %v, want HTTP Basic (Pipedrive's token endpoint takes no credentials in the body)", ep.AuthStyle)
	}
}

// TestLargeSnapshot pages through 20,000 organizations and persons on the
// token's api_domain, 500 a page. The fake gives some persons a second address,
// so the comparison also checks that every address of a person is reported.
func TestLargeSnapshot(t *testing.T) {
	const n = 20_000
	fake, _ := crmtest.Snapshot(t, harness(), crmfake.Options{Companies: n, Contacts: n, Seed: 9})
	if got, want := fake.Stats().APICalls, 2*n/500; got != want {
		t.Errorf("%d calls, want %d (500 a page)", got, want)
	}
}

func TestNoAPIDomain(t *testing.T) {
	err := pipedrivecrm.New(pipedrivecrm.Options{}).Probe(context.Background(), crm.Conn{HTTP: http.DefaultClient})
	if err == nil || errors.Is(err, crm.ErrTokenRejected) {
		t.Fatalf("Probe without api_domain = %v, want an error that is not a token rejection", err)
	}
}

func TestWebsiteFromACustomField(t *testing.T) {
	const key = "9dc80c50d78a15643bfc4ca79d76156a73a1ca0e"
	api := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Write([]byte(`{"success":true,"data":[` +
			`{"id":1,"website":"top.com","custom_fields":{"` + key + `":"ignored.com"}},` +
			`{"id":2,"website":null,"custom_fields":{"` + key + `":"plain.com"}},` +
			`{"id":3,"custom_fields":{"` + key + `":{"value":"wrapped.com"}}},` +
			`{"id":4,"custom_fields":{}}` +
			`],"additional_data":{"next_cursor":null}}`))
	}))
	defer api.Close()
	client := pipedrivecrm.New(pipedrivecrm.Options{WebsiteField: key})
	var got []string
	err := client.Companies(context.Background(), crm.Conn{HTTP: api.Client(), APIDomain: api.URL}, func(w []string) error {
		got = append(got, w...)
		return nil
	})
	if err != nil || !slices.Equal(got, []string{"top.com", "plain.com", "wrapped.com"}) {
		t.Fatalf("Companies = %v, %v; want the website field first, then the custom field", got, err)
	}
}
