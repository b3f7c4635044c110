package ossearch

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"sort"
	"strconv"
	"strings"

	"github.com/firmoapi/firmo/shared/company/oscontactfields"
	"github.com/firmoapi/firmo/shared/contactsearch"
	"github.com/firmoapi/firmo/shared/title"
)

// obj is a JSON object of the query DSL.
type obj = map[string]any

// maxK is the k-NN plugin's largest k.
const maxK = 10_000

// maxInner is index.max_inner_result_window: the most inner hits per collapsed group
// (results_by_company is at most 100, so it always fits).
const maxInner = 100

// plan is what a query needs besides its body: the list chunks it reads by terms lookup,
// which must be in the lists index before the query runs.
type plan struct {
	lists map[string][]any // lists-index document id -> values
}

// Bool is the filter of q in the query DSL: every request filter, the saved-query scope
// and the skipped similarity inputs. A scope list longer than Config.MaxTerms becomes
// terms lookups on chunks of it stored in the lists index (OpenSearch limits a terms
// query, lookups included, to index.max_terms_count values).
func (x *Index) Bool(q contactsearch.EngineQuery) (obj, plan, error) {
	var filter, mustNot []any
	p := plan{lists: map[string][]any{}}
	terms := func(field string, vals []string) any { return obj{"terms": obj{field: vals}} }
	f := q.Filters
	if f == nil {
		f = &contactsearch.Filters{}
	}
	add := func(field string, in, out map[string]bool) {
		if in != nil {
			filter = append(filter, terms(field, sorted(in)))
		}
		if len(out) > 0 {
			mustNot = append(mustNot, terms(field, sorted(out)))
		}
	}
	if f.Domains != nil {
		filter = append(filter, terms("domain", sorted(f.Domains)))
	}
	add("seniority", f.Seniority, f.NegSeniority)
	add("department", f.Department, f.NegDepartment)
	add("country", f.PersonCountry, f.NegPersonC)
	add("state", f.PersonState, nil)
	for _, b := range []struct {
		field string
		on    bool
	}{{"has_email", f.HasEmail}, {"email_validated", f.EmailValidated}, {"has_phone", f.HasPhone}, {"has_mobile", f.HasMobile}, {"has_linkedin", f.HasLinkedin}} {
		if b.on {
			filter = append(filter, obj{"term": obj{b.field: true}})
		}
	}
	if f.MinConnections > 0 {
		filter = append(filter, obj{"range": obj{"connections": obj{"gte": f.MinConnections}}})
	}
	if f.JobFrom != "" {
		r := obj{"gte": f.JobFrom}
		if f.JobTo != "" {
			r["lte"] = f.JobTo
		}
		filter = append(filter, obj{"range": obj{"jobstart_date": r}})
	}
	if f.Skills != nil {
		filter = append(filter, terms("skills", sorted(f.Skills)))
	}
	add("industry", f.Industry, f.NegIndustry)
	if f.Name != "" {
		filter = append(filter, obj{"wildcard": obj{"name_fold": obj{"value": "*" + escapeWildcard(f.Name) + "*"}}})
	}
	if f.Title != nil {
		filter = append(filter, titleQuery(*f.Title))
	}
	if f.NegTitle != nil {
		mustNot = append(mustNot, titleQuery(*f.NegTitle))
	}
	if f.Summary != nil {
		filter = append(filter, summaryQuery(f.Summary))
	}
	if f.NegSummary != nil {
		mustNot = append(mustNot, summaryQuery(f.NegSummary))
	}
	add("company_country", f.Country, f.NegCountry)
	// A contact whose company has no state passes negate_filter_state (Filters.Match):
	// must_not on a missing field admits it.
	add("company_state", f.State, f.NegState)
	add("employees", f.Employees, nil)
	if len(q.Skip) > 0 {
		mustNot = append(mustNot, obj{"terms": obj{"persona_id": sortedIDs(q.Skip)}})
	}
	if sc := q.Scope; sc != nil {
		mustNot = append(mustNot, x.listTerms(&p, "domain", keysOf(sc.ExcludedDomains()))...)
		mustNot = append(mustNot, x.listTerms(&p, "persona_id", idKeys(sc.ExcludedPersonas()))...)
		if sc.Restricted() {
			should := append(x.listTerms(&p, "domain", keysOf(sc.IncludedDomains())), x.listTerms(&p, "persona_id", idKeys(sc.IncludedPersonas()))...)
			if len(should) == 0 {
				should = []any{obj{"match_none": obj{}}}
			}
			filter = append(filter, obj{"bool": obj{"should": should, "minimum_should_match": 1}})
		}
	}
	b := obj{}
	if filter != nil {
		b["filter"] = filter
	}
	if mustNot != nil {
		b["must_not"] = mustNot
	}
	return obj{"bool": b}, p, nil
}

// listTerms are the terms clauses of one scope list on field: inline when the list fits
// one terms query, else a terms lookup per chunk of MaxTerms values (any chunk matching
// is a match, so the clauses go in a should or a must_not).
func (x *Index) listTerms(p *plan, field string, vals []string) []any {
	if len(vals) == 0 {
		return nil
	}
	if len(vals) <= x.cfg.MaxTerms {
		if field == "persona_id" {
			return []any{obj{"terms": obj{field: numbers(vals)}}}
		}
		return []any{obj{"terms": obj{field: vals}}}
	}
	var out []any
	for start := 0; start < len(vals); start += x.cfg.MaxTerms {
		chunk := vals[start:min(start+x.cfg.MaxTerms, len(vals))]
		id := listID(field, chunk)
		vals := make([]any, len(chunk))
		for i, v := range chunk {
			vals[i] = v
			if field == "persona_id" {
				vals[i], _ = strconv.ParseInt(v, 10, 64) // idKeys wrote them
			}
		}
		p.lists[id] = vals
		out = append(out, obj{"terms": obj{field: obj{"index": x.cfg.ListsIndex, "id": id, "path": "values"}}})
	}
	return out
}

// listID names a list chunk by its content, so writing it again is a no-op and two
// searches over the same list share it.
func listID(field string, vals []string) string {
	h := sha256.New()
	fmt.Fprintf(h, "%s\n", field)
	for _, v := range vals {
		fmt.Fprintf(h, "%s\n", v)
	}
	return field + "-" + hex.EncodeToString(h.Sum(nil)[:16])
}

// titleQuery is a title filter (title.Query's semantics): every required term and, when
// there are optional terms, at least one of them. A term needs each of its groups; a
// group is any of its phrases as consecutive words of title_fold.
func titleQuery(q title.Query) obj {
	var req, opt []any
	for _, t := range q.Terms() {
		var groups []any
		for _, g := range t.Groups() {
			var phrases []any
			for _, ph := range g {
				phrases = append(phrases, obj{"match_phrase": obj{"title_fold": ph}})
			}
			groups = append(groups, obj{"bool": obj{"should": phrases, "minimum_should_match": 1}})
		}
		term := obj{"bool": obj{"filter": groups}}
		if t.Required() {
			req = append(req, term)
		} else {
			opt = append(opt, term)
		}
	}
	b := obj{}
	if req != nil {
		b["filter"] = req
	}
	if opt != nil {
		b["should"], b["minimum_should_match"] = opt, 1
	}
	return obj{"bool": b}
}

// summaryQuery: any term, each term needing all its words as word prefixes of
// summary_fold (Filters.Match's summary rule).
func summaryQuery(terms [][]string) obj {
	var any_ []any
	for _, words := range terms {
		var all []any
		for _, w := range words {
			all = append(all, obj{"prefix": obj{"summary_fold": w}})
		}
		any_ = append(any_, obj{"bool": obj{"filter": all}})
	}
	return obj{"bool": obj{"should": any_, "minimum_should_match": 1}}
}

// source are the stored fields a result needs.
var source = []string{"persona_id", "contact", "company"}

// SearchBody is the _search body of a page of q and how its hits are read: grouped
// (collapse on domain, results_by_company inner hits per company) or flat.
//
// Similarity mode is a knn query (k = the ranked contacts the page may need, at most
// 10,000) with the filter inside the knn clause: OpenSearch's efficient filtering, which
// returns k matches whenever k exist. Filter mode is the bool query sorted by persona id.
func (x *Index) SearchBody(q contactsearch.EngineQuery) (body obj, grouped bool, p plan, err error) {
	b, p, err := x.Bool(q)
	if err != nil {
		return nil, false, p, err
	}
	l := q.Limits
	k := min(q.FetchSize(), maxK)
	window := x.cfg.MaxResultWindow
	body = obj{"_source": source}
	if q.Vector != nil {
		knn := obj{"vector": q.Vector, "k": k}
		if len(b["bool"].(obj)) > 0 {
			knn["filter"] = b
		}
		body["query"] = obj{"knn": obj{VectorField: knn}}
	} else {
		body["query"] = b
		body["sort"] = []any{obj{"persona_id": "asc"}}
	}
	if l.PerCompany > 0 {
		// Select's groups are the first companies of the ranking, each with its first
		// results_by_company contacts: collapse gives exactly those (offset is 0 here).
		groups := l.MaxCompanies
		if groups == 0 {
			groups = l.MaxRecords
		}
		inner := obj{"name": "top", "size": min(l.PerCompany, maxInner), "_source": source}
		if q.Vector == nil {
			inner["sort"] = []any{obj{"persona_id": "asc"}}
		}
		body["size"] = min(groups, window)
		body["collapse"] = obj{"field": "domain", "inner_hits": inner}
		return body, true, p, nil
	}
	// No per-company cap: the flat ranked list from the offset, Select groups it.
	if q.Vector != nil {
		body["size"] = min(k, window)
		return body, false, p, nil
	}
	body["from"], body["size"] = l.Offset, pageSize(l)
	return body, false, p, nil
}

// pageSize is how many ranked contacts a flat page holds at most: max_records, or
// 10,000 with max_companies (Select's total cap).
func pageSize(l contactsearch.Limits) int {
	if l.MaxCompanies > 0 || l.MaxRecords <= 0 {
		return contactsearch.CompaniesTotalCap
	}
	return l.MaxRecords
}

// Deep reports whether q's page lies past what one search returns: a flat page (no
// per-company cap) whose offset plus size exceeds index.max_result_window, or, in
// similarity mode, the k-NN plugin's largest k. Find then reads it with search_after
// (DeepBody).
func (x *Index) Deep(q contactsearch.EngineQuery) bool {
	l := q.Limits
	if l.PerCompany > 0 {
		return false
	}
	if q.Vector != nil {
		return l.Offset+pageSize(l) > min(maxK, x.cfg.MaxResultWindow)
	}
	return l.Offset+pageSize(l) > x.cfg.MaxResultWindow
}

// cosineScript is the k-NN plugin's Painless extension scoring a document by 1 + the
// cosine of its vector and the query vector (exact: every filtered document is scored).
const cosineScript = "1.0 + cosineSimilarity(params.query_value, doc[params.field])"

// DeepBody is one search of a deep page: the filter b ranked as the first page ranks it
// (filter mode: persona id; similarity mode: the exact cosine, ties by persona id, a
// total order), size hits after the sort values after (nil: from the start). Skipping
// to the offset reads no _source (withSource false): only the sort values of the last
// hit carry on. A deep similarity page is exact where the first 10,000 are the k-NN
// graph's approximate ranking.
func (x *Index) DeepBody(q contactsearch.EngineQuery, b obj, after []any, size int, withSource bool) obj {
	body := obj{"size": size}
	if withSource {
		body["_source"] = source
	} else {
		body["_source"] = false
	}
	if q.Vector != nil {
		body["query"] = obj{"script_score": obj{"query": b, "script": obj{"source": cosineScript,
			"params": obj{"field": VectorField, "query_value": q.Vector}}}}
		body["sort"] = []any{obj{"_score": "desc"}, obj{"persona_id": "asc"}}
	} else {
		body["query"] = b
		body["sort"] = []any{obj{"persona_id": "asc"}}
	}
	if after != nil {
		body["search_after"] = after
	}
	return body
}

// NearestBody is the _search body of the k contacts nearest q.Vector that q admits,
// returning their vectors (consensus).
func (x *Index) NearestBody(q contactsearch.EngineQuery, k int) (obj, plan, error) {
	b, p, err := x.Bool(q)
	if err != nil {
		return nil, p, err
	}
	k = min(k, maxK, x.cfg.MaxResultWindow)
	knn := obj{"vector": q.Vector, "k": k}
	if len(b["bool"].(obj)) > 0 {
		knn["filter"] = b
	}
	return obj{"size": k, "_source": []string{"persona_id", VectorField}, "query": obj{"knn": obj{VectorField: knn}}}, p, nil
}

// CountBody is the _count body of q's filters.
func (x *Index) CountBody(q contactsearch.EngineQuery) (obj, plan, error) {
	b, p, err := x.Bool(q)
	if err != nil {
		return nil, p, err
	}
	return obj{"query": b}, p, nil
}

// VectorsBody is the _search body reading the vectors of ids.
func VectorsBody(ids []int64) obj {
	return obj{"size": len(ids), "_source": []string{"persona_id", VectorField}, "query": obj{"terms": obj{"persona_id": sortedIDs(ids)}}}
}

// CompanyUpdateBody is the _update_by_query body rewriting co in its contacts'
// documents (oscontactfields.UpdateBody).
func CompanyUpdateBody(co contactsearch.CompanyFields) obj { return oscontactfields.UpdateBody(co) }

func escapeWildcard(s string) string {
	r := strings.NewReplacer(`\`, `\\`, `*`, `\*`, `?`, `\?`)
	return r.Replace(s)
}

func sorted(s map[string]bool) []string {
	out := make([]string, 0, len(s))
	for k := range s {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

func keysOf(m map[string]struct{}) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// idKeys are persona ids as decimal strings in numeric order.
func idKeys(m map[int64]struct{}) []string {
	ids := make([]int64, 0, len(m))
	for k := range m {
		ids = append(ids, k)
	}
	sort.Slice(ids, func(i, j int) bool { return ids[i] < ids[j] })
	out := make([]string, len(ids))
	for i, id := range ids {
		out[i] = strconv.FormatInt(id, 10)
	}
	return out
}

func numbers(vals []string) []int64 {
	out := make([]int64, len(vals))
	for i, v := range vals {
		out[i], _ = strconv.ParseInt(v, 10, 64) // idKeys wrote them
	}
	return out
}

func sortedIDs(ids []int64) []int64 {
	out := append([]int64(nil), ids...)
	sort.Slice(out, func(i, j int) bool { return out[i] < out[j] })
	return out
}
