package company

import (
	"context"
	"net"
	"sort"
	"strings"

	"golang.org/x/net/publicsuffix"
)

// MX is one MX record.
type MX struct {
	Host       string // the exchange, without the trailing dot; "" for a null MX (".")
	Preference uint16
}

// MXResolver looks up the MX records of a domain. An answer without records (NODATA or
// NXDOMAIN) is an empty list and no error; an error means the question could not be
// answered (timeout, SERVFAIL, refused), so the provider stays unresolved.
type MXResolver interface {
	LookupMX(ctx context.Context, domain string) ([]MX, error)
}

// MXProvider names the mail provider of a domain from its MX records: the registrable
// domain of the most preferred exchange (ties broken alphabetically), so Google
// Workspace is "google.com", Microsoft 365 "outlook.com" and a self-hosted server the
// company's own domain. A null MX (RFC 7505) or no MX at all is NoMX: the domain
// receives no mail (the implicit MX of an address record is not counted, because
// business mail is never hosted that way in practice).
func MXProvider(records []MX) (string, bool) {
	if len(records) == 0 {
		return NoMX, true
	}
	rs := append([]MX(nil), records...)
	sort.Slice(rs, func(i, j int) bool {
		if rs[i].Preference != rs[j].Preference {
			return rs[i].Preference < rs[j].Preference
		}
		return rs[i].Host < rs[j].Host
	})
	for _, r := range rs {
		host := strings.TrimSuffix(strings.ToLower(strings.TrimSpace(r.Host)), ".")
		if host == "" {
			if len(rs) == 1 {
				return NoMX, true
			}
			continue
		}
		// The exchange is an ASCII name from DNS; it need not be valid IDNA (Microsoft
		// writes "xn--...-de.mail.protection.outlook.com" for IDN domains), so only its
		// public suffix matters here.
		reg, err := publicsuffix.EffectiveTLDPlusOne(host)
		if err != nil || net.ParseIP(host) != nil {
			continue
		}
		if alias, ok := mxAliases[reg]; ok {
			reg = alias
		}
		return reg, true
	}
	return "", false
}

// mxAliases maps the MX domains of a provider to the domain the provider is known by.
var mxAliases = map[string]string{
	"googlemail.com": "google.com",
	"smtp.goog":      "google.com",
}
