package world

import (
	"fmt"
	"sort"
	"strings"

	"github.com/firmoapi/firmo/shared/company"
)

// streamSite is the random stream of a company's site material: the resources its
// homepage loads when rendered (forms and frames that scripts inject), its SPF and
// verification TXT records and its CNAME aliases. It touches no other stream, so the
// world's companies, pages and contacts are the same with or without it.
const streamSite = 70

// Site is a company's site material and the vendors the generator put into it.
type Site struct {
	Material company.Site
	// Vendors are the registrable domains of every vendor the material names (the
	// truth the append dataset vendors is graded against, with the homepage's scripts
	// of Truth.Vendors and the mail provider), sorted, without duplicates.
	Vendors []string
}

// siteVendor is a third-party service and the registrable domain it is known by.
type siteVendor struct {
	vendor string // registrable domain
	url    string // %s: a random id
}

// injected are the forms, frames and styles a homepage's scripts add when it renders.
var injected = map[string][]siteVendor{
	company.ResourceForm: {
		{"hsforms.com", "https://forms.hsforms.com/submissions/v3/public/submit/formsnext/multipart/%s"},
		{"formspree.io", "https://formspree.io/f/%s"},
		{"typeform.com", "https://api.typeform.com/forms/%s"},
		{"salesforce.com", "https://webto.salesforce.com/servlet/servlet.WebToLead?oid=%s"},
		{"google.com", "https://docs.google.com/forms/d/e/%s/formResponse"},
		{"mailchimp.com", "https://us%s.list-manage.mailchimp.com/subscribe/post"},
	},
	company.ResourceIframe: {
		{"google.com", "https://www.google.com/maps/embed?pb=%s"},
		{"calendly.com", "https://calendly.com/%s"},
		{"youtube-nocookie.com", "https://www.youtube-nocookie.com/embed/%s"},
		{"vimeo.com", "https://player.vimeo.com/video/%s"},
		{"trustpilot.com", "https://widget.trustpilot.com/trustboxes/%s/index.html"},
	},
	company.ResourceStylesheet: {
		{"fontawesome.com", "https://use.fontawesome.com/releases/v6.5.1/css/all.css?k=%s"},
		{"jsdelivr.net", "https://cdn.jsdelivr.net/npm/bootstrap@5.3.3/dist/css/bootstrap.min.css?v=%s"},
		{"typekit.net", "https://use.typekit.net/%s.css"},
	},
	company.ResourceScript: {
		{"facebook.net", "https://connect.facebook.net/en_US/fbevents.js?id=%s"},
		{"licdn.com", "https://snap.licdn.com/li.lms-analytics/insight.min.js?pid=%s"},
		{"hotjar.com", "https://script.hotjar.com/modules.%s.js"},
	},
}

// spfIncludes are the SPF includes of each mail setup (the provider's own) and the
// registrable domain each names.
var spfIncludes = map[mxKind][]siteVendor{
	mxGoogle:     {{"google.com", "_spf.google.com"}},
	mxMicrosoft:  {{"outlook.com", "spf.protection.outlook.com"}},
	mxProofpoint: {{"pphosted.com", "_spf.pphosted.com"}},
	mxMimecast:   {{"mimecast.com", "_netblocks.mimecast.com"}},
	mxZoho:       {{"zoho.com", "zoho.com"}},
	mxOVH:        {{"ovh.com", "mx.ovh.com"}},
	mxIONOS:      {{"ionos.com", "_spf-eu.ionos.com"}},
	mxStrato:     {{"strato.de", "spf.strato.de"}},
	mxGoDaddy:    {{"secureserver.net", "secureserver.net"}},
}

// senders are the bulk-mail services a company may also send through.
var senders = []siteVendor{
	{"sendgrid.net", "sendgrid.net"},
	{"mailgun.org", "mailgun.org"},
	{"mcsv.net", "servers.mcsv.net"},
	{"mandrillapp.com", "spf.mandrillapp.com"},
	{"salesforce.com", "_spf.salesforce.com"},
	{"zendesk.com", "mail.zendesk.com"},
	{"brevo.com", "spf.brevo.com"},
}

// verifications are domain-verification TXT records: the vendor and the record's
// prefix (%s: a random token).
var verifications = []siteVendor{
	{"google.com", "google-site-verification=%s"},
	{"microsoft.com", "MS=ms%s"},
	{"facebook.com", "facebook-domain-verification=%s"},
	{"apple.com", "apple-domain-verification=%s"},
	{"atlassian.com", "atlassian-domain-verification=%s"},
	{"stripe.com", "stripe-verification=%s"},
	{"docusign.com", "docusign=%s"},
	{"adobe.com", "adobe-idp-site-verification=%s"},
	{"slack.com", "slack-domain-verification=%s"},
}

// aliases are CNAME records: the host label under the company's domain and the target
// (%s: the company's label).
var aliases = []struct {
	label string
	siteVendor
}{
	{"help", siteVendor{"zendesk.com", "%s.zendesk.com"}},
	{"support", siteVendor{"freshdesk.com", "%s.freshdesk.com"}},
	{"status", siteVendor{"statuspage.io", "%s.statuspage.io"}},
	{"careers", siteVendor{"recruitee.com", "%s.recruitee.com"}},
	{"info", siteVendor{"hubspotpagebuilder.com", "%s.hubspotpagebuilder.com"}},
	{"em", siteVendor{"sendgrid.net", "u%s.wl.sendgrid.net"}},
	{"go", siteVendor{"webflow.com", "proxy-ssl.webflow.com"}},
	{"shop", siteVendor{"squarespace.com", "ext-cust.squarespace.com"}},
}

// Site generates the site material of company i (c is w.Company(i)): a live homepage
// (status 200, not a parking page) loads injected resources; every domain that still
// resolves has an SPF record matching its mail setup, some verification records and
// some aliases. An expired domain (NXDOMAIN) has none.
func (w *World) Site(i int, c Company) Site {
	r := w.rng(i, streamSite)
	s := w.skel[i]
	var out Site
	vendors := map[string]bool{}
	id := func() string { return fmt.Sprintf("%x", r.Uint32()) }
	live := false
	for _, p := range c.Pages {
		if p.StatusCode == 200 && !strings.Contains(p.HTML, lexicons()["en"].one("parked")) {
			live = true
		}
	}
	if live {
		for _, kind := range []string{company.ResourceScript, company.ResourceStylesheet, company.ResourceIframe, company.ResourceForm} {
			for _, v := range injected[kind] {
				if r.IntN(100) < 18 {
					out.Material.Resources = append(out.Material.Resources, company.Resource{Kind: kind, URL: fmt.Sprintf(v.url, id())})
					vendors[v.vendor] = true
				}
			}
		}
	}
	if s.mail == mxNXDomain || s.mail == mxServFail {
		return finishSite(out, vendors)
	}
	// Most domains publish an SPF record: the provider's include and any bulk
	// senders', or "-all" when the domain sends no mail.
	if r.IntN(100) < 85 {
		spf := []string{"v=spf1"}
		switch s.mail {
		case mxNullMX, mxNoRecords:
			spf = append(spf, "-all")
		default:
			if s.mail == mxSelfHosted {
				spf = append(spf, "mx")
			}
			for _, v := range spfIncludes[s.mail] {
				spf = append(spf, "include:"+v.url)
				vendors[v.vendor] = true
			}
			for _, v := range senders {
				if r.IntN(100) < 12 {
					spf = append(spf, "include:"+v.url)
					vendors[v.vendor] = true
				}
			}
			spf = append(spf, pick(r, []string{"~all", "-all", "?all"}))
		}
		out.Material.TXT = append(out.Material.TXT, strings.Join(spf, " "))
	}
	for _, v := range verifications {
		if r.IntN(100) < 15 {
			out.Material.TXT = append(out.Material.TXT, fmt.Sprintf(v.url, id()))
			vendors[v.vendor] = true
		}
	}
	label := strings.SplitN(s.domain, ".", 2)[0]
	for _, a := range aliases {
		if r.IntN(100) < 10 {
			target := a.url
			if strings.Contains(target, "%s") {
				target = fmt.Sprintf(target, label)
			}
			out.Material.CNAME = append(out.Material.CNAME, company.CNAME{Host: a.label + "." + s.domain, Target: target})
			vendors[a.vendor] = true
		}
	}
	return finishSite(out, vendors)
}

func finishSite(s Site, vendors map[string]bool) Site {
	for v := range vendors {
		s.Vendors = append(s.Vendors, v)
	}
	sort.Strings(s.Vendors)
	return s
}
