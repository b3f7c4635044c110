package mcpserver

import (
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/firmoapi/firmo/shared/client"
	"github.com/firmoapi/firmo/shared/contactsearch"
	"github.com/firmoapi/firmo/shared/namematch"
)

// The schemas' limits are the API's: the values shared/contactsearch and
// shared/namematch enforce.
func TestLimitsAreTheAPIs(t *testing.T) {
	for _, c := range []struct {
		name      string
		got, want int
	}{
		{"max_records minimum", minMaxRecords, contactsearch.MinMaxRecords},
		{"persona_id items", maxPersonaIDs, contactsearch.MaxPersonaIDs},
		{"results_by_company maximum", maxResultsByCompany, contactsearch.MaxResultsByCompany},
		{"min_match_confidence minimum", minMatchConfidence, namematch.MinConfidence},
		{"min_match_confidence maximum", maxMatchConfidence, namematch.MaxConfidence},
	} {
		if c.got != c.want {
			t.Errorf("%s = %d, the API's is %d", c.name, c.got, c.want)
		}
	}
	if searchMaxRecords > contactsearch.MaxMaxRecords || searchDefaultRecords < contactsearch.MinMaxRecords {
		t.Errorf("search_contacts max_records %d-%d (default %d) leaves the API's range", minMaxRecords, searchMaxRecords, searchDefaultRecords)
	}
}

func TestDecodeDiscoverKeepsRankOrder(t *testing.T) {
	body := `{"results":{"zeta.com":{"domain":"zeta.com","name":"Zeta","contacts":[{"persona_id":3,"name":"A"}]},` +
		`"alpha.com":{"domain":"alpha.com","name":"Alpha","contacts":[{"persona_id":1,"name":"B"},{"persona_id":2,"name":"C"}]}},` +
		`"total_contacts":3,"total_domains":2}`
	entries, totals, err := decodeDiscover([]byte(body))
	if err != nil {
		t.Fatal(err)
	}
	var order []string
	for _, e := range entries {
		order = append(order, fmt.Sprint(e.Domain, len(e.Contacts)))
	}
	if strings.Join(order, ",") != "zeta.com1,alpha.com2" || totals.TotalContacts != 3 || totals.TotalDomains != 2 {
		t.Errorf("entries %v, totals %+v; want the answer's order zeta.com then alpha.com", order, totals)
	}
	if _, _, err := decodeDiscover([]byte(`{"results":[]}`)); err == nil {
		t.Error("results as an array decoded without error")
	}
}

func TestKeyedRowsKeepOrderAndTrim(t *testing.T) {
	long := strings.Repeat("x", 500)
	rows, err := keyedRows([]byte(`{"b.com":{"Reasoning":"` + long + `"},"a.com":"Error: no data"}`))
	if err != nil {
		t.Fatal(err)
	}
	if len(rows) != 2 || rows[0]["key"] != "b.com" || rows[1]["key"] != "a.com" || rows[1]["value"] != "Error: no data" {
		t.Fatalf("rows = %v", rows)
	}
	if r, _ := rows[0]["Reasoning"].(string); len([]rune(r)) != 301 || !strings.HasSuffix(r, "…") {
		t.Errorf("a 500-character cell is %d characters, want clipped to 300 and marked", len([]rune(r)))
	}
}

func TestTrimValueCutsLongLists(t *testing.T) {
	var xs []any
	for i := range 14 {
		xs = append(xs, i)
	}
	got, _ := trimValue(map[string]any{"contacts": xs}, 1).(map[string]any)
	list, _ := got["contacts"].([]any)
	if len(list) != 11 || list[10] != "… 4 more" {
		t.Errorf("a 14-item list trimmed to %v; want 10 items and a count of the rest", list)
	}
}

func TestQueryOf(t *testing.T) {
	yes, min := true, 50
	q, err := queryOf(ContactFilters{Seniority: []string{"vp", "director"}, HasEmail: &yes, MinConnections: &min, EmployeeRange: "50,200"})
	if err != nil {
		t.Fatal(err)
	}
	if got := q.Encode(); got != "employee_range=50%2C200&has_email=true&min_connections=50&seniority=vp&seniority=director" {
		t.Errorf("query = %s", got)
	}
}

func TestToolErrorReadsTheAPIsError(t *testing.T) {
	for _, c := range []struct {
		err  error
		want []string
	}{
		{&client.Error{Status: 422, Code: "validation_error", Field: "department", Message: "not a department", RequestID: "r1"},
			[]string{"422 validation_error", `argument "department"`, "not a department", "fix department", "r1"}},
		{&client.Error{Status: 402, Code: "insufficient_credits", Message: "costs 5, balance 2"}, []string{"402", "too few credits"}},
		{&client.Error{Status: 429, Code: "rate_limited", RetryAfter: 7 * time.Second}, []string{"429", "try again in 7 s"}},
		{errors.New("dial tcp: connection refused"), []string{"could not be reached", "connection refused"}},
	} {
		msg := toolError("tool", c.err).Error()
		for _, w := range c.want {
			if !strings.Contains(msg, w) {
				t.Errorf("toolError(%v) = %q; want it to contain %q", c.err, msg, w)
			}
		}
	}
}

func TestSearchNote(t *testing.T) {
	ptr := func(n int) *int { return &n }
	rows := func(n int) []ContactRow { return make([]ContactRow, min(n, maxRows)) }
	for _, c := range []struct {
		in       SearchContactsInput
		returned int
		want     string // "" means no note
	}{
		{SearchContactsInput{MaxRecords: ptr(30), ResultsByCompany: ptr(0), Offset: 10}, 30, "offset 40"},
		{SearchContactsInput{}, 25, "set results_by_company 0"},
		{SearchContactsInput{MaxRecords: ptr(60), ResultsByCompany: ptr(0)}, 60, "showing 25 of the 60 contacts returned"},
		{SearchContactsInput{}, 3, ""},
	} {
		out := SearchContactsOutput{Contacts: rows(c.returned), Companies: make([]CompanyRow, 1)}
		note := searchNote(c.in, out, discoverTotals{TotalContacts: c.returned, TotalDomains: 1})
		if c.want == "" && note != "" || !strings.Contains(note, c.want) {
			t.Errorf("%d returned for %+v: note %q, want %q", c.returned, c.in, note, c.want)
		}
	}
}
