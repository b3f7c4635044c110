package contact

import (
	"context"
	"encoding/csv"
	"encoding/json"
	"fmt"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/firmoapi/firmo/shared/title"
)

// person is a row whose every field is valid: the base each case spoils one value of.
func person(i int) map[string]any {
	return map[string]any{
		"name":          fmt.Sprintf("Person %d", i),
		"title":         "Head of Sales",
		"domain":        "example.com",
		"email":         fmt.Sprintf("person%d@example.com", i),
		"phone":         "+1 415 555 2671",
		"country":       "US",
		"state":         "CA",
		"skills":        "negotiation;crm",
		"linkedin_url":  fmt.Sprintf("https://www.linkedin.com/in/person-%d", i),
		"connections":   "500",
		"jobstart_date": "2021-03-01",
		"summary":       "Sells to mid-sized manufacturers.",
		"department":    title.Departments()[0],
		"seniority":     title.Seniorities()[0],
	}
}

// stored is what person(i) stores when nothing is dropped.
func stored(i int) Raw {
	p := person(i)
	return Raw{
		Name: p["name"].(string), Title: p["title"].(string), Domain: "example.com",
		Email: p["email"].(string), Phones: []string{"+1 415 555 2671"}, Country: "US", State: "CA",
		Skills: []string{"negotiation", "crm"}, LinkedinURL: p["linkedin_url"].(string), Connections: 500,
		JobstartDate: "2021-03-01", Summary: p["summary"].(string),
		Department: title.Departments()[0], Seniority: title.Seniorities()[0],
	}
}

// badValue is one invalid value of an optional field: the row is kept without it.
type badValue struct {
	field   string
	value   any
	problem string     // part of the warning's message: the value or what is wrong
	clear   func(*Raw) // what the stored contact lacks
}

// kept is one row expected to be stored: its bad values and the contact it gives.
type kept struct {
	bad  []badValue
	want Raw
}

// ingestCase ingests rows (kept ones first, then rows missing what makes a contact)
// and checks that every kept row is stored with its good fields intact, that each bad
// value is listed as a warning with its line, field and problem, and that exactly the
// rows missing a name, a domain or a valid persona_id are skipped.
func ingestCase(t *testing.T, file string, opts IngestOptions, rows []kept, skipped []string) {
	t.Helper()
	ctx := context.Background()
	s := newStore(t)
	rep, err := s.Ingest(ctx, strings.NewReader(file), opts)
	if err != nil {
		t.Fatal(err)
	}
	if rep.Rows != len(rows)+len(skipped) || rep.Accepted != len(rows) || rep.Skipped != len(skipped) {
		t.Fatalf("report: %d rows, %d accepted, %d skipped; want %d, %d, %d\nerrors: %v\nwarnings: %v",
			rep.Rows, rep.Accepted, rep.Skipped, len(rows)+len(skipped), len(rows), len(skipped), rep.Errors, rep.Warnings)
	}
	var wantWarnings int
	for i, k := range rows {
		line := i + 2 // after the CSV header; the JSON file starts with a blank line
		var got []RowError
		for _, w := range rep.Warnings {
			if w.Line == line {
				got = append(got, w)
			}
		}
		if len(got) != len(k.bad) {
			t.Errorf("line %d: warnings %v, want one per bad value of %v", line, got, k.bad)
			continue
		}
		wantWarnings += len(k.bad)
		for _, b := range k.bad {
			j := slices.IndexFunc(got, func(w RowError) bool { return w.Field == b.field })
			if j < 0 || !strings.Contains(got[j].Message, b.problem) {
				t.Errorf("line %d: warnings %v: want one naming %s and %q", line, got, b.field, b.problem)
			}
		}
	}
	if len(rep.Warnings) != wantWarnings {
		t.Errorf("%d warnings, want %d: %v", len(rep.Warnings), wantWarnings, rep.Warnings)
	}
	for i, field := range skipped {
		line := len(rows) + 2 + i
		if i >= len(rep.Errors) || rep.Errors[i].Line != line || rep.Errors[i].Field != field || rep.Errors[i].Message == "" {
			t.Errorf("errors = %v, want line %d skipped for %s", rep.Errors, line, field)
		}
	}
	byName := map[string]Raw{}
	if err := s.List(ctx, func(r Raw) error { byName[r.Name] = r; return nil }); err != nil {
		t.Fatal(err)
	}
	if len(byName) != len(rows) {
		t.Errorf("stored %d contacts, want %d (the rows with a name and a domain)", len(byName), len(rows))
	}
	for _, k := range rows {
		got, ok := byName[k.want.Name]
		if !ok {
			t.Errorf("%s not stored", k.want.Name)
			continue
		}
		got.PersonaID = 0
		if !reflect.DeepEqual(got, k.want) {
			t.Errorf("%s stored as\n%+v\nwant\n%+v", k.want.Name, got, k.want)
		}
	}
}

// spoil applies bad values to person(i) and the expected contact.
func spoil(i int, bad ...badValue) (map[string]any, kept) {
	row, want := person(i), stored(i)
	for _, b := range bad {
		row[b.field] = b.value
		b.clear(&want)
	}
	return row, kept{bad: bad, want: want}
}

var tooLong = strings.Repeat("x", maxText+1)

// csvBad is one bad CSV value of each optional field (skills, a string of names in
// CSV, cannot be invalid there; the JSON Lines test covers it).
var csvBad = []badValue{
	{"title", tooLong, "longer than", func(r *Raw) { r.Title = "" }},
	{"email", "not-an-email", `"not-an-email"`, func(r *Raw) { r.Email = "" }},
	{"phone", "12", `"12"`, func(r *Raw) { r.Phones = nil }},
	{"country", "Narnia", `"Narnia"`, func(r *Raw) { r.Country = "" }},
	{"state", tooLong, "longer than", func(r *Raw) { r.State = "" }},
	{"linkedin_url", "https://example.com/u/jane", `"https://example.com/u/jane"`, func(r *Raw) { r.LinkedinURL = "" }},
	{"connections", "-5", `"-5"`, func(r *Raw) { r.Connections = 0 }},
	{"jobstart_date", "2021-13-01", `"2021-13-01"`, func(r *Raw) { r.JobstartDate = "" }},
	{"summary", tooLong, "longer than", func(r *Raw) { r.Summary = "" }},
	{"department", "Sales Dept", `"Sales Dept"`, func(r *Raw) { r.Department = "" }},
	{"seniority", "boss", `"boss"`, func(r *Raw) { r.Seniority = "" }},
}

func TestIngestKeepsContactsWithBadOptionalValuesCSV(t *testing.T) {
	var rows []map[string]any
	var want []kept
	for i, b := range csvBad {
		row, k := spoil(i, b)
		rows, want = append(rows, row), append(want, k)
	}
	// One row with several bad values (the email and the LinkedIn URL, both of which
	// could identify it, among them).
	row, k := spoil(len(csvBad), csvBad[1], csvBad[5], csvBad[7], csvBad[10])
	rows, want = append(rows, row), append(want, k)
	noName, badDomain, badID := person(100), person(101), person(102)
	noName["name"] = ""
	badDomain["domain"] = "not a domain"
	badID["persona_id"] = "x"
	rows = append(rows, noName, badDomain, badID)

	var b strings.Builder
	w := csv.NewWriter(&b)
	w.Write(Columns)
	for _, r := range rows {
		rec := make([]string, len(Columns))
		for i, c := range Columns {
			if v, ok := r[c]; ok {
				rec[i] = v.(string)
			}
		}
		w.Write(rec)
	}
	w.Flush()
	ingestCase(t, b.String(), IngestOptions{Name: "people.csv"}, want, []string{"name", "domain", "persona_id"})
}

// JSON Lines can also carry a value of the wrong type, or an unknown key: each costs
// that value only.
func TestIngestKeepsContactsWithBadOptionalValuesJSONL(t *testing.T) {
	jsonBad := append(slices.Clone(csvBad),
		badValue{"skills", 7, "7", func(r *Raw) { r.Skills = nil }},
		badValue{"skills", []int{1, 2}, "[1,2]", func(r *Raw) { r.Skills = nil }},
		badValue{"email", 5, "5", func(r *Raw) { r.Email = "" }},
		badValue{"phone", map[string]int{"x": 1}, `{"x":1}`, func(r *Raw) { r.Phones = nil }},
		badValue{"connections", "many", `"many"`, func(r *Raw) { r.Connections = 0 }},
		badValue{"jobstart_date", 20210301, "20210301", func(r *Raw) { r.JobstartDate = "" }},
		badValue{"seniority", true, "true", func(r *Raw) { r.Seniority = "" }},
		badValue{"emial", "typo@example.com", "unknown field", func(*Raw) {}},
	)
	var lines []string
	var want []kept
	add := func(row map[string]any) {
		b, err := json.Marshal(row)
		if err != nil {
			t.Fatal(err)
		}
		lines = append(lines, string(b))
	}
	for i, b := range jsonBad {
		row, k := spoil(i, b)
		add(row)
		want = append(want, k)
	}
	row, k := spoil(len(jsonBad), jsonBad[len(csvBad)], jsonBad[len(csvBad)+2], csvBad[5], csvBad[10])
	add(row)
	want = append(want, k)
	noName, nameNumber, noDomain := person(100), person(101), person(102)
	delete(noName, "name")
	nameNumber["name"] = 42
	delete(noDomain, "domain")
	add(noName)
	add(nameNumber)
	add(noDomain)
	// A blank first line keeps line numbers as in the CSV test (header there).
	file := "\n" + strings.Join(lines, "\n") + "\n"
	ingestCase(t, file, IngestOptions{Name: "people.jsonl"}, want, []string{"name", "name", "domain"})
}

// Validate, which checks the demo world's rows, stays strict: any bad value is an error.
func TestValidateRejectsAnyBadValue(t *testing.T) {
	for _, b := range csvBad {
		row := Row{Name: "A B", Domain: "example.com"}
		raw, _ := json.Marshal(map[string]any{b.field: b.value})
		if err := json.Unmarshal(raw, &row); err != nil {
			t.Fatal(err)
		}
		if _, err := Validate(row); err == nil {
			t.Errorf("Validate with %s = %.20q: no error", b.field, fmt.Sprint(b.value))
		}
	}
}
