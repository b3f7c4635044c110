package task

import (
	"context"
	"encoding/json"
	"sort"

	"github.com/firmoapi/firmo/shared/apperr"
)

// Paging of task results: a status answer holds the rows of at most Limit records
// from Offset on (records in submission order, duplicates merged), and at most
// PageBytes of them, so that every answer stays well under the 6 MB a Lambda can
// return whatever the rows hold (a row is at most 300 KB). NextOffset names where the
// next page starts; it is absent on the last page.
const (
	DefaultPageLimit = 1000
	MaxPageLimit     = 10_000
	PageBytes        = 4 << 20
)

// Page selects the records of a status answer.
type Page struct {
	Offset int
	Limit  int // <= 0 takes DefaultPageLimit
}

// PageInfo is the page an answer holds.
type PageInfo struct {
	Offset int `json:"offset"`
	Limit  int `json:"limit"`
	// Returned is how many rows the page holds (records without a row yet hold none).
	Returned int `json:"returned"`
	// NextOffset is the offset of the next page; absent on the last one.
	NextOffset *int `json:"next_offset,omitempty"`
}

// CheckPage validates a page request (the fields named as the routes' query parameters).
func CheckPage(p Page) (Page, error) {
	if p.Offset < 0 {
		return p, apperr.Invalid("offset", "must be 0 or more; got %d", p.Offset)
	}
	if p.Limit <= 0 {
		p.Limit = DefaultPageLimit
	}
	if p.Limit > MaxPageLimit {
		return p, apperr.Invalid("limit", "must be 1 to %d; got %d", MaxPageLimit, p.Limit)
	}
	return p, nil
}

// Slice pages n items in order: items from..to-1 form the page, cut short where their
// sizes (size(i), in bytes) would pass PageBytes, though a page always holds at least
// one item. next is where the following page starts, or -1 when the page reaches the end.
func Slice(n int, p Page, size func(i int) int) (from, to, next int) {
	from = min(p.Offset, n)
	end := min(n, from+p.Limit)
	to, used := from, 0
	for to < end {
		s := size(to)
		if to > from && used+s > PageBytes {
			break
		}
		used += s
		to++
	}
	if to >= n {
		return from, to, -1
	}
	return from, to, to
}

// Info is the PageInfo of a page Slice cut.
func Info(p Page, returned, next int) *PageInfo {
	info := &PageInfo{Offset: p.Offset, Limit: p.Limit, Returned: returned}
	if next >= 0 {
		info.NextOffset = &next
	}
	return info
}

// StatusPage is Status with the rows of one page of records: those whose index
// (submission order, duplicates merged) is in [Offset, Offset+Limit), cut at PageBytes.
// Progress, warnings and costs still cover the whole task.
func (e *Engine) StatusPage(ctx context.Context, r Ref, p Page) (View, error) {
	p, err := CheckPage(p)
	if err != nil {
		return View{}, err
	}
	v, rows, err := e.status(ctx, r)
	if err != nil {
		return View{}, err
	}
	sort.Slice(rows, func(i, j int) bool { return rows[i].Index < rows[j].Index })
	// Page over record indexes, not over the rows written so far, so that a page of a
	// running task names the same records on every poll.
	byIndex := make(map[int]rowDoc, len(rows))
	for _, row := range rows {
		byIndex[row.Index] = row
	}
	total := max(v.records, 0)
	from, to, next := Slice(total, p, func(i int) int {
		if row, ok := byIndex[i]; ok {
			return len(row.Key) + len(row.Cells) + 8
		}
		return 0
	})
	page := make(map[string]json.RawMessage, to-from)
	for i := from; i < to; i++ {
		if row, ok := byIndex[i]; ok {
			page[row.Key] = row.Cells
		}
	}
	if v.Results != nil {
		v.Results = page
	} else {
		v.InterimResults = page
	}
	v.Page = Info(p, len(page), next)
	return v.View, nil
}
