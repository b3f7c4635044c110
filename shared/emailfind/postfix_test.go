package emailfind

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/firmoapi/firmo/shared/emailpattern"
	"github.com/firmoapi/firmo/shared/smtpverify"
	"github.com/firmoapi/firmo/shared/testkit"
)

// realVerifier is the SMTP verifier against a private Postfix and an in-process DNS
// server: strict.example.com holds a few mailboxes, catchall.example.com accepts any.
func realVerifier(t *testing.T, tls bool) *smtpverify.Verifier {
	t.Helper()
	mailboxes := []string{"@catchall.example.com", "jane.doe@strict.example.com", "mary.berg@strict.example.com", "jurgen.gross@strict.example.com"}
	for i := 0; i < 500; i += 7 {
		mailboxes = append(mailboxes, fmt.Sprintf("p%d.smith@strict.example.com", i))
	}
	pf := testkit.StartPostfix(t, testkit.PostfixConfig{Mailboxes: mailboxes, TLS: tls})
	mx := []testkit.DNSMX{{Pref: 10, Host: "mx.example.net"}}
	dns := testkit.StartDNS(t, testkit.DNSZone{
		MX: map[string][]testkit.DNSMX{"strict.example.com": mx, "catchall.example.com": mx, "nullmx.example.com": {{Host: "."}}},
		A:  map[string][]string{"mx.example.net": {"127.0.0.1"}},
	})
	return smtpverify.New(smtpverify.Settings{
		Resolver: dns.Addr, Port: pf.Port, HELO: "probe.firmo.test", From: "verify@firmo.test",
		CommandTimeout: 5 * time.Second, PerHost: 20, HostInterval: -1,
		AllowHosts: []string{"mx.example.net"}, // the loopback Postfix
	})
}

// TestJobsAgainstPostfix runs email jobs end to end: task engine, finder, real SMTP.
func TestJobsAgainstPostfix(t *testing.T) {
	r := newJobRig(t, realVerifier(t, true))
	ctx := context.Background()
	reqs := []Request{
		{FirstName: "Jane", LastName: "Doe", Domain: "strict.example.com"},
		{FirstName: "Mary-Jane", LastName: "van der Berg", Domain: "strict.example.com", KnownPattern: "first.last"},
		{FirstName: "Jürgen", LastName: "Groß", Domain: "strict.example.com"},
		{FirstName: "John", LastName: "Roe", Domain: "strict.example.com"},
		{FirstName: "Jane", LastName: "Doe", Domain: "catchall.example.com"},
		{FirstName: "Jane", LastName: "Doe", Domain: "catchall.example.com", KnownPattern: "first.last"},
		{FirstName: "Jane", LastName: "Doe", Domain: "nullmx.example.com"},
	}
	want := []struct {
		status, email string
		tier          emailpattern.Tier
	}{
		{"found", "jane.doe@strict.example.com", emailpattern.TierCommon},
		{"found", "mary.berg@strict.example.com", emailpattern.TierKnown},
		{"found", "jurgen.gross@strict.example.com", emailpattern.TierCommon},
		{"not_found", "", ""},
		{"catch_all", "", ""},
		{"catch_all_pattern", "", ""},
		{"undeliverable", "", ""},
	}
	sub, err := r.svc.Submit(ctx, r.org.ID, Batch{Requests: reqs})
	if err != nil {
		t.Fatal(err)
	}
	v := r.wait(t, r.org.ID, sub.BatchID)
	for i, j := range v.Results {
		if j.Status != JobCompleted {
			t.Fatalf("job %d = %+v", i, j)
		}
		res := j.Result
		if res.Status != want[i].status {
			t.Errorf("job %d (%s %s @ %s): status %s, want %s", i, reqs[i].FirstName, reqs[i].LastName, reqs[i].Domain, res.Status, want[i].status)
			continue
		}
		if want[i].email == "" {
			if res.Result != nil {
				t.Errorf("job %d: result %+v, want none", i, res.Result)
			}
			continue
		}
		if res.Result == nil || res.Result.Email != want[i].email || res.Result.Tier != want[i].tier || res.Result.SMTPCode != 250 || !res.Result.Valid {
			t.Errorf("job %d: result %+v, want %s (%s, 250, valid)", i, res.Result, want[i].email, want[i].tier)
		}
		if res.Attempts < 1 && res.Status != "undeliverable" {
			t.Errorf("job %d: attempts %d", i, res.Attempts)
		}
	}
}

// TestBatchOf500AgainstPostfix: every job of a full batch is accounted for.
func TestBatchOf500AgainstPostfix(t *testing.T) {
	r := newJobRig(t, realVerifier(t, false)) // STARTTLS is covered above; 500 handshakes only cost time
	reqs := make([]Request, MaxBatch)
	wantFound := 0
	for i := range reqs {
		reqs[i] = Request{FirstName: fmt.Sprintf("P%d", i), LastName: "Smith", Domain: "strict.example.com"}
		if i%7 == 0 {
			wantFound++
		}
	}
	start := time.Now()
	sub, err := r.svc.Submit(context.Background(), r.org.ID, Batch{Requests: reqs})
	if err != nil {
		t.Fatal(err)
	}
	v := r.wait(t, r.org.ID, sub.BatchID)
	t.Logf("500 jobs in %s", time.Since(start))
	if v.Total != MaxBatch || v.Completed != MaxBatch || v.Failed != 0 {
		t.Fatalf("batch: total %d completed %d failed %d", v.Total, v.Completed, v.Failed)
	}
	found := 0
	for i, j := range v.Results {
		switch {
		case j.Result.Status == "found":
			found++
			if want := fmt.Sprintf("p%d.smith@strict.example.com", i); j.Result.Result.Email != want {
				t.Errorf("job %d found %s, want %s", i, j.Result.Result.Email, want)
			}
		case j.Result.Status != "not_found":
			t.Errorf("job %d: status %s", i, j.Result.Status)
		}
	}
	if found != wantFound {
		t.Errorf("found %d, want %d", found, wantFound)
	}
}
