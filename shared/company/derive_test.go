package company

import (
	"context"
	"errors"
	"reflect"
	"strings"
	"testing"
	"time"
)

var day0 = time.Date(2025, 6, 15, 12, 0, 0, 0, time.UTC)

func cert(from time.Time, days int, names ...string) Certificate {
	if len(names) == 0 {
		names = []string{"example.com"}
	}
	return Certificate{SHA1Fingerprint: strings.Repeat("a", 40), FQDN: names[0], AlternativeFQDN: names, DateFrom: from, DateTo: from.AddDate(0, 0, days)}
}

func TestDeriveStatus(t *testing.T) {
	tests := []struct {
		name      string
		certs     []Certificate
		want      Status
		wantStart string
		wantEnd   string
	}{
		{"no certificates", nil, Status{StatusActive, 0.2}, "", ""},
		{"valid now, busy", []Certificate{
			cert(day0.AddDate(0, -1, 0), 90), cert(day0.AddDate(0, -4, 0), 90), cert(day0.AddDate(0, -7, 0), 90),
			cert(day0.AddDate(0, -10, 0), 90), cert(day0.AddDate(-3, 0, 0), 90),
		}, Status{StatusActive, 0.95}, Date(day0.AddDate(-3, 0, 0)), ""},
		{"valid now, one certificate", []Certificate{cert(day0.AddDate(0, -1, 0), 365)}, Status{StatusActive, 0.8}, Date(day0.AddDate(0, -1, 0)), ""},
		{"expired 15 days ago", []Certificate{cert(day0.AddDate(0, 0, -105), 90)}, Status{StatusActive, 0.55}, Date(day0.AddDate(0, 0, -105)), ""},
		{"expired a year ago", []Certificate{cert(day0.AddDate(-1, 0, -90), 90)}, Status{StatusClosed, 0.95}, Date(day0.AddDate(-1, 0, -90)), Date(day0.AddDate(-1, 0, 0))},
		{"expired 60 days ago", []Certificate{cert(day0.AddDate(0, 0, -150), 90)}, Status{StatusClosed, 0.57}, Date(day0.AddDate(0, 0, -150)), Date(day0.AddDate(0, 0, -60))},
		{"only a future certificate", []Certificate{cert(day0.AddDate(0, 0, 5), 90)}, Status{StatusActive, 0.2}, "", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := deriveStatus(tt.certs, day0)
			if got.Status != tt.want {
				t.Errorf("status = %+v, want %+v", got.Status, tt.want)
			}
			if s := deref(got.StartDate); s != tt.wantStart {
				t.Errorf("start = %q, want %q", s, tt.wantStart)
			}
			if s := deref(got.EndDate); s != tt.wantEnd {
				t.Errorf("end = %q, want %q", s, tt.wantEnd)
			}
		})
	}
}

func deref[T any](p *T) T {
	var zero T
	if p == nil {
		return zero
	}
	return *p
}

func TestMXProvider(t *testing.T) {
	tests := []struct {
		name    string
		records []MX
		want    string
		wantOK  bool
	}{
		{"google", []MX{{"alt1.aspmx.l.google.com", 5}, {"aspmx.l.google.com", 1}}, "google.com", true},
		{"microsoft", []MX{{"acme-de.mail.protection.outlook.com.", 0}}, "outlook.com", true},
		{"lowest preference wins", []MX{{"mx.backup.example", 20}, {"mx1.mail.ovh.net", 10}}, "ovh.net", true},
		{"googlemail alias", []MX{{"gmail-smtp-in.l.googlemail.com", 5}}, "google.com", true},
		{"self-hosted", []MX{{"mail.acme.co.uk", 10}}, "acme.co.uk", true},
		{"null MX", []MX{{"", 0}}, NoMX, true},
		{"no records", nil, NoMX, true},
		{"unusable host", []MX{{"192.0.2.1", 10}}, "", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, ok := MXProvider(tt.records)
			if got != tt.want || ok != tt.wantOK {
				t.Fatalf("MXProvider = %q, %v; want %q, %v", got, ok, tt.want, tt.wantOK)
			}
		})
	}
}

func TestE164(t *testing.T) {
	tests := []struct{ raw, country, want string }{
		{"030 12345678", "DE", "+493012345678"},
		{"+49 30 12345678", "", "+493012345678"},
		{"0049 30 12345678", "FR", "+493012345678"},
		{"(415) 555-2671", "US", "+14155552671"},
		{"01 42 68 53 00", "FR", "+33142685300"},
		{"020 7946 0958", "GB", "+442079460958"},
		{"12", "DE", ""},
		{"not a phone", "DE", ""},
		{"030 12345678", "", ""}, // a national number needs its country
	}
	for _, tt := range tests {
		got, ok := E164(tt.raw, tt.country)
		if got != tt.want || ok != (tt.want != "") {
			t.Errorf("E164(%q, %q) = %q, %v; want %q", tt.raw, tt.country, got, ok, tt.want)
		}
	}
}

func TestBuckets(t *testing.T) {
	emp := map[string]string{"": "", "1": "1-10", "10": "1-10", "11": "11-50", "1,200": "1001-5000", "11-50": "11-50", "10,001+": "10001+", "250000": "10001+", "5001 - 10000": "5001-10000"}
	for in, want := range emp {
		got, err := EmployeeBucket(in)
		if err != nil || got != want {
			t.Errorf("EmployeeBucket(%q) = %q, %v; want %q", in, got, err, want)
		}
	}
	for _, bad := range []string{"lots", "0", "-5"} {
		if _, err := EmployeeBucket(bad); err == nil {
			t.Errorf("EmployeeBucket(%q) accepted", bad)
		}
	}
	rev := map[string]string{"": "N/A", "n/a": "N/A", "999999": "<1M", "$2.5M": "1-10M", "10-100M": "10-100M", "100000000": "100M-1B", "1.2B": ">1B", "750k": "<1M", "USD 40,000,000": "10-100M"}
	for in, want := range rev {
		got, err := RevenueBucket(in)
		if err != nil || got != want {
			t.Errorf("RevenueBucket(%q) = %q, %v; want %q", in, got, err, want)
		}
	}
	if _, err := RevenueBucket("a lot"); err == nil {
		t.Error("RevenueBucket accepted text")
	}
}

func TestCountryCode(t *testing.T) {
	for in, want := range map[string]string{"de": "DE", "DEU": "DE", "Germany": "DE", "United States": "US", "USA": "US", "uk": "GB", "Brasil": "BR", "": ""} {
		got, err := CountryCode(in)
		if err != nil || got != want {
			t.Errorf("CountryCode(%q) = %q, %v; want %q", in, got, err, want)
		}
	}
	if _, err := CountryCode("Atlantis"); err == nil {
		t.Error("CountryCode accepted Atlantis")
	}
}

func TestScanLinks(t *testing.T) {
	doc := `<html><head>
<script src="https://js.hs-scripts.com/123.js"></script>
<script src="/static/app.js"></script>
<link rel="stylesheet" href="https://fonts.googleapis.com/css?family=Inter">
<link rel="stylesheet" href="https://cdn.acme.de/site.css">
<meta http-equiv="refresh" content="0; url=https://new-brand.com/">
</head><body>
<a href="mailto:Info@Acme.de?subject=Hallo">Mail</a>
<a href="mailto:not-an-address">x</a>
<a href="tel:+49 30 1234567">Call</a>
<a href="https://www.linkedin.com/company/acme/?trk=x">LinkedIn</a>
<a href="https://twitter.com/">twitter home</a>
<a href="https://example.org/about">other</a>
<iframe src="https://www.youtube.com/embed/xyz"></iframe>
</body></html>`
	got := scanLinks([]byte(doc), "acme.de")
	want := pageLinks{
		Emails:  []string{"info@acme.de"},
		Phones:  []string{"+49 30 1234567"},
		Social:  []string{"https://linkedin.com/company/acme"},
		Vendors: []string{"fonts.googleapis.com", "hs-scripts.com", "youtube.com"}, // googleapis.com is a public suffix (private section)
		Refresh: "https://new-brand.com/",
	}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("scanLinks =\n%+v\nwant\n%+v", got, want)
	}
}

func TestFirstSentences(t *testing.T) {
	text := "Acme builds bridges. " + strings.Repeat("We also build roads and tunnels across Europe. ", 10)
	got := firstSentences(text, 120)
	if len([]rune(got)) > 120 || !strings.HasSuffix(got, ".") || !strings.HasPrefix(got, "Acme builds bridges.") {
		t.Fatalf("firstSentences = %q", got)
	}
	if got := firstSentences("short text", 120); got != "short text" {
		t.Fatalf("short = %q", got)
	}
}

// fakeExtractor stands in for shared/extract: the title is the <title>, the text the
// rest with tags removed, the language whatever the page's lang attribute says.
type fakeExtractor struct{ calls int }

func (f *fakeExtractor) Extract(doc []byte, pageURL string) (Extracted, error) {
	f.calls++
	s := string(doc)
	if strings.Contains(s, "unreadable") {
		return Extracted{}, errors.New("cannot read")
	}
	title := between(s, "<title>", "</title>")
	lang := map[string]string{"de": "deu", "en": "eng", "fr": "fra"}[between(s, `lang="`, `"`)]
	body := between(s, "<body>", "</body>")
	var b strings.Builder
	in := false
	for _, r := range body {
		switch {
		case r == '<':
			in = true
		case r == '>':
			in = false
			b.WriteByte(' ')
		case !in:
			b.WriteRune(r)
		}
	}
	return Extracted{Title: title, Text: strings.Join(strings.Fields(b.String()), " "), Language: lang}, nil
}

func between(s, a, b string) string {
	_, rest, ok := strings.Cut(s, a)
	if !ok {
		return ""
	}
	v, _, _ := strings.Cut(rest, b)
	return v
}

// fakeClassifier labels text by keyword, enough to see the pipeline pass text through.
type fakeClassifier struct{ gotLang string }

func (f *fakeClassifier) Classify(text, lang string) Classification {
	f.gotLang = lang
	c := Classification{Groups: map[string]float64{}, Sub: map[string]float64{}, BusinessModel: map[string]float64{"B2B": 0.8}, Keywords: map[string]float64{}}
	if strings.Contains(strings.ToLower(text), "software") {
		c.Groups["SOFTWARE"] = 0.912345
		c.Keywords["software"] = 0.7
	}
	return c
}

type fakeMX map[string][]MX

func (f fakeMX) LookupMX(ctx context.Context, d string) ([]MX, error) {
	recs, ok := f[d]
	if !ok {
		return nil, errors.New("SERVFAIL")
	}
	return recs, nil
}

func TestDerive(t *testing.T) {
	home := Page{URL: "https://www.acme.de/", StatusCode: 200, FetchedAt: day0, HTML: `<html lang="de"><head><title>Acme GmbH | Software aus Berlin</title>
<script src="https://js.hs-scripts.com/1.js"></script></head><body><h1>Software für Logistik</h1>
<p>Wir entwickeln Software für Speditionen.</p><a href="tel:030 98765432">Tel</a><a href="mailto:info@acme.de">Mail</a></body></html>`}
	team := Page{URL: "https://acme.de/team", StatusCode: 200, FetchedAt: day0, HTML: "<html><body>team</body></html>"}
	certs := []Certificate{
		cert(day0.AddDate(0, -2, 0), 90, "acme.de", "www.acme.de", "shop.acme.de"),
		cert(day0.AddDate(-2, 0, 0), 365, "acme.de", "app.acme.de", "shop.acme.de"),
	}
	raw := Raw{Name: "", City: "Muenchen", Country: "Germany", Phone: "030 12345678", Employees: "37", RevenueRange: "$3M"}
	ex, cl := &fakeExtractor{}, &fakeClassifier{}
	d := NewDeriver(DeriverDeps{Extractor: ex, Classifier: cl, MX: fakeMX{"acme.de": {{"aspmx.l.google.com", 1}}}, Now: func() time.Time { return day0 }})

	p, sc, der, pages := d.Derive(context.Background(), Inputs{Domain: "acme.de", Raw: raw, Certs: certs, Pages: []Page{team, home}})

	// Only the home page is read: it is all the profile needs, and extraction is costly.
	if ex.calls != 1 || pages[1].Language != "deu" || pages[1].Text == "" || pages[0].Text != "" {
		t.Fatalf("extraction: calls %d, home %+v, team %+v", ex.calls, pages[1], pages[0])
	}
	checks := []struct {
		field string
		got   any
		want  any
	}{
		{"name from title", p.Name, "Acme GmbH"},
		{"status", p.Status.Status, StatusActive},
		{"start_date", deref(p.StartDate), Date(day0.AddDate(-2, 0, 0))},
		{"end_date", p.EndDate, (*string)(nil)},
		{"score", p.Score, int(sc.Score)},
		{"country", p.Address.Country, "DE"},
		{"state from gazetteer", p.Address.State, "Bayern"},
		{"latitude", deref(p.Latitude), 48.1351},
		{"geo_precision", deref(p.GeoPrecision), "city"},
		{"phones", p.Phones, []string{"+493012345678", "+493098765432"}},
		{"public_emails", p.PublicEmails, []string{"info@acme.de"}},
		{"description", p.Description, "Software für Logistik Wir entwickeln Software für Speditionen. Tel Mail"},
		{"language", deref(p.Language), "deu"},
		{"classifier got the language", cl.gotLang, "deu"},
		{"industry_groups rounded", p.IndustryGroups, map[string]float64{"SOFTWARE": 0.9123}},
		{"sub_industry scored, nothing matched", p.SubIndustry, map[string]float64{}},
		{"employees", deref(p.Employees), "11-50"},
		{"revenue_range", p.RevenueRange, "1-10M"},
		{"mx_provider", deref(p.MXProvider), "google.com"},
		{"redirect_domain", p.RedirectDomain, (*string)(nil)},
		{"update_date", p.UpdateDate, "2025-06-15"},
		{"vendors", der.Vendors, []string{"hs-scripts.com"}},
		{"subdomains most frequent first", der.Subdomains, []string{"shop.acme.de", "app.acme.de"}},
		{"certificates counted", der.Certificates, 2},
		{"score date", sc.On, "2025-06-15"},
	}
	for _, c := range checks {
		if !reflect.DeepEqual(c.got, c.want) {
			t.Errorf("%s = %#v, want %#v", c.field, c.got, c.want)
		}
	}
}

func TestDeriveWithoutDependencies(t *testing.T) {
	d := NewDeriver(DeriverDeps{Now: func() time.Time { return day0 }})
	raw := Raw{Name: "Initech", Country: "US", State: "TX", City: "Nowhere", Industry: "SOFTWARE;IT_SERVICES", Description: "Software consulting."}
	p, sc, _, _ := d.Derive(context.Background(), Inputs{Domain: "initech.com", Raw: raw})
	if sc.Score != 0 {
		t.Errorf("computed score without certificates = %d, want 0 (GET /score range 0-800)", sc.Score)
	}
	if p.Address.State != "Texas" || p.Latitude != nil || p.GeoPrecision != nil {
		t.Errorf("address: %+v lat %v prec %v", p.Address, p.Latitude, p.GeoPrecision)
	}
	if !reflect.DeepEqual(p.IndustryGroups, map[string]float64{"SOFTWARE": 1, "IT_SERVICES": 1}) {
		t.Errorf("industry_groups from the row = %v", p.IndustryGroups)
	}
	if p.SubIndustry != nil || p.MXProvider != nil || p.Description != "Software consulting." || p.RevenueRange != "N/A" || p.Employees != nil {
		t.Errorf("profile = %+v", p)
	}
	if p.Status != (Status{StatusActive, 0.2}) || p.Score != 1 || p.StartDate != nil {
		t.Errorf("no-certificate status = %+v profile score %d (want 1: the profile's range is 1-800)", p.Status, p.Score)
	}
}

func TestDeriveRedirectAndUnresolvedMX(t *testing.T) {
	home := Page{URL: "https://old-brand.de/", StatusCode: 301, FinalURL: "https://www.new-brand.de/start", FetchedAt: day0}
	d := NewDeriver(DeriverDeps{Extractor: &fakeExtractor{}, MX: fakeMX{}, Now: func() time.Time { return day0 }})
	p, _, _, _ := d.Derive(context.Background(), Inputs{Domain: "old-brand.de", Pages: []Page{home}})
	if deref(p.RedirectDomain) != "new-brand.de" {
		t.Errorf("redirect_domain = %v", p.RedirectDomain)
	}
	if p.MXProvider != nil {
		t.Errorf("unresolvable MX gave %q, want null", *p.MXProvider)
	}
}
