package client

import "context"

// ContactFilters are the person and company filters shared by GET /v1/contacts,
// GET /v1/contacts/count and POST /v1/contacts/discover. A list matches any of its
// items; the negate_ lists exclude.
type ContactFilters struct {
	Seniority            []string `json:"seniority,omitempty"`
	NegateSeniority      []string `json:"negate_seniority,omitempty"`
	Department           []string `json:"department,omitempty"`
	NegateDepartment     []string `json:"negate_department,omitempty"`
	Skills               []string `json:"skills,omitempty"`
	Name                 string   `json:"name,omitempty"`
	Title                []string `json:"title,omitempty"`
	NegateTitle          []string `json:"negate_title,omitempty"`
	Summary              []string `json:"summary,omitempty"`
	NegateSummary        []string `json:"negate_summary,omitempty"`
	PersonCountry        []string `json:"person_country,omitempty"`
	NegatePersonCountry  []string `json:"negate_person_country,omitempty"`
	PersonState          []string `json:"person_state,omitempty"`
	HasEmail             *bool    `json:"has_email,omitempty"`
	EmailValidated       *bool    `json:"email_validated,omitempty"`
	HasPhone             *bool    `json:"has_phone,omitempty"`
	HasMobile            *bool    `json:"has_mobile,omitempty"`
	HasLinkedIn          *bool    `json:"has_linkedin,omitempty"`
	MinConnections       int      `json:"min_connections,omitempty"`
	JobstartDate         string   `json:"jobstart_date,omitempty"`
	FilterIndustry       []string `json:"filter_industry,omitempty"`
	NegateFilterIndustry []string `json:"negate_filter_industry,omitempty"`
	FilterCountry        []string `json:"filter_country,omitempty"`
	NegateFilterCountry  []string `json:"negate_filter_country,omitempty"`
	FilterState          []string `json:"filter_state,omitempty"`
	NegateFilterState    []string `json:"negate_filter_state,omitempty"`
	EmployeeRange        string   `json:"employee_range,omitempty"`
	RevenueRange         string   `json:"revenue_range,omitempty"`
}

// ContactSearch is a contact search: the query parameters of GET /v1/contacts and the
// body of POST /v1/contacts/discover.
type ContactSearch struct {
	ContactFilters
	PersonaID        []int64  `json:"persona_id,omitempty"`
	ICPPrompt        string   `json:"icp_prompt,omitempty"`
	ICPText          string   `json:"icp_text,omitempty"`
	Domain           []string `json:"domain,omitempty"`
	InclusionQueryID []string `json:"inclusion_query_id,omitempty"`
	ExclusionQueryID []string `json:"exclusion_query_id,omitempty"`
	MaxRecords       int      `json:"max_records,omitempty"`
	MaxCompanies     int      `json:"max_companies,omitempty"`
	Offset           int      `json:"offset,omitempty"`
	// ResultsByCompany caps the contacts per company; nil sends none (the API's
	// default), and a pointer to 0 removes the cap (needed to page with Offset).
	ResultsByCompany      *int  `json:"results_by_company,omitempty"`
	IncludeSearchContacts *bool `json:"include_search_contacts,omitempty"`
	Consensus             int   `json:"consensus,omitempty"`
}

// Phone is a phone number of a contact.
type Phone struct {
	Phone string `json:"phone"`
	Type  string `json:"type"`
}

// Contact is one person.
type Contact struct {
	PersonaID      int64    `json:"persona_id"`
	Name           string   `json:"name"`
	Title          string   `json:"title"`
	Seniority      string   `json:"seniority"`
	Department     string   `json:"department"`
	Summary        *string  `json:"summary"`
	Skills         []string `json:"skills"`
	Email          *string  `json:"email"`
	EmailValidated bool     `json:"email_validated"`
	Phone          []Phone  `json:"phone"`
	SocialURLs     []string `json:"social_urls"`
	Connections    int      `json:"connections"`
	JobstartDate   *string  `json:"jobstart_date"`
	Country        string   `json:"country"`
	State          string   `json:"state"`
	Domain         string   `json:"domain"`
	CompanyName    string   `json:"company_name"`
	Industry       []string `json:"industry"`
	Employees      string   `json:"employees"`
	RevenueRange   string   `json:"revenue_range"`
	Similarity     int      `json:"similarity"`
}

// CompanyEntry is one company of a contact search result, with its contacts.
type CompanyEntry struct {
	Domain                 string             `json:"domain"`
	Name                   string             `json:"name"`
	Address                *CompanyRegion     `json:"address"`
	Employees              string             `json:"employees"`
	RevenueRange           string             `json:"revenue_range"`
	IndustryGroups         map[string]float64 `json:"industry_groups"`
	EmailPattern           *string            `json:"email_pattern"`
	EmailPatternConfidence *float64           `json:"email_pattern_confidence"`
	EmailPatternGuess      *string            `json:"email_pattern_guess"`
	Contacts               []Contact          `json:"contacts"`
}

// CompanyRegion is the country and state of a company.
type CompanyRegion struct {
	Country string `json:"country"`
	State   string `json:"state"`
}

// ContactSearchResult is the answer of POST /v1/contacts/discover: the companies by
// domain.
type ContactSearchResult struct {
	Results       map[string]CompanyEntry `json:"results"`
	TotalContacts int                     `json:"total_contacts"`
	TotalDomains  int                     `json:"total_domains"`
	// Order is Results' domains in the answer's order: the rank order.
	Order []string `json:"-"`
}

// ContactCount is the answer of GET /v1/contacts/count.
type ContactCount struct {
	Count int `json:"count"`
}

// LookupParams names one contact by persona id, LinkedIn URL or email.
type LookupParams struct {
	PersonaID int64  `json:"persona_id,omitempty"`
	LinkedIn  string `json:"linkedin,omitempty"`
	Email     string `json:"email,omitempty"`
}

// ContactLookup is the answer of GET /v1/contacts/lookup.
type ContactLookup struct {
	PersonaID   int64   `json:"persona_id"`
	Name        string  `json:"name"`
	Title       string  `json:"title"`
	Summary     *string `json:"summary"`
	Domain      string  `json:"domain"`
	CompanyName string  `json:"company_name"`
}

// ListContacts calls GET /v1/contacts: the contacts a search finds, as a flat list.
func (c *Client) ListContacts(ctx context.Context, search ContactSearch) ([]Contact, *Response, error) {
	var out []Contact
	resp, err := c.call(ctx, request{op: opGetContacts, query: search}, &out)
	return out, resp, err
}

// CountContacts calls GET /v1/contacts/count: how many contacts the filters match.
func (c *Client) CountContacts(ctx context.Context, filters ContactFilters) (*ContactCount, *Response, error) {
	return callFor[ContactCount](ctx, c, request{op: opGetContactCount, query: filters})
}

// DiscoverContacts calls POST /v1/contacts/discover: the contacts a search finds,
// grouped by company.
func (c *Client) DiscoverContacts(ctx context.Context, search ContactSearch) (*ContactSearchResult, *Response, error) {
	return callFor[ContactSearchResult](ctx, c, request{op: opPostDiscover, json: search})
}

// LookupContact calls GET /v1/contacts/lookup.
func (c *Client) LookupContact(ctx context.Context, p LookupParams) (*ContactLookup, *Response, error) {
	return callFor[ContactLookup](ctx, c, request{op: opGetLookup, query: p})
}

// callFor makes the call r and decodes its answer as a T: the body of most typed
// methods. On an error the answer is nil and the Response (when there was one) is kept.
func callFor[T any](ctx context.Context, c *Client, r request) (*T, *Response, error) {
	var out T
	resp, err := c.call(ctx, r, &out)
	if err != nil {
		return nil, resp, err
	}
	return &out, resp, nil
}
