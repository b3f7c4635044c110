// Package contact holds Firmo's contact records: the API reference's Contact record, the raw
// row a contact is stored as, the derivation of department, seniority and phone types
// from the raw row, the contact store on kv.Store and `firmo ingest contacts`.
//
// Raw input is kept as it came; department and seniority (when the row did not give
// them) and every phone's E.164 form and type are derived on each read, so a better
// classifier or phone table changes every record without a migration.
package contact

import (
	"encoding/json"
	"strings"

	"github.com/nyaruka/phonenumbers"

	"github.com/firmoapi/firmo/shared/title"
)

// Phone types of the API reference.
const (
	Mobile   = "mobile"
	Landline = "landline"
)

// Phone is one entry of a contact's phone array.
type Phone struct {
	Phone string `json:"phone"` // E.164
	Type  string `json:"type"`  // mobile or landline
}

// Raw is a contact as ingested: nothing derived. Department and Seniority are set only
// when the source gave them.
type Raw struct {
	PersonaID      int64    `json:"persona_id"`
	Name           string   `json:"name"`
	Title          string   `json:"title"`
	Domain         string   `json:"domain"`
	Email          string   `json:"email,omitempty"`
	EmailValidated bool     `json:"email_validated,omitempty"`
	Phones         []string `json:"phones,omitempty"`
	Country        string   `json:"country,omitempty"`
	State          string   `json:"state,omitempty"`
	Skills         []string `json:"skills,omitempty"`
	LinkedinURL    string   `json:"linkedin_url,omitempty"`
	SocialURLs     []string `json:"social_urls,omitempty"`
	Connections    int      `json:"connections,omitempty"`
	JobstartDate   string   `json:"jobstart_date,omitempty"`
	Summary        string   `json:"summary,omitempty"`
	Department     string   `json:"department,omitempty"`
	Seniority      string   `json:"seniority,omitempty"`
}

// Contact is the API reference's Contact record, fields in the API reference's order. The company fields
// (industry, employees, revenue_range, company_name) come from the employer's profile
// when the record is served. Similarity is set in similarity mode only; outside it the
// record still carries the field, as 0 (MarshalJSON).
type Contact struct {
	PersonaID      int64    `json:"persona_id"`
	Domain         string   `json:"domain"`
	Name           string   `json:"name"`
	Title          string   `json:"title"`
	Department     string   `json:"department"`
	Seniority      string   `json:"seniority"`
	Skills         []string `json:"skills"`
	Phone          []Phone  `json:"phone"`
	Email          *string  `json:"email"`
	EmailValidated bool     `json:"email_validated"`
	SocialURLs     []string `json:"social_urls"`
	Connections    int      `json:"connections"`
	Country        string   `json:"country"`
	State          string   `json:"state"`
	Industry       []string `json:"industry"`
	Employees      string   `json:"employees"`
	RevenueRange   string   `json:"revenue_range"`
	JobstartDate   *string  `json:"jobstart_date"`
	Similarity     *int     `json:"similarity"`
	Summary        *string  `json:"summary"`
	CompanyName    string   `json:"company_name"`
}

// MarshalJSON writes the record with every field of the API reference: similarity is
// a 0-100 integer meaningful in similarity mode only, so a record served outside it
// (domain or filter mode, the legacy list) carries 0.
func (c Contact) MarshalJSON() ([]byte, error) {
	type record Contact
	r := record(c)
	if r.Similarity == nil {
		r.Similarity = new(int)
	}
	return json.Marshal(r)
}

// Derive builds the Contact record of a raw row (company fields left empty).
func Derive(r Raw) Contact {
	c := Contact{
		PersonaID: r.PersonaID, Domain: r.Domain, Name: r.Name, Title: r.Title,
		Department: r.Department, Seniority: r.Seniority,
		Skills: nonNil(r.Skills), Phone: Phones(r.Phones, r.Country),
		EmailValidated: r.EmailValidated && r.Email != "",
		Connections:    r.Connections, Country: r.Country, State: r.State,
		Industry: []string{},
	}
	if c.Department == "" || c.Seniority == "" {
		cl := title.Classify(r.Title)
		if c.Department == "" {
			c.Department = cl.Department
		}
		if c.Seniority == "" {
			c.Seniority = cl.Seniority
		}
	}
	if r.Email != "" {
		e := r.Email
		c.Email = &e
	}
	c.SocialURLs = []string{}
	if r.LinkedinURL != "" {
		c.SocialURLs = append(c.SocialURLs, r.LinkedinURL)
	}
	for _, u := range r.SocialURLs {
		if u != r.LinkedinURL {
			c.SocialURLs = append(c.SocialURLs, u)
		}
	}
	if r.JobstartDate != "" {
		d := r.JobstartDate
		c.JobstartDate = &d
	}
	if r.Summary != "" {
		s := r.Summary
		c.Summary = &s
	}
	return c
}

func nonNil(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}

// Phones parses raw numbers as written in a country (a "+" or "00" prefix needs none)
// into E.164 with a type. Unparseable numbers are left out: the API reference's phone objects
// are E.164 only. Duplicates are dropped.
//
// Type: libphonenumber's MOBILE is mobile, and so is FIXED_LINE_OR_MOBILE, which is what
// it answers for every North American number (the plan does not tell them apart, and
// most personal business numbers there are mobile); every other type is landline.
func Phones(raw []string, country string) []Phone {
	out := []Phone{}
	seen := map[string]bool{}
	for _, s := range raw {
		n, ok := parsePhone(s, country)
		if !ok {
			continue
		}
		e := phonenumbers.Format(n, phonenumbers.E164)
		if seen[e] {
			continue
		}
		seen[e] = true
		typ := Landline
		switch phonenumbers.GetNumberType(n) {
		case phonenumbers.MOBILE, phonenumbers.FIXED_LINE_OR_MOBILE:
			typ = Mobile
		}
		out = append(out, Phone{Phone: e, Type: typ})
	}
	return out
}

// parsePhone parses one raw number in a country's plan; ok is false when it is not a
// valid number. Phones keeps exactly the numbers it accepts; ingest validation calls it
// alone, without Phones' formatting and typing (half the cost of a seed's validation).
func parsePhone(s, country string) (n *phonenumbers.PhoneNumber, ok bool) {
	s = strings.TrimSpace(s)
	if s == "" || len(s) > 40 {
		return nil, false
	}
	if rest, ok := strings.CutPrefix(s, "00"); ok {
		s = "+" + rest
	}
	n, err := phonenumbers.Parse(s, strings.ToUpper(country))
	if err != nil || !phonenumbers.IsValidNumber(n) {
		return nil, false
	}
	return n, true
}

// HasMobile reports whether any phone is a mobile number.
func (c Contact) HasMobile() bool {
	for _, p := range c.Phone {
		if p.Type == Mobile {
			return true
		}
	}
	return false
}

// LinkedinUsername extracts the profile username of a LinkedIn URL or returns a bare
// username as is, lowercased; "" when the input is neither.
func LinkedinUsername(s string) string {
	s = strings.TrimSpace(s)
	if s == "" {
		return ""
	}
	low := strings.ToLower(s)
	if i := strings.Index(low, "linkedin.com/"); i >= 0 {
		rest := low[i+len("linkedin.com/"):]
		rest = strings.TrimPrefix(rest, "in/")
		rest = strings.TrimPrefix(rest, "pub/")
		if j := strings.IndexAny(rest, "/?#"); j >= 0 {
			rest = rest[:j]
		}
		return rest
	}
	if strings.ContainsAny(low, "/:?# @") {
		return ""
	}
	return low
}
