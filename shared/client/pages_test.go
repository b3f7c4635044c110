package client

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strconv"
	"testing"
)

// TestWaitReadsEveryPage: an ended task whose results come in pages (page.next_offset)
// is answered by Wait with all of them, for object results (keyed by record) and array
// results (bulk match rows) alike.
func TestWaitReadsEveryPage(t *testing.T) {
	for _, array := range []bool{false, true} {
		t.Run(fmt.Sprint("array=", array), func(t *testing.T) {
			const total, limit = 7, 3
			srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				offset, _ := strconv.Atoi(r.URL.Query().Get("offset"))
				end := min(total, offset+limit)
				page := map[string]any{"offset": offset, "limit": limit, "returned": end - offset}
				if end < total {
					page["next_offset"] = end
				}
				var results any
				if array {
					l := []string{}
					for i := offset; i < end; i++ {
						l = append(l, fmt.Sprint("row", i))
					}
					results = l
				} else {
					m := map[string]int{}
					for i := offset; i < end; i++ {
						m[fmt.Sprint("k", i)] = i
					}
					results = m
				}
				w.Header().Set("Content-Type", "application/json")
				json.NewEncoder(w).Encode(map[string]any{"status": "completed", "progress": 100, "total_rows": total, "results": results, "page": page})
			}))
			defer srv.Close()
			c, err := New(Config{BaseURL: srv.URL})
			if err != nil {
				t.Fatal(err)
			}
			st, err := c.Wait(context.Background(), "/v1/bulkmatch/status/x", WaitOptions{})
			if err != nil {
				t.Fatal(err)
			}
			var got struct {
				Results json.RawMessage `json:"results"`
				Page    struct {
					Returned   int  `json:"returned"`
					NextOffset *int `json:"next_offset"`
				} `json:"page"`
			}
			if err := json.Unmarshal(st.Body, &got); err != nil {
				t.Fatal(err)
			}
			n := 0
			if array {
				var l []string
				json.Unmarshal(got.Results, &l)
				n = len(l)
				if n == total && (l[0] != "row0" || l[total-1] != "row6") {
					t.Fatalf("rows out of order: %v", l)
				}
			} else {
				var m map[string]int
				json.Unmarshal(got.Results, &m)
				n = len(m)
			}
			if n != total || got.Page.Returned != total || got.Page.NextOffset != nil {
				t.Fatalf("%d results, page %+v; want all %d in one", n, got.Page, total)
			}
		})
	}
}
