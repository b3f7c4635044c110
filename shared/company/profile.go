// Package company holds Firmo's company data: the profile of GET /v1/bizdata, the
// certificate history of GET /v1/history and the score of GET /v1/score, the store they
// live in, and the pipeline that derives every profile field from raw signals
// (ingested or seeded company rows, certificates, homepage HTML, MX records).
//
// Raw signals are kept as they came; derived fields are recomputed from them by Derive,
// never copied, so re-running the pipeline (the scheduled reprocessing job) refreshes
// every profile with the current code and date.
package company

import (
	"encoding/json"
	"time"
)

// Profile is the company profile of the API reference, its fields in the API reference's order (latitude
// and longitude right after address). Absent values are JSON null, never omitted, so
// every profile has the same shape; empty lists are [] and empty objects {}.
type Profile struct {
	Domain         string             `json:"domain"`
	Name           string             `json:"name"`
	Status         Status             `json:"status"`
	Score          int                `json:"score"`
	StartDate      *string            `json:"start_date"`
	EndDate        *string            `json:"end_date"`
	Address        Address            `json:"address"`
	Latitude       *float64           `json:"latitude"`
	Longitude      *float64           `json:"longitude"`
	GeoPrecision   *string            `json:"geo_precision"`
	Phones         []string           `json:"phones"`
	PublicEmails   []string           `json:"public_emails"`
	SocialURLs     []string           `json:"social_urls"`
	Description    string             `json:"description"`
	Keywords       map[string]float64 `json:"keywords"`
	IndustryGroups map[string]float64 `json:"industry_groups"`
	// SubIndustry is nil (null) when the company was never scored against the
	// sub-industry labels, empty ({}) when it was and nothing matched.
	SubIndustry   map[string]float64 `json:"sub_industry"`
	Employees     *string            `json:"employees"`
	RevenueRange  string             `json:"revenue_range"`
	BusinessModel map[string]float64 `json:"business_model"`
	// MXProvider is the mail host's registrable domain, NoMX when the domain receives
	// no mail, nil when it could not be resolved.
	MXProvider     *string `json:"mx_provider"`
	RedirectDomain *string `json:"redirect_domain"`
	UpdateDate     string  `json:"update_date"`
	// Language is the ISO 639-2 code of the homepage's text. The API reference's table does not
	// list it; it is added after the API reference's fields (clients treat extra fields as optional).
	Language *string `json:"language"`
}

// Status is the profile's status object.
type Status struct {
	Status     string  `json:"status"` // StatusActive or StatusClosed
	Confidence float64 `json:"confidence"`
}

// Status values.
const (
	StatusActive = "active"
	StatusClosed = "closed"
)

// NoMX is the mx_provider of a domain that receives no mail (a null MX record, RFC
// 7505, or no MX record at all).
const NoMX = "no_mx"

// Address is the profile's postal address. State is the full subdivision name.
type Address struct {
	Street  string `json:"street"`
	City    string `json:"city"`
	State   string `json:"state"`
	Zip     string `json:"zip"`
	Country string `json:"country"`
}

// MarshalJSON writes nil lists and maps as [] and {} (SubIndustry keeps its null).
func (p Profile) MarshalJSON() ([]byte, error) {
	type plain Profile
	q := plain(p)
	q.Phones = nonNilList(q.Phones)
	q.PublicEmails = nonNilList(q.PublicEmails)
	q.SocialURLs = nonNilList(q.SocialURLs)
	q.Keywords = nonNilMap(q.Keywords)
	q.IndustryGroups = nonNilMap(q.IndustryGroups)
	q.BusinessModel = nonNilMap(q.BusinessModel)
	return json.Marshal(q)
}

func nonNilList(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}

func nonNilMap(m map[string]float64) map[string]float64 {
	if m == nil {
		return map[string]float64{}
	}
	return m
}

// Certificate is the API reference's certificate record.
type Certificate struct {
	SHA1Fingerprint string    `json:"sha1_fingerprint"`
	FQDN            string    `json:"fqdn"`
	AlternativeFQDN []string  `json:"alternative_fqdn"`
	Organization    string    `json:"organization"`
	City            string    `json:"city"`
	State           string    `json:"state"`
	Country         string    `json:"country"`
	DateFrom        time.Time `json:"date_from"`
	DateTo          time.Time `json:"date_to"`
}

// MarshalJSON writes a nil alternative_fqdn as [] and the dates in UTC, to the second.
func (c Certificate) MarshalJSON() ([]byte, error) {
	type plain Certificate
	q := plain(c)
	q.AlternativeFQDN = nonNilList(q.AlternativeFQDN)
	q.DateFrom = q.DateFrom.UTC().Truncate(time.Second)
	q.DateTo = q.DateTo.UTC().Truncate(time.Second)
	return json.Marshal(q)
}

// Page is a fetched web page of a company and what Firmo extracted from it.
type Page struct {
	URL        string    `json:"url"`
	FinalURL   string    `json:"final_url,omitempty"` // where redirects ended, when elsewhere
	FetchedAt  time.Time `json:"fetched_at"`
	StatusCode int       `json:"status_code"`
	HTML       string    `json:"html"`
	// Derived from HTML by the extractor when the page is stored.
	Title       string `json:"title,omitempty"`
	Description string `json:"description,omitempty"`
	Text        string `json:"text"`
	Language    string `json:"language"` // ISO 639-2, "" when undetermined
}

// Date formats a time as the API reference's date (YYYY-MM-DD, UTC).
func Date(t time.Time) string { return t.UTC().Format(time.DateOnly) }
