package ossearch

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/firmoapi/firmo/shared/apperr"
	"github.com/firmoapi/firmo/shared/company/contactfields"
	"github.com/firmoapi/firmo/shared/contactsearch"
)

// icp_prompt's company signals run on the employer's signal text denormalized into each
// contact document (company_tech, company_keywords, company_industries,
// company_description; rewritten with the other company fields). Two searches, both
// over the contacts index, counting companies rather than contacts:
//
//  1. SignalCountsBody: the number of employers (a cardinality aggregation on domain)
//     and, per signal word, the number holding it in any field (a filter aggregation
//     each). These give the words' idf exactly as the embedded company search weighs
//     them. OpenSearch's cardinality is documented as close to accurate below its
//     precision_threshold (set to its maximum, 40,000) and approximate above, where an
//     error of a few percent in a count moves a word's idf (a logarithm) by less.
//  2. SignalSearchBody: one dis_max per word (constant_score per field, boosted by the
//     word's share of its signal times the field weight: the best field counts), summed
//     by a bool should, min_score at the threshold, collapsed on domain so each company
//     is one hit, best score first, ties by domain.

// cardinalityThreshold is the largest precision_threshold OpenSearch accepts.
const cardinalityThreshold = 40_000

// signalMatch is a query matching docs whose field holds w (a word, or a prefix of one).
func signalMatch(field, w string, prefix bool) obj {
	if prefix {
		return obj{"prefix": obj{field: w}}
	}
	return obj{"term": obj{field: w}}
}

// SignalCountsBody is the first search: aggregation "companies" counts employers, "w<i>"
// those holding words[i].
func SignalCountsBody(words []string, prefix []bool) obj {
	card := obj{"cardinality": obj{"field": "domain", "precision_threshold": cardinalityThreshold}}
	aggs := obj{"companies": card}
	for i, w := range words {
		var should []any
		for _, f := range contactfields.SignalFields {
			should = append(should, signalMatch(f, w, prefix[i]))
		}
		aggs[fmt.Sprintf("w%d", i)] = obj{
			"filter": obj{"bool": obj{"should": should, "minimum_should_match": 1}},
			"aggs":   obj{"companies": card},
		}
	}
	return obj{"size": 0, "track_total_hits": false, "aggs": aggs}
}

// SignalSearchBody is the second search, scoring companies by clauses.
func SignalSearchBody(clauses []contactsearch.SignalClause) obj {
	var should []any
	for _, c := range clauses {
		var per []any
		for f, field := range contactfields.SignalFields {
			per = append(per, obj{"constant_score": obj{
				"filter": signalMatch(field, c.Word, c.Prefix),
				"boost":  c.Boost * float64(contactsearch.SignalWeights[f]),
			}})
		}
		should = append(should, obj{"dis_max": obj{"queries": per, "tie_breaker": 0}})
	}
	return obj{
		"query": obj{"bool": obj{"should": should, "minimum_should_match": 1}},
		// Scores are float32 here: the threshold less float32's rounding.
		"min_score":        contactsearch.SignalThreshold - 1e-6,
		"size":             contactsearch.MaxSignalCompanies,
		"sort":             []any{obj{"_score": "desc"}, obj{"domain": "asc"}},
		"collapse":         obj{"field": "domain"},
		"_source":          []any{"domain"},
		"track_total_hits": false,
	}
}

// SignalDomains implements contactsearch.Engine.
func (x *Index) SignalDomains(ctx context.Context, signals []string) ([]string, error) {
	words, prefix := contactsearch.SignalSearchWords(signals)
	if len(words) == 0 {
		return nil, nil
	}
	resp, err := x.search(ctx, SignalCountsBody(words, prefix), plan{})
	if err != nil {
		return nil, err
	}
	var aggs map[string]struct {
		Value     int `json:"value"`
		Companies struct {
			Value int `json:"value"`
		} `json:"companies"`
	}
	if err := json.Unmarshal(resp.Aggregations, &aggs); err != nil {
		return nil, fmt.Errorf("signal counts: %v: %w", err, apperr.ErrInternal)
	}
	n := aggs["companies"].Value
	if n == 0 {
		return []string{}, nil
	}
	df := map[string]int{}
	for i, w := range words {
		df[w] = aggs[fmt.Sprintf("w%d", i)].Companies.Value
	}
	resp, err = x.search(ctx, SignalSearchBody(contactsearch.SignalClauses(signals, n, df)), plan{})
	if err != nil {
		return nil, err
	}
	out := []string{}
	for _, h := range resp.Hits.Hits {
		var s struct {
			Domain string `json:"domain"`
		}
		if err := json.Unmarshal(h.Source, &s); err != nil || s.Domain == "" {
			return nil, fmt.Errorf("contact index document %s has no domain: %w", h.ID, apperr.ErrInternal)
		}
		out = append(out, s.Domain)
	}
	return out, nil
}
