package client

import "context"

// PageParams page through a list.
type PageParams struct {
	MaxRecords int `json:"max_records,omitempty"`
	Offset     int `json:"offset,omitempty"`
}

// SavedQueries is the answer of GET /v1/queries/saved.
type SavedQueries struct {
	Count   int          `json:"count"`
	Results []SavedQuery `json:"results"`
}

// ExclusionListRequest is the body of POST /v1/queries/exclusion-list.
type ExclusionListRequest struct {
	QueryName  string   `json:"query_name"`
	Domains    []string `json:"domains,omitempty"`
	PersonaIDs []int64  `json:"persona_ids,omitempty"`
}

// ExclusionList is the answer of POST /v1/queries/exclusion-list.
type ExclusionList struct {
	QueryID      string `json:"query_id"`
	QueryName    string `json:"query_name"`
	DomainCount  int    `json:"domain_count"`
	PersonaCount int    `json:"persona_count"`
	Truncated    bool   `json:"truncated"`
	Message      string `json:"message"`
}

// QueryUpdate is the body of PATCH /v1/queries/{query_id}: what to change.
type QueryUpdate struct {
	QueryName string   `json:"query_name,omitempty"`
	Tags      []string `json:"tags,omitempty"`
}

// QueryUpdated is the answer of PATCH /v1/queries/{query_id}.
type QueryUpdated struct {
	QueryID   string   `json:"query_id"`
	QueryName string   `json:"query_name"`
	Tags      []string `json:"tags"`
}

// QueryDeleted is the answer of DELETE /v1/queries/{query_id}.
type QueryDeleted struct {
	QueryID string `json:"query_id"`
	Message string `json:"message"`
}

// SavedQueries calls GET /v1/queries/saved.
func (c *Client) SavedQueries(ctx context.Context, p PageParams) (*SavedQueries, *Response, error) {
	return callFor[SavedQueries](ctx, c, request{op: opGetSaved, query: p})
}

// CreateExclusionList calls POST /v1/queries/exclusion-list.
func (c *Client) CreateExclusionList(ctx context.Context, req ExclusionListRequest) (*ExclusionList, *Response, error) {
	return callFor[ExclusionList](ctx, c, request{op: opPostExclusion, json: req})
}

// UpdateQuery calls PATCH /v1/queries/{query_id}.
func (c *Client) UpdateQuery(ctx context.Context, queryID string, req QueryUpdate) (*QueryUpdated, *Response, error) {
	return callFor[QueryUpdated](ctx, c, request{op: opPatchQuery, params: []string{queryID}, json: req})
}

// DeleteQuery calls DELETE /v1/queries/{query_id}.
func (c *Client) DeleteQuery(ctx context.Context, queryID string) (*QueryDeleted, *Response, error) {
	return callFor[QueryDeleted](ctx, c, request{op: opDeleteQuery, params: []string{queryID}})
}
