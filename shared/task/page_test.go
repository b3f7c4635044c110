package task_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"testing"

	"github.com/firmoapi/firmo/shared/apperr"
	"github.com/firmoapi/firmo/shared/task"
	"github.com/firmoapi/firmo/shared/task/tasktest"
)

// TestStatusPages reads a 1,200-record task's results page by page: every record's row
// appears on exactly one page, in submission order, next_offset chains the pages and
// the last page has none; progress and costs cover the whole task on every page.
func TestStatusPages(t *testing.T) {
	r := newRig(t, &tasktest.Echo{}, rigOptions{})
	ref := r.submit(t, tasktest.Keys("k", 1200))
	full := r.wait(t, ref)
	seen := map[string]int{}
	offset, pages := 0, 0
	for {
		v, err := r.eng.StatusPage(context.Background(), ref, task.Page{Offset: offset, Limit: 500})
		if err != nil {
			t.Fatal(err)
		}
		pages++
		if v.Page == nil || v.Page.Offset != offset || v.Page.Limit != 500 || v.Page.Returned != len(v.Results) {
			t.Fatalf("page at %d: %+v with %d results", offset, v.Page, len(v.Results))
		}
		got, _ := json.Marshal(v.CostMetadata)
		want, _ := json.Marshal(full.CostMetadata)
		if v.Progress != 100 || string(got) != string(want) {
			t.Fatalf("page at %d: progress %d, costs %v; want the whole task's", offset, v.Progress, v.CostMetadata)
		}
		for i := offset; i < offset+v.Page.Returned; i++ {
			key := fmt.Sprintf("k%d", i)
			if _, ok := v.Results[key]; !ok {
				t.Fatalf("page at %d lacks record %d (%s)", offset, i, key)
			}
			seen[key]++
		}
		if v.Page.NextOffset == nil {
			break
		}
		if *v.Page.NextOffset != offset+v.Page.Returned {
			t.Fatalf("next_offset %d after %d rows from %d", *v.Page.NextOffset, v.Page.Returned, offset)
		}
		offset = *v.Page.NextOffset
	}
	if pages != 3 || len(seen) != 1200 {
		t.Fatalf("%d pages, %d distinct records; want 3 pages of all 1,200", pages, len(seen))
	}
	v, err := r.eng.StatusPage(context.Background(), ref, task.Page{Offset: 1100, Limit: 50})
	if err != nil || len(v.Results) != 50 || v.Page.NextOffset == nil || *v.Page.NextOffset != 1150 {
		t.Fatalf("offset 1100 limit 50: %d results, page %+v, err %v", len(v.Results), v.Page, err)
	}
	for _, bad := range []task.Page{{Offset: -1}, {Limit: task.MaxPageLimit + 1}} {
		if _, err := r.eng.StatusPage(context.Background(), ref, bad); !errors.Is(err, apperr.ErrInvalid) {
			t.Errorf("page %+v: err %v, want a validation error", bad, err)
		}
	}
}

// TestSliceStopsAtPageBytes: a page stops before its rows pass task.PageBytes (always
// holding at least one), so an answer stays under Lambda's 6 MB whatever the rows hold.
func TestSliceStopsAtPageBytes(t *testing.T) {
	const row = 300 << 10 // the largest row a task stores
	from, to, next := task.Slice(100, task.Page{Offset: 10, Limit: 1000}, func(int) int { return row })
	if from != 10 || (to-from)*row > task.PageBytes || (to-from+1)*row <= task.PageBytes || next != to {
		t.Fatalf("slice [%d,%d) next %d of 300 KB rows; want as many as fit in %d bytes", from, to, next, task.PageBytes)
	}
	if _, to, next := task.Slice(3, task.Page{Offset: 0, Limit: 10}, func(int) int { return 10 << 20 }); to != 1 || next != 1 {
		t.Fatalf("an oversized first row: to %d next %d; want it alone on its page", to, next)
	}
	if from, to, next := task.Slice(5, task.Page{Offset: 9, Limit: 10}, func(int) int { return 1 }); from != 5 || to != 5 || next != -1 {
		t.Fatalf("offset past the end: [%d,%d) next %d; want an empty last page", from, to, next)
	}
}
