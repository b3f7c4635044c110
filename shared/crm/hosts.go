package crm

import (
	"fmt"
	"net"
	"net/http"
	"strings"

	"github.com/firmoapi/firmo/shared/apperr"
	"github.com/firmoapi/firmo/shared/fetch"
)

// providerDomains are the registrable domains the providers' OAuth and API hosts are
// under: HubSpot's app.hubspot.com and api.hubapi.com, Salesforce's login.salesforce.com
// and the instance_url of a token (acme.my.salesforce.com, acme.lightning.force.com),
// Pipedrive's oauth.pipedrive.com and the api_domain of a token (acme.pipedrive.com).
var providerDomains = []string{"hubspot.com", "hubapi.com", "salesforce.com", "force.com", "pipedrive.com"}

// hostRules carries CRM requests only to the providers: https on the default port to a
// host under a provider's domain. A token response names the host of later API calls
// (Salesforce's instance_url, Pipedrive's api_domain), so these rules, not the token,
// decide where a connection's requests may go. Hosts on the allow list
// (FIRMO_FETCH_ALLOW_HOSTS: the test fakes) are admitted over http too.
type hostRules struct {
	allow fetch.AllowList
	base  http.RoundTripper
}

func (h hostRules) RoundTrip(req *http.Request) (*http.Response, error) {
	if err := h.check(req); err != nil {
		if req.Body != nil {
			req.Body.Close()
		}
		return nil, err
	}
	return h.base.RoundTrip(req)
}

func (h hostRules) check(req *http.Request) error {
	host, port := req.URL.Hostname(), req.URL.Port()
	if port == "" {
		port = map[string]string{"http": "80", "https": "443"}[req.URL.Scheme]
	}
	if h.allow.Allows(host, port) {
		return nil
	}
	if req.URL.Scheme != "https" || port != "443" {
		return refusedHost(req, "only https on port 443 is used with a CRM")
	}
	if ip := net.ParseIP(strings.Trim(host, "[]")); ip != nil {
		return refusedHost(req, "a CRM is reached by its host name, not an address")
	}
	name := strings.ToLower(strings.TrimSuffix(host, "."))
	for _, d := range providerDomains {
		if name == d || strings.HasSuffix(name, "."+d) {
			return nil
		}
	}
	return refusedHost(req, "the host is not under a CRM provider's domain ("+strings.Join(providerDomains, ", ")+")")
}

func refusedHost(req *http.Request, why string) error {
	return fmt.Errorf("CRM request to %s://%s refused: %s: %w", req.URL.Scheme, req.URL.Host, why, apperr.ErrBadRequest)
}
