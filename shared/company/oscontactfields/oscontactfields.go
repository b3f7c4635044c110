// Package oscontactfields rewrites a company's fields (shared/company/contactfields) in the
// OpenSearch contact documents of its contacts when the company is stored again: the
// company pipeline's and the scheduled reprocessing's half of contact search on
// OpenSearch (shared/contactsearch/ossearch writes and searches the documents).
package oscontactfields

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/opensearch-project/opensearch-go/v4"
	"github.com/opensearch-project/opensearch-go/v4/opensearchapi"

	"github.com/firmoapi/firmo/shared/company"
	"github.com/firmoapi/firmo/shared/company/contactfields"
	"github.com/firmoapi/firmo/shared/osclient"
)

// IAMActions are the Amazon OpenSearch Service actions the rewrite needs
// (_update_by_query is a POST).
var IAMActions = []string{"es:ESHttpPost"}

// script sets params.set's fields in each document.
const script = "for (e in params.set.entrySet()) { ctx._source[e.getKey()] = e.getValue(); }"

// UpdateBody is the _update_by_query body that rewrites f in every document of the
// company's contacts that does not hold it yet (company_fp differs), so storing a
// company again without a change rewrites nothing.
func UpdateBody(f contactfields.Fields) map[string]any {
	set := contactfields.Doc(f)
	return map[string]any{
		"query": map[string]any{"bool": map[string]any{
			"filter":   []any{map[string]any{"term": map[string]any{"domain": f.Domain}}},
			"must_not": []any{map[string]any{"term": map[string]any{"company_fp": set["company_fp"]}}},
		}},
		"script": map[string]any{"lang": "painless", "source": script, "params": map[string]any{"set": set}},
	}
}

// Rewriter rewrites companies' fields in the contacts index Index.
type Rewriter struct {
	Client *opensearchapi.Client
	Index  string
	// Refresh makes the rewrite visible before returning (tests).
	Refresh bool
}

// UpdateCompany rewrites rec's fields in its contacts' documents: one _update_by_query
// on the domain. Without a contacts index there is nothing to rewrite (it is not created
// here: its vector dims are the contact writer's).
func (r Rewriter) UpdateCompany(ctx context.Context, rec company.Record) error {
	body, err := json.Marshal(UpdateBody(contactfields.Of(rec)))
	if err != nil {
		return err
	}
	refresh := r.Refresh
	_, err = r.Client.UpdateByQuery(ctx, opensearchapi.UpdateByQueryReq{Indices: []string{r.Index}, Body: bytes.NewReader(body),
		Params: opensearchapi.UpdateByQueryParams{Conflicts: "proceed", Refresh: &refresh}})
	var se *opensearch.StructError
	if errors.As(err, &se) && se.Err.Type == "index_not_found_exception" {
		return nil
	}
	if err != nil {
		return osclient.Unavailable("update company "+rec.Domain, err)
	}
	return nil
}

// Store is a company store whose every successful Put also rewrites the company's
// fields in its contacts' documents, so a company derived again (pipeline, scheduled
// reprocessing) reaches contact search. A failed rewrite is Put's error; the record
// itself is stored.
type Store struct {
	company.Store
	Rewriter Rewriter
}

// Put implements company.Store.
func (s Store) Put(ctx context.Context, rec *company.Record) error {
	if err := s.Store.Put(ctx, rec); err != nil {
		return err
	}
	if err := s.Rewriter.UpdateCompany(ctx, *rec); err != nil {
		return fmt.Errorf("company %s stored, contact documents not rewritten: %w", rec.Domain, err)
	}
	return nil
}
