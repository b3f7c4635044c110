package client

import "context"

// MatchParams are the parameters of GET /v1/match: a company name and what else is
// known of it.
type MatchParams struct {
	Name               string `json:"name"`
	Country            string `json:"country,omitempty"`
	State              string `json:"state,omitempty"`
	City               string `json:"city,omitempty"`
	ZipCode            string `json:"zip_code,omitempty"`
	Phone              string `json:"phone,omitempty"`
	MinMatchConfidence int    `json:"min_match_confidence,omitempty"`
	Strict             *bool  `json:"strict,omitempty"`
	LocalMode          *bool  `json:"local_mode,omitempty"`
}

// Match calls GET /v1/match: the companies a name matches, best first. When nothing
// matches at or above min_match_confidence the server answers 204: the answer then has
// no matches and Response.Status is 204.
func (c *Client) Match(ctx context.Context, p MatchParams) (*MatchAnswer, *Response, error) {
	return callFor[MatchAnswer](ctx, c, request{op: opGetMatch, query: p})
}
