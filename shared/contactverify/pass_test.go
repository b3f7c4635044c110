package contactverify_test

import (
	"context"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/firmoapi/firmo/shared/contact"
	"github.com/firmoapi/firmo/shared/contactverify"
	"github.com/firmoapi/firmo/shared/kv/boltkv"
	"github.com/firmoapi/firmo/shared/smtpverify"
	"github.com/firmoapi/firmo/shared/world"
	"github.com/firmoapi/firmo/shared/worldmail"
)

// TestPassAgainstTheWorldsMail seeds a small world's contacts, runs the pass against
// the world's mail servers (real DNS and SMTP conversations on loopback), and checks
// every flag against the world's truth; a second run checks nothing again.
func TestPassAgainstTheWorldsMail(t *testing.T) {
	ctx := context.Background()
	began := time.Now()
	w := world.New(world.Options{Seed: 3, Companies: 80, AsOf: time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)})
	store, err := boltkv.Open(filepath.Join(t.TempDir(), "kv.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer store.Close()
	defer store.DeferSync()() // no fsync per write: the test is about verdicts, not durability
	contacts := contact.NewStore(store)
	if _, err := world.SeedContacts(ctx, contacts, w, nil); err != nil {
		t.Fatal(err)
	}
	mail, err := worldmail.Start(worldmail.Options{GreylistDelay: 100 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	defer mail.Close()
	mail.Set(w)

	// The truth: per address, whether the world's mail proves it.
	type truth struct {
		kind     world.MailKind
		departed bool
		real     bool // the world's mail server proves it: a mailbox on a domain that is not catch-all
	}
	want := map[string]truth{}
	var departedID int64
	brokenZone := 0 // addresses whose domain's DNS fails: no verdict, tried again next run
	for i := 0; i < w.Len(); i++ {
		m := w.Mail(i)
		servFail := w.Company(i).DNS.ServFail
		for _, p := range m.People {
			if p.Listed && p.PersonaID > 0 {
				if servFail {
					brokenZone++
				}
				real := (m.Kind == world.MailStrict || m.Kind == world.MailGreylist) && m.Accepts(p.Local)
				want[p.Local+"@"+m.Domain] = truth{m.Kind, p.Departed, real}
				if p.Departed && m.Kind == world.MailStrict && !m.Accepts(p.Local) && departedID == 0 {
					departedID = p.PersonaID
				}
			}
		}
	}
	// An ingest claiming a departed person's address valid is corrected by the pass.
	if departedID == 0 {
		t.Fatal("the test world has no departed person on a strict domain")
	}
	r, err := contacts.Get(ctx, departedID)
	if err != nil {
		t.Fatal(err)
	}
	r.EmailValidated = true
	if _, err := contacts.Put(ctx, r); err != nil {
		t.Fatal(err)
	}

	v := smtpverify.New(smtpverify.Settings{Resolver: mail.Resolver(), Port: mail.Port(), AllowHosts: mail.AllowHosts(),
		HostInterval: -1, GreylistWait: 200 * time.Millisecond, DisableTLS: true})
	t.Logf("world seeded and its truth read in %s", time.Since(began).Round(time.Millisecond))
	pass := contactverify.New(contactverify.Deps{Contacts: contacts, Store: store, Checker: v, Concurrency: 4, Budget: 20 * time.Second})
	rep, err := pass.Run(ctx)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("first run: %+v (%s since the test began)", rep, time.Since(began).Round(time.Millisecond))
	if rep.Checked == 0 || rep.Validated == 0 || rep.Pending != brokenZone {
		t.Fatalf("first run = %+v; want checks, validations and %d pending (broken zones)", rep, brokenZone)
	}
	validated, agreed := 0, 0
	err = contacts.List(ctx, func(r contact.Raw) error {
		if r.Email == "" {
			return nil
		}
		tr, ok := want[strings.ToLower(r.Email)]
		if !ok {
			t.Errorf("contact %d has %s, which the world's truth does not list", r.PersonaID, r.Email)
			return nil
		}
		real := tr.real
		if r.PersonaID == departedID && r.EmailValidated {
			t.Errorf("the departed contact %d kept the ingest's claim", r.PersonaID)
		}
		if r.EmailValidated != real {
			t.Errorf("contact %d %s (%s, departed %v): email_validated %v, want %v", r.PersonaID, r.Email, tr.kind, tr.departed, r.EmailValidated, real)
		} else {
			agreed++
		}
		if r.EmailValidated {
			validated++
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if validated == 0 || validated < rep.Validated {
		t.Fatalf("%d contacts validated; the run reported %d checks that validated", validated, rep.Validated)
	}
	t.Logf("%d contacts validated; %d of %d with an address agree with the world's truth", validated, agreed, rep.Contacts)

	before := mail.Recipients()
	again, err := pass.Run(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if again.Checked != brokenZone || again.Reused != again.Contacts-brokenZone || mail.Recipients() != before {
		t.Fatalf("second run = %+v (%d recipients asked); want every verdict reused, no conversation", again, mail.Recipients()-before)
	}
	if status, _, ok, err := pass.Verdict(ctx, r.Email); err != nil || !ok || status != "not_found" {
		t.Fatalf("verdict of the departed address %s = %q, %v, %v; want not_found", r.Email, status, ok, err)
	}
}
