package contact

import (
	"context"
	"errors"
	"path/filepath"
	"strings"
	"testing"

	"github.com/firmoapi/firmo/shared/apperr"
	"github.com/firmoapi/firmo/shared/kv/boltkv"
)

func newStore(t *testing.T) *Store {
	t.Helper()
	s, err := boltkv.Open(filepath.Join(t.TempDir(), "kv.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return NewStore(s)
}

func TestPhones(t *testing.T) {
	tests := []struct {
		raw     string
		country string
		want    Phone
	}{
		{"030 1234567", "DE", Phone{"+49301234567", Landline}},
		{"0151 23456789", "DE", Phone{"+4915123456789", Mobile}},
		{"+33 6 12 34 56 78", "", Phone{"+33612345678", Mobile}},
		{"01 42 68 53 00", "FR", Phone{"+33142685300", Landline}},
		{"0044 20 7946 0958", "", Phone{"+442079460958", Landline}},
		{"(415) 555-2671", "US", Phone{"+14155552671", Mobile}}, // NANP: fixed line or mobile
	}
	for _, tt := range tests {
		t.Run(tt.raw, func(t *testing.T) {
			got := Phones([]string{tt.raw}, tt.country)
			if len(got) != 1 || got[0] != tt.want {
				t.Fatalf("Phones(%q, %q) = %v, want %v", tt.raw, tt.country, got, tt.want)
			}
		})
	}
	if got := Phones([]string{"12"}, "DE"); len(got) != 0 {
		t.Fatalf("invalid number kept: %v", got)
	}
}

func TestDerive(t *testing.T) {
	c := Derive(Raw{PersonaID: 1, Name: "Anna Schmidt", Title: "Leiterin Personal", Domain: "x.de", Country: "DE"})
	if c.Department != "Human Resources" {
		t.Errorf("department = %q, want Human Resources", c.Department)
	}
	c = Derive(Raw{PersonaID: 1, Name: "A B", Title: "CTO", Domain: "x.de", Department: "Other", Seniority: "manager"})
	if c.Department != "Other" || c.Seniority != "manager" {
		t.Errorf("given department/seniority not kept: %q %q", c.Department, c.Seniority)
	}
	c = Derive(Raw{PersonaID: 1, Name: "A B", Title: "Chief Technology Officer", Domain: "x.de"})
	if c.Seniority != "executive" {
		t.Errorf("seniority = %q, want executive", c.Seniority)
	}
}

func TestLinkedinUsername(t *testing.T) {
	for in, want := range map[string]string{
		"https://www.linkedin.com/in/Jane-Doe-123/": "jane-doe-123",
		"linkedin.com/in/jdoe?trk=x":                "jdoe",
		"jdoe":                                      "jdoe",
		"not a name":                                "",
	} {
		if got := LinkedinUsername(in); got != want {
			t.Errorf("LinkedinUsername(%q) = %q, want %q", in, got, want)
		}
	}
}

const csvFile = `name,title,domain,email,phone,country,state,skills,linkedin_url,connections,jobstart_date,summary
Jane Doe,VP Engineering,Example.com,Jane.Doe@example.com,+1 415 555 2671;+1 415 555 2672,US,CA,go;kubernetes,https://www.linkedin.com/in/janedoe,500,2021-03-01,Builds teams
Max Muster,Vertriebsleiter,beispiel.de,,030 1234567,DE,BE,,,,,
Bad Row,CEO,example.com,not-an-email,,US,,,,,,
No Domain,CEO,,,,US,,,,,,
Bad Date,CEO,example.com,,,US,,,,,2021-13-01,
`

func TestIngestCSV(t *testing.T) {
	ctx := context.Background()
	s := newStore(t)
	rep, err := s.Ingest(ctx, strings.NewReader(csvFile), IngestOptions{Name: "c.csv"})
	if err != nil {
		t.Fatal(err)
	}
	// Only the row without a domain is skipped; a bad email or date costs that value.
	if rep.Rows != 5 || rep.Accepted != 4 || rep.Changed != 4 || rep.Skipped != 1 {
		t.Fatalf("report = %+v", rep)
	}
	if len(rep.Errors) != 1 || rep.Errors[0].Line != 5 || rep.Errors[0].Field != "domain" {
		t.Fatalf("errors = %+v, want line 5 domain", rep.Errors)
	}
	wantWarn := []RowError{{Line: 4, Field: "email"}, {Line: 6, Field: "jobstart_date"}}
	if len(rep.Warnings) != len(wantWarn) {
		t.Fatalf("warnings = %+v, want %d", rep.Warnings, len(wantWarn))
	}
	for i, w := range wantWarn {
		if rep.Warnings[i].Line != w.Line || rep.Warnings[i].Field != w.Field {
			t.Errorf("warning %d = %+v, want line %d field %s", i, rep.Warnings[i], w.Line, w.Field)
		}
	}
	again, err := s.Ingest(ctx, strings.NewReader(csvFile), IngestOptions{Name: "c.csv"})
	if err != nil {
		t.Fatal(err)
	}
	if again.Changed != 0 || again.Accepted != 4 {
		t.Fatalf("second ingest changed data: %+v", again)
	}
	var all []Raw
	if err := s.List(ctx, func(r Raw) error { all = append(all, r); return nil }); err != nil {
		t.Fatal(err)
	}
	if len(all) != 4 {
		t.Fatalf("stored %d contacts, want 4 (ingest must be idempotent)", len(all))
	}
	jane, err := s.ByEmail(ctx, "JANE.DOE@EXAMPLE.COM")
	if err != nil {
		t.Fatal(err)
	}
	if jane.Domain != "example.com" || len(jane.Phones) != 2 || len(jane.Skills) != 2 {
		t.Fatalf("jane = %+v", jane)
	}
	byLI, err := s.ByLinkedin(ctx, "JaneDoe")
	if err != nil || byLI.PersonaID != jane.PersonaID {
		t.Fatalf("ByLinkedin = %+v, %v", byLI, err)
	}
	if _, err := s.ByEmail(ctx, "nobody@example.com"); !errors.Is(err, apperr.ErrNotFound) {
		t.Fatalf("unknown email: %v, want not found", err)
	}
	c := Derive(jane)
	if len(c.Phone) != 2 || c.Phone[0].Type == "" || c.Seniority != "vp" || c.Department != "Technology" {
		t.Fatalf("derived = %+v", c)
	}
}

func TestIngestJSONLExplicitIDs(t *testing.T) {
	ctx := context.Background()
	s := newStore(t)
	in := `{"persona_id": 100, "name": "A One", "title": "CFO", "domain": "a.com", "phone": ["+44 20 7946 0958"], "skills": ["ifrs"]}
{"name": "B Two", "title": "Engineer", "domain": "a.com"}
{"persona_id": "x", "name": "C", "domain": "a.com"}
{"name": "D", "domain": "a.com", "department": "sales"}
{"name": "E", "domain": "a.com", "unknown": 1}
`
	rep, err := s.Ingest(ctx, strings.NewReader(in), IngestOptions{Name: "c.jsonl"})
	if err != nil {
		t.Fatal(err)
	}
	// A bad persona_id skips its row (it says which contact the row updates); a bad
	// department and an unknown key cost only themselves.
	if rep.Accepted != 4 || rep.Skipped != 1 {
		t.Fatalf("report = %+v", rep)
	}
	if len(rep.Errors) != 1 || rep.Errors[0].Field != "persona_id" || rep.Errors[0].Line != 3 {
		t.Fatalf("errors = %+v", rep.Errors)
	}
	if len(rep.Warnings) != 2 || rep.Warnings[0].Field != "department" || rep.Warnings[0].Line != 4 ||
		rep.Warnings[1].Field != "unknown" || rep.Warnings[1].Line != 5 {
		t.Fatalf("warnings = %+v", rep.Warnings)
	}
	a, err := s.Get(ctx, 100)
	if err != nil || a.Name != "A One" {
		t.Fatalf("Get(100) = %+v, %v", a, err)
	}
	var ids []int64
	s.List(ctx, func(r Raw) error { ids = append(ids, r.PersonaID); return nil })
	for _, id := range ids {
		if id != 100 && id <= 100 {
			t.Fatalf("generated id %d collides with the explicit range (<= 100)", id)
		}
	}
}

// An invalid phone number drops that number, not the contact: the row is kept with its
// other numbers and the number is listed as a warning with its line.
func TestIngestKeepsContactWithInvalidPhone(t *testing.T) {
	ctx := context.Background()
	s := newStore(t)
	in := `name,domain,email,phone,country
Ana Bad,a.com,ana@a.com,12,DE
Ben Mixed,a.com,ben@a.com,030 1234567;not a number,DE
`
	rep, err := s.Ingest(ctx, strings.NewReader(in), IngestOptions{Name: "c.csv"})
	if err != nil {
		t.Fatal(err)
	}
	if rep.Rows != 2 || rep.Accepted != 2 || rep.Skipped != 0 || len(rep.Errors) != 0 {
		t.Fatalf("report = %+v, want both rows accepted", rep)
	}
	want := []RowError{{Line: 2, Field: "phone"}, {Line: 3, Field: "phone"}}
	if len(rep.Warnings) != len(want) {
		t.Fatalf("warnings = %+v, want %d", rep.Warnings, len(want))
	}
	for i, w := range want {
		if got := rep.Warnings[i]; got.Line != w.Line || got.Field != w.Field || got.Message == "" {
			t.Errorf("warning %d = %+v, want line %d field %s", i, got, w.Line, w.Field)
		}
	}
	ana, err := s.ByEmail(ctx, "ana@a.com")
	if err != nil || len(ana.Phones) != 0 {
		t.Fatalf("ana = %+v, %v; want kept without phones", ana, err)
	}
	ben, err := s.ByEmail(ctx, "ben@a.com")
	if err != nil || len(ben.Phones) != 1 || ben.Phones[0] != "030 1234567" {
		t.Fatalf("ben = %+v, %v; want kept with the valid phone only", ben, err)
	}
}
