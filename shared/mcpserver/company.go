package mcpserver

import (
	"context"
	"fmt"
	"net/http"

	"github.com/google/jsonschema-go/jsonschema"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/firmoapi/firmo/shared/client"
)

// DomainInput is the input of company_profile and company_score.
type DomainInput struct {
	Domain string `json:"domain" jsonschema:"the company's domain (acme.com); a URL or subdomain is reduced to the registrable domain"`
}

// MatchInput is the input of match_company: the parameters of GET /v1/match.
type MatchInput struct {
	Name               string `json:"name" jsonschema:"the company name to match (Acme Corp, Hansen GmbH)"`
	Country            string `json:"country,omitempty" jsonschema:"ISO 3166-1 alpha-2 country of the company, when known"`
	State              string `json:"state,omitempty" jsonschema:"state as ISO 3166-2 code or full name (ignored when it does not resolve)"`
	City               string `json:"city,omitempty"`
	ZipCode            string `json:"zip_code,omitempty"`
	Phone              string `json:"phone,omitempty" jsonschema:"a phone number of the company (E.164 or local)"`
	MinMatchConfidence *int   `json:"min_match_confidence,omitempty" jsonschema:"leave out candidates below this confidence"`
	Strict             *bool  `json:"strict,omitempty" jsonschema:"true: only candidates whose name equals the input after normalisation, no abbreviation expansion"`
	LocalMode          *bool  `json:"local_mode,omitempty" jsonschema:"true: keep country and state while relaxing filters; candidates without a location are left out"`
}

// CompanyProfile is the answer of company_profile: the profile's main fields.
type CompanyProfile struct {
	Domain           string             `json:"domain"`
	Name             string             `json:"name"`
	Status           string             `json:"status" jsonschema:"active or closed"`
	StatusConfidence float64            `json:"status_confidence"`
	Score            int                `json:"score" jsonschema:"1-800, from the certificate history (company_score explains it)"`
	StartDate        *string            `json:"start_date"`
	EndDate          *string            `json:"end_date"`
	Address          client.Address     `json:"address"`
	Phones           []string           `json:"phones"`
	PublicEmails     []string           `json:"public_emails"`
	SocialURLs       []string           `json:"social_urls"`
	Description      string             `json:"description"`
	Keywords         []string           `json:"keywords" jsonschema:"the top keywords, most confident first"`
	IndustryGroups   map[string]float64 `json:"industry_groups"`
	SubIndustry      map[string]float64 `json:"sub_industry"`
	Employees        *string            `json:"employees"`
	RevenueRange     string             `json:"revenue_range"`
	BusinessModel    string             `json:"business_model,omitempty" jsonschema:"the most likely of B2B, B2C, B2G, G2B, G2C, D2C, C2C, C2B"`
	MXProvider       *string            `json:"mx_provider"`
	RedirectDomain   *string            `json:"redirect_domain"`
	UpdateDate       string             `json:"update_date"`
	Note             string             `json:"note,omitempty"`
}

// ScoreOutput is the answer of company_score: the API's answer as the client decodes
// it, plus the confidence the API reference says may be present, which
// client.CompanyScore has no field for.
type ScoreOutput struct {
	client.CompanyScore
	Confidence *float64 `json:"confidence,omitempty"`
}

// scoreSchema is company_score's output schema: ScoreOutput's, with the descriptions
// an agent reads.
func scoreSchema() *jsonschema.Schema {
	return outputSchemaFor[ScoreOutput](map[string][]rule{
		"score":       {describe("0-800, higher is better")},
		"first_event": {describe("date of the first certificate")},
		"parameters":  {describe("the inputs of the score formula (base_score, recency_multiplier, growth_boost, expiration_penalty, lookback_360, lookback_720)")},
	})
}

// MatchRow is one candidate of match_company.
type MatchRow struct {
	Domain          string  `json:"domain"`
	Name            string  `json:"name"`
	MatchConfidence int     `json:"match_confidence" jsonschema:"0-100"`
	Status          string  `json:"status"`
	City            string  `json:"city,omitempty"`
	State           string  `json:"state,omitempty"`
	Country         string  `json:"country,omitempty"`
	Employees       *string `json:"employees"`
	Industry        string  `json:"industry,omitempty"`
	Score           int     `json:"score"`
}

// MatchOutput is the answer of match_company.
type MatchOutput struct {
	Count          int        `json:"count" jsonschema:"candidates at or above min_match_confidence"`
	Matches        []MatchRow `json:"matches" jsonschema:"best first"`
	CreditsCharged int64      `json:"credits_charged"`
	Note           string     `json:"note,omitempty"`
}

// Match confidence limits of the API reference (GET /v1/match).
const (
	minMatchConfidence = 50
	maxMatchConfidence = 100
	// maxMatchRows is the most candidates GET /v1/match answers (its reference: "At
	// most 5 matches"), all of which the tool shows.
	maxMatchRows = 5
)

func (t *tools) addCompanyTools(s *mcp.Server) {
	domainRules := map[string][]rule{"domain": {minLength(1)}}
	mcp.AddTool(s, &mcp.Tool{
		Name:        "company_profile",
		Title:       "Company profile",
		Annotations: readOnly("Company profile"),
		Description: `Read a company's profile by its domain: name, status (active or closed), address, industry and sub-industry, employees and revenue buckets, business model, description, keywords, phones, public emails, social profiles, mail provider, score. ` +
			`Free. Use match_company first when you only have the company's name.`,
		InputSchema:  schemaFor[DomainInput](domainRules),
		OutputSchema: outputSchemaFor[CompanyProfile](nil),
	}, t.companyProfile)
	mcp.AddTool(s, &mcp.Tool{
		Name:         "company_score",
		Title:        "Company score",
		Annotations:  readOnly("Company score"),
		Description:  `Read a company's score (0-800, higher is better) computed from its TLS certificate history: age, recency, growth of the last 360 days against the 360 before, and whether a certificate is still valid; with the formula's inputs. Free.`,
		InputSchema:  schemaFor[DomainInput](domainRules),
		OutputSchema: scoreSchema(),
	}, t.companyScore)
	mcp.AddTool(s, &mcp.Tool{
		Name:        "match_company",
		Title:       "Match a company name",
		Annotations: readOnly("Match a company name"),
		Description: `Find the companies (domains) a company name refers to, ranked by match confidence (0-100; never below 50), narrowed by country, state, city, zip code or phone when given. ` +
			`Answers up to 5 candidates with domain, name, location and confidence. Cost: each candidate returned is billed as a company record (net-new per 90 days, at the plan's rate per 1,000).`,
		InputSchema: schemaFor[MatchInput](map[string][]rule{
			"name":                 {minLength(1)},
			"min_match_confidence": {between(minMatchConfidence, maxMatchConfidence)},
		}),
		OutputSchema: outputSchemaFor[MatchOutput](nil),
	}, t.matchCompany)
}

func (t *tools) companyProfile(ctx context.Context, _ *mcp.CallToolRequest, in DomainInput) (*mcp.CallToolResult, CompanyProfile, error) {
	p, _, err := t.api.Bizdata(ctx, in.Domain)
	if err != nil {
		return nil, CompanyProfile{}, toolError("company_profile", err)
	}
	out := CompanyProfile{Domain: p.Domain, Name: p.Name, Status: string(p.Status.Status), StatusConfidence: p.Status.Confidence,
		Score: p.Score, StartDate: p.StartDate, EndDate: p.EndDate, Address: p.Address,
		Phones: firstN(p.Phones, 3), PublicEmails: firstN(p.PublicEmails, 3), SocialURLs: firstN(p.SocialURLs, 5),
		Description: clip(p.Description, 600), Keywords: topKeys(p.Keywords, 10), IndustryGroups: p.IndustryGroups,
		SubIndustry: derefMap(p.SubIndustry), Employees: (*string)(p.Employees), RevenueRange: string(p.RevenueRange), MXProvider: p.MXProvider,
		RedirectDomain: p.RedirectDomain, UpdateDate: p.UpdateDate}
	if top := topKeys(p.BusinessModel, 1); len(top) == 1 {
		out.BusinessModel = top[0]
	}
	if len(p.Keywords) > len(out.Keywords) || len(p.Phones) > len(out.Phones) || len(p.PublicEmails) > len(out.PublicEmails) ||
		len(p.SocialURLs) > len(out.SocialURLs) || out.Description != p.Description {
		out.Note = "trimmed: the top keywords, the first phones, emails and social profiles, a shortened description; GET /v1/bizdata has the whole profile"
	}
	return nil, out, nil
}

// derefMap is the map a nullable map property points to; null stays null.
func derefMap(m *map[string]float64) map[string]float64 {
	if m == nil {
		return nil
	}
	return *m
}

func (t *tools) companyScore(ctx context.Context, _ *mcp.CallToolRequest, in DomainInput) (*mcp.CallToolResult, ScoreOutput, error) {
	s, resp, err := t.api.Score(ctx, in.Domain)
	if err != nil {
		return nil, ScoreOutput{}, toolError("company_score", err)
	}
	var extra struct {
		Confidence *float64 `json:"confidence"`
	}
	if err := resp.Decode(&extra); err != nil {
		return nil, ScoreOutput{}, toolError("company_score", err)
	}
	return nil, ScoreOutput{CompanyScore: *s, Confidence: extra.Confidence}, nil
}

func (t *tools) matchCompany(ctx context.Context, _ *mcp.CallToolRequest, in MatchInput) (*mcp.CallToolResult, MatchOutput, error) {
	p := client.MatchParams{Name: in.Name, Country: in.Country, State: in.State, City: in.City, ZipCode: in.ZipCode,
		Phone: in.Phone, Strict: in.Strict, LocalMode: in.LocalMode}
	if in.MinMatchConfidence != nil {
		p.MinMatchConfidence = *in.MinMatchConfidence
	}
	ans, resp, err := t.api.Match(ctx, p)
	if err != nil {
		return nil, MatchOutput{}, toolError("match_company", err)
	}
	out := MatchOutput{Matches: []MatchRow{}, CreditsCharged: resp.Credits}
	if resp.Status == http.StatusNoContent {
		out.Note = "no company matches at or above min_match_confidence; try without strict, with fewer location arguments, or another spelling"
		return nil, out, nil
	}
	out.Count = len(ans.Matches)
	for _, m := range firstN(ans.Matches, maxMatchRows) {
		r := MatchRow{Domain: m.Domain, Name: m.Name, MatchConfidence: m.MatchConfidence, Status: string(m.Status.Status),
			City: m.Address.City, State: m.Address.State, Country: m.Address.Country, Employees: (*string)(m.Employees), Score: m.Score}
		if top := topKeys(m.IndustryGroups, 1); len(top) == 1 {
			r.Industry = top[0]
		}
		out.Matches = append(out.Matches, r)
	}
	if out.Count > len(out.Matches) {
		out.Note = fmt.Sprintf("showing the best %d of %d candidates (all were billed); raise min_match_confidence or add a location to narrow them", len(out.Matches), out.Count)
	}
	return nil, out, nil
}
