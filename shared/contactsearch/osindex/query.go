package osindex

import (
	"fmt"
	"github.com/firmoapi/firmo/shared/osclient"
	"sort"

	"github.com/firmoapi/firmo/shared/apperr"
)

// VectorField is the knn_vector field of a contact document.
const VectorField = "contact_vector"

// fields are the document fields and their mapping: what contact search filters on.
// Keyword fields match exactly (codes and enums); text fields also carry a .keyword
// sub-field for exact matching and aggregations.
var fields = map[string]map[string]any{
	"persona_id":      {"type": "long"},
	"domain":          {"type": "keyword"},
	"name":            {"type": "text", "fields": map[string]any{"keyword": map[string]any{"type": "keyword", "ignore_above": 256}}},
	"title":           {"type": "text", "fields": map[string]any{"keyword": map[string]any{"type": "keyword", "ignore_above": 256}}},
	"department":      {"type": "keyword"},
	"seniority":       {"type": "keyword"},
	"country":         {"type": "keyword"},
	"state":           {"type": "keyword"},
	"skills":          {"type": "text", "fields": map[string]any{"keyword": map[string]any{"type": "keyword", "ignore_above": 256}}},
	"summary":         {"type": "text"},
	"has_email":       {"type": "boolean"},
	"email_validated": {"type": "boolean"},
	"has_phone":       {"type": "boolean"},
	"has_mobile":      {"type": "boolean"},
	"has_linkedin":    {"type": "boolean"},
	"connections":     {"type": "integer"},
	"jobstart_date":   {"type": "date", "format": "yyyy-MM-dd"},
	"industry":        {"type": "keyword"},
	"employees":       {"type": "keyword"},
	"company_country": {"type": "keyword"},
	"company_state":   {"type": "keyword"},
	"fp":              {"type": "keyword", "index": false, "doc_values": false},
}

// Mapping returns the index body (settings and mappings) for vectors of dims values.
func (c Config) Mapping() map[string]any {
	props := map[string]any{}
	for name, m := range fields {
		props[name] = m
	}
	props[VectorField] = map[string]any{
		"type":      "knn_vector",
		"dimension": c.Dims,
		"method": map[string]any{
			"name":       "hnsw",
			"engine":     c.Engine,
			"space_type": osclient.KNNSpace(c.Engine),
			"parameters": map[string]any{"m": c.M, "ef_construction": c.EfConstruction},
		},
	}
	return map[string]any{
		"settings": map[string]any{
			"index": map[string]any{
				"knn":                      true,
				"knn.algo_param.ef_search": c.EfSearch,
				"number_of_shards":         c.Shards,
				"number_of_replicas":       *c.Replicas,
			},
		},
		// strict: a misspelt field in a document is an error, not a silent new field.
		"mappings": map[string]any{"dynamic": "strict", "properties": props},
	}
}

// Where is a contact filter in OpenSearch terms. All parts must hold (AND); each list in
// Any is an OR over its values; None excludes every listed value.
type Where struct {
	IDs    []int64             // persona_id is one of these
	Any    map[string][]string // field -> one of the values (keyword fields, or text fields' .keyword)
	None   map[string][]string // field -> none of the values
	Bools  map[string]bool     // boolean field -> value
	Ranges []Range             // numeric and date ranges
	Match  map[string]string   // text field -> all words of the phrase must appear
}

// Range bounds a numeric or date field; a nil bound is open.
type Range struct {
	Field    string
	GTE, LTE any
}

// empty reports whether the filter restricts nothing.
func (w Where) empty() bool {
	return w.IDs == nil && len(w.Any) == 0 && len(w.None) == 0 && len(w.Bools) == 0 && len(w.Ranges) == 0 && len(w.Match) == 0
}

// checkField accepts a mapped field or a text field's .keyword sub-field.
func checkField(name string) error {
	if _, ok := fields[name]; ok {
		return nil
	}
	if base, ok := cutSuffix(name, ".keyword"); ok {
		if m, ok := fields[base]; ok && m["type"] == "text" {
			return nil
		}
	}
	return apperr.Invalid("filter", "unknown contact index field %q", name)
}

func cutSuffix(s, suffix string) (string, bool) {
	if len(s) >= len(suffix) && s[len(s)-len(suffix):] == suffix {
		return s[:len(s)-len(suffix)], true
	}
	return s, false
}

// Bool builds the bool query of a filter, with clauses in a fixed order (sorted field names)
// so equal filters give byte-equal queries.
func (w Where) Bool() (map[string]any, error) {
	var filter, mustNot []any
	if w.IDs != nil {
		ids := append([]int64{}, w.IDs...)
		filter = append(filter, map[string]any{"terms": map[string]any{"persona_id": ids}})
	}
	for _, f := range keys(w.Any) {
		if err := checkField(f); err != nil {
			return nil, err
		}
		filter = append(filter, map[string]any{"terms": map[string]any{f: w.Any[f]}})
	}
	for _, f := range keys(w.Bools) {
		if err := checkField(f); err != nil {
			return nil, err
		}
		filter = append(filter, map[string]any{"term": map[string]any{f: w.Bools[f]}})
	}
	for _, r := range w.Ranges {
		if err := checkField(r.Field); err != nil {
			return nil, err
		}
		if r.GTE == nil && r.LTE == nil {
			return nil, apperr.Invalid("filter", "range on %s has no bound", r.Field)
		}
		b := map[string]any{}
		if r.GTE != nil {
			b["gte"] = r.GTE
		}
		if r.LTE != nil {
			b["lte"] = r.LTE
		}
		filter = append(filter, map[string]any{"range": map[string]any{r.Field: b}})
	}
	for _, f := range keys(w.Match) {
		if err := checkField(f); err != nil {
			return nil, err
		}
		filter = append(filter, map[string]any{"match": map[string]any{f: map[string]any{"query": w.Match[f], "operator": "and"}}})
	}
	for _, f := range keys(w.None) {
		if err := checkField(f); err != nil {
			return nil, err
		}
		mustNot = append(mustNot, map[string]any{"terms": map[string]any{f: w.None[f]}})
	}
	b := map[string]any{}
	if filter != nil {
		b["filter"] = filter
	}
	if mustNot != nil {
		b["must_not"] = mustNot
	}
	return map[string]any{"bool": b}, nil
}

// KNNQuery is the search body of a similarity search: the k nearest contacts to vec among
// those the filter admits. The filter sits inside the knn clause, which is OpenSearch's
// efficient filtering: applied during the graph search (or an exact search over the
// filtered documents when they are few), so k results come back whenever k exist.
func KNNQuery(vec []float32, k int, w Where) (map[string]any, error) {
	knn := map[string]any{"vector": vec, "k": k}
	if !w.empty() {
		b, err := w.Bool()
		if err != nil {
			return nil, err
		}
		knn["filter"] = b
	}
	return map[string]any{
		"size":    k,
		"_source": []string{"persona_id"},
		"query":   map[string]any{"knn": map[string]any{VectorField: knn}},
	}, nil
}

// FilterQuery is the search body of a filter-only search: one page of matching contacts in
// persona_id order, with the exact total.
func FilterQuery(w Where, from, size int) (map[string]any, error) {
	if from < 0 || size < 0 || from+size > 10_000 {
		return nil, apperr.Invalid("offset", "from %d + size %d is outside the 10,000-result window", from, size)
	}
	q := map[string]any{"match_all": map[string]any{}}
	if !w.empty() {
		b, err := w.Bool()
		if err != nil {
			return nil, err
		}
		q = b
	}
	return map[string]any{
		"from":             from,
		"size":             size,
		"_source":          []string{"persona_id"},
		"query":            q,
		"sort":             []any{map[string]any{"persona_id": "asc"}},
		"track_total_hits": true,
	}, nil
}

func keys[V any](m map[string]V) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

func docID(id int64) string { return fmt.Sprint(id) }
