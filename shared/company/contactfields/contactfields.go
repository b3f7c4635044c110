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

	"github.com/firmoapi/firmo/shared/company"
	"github.com/firmoapi/firmo/shared/geo"
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
	return f
}

// Doc are the contact document fields that come from the employer, by document field
// name, with company_fp, the fingerprint telling whether a document holds them.
func Doc(f Fields) map[string]any {
	raw, _ := json.Marshal(f) // plain fields: cannot fail
	sum := sha256.Sum256(raw)
	ind := f.Industries
	if ind == nil {
		ind = []string{}
	}
	return map[string]any{
		"company":         f,
		"industry":        ind,
		"employees":       f.Employees,
		"company_country": f.Country,
		"company_state":   f.StateCode,
		"company_fp":      hex.EncodeToString(sum[:12]),
	}
}
