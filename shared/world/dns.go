package world

import (
	"fmt"
	"math/rand/v2"
	"strings"

	"golang.org/x/net/idna"

	"github.com/firmoapi/firmo/shared/company"
	"github.com/firmoapi/firmo/shared/dnsmx"
)

// mxKind is how a company receives mail.
type mxKind int

const (
	mxGoogle mxKind = iota
	mxMicrosoft
	mxProofpoint
	mxMimecast
	mxZoho
	mxOVH
	mxIONOS
	mxStrato
	mxGoDaddy
	mxSelfHosted
	mxNullMX    // "MX 0 ." (RFC 7505): no mail
	mxNoRecords // the domain has no MX record
	mxServFail  // the zone is broken: the lookup fails
	mxNXDomain  // the domain no longer exists
)

func idnaASCII(s string) (string, error) { return idna.Lookup.ToASCII(s) }

func mailFor(r *rand.Rand, c country, s skeleton) mxKind {
	if s.shape == ShapeClosed && r.IntN(2) == 0 {
		return mxNXDomain // an abandoned domain expires
	}
	weights := make([]int, len(c.Mail))
	for i, m := range c.Mail {
		weights[i] = m.weight
	}
	return c.Mail[pickWeighted(r, weights)].kind
}

// mxRecords returns the zone answer for a company's mail setup and the provider the
// pipeline should find ("" when the lookup must fail).
func mxRecords(r *rand.Rand, s skeleton) (dnsmx.Answer, string) {
	eu := s.country.Code != "US" && s.country.Code != "CA" && s.country.Code != "MX" && s.country.Code != "BR"
	mx := func(host string, pref uint16) company.MX { return company.MX{Host: host, Preference: pref} }
	switch s.mail {
	case mxGoogle:
		return dnsmx.Answer{MX: []company.MX{mx("aspmx.l.google.com", 1), mx("alt1.aspmx.l.google.com", 5), mx("alt2.aspmx.l.google.com", 5), mx("alt3.aspmx.l.google.com", 10), mx("alt4.aspmx.l.google.com", 10)}}, "google.com"
	case mxMicrosoft:
		return dnsmx.Answer{MX: []company.MX{mx(strings.ReplaceAll(s.domain, ".", "-")+".mail.protection.outlook.com", 0)}}, "outlook.com"
	case mxProofpoint:
		id := fmt.Sprintf("%08d", r.IntN(1e8))
		return dnsmx.Answer{MX: []company.MX{mx("mx0a-"+id+".pphosted.com", 10), mx("mx0b-"+id+".pphosted.com", 10)}}, "pphosted.com"
	case mxMimecast:
		region := "us"
		if eu {
			region = "eu"
		}
		return dnsmx.Answer{MX: []company.MX{mx(region+"-smtp-inbound-1.mimecast.com", 10), mx(region+"-smtp-inbound-2.mimecast.com", 10)}}, "mimecast.com"
	case mxZoho:
		tld := "com"
		if eu {
			tld = "eu"
		}
		return dnsmx.Answer{MX: []company.MX{mx("mx.zoho."+tld, 10), mx("mx2.zoho."+tld, 20), mx("mx3.zoho."+tld, 50)}}, "zoho." + tld
	case mxOVH:
		return dnsmx.Answer{MX: []company.MX{mx("mx1.mail.ovh.net", 1), mx("mx2.mail.ovh.net", 5), mx("mx3.mail.ovh.net", 100)}}, "ovh.net"
	case mxIONOS:
		return dnsmx.Answer{MX: []company.MX{mx("mx00.ionos.de", 10), mx("mx01.ionos.de", 10)}}, "ionos.de"
	case mxStrato:
		return dnsmx.Answer{MX: []company.MX{mx("smtpin.rzone.de", 5)}}, "rzone.de"
	case mxGoDaddy:
		return dnsmx.Answer{MX: []company.MX{mx("smtp.secureserver.net", 0), mx("mailstore1.secureserver.net", 10)}}, "secureserver.net"
	case mxSelfHosted:
		return dnsmx.Answer{MX: []company.MX{mx("mail."+s.domain, 10), mx("mail2."+s.domain, 20)}}, s.domain
	case mxNullMX:
		return dnsmx.Answer{MX: []company.MX{mx("", 0)}}, company.NoMX
	case mxNoRecords:
		return dnsmx.Answer{}, company.NoMX
	case mxServFail:
		return dnsmx.Answer{ServFail: true}, ""
	default: // mxNXDomain
		return dnsmx.Answer{NXDomain: true}, company.NoMX
	}
}

// Zone returns the world's DNS zone: the MX answer of every domain, for an in-process
// DNS server (dnsmx.Serve) the pipeline asks through a real DNS conversation.
func (w *World) Zone() map[string]dnsmx.Answer {
	z := make(map[string]dnsmx.Answer, len(w.skel))
	for i, s := range w.skel {
		a, _ := mxRecords(w.rng(i, streamDNS), s)
		z[s.domain] = a
	}
	return z
}
