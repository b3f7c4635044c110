package crmfake

import (
	"fmt"
	"net/http"
	"regexp"
	"strconv"
	"strings"
)

// soql is the one query shape the fake understands:
// SELECT f1, f2 FROM Account|Contact [LIMIT n].
type soql struct {
	object string
	fields []string
	limit  int // 0: none
	batch  int
}

var (
	soqlPattern    = regexp.MustCompile(`(?i)^\s*SELECT\s+(\w+(?:\s*,\s*\w+)*)\s+FROM\s+(\w+)(?:\s+LIMIT\s+(\d+))?\s*$`)
	apiVersion     = regexp.MustCompile(`^v\d+\.\d$`)
	soqlFields     = map[string][]string{"Account": {"Id", "Name", "Website"}, "Contact": {"Id", "Email"}}
	sfIDPrefix     = map[string]string{"Account": "001", "Contact": "003"}
	batchSizeQuery = regexp.MustCompile(`(?i)batchSize\s*=\s*(\d+)`)
)

// salesforceQuery serves GET /services/data/vXX.X/query?q=SOQL. A page holds the
// batch size (default 2000, Sforce-Query-Options: batchSize=200..2000); when more
// records remain, nextRecordsUrl points at the query locator for the rest.
func (s *Server) salesforceQuery(r *http.Request) (int, any, http.Header) {
	version := r.PathValue("version")
	if !apiVersion.MatchString(version) {
		return http.StatusNotFound, s.badRequest("NOT_FOUND", "The requested resource does not exist"), nil
	}
	q, problem := parseSOQL(r.URL.Query().Get("q"))
	if problem != "" {
		return http.StatusBadRequest, s.badRequest("MALFORMED_QUERY", problem), nil
	}
	q.batch = 2000
	if m := batchSizeQuery.FindStringSubmatch(r.Header.Get("Sforce-Query-Options")); m != nil {
		b, _ := strconv.Atoi(m[1])
		q.batch = min(max(b, 200), 2000)
	}
	if s.opts.MaxPageSize > 0 {
		q.batch = min(q.batch, s.opts.MaxPageSize)
	}
	s.mu.Lock()
	if s.locators == nil {
		s.locators = map[string]*soql{}
	}
	locator := "01gFAKE" + randomHex(6)
	s.locators[locator] = q
	s.mu.Unlock()
	return http.StatusOK, s.salesforcePage(version, locator, q, 0), nil
}

// salesforceMore serves a nextRecordsUrl: /services/data/vXX.X/query/<locator>-<offset>.
func (s *Server) salesforceMore(r *http.Request) (int, any, http.Header) {
	version := r.PathValue("version")
	locator, offset, ok := strings.Cut(r.PathValue("locator"), "-")
	s.mu.Lock()
	q := s.locators[locator]
	s.mu.Unlock()
	at, err := strconv.Atoi(offset)
	if !ok || q == nil || err != nil || at < 0 || !apiVersion.MatchString(version) {
		return http.StatusBadRequest, s.badRequest("INVALID_QUERY_LOCATOR", "invalid query locator"), nil
	}
	return http.StatusOK, s.salesforcePage(version, locator, q, at), nil
}

func (s *Server) salesforcePage(version, locator string, q *soql, at int) map[string]any {
	total := len(s.data.websites)
	if q.object == "Contact" {
		total = len(s.data.contacts)
	}
	if q.limit > 0 {
		total = min(total, q.limit)
	}
	start, end := min(at, total), min(at+q.batch, total)
	records := make([]map[string]any, 0, end-start)
	for i := start; i < end; i++ {
		id := fmt.Sprintf("%s%015d", sfIDPrefix[q.object], i+1)
		rec := map[string]any{"attributes": map[string]any{
			"type": q.object, "url": fmt.Sprintf("/services/data/%s/sobjects/%s/%s", version, q.object, id),
		}}
		for _, f := range q.fields {
			switch f {
			case "Id":
				rec[f] = id
			case "Name":
				rec[f] = fmt.Sprintf("Company %d", i+1)
			case "Website":
				rec[f] = nullIfEmpty(s.data.websites[i])
			case "Email":
				rec[f] = nullIfEmpty(first(s.data.contacts[i]))
			}
		}
		records = append(records, rec)
	}
	body := map[string]any{"totalSize": total, "done": end >= total, "records": records}
	if end < total {
		body["nextRecordsUrl"] = fmt.Sprintf("/services/data/%s/query/%s-%d", version, locator, end)
	}
	return body
}

// parseSOQL reads the supported query shape, naming fields as Salesforce does
// (case-insensitive in the query, canonical in the records).
func parseSOQL(text string) (*soql, string) {
	m := soqlPattern.FindStringSubmatch(text)
	if m == nil {
		return nil, "unexpected token in query: " + text
	}
	q := &soql{}
	for obj := range soqlFields {
		if strings.EqualFold(obj, m[2]) {
			q.object = obj
		}
	}
	if q.object == "" {
		return nil, "sObject type '" + m[2] + "' is not supported."
	}
	for _, f := range strings.Split(m[1], ",") {
		f = strings.TrimSpace(f)
		known := ""
		for _, k := range soqlFields[q.object] {
			if strings.EqualFold(k, f) {
				known = k
			}
		}
		if known == "" {
			return nil, fmt.Sprintf("No such column '%s' on entity '%s'.", f, q.object)
		}
		q.fields = append(q.fields, known)
	}
	if m[3] != "" {
		q.limit, _ = strconv.Atoi(m[3])
	}
	return q, ""
}
