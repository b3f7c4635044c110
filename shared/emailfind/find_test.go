package emailfind

import (
	"context"
	"errors"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/firmoapi/firmo/shared/emailpattern"
	"github.com/firmoapi/firmo/shared/smtpverify"
)

// fakeChecker answers like a mail host holding the given mailboxes of each domain.
// A domain in catchAll accepts everything; a domain in status answers that status.
type fakeChecker struct {
	mailboxes map[string][]string // domain -> accepted local parts
	catchAll  map[string]bool
	status    map[string]smtpverify.Status
	provider  string
	delay     time.Duration

	mu    sync.Mutex
	calls []checkCall
}

type checkCall struct {
	domain string
	locals []string
	opt    smtpverify.Options
}

func (f *fakeChecker) Check(ctx context.Context, domain string, locals []string, opt smtpverify.Options) smtpverify.Outcome {
	f.mu.Lock()
	f.calls = append(f.calls, checkCall{domain, locals, opt})
	f.mu.Unlock()
	if f.delay > 0 {
		select {
		case <-time.After(f.delay):
		case <-ctx.Done():
			return smtpverify.Outcome{Status: smtpverify.Timeout, Accepted: -1, Attempts: 1}
		}
	}
	out := smtpverify.Outcome{Accepted: -1, Attempts: 1, Provider: f.provider}
	if s, ok := f.status[domain]; ok {
		out.Status = s
		return out
	}
	if f.catchAll[domain] {
		out.Status, out.CatchAll, out.Code = smtpverify.CatchAll, true, 250
		return out
	}
	for i, l := range locals {
		if slices.Contains(f.mailboxes[domain], l) {
			out.Status, out.Accepted, out.Code = smtpverify.Found, i, 250
			return out
		}
	}
	out.Status, out.Code = smtpverify.NotFound, 550
	return out
}

func (f *fakeChecker) lastCall() checkCall {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.calls[len(f.calls)-1]
}

type fixedPatterns map[string]emailpattern.Pattern

func (p fixedPatterns) CompanyPattern(_ context.Context, domain string) (emailpattern.Pattern, bool, error) {
	if domain == "broken.com" {
		return emailpattern.Pattern{}, false, errors.New("index down")
	}
	pat, ok := p[domain]
	return pat, ok, nil
}

func TestFind(t *testing.T) {
	fc := &fakeChecker{
		mailboxes: map[string][]string{"acme.com": {"jdoe", "doe.jane"}, "beta.com": {"j.doe"}},
		catchAll:  map[string]bool{"wild.com": true, "wildco.com": true},
		status:    map[string]smtpverify.Status{"grey.com": smtpverify.Greylisted, "gone.com": smtpverify.Undeliverable},
		provider:  "google",
	}
	f := NewFinder(FinderDeps{Checker: fc, Patterns: fixedPatterns{"beta.com": {Template: "{f}.{last}"}, "wildco.com": {Template: "{first}"}}, VerifyBudget: time.Second, EscalateBudget: 2 * time.Second})
	str := func(s string) *string { return &s }
	tests := []struct {
		name string
		req  Request
		want Result
	}{
		{"common pattern found", Request{FirstName: "Jane", LastName: "Doe", Domain: "acme.com"},
			Result{Status: "found", Result: &Found{Email: "jdoe@acme.com", Pattern: "{f}{last}", Tier: emailpattern.TierCommon, SMTPCode: 250, Valid: true}}},
		{"known pattern found first", Request{FirstName: "Jane", LastName: "Doe", Domain: "acme.com", KnownPattern: "{last}.{first}"},
			Result{Status: "found", Result: &Found{Email: "doe.jane@acme.com", Pattern: "{last}.{first}", Tier: emailpattern.TierKnown, SMTPCode: 250, Valid: true}}},
		{"company pattern found", Request{FirstName: "Jane", LastName: "Doe", Domain: "beta.com"},
			Result{Status: "found", Result: &Found{Email: "j.doe@beta.com", Pattern: "{f}.{last}", Tier: emailpattern.TierCompany, SMTPCode: 250, Valid: true}}},
		{"not found", Request{FirstName: "John", LastName: "Roe", Domain: "acme.com"}, Result{Status: "not_found"}},
		{"catch-all without pattern", Request{FirstName: "Jane", LastName: "Doe", Domain: "wild.com"}, Result{Status: "catch_all", IsCatchAll: true}},
		{"catch-all with known pattern", Request{FirstName: "Jane", LastName: "Doe", Domain: "wild.com", KnownPattern: "flast"}, Result{Status: "catch_all_pattern", IsCatchAll: true}},
		{"catch-all with company pattern", Request{FirstName: "Jane", LastName: "Doe", Domain: "wildco.com"}, Result{Status: "catch_all_pattern", IsCatchAll: true}},
		{"greylisted", Request{FirstName: "Jane", LastName: "Doe", Domain: "grey.com"}, Result{Status: "greylisted"}},
		{"undeliverable", Request{FirstName: "Jane", LastName: "Doe", Domain: "gone.com"}, Result{Status: "undeliverable"}},
		{"pattern index down", Request{FirstName: "Jane", LastName: "Doe", Domain: "broken.com"}, Result{Status: "not_found"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := f.Find(context.Background(), tt.req, RoundVerify)
			want := tt.want
			want.FirstName, want.LastName, want.Domain = tt.req.FirstName, tt.req.LastName, tt.req.Domain
			want.Provider, want.Attempts = str("google"), 1
			got.DurationMS = 0
			if got.Result != nil && want.Result != nil && *got.Result != *want.Result {
				t.Errorf("result = %+v, want %+v", *got.Result, *want.Result)
			}
			if (got.Result == nil) != (want.Result == nil) {
				t.Fatalf("result = %+v, want %+v", got.Result, want.Result)
			}
			got.Result, want.Result = nil, nil
			if got.Status != want.Status || got.IsCatchAll != want.IsCatchAll || *got.Provider != *want.Provider || got.Attempts != want.Attempts ||
				got.FirstName != want.FirstName || got.Domain != want.Domain {
				t.Errorf("got %+v\nwant %+v", got, want)
			}
		})
	}
}

func TestFindRounds(t *testing.T) {
	fc := &fakeChecker{}
	f := NewFinder(FinderDeps{Checker: fc, VerifyBudget: time.Second, EscalateBudget: 3 * time.Second})
	req := Request{FirstName: "Jürgen", LastName: "Müller", Domain: "acme.com"}

	f.Find(context.Background(), req, RoundVerify)
	verify := fc.lastCall()
	if verify.opt.Probes != 1 || verify.opt.FreshProbe {
		t.Errorf("verify options = %+v, want one cached probe", verify.opt)
	}
	f.Find(context.Background(), req, RoundEscalate)
	esc := fc.lastCall()
	if esc.opt.Probes != 2 || !esc.opt.FreshProbe {
		t.Errorf("escalate options = %+v, want two fresh probes", esc.opt)
	}
	if len(esc.locals) <= len(verify.locals) || !slices.Contains(esc.locals, "juergen.mueller") {
		t.Errorf("escalate candidates %d (%v) must be more than verify's %d, the ue spelling among them", len(esc.locals), esc.locals, len(verify.locals))
	}
	// The default round spells ü both ways, folded first when the domain shows neither.
	folded, translit := slices.Index(verify.locals, "jurgen.muller"), slices.Index(verify.locals, "juergen.mueller")
	if folded < 0 || translit < 0 || folded > translit {
		t.Errorf("verify candidates %v: want jurgen.muller, then juergen.mueller", verify.locals)
	}
}

// The default round finds an address spelt with ue for ü (s.mueller for a Müller), and
// asks first the spelling the company's known addresses show.
func TestFindTransliterated(t *testing.T) {
	fc := &fakeChecker{mailboxes: map[string][]string{"hansen.de": {"s.mueller"}, "weber.de": {"s.mueller"}}}
	patterns := fixedPatterns{
		"hansen.de": {Template: "{f}.{last}", Domain: "hansen.de"},
		"weber.de":  {Template: "{f}.{last}", Domain: "weber.de", Spelling: emailpattern.SpellingTransliterated},
	}
	f := NewFinder(FinderDeps{Checker: fc, Patterns: patterns, VerifyBudget: time.Second})
	for _, c := range []struct {
		domain string
		first  string // the candidate asked first
	}{{"hansen.de", "s.muller"}, {"weber.de", "s.mueller"}} {
		got := f.Find(context.Background(), Request{FirstName: "Sabine", LastName: "Müller", Domain: c.domain}, RoundVerify)
		if got.Status != "found" || got.Result == nil || got.Result.Email != "s.mueller@"+c.domain || got.Result.Tier != emailpattern.TierCompany {
			t.Errorf("%s: %+v %+v; want found s.mueller@%s by the company pattern", c.domain, got, got.Result, c.domain)
		}
		if call := fc.lastCall(); call.locals[0] != c.first {
			t.Errorf("%s: asked %v first; want %s", c.domain, call.locals, c.first)
		}
	}
}

func TestFindBudget(t *testing.T) {
	fc := &fakeChecker{delay: time.Minute}
	f := NewFinder(FinderDeps{Checker: fc, VerifyBudget: 50 * time.Millisecond, EscalateBudget: time.Second})
	start := time.Now()
	got := f.Find(context.Background(), Request{FirstName: "Jane", LastName: "Doe", Domain: "acme.com"}, RoundVerify)
	if got.Status != "timeout" {
		t.Fatalf("status = %s, want timeout", got.Status)
	}
	if el := time.Since(start); el > 5*time.Second {
		t.Errorf("find took %s with a 50ms budget", el)
	}
	if got.DurationMS < 40 {
		t.Errorf("duration_ms = %d, want about the 50ms budget", got.DurationMS)
	}
}
