package client

import (
	"context"
	"io"
)

// AppendRequest is the upload of POST /v1/append: the domains of a file's column
// and/or saved queries, and the datasets to add to each.
type AppendRequest struct {
	File         io.Reader `form:"file"`
	FileName     string    `form:"-"`
	DomainColumn string    `form:"domain_column"`
	// Dataset names the datasets: bizdata, domain_status, redirects, growth, vendors,
	// subdomains.
	Dataset []string `form:"dataset"`
	QueryID []string `form:"query_id"`
}

func (r AppendRequest) upload() (io.Reader, string) { return r.File, r.FileName }

// appendForm is an AppendRequest with the csv flag.
type appendForm struct {
	AppendRequest
	CSV bool `form:"csv"`
}

func (r appendForm) upload() (io.Reader, string) { return r.File, r.FileName }

// AppendRow is one row of an append answer: the domain and the columns of each
// dataset asked for.
type AppendRow map[string]any

// Domain is the row's domain.
func (r AppendRow) Domain() string { s, _ := r["domain"].(string); return s }

// Append calls POST /v1/append and returns the rows as JSON.
func (c *Client) Append(ctx context.Context, req AppendRequest) ([]AppendRow, *Response, error) {
	var out []AppendRow
	resp, err := c.call(ctx, request{op: opPostAppend, form: appendForm{AppendRequest: req}}, &out)
	if err != nil {
		return nil, resp, err
	}
	return out, resp, nil
}

// AppendCSV calls POST /v1/append with csv=true and returns the CSV answer as it came.
func (c *Client) AppendCSV(ctx context.Context, req AppendRequest) ([]byte, *Response, error) {
	resp, err := c.call(ctx, request{op: opPostAppend, form: appendForm{AppendRequest: req, CSV: true}, accept: "text/csv"}, nil)
	if err != nil {
		return nil, resp, err
	}
	return resp.Body, resp, nil
}
