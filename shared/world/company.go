package world

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"net/url"
	"sort"
	"strings"

	"github.com/firmoapi/firmo/shared/company"
	"github.com/firmoapi/firmo/shared/dnsmx"
	"github.com/firmoapi/firmo/shared/domain"
	"github.com/firmoapi/firmo/shared/geo"
)

// Company is one company of the world: raw material for Firmo and the truth.
type Company struct {
	Domain string                // registrable ASCII domain
	Row    company.CompanyRow    // the company row, as `firmo ingest companies` reads it
	Certs  []company.Certificate // certificate history, oldest first
	Pages  []company.Page        // homepage and team page, when the company has them
	DNS    dnsmx.Answer          // its MX answer in the world's zone
	Truth  Truth
}

// Truth is what the generator decided, for grading what the pipeline derives. Nothing
// in it is loaded into Firmo.
type Truth struct {
	Domain        string   `json:"domain"`
	Name          string   `json:"name"`
	Industry      string   `json:"industry"`
	BusinessModel string   `json:"business_model"`
	Language      string   `json:"language"` // ISO 639-2 of the site, "" without a site
	Country       string   `json:"country"`
	City          string   `json:"city"`
	Employees     int      `json:"employees"`
	Shape         Shape    `json:"shape"`
	Status        string   `json:"status"` // active or closed
	Founded       string   `json:"founded"`
	Closed        string   `json:"closed,omitempty"`
	RedirectTo    string   `json:"redirect_to,omitempty"`
	MXProvider    string   `json:"mx_provider"` // "" when the lookup must fail
	Subdomains    []string `json:"subdomains,omitempty"`
	Vendors       []string `json:"vendors,omitempty"`
	Team          []Person `json:"team,omitempty"`
}

// Company generates company i.
func (w *World) Company(i int) Company {
	s := w.skel[i]
	r := w.rng(i, streamRow)
	row, phone := w.row(r, s)
	hosts := append([]string(nil), subdomainsOf[s.industry]...)
	rh := w.rng(i, streamCerts+100)
	rh.Shuffle(len(hosts), func(a, b int) { hosts[a], hosts[b] = hosts[b], hosts[a] })
	hosts = hosts[:1+rh.IntN(len(hosts))]
	certs := w.certificates(i, s, hosts)
	ps := w.pages(i, s, row, phone)
	answer, provider := mxRecords(w.rng(i, streamDNS), s)

	t := Truth{
		Domain: s.domain, Name: s.name, Industry: s.industry, BusinessModel: s.model,
		Country: s.country.Code, City: s.place.Name, Employees: s.employees, Shape: s.shape,
		Status: company.StatusActive, Founded: company.Date(s.founded), MXProvider: provider, Team: ps.people,
	}
	if !s.closed.IsZero() {
		t.Status, t.Closed = company.StatusClosed, company.Date(s.closed)
	}
	if s.redirectTo >= 0 {
		t.RedirectTo = w.skel[s.redirectTo].domain
	}
	for _, p := range ps.pages {
		if p.StatusCode == 200 && !strings.Contains(p.HTML, lexicons()["en"].one("parked")) {
			t.Language = iso639_2[s.lang]
		}
	}
	seenSub := map[string]bool{}
	for _, c := range certs {
		for _, n := range c.AlternativeFQDN {
			if strings.HasSuffix(n, "."+s.domain) && n != "www."+s.domain && !strings.HasPrefix(n, "*.") && !seenSub[n] {
				seenSub[n] = true
				t.Subdomains = append(t.Subdomains, n)
			}
		}
	}
	sort.Strings(t.Subdomains)
	seenV := map[string]bool{}
	for _, v := range ps.vendors {
		if u, err := url.Parse(v); err == nil {
			if d, err := domain.Normalize(u.Host); err == nil && !seenV[d] {
				seenV[d] = true
				t.Vendors = append(t.Vendors, d)
			}
		}
	}
	sort.Strings(t.Vendors)
	return Company{Domain: s.domain, Row: row, Certs: certs, Pages: ps.pages, DNS: answer, Truth: t}
}

// row writes the company row as a registry or CRM export would: the domain sometimes
// as a URL or a subdomain, the state in whatever form (code, name, English name or
// missing), the phone in national format, the head count as a number and the revenue
// as an amount or a bucket (or unknown).
func (w *World) row(r *rand.Rand, s skeleton) (company.CompanyRow, string) {
	lx := lexicons()[s.lang]
	row := company.CompanyRow{Name: s.name, City: s.place.Name, Country: s.country.Code}
	switch k := r.IntN(100); {
	case k < 8:
		row.Domain = "https://www." + s.domain + "/"
	case k < 12:
		row.Domain = "www." + s.unicodeOrASCII()
	case k < 14:
		row.Domain = pick(r, []string{"shop", "blog", "info"}) + "." + s.domain
	default:
		row.Domain = s.unicodeOrASCII()
	}
	if r.IntN(100) < 25 {
		row.AlternateNames, _ = json.Marshal([]string{shortName(s)})
	}
	row.Street = fill(lx.one("street.format"), map[string]string{"street": pick(r, lx.list("street")), "n": fmt.Sprint(1 + r.IntN(180))})
	row.Zip = s.place.Zip
	if sub, ok := geo.LookupSubdivision(s.place.State); ok {
		switch k := r.IntN(10); {
		case k < 4:
			row.State = sub.Suffix()
		case k < 6:
			row.State = sub.Code
		case k < 8:
			row.State = sub.DisplayName()
		}
	}
	switch k := r.IntN(20); {
	case k == 0:
		if c, ok := geo.LookupCountry(s.country.Code); ok {
			row.Country = c.DisplayName()
		}
	case k == 1:
		if c, ok := geo.LookupCountry(s.country.Code); ok {
			row.Country = c.Alpha3
		}
	}
	phone := phoneNumber(r, s.country.Code)
	if r.IntN(100) < 90 {
		row.Phone = phone
	}
	if r.IntN(100) < 92 {
		row.Employees = json.RawMessage(fmt.Sprint(s.employees))
	}
	revenue := float64(s.employees) * (40000 + 260000*r.Float64())
	switch k := r.IntN(10); {
	case k < 6:
		row.RevenueRange, _ = json.Marshal(fmt.Sprintf("%.0f", revenue))
	case k < 8:
		b, _ := company.RevenueBucket(fmt.Sprintf("%.0f", revenue))
		row.RevenueRange, _ = json.Marshal(b)
	}
	return row, phone
}
