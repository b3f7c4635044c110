// Package contactfields is what a contact document of an outside search index carries of the
// contact's company: the entry fields a search shows and the filter fields it matches
// on. It is apart from contactsearch so that the company pipeline can rewrite them
// (oscontactfields) without linking contact search.
package contactfields

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"sort"
	"strings"

	"github.com/firmoapi/firmo/shared/company"
	"github.com/firmoapi/firmo/shared/geo"
	"github.com/firmoapi/firmo/shared/industry"
	"github.com/firmoapi/firmo/shared/title"
)

// Fields are an employer's fields a contact search filters on and shows in its entry.
type Fields struct {
	Domain         string             `json:"domain"`
	Name           string             `json:"name,omitempty"`
	Employees      string             `json:"employees,omitempty"`
	Revenue        string             `json:"revenue,omitempty"`
	Industries     []string           `json:"industries,omitempty"` // best score first
	IndustryGroups map[string]float64 `json:"industry_groups,omitempty"`
	Country        string             `json:"country,omitempty"`
	StateCode      string             `json:"state_code,omitempty"` // full ISO 3166-2 code
	StateName      string             `json:"state_name,omitempty"`
	// Signal is the text icp_prompt's company signals match (see SignalOf).
	Signal Signal `json:"signal"`
}

// Signal is what icp_prompt's company signals ("using Stripe", "series B") match in a
// company profile: the folded words (title.Normalize) of four fields, best weight first:
// technologies (the products behind the homepage's third-party scripts: stripe.com is
// "stripe", js.hs-scripts.com "hubspot"), keywords, industries (enum values and labels)
// and description. contactsearch weighs and scores them.
type Signal struct {
	Tech        string `json:"tech,omitempty"`
	Keywords    string `json:"keywords,omitempty"`
	Industries  string `json:"industries,omitempty"`
	Description string `json:"description,omitempty"`
}

// Texts are the four fields in weight order.
func (s Signal) Texts() [4]string { return [4]string{s.Tech, s.Keywords, s.Industries, s.Description} }

// SignalOf is rec's signal text.
func SignalOf(rec company.Record) Signal {
	p := rec.Profile
	var tech, kw, ind []string
	for _, v := range rec.Derived.Vendors {
		tech = append(tech, technologyOf(v))
	}
	for k := range p.Keywords {
		kw = append(kw, k)
	}
	for v := range p.IndustryGroups {
		label, _ := industry.Label(v)
		ind = append(ind, strings.ReplaceAll(v, "_", " "), label)
	}
	sort.Strings(kw)
	sort.Strings(ind)
	return Signal{title.Normalize(strings.Join(tech, " ")), title.Normalize(strings.Join(kw, " ")),
		title.Normalize(strings.Join(ind, " ")), title.Normalize(p.Description)}
}

// vendorProducts names the product behind vendor domains whose name is not the
// product's; any other vendor is named by its domain's first label (stripe.com: stripe).
var vendorProducts = map[string]string{
	"hs-scripts.com":       "hubspot",
	"zdassets.com":         "zendesk",
	"googletagmanager.com": "google analytics tag manager",
	"googleapis.com":       "google maps",
	"typekit.net":          "adobe fonts typekit",
	"cloudflare.com":       "cloudflare cdnjs",
}

func technologyOf(vendor string) string {
	vendor = strings.ToLower(strings.TrimPrefix(vendor, "www."))
	for d := vendor; strings.Contains(d, "."); _, d, _ = strings.Cut(d, ".") {
		if p, ok := vendorProducts[d]; ok { // maps.googleapis.com is googleapis.com's
			return p
		}
	}
	name, _, _ := strings.Cut(vendor, ".")
	return strings.ReplaceAll(name, "-", " ")
}

// Of are rec's fields.
func Of(rec company.Record) Fields {
	p := rec.Profile
	f := Fields{Domain: rec.Domain, Name: p.Name, Revenue: p.RevenueRange, IndustryGroups: p.IndustryGroups, Country: p.Address.Country}
	if p.Employees != nil {
		f.Employees = *p.Employees
	}
	for k := range p.IndustryGroups {
		f.Industries = append(f.Industries, k)
	}
	sort.Slice(f.Industries, func(i, j int) bool {
		a, b := p.IndustryGroups[f.Industries[i]], p.IndustryGroups[f.Industries[j]]
		if a != b {
			return a > b
		}
		return f.Industries[i] < f.Industries[j]
	})
	if p.Address.State != "" && f.Country != "" {
		if code, ok := geo.ResolveState(f.Country, p.Address.State); ok {
			f.StateCode = code
			f.StateName, _ = geo.StateName(f.Country, code)
		} else {
			f.StateName = p.Address.State
		}
	}
	f.Signal = SignalOf(rec)
	return f
}

// SignalFields are the contact document fields holding the employer's Signal, in
// Signal.Texts order (whitespace-analysed text).
var SignalFields = [4]string{"company_tech", "company_keywords", "company_industries", "company_description"}

// Doc are the contact document fields that come from the employer, by document field
// name, with company_fp, the fingerprint telling whether a document holds them.
func Doc(f Fields) map[string]any {
	raw, _ := json.Marshal(f) // plain fields: cannot fail
	sum := sha256.Sum256(raw)
	ind := f.Industries
	if ind == nil {
		ind = []string{}
	}
	sig := f.Signal.Texts()
	shown := f
	shown.Signal = Signal{} // searched in the fields below, never shown: stored once
	return map[string]any{
		SignalFields[0]:   sig[0],
		SignalFields[1]:   sig[1],
		SignalFields[2]:   sig[2],
		SignalFields[3]:   sig[3],
		"company":         shown,
		"industry":        ind,
		"employees":       f.Employees,
		"company_country": f.Country,
		"company_state":   f.StateCode,
		"company_fp":      hex.EncodeToString(sum[:12]),
	}
}
