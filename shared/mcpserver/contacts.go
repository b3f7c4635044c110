package mcpserver

import (
	"context"
	"fmt"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/firmoapi/firmo/shared/client"
	"github.com/firmoapi/firmo/shared/industry"
	"github.com/firmoapi/firmo/shared/title"
)

// ContactFilters are the person, contact-data and company filters of contact search and
// count, with the API's parameter names (POST /v1/contacts/discover, GET
// /v1/contacts/count).
type ContactFilters struct {
	Seniority            []string `json:"seniority,omitempty" jsonschema:"keep contacts at any of these levels"`
	NegateSeniority      []string `json:"negate_seniority,omitempty" jsonschema:"drop contacts at these levels"`
	Department           []string `json:"department,omitempty" jsonschema:"keep contacts in any of these departments (exact, case-sensitive)"`
	NegateDepartment     []string `json:"negate_department,omitempty" jsonschema:"drop contacts in these departments"`
	Title                []string `json:"title,omitempty" jsonschema:"job title terms, any of which must match; quote a phrase (\"head of sales\"), prefix + for a required term; CFO and Chief Financial Officer match each other unless quoted"`
	NegateTitle          []string `json:"negate_title,omitempty" jsonschema:"drop contacts whose title matches any of these terms"`
	Skills               []string `json:"skills,omitempty" jsonschema:"keep contacts with any of these skills (case-insensitive)"`
	Name                 string   `json:"name,omitempty" jsonschema:"part of the person's name"`
	Summary              []string `json:"summary,omitempty" jsonschema:"words the profile summary must contain (each term: every word)"`
	PersonCountry        []string `json:"person_country,omitempty" jsonschema:"where the person is: ISO 3166-1 alpha-2 codes (DE, US) or region codes ANZ, APAC, ASEAN, BENELUX, CEE, DACH, EMEA, EU, GCC, LATAM, MENA, NORDICS"`
	NegatePersonCountry  []string `json:"negate_person_country,omitempty" jsonschema:"drop people in these countries or regions"`
	PersonState          []string `json:"person_state,omitempty" jsonschema:"the person's state: ISO 3166-2 code (US-CA) or full name, within person_country"`
	FilterIndustry       []string `json:"filter_industry,omitempty" jsonschema:"the employer's industry (uppercase enum)"`
	NegateFilterIndustry []string `json:"negate_filter_industry,omitempty" jsonschema:"drop employers in these industries"`
	FilterCountry        []string `json:"filter_country,omitempty" jsonschema:"the employer's country: alpha-2 codes or region codes, as person_country"`
	NegateFilterCountry  []string `json:"negate_filter_country,omitempty" jsonschema:"drop employers in these countries or regions"`
	FilterState          []string `json:"filter_state,omitempty" jsonschema:"the employer's state (ISO 3166-2 code or full name), within filter_country"`
	EmployeeRange        string   `json:"employee_range,omitempty" jsonschema:"employer head count as min,max (either side may be empty): 50,200 or 1000,"`
	HasEmail             *bool    `json:"has_email,omitempty" jsonschema:"true: only contacts with an email address"`
	EmailValidated       *bool    `json:"email_validated,omitempty" jsonschema:"true: only contacts whose address passed a deliverability check"`
	HasPhone             *bool    `json:"has_phone,omitempty" jsonschema:"true: only contacts with a phone number"`
	HasMobile            *bool    `json:"has_mobile,omitempty" jsonschema:"true: only contacts with a mobile number"`
	HasLinkedin          *bool    `json:"has_linkedin,omitempty" jsonschema:"true: only contacts with a LinkedIn profile"`
	MinConnections       *int     `json:"min_connections,omitempty" jsonschema:"minimum professional-network connections"`
	JobstartDate         string   `json:"jobstart_date,omitempty" jsonschema:"started the current role on or after YYYY-MM-DD, or within YYYY-MM-DD,YYYY-MM-DD"`
}

// SearchContactsInput is the input of search_contacts.
type SearchContactsInput struct {
	IcpPrompt string   `json:"icp_prompt,omitempty" jsonschema:"who you are looking for, in plain words (\"VP engineering at SaaS companies in Germany, 50-500 employees\"): seniority, department, industry, country, size and title filters are read from it; preferred over setting filters by hand"`
	IcpText   string   `json:"icp_text,omitempty" jsonschema:"a profile to rank contacts by similarity, without extracting filters"`
	PersonaID []int64  `json:"persona_id,omitempty" jsonschema:"find people similar to these contacts (persona ids from earlier results)"`
	Domain    []string `json:"domain,omitempty" jsonschema:"only contacts at these company domains"`
	ContactFilters
	InclusionQueryID []string `json:"inclusion_query_id,omitempty" jsonschema:"only companies or contacts of these saved lists"`
	ExclusionQueryID []string `json:"exclusion_query_id,omitempty" jsonschema:"leave out the companies or contacts of these saved lists (a CRM suppression list, say)"`
	MaxRecords       *int     `json:"max_records,omitempty" jsonschema:"how many contacts to fetch and pay for"`
	ResultsByCompany *int     `json:"results_by_company,omitempty" jsonschema:"at most this many contacts per company; 0 removes the cap (needed to page with offset)"`
	Offset           int      `json:"offset,omitempty" jsonschema:"skip this many ranked contacts (only with results_by_company 0)"`
}

// CountContactsInput is the input of count_contacts: the filters alone.
type CountContactsInput struct {
	ContactFilters
}

// ContactRow is one contact of search_contacts, its main fields.
type ContactRow struct {
	PersonaID      int64   `json:"persona_id"`
	Name           string  `json:"name"`
	Title          string  `json:"title"`
	Department     string  `json:"department"`
	Seniority      string  `json:"seniority"`
	CompanyName    string  `json:"company_name"`
	Domain         string  `json:"domain"`
	Country        string  `json:"country"`
	Email          *string `json:"email"`
	EmailValidated bool    `json:"email_validated"`
	Phone          string  `json:"phone,omitempty"`
	LinkedIn       string  `json:"linkedin,omitempty"`
	JobstartDate   *string `json:"jobstart_date,omitempty"`
	Similarity     *int    `json:"similarity,omitempty"`
}

// CompanyRow is one company of search_contacts.
type CompanyRow struct {
	Domain       string  `json:"domain"`
	Name         string  `json:"name"`
	Industry     string  `json:"industry,omitempty"`
	Employees    string  `json:"employees"`
	Country      string  `json:"country"`
	State        string  `json:"state,omitempty"`
	EmailPattern *string `json:"email_pattern"`
	Contacts     int     `json:"contacts"`
}

// SearchContactsOutput is the answer of search_contacts.
type SearchContactsOutput struct {
	TotalContacts  int          `json:"total_contacts" jsonschema:"contacts the search returned (and billed, when net-new)"`
	TotalDomains   int          `json:"total_domains" jsonschema:"companies those contacts work at"`
	Contacts       []ContactRow `json:"contacts" jsonschema:"the first contacts, best first"`
	Companies      []CompanyRow `json:"companies" jsonschema:"their companies, in order of their best contact"`
	CreditsCharged int64        `json:"credits_charged"`
	Note           string       `json:"note,omitempty"`
}

// Limits of contact search in the API reference (a test holds them equal to
// shared/contactsearch's, which the API enforces).
const (
	minMaxRecords       = 20
	maxPersonaIDs       = 10
	maxResultsByCompany = 100
)

// Agent-facing limits of search_contacts: a page small enough to read whole, and no
// more than the answer shows, since every contact and company returned is billed. The
// API allows max_records up to 10,000; bulk exports belong to the API or `firmo api
// discover`, not to an agent's context.
const (
	searchDefaultRecords = maxRows
	searchMaxRecords     = maxRows
)

func filterRules() map[string][]rule {
	return map[string][]rule{
		"seniority":              {enum(title.Seniorities()...)},
		"negate_seniority":       {enum(title.Seniorities()...)},
		"department":             {enum(title.Departments()...)},
		"negate_department":      {enum(title.Departments()...)},
		"filter_industry":        {enum(industry.All()...)},
		"negate_filter_industry": {enum(industry.All()...)},
		"min_connections":        {atLeast(0)},
	}
}

func (t *tools) addContactTools(s *mcp.Server) {
	rules := filterRules()
	rules["persona_id"] = []rule{maxItems(maxPersonaIDs)}
	rules["max_records"] = []rule{between(minMaxRecords, searchMaxRecords), defaultValue(searchDefaultRecords)}
	rules["results_by_company"] = []rule{between(0, maxResultsByCompany)}
	rules["offset"] = []rule{atLeast(0)}
	mcp.AddTool(s, &mcp.Tool{
		Name:        "search_contacts",
		Title:       "Search contacts",
		Annotations: readOnly("Search contacts"),
		Description: `Find people (B2B contacts) by who they are and where they work: describe them in icp_prompt, or set filters (seniority, department, job title, country, the employer's industry, country and size, company domains). ` +
			`Answers the number of contacts returned, the first 25 with their main fields (name, title, department, seniority, company, email, phone, LinkedIn) and their companies. ` +
			`Cost: every contact and company returned is billed as a record (net-new per 90 days, at the plan's rate per 1,000 records), so keep max_records small (default 25) and size the search first with count_contacts, which is free. ` +
			`At most 5 contacts per company unless results_by_company says otherwise; to page, set results_by_company 0 and raise offset.`,
		InputSchema:  schemaFor[SearchContactsInput](rules),
		OutputSchema: outputSchemaFor[SearchContactsOutput](nil),
	}, t.searchContacts)
	mcp.AddTool(s, &mcp.Tool{
		Name:        "count_contacts",
		Title:       "Count contacts",
		Annotations: readOnly("Count contacts"),
		Description: `Count the contacts matching person and company filters (seniority, department, job title, skills, country, state, the employer's industry, country and size, contact data such as has_email). ` +
			`Free: use it to size a search before search_contacts, which bills every contact it returns.`,
		InputSchema: schemaFor[CountContactsInput](filterRules()),
		OutputSchema: outputSchemaFor[client.ContactCount](map[string][]rule{
			"count": {describe("contacts matching every filter")},
		}),
	}, t.countContacts)
}

func (t *tools) searchContacts(ctx context.Context, _ *mcp.CallToolRequest, in SearchContactsInput) (*mcp.CallToolResult, SearchContactsOutput, error) {
	res, resp, err := t.discover(ctx, in)
	if err != nil {
		return nil, SearchContactsOutput{}, toolError("search_contacts", err)
	}
	similarity := in.IcpPrompt != "" || in.IcpText != "" || len(in.PersonaID) > 0
	out := SearchContactsOutput{TotalContacts: res.TotalContacts, TotalDomains: res.TotalDomains,
		Contacts: []ContactRow{}, Companies: []CompanyRow{}, CreditsCharged: resp.Credits}
	for _, domain := range res.Order {
		e := res.Results[domain]
		if len(out.Companies) < maxRows {
			out.Companies = append(out.Companies, companyRow(e))
		}
		for _, c := range e.Contacts {
			if len(out.Contacts) < maxRows {
				out.Contacts = append(out.Contacts, contactRow(c, e, similarity))
			}
		}
	}
	out.Note = searchNote(in, out)
	return nil, out, nil
}

// discover runs the search through the client.
func (t *tools) discover(ctx context.Context, in SearchContactsInput) (*client.ContactSearchResult, *client.Response, error) {
	return t.api.DiscoverContacts(ctx, in.search())
}

// search is the client's request for the input.
func (in SearchContactsInput) search() client.ContactSearch {
	s := client.ContactSearch{ContactFilters: in.ContactFilters.api(), PersonaID: in.PersonaID, ICPPrompt: in.IcpPrompt,
		ICPText: in.IcpText, Domain: in.Domain, InclusionQueryID: in.InclusionQueryID, ExclusionQueryID: in.ExclusionQueryID,
		Offset: in.Offset, ResultsByCompany: in.ResultsByCompany}
	if in.MaxRecords != nil {
		s.MaxRecords = *in.MaxRecords
	}
	return s
}

// api is the client's filters for the input's (a min_connections of 0, which filters
// nothing, is not sent).
func (f ContactFilters) api() client.ContactFilters {
	c := client.ContactFilters{Seniority: f.Seniority, NegateSeniority: f.NegateSeniority, Department: f.Department,
		NegateDepartment: f.NegateDepartment, Title: f.Title, NegateTitle: f.NegateTitle, Skills: f.Skills, Name: f.Name,
		Summary: f.Summary, PersonCountry: f.PersonCountry, NegatePersonCountry: f.NegatePersonCountry,
		PersonState: f.PersonState, FilterIndustry: f.FilterIndustry, NegateFilterIndustry: f.NegateFilterIndustry,
		FilterCountry: f.FilterCountry, NegateFilterCountry: f.NegateFilterCountry, FilterState: f.FilterState,
		EmployeeRange: f.EmployeeRange, HasEmail: f.HasEmail, EmailValidated: f.EmailValidated, HasPhone: f.HasPhone,
		HasMobile: f.HasMobile, HasLinkedIn: f.HasLinkedin, JobstartDate: f.JobstartDate}
	if f.MinConnections != nil {
		c.MinConnections = *f.MinConnections
	}
	return c
}

// searchNote says what was left out and how to get more.
func searchNote(in SearchContactsInput, out SearchContactsOutput) string {
	var notes []string
	if len(out.Contacts) < out.TotalContacts {
		notes = append(notes, fmt.Sprintf("showing %d of the %d contacts returned (all %d were billed); ask for fewer with max_records", len(out.Contacts), out.TotalContacts, out.TotalContacts))
	}
	if len(out.Companies) < out.TotalDomains {
		notes = append(notes, fmt.Sprintf("showing %d of %d companies", len(out.Companies), out.TotalDomains))
	}
	asked := searchDefaultRecords
	if in.MaxRecords != nil {
		asked = *in.MaxRecords
	}
	if out.TotalContacts >= asked {
		if in.ResultsByCompany != nil && *in.ResultsByCompany == 0 {
			notes = append(notes, fmt.Sprintf("more may match: call again with offset %d for the next page; count_contacts gives the total", in.Offset+out.TotalContacts))
		} else {
			notes = append(notes, "more may match: each company is capped at results_by_company contacts and offset is ignored; to page through every match set results_by_company 0 and raise offset by max_records each call; count_contacts gives the total")
		}
	}
	return strings.Join(notes, "; ")
}

func (t *tools) countContacts(ctx context.Context, _ *mcp.CallToolRequest, in CountContactsInput) (*mcp.CallToolResult, client.ContactCount, error) {
	n, _, err := t.api.CountContacts(ctx, in.ContactFilters.api())
	if err != nil {
		return nil, client.ContactCount{}, toolError("count_contacts", err)
	}
	return nil, *n, nil
}

func companyRow(e client.CompanyEntry) CompanyRow {
	r := CompanyRow{Domain: e.Domain, Name: e.Name, Employees: e.Employees, EmailPattern: e.EmailPattern, Contacts: len(e.Contacts)}
	if e.Address != nil {
		r.Country, r.State = e.Address.Country, e.Address.State
	}
	if top := topKeys(e.IndustryGroups, 1); len(top) == 1 {
		r.Industry = top[0]
	}
	return r
}

func contactRow(p client.Contact, e client.CompanyEntry, similarity bool) ContactRow {
	r := ContactRow{PersonaID: p.PersonaID, Name: p.Name, Title: p.Title, Department: p.Department, Seniority: p.Seniority,
		CompanyName: p.CompanyName, Domain: p.Domain, Country: p.Country, Email: p.Email, EmailValidated: p.EmailValidated,
		JobstartDate: p.JobstartDate}
	if r.CompanyName == "" {
		r.CompanyName = e.Name
	}
	if len(p.Phone) > 0 {
		r.Phone = p.Phone[0].Phone
	}
	for _, u := range p.SocialURLs {
		if strings.Contains(u, "linkedin.") {
			r.LinkedIn = u
			break
		}
	}
	if similarity {
		r.Similarity = &p.Similarity
	}
	return r
}
