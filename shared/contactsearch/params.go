package contactsearch

import (
	"bytes"
	"encoding/json"
	"reflect"
	"strconv"
	"strings"
	"time"

	"github.com/firmoapi/firmo/shared/apperr"
	"github.com/firmoapi/firmo/shared/domain"
	"github.com/firmoapi/firmo/shared/geo"
	"github.com/firmoapi/firmo/shared/industry"
	"github.com/firmoapi/firmo/shared/title"
)

// Strings is a list parameter: a JSON array of strings, or one string for a list of one.
type Strings []string

func (s *Strings) UnmarshalJSON(b []byte) error {
	b = bytes.TrimSpace(b)
	if string(b) == "null" {
		*s = nil
		return nil
	}
	var one string
	if json.Unmarshal(b, &one) == nil {
		*s = Strings{one}
		return nil
	}
	var many []string
	if err := json.Unmarshal(b, &many); err != nil {
		return &json.UnmarshalTypeError{Value: "value", Type: reflect.TypeOf(many)}
	}
	*s = many
	return nil
}

// IDs is persona_id: an array of integers or one integer.
type IDs []int64

func (s *IDs) UnmarshalJSON(b []byte) error {
	b = bytes.TrimSpace(b)
	var one int64
	if json.Unmarshal(b, &one) == nil {
		*s = IDs{one}
		return nil
	}
	var many []int64
	if err := json.Unmarshal(b, &many); err != nil {
		return &json.UnmarshalTypeError{Value: "value", Type: reflect.TypeOf(many)}
	}
	*s = many
	return nil
}

// Params are the parameters of POST /v1/contacts/discover, with the API reference's names. The
// count and legacy list endpoints take the same vocabulary (count: the filters only).
type Params struct {
	PersonaID        IDs     `json:"persona_id,omitempty"`
	IcpPrompt        string  `json:"icp_prompt,omitempty"`
	IcpText          string  `json:"icp_text,omitempty"`
	Domain           Strings `json:"domain,omitempty"`
	InclusionQueryID Strings `json:"inclusion_query_id,omitempty"`
	ExclusionQueryID Strings `json:"exclusion_query_id,omitempty"`

	Seniority           Strings `json:"seniority,omitempty"`
	NegateSeniority     Strings `json:"negate_seniority,omitempty"`
	Department          Strings `json:"department,omitempty"`
	NegateDepartment    Strings `json:"negate_department,omitempty"`
	Skills              Strings `json:"skills,omitempty"`
	Name                string  `json:"name,omitempty"`
	Title               Strings `json:"title,omitempty"`
	NegateTitle         Strings `json:"negate_title,omitempty"`
	Summary             Strings `json:"summary,omitempty"`
	NegateSummary       Strings `json:"negate_summary,omitempty"`
	PersonCountry       Strings `json:"person_country,omitempty"`
	NegatePersonCountry Strings `json:"negate_person_country,omitempty"`
	PersonState         Strings `json:"person_state,omitempty"`

	HasEmail       *bool  `json:"has_email,omitempty"`
	EmailValidated *bool  `json:"email_validated,omitempty"`
	HasPhone       *bool  `json:"has_phone,omitempty"`
	HasMobile      *bool  `json:"has_mobile,omitempty"`
	HasLinkedin    *bool  `json:"has_linkedin,omitempty"`
	MinConnections *int   `json:"min_connections,omitempty"`
	JobstartDate   string `json:"jobstart_date,omitempty"`

	FilterIndustry       Strings         `json:"filter_industry,omitempty"`
	NegateFilterIndustry Strings         `json:"negate_filter_industry,omitempty"`
	FilterCountry        Strings         `json:"filter_country,omitempty"`
	NegateFilterCountry  Strings         `json:"negate_filter_country,omitempty"`
	FilterState          Strings         `json:"filter_state,omitempty"`
	NegateFilterState    Strings         `json:"negate_filter_state,omitempty"`
	EmployeeRange        string          `json:"employee_range,omitempty"`
	RevenueRange         json.RawMessage `json:"revenue_range,omitempty"` // deprecated: accepted, ignored

	MaxRecords            *int `json:"max_records,omitempty"`
	MaxCompanies          *int `json:"max_companies,omitempty"`
	Offset                int  `json:"offset,omitempty"`
	ResultsByCompany      *int `json:"results_by_company,omitempty"`
	IncludeSearchContacts bool `json:"include_search_contacts,omitempty"`
	Consensus             *int `json:"consensus,omitempty"`
}

// Limits of the API reference.
const (
	MaxPersonaIDs           = 10
	DefaultMaxRecords       = 100
	MinMaxRecords           = 20
	MaxMaxRecords           = 10_000
	MaxMaxCompanies         = 10_000
	DefaultResultsByCompany = 5
	MaxResultsByCompany     = 100
	MaxConsensus            = 20
	// CompaniesTotalCap caps the contacts of a max_companies search.
	CompaniesTotalCap = 10_000
	maxTextLen        = 5000
)

// Filters are validated person, contact-data and company filters.
type Filters struct {
	Seniority, NegSeniority   set
	Department, NegDepartment set
	Skills                    set // lowercased; a contact matches with any of them
	Name                      string
	Title, NegTitle           *title.Query
	Summary, NegSummary       [][]string // each term: its folded words, all required
	PersonCountry, NegPersonC set
	PersonState               set // full ISO 3166-2 codes
	personStateGiven          bool
	HasEmail, EmailValidated  bool
	HasPhone, HasMobile       bool
	HasLinkedin               bool
	MinConnections            int
	JobFrom, JobTo            string // YYYY-MM-DD; JobTo "" means open
	Industry, NegIndustry     set
	Country, NegCountry       set
	State, NegState           set
	stateGiven                bool
	Employees                 set // employee buckets
	Domains                   set // from `domain` (and an icp_prompt company search)
}

type set map[string]bool

func setOf(vals []string) set {
	if len(vals) == 0 {
		return nil
	}
	s := make(set, len(vals))
	for _, v := range vals {
		s[v] = true
	}
	return s
}

// Request is a validated discover request.
type Request struct {
	Params     Params
	Filters    Filters
	PersonaIDs []int64
	Text       string // the semantic text: icp_text, or icp_prompt cleaned
	Prompt     *Prompt
	Limits     Limits
	Consensus  int
	Inclusion  []string
	Exclusion  []string
}

// Similarity reports the similarity mode.
func (r Request) Similarity() bool { return len(r.PersonaIDs) > 0 || r.Text != "" || r.Prompt != nil }

// Validate checks every parameter and builds the request; a bad parameter is a 422
// naming it.
func Validate(p Params) (Request, error) {
	req := Request{Params: p}
	if len(p.PersonaID) > MaxPersonaIDs {
		return req, apperr.Invalid("persona_id", "at most %d persona ids", MaxPersonaIDs)
	}
	for _, id := range p.PersonaID {
		if id <= 0 {
			return req, apperr.Invalid("persona_id", "persona ids are positive integers")
		}
	}
	req.PersonaIDs = p.PersonaID
	if len(p.IcpText) > maxTextLen || len(p.IcpPrompt) > maxTextLen {
		return req, apperr.Invalid("icp_text", "icp_text and icp_prompt are at most %d bytes", maxTextLen)
	}
	if s := strings.TrimSpace(p.IcpText); s != "" {
		req.Text = s
	} else if p.IcpText != "" {
		return req, apperr.Invalid("icp_text", "icp_text is blank")
	}
	f, err := validateFilters(p)
	if err != nil {
		return req, err
	}
	if s := strings.TrimSpace(p.IcpPrompt); s != "" {
		pr := ParsePrompt(s)
		req.Prompt = &pr
		if req.Text == "" {
			req.Text = pr.Text
		}
	} else if p.IcpPrompt != "" {
		return req, apperr.Invalid("icp_prompt", "icp_prompt is blank")
	}
	req.Filters = f
	req.Consensus = 1
	if p.Consensus != nil {
		if *p.Consensus < 1 || *p.Consensus > MaxConsensus {
			return req, apperr.Invalid("consensus", "consensus must be from 1 to %d", MaxConsensus)
		}
		req.Consensus = *p.Consensus
	}
	if req.Limits, err = validateLimits(p); err != nil {
		return req, err
	}
	req.Inclusion, req.Exclusion = p.InclusionQueryID, p.ExclusionQueryID
	return req, nil
}

func validateLimits(p Params) (Limits, error) {
	l := Limits{MaxRecords: DefaultMaxRecords, PerCompany: DefaultResultsByCompany, Offset: p.Offset}
	if p.MaxRecords != nil && p.MaxCompanies != nil {
		return l, apperr.Invalid("max_companies", "pass max_records or max_companies, not both")
	}
	if p.MaxRecords != nil {
		if *p.MaxRecords < MinMaxRecords || *p.MaxRecords > MaxMaxRecords {
			return l, apperr.Invalid("max_records", "max_records must be from %d to %d", MinMaxRecords, MaxMaxRecords)
		}
		l.MaxRecords = *p.MaxRecords
	}
	if p.MaxCompanies != nil {
		if *p.MaxCompanies < 1 || *p.MaxCompanies > MaxMaxCompanies {
			return l, apperr.Invalid("max_companies", "max_companies must be from 1 to %d", MaxMaxCompanies)
		}
		l.MaxRecords, l.MaxCompanies = 0, *p.MaxCompanies
	}
	if p.ResultsByCompany != nil {
		if *p.ResultsByCompany < 0 || *p.ResultsByCompany > MaxResultsByCompany {
			return l, apperr.Invalid("results_by_company", "results_by_company must be from 0 to %d", MaxResultsByCompany)
		}
		l.PerCompany = *p.ResultsByCompany
	}
	if p.Offset < 0 {
		return l, apperr.Invalid("offset", "offset must not be negative")
	}
	return l, nil
}

func validateFilters(p Params) (Filters, error) {
	var f Filters
	for _, c := range []struct {
		field string
		vals  []string
		dst   *set
	}{{"seniority", p.Seniority, &f.Seniority}, {"negate_seniority", p.NegateSeniority, &f.NegSeniority}} {
		for _, v := range c.vals {
			if !title.ValidSeniority(v) {
				return f, apperr.Invalid(c.field, "%q is not a seniority; the values are %s", v, strings.Join(title.Seniorities(), ", "))
			}
		}
		*c.dst = setOf(c.vals)
	}
	for _, c := range []struct {
		field string
		vals  []string
		dst   *set
	}{{"department", p.Department, &f.Department}, {"negate_department", p.NegateDepartment, &f.NegDepartment}} {
		for _, v := range c.vals {
			if !title.ValidDepartment(v) {
				return f, apperr.Invalid(c.field, "%q is not one of the 15 department values (exact, case-sensitive): %s", v, strings.Join(title.Departments(), ", "))
			}
		}
		*c.dst = setOf(c.vals)
	}
	var skills []string
	for _, s := range p.Skills {
		if s = strings.ToLower(strings.TrimSpace(s)); s != "" {
			skills = append(skills, s)
		}
	}
	f.Skills = setOf(skills)
	f.Name = fold(p.Name)
	var err error
	if f.Title, err = titleQuery("title", p.Title); err != nil {
		return f, err
	}
	if f.NegTitle, err = titleQuery("negate_title", p.NegateTitle); err != nil {
		return f, err
	}
	if f.Summary, err = terms("summary", p.Summary); err != nil {
		return f, err
	}
	if f.NegSummary, err = terms("negate_summary", p.NegateSummary); err != nil {
		return f, err
	}
	pc, err := countries("person_country", p.PersonCountry)
	if err != nil {
		return f, err
	}
	npc, err := countries("negate_person_country", p.NegatePersonCountry)
	if err != nil {
		return f, err
	}
	f.PersonCountry, f.NegPersonC = setOf(pc), setOf(npc)
	if len(p.PersonState) > 0 {
		// Unresolvable names are dropped, not rejected (the API reference); when none resolves the
		// filter restricts nothing.
		f.PersonState = setOf(geo.ResolveStates(pc, p.PersonState))
	}
	f.HasEmail, f.EmailValidated = isTrue(p.HasEmail), isTrue(p.EmailValidated)
	f.HasPhone, f.HasMobile, f.HasLinkedin = isTrue(p.HasPhone), isTrue(p.HasMobile), isTrue(p.HasLinkedin)
	if p.MinConnections != nil {
		if *p.MinConnections < 0 {
			return f, apperr.Invalid("min_connections", "min_connections must not be negative")
		}
		f.MinConnections = *p.MinConnections
	}
	if p.JobstartDate != "" {
		from, to, _ := strings.Cut(p.JobstartDate, ",")
		from, to = strings.TrimSpace(from), strings.TrimSpace(to)
		for _, d := range []string{from, to} {
			if d == "" && d == to {
				continue
			}
			if _, err := time.Parse(time.DateOnly, d); err != nil {
				return f, apperr.Invalid("jobstart_date", "jobstart_date is YYYY-MM-DD or YYYY-MM-DD,YYYY-MM-DD")
			}
		}
		if to != "" && to < from {
			return f, apperr.Invalid("jobstart_date", "the range ends before it starts")
		}
		f.JobFrom, f.JobTo = from, to
	}
	for _, c := range []struct {
		field string
		vals  []string
		dst   *set
	}{{"filter_industry", p.FilterIndustry, &f.Industry}, {"negate_filter_industry", p.NegateFilterIndustry, &f.NegIndustry}} {
		for _, v := range c.vals {
			if !industry.Valid(v) {
				return f, apperr.Invalid(c.field, "%q is not an industry value (uppercase enum, see GET /v1/industries)", v)
			}
		}
		*c.dst = setOf(c.vals)
	}
	fc, err := countries("filter_country", p.FilterCountry)
	if err != nil {
		return f, err
	}
	nfc, err := countries("negate_filter_country", p.NegateFilterCountry)
	if err != nil {
		return f, err
	}
	f.Country, f.NegCountry = setOf(fc), setOf(nfc)
	if len(p.FilterState) > 0 {
		f.State = setOf(geo.ResolveStates(fc, p.FilterState))
	}
	if len(p.NegateFilterState) > 0 {
		f.NegState = setOf(geo.ResolveStates(fc, p.NegateFilterState))
	}
	if p.EmployeeRange != "" {
		b, err := EmployeeBuckets(p.EmployeeRange)
		if err != nil {
			return f, err
		}
		f.Employees = setOf(b)
	}
	var doms []string
	for _, d := range p.Domain {
		n, err := domain.Normalize(d)
		if err != nil {
			return f, apperr.Invalid("domain", "%q is not a domain", d)
		}
		doms = append(doms, n)
	}
	f.Domains = setOf(doms)
	return f, nil
}

func isTrue(b *bool) bool { return b != nil && *b }

func titleQuery(field string, items []string) (*title.Query, error) {
	if len(items) == 0 {
		return nil, nil
	}
	q, err := title.ParseQuery(items)
	if err != nil {
		if e, ok := err.(*apperr.Error); ok {
			return nil, apperr.Invalid(field, "%s", e.Message)
		}
		return nil, apperr.Invalid(field, "%v", err)
	}
	return &q, nil
}

func terms(field string, items []string) ([][]string, error) {
	var out [][]string
	for _, it := range items {
		words := strings.Fields(fold(it))
		if len(words) == 0 {
			return nil, apperr.Invalid(field, "a %s term is blank", field)
		}
		out = append(out, words)
	}
	return out, nil
}

func countries(field string, vals []string) ([]string, error) {
	if len(vals) == 0 {
		return nil, nil
	}
	return geo.ExpandCountriesField(field, vals)
}

// employeeBounds are the head counts of the API reference's buckets; the last is open.
var employeeBounds = []struct {
	bucket   string
	low, top int
}{
	{"1-10", 1, 10}, {"11-50", 11, 50}, {"51-200", 51, 200}, {"201-500", 201, 500}, {"501-1000", 501, 1000},
	{"1001-5000", 1001, 5000}, {"5001-10000", 5001, 10000}, {"10001+", 10001, 1 << 62},
}

// EmployeeBuckets maps an employee_range "min,max" (either side may be empty for an
// open end) onto the buckets it overlaps: "30,300" is 11-50, 51-200 and 201-500.
func EmployeeBuckets(r string) ([]string, error) {
	lo, hi, ok := strings.Cut(r, ",")
	if !ok {
		return nil, apperr.Invalid("employee_range", "employee_range is min,max (for example 50,500)")
	}
	min, max := 0, 1<<62
	var err error
	if s := strings.TrimSpace(lo); s != "" {
		if min, err = strconv.Atoi(s); err != nil || min < 0 {
			return nil, apperr.Invalid("employee_range", "employee_range min %q is not a count", s)
		}
	}
	if s := strings.TrimSpace(hi); s != "" {
		if max, err = strconv.Atoi(s); err != nil || max < 0 {
			return nil, apperr.Invalid("employee_range", "employee_range max %q is not a count", s)
		}
	}
	if max < min {
		return nil, apperr.Invalid("employee_range", "employee_range max is below min")
	}
	var out []string
	for _, b := range employeeBounds {
		if b.low <= max && b.top >= min {
			out = append(out, b.bucket)
		}
	}
	if len(out) == 0 {
		return nil, apperr.Invalid("employee_range", "employee_range %q covers no bucket", r)
	}
	return out, nil
}
