package allapp_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/firmoapi/firmo/shared/company"
	"github.com/firmoapi/firmo/shared/contact"
	"github.com/firmoapi/firmo/shared/world"
)

// TestREADMEEmailExampleOffline: in the local composition the README's email example of
// the demo world (seed 1: Michael Weber at hansen.de) is found over a real SMTP
// conversation with the world's mail server, and the verification pass sets
// email_validated on stored contacts from such conversations. Before a world is seeded
// there is no world mail.
func TestREADMEEmailExampleOffline(t *testing.T) {
	e := newEnv(t, nil)
	ctx := context.Background()
	// No world yet (as with FIRMO_SEED_COMPANIES=0): no world mail at all.
	if e.app.WorldMail() != nil {
		t.Fatal("world mail servers run before any world is seeded")
	}
	opts := world.Options{Seed: 1, Companies: 12, AsOf: time.Now()}.Normalized()
	if _, err := e.app.SeedWorld(ctx, opts, company.LoadOptions{}, nil); err != nil {
		t.Fatal(err)
	}
	if _, err := e.app.SeedContacts(ctx, opts, nil); err != nil {
		t.Fatal(err)
	}
	if e.app.WorldMail() == nil {
		t.Fatal("the local composition has no world mail")
	}
	if err := e.app.StartTasks(ctx); err != nil {
		t.Fatal(err)
	}
	before := e.app.WorldMail().Recipients()
	sub := e.do(t, "POST", "/v1/email/find", key(e.demoKey), `{"first_name":"Michael","last_name":"Weber","domain":"hansen.de"}`)
	id, _ := sub.body["job_id"].(string)
	if sub.status != 200 && sub.status != 202 || id == "" {
		t.Fatalf("submit = %d %s", sub.status, sub.raw)
	}
	var job answer
	for deadline := time.Now().Add(60 * time.Second); time.Now().Before(deadline); time.Sleep(100 * time.Millisecond) {
		job = e.do(t, "GET", "/v1/email/jobs/"+id, key(e.demoKey), "")
		if s, _ := job.body["status"].(string); s == "completed" || s == "failed" {
			break
		}
	}
	res, _ := job.body["result"].(map[string]any)
	found, _ := res["result"].(map[string]any)
	if res["status"] != "found" || found["email"] != "m.weber@hansen.de" {
		t.Fatalf("job = %s; want found m.weber@hansen.de", job.raw)
	}
	if e.app.WorldMail().Recipients() == before {
		t.Fatal("found without asking the world's mail server")
	}

	rep, err := e.app.EmailChecks().Run(ctx)
	if err != nil {
		t.Fatal(err)
	}
	validated := 0
	e.app.Contacts.List(ctx, func(r contact.Raw) error {
		if r.EmailValidated {
			validated++
			if !strings.Contains(r.Email, "@") {
				t.Errorf("contact %d validated without an address", r.PersonaID)
			}
		}
		return nil
	})
	if rep.Checked == 0 || validated == 0 {
		t.Fatalf("verification pass %+v validated %d contacts", rep, validated)
	}
}
