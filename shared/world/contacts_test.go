package world

import (
	"context"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"testing"
	"time"

	"github.com/firmoapi/firmo/shared/contact"
	"github.com/firmoapi/firmo/shared/emailpattern"
	"github.com/firmoapi/firmo/shared/kv/boltkv"
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
		var known []emailpattern.Known
		for _, row := range rows {
			raw, err := contact.Validate(row)
			if err != nil {
				t.Fatalf("%s: generated row does not validate: %v (%+v)", c.Domain, err, row)
			}
			if ids[raw.PersonaID] {
				t.Fatalf("persona id %d twice", raw.PersonaID)
			}
			ids[raw.PersonaID] = true
			if s := raw.Skills; len(s) == 1 && len(regexp.MustCompile(`\b`+regexp.QuoteMeta(s[0])+`\b`).FindAllString(raw.Summary, -1)) > 1 {
				t.Errorf("%s: summary names its one skill twice: %q", c.Domain, raw.Summary)
			}
			d := contact.Derive(raw)
			if d.HasMobile() {
				mobiles++
			}
			if d.JobstartDate != nil {
				withDate++
			}
			if raw.Email != "" {
				first, last := splitName(raw.Name)
				known = append(known, emailpattern.Known{First: first, Last: last, Email: raw.Email})
			}
			total++
		}
		if len(known) >= 2 {
			if _, ok := emailpattern.InferPattern(known); ok {
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

// TestExportedContactsReingest: contacts.jsonl of an export, ingested as `firmo ingest
// contacts` does, gives exactly the contacts SeedContacts stores (same persona ids and
// fields), and ingesting it again changes nothing.
func TestExportedContactsReingest(t *testing.T) {
	ctx := context.Background()
	w := New(Options{Seed: 5, Companies: 15, AsOf: time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)})
	dir := t.TempDir()
	if err := w.Export(dir, nil); err != nil {
		t.Fatal(err)
	}
	seeded, ingested := contactStore(t), contactStore(t)
	n, err := SeedContacts(ctx, seeded, w, nil)
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, "contacts.jsonl")
	for run, wantChanged := range []int{n, 0} {
		f, err := os.Open(path)
		if err != nil {
			t.Fatal(err)
		}
		rep, err := ingested.Ingest(ctx, f, contact.IngestOptions{Name: path})
		f.Close()
		if err != nil || rep.Rows != n || rep.Accepted != n || rep.Skipped != 0 || rep.Changed != wantChanged {
			t.Fatalf("ingest %d: %+v, %v; want %d rows accepted, %d changed", run+1, rep, err, n, wantChanged)
		}
	}
	got, want := listContacts(t, ingested), listContacts(t, seeded)
	if len(want) != n || !reflect.DeepEqual(got, want) {
		t.Fatalf("re-ingested contacts differ from the seeded ones: %d vs %d", len(got), len(want))
	}
	// New contacts get ids after the world's, as after a seed.
	a, _ := seeded.NextID(ctx)
	b, _ := ingested.NextID(ctx)
	if a != b || a <= 0 {
		t.Fatalf("next persona id: seeded %d, ingested %d", a, b)
	}
}

func contactStore(t *testing.T) *contact.Store {
	t.Helper()
	kv, err := boltkv.Open(filepath.Join(t.TempDir(), "kv.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { kv.Close() })
	kv.DB().NoSync = true
	return contact.NewStore(kv)
}

func listContacts(t *testing.T, s *contact.Store) map[int64]contact.Raw {
	t.Helper()
	out := map[int64]contact.Raw{}
	if err := s.List(context.Background(), func(r contact.Raw) error { out[r.PersonaID] = r; return nil }); err != nil {
		t.Fatal(err)
	}
	return out
}
