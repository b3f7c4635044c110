package emailfind

import (
	"context"
	"time"

	"github.com/firmoapi/firmo/shared/emailpattern"
	"github.com/firmoapi/firmo/shared/smtpverify"
)

// Round is how hard a job tries.
type Round string

const (
	// RoundVerify (the default) tries the known and company patterns and the most
	// common ones (Verify depth), probes catch-all once (the cached verdict is reused)
	// and retries greylisting within VerifyBudget.
	RoundVerify Round = "verify"
	// RoundEscalate is for a second pass over people the verify round did not settle:
	// every pattern with every spelling of the names (Escalate depth), two fresh catch-all probes (ignoring the cached verdict; the domain is
	// catch-all only when both random recipients are accepted, which unmasks hosts that
	// accept the first unknown recipient of a session), and twice the budget for
	// greylisting retries.
	RoundEscalate Round = "escalate"
)

// Request is one person to find.
type Request struct {
	FirstName    string `json:"first_name"`
	LastName     string `json:"last_name"`
	Domain       string `json:"domain"`
	KnownPattern string `json:"known_pattern,omitempty"`
}

// Result is the outcome of one find, as the API shows a job's result.
type Result struct {
	FirstName  string  `json:"first_name"`
	LastName   string  `json:"last_name"`
	Domain     string  `json:"domain"`
	Status     string  `json:"status"`
	Result     *Found  `json:"result"` // only when Status is found
	IsCatchAll bool    `json:"is_catch_all"`
	Provider   *string `json:"provider"`
	Attempts   int     `json:"attempts"`
	DurationMS int64   `json:"duration_ms"`
	// Detail says why, in one sentence, for every status but found: the DNS answer or
	// SMTP reply that decided (always set when Status is error).
	Detail string `json:"detail,omitempty"`
}

// Found is the verified address.
type Found struct {
	Email    string            `json:"email"`
	Pattern  string            `json:"pattern"`   // the template that built it, e.g. "{first}.{last}"
	Tier     emailpattern.Tier `json:"tier"`      // where the pattern came from: known_pattern, company_pattern, common_pattern
	SMTPCode int               `json:"smtp_code"` // the reply to RCPT TO, 250 or 251
	Valid    bool              `json:"valid"`     // accepted by a domain that is not catch-all: always true when found
}

// Checker verifies local parts of a domain over SMTP; smtpverify.Verifier implements it.
type Checker interface {
	Check(ctx context.Context, domain string, locals []string, opt smtpverify.Options) smtpverify.Outcome
}

// PatternSource gives a company's address pattern learned from the addresses seen at
// its domain (patternbook.Book).
type PatternSource interface {
	CompanyPattern(ctx context.Context, domain string) (emailpattern.Pattern, bool, error)
}

// Finder finds one person's address: it builds the candidates and verifies them.
type Finder struct {
	check    Checker
	patterns PatternSource // nil: no company patterns known
	budgets  map[Round]time.Duration
	now      func() time.Time
}

// Budgets of one find, greylisting retries included.
const (
	DefaultVerifyBudget   = 2 * time.Minute
	DefaultEscalateBudget = 4 * time.Minute
)

// FinderDeps are what a Finder verifies with, and how long it may try.
type FinderDeps struct {
	// Checker verifies candidate addresses over SMTP. Required.
	Checker Checker
	// Patterns gives company patterns. nil: none are known, candidates come from the
	// request's known pattern and the common ones.
	Patterns PatternSource
	// VerifyBudget bounds one find of RoundVerify; zero: DefaultVerifyBudget.
	VerifyBudget time.Duration
	// EscalateBudget bounds one find of RoundEscalate; zero: DefaultEscalateBudget.
	EscalateBudget time.Duration
}

// NewFinder makes a Finder.
func NewFinder(d FinderDeps) *Finder {
	if d.VerifyBudget <= 0 {
		d.VerifyBudget = DefaultVerifyBudget
	}
	if d.EscalateBudget <= 0 {
		d.EscalateBudget = DefaultEscalateBudget
	}
	return &Finder{check: d.Checker, patterns: d.Patterns, now: time.Now,
		budgets: map[Round]time.Duration{RoundVerify: d.VerifyBudget, RoundEscalate: d.EscalateBudget}}
}

// maxPatternWait bounds the wait for a company pattern (a quarter of the budget at most).
const maxPatternWait = 10 * time.Second

// companyPattern returns the company's pattern and how its addresses spell letters
// with two spellings, or "" when none is known or the source
// does not answer within wait. The source may be slow (the contact store is read on its
// first use, as after a restart): that costs the company tier, never the SMTP budget,
// which would otherwise be spent before the conversation starts and answer a false
// timeout without any attempt. A failing source likewise costs only the company tier.
func (f *Finder) companyPattern(ctx context.Context, domain string, wait time.Duration) (emailpattern.Template, emailpattern.Spelling) {
	if f.patterns == nil {
		return "", emailpattern.SpellingUnknown
	}
	ctx, cancel := context.WithTimeout(ctx, wait)
	defer cancel()
	type answer struct {
		p   emailpattern.Pattern
		ok  bool
		err error
	}
	ch := make(chan answer, 1) // the source may return after the wait: it never blocks
	go func() {
		p, ok, err := f.patterns.CompanyPattern(ctx, domain)
		ch <- answer{p, ok, err}
	}()
	select {
	case a := <-ch:
		if a.err == nil && a.ok {
			if t, err := emailpattern.ParseTemplate("company_pattern", a.p.Template); err == nil {
				return t, a.p.Spelling
			}
		}
	case <-ctx.Done():
	}
	return "", emailpattern.SpellingUnknown
}

// Budget is the time one find of the round may take.
func (f *Finder) Budget(r Round) time.Duration { return f.budgets[r] }

// Find verifies the candidates of one person within the round's budget. The request
// must have been checked (CheckRequest): an unusable name gives status error.
func (f *Finder) Find(ctx context.Context, req Request, round Round) (res Result) {
	start := f.now()
	res = Result{FirstName: req.FirstName, LastName: req.LastName, Domain: req.Domain}
	defer func() { res.DurationMS = f.now().Sub(start).Milliseconds() }()

	p := emailpattern.Person{First: req.FirstName, Last: req.LastName, Domain: req.Domain}
	if req.KnownPattern != "" {
		if t, err := emailpattern.ParseTemplate("known_pattern", req.KnownPattern); err == nil {
			p.Known = t
		}
	}
	// The company's pattern, and how its addresses spell ü (u or ue): both spellings are
	// candidates, the one its addresses show first.
	p.Company, p.Spelling = f.companyPattern(ctx, req.Domain, min(f.Budget(round)/4, maxPatternWait))
	// The budget is the SMTP conversation's: it starts once the candidates are known.
	ctx, cancel := context.WithTimeout(ctx, f.Budget(round))
	defer cancel()
	depth, opt := emailpattern.Verify, smtpverify.Options{Probes: 1}
	if round == RoundEscalate {
		depth, opt = emailpattern.Escalate, smtpverify.Options{Probes: 2, FreshProbe: true}
	}
	cands, err := emailpattern.Candidates(p, depth)
	if err != nil {
		res.Status, res.Detail = string(smtpverify.Error), "no address can be built from this name: "+err.Error()
		return res
	}
	locals := make([]string, len(cands))
	for i, c := range cands {
		locals[i] = c.Local
	}
	out := f.check.Check(ctx, req.Domain, locals, opt)
	res.Status = string(out.Status)
	res.IsCatchAll = out.CatchAll
	res.Attempts = out.Attempts
	if out.Status != smtpverify.Found {
		res.Detail = out.Detail
		if res.Detail == "" && out.Status == smtpverify.Error {
			res.Detail = "the verification failed without a reply that says why"
		}
	}
	if out.Provider != "" {
		prov := out.Provider
		res.Provider = &prov
	}
	switch {
	case out.Status == smtpverify.Found && out.Accepted >= 0 && out.Accepted < len(cands):
		c := cands[out.Accepted]
		res.Result = &Found{Email: c.Email, Pattern: string(c.Pattern), Tier: c.Tier, SMTPCode: out.Code, Valid: true}
	case out.Status == smtpverify.CatchAll && (p.Known != "" || p.Company != ""):
		// SMTP cannot tell which address exists, but a pattern points at one.
		res.Status = string(smtpverify.CatchAllPattern)
	}
	return res
}
