package worldmail

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/firmoapi/firmo/shared/emailfind"
	"github.com/firmoapi/firmo/shared/emailpattern"
	"github.com/firmoapi/firmo/shared/smtpverify"
	"github.com/firmoapi/firmo/shared/world"
)

// testWorld is small: mail truth is generated per domain on first use.
func testWorld() *world.World {
	return world.New(world.Options{Seed: 1, Companies: 160, AsOf: time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)})
}

func startWorld(t *testing.T, w *world.World) *Server {
	t.Helper()
	s, err := Start(Options{GreylistDelay: 150 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	s.Set(w)
	return s
}

// verifierFor is the verifier as the local composition builds it against s: resolver
// and port pointed at the world's servers, the MX host names admitted by name.
func verifierFor(s *Server, allow []string) *smtpverify.Verifier {
	return smtpverify.New(smtpverify.Settings{Resolver: s.Resolver(), Port: s.Port(), AllowHosts: allow,
		HostInterval: -1, GreylistWait: 2 * s.GreylistDelay(), DisableTLS: true,
		DialTimeout: 2 * time.Second, CommandTimeout: 5 * time.Second})
}

// staticPatterns answers one template for every domain.
type staticPatterns map[string]string

func (p staticPatterns) CompanyPattern(_ context.Context, domain string) (emailpattern.Pattern, bool, error) {
	t, ok := p[domain]
	return emailpattern.Pattern{Template: t, Domain: domain}, ok, nil
}

// cases picks, from the world's truth, one company of each mail kind and people in it.
type pick struct {
	mail   world.Mail
	person world.Mailbox
}

func picks(t *testing.T, w *world.World) map[string]pick {
	t.Helper()
	out := map[string]pick{}
	for i := 0; i < w.Len() && len(out) < 6; i++ {
		m := w.Mail(i)
		c := w.Company(i)
		for _, p := range m.People {
			first, last, _ := strings.Cut(p.Name, " ")
			if strings.ContainsAny(first+last, " -'") {
				continue // keep to plain names: the finder's spellings are tested elsewhere
			}
			switch {
			case m.Kind == world.MailStrict && !p.Departed && out["strict"].mail.Domain == "":
				out["strict"] = pick{m, p}
			case m.Kind == world.MailStrict && p.Departed && out["departed"].mail.Domain == "":
				out["departed"] = pick{m, p}
			case m.Kind == world.MailCatchAll && out["catch_all"].mail.Domain == "":
				out["catch_all"] = pick{m, p}
			case m.Kind == world.MailGreylist && !p.Departed && out["greylist"].mail.Domain == "":
				out["greylist"] = pick{m, p}
			case m.Kind == world.MailNone && !c.DNS.ServFail && out["none"].mail.Domain == "":
				out["none"] = pick{m, p}
			case m.Kind == world.MailNone && c.DNS.ServFail && out["servfail"].mail.Domain == "":
				out["servfail"] = pick{m, p}
			}
		}
	}
	for _, k := range []string{"strict", "departed", "catch_all", "greylist", "none"} {
		if out[k].mail.Domain == "" {
			t.Fatalf("the test world has no %s company", k)
		}
	}
	return out
}

func request(p pick) emailfind.Request {
	first, last, _ := strings.Cut(p.person.Name, " ")
	return emailfind.Request{FirstName: first, LastName: last, Domain: p.mail.Domain}
}

// TestFinderAgainstTheWorldsMail: every status comes from a real SMTP conversation with
// the world's mail server and agrees with the world's truth.
func TestFinderAgainstTheWorldsMail(t *testing.T) {
	w := testWorld()
	s := startWorld(t, w)
	ps := picks(t, w)
	v := verifierFor(s, s.AllowHosts())
	finder := emailfind.NewFinder(emailfind.FinderDeps{Checker: v, VerifyBudget: 20 * time.Second})
	ctx := context.Background()

	t.Run("strict domain: the real address is found", func(t *testing.T) {
		p := ps["strict"]
		before := s.Recipients()
		res := finder.Find(ctx, request(p), emailfind.RoundVerify)
		if res.Status != "found" || res.Result == nil || res.Result.Email != p.person.Local+"@"+p.mail.Domain {
			t.Fatalf("find %s at %s = %+v (result %+v); want found %s@%s", p.person.Name, p.mail.Domain, res, res.Result, p.person.Local, p.mail.Domain)
		}
		if res.Attempts < 1 || s.Recipients() <= before {
			t.Fatalf("found without an SMTP conversation: attempts %d, recipients %d -> %d", res.Attempts, before, s.Recipients())
		}
	})
	t.Run("someone who left is not found", func(t *testing.T) {
		p := ps["departed"]
		res := finder.Find(ctx, request(p), emailfind.RoundVerify)
		if res.Status != "not_found" {
			t.Fatalf("find %s (left %s) = %+v; want not_found", p.person.Name, p.mail.Domain, res)
		}
	})
	t.Run("catch-all domain", func(t *testing.T) {
		p := ps["catch_all"]
		res := finder.Find(ctx, request(p), emailfind.RoundVerify)
		if res.Status != "catch_all" || !res.IsCatchAll || res.Result != nil || res.Attempts < 1 {
			t.Fatalf("find at catch-all %s = %+v; want catch_all after a conversation", p.mail.Domain, res)
		}
		withPattern := emailfind.NewFinder(emailfind.FinderDeps{Checker: v, Patterns: staticPatterns{p.mail.Domain: p.mail.Template}})
		res = withPattern.Find(ctx, request(p), emailfind.RoundVerify)
		if res.Status != "catch_all_pattern" || res.Result != nil {
			t.Fatalf("find at catch-all %s with its pattern = %+v; want catch_all_pattern", p.mail.Domain, res)
		}
	})
	t.Run("greylisting is waited out", func(t *testing.T) {
		p := ps["greylist"]
		res := finder.Find(ctx, request(p), emailfind.RoundVerify)
		if res.Status != "found" || res.Result == nil || res.Result.Email != p.person.Local+"@"+p.mail.Domain {
			t.Fatalf("find at greylisting %s = %+v; want found %s", p.mail.Domain, res, p.person.Local)
		}
		if res.Attempts < 2 {
			t.Fatalf("attempts = %d; a greylisting host defers the first session", res.Attempts)
		}
	})
	t.Run("no MX: undeliverable", func(t *testing.T) {
		p := ps["none"]
		res := finder.Find(ctx, request(p), emailfind.RoundVerify)
		if res.Status != "undeliverable" || res.Attempts != 0 {
			t.Fatalf("find at %s (no mail host) = %+v; want undeliverable decided by DNS", p.mail.Domain, res)
		}
	})
	if p, ok := ps["servfail"]; ok && p.mail.Domain != "" {
		t.Run("broken zone: error", func(t *testing.T) {
			res := finder.Find(ctx, request(p), emailfind.RoundVerify)
			if res.Status != "error" {
				t.Fatalf("find at %s (SERVFAIL) = %+v; want error", p.mail.Domain, res)
			}
		})
	}
}

// TestLoopbackRefusedWithoutTheAllowList: the same verifier without the world's allow
// list entries never connects: the MX hosts resolve to 127.0.0.1, which the address
// rules refuse.
func TestLoopbackRefusedWithoutTheAllowList(t *testing.T) {
	w := testWorld()
	s := startWorld(t, w)
	p := picks(t, w)["strict"]
	first, last, _ := strings.Cut(p.person.Name, " ")
	for name, allow := range map[string][]string{
		"no list":    nil,
		"other port": {"127.0.0.1:25", strings.Split(s.AllowHosts()[0], ":")[0] + ":1"},
	} {
		t.Run(name, func(t *testing.T) {
			before := s.Recipients()
			out := verifierFor(s, allow).Check(context.Background(), p.mail.Domain, []string{emailpattern.Template(p.mail.Template).Apply(strings.ToLower(first), strings.ToLower(last))}, smtpverify.Options{})
			if out.Status != smtpverify.Undeliverable || !strings.Contains(out.Detail, "never connected") {
				t.Fatalf("check without the allow list = %+v; want undeliverable, loopback refused", out)
			}
			if s.Recipients() != before {
				t.Fatal("the mail server was reached")
			}
		})
	}
}

// TestDNSAnswers: MX records of the world, 127.0.0.1 for its MX hosts, REFUSED outside.
func TestDNSAnswers(t *testing.T) {
	w := testWorld()
	s := startWorld(t, w)
	r := smtpverify.NewResolver(s.Resolver(), 2*time.Second)
	ctx := context.Background()
	ps := picks(t, w)
	mxs, err := r.MX(ctx, ps["strict"].mail.Domain)
	if err != nil || len(mxs) == 0 {
		t.Fatalf("MX of %s = %v, %v", ps["strict"].mail.Domain, mxs, err)
	}
	addrs, err := r.Addrs(ctx, mxs[0].Host)
	if err != nil || len(addrs) != 1 || addrs[0].String() != "127.0.0.1" {
		t.Fatalf("addresses of %s = %v, %v; want 127.0.0.1", mxs[0].Host, addrs, err)
	}
	if _, err := r.MX(ctx, "not-in-the-world.example"); err == nil {
		t.Fatal("a name outside the world was answered")
	}
}
