package client

import "context"

// Address is a company's postal address.
type Address struct {
	Street  string `json:"street"`
	City    string `json:"city"`
	State   string `json:"state"`
	Zip     string `json:"zip"`
	Country string `json:"country"`
}

// CompanyStatus is whether a company is active or closed, with a confidence.
type CompanyStatus struct {
	Status     string  `json:"status"`
	Confidence float64 `json:"confidence"`
}

// CompanyProfile is a company's profile (GET /v1/bizdata).
type CompanyProfile struct {
	Domain         string             `json:"domain"`
	Name           string             `json:"name"`
	Description    string             `json:"description"`
	Address        Address            `json:"address"`
	Latitude       *float64           `json:"latitude"`
	Longitude      *float64           `json:"longitude"`
	GeoPrecision   *string            `json:"geo_precision"`
	Phones         []string           `json:"phones"`
	PublicEmails   []string           `json:"public_emails"`
	SocialURLs     []string           `json:"social_urls"`
	Employees      *string            `json:"employees"`
	RevenueRange   string             `json:"revenue_range"`
	IndustryGroups map[string]float64 `json:"industry_groups"`
	SubIndustry    map[string]any     `json:"sub_industry"`
	BusinessModel  map[string]float64 `json:"business_model"`
	Keywords       map[string]float64 `json:"keywords"`
	Language       *string            `json:"language"`
	MXProvider     *string            `json:"mx_provider"`
	RedirectDomain *string            `json:"redirect_domain"`
	Score          int                `json:"score"`
	Status         CompanyStatus      `json:"status"`
	StartDate      *string            `json:"start_date"`
	EndDate        *string            `json:"end_date"`
	UpdateDate     string             `json:"update_date"`
}

// ScoreConstants are the constants of a company score.
type ScoreConstants struct {
	BaselineCertificates float64 `json:"baseline_certificates"`
	BaselinePoints       float64 `json:"baseline_points"`
	MarketCoefficient    float64 `json:"market_coefficient"`
}

// ScoreParameters are the inputs a company score was computed from.
type ScoreParameters struct {
	BaseScore         float64        `json:"base_score"`
	Constants         ScoreConstants `json:"constants"`
	ExpirationPenalty float64        `json:"expiration_penalty"`
	GrowthBoost       float64        `json:"growth_boost"`
	Lookback360       int            `json:"lookback_360"`
	Lookback720       int            `json:"lookback_720"`
	RecencyMultiplier float64        `json:"recency_multiplier"`
	YearCounts        []int          `json:"year_counts"`
}

// CompanyScore is the answer of GET /v1/score.
type CompanyScore struct {
	Domain     string          `json:"domain"`
	Score      int             `json:"score"`
	ScoredOn   string          `json:"scored_on"`
	FirstEvent *string         `json:"first_event"`
	Parameters ScoreParameters `json:"parameters"`
}

// HistoryParams are the parameters of GET /v1/history.
type HistoryParams struct {
	Domain     string `json:"domain"`
	MaxRecords int    `json:"max_records,omitempty"`
}

// CertificateRecord is one certificate of a company's history.
type CertificateRecord struct {
	FQDN            string   `json:"fqdn"`
	AlternativeFQDN []string `json:"alternative_fqdn"`
	Organization    string   `json:"organization"`
	City            string   `json:"city"`
	State           string   `json:"state"`
	Country         string   `json:"country"`
	DateFrom        string   `json:"date_from"`
	DateTo          string   `json:"date_to"`
	SHA1Fingerprint string   `json:"sha1_fingerprint"`
}

// History is the answer of GET /v1/history.
type History struct {
	Domain       string              `json:"domain"`
	Certificates []CertificateRecord `json:"certificates"`
}

// LabelValue is one entry of a list of choices.
type LabelValue struct {
	Label string `json:"label"`
	Value string `json:"value"`
}

// Industry is one industry with its sub-industries.
type Industry struct {
	Label         string       `json:"label"`
	Value         string       `json:"value"`
	SubIndustries []LabelValue `json:"sub_industries"`
}

// Industries is the answer of GET /v1/industries.
type Industries struct {
	Industries []Industry `json:"industries"`
}

// ExtractParams name the page of GET /v1/extract: a URL or a company's domain.
type ExtractParams struct {
	URL    string `json:"url,omitempty"`
	Domain string `json:"domain,omitempty"`
}

// Extract is the answer of GET /v1/extract: a page's text.
type Extract struct {
	Language string `json:"language"`
	Text     string `json:"text"`
}

// Bizdata calls GET /v1/bizdata: the company's profile.
func (c *Client) Bizdata(ctx context.Context, domain string) (*CompanyProfile, *Response, error) {
	return callFor[CompanyProfile](ctx, c, request{op: opGetBizdata, query: domainParam{domain}})
}

// Score calls GET /v1/score: the company's growth score.
func (c *Client) Score(ctx context.Context, domain string) (*CompanyScore, *Response, error) {
	return callFor[CompanyScore](ctx, c, request{op: opGetScore, query: domainParam{domain}})
}

// History calls GET /v1/history: the company's certificates.
func (c *Client) History(ctx context.Context, p HistoryParams) (*History, *Response, error) {
	return callFor[History](ctx, c, request{op: opGetHistory, query: p})
}

// Industries calls GET /v1/industries.
func (c *Client) Industries(ctx context.Context) (*Industries, *Response, error) {
	return callFor[Industries](ctx, c, request{op: opGetIndustries})
}

// Extract calls GET /v1/extract: the text of a page.
func (c *Client) Extract(ctx context.Context, p ExtractParams) (*Extract, *Response, error) {
	return callFor[Extract](ctx, c, request{op: opGetExtract, query: p})
}

// domainParam is the one query parameter of GET /v1/bizdata and GET /v1/score.
type domainParam struct {
	Domain string `json:"domain"`
}
