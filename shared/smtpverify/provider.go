package smtpverify

import "strings"

// providers maps MX host name suffixes to the mail provider they belong to. The
// names are stable lowercase identifiers returned as `provider`.
var providers = []struct{ suffix, name string }{
	{"google.com", "google"},
	{"googlemail.com", "google"},
	{"mail.protection.outlook.com", "microsoft"},
	{"outlook.com", "microsoft"},
	{"hotmail.com", "microsoft"},
	{"mail.protection.office365.us", "microsoft"},
	{"mail.protection.partner.outlook.cn", "microsoft"},
	{"zoho.com", "zoho"},
	{"zoho.eu", "zoho"},
	{"zoho.in", "zoho"},
	{"zoho.com.au", "zoho"},
	{"zohomail.com", "zoho"},
	{"protonmail.ch", "proton"},
	{"proton.me", "proton"},
	{"yahoodns.net", "yahoo"},
	{"yahoo.com", "yahoo"},
	{"messagingengine.com", "fastmail"},
	{"fastmail.com", "fastmail"},
	{"icloud.com", "icloud"},
	{"me.com", "icloud"},
	{"yandex.net", "yandex"},
	{"yandex.ru", "yandex"},
	{"mail.ru", "mailru"},
	{"mimecast.com", "mimecast"},
	{"mimecast.co.za", "mimecast"},
	{"mimecast-offshore.com", "mimecast"},
	{"pphosted.com", "proofpoint"},
	{"ppe-hosted.com", "proofpoint"},
	{"ppops.net", "proofpoint"},
	{"barracudanetworks.com", "barracuda"},
	{"iphmx.com", "cisco"},
	{"messagelabs.com", "symantec"},
	{"trendmicro.com", "trendmicro"},
	{"trendmicro.eu", "trendmicro"},
	{"sophos.com", "sophos"},
	{"mailcontrol.com", "forcepoint"},
	{"hornetsecurity.com", "hornetsecurity"},
	{"ovh.net", "ovh"},
	{"ionos.com", "ionos"},
	{"ionos.de", "ionos"},
	{"ionos.co.uk", "ionos"},
	{"ionos.es", "ionos"},
	{"ionos.fr", "ionos"},
	{"1and1.com", "ionos"},
	{"kundenserver.de", "ionos"},
	{"perfora.net", "ionos"},
	{"secureserver.net", "godaddy"},
	{"emailsrvr.com", "rackspace"},
	{"privateemail.com", "namecheap"},
	{"titan.email", "titan"},
	{"amazonaws.com", "amazon"},
	{"awsapps.com", "amazon"},
	{"gmx.net", "gmx"},
	{"web.de", "webde"},
	{"tutanota.de", "tutanota"},
	{"migadu.com", "migadu"},
	{"mailgun.org", "mailgun"},
	{"sendgrid.net", "sendgrid"},
}

// DetectProvider names the mail provider of a domain from its MX hosts, most
// preferred first, or "" when no host belongs to a known provider. Implicit MX
// (the domain's own address) names no provider.
func DetectProvider(mxs []MX) string {
	for _, mx := range mxs {
		if mx.Implicit {
			continue
		}
		if p := ProviderOf(mx.Host); p != "" {
			return p
		}
	}
	return ""
}

// ProviderOf names the provider of one MX host name, or "".
func ProviderOf(host string) string {
	host = strings.TrimSuffix(strings.ToLower(host), ".")
	for _, p := range providers {
		if host == p.suffix || strings.HasSuffix(host, "."+p.suffix) {
			return p.name
		}
	}
	return ""
}
