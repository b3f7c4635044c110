package world

import (
	"testing"
	"time"

	"github.com/firmoapi/firmo/shared/contact"
	"github.com/firmoapi/firmo/shared/emailfind"
)

func TestContactRows(t *testing.T) {
	w := New(Options{Seed: 7, Companies: 60, AsOf: time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)})
	total, mobiles, withDate, patterned := 0, 0, 0, 0
	ids := map[int64]bool{}
	for i := 0; i < w.Len(); i++ {
		c := w.Company(i)
		rows := w.ContactRows(i, c)
		if len(rows) == 0 || len(rows) > MaxContactsPerCompany {
			t.Fatalf("%s: %d contacts", c.Domain, len(rows))
		}
		var known []emailfind.Known
		for _, row := range rows {
			raw, err := contact.Validate(row)
			if err != nil {
				t.Fatalf("%s: generated row does not validate: %v (%+v)", c.Domain, err, row)
			}
			if ids[raw.PersonaID] {
				t.Fatalf("persona id %d twice", raw.PersonaID)
			}
			ids[raw.PersonaID] = true
			d := contact.Derive(raw)
			if d.HasMobile() {
				mobiles++
			}
			if d.JobstartDate != nil {
				withDate++
			}
			if raw.Email != "" {
				first, last := splitName(raw.Name)
				known = append(known, emailfind.Known{First: first, Last: last, Email: raw.Email})
			}
			total++
		}
		if len(known) >= 2 {
			if _, ok := emailfind.InferPattern(known); ok {
				patterned++
			}
		}
		again := w.ContactRows(i, w.Company(i))
		if len(again) != len(rows) || again[len(again)-1].Name != rows[len(rows)-1].Name {
			t.Fatalf("%s: contacts are not deterministic", c.Domain)
		}
	}
	if avg := float64(total) / float64(w.Len()); avg < 12 || avg > 25 {
		t.Errorf("%.1f contacts per company, want about 20", avg)
	}
	if mobiles < total/3 || withDate == total || withDate < total/2 || patterned == 0 {
		t.Errorf("mix: %d contacts, %d with a mobile, %d with a start date, %d companies with an inferable pattern", total, mobiles, withDate, patterned)
	}
}

func splitName(n string) (string, string) {
	for i := 0; i < len(n); i++ {
		if n[i] == ' ' {
			return n[:i], n[i+1:]
		}
	}
	return n, ""
}
