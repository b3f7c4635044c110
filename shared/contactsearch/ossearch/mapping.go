package ossearch

import "github.com/firmoapi/firmo/shared/osclient"

// VectorField is the knn_vector field of a contact document.
const VectorField = "contact_vector"

// Document fields. The *_fold fields hold title.Normalize of the name, title and summary
// (lowercase words without accents, one space apart), analyzed by whitespace only, so a
// query matches on the same words Filters.Match reads; contact and company are stored,
// not indexed: what a search returns.
var fields = map[string]map[string]any{
	"persona_id":      {"type": "long"},
	"domain":          {"type": "keyword"},
	"name_fold":       {"type": "keyword"},
	"title_fold":      {"type": "text", "analyzer": "whitespace"},
	"summary_fold":    {"type": "text", "analyzer": "whitespace"},
	"department":      {"type": "keyword"},
	"seniority":       {"type": "keyword"},
	"country":         {"type": "keyword"},
	"state":           {"type": "keyword"},
	"skills":          {"type": "keyword"},
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
	"company_fp":      {"type": "keyword"},
	// The employer's icp_prompt signal text (contactfields.Signal), matched word by word.
	"company_tech":        {"type": "text", "analyzer": "whitespace"},
	"company_keywords":    {"type": "text", "analyzer": "whitespace"},
	"company_industries":  {"type": "text", "analyzer": "whitespace"},
	"company_description": {"type": "text", "analyzer": "whitespace"},
	"contact":             {"type": "object", "enabled": false},
	"company":             {"type": "object", "enabled": false},
}

// Mapping is the contacts index body: settings from the configuration (shards, replicas,
// k-NN ef_search) and the strict mapping of the document fields and the vector.
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
	index := map[string]any{
		"knn":                true,
		"number_of_shards":   c.Shards,
		"number_of_replicas": *c.Replicas,
		"max_terms_count":    c.MaxTerms,
	}
	if c.MaxResultWindow != DefaultMaxResultWindow {
		index["max_result_window"] = c.MaxResultWindow
	}
	if c.Engine != "lucene" {
		// Only the native engines read the index-level ef_search; lucene searches
		// with ef = k.
		index["knn.algo_param.ef_search"] = c.EfSearch
	}
	return map[string]any{
		"settings": map[string]any{"index": index},
		// strict: a misspelt field in a document is an error, not a silent new field.
		"mappings": map[string]any{"dynamic": "strict", "properties": props},
	}
}

// FieldsMapping is the put-mapping body of the document fields (all but the vector,
// whose method cannot change): what EnsureIndex adds to an existing index.
func FieldsMapping() map[string]any {
	props := map[string]any{}
	for name, m := range fields {
		props[name] = m
	}
	return map[string]any{"properties": props}
}

// ListsMapping is the index of saved-query lists too long for an inline terms filter:
// each document holds one chunk of a list's domains or persona ids in its _source, read
// by terms lookups; nothing in it is indexed.
func (c Config) ListsMapping() map[string]any {
	return map[string]any{
		"settings": map[string]any{"index": map[string]any{"number_of_shards": 1, "number_of_replicas": *c.Replicas}},
		"mappings": map[string]any{"dynamic": false, "properties": map[string]any{}},
	}
}
