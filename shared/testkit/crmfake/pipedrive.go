package crmfake

import (
	"encoding/base64"
	"encoding/json"
	"fmt"
	"net/http"
	"strconv"
)

const pipedriveCreated = "2024-01-01T00:00:00Z"

// pipedriveList serves GET /api/v2/{organizations,persons}: limit (default 100,
// at most 500) and cursor, the opaque additional_data.next_cursor of the previous
// page (null on the last).
func (s *Server) pipedriveList(r *http.Request) (int, any, http.Header) {
	object := r.PathValue("object")
	var n int
	switch object {
	case "organizations":
		n = len(s.data.websites)
	case "persons":
		n = len(s.data.contacts)
	default:
		return http.StatusNotFound, map[string]any{"success": false, "error": "Unknown method .", "errorCode": 404}, nil
	}
	q := r.URL.Query()
	limit := 100
	if v := q.Get("limit"); v != "" {
		l, err := strconv.Atoi(v)
		if err != nil || l < 1 || l > 500 {
			return http.StatusBadRequest, s.badRequest("ERR_SCHEMA_VALIDATION_FAILED", "Validation failed: limit: Must be between 1 and 500"), nil
		}
		limit = l
	}
	start := 0
	if c := q.Get("cursor"); c != "" {
		id, ok := decodeCursor(c)
		if !ok {
			return http.StatusBadRequest, s.badRequest("ERR_SCHEMA_VALIDATION_FAILED", "Validation failed: cursor: Invalid cursor"), nil
		}
		start = id - 1
	}
	if s.opts.MaxPageSize > 0 {
		limit = min(limit, s.opts.MaxPageSize)
	}
	start = min(max(start, 0), n)
	end := min(start+limit, n)
	data := make([]map[string]any, 0, end-start)
	for i := start; i < end; i++ {
		item := map[string]any{
			"id": i + 1, "owner_id": 1, "add_time": pipedriveCreated, "update_time": pipedriveCreated,
			"is_deleted": false, "visible_to": 3, "label_ids": []int{}, "custom_fields": map[string]any{},
		}
		if object == "organizations" {
			item["name"] = fmt.Sprintf("Company %d", i+1)
			item["address"] = nil
			item["website"] = nullIfEmpty(s.data.websites[i])
		} else {
			item["name"] = fmt.Sprintf("Person %d", i+1)
			item["org_id"] = nil
			item["phones"] = []any{}
			emails := []map[string]any{}
			for k, e := range s.data.contacts[i] {
				label := "work"
				if k > 0 {
					label = "home"
				}
				emails = append(emails, map[string]any{"value": e, "primary": k == 0, "label": label})
			}
			item["emails"] = emails
		}
		data = append(data, item)
	}
	var next any
	if end < n {
		next = encodeCursor(end + 1)
	}
	return http.StatusOK, map[string]any{"success": true, "data": data, "additional_data": map[string]any{"next_cursor": next}}, nil
}

// encodeCursor writes the id of the next page's first item the way Pipedrive's
// cursors look (base64 of a small JSON object).
func encodeCursor(id int) string {
	b, _ := json.Marshal(map[string]int{"id": id})
	return base64.RawURLEncoding.EncodeToString(b)
}

func decodeCursor(c string) (int, bool) {
	b, err := base64.RawURLEncoding.DecodeString(c)
	if err != nil {
		return 0, false
	}
	var v struct{ ID int }
	if json.Unmarshal(b, &v) != nil || v.ID < 1 {
		return 0, false
	}
	return v.ID, true
}
