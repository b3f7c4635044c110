package cli

import (
	"fmt"
	"io"
	"net"
	"strings"

	"github.com/firmoapi/firmo/shared/config"
	"github.com/firmoapi/firmo/shared/testkit/crmfake"
)

// crmDemo starts the fake CRM providers on loopback for an offline demo
// (FIRMO_CRM_FAKES=true, `firmo serve` only) and points every provider of cfg at them:
// their authorize and token URLs, HubSpot's API host, and the fakes' client
// credentials. Salesforce and Pipedrive name their API host in the token response,
// which the fakes set to themselves. Without FIRMO_CRM_REDIRECT_BASE_URL the callback
// is reached on the listen address. The returned func stops the fakes.
func crmDemo(cfg *config.Config, out io.Writer) (func(), error) {
	fakes, err := crmfake.StartAll(crmfake.Options{Companies: 500, Contacts: 500, Seed: 1})
	if err != nil {
		return nil, fmt.Errorf("start the fake CRM providers: %w", err)
	}
	point := func(p *config.CRMProvider, f *crmfake.Server, api bool) {
		p.ClientID, p.ClientSecret, p.AuthURL, p.TokenURL = f.ClientID(), f.ClientSecret(), f.AuthURL(), f.TokenURL()
		if api {
			p.APIURL = f.URL()
		}
		// CRM requests go only to the providers' hosts, or to allow-listed ones.
		cfg.FetchAllowHosts = append(cfg.FetchAllowHosts, strings.TrimPrefix(f.URL(), "http://"))
	}
	point(&cfg.CRM.HubSpot, fakes[crmfake.HubSpot], true)
	point(&cfg.CRM.Salesforce, fakes[crmfake.Salesforce], false)
	point(&cfg.CRM.Pipedrive, fakes[crmfake.Pipedrive], false)
	if cfg.CRM.RedirectBaseURL == "" {
		host, port, err := net.SplitHostPort(cfg.Addr)
		if err != nil {
			host, port = "", "8080"
		}
		if host == "" || host == "0.0.0.0" || host == "::" {
			host = "localhost"
		}
		cfg.CRM.RedirectBaseURL = "http://" + net.JoinHostPort(host, port)
	}
	fmt.Fprintf(out, "CRM demo: fake HubSpot, Salesforce and Pipedrive on %s, %s, %s (500 companies and contacts each)\n",
		fakes[crmfake.HubSpot].URL(), fakes[crmfake.Salesforce].URL(), fakes[crmfake.Pipedrive].URL())
	return func() {
		for _, f := range fakes {
			f.Close()
		}
	}, nil
}
