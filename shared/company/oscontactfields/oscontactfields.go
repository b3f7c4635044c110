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
	"sort"
	"strconv"

	"github.com/opensearch-project/opensearch-go/v4"
	"github.com/opensearch-project/opensearch-go/v4/opensearchapi"

	"github.com/firmoapi/firmo/shared/company"
	"github.com/firmoapi/firmo/shared/company/contactfields"
	"github.com/firmoapi/firmo/shared/contact"
	"github.com/firmoapi/firmo/shared/emailpattern"
	"github.com/firmoapi/firmo/shared/osclient"
)

// IAMActions are the Amazon OpenSearch Service actions the rewrite and the address reads
// need (_update_by_query and _search are POSTs).
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
// fields in its contacts' documents and, with Patterns set, publishes the domain's email
// pattern again, so a company derived again (pipeline, scheduled reprocessing) reaches
// contact search with its current fields and pattern. A failed rewrite or publish is
// Put's error; the record itself is stored.
type Store struct {
	company.Store
	Rewriter Rewriter
	// Patterns publishes the domain's email pattern after the rewrite; nil: not
	// published here.
	Patterns PatternPublisher
}

// Put implements company.Store.
func (s Store) Put(ctx context.Context, rec *company.Record) error {
	if err := s.Store.Put(ctx, rec); err != nil {
		return err
	}
	if err := s.Rewriter.UpdateCompany(ctx, *rec); err != nil {
		return fmt.Errorf("company %s stored, contact documents not rewritten: %w", rec.Domain, err)
	}
	if s.Patterns != nil {
		if err := s.Patterns.PublishDomain(ctx, rec.Domain); err != nil {
			return fmt.Errorf("company %s stored, email pattern not published: %w", rec.Domain, err)
		}
	}
	return nil
}

// addressPage is how many documents one page of DomainAddresses reads by default.
const addressPage = 1000

// AddressesBody is the search for one page of size of a domain's contacts with an
// address, in persona id order, after the persona id after (0: from the start):
// search_after pages, so a domain of any size is read whatever the index's
// max_result_window.
func AddressesBody(domain string, after int64, size int) map[string]any {
	body := map[string]any{
		"size": size,
		"query": map[string]any{"bool": map[string]any{"filter": []any{
			map[string]any{"term": map[string]any{"domain": domain}},
			map[string]any{"term": map[string]any{"has_email": true}},
		}}},
		"_source": []any{"persona_id", "contact"},
		"sort":    []any{map[string]any{"persona_id": "asc"}},
	}
	if after > 0 {
		body["search_after"] = []any{after}
	}
	return body
}

// Addresses reads a domain's contact addresses from the contacts index: the company
// pipeline's source for publishing a domain's email pattern (patternstore.Addresses)
// without reading every contact.
type Addresses struct {
	Client *opensearchapi.Client
	Index  string
	// Page is how many documents one search reads; 0: 1,000.
	Page int
}

// DomainAddresses implements patternstore.Addresses: the addresses of the domain's
// contacts in the contact store's listing order (shard by shard, persona id order within
// a shard: contact.Store.List), so examples and first sources are the pattern book's.
// Without a contacts index there are none.
func (a Addresses) DomainAddresses(ctx context.Context, domain string) ([]emailpattern.Observation, error) {
	type source struct {
		PersonaID int64 `json:"persona_id"`
		Contact   struct {
			Name  string  `json:"name"`
			Email *string `json:"email"`
		} `json:"contact"`
	}
	var got []source
	after := int64(0)
	page := a.Page
	if page <= 0 {
		page = addressPage
	}
	for {
		body, err := json.Marshal(AddressesBody(domain, after, page))
		if err != nil {
			return nil, err
		}
		resp, err := a.Client.Search(ctx, &opensearchapi.SearchReq{Indices: []string{a.Index}, Body: bytes.NewReader(body)})
		var se *opensearch.StructError
		if errors.As(err, &se) && se.Err.Type == "index_not_found_exception" {
			return nil, nil
		}
		if err != nil {
			return nil, osclient.Unavailable("read the contacts of "+domain, err)
		}
		for _, h := range resp.Hits.Hits {
			var s source
			if err := json.Unmarshal(h.Source, &s); err != nil {
				return nil, fmt.Errorf("contact document %s: %w", h.ID, err)
			}
			got = append(got, s)
			after = s.PersonaID
		}
		if len(resp.Hits.Hits) < page {
			break
		}
	}
	sort.SliceStable(got, func(i, j int) bool {
		si, sj := got[i].PersonaID%contact.Shards, got[j].PersonaID%contact.Shards
		if si != sj {
			return si < sj
		}
		return got[i].PersonaID < got[j].PersonaID
	})
	out := make([]emailpattern.Observation, 0, len(got))
	for _, s := range got {
		if s.Contact.Email != nil && *s.Contact.Email != "" {
			out = append(out, emailpattern.Observation{Domain: domain, Name: s.Contact.Name, Email: *s.Contact.Email, Source: "contact:" + strconv.FormatInt(s.PersonaID, 10)})
		}
	}
	return out, nil
}

// PatternPublisher publishes a domain's email pattern (patternstore.Publisher).
type PatternPublisher interface {
	PublishDomain(ctx context.Context, domain string) error
}
