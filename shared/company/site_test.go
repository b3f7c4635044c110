package company_test

import (
	"context"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/firmoapi/firmo/shared/company"
)

func TestVendors(t *testing.T) {
	site := company.Site{
		Resources: []company.Resource{
			{Kind: company.ResourceForm, URL: "https://forms.hsforms.com/submissions/v3/x"},
			{Kind: company.ResourceIframe, URL: "https://calendly.com/acme"},
			{Kind: company.ResourceScript, URL: "/assets/own.js"},                 // relative: own
			{Kind: company.ResourceStylesheet, URL: "https://cdn.acme.com/x.css"}, // own subdomain
		},
		TXT: []string{
			`"v=spf1 include:_spf.google.com include:sendgrid.net redirect=_spf.mailgun.org ~all"`,
			"google-site-verification=abc",
			"MS=ms123456",
			"just some text",
		},
		CNAME: []company.CNAME{{Host: "help.acme.com", Target: "acme.zendesk.com."}, {Host: "www.acme.com", Target: "lb.acme.com"}},
	}
	mx := "outlook.com"
	got, total := company.Vendors("acme.com", []string{"stripe.com"}, site, &mx)
	want := []string{"calendly.com", "google.com", "hsforms.com", "mailgun.org", "microsoft.com", "outlook.com", "sendgrid.net", "stripe.com", "zendesk.com"}
	if !slices.Equal(got, want) || total != len(want) {
		t.Errorf("vendors = %v (%d), want %v", got, total, want)
	}
	self, noMX := "acme.com", company.NoMX
	for _, p := range []*string{&self, &noMX, nil} {
		if got, _ := company.Vendors("acme.com", nil, company.Site{}, p); len(got) != 0 {
			t.Errorf("mail provider %v gave vendors %v", p, got)
		}
	}
}

// TestDeriveKeepsAppendMaterial derives a company whose homepage posts a form to a
// vendor and redirects nowhere, and one that redirects to it: the fetch status, form
// vendor, clean subdomains and the reverse redirect edge are all kept.
func TestDeriveKeepsAppendMaterial(t *testing.T) {
	ctx := context.Background()
	now := time.Date(2026, 5, 14, 0, 0, 0, 0, time.UTC)
	svc := company.NewService(company.NewKVStore(newBolt(t)), company.NewDeriver(company.DeriverDeps{Now: func() time.Time { return now }}))
	home := company.Page{URL: "https://www.acme.com/", StatusCode: 200, FetchedAt: now.AddDate(0, 0, -2),
		HTML: `<html><body><form action="https://formspree.io/f/abc"></form><iframe src="https://www.youtube-nocookie.com/embed/x"></iframe></body></html>`}
	cert := company.Certificate{SHA1Fingerprint: "f1", FQDN: "acme.com", AlternativeFQDN: []string{"acme.com", "*.acme.com", "admin@acme.com", "shop.acme.com", "www.acme.com"}, DateFrom: now.AddDate(0, -1, 0), DateTo: now.AddDate(0, 2, 0)}
	if _, err := svc.Load(ctx, "acme.com", company.Raw{Name: "Acme"}, []company.Certificate{cert}, []company.Page{home}, company.LoadOptions{}); err != nil {
		t.Fatal(err)
	}
	moved := company.Page{URL: "https://acme-old.com/", StatusCode: 301, FinalURL: "https://www.acme.com/", FetchedAt: now.AddDate(0, 0, -1)}
	if _, err := svc.Load(ctx, "acme-old.com", company.Raw{Name: "Acme (old)"}, nil, []company.Page{moved}, company.LoadOptions{}); err != nil {
		t.Fatal(err)
	}
	rec, err := svc.Store().Get(ctx, "acme.com")
	if err != nil {
		t.Fatal(err)
	}
	if f := rec.Derived.Fetch; f == nil || f.StatusCode != 200 || f.FetchedAt != "2026-05-12" {
		t.Errorf("fetch = %+v", f)
	}
	if want := []string{"formspree.io", "youtube-nocookie.com"}; !slices.Equal(rec.Derived.Vendors, want) {
		t.Errorf("homepage vendors = %v, want %v", rec.Derived.Vendors, want)
	}
	if want := []string{"shop.acme.com"}; !slices.Equal(rec.Derived.Subdomains, want) {
		t.Errorf("subdomains = %v, want %v", rec.Derived.Subdomains, want)
	}
	if src, err := svc.Store().RedirectSources(ctx, "acme.com"); err != nil || !slices.Equal(src, []string{"acme-old.com"}) {
		t.Errorf("redirect sources = %v, %v", src, err)
	}
	old, _ := svc.Store().Get(ctx, "acme-old.com")
	if f := old.Derived.Fetch; f == nil || f.StatusCode != 301 {
		t.Errorf("redirecting domain's fetch = %+v", f)
	}
}

func TestIngestSites(t *testing.T) {
	ctx := context.Background()
	svc := company.NewService(company.NewKVStore(newBolt(t)), company.NewDeriver(company.DeriverDeps{}))
	in := `{"domain":"https://www.Acme.com/","resources":[{"kind":"form","url":"https://formspree.io/f/x"}],"txt":["v=spf1 include:sendgrid.net -all"],"cname":[{"host":"help.acme.com","target":"acme.zendesk.com"}]}
{"domain":"bad domain"}
{"domain":"globex.de","resources":[{"kind":"video","url":"https://x.test/"}]}
`
	rep, err := svc.IngestSites(ctx, strings.NewReader(in), company.IngestOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if rep.Rows != 3 || rep.Accepted != 1 || rep.Skipped != 2 || rep.Errors[0].Line != 2 || rep.Errors[1].Line != 3 {
		t.Fatalf("report = %+v", rep)
	}
	site, err := svc.Store().Site(ctx, "acme.com")
	if err != nil {
		t.Fatal(err)
	}
	if got, _ := company.Vendors("acme.com", nil, site, nil); !slices.Equal(got, []string{"formspree.io", "sendgrid.net", "zendesk.com"}) {
		t.Errorf("vendors of the ingested site = %v", got)
	}
}
