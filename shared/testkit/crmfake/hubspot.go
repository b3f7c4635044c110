package crmfake

import (
	"fmt"
	"net/http"
	"net/url"
	"strconv"
	"strings"
)

// hubspotCreated is every fake record's creation and update time.
const hubspotCreated = "2024-01-01T00:00:00Z"

// hubspotList serves GET /crm/v3/objects/{companies,contacts}: limit (at most
// 100), properties (comma separated; unknown ones left out, as HubSpot does) and
// after, the opaque cursor of paging.next.after.
func (s *Server) hubspotList(r *http.Request) (int, any, http.Header) {
	object := r.PathValue("object")
	var n int
	switch object {
	case "companies":
		n = len(s.data.websites)
	case "contacts":
		n = len(s.data.contacts)
	default:
		return http.StatusNotFound, s.badRequest("OBJECT_NOT_FOUND", "Unable to infer object type from: "+object), nil
	}
	q := r.URL.Query()
	limit := 10
	if v := q.Get("limit"); v != "" {
		l, err := strconv.Atoi(v)
		if err != nil || l < 1 || l > 100 {
			return http.StatusBadRequest, s.badRequest("VALIDATION_ERROR", "limit must be between 1 and 100"), nil
		}
		limit = l
	}
	after := 0
	if v := q.Get("after"); v != "" {
		a, err := strconv.Atoi(v)
		if err != nil || a < 0 {
			return http.StatusBadRequest, s.badRequest("VALIDATION_ERROR", "invalid after: "+v), nil
		}
		after = a
	}
	wanted := map[string]bool{}
	for _, p := range strings.Split(q.Get("properties"), ",") {
		wanted[strings.TrimSpace(p)] = true
	}
	if s.opts.MaxPageSize > 0 {
		limit = min(limit, s.opts.MaxPageSize)
	}
	start, end := min(after, n), min(after+limit, n)
	results := make([]map[string]any, 0, end-start)
	for i := start; i < end; i++ {
		id := strconv.Itoa(1000001 + i)
		props := map[string]any{"hs_object_id": id, "createdate": hubspotCreated, "lastmodifieddate": hubspotCreated}
		if object == "companies" {
			s.hubspotCompany(i, wanted, props)
		} else if wanted["email"] {
			props["email"] = nullIfEmpty(first(s.data.contacts[i]))
		}
		results = append(results, map[string]any{
			"id": id, "properties": props, "createdAt": hubspotCreated, "updatedAt": hubspotCreated, "archived": false,
		})
	}
	body := map[string]any{"results": results}
	if end < n {
		next := url.Values{}
		for k, v := range q {
			next[k] = v
		}
		next.Set("after", strconv.Itoa(end))
		body["paging"] = map[string]any{"next": map[string]any{
			"after": strconv.Itoa(end),
			"link":  s.url + r.URL.Path + "?" + next.Encode(),
		}}
	}
	return http.StatusOK, body, nil
}

// hubspotCompany fills company i's requested properties. One company in five has
// its website only in "website" with "domain" empty (records imported without
// HubSpot's auto-fill); the others only in "domain", so a client must read both.
func (s *Server) hubspotCompany(i int, wanted map[string]bool, props map[string]any) {
	w := s.data.websites[i]
	domain, website := w, ""
	if i%5 == 0 {
		domain, website = "", w
	}
	if wanted["domain"] {
		props["domain"] = nullIfEmpty(domain)
	}
	if wanted["website"] {
		props["website"] = nullIfEmpty(website)
	}
	if wanted["name"] {
		props["name"] = fmt.Sprintf("Company %d", i+1)
	}
}

func first(values []string) string {
	if len(values) == 0 {
		return ""
	}
	return values[0]
}

func nullIfEmpty(s string) any {
	if s == "" {
		return nil
	}
	return s
}
