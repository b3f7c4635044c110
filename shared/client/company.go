package client

import "context"

// HistoryParams are the parameters of GET /v1/history.
type HistoryParams struct {
	Domain     string `json:"domain"`
	MaxRecords int    `json:"max_records,omitempty"`
}

// History is the answer of GET /v1/history.
type History struct {
	Domain       string              `json:"domain"`
	Certificates []CertificateRecord `json:"certificates"`
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
