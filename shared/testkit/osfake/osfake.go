// Package osfake is a fake OpenSearch for tests: an HTTP server speaking the REST API
// the contact search adapter (shared/contactsearch/ossearch) uses — index creation,
// put mapping (new fields added, a changed one refused), _bulk, _search, _count, _doc, _update_by_query — that keeps documents in memory and
// evaluates the part of the query DSL that adapter writes: bool (filter, must, should
// with minimum_should_match, must_not), terms (values or a terms lookup), term, range,
// prefix, wildcard, match_phrase, match_all, match_none, constant_score and dis_max
// (scored as documented, see eval), knn with a filter (exact search), min_score, sort on
// a field or _score (each hit carrying its sort values), script_score with the k-NN
// plugin's cosineSimilarity script, from/size within the index's
// max_result_window (default 10,000; a larger from + size is the cluster's 400),
// search_after, _source includes, collapse with inner hits, and the cardinality and
// filter aggregations.
//
// It is not a cluster. Text fields are analyzed by whitespace only (what the adapter
// maps); the k-NN search is exact where a cluster's HNSW is approximate; relevance,
// shards, refresh intervals and Painless are not modelled (an _update_by_query runs the
// adapter's one script, which sets params.set's fields). Every request is recorded, so
// tests compare the bodies with golden files; the live-cluster suite is the check of
// what a real cluster answers.
package osfake

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"

	"net/http"
	"net/http/httptest"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"sync"
)

type obj = map[string]any

// Request is one request the fake received.
type Request struct {
	Method, Path string
	Body         []byte
}

// Server is the fake.
type Server struct {
	*httptest.Server
	mu       sync.Mutex
	indexes  map[string]*index
	requests []Request
}

type index struct {
	mapping obj
	docs    map[string]obj
	order   []string // insertion order of ids, for stable ties
	window  int      // index.max_result_window: from + size may not exceed it
}

// defaultWindow is OpenSearch's default index.max_result_window.
const defaultWindow = 10000

// windowError is a search whose from + size exceeds the index's max_result_window: a
// cluster answers it 400 with this reason (search_after pages past it).
type windowError struct{ window, asked int }

func (e windowError) Error() string {
	return fmt.Sprintf("Result window is too large, from + size must be less than or equal to: [%d] but was [%d]. See the scroll api for a more efficient way to request large data sets. This limit can be set by changing the [index.max_result_window] index level setting.", e.window, e.asked)
}

// New starts a fake; Close stops it.
func New() *Server {
	s := &Server{indexes: map[string]*index{}}
	s.Server = httptest.NewServer(http.HandlerFunc(s.serve))
	return s
}

// Requests returns the requests received since mark (a length of an earlier call).
func (s *Server) Requests(mark int) []Request {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]Request(nil), s.requests[min(mark, len(s.requests)):]...)
}

// Mark is the number of requests received so far.
func (s *Server) Mark() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.requests)
}

// Docs is the number of documents in an index.
func (s *Server) Docs(name string) int {
	s.mu.Lock()
	defer s.mu.Unlock()
	if ix := s.indexes[name]; ix != nil {
		return len(ix.docs)
	}
	return 0
}

func (s *Server) serve(w http.ResponseWriter, r *http.Request) {
	body, _ := io.ReadAll(r.Body)
	s.mu.Lock()
	defer s.mu.Unlock()
	s.requests = append(s.requests, Request{Method: r.Method, Path: r.URL.Path, Body: body})
	parts := strings.Split(strings.Trim(r.URL.Path, "/"), "/")
	reply := func(code int, v any) {
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(code)
		_ = json.NewEncoder(w).Encode(v)
	}
	fail := func(code int, typ, reason string) {
		reply(code, obj{"error": obj{"type": typ, "reason": reason, "root_cause": []any{obj{"type": typ, "reason": reason}}}, "status": code})
	}
	switch {
	case len(parts) == 1 && parts[0] == "_bulk" || len(parts) == 2 && parts[1] == "_bulk":
		reply(200, s.bulk(body))
	case len(parts) == 1 && r.Method == http.MethodPut:
		if _, ok := s.indexes[parts[0]]; ok {
			fail(400, "resource_already_exists_exception", "index "+parts[0]+" exists")
			return
		}
		var m obj
		_ = json.Unmarshal(body, &m)
		win := defaultWindow
		if v := dig(m, "settings", "index", "max_result_window"); v != nil {
			win = int(num(v))
		} else if v := dig(m, "settings", "max_result_window"); v != nil {
			win = int(num(v))
		}
		s.indexes[parts[0]] = &index{mapping: m, docs: map[string]obj{}, window: win}
		reply(200, obj{"acknowledged": true, "shards_acknowledged": true, "index": parts[0]})
	case len(parts) == 2 && parts[1] == "_mapping" && (r.Method == http.MethodPut || r.Method == http.MethodPost):
		ix := s.indexes[parts[0]]
		if ix == nil {
			fail(404, "index_not_found_exception", "no such index ["+parts[0]+"]")
			return
		}
		var m obj
		if err := json.Unmarshal(body, &m); err != nil {
			fail(400, "mapper_parsing_exception", err.Error())
			return
		}
		// New fields are added; a field mapped already must be mapped the same.
		if ix.mapping == nil {
			ix.mapping = obj{}
		}
		mappings, _ := ix.mapping["mappings"].(obj)
		if mappings == nil {
			mappings = obj{}
			ix.mapping["mappings"] = mappings
		}
		props, _ := mappings["properties"].(obj)
		if props == nil {
			props = obj{}
			mappings["properties"] = props
		}
		newProps, _ := m["properties"].(obj)
		for name, def := range newProps {
			if have, ok := props[name]; ok && key(have) != key(def) {
				fail(400, "illegal_argument_exception", "mapper ["+name+"] cannot be changed")
				return
			}
		}
		for name, def := range newProps {
			props[name] = def
		}
		reply(200, obj{"acknowledged": true})
	case len(parts) == 1 && r.Method == http.MethodDelete:
		delete(s.indexes, parts[0])
		reply(200, obj{"acknowledged": true})
	case len(parts) == 2 && (parts[1] == "_search" || parts[1] == "_count" || parts[1] == "_update_by_query"):
		ix := s.indexes[parts[0]]
		if ix == nil {
			fail(404, "index_not_found_exception", "no such index ["+parts[0]+"]")
			return
		}
		var q obj
		if err := json.Unmarshal(body, &q); err != nil && len(body) > 0 {
			fail(400, "parsing_exception", err.Error())
			return
		}
		var out any
		var err error
		switch parts[1] {
		case "_search":
			out, err = s.search(ix, q)
		case "_count":
			var n int
			n, err = s.count(ix, q)
			out = obj{"count": n, "_shards": obj{"total": 1, "successful": 1, "skipped": 0, "failed": 0}}
		default:
			out, err = s.updateByQuery(ix, q)
		}
		var we windowError
		if errors.As(err, &we) {
			fail(400, "illegal_argument_exception", we.Error())
			return
		}
		if err != nil {
			fail(400, "query_shard_exception", err.Error())
			return
		}
		reply(200, out)
	case len(parts) == 3 && parts[1] == "_doc" && (r.Method == http.MethodPut || r.Method == http.MethodPost):
		ix := s.indexes[parts[0]]
		if ix == nil {
			fail(404, "index_not_found_exception", "no such index ["+parts[0]+"]")
			return
		}
		var d obj
		if err := json.Unmarshal(body, &d); err != nil {
			fail(400, "mapper_parsing_exception", err.Error())
			return
		}
		ix.put(parts[2], d)
		reply(201, obj{"_index": parts[0], "_id": parts[2], "result": "created", "_version": 1})
	default:
		fail(400, "illegal_argument_exception", "the fake does not serve "+r.Method+" "+r.URL.Path)
	}
}

func (ix *index) put(id string, d obj) {
	if _, ok := ix.docs[id]; !ok {
		ix.order = append(ix.order, id)
	}
	ix.docs[id] = d
}

func (s *Server) bulk(body []byte) obj {
	var items []any
	errs := false
	sc := bufio.NewScanner(bytes.NewReader(body))
	sc.Buffer(make([]byte, 1<<20), 64<<20)
	for sc.Scan() {
		if len(bytes.TrimSpace(sc.Bytes())) == 0 {
			continue
		}
		var meta map[string]struct {
			Index string `json:"_index"`
			ID    string `json:"_id"`
		}
		_ = json.Unmarshal(sc.Bytes(), &meta)
		for action, m := range meta {
			ix := s.indexes[m.Index]
			status := 200
			if ix == nil {
				status, errs = 404, true
				items = append(items, obj{action: obj{"_index": m.Index, "_id": m.ID, "status": 404, "error": obj{"type": "index_not_found_exception", "reason": "no such index"}}})
				if action != "delete" {
					sc.Scan()
				}
				continue
			}
			switch action {
			case "delete":
				if _, ok := ix.docs[m.ID]; !ok {
					status = 404
				}
				delete(ix.docs, m.ID)
			case "index", "create":
				sc.Scan()
				var d obj
				_ = json.Unmarshal(sc.Bytes(), &d)
				ix.put(m.ID, d)
				status = 201
			case "update":
				sc.Scan()
				var u struct {
					Doc obj `json:"doc"`
				}
				_ = json.Unmarshal(sc.Bytes(), &u)
				d := ix.docs[m.ID]
				if d == nil {
					d = obj{}
				}
				for k, v := range u.Doc {
					d[k] = v
				}
				ix.put(m.ID, d)
			}
			items = append(items, obj{action: obj{"_index": m.Index, "_id": m.ID, "status": status}})
		}
	}
	return obj{"took": 1, "errors": errs, "items": items}
}

// hit is a matching document with its score.
type hit struct {
	id    string
	doc   obj
	score float64
}

func (s *Server) matches(ix *index, q any) ([]hit, error) {
	qo, _ := q.(obj)
	if qo == nil {
		qo = obj{"match_all": obj{}}
	}
	if knn, ok := qo["knn"].(obj); ok {
		return s.knn(ix, knn)
	}
	if ss, ok := qo["script_score"].(obj); ok {
		return s.scriptScore(ix, ss)
	}
	var out []hit
	for _, id := range ix.order {
		d, ok := ix.docs[id]
		if !ok {
			continue
		}
		m, sc, err := s.eval(ix, qo, d)
		if err != nil {
			return nil, err
		}
		if m {
			out = append(out, hit{id: id, doc: d, score: sc})
		}
	}
	return out, nil
}

// eval matches q against d and scores it as the query DSL documents for the compound
// queries the adapter scores with: constant_score is its boost (default 1); dis_max the
// best of its matching queries plus tie_breaker times the others; bool the sum of its
// matching must and should clauses (filter and must_not score nothing). Any other query
// scores 1: the fake models no relevance (BM25), and the adapter sorts or scores only
// with the queries above and knn.
func (s *Server) eval(ix *index, q obj, d obj) (bool, float64, error) {
	for kind, v := range q {
		body, _ := v.(obj)
		switch kind {
		case "constant_score":
			f := list(body["filter"])
			if len(f) != 1 {
				return false, 0, fmt.Errorf("constant_score without one filter")
			}
			m, err := s.match(ix, f[0], d)
			if err != nil || !m {
				return false, 0, err
			}
			boost := 1.0
			if b, ok := body["boost"]; ok {
				boost = num(b)
			}
			return true, boost, nil
		case "dis_max":
			var best, sum float64
			found := false
			for _, c := range list(body["queries"]) {
				m, sc, err := s.eval(ix, c, d)
				if err != nil {
					return false, 0, err
				}
				if m {
					found = true
					sum += sc
					best = max(best, sc)
				}
			}
			if !found {
				return false, 0, nil
			}
			return true, best + num(body["tie_breaker"])*(sum-best), nil
		case "bool":
			m, err := s.matchBool(ix, body, d)
			if err != nil || !m {
				return false, 0, err
			}
			var total float64
			for _, k := range []string{"must", "should"} {
				for _, c := range list(body[k]) {
					cm, sc, err := s.eval(ix, c, d)
					if err != nil {
						return false, 0, err
					}
					if cm {
						total += sc
					}
				}
			}
			return true, total, nil
		}
		m, err := s.match(ix, q, d)
		return m, 1, err
	}
	return false, 0, fmt.Errorf("empty query")
}

func (s *Server) knn(ix *index, knn obj) ([]hit, error) {
	for field, v := range knn {
		p, _ := v.(obj)
		vec := floats(p["vector"])
		k := int(num(p["k"]))
		var filter obj
		if f, ok := p["filter"].(obj); ok {
			filter = f
		}
		space := ix.space(field)
		var out []hit
		for _, id := range ix.order {
			d, ok := ix.docs[id]
			if !ok {
				continue
			}
			dv := floats(d[field])
			if len(dv) != len(vec) {
				continue
			}
			if filter != nil {
				m, err := s.match(ix, filter, d)
				if err != nil {
					return nil, err
				}
				if !m {
					continue
				}
			}
			out = append(out, hit{id: id, doc: d, score: score(space, vec, dv)})
		}
		sort.SliceStable(out, func(i, j int) bool { return out[i].score > out[j].score })
		return out[:min(k, len(out))], nil
	}
	return nil, fmt.Errorf("knn query without a field")
}

// cosineScript is the one script_score script the fake runs: the k-NN plugin's Painless
// extension, 1 + the cosine of the document's vector and the query vector.
const cosineScript = "1.0 + cosineSimilarity(params.query_value, doc[params.field])"

// scriptScore evaluates a script_score query: the documents its query matches, each
// scored by the script (only cosineScript is run).
func (s *Server) scriptScore(ix *index, ss obj) ([]hit, error) {
	if src := str(dig(ss, "script", "source")); src != cosineScript {
		return nil, fmt.Errorf("the fake runs only the script %q, not %q", cosineScript, src)
	}
	field := str(dig(ss, "script", "params", "field"))
	vec := floats(dig(ss, "script", "params", "query_value"))
	hits, err := s.matches(ix, ss["query"])
	if err != nil {
		return nil, err
	}
	for i := range hits {
		dv := floats(hits[i].doc[field])
		if len(dv) != len(vec) {
			return nil, fmt.Errorf("document %s has no %d-dim %s", hits[i].id, len(vec), field)
		}
		var dot, nq, nd float64
		for k := range vec {
			dot += vec[k] * dv[k]
			nq += vec[k] * vec[k]
			nd += dv[k] * dv[k]
		}
		hits[i].score = 1 + dot/math.Sqrt(nq*nd)
	}
	return hits, nil
}

// score is the k-NN plugin's score for a space (vectors unit length).
func score(space string, q, v []float64) float64 {
	dot := 0.0
	for i := range q {
		dot += q[i] * v[i]
	}
	if space == "innerproduct" {
		if dot >= 0 {
			return 1 + dot
		}
		return 1 / (1 - dot)
	}
	return (1 + dot) / 2
}

func (ix *index) fieldMapping(field string) obj {
	props, _ := dig(ix.mapping, "mappings", "properties").(obj)
	m, _ := props[field].(obj)
	return m
}

func (ix *index) space(field string) string {
	m := ix.fieldMapping(field)
	sp, _ := dig(m, "method", "space_type").(string)
	return sp
}

// tokenized reports a whitespace-analyzed text field.
func (ix *index) tokenized(field string) bool {
	m := ix.fieldMapping(field)
	return m["type"] == "text"
}

func (s *Server) match(ix *index, q obj, d obj) (bool, error) {
	for kind, v := range q {
		body, _ := v.(obj)
		switch kind {
		case "match_all":
			return true, nil
		case "match_none":
			return false, nil
		case "bool":
			return s.matchBool(ix, body, d)
		case "constant_score", "dis_max":
			m, _, err := s.eval(ix, q, d)
			return m, err
		case "terms":
			for field, want := range body {
				var vals []any
				if lookup, ok := want.(obj); ok {
					src := s.indexes[str(lookup["index"])]
					if src == nil {
						return false, fmt.Errorf("terms lookup index %v missing", lookup["index"])
					}
					ld := src.docs[str(lookup["id"])]
					vals, _ = dig(ld, strings.Split(str(lookup["path"]), ".")...).([]any)
				} else {
					vals, _ = want.([]any)
				}
				set := map[string]bool{}
				for _, x := range vals {
					set[key(x)] = true
				}
				for _, have := range values(d, field) {
					if set[key(have)] {
						return true, nil
					}
				}
				return false, nil
			}
		case "term":
			for field, want := range body {
				if o, ok := want.(obj); ok {
					want = o["value"]
				}
				if ix.tokenized(field) { // a term of a text field is one of its words
					for _, tok := range ix.tokens(d, field) {
						if tok == str(want) {
							return true, nil
						}
					}
					return false, nil
				}
				for _, have := range values(d, field) {
					if key(have) == key(want) {
						return true, nil
					}
				}
				return false, nil
			}
		case "range":
			for field, b := range body {
				bo, _ := b.(obj)
				for _, have := range values(d, field) {
					if inRange(have, bo) {
						return true, nil
					}
				}
				return false, nil
			}
		case "prefix":
			for field, want := range body {
				w := str(want)
				if o, ok := want.(obj); ok {
					w = str(o["value"])
				}
				for _, tok := range ix.tokens(d, field) {
					if strings.HasPrefix(tok, w) {
						return true, nil
					}
				}
				return false, nil
			}
		case "wildcard":
			for field, want := range body {
				w := str(want)
				if o, ok := want.(obj); ok {
					w = str(o["value"])
				}
				re, err := wildcard(w)
				if err != nil {
					return false, err
				}
				for _, tok := range ix.tokens(d, field) {
					if re.MatchString(tok) {
						return true, nil
					}
				}
				return false, nil
			}
		case "match_phrase":
			for field, want := range body {
				phrase := strings.Fields(str(want))
				toks := ix.tokens(d, field)
				for i := 0; i+len(phrase) <= len(toks); i++ {
					if equalStrings(toks[i:i+len(phrase)], phrase) {
						return true, nil
					}
				}
				return false, nil
			}
		default:
			return false, fmt.Errorf("the fake does not evaluate %q queries", kind)
		}
	}
	return false, fmt.Errorf("empty query")
}

func (s *Server) matchBool(ix *index, b obj, d obj) (bool, error) {
	for _, k := range []string{"filter", "must"} {
		for _, c := range list(b[k]) {
			m, err := s.match(ix, c, d)
			if err != nil || !m {
				return false, err
			}
		}
	}
	for _, c := range list(b["must_not"]) {
		m, err := s.match(ix, c, d)
		if err != nil || m {
			return false, err
		}
	}
	should := list(b["should"])
	if len(should) == 0 {
		return true, nil
	}
	need := 0
	if v, ok := b["minimum_should_match"]; ok {
		need = int(num(v))
	} else if b["filter"] == nil && b["must"] == nil {
		need = 1
	}
	n := 0
	for _, c := range should {
		m, err := s.match(ix, c, d)
		if err != nil {
			return false, err
		}
		if m {
			n++
		}
	}
	return n >= need, nil
}

func (ix *index) tokens(d obj, field string) []string {
	var out []string
	for _, v := range values(d, field) {
		if ix.tokenized(field) {
			out = append(out, strings.Fields(str(v))...)
		} else {
			out = append(out, str(v))
		}
	}
	return out
}

func (s *Server) count(ix *index, q obj) (int, error) {
	hits, err := s.matches(ix, q["query"])
	return len(hits), err
}

func (s *Server) search(ix *index, q obj) (obj, error) {
	hits, err := s.matches(ix, q["query"])
	if err != nil {
		return nil, err
	}
	if v, ok := q["min_score"]; ok {
		kept := hits[:0]
		for _, h := range hits {
			if h.score >= num(v) {
				kept = append(kept, h)
			}
		}
		hits = kept
	}
	var aggs obj
	if a, ok := q["aggs"].(obj); ok {
		if aggs, err = s.aggregate(ix, hits, a); err != nil {
			return nil, err
		}
	}
	sortHits(hits, q["sort"])
	total := len(hits)
	from, size := 0, 10
	if v, ok := q["from"]; ok {
		from = int(num(v))
	}
	if v, ok := q["size"]; ok {
		size = int(num(v))
	}
	if win := ix.window; win > 0 && from+size > win {
		return nil, windowError{window: win, asked: from + size}
	}
	if after, ok := q["search_after"].([]any); ok {
		// search_after: the hits strictly after the given sort values.
		fields := list(q["sort"])
		if len(fields) != len(after) {
			return nil, fmt.Errorf("search_after has %d values, sort has %d fields", len(after), len(fields))
		}
		kept := hits[:0]
		for _, h := range hits {
			if afterValues(h, fields, after) {
				kept = append(kept, h)
			}
		}
		hits = kept
	}
	var page []any
	if c, ok := q["collapse"].(obj); ok {
		field := str(c["field"])
		seen := map[string]bool{}
		var firsts []hit
		for _, h := range hits {
			k := key(first(values(h.doc, field)))
			if !seen[k] {
				seen[k] = true
				firsts = append(firsts, h)
			}
		}
		inner, _ := c["inner_hits"].(obj)
		for _, h := range window(firsts, from, size) {
			out := render(h, q["_source"])
			if inner != nil {
				k := key(first(values(h.doc, field)))
				var members []hit
				for _, m := range hits {
					if key(first(values(m.doc, field))) == k {
						members = append(members, m)
					}
				}
				sortHits(members, inner["sort"])
				isize := 3
				if v, ok := inner["size"]; ok {
					isize = int(num(v))
				}
				var ih []any
				for _, m := range window(members, 0, isize) {
					ih = append(ih, render(m, inner["_source"]))
				}
				out["inner_hits"] = obj{str(inner["name"]): obj{"hits": obj{"total": obj{"value": len(members), "relation": "eq"}, "hits": ih}}}
			}
			page = append(page, out)
		}
	} else {
		fields := list(q["sort"])
		for _, h := range window(hits, from, size) {
			out := render(h, q["_source"])
			if len(fields) > 0 {
				out["sort"] = sortValues(h, fields)
			}
			page = append(page, out)
		}
	}
	if page == nil {
		page = []any{}
	}
	out := obj{"took": 1, "timed_out": false, "_shards": obj{"total": 1, "successful": 1, "skipped": 0, "failed": 0},
		"hits": obj{"total": obj{"value": total, "relation": "eq"}, "max_score": nil, "hits": page}}
	if aggs != nil {
		out["aggregations"] = aggs
	}
	return out, nil
}

// aggregate evaluates aggregations over hits: cardinality (exact here; a cluster's is
// approximate above its precision_threshold) and filter (doc_count and sub-aggregations
// over the hits matching its query).
func (s *Server) aggregate(ix *index, hits []hit, aggs obj) (obj, error) {
	out := obj{}
	for name, v := range aggs {
		a, _ := v.(obj)
		switch {
		case a["cardinality"] != nil:
			field := str(dig(a, "cardinality", "field"))
			seen := map[string]bool{}
			for _, h := range hits {
				for _, x := range values(h.doc, field) {
					seen[key(x)] = true
				}
			}
			out[name] = obj{"value": len(seen)}
		case a["filter"] != nil:
			fq, _ := a["filter"].(obj)
			var in []hit
			for _, h := range hits {
				m, err := s.match(ix, fq, h.doc)
				if err != nil {
					return nil, err
				}
				if m {
					in = append(in, h)
				}
			}
			res := obj{"doc_count": len(in)}
			if sub, ok := a["aggs"].(obj); ok {
				subs, err := s.aggregate(ix, in, sub)
				if err != nil {
					return nil, err
				}
				for k, x := range subs {
					res[k] = x
				}
			}
			out[name] = res
		default:
			return nil, fmt.Errorf("the fake does not evaluate aggregation %q", name)
		}
	}
	return out, nil
}

func (s *Server) updateByQuery(ix *index, q obj) (obj, error) {
	hits, err := s.matches(ix, q["query"])
	if err != nil {
		return nil, err
	}
	set, _ := dig(q, "script", "params", "set").(obj)
	for _, h := range hits {
		for k, v := range set {
			h.doc[k] = v
		}
	}
	return obj{"took": 1, "timed_out": false, "total": len(hits), "updated": len(hits), "failures": []any{}}, nil
}

func window(hits []hit, from, size int) []hit {
	if from >= len(hits) {
		return nil
	}
	return hits[from:min(from+size, len(hits))]
}

// sortHits orders by the sort clause (fields ascending or descending), else by score.
func sortHits(hits []hit, spec any) {
	fields := list(spec)
	if len(fields) == 0 {
		sort.SliceStable(hits, func(i, j int) bool { return hits[i].score > hits[j].score })
		return
	}
	sort.SliceStable(hits, func(i, j int) bool {
		for _, f := range fields {
			for field, dir := range f {
				a, b := first(values(hits[i].doc, field)), first(values(hits[j].doc, field))
				if field == "_score" {
					a, b = hits[i].score, hits[j].score
				}
				c := compare(a, b)
				if c == 0 {
					continue
				}
				if str(dir) == "desc" {
					return c > 0
				}
				return c < 0
			}
		}
		return false
	})
}

// sortValues are a hit's values of the sort fields, as a hit's "sort" carries them.
func sortValues(h hit, fields []obj) []any {
	var out []any
	for _, f := range fields {
		for field := range f {
			if field == "_score" {
				out = append(out, h.score)
			} else {
				out = append(out, first(values(h.doc, field)))
			}
		}
	}
	return out
}

// afterValues reports whether h sorts strictly after the values (search_after).
func afterValues(h hit, fields []obj, after []any) bool {
	have := sortValues(h, fields)
	i := 0
	for _, f := range fields {
		for _, dir := range f {
			c := compare(have[i], after[i])
			if str(dir) == "desc" {
				c = -c
			}
			if c != 0 {
				return c > 0
			}
			i++
		}
	}
	return false
}

func render(h hit, include any) obj {
	src := h.doc
	if fields, ok := include.([]any); ok {
		src = obj{}
		for _, f := range fields {
			if v, ok := h.doc[str(f)]; ok {
				src[str(f)] = v
			}
		}
	}
	return obj{"_index": "", "_id": h.id, "_score": h.score, "_source": src}
}

func values(d obj, field string) []any {
	v, ok := d[field]
	if !ok || v == nil {
		return nil
	}
	if a, ok := v.([]any); ok {
		return a
	}
	return []any{v}
}

func first(v []any) any {
	if len(v) == 0 {
		return nil
	}
	return v[0]
}

func list(v any) []obj {
	switch x := v.(type) {
	case []any:
		out := make([]obj, 0, len(x))
		for _, e := range x {
			if o, ok := e.(obj); ok {
				out = append(out, o)
			}
		}
		return out
	case obj:
		return []obj{x}
	}
	return nil
}

func dig(v any, path ...string) any {
	for _, p := range path {
		o, ok := v.(obj)
		if !ok {
			return nil
		}
		v = o[p]
	}
	return v
}

func str(v any) string {
	switch x := v.(type) {
	case string:
		return x
	case nil:
		return ""
	}
	return key(v)
}

func num(v any) float64 {
	switch x := v.(type) {
	case float64:
		return x
	case string:
		f, _ := strconv.ParseFloat(x, 64)
		return f
	}
	return 0
}

func floats(v any) []float64 {
	a, _ := v.([]any)
	out := make([]float64, len(a))
	for i, x := range a {
		out[i] = num(x)
	}
	return out
}

// key is a value's canonical form for exact matching.
func key(v any) string {
	switch x := v.(type) {
	case float64:
		return strconv.FormatFloat(x, 'f', -1, 64)
	case bool:
		return strconv.FormatBool(x)
	case string:
		return x
	case nil:
		return "\x00null"
	}
	b, _ := json.Marshal(v)
	return string(b)
}

func compare(a, b any) int {
	fa, aNum := a.(float64)
	fb, bNum := b.(float64)
	if aNum && bNum {
		switch {
		case fa < fb:
			return -1
		case fa > fb:
			return 1
		}
		return 0
	}
	return strings.Compare(str(a), str(b))
}

func inRange(v any, b obj) bool {
	if g, ok := b["gte"]; ok && compare(v, g) < 0 {
		return false
	}
	if l, ok := b["lte"]; ok && compare(v, l) > 0 {
		return false
	}
	if g, ok := b["gt"]; ok && compare(v, g) <= 0 {
		return false
	}
	if l, ok := b["lt"]; ok && compare(v, l) >= 0 {
		return false
	}
	return true
}

// wildcard compiles a wildcard pattern (* any run, ? one character, \ escapes).
func wildcard(p string) (*regexp.Regexp, error) {
	var b strings.Builder
	b.WriteString("^")
	esc := false
	for _, r := range p {
		switch {
		case esc:
			b.WriteString(regexp.QuoteMeta(string(r)))
			esc = false
		case r == '\\':
			esc = true
		case r == '*':
			b.WriteString(".*")
		case r == '?':
			b.WriteString(".")
		default:
			b.WriteString(regexp.QuoteMeta(string(r)))
		}
	}
	b.WriteString("$")
	return regexp.Compile("(?s)" + b.String())
}

func equalStrings(a, b []string) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}
