package osclient

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/opensearch-project/opensearch-go/v4"
	"github.com/opensearch-project/opensearch-go/v4/opensearchapi"

	"github.com/firmoapi/firmo/shared/apperr"
)

// IAMActions are the Amazon OpenSearch Service actions Index's requests need: PUT
// (creating the index at first use) and POST (_bulk and _search). template.yaml grants
// them on the domain to the functions that reach the cluster; TestIAMActions and the
// template test compare them with the code.
var IAMActions = []string{"es:ESHttpPut", "es:ESHttpPost"}

// SetupActions are the requests only tests and re-indexing make (Drop, DELETE): no
// function is granted them.
var SetupActions = []string{"es:ESHttpDelete"}

// Index is one OpenSearch index as both adapters (osmatch, ossearch) use it: created from a
// mapping, written through _bulk, searched with a JSON body. Its methods map the cluster's
// failures the same way for both: a cluster that cannot be reached or answers 5xx/429 is
// apperr.ErrUnavailable (the API answers 503 with Retry-After), a document the cluster
// refuses is apperr.ErrInvalid, and a cancelled or timed-out context stays what it is.
type Index struct {
	Client *opensearchapi.Client
	Name   string
	// Refresh is passed to write requests: "" (visible within the refresh interval),
	// "wait_for" (tests and single interactive writes) or "true".
	Refresh string
}

// Create creates the index with mapping (settings and mappings) unless it exists.
func (x Index) Create(ctx context.Context, mapping any) error {
	body, err := json.Marshal(mapping)
	if err != nil {
		return fmt.Errorf("index %s mapping: %w", x.Name, err)
	}
	_, err = x.Client.Indices.Create(ctx, opensearchapi.IndicesCreateReq{Index: x.Name, Body: bytes.NewReader(body)})
	var se *opensearch.StructError
	if errors.As(err, &se) && se.Err.Type == "resource_already_exists_exception" {
		return nil
	}
	if err != nil {
		return Unavailable("create index "+x.Name, err)
	}
	return nil
}

// Drop deletes the index (tests and re-indexing).
func (x Index) Drop(ctx context.Context) error {
	if _, err := x.Client.Indices.Delete(ctx, opensearchapi.IndicesDeleteReq{Indices: []string{x.Name}}); err != nil {
		return Unavailable("delete index "+x.Name, err)
	}
	return nil
}

// Bulk sends an NDJSON _bulk body and reports the first failed item. Deleting a document
// that is not there (404) is not a failure.
func (x Index) Bulk(ctx context.Context, body []byte) error {
	resp, err := x.Client.Bulk(ctx, opensearchapi.BulkReq{Body: bytes.NewReader(body), Params: opensearchapi.BulkParams{Refresh: x.Refresh}})
	if err != nil {
		return Unavailable("bulk", err)
	}
	if !resp.Errors {
		return nil
	}
	for _, item := range resp.Items {
		for action, r := range item {
			if r.Error == nil || (action == "delete" && r.Status == 404) {
				continue
			}
			kind := apperr.ErrUnavailable
			if r.Status >= 400 && r.Status < 500 && r.Status != 429 {
				kind = apperr.ErrInvalid
			}
			return fmt.Errorf("bulk %s %s: %s: %s: %w", action, r.ID, r.Error.Type, r.Error.Reason, kind)
		}
	}
	return nil
}

// Search runs a search body (any JSON-encodable value) on the index.
func (x Index) Search(ctx context.Context, body any) (*opensearchapi.SearchResp, error) {
	raw, err := json.Marshal(body)
	if err != nil {
		return nil, fmt.Errorf("search body: %w", err)
	}
	resp, err := x.Client.Search(ctx, &opensearchapi.SearchReq{Indices: []string{x.Name}, Body: bytes.NewReader(raw)})
	if err != nil {
		return nil, Unavailable("search", err)
	}
	return resp, nil
}

// Unavailable wraps a cluster failure: the dependency is down or refused the request. A
// context error stays what it is.
func Unavailable(op string, err error) error {
	if errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) {
		return fmt.Errorf("opensearch %s: %w", op, err)
	}
	return fmt.Errorf("opensearch %s: %v: %w", op, err, apperr.ErrUnavailable)
}
