package icpfit

import (
	"sort"
	"strings"

	"github.com/firmoapi/firmo/shared/company"
)

// Company is what the model reads about one company.
type Company struct {
	Domain, Name, Description, Country, State, BusinessModel, RevenueRange string
	Industries, SubIndustries, Technologies, Keywords                      []string
	// Employees is an exact head count when one is known, else 0 (a profile gives
	// only EmployeeRange).
	Employees    int
	HomepageText string

	// EmployeeRange is the profile's employees bucket ("51-200"), "" when unknown.
	EmployeeRange string
	// Founded is the founding date or year ("2014", "2014-03-01") when it is known;
	// WebSince the date the company's web presence began (the profile's start_date,
	// its first certificate), which a founding-year criterion falls back to.
	Founded, WebSince string
	// IndustryScores, SubIndustryScores and ModelScores are the classifier's
	// confidences behind Industries, SubIndustries and BusinessModel (label -> score).
	// A nil map with a non-empty list counts every listed label as certain.
	IndustryScores, SubIndustryScores, ModelScores map[string]float64
}

// FromProfile maps a company profile and its homepage text to a Company: industries,
// sub-industries, business models and keywords ordered by confidence (ties by name),
// the country's ISO code, the state's full name, the employees bucket, and the mail
// provider (mx_provider) as the one technology a profile names. FromRecord adds the
// homepage vendors Firmo keeps beside the profile.
func FromProfile(p company.Profile, homepageText string) Company {
	c := Company{
		Domain: p.Domain, Name: p.Name, Description: p.Description,
		Country: strings.ToUpper(strings.TrimSpace(p.Address.Country)), State: strings.TrimSpace(p.Address.State),
		RevenueRange: p.RevenueRange, HomepageText: homepageText,
		Industries: byScore(p.IndustryGroups), SubIndustries: byScore(p.SubIndustry), Keywords: byScore(p.Keywords),
		IndustryScores: p.IndustryGroups, SubIndustryScores: p.SubIndustry, ModelScores: p.BusinessModel,
	}
	if c.RevenueRange == company.RevenueUnknown {
		c.RevenueRange = ""
	}
	if p.Employees != nil {
		c.EmployeeRange = *p.Employees
	}
	if p.StartDate != nil {
		c.WebSince = *p.StartDate
	}
	c.BusinessModel = strings.Join(byScore(p.BusinessModel), ", ")
	if p.MXProvider != nil && *p.MXProvider != company.NoMX && *p.MXProvider != p.Domain {
		c.Technologies = append(c.Technologies, *p.MXProvider)
	}
	return c
}

// FromRecord is FromProfile plus the vendors the pipeline found on the homepage
// (script, stylesheet, frame and form hosts), as technologies.
func FromRecord(r company.Record, homepageText string) Company {
	c := FromProfile(r.Profile, homepageText)
	for _, v := range r.Derived.Vendors {
		if !contains(c.Technologies, v) {
			c.Technologies = append(c.Technologies, v)
		}
	}
	sort.Strings(c.Technologies)
	return c
}

func contains(list []string, s string) bool {
	for _, v := range list {
		if v == s {
			return true
		}
	}
	return false
}

// byScore lists a score map's keys, highest first, ties by key.
func byScore(m map[string]float64) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Slice(keys, func(i, j int) bool {
		if m[keys[i]] != m[keys[j]] {
			return m[keys[i]] > m[keys[j]]
		}
		return keys[i] < keys[j]
	})
	return keys
}
