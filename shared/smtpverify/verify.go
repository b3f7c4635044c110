package smtpverify

import (
	"context"
	"crypto/rand"
	"errors"
	"fmt"
	"io"
	"net"
	"net/netip"
	"slices"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/firmoapi/firmo/shared/fetch"
)

// Status is the outcome of one verification, as the API reports it.
type Status string

// The statuses; the package documentation gives the exact meaning of each.
const (
	Found           Status = "found"
	NotFound        Status = "not_found"
	CatchAll        Status = "catch_all"
	CatchAllPattern Status = "catch_all_pattern"
	Undeliverable   Status = "undeliverable"
	Error           Status = "error"
	Timeout         Status = "timeout"
	Greylisted      Status = "greylisted"
	RateLimited     Status = "rate_limited"
)

// Statuses lists every status in the order the specification gives them.
var Statuses = []Status{Found, NotFound, CatchAll, CatchAllPattern, Undeliverable, Error, Timeout, Greylisted, RateLimited}

// Settings configure a Verifier. Zero fields take the defaults of DefaultSettings.
type Settings struct {
	Resolver       string        // DNS server host:port (FIRMO_DNS_RESOLVER); "" = /etc/resolv.conf
	Port           int           // SMTP port of every MX host (FIRMO_SMTP_PORT, default 25)
	HELO           string        // name sent in EHLO/HELO (FIRMO_SMTP_HELO)
	From           string        // MAIL FROM address (FIRMO_SMTP_FROM)
	DNSTimeout     time.Duration // per DNS query
	DialTimeout    time.Duration // per TCP connection attempt
	CommandTimeout time.Duration // per SMTP reply, the greeting included
	PerHost        int           // concurrent sessions per MX host
	HostInterval   time.Duration // minimum gap between session starts on one MX host; < 0 for none
	GreylistWait   time.Duration // wait before the first retry after a temporary failure; doubles per retry
	MaxAttempts    int           // SMTP sessions per verification, retries included
	MaxRecipients  int           // RCPT commands per transaction before RSET
	CatchAllTTL    time.Duration // how long a domain's catch-all verdict is cached; < 0 for no cache
	DisableTLS     bool          // never STARTTLS (tests of plain servers)
	// AllowHosts admits MX hosts although their addresses are private or loopback
	// (FIRMO_FETCH_ALLOW_HOSTS, the guarded fetch client's allow list): an entry names
	// the MX host or one of its addresses, alone or with the SMTP port. For local test
	// and demo mail servers only.
	AllowHosts []string
}

// DefaultSettings are conservative values for real mail hosts.
var DefaultSettings = Settings{
	Port:           25,
	HELO:           "verify.firmo.local",
	From:           "verify@firmo.local",
	DNSTimeout:     5 * time.Second,
	DialTimeout:    10 * time.Second,
	CommandTimeout: 30 * time.Second,
	PerHost:        3,
	HostInterval:   200 * time.Millisecond,
	GreylistWait:   30 * time.Second,
	MaxAttempts:    4,
	MaxRecipients:  20,
	CatchAllTTL:    6 * time.Hour,
}

func (s Settings) withDefaults() Settings {
	d := DefaultSettings
	if s.Port == 0 {
		s.Port = d.Port
	}
	if s.HELO == "" {
		s.HELO = d.HELO
	}
	if s.From == "" {
		s.From = d.From
	}
	if s.DNSTimeout <= 0 {
		s.DNSTimeout = d.DNSTimeout
	}
	if s.DialTimeout <= 0 {
		s.DialTimeout = d.DialTimeout
	}
	if s.CommandTimeout <= 0 {
		s.CommandTimeout = d.CommandTimeout
	}
	if s.PerHost <= 0 {
		s.PerHost = d.PerHost
	}
	switch {
	case s.HostInterval == 0:
		s.HostInterval = d.HostInterval
	case s.HostInterval < 0: // explicitly none
		s.HostInterval = 0
	}
	if s.GreylistWait <= 0 {
		s.GreylistWait = d.GreylistWait
	}
	if s.MaxAttempts <= 0 {
		s.MaxAttempts = d.MaxAttempts
	}
	if s.MaxRecipients <= 0 {
		s.MaxRecipients = d.MaxRecipients
	}
	if s.CatchAllTTL == 0 {
		s.CatchAllTTL = d.CatchAllTTL
	}
	return s
}

// Verifier checks addresses over SMTP. It is safe for concurrent use; the per-host
// limits and the catch-all cache are shared by all its checks.
type Verifier struct {
	set    Settings
	dns    *Resolver
	allow  fetch.AllowList
	hosts  *hostLimiter
	cache  *catchAllCache
	dialer net.Dialer

	mu    sync.Mutex
	noTLS map[string]bool // hosts whose STARTTLS handshake failed: use plain text
}

// New makes a Verifier.
func New(s Settings) *Verifier {
	s = s.withDefaults()
	return &Verifier{
		set:    s,
		dns:    NewResolver(s.Resolver, s.DNSTimeout),
		allow:  fetch.NewAllowList(s.AllowHosts),
		hosts:  newHostLimiter(s.PerHost, s.HostInterval),
		cache:  newCatchAllCache(s.CatchAllTTL),
		dialer: net.Dialer{Timeout: s.DialTimeout},
		noTLS:  map[string]bool{},
	}
}

// Resolver is the DNS resolver the verifier uses.
func (v *Verifier) Resolver() *Resolver { return v.dns }

// Options tune one check.
type Options struct {
	// Probes is the number of random recipients asked to detect a catch-all domain
	// (default 1). With 2 or more the domain counts as catch-all only when every probe
	// is accepted.
	Probes int
	// FreshProbe ignores the cached catch-all verdict of the domain.
	FreshProbe bool
	// Each asks every local part instead of stopping at the first accepted one (the
	// verification of known addresses, one session per domain): Outcome.Each then says
	// what the host answered for each.
	Each bool
}

// Outcome is the result of one check.
type Outcome struct {
	Status   Status
	Accepted int    // index of the accepted local part when Found, else -1
	Code     int    // the SMTP reply code that decided; 0 when DNS or the network decided
	CatchAll bool   // the domain accepts any recipient
	Provider string // detected mail provider, "" when unknown
	MXHost   string // the MX host talked to (or the first one)
	Attempts int    // SMTP sessions tried, greylisting retries included; 0 when DNS decided
	TLS      bool   // a session ran over STARTTLS
	Detail   string // one sentence saying why, for logs
	// Each is the answer for every local part, in order, with Options.Each: Found
	// (accepted) or NotFound (rejected) when the domain is not catch-all; CatchAll for
	// all when it is; otherwise (the check ended without asking them: DNS, the host
	// refused the session, greylisting outlasted the budget) every entry is Status.
	Each []Status
}

// Check verifies the local parts of one domain in order and stops at the first
// accepted one (with opt.Each it asks them all). The context's deadline is the budget: greylisting retries are made
// only while it leaves time for them.
func (v *Verifier) Check(ctx context.Context, domain string, locals []string, opt Options) (out Outcome) {
	domain = strings.ToLower(strings.TrimSuffix(domain, "."))
	out = Outcome{Accepted: -1}
	mxs, err := v.dns.MX(ctx, domain)
	if err != nil {
		out.Status, out.Detail = dnsVerdict(err)
		if opt.Each {
			out.Each = make([]Status, len(locals))
			for i := range out.Each {
				out.Each[i] = out.Status
			}
		}
		return out
	}
	out.Provider = DetectProvider(mxs)
	out.MXHost = mxs[0].Host
	st := newCheckState(domain, locals, max(opt.Probes, 1))
	st.each = opt.Each
	defer func() { out.Each = st.eachStatus(out, opt.Each) }()
	if !opt.FreshProbe {
		if catchAll, ok := v.cache.get(domain); ok {
			if catchAll {
				out.Status, out.CatchAll, out.Detail = CatchAll, true, "the domain accepts any recipient (cached probe result)"
				return out
			}
			st.probes = nil
		}
	}
	wait := v.set.GreylistWait
	for {
		out.Attempts++
		vd := v.session(ctx, mxs, st)
		if vd.host != "" {
			out.MXHost = vd.host
		}
		out.Code, out.Detail, out.TLS = vd.code, vd.detail, st.tls
		if vd.status == "" {
			vd = st.decide(vd)
		}
		if vd.status != "" {
			out.Status, out.Code, out.Detail = vd.status, vd.code, vd.detail
			out.CatchAll = st.catchAll()
			if vd.status == Found {
				out.Accepted = st.accepted()
			}
			return out
		}
		if vd.retryNow && out.Attempts < v.set.MaxAttempts {
			continue
		}
		// A temporary failure: retry after a growing wait while the budget allows.
		if out.Attempts >= v.set.MaxAttempts || !fits(ctx, wait+v.set.CommandTimeout/4) {
			out.Status = Greylisted
			out.CatchAll = st.catchAll()
			return out
		}
		t := time.NewTimer(wait)
		select {
		case <-t.C:
		case <-ctx.Done():
			t.Stop()
			out.Status = Greylisted
			return out
		}
		wait *= 2
	}
}

// fits reports whether d fits before the context's deadline.
func fits(ctx context.Context, d time.Duration) bool {
	deadline, ok := ctx.Deadline()
	return !ok || time.Until(deadline) > d
}

// answer is what the host said about one recipient so far.
type answer int

const (
	pending answer = iota
	deferred
	yes
	no
)

// rcpt is one recipient of a check: a catch-all probe or a candidate.
type rcpt struct {
	local  string
	answer answer
	reply  reply
}

// checkState is what a check has learnt so far. It survives greylisting retries: a
// retry asks only what is still open, and the probe keeps its random local part, since
// greylisting lets a retried (client, sender, recipient) triplet through only when the
// triplet is the same.
type checkState struct {
	tls    bool // a session used STARTTLS
	each   bool // ask every candidate (Options.Each)
	domain string
	probes []rcpt
	cands  []rcpt
}

// eachStatus is Outcome.Each: nil unless each.
func (s *checkState) eachStatus(out Outcome, each bool) []Status {
	if !each {
		return nil
	}
	all := make([]Status, len(s.cands))
	for i, c := range s.cands {
		switch {
		case out.Status == CatchAll:
			all[i] = CatchAll
		case out.Status != Found && out.Status != NotFound:
			all[i] = out.Status
		case c.answer == yes:
			all[i] = Found
		default:
			all[i] = NotFound
		}
	}
	return all
}

func newCheckState(domain string, locals []string, probes int) *checkState {
	st := &checkState{domain: domain}
	for range probes {
		st.probes = append(st.probes, rcpt{local: randomLocal()})
	}
	for _, l := range locals {
		st.cands = append(st.cands, rcpt{local: l})
	}
	return st
}

// probed reports whether every probe has a final answer.
func (s *checkState) probed() bool {
	for _, p := range s.probes {
		if p.answer != yes && p.answer != no {
			return false
		}
	}
	return true
}

// catchAll: every probe was accepted (at least one probe made).
func (s *checkState) catchAll() bool {
	if len(s.probes) == 0 {
		return false
	}
	for _, p := range s.probes {
		if p.answer != yes {
			return false
		}
	}
	return true
}

// accepted is the index of the first accepted candidate, or -1.
func (s *checkState) accepted() int {
	for i, c := range s.cands {
		if c.answer == yes {
			return i
		}
	}
	return -1
}

// settled reports whether every candidate has a final answer.
func (s *checkState) settled() bool {
	for _, c := range s.cands {
		if c.answer != yes && c.answer != no {
			return false
		}
	}
	return true
}

// decide turns the answers gathered after a session without a fatal verdict into a
// final verdict, or returns the session's verdict (a temporary failure) when answers
// are still deferred.
func (s *checkState) decide(session verdict) verdict {
	if !s.probed() {
		return session
	}
	if s.catchAll() {
		return verdict{status: CatchAll, code: s.probes[0].reply.code, host: session.host, detail: "the domain accepts any recipient: a random address was accepted"}
	}
	if i := s.accepted(); i >= 0 && (!s.each || s.settled()) {
		return verdict{status: Found, code: s.cands[i].reply.code, host: session.host, detail: "accepted: " + s.cands[i].reply.String()}
	}
	last := reply{}
	for _, c := range s.cands {
		switch c.answer {
		case pending, deferred:
			return session
		}
		last = c.reply
	}
	return verdict{status: NotFound, code: last.code, host: session.host, detail: fmt.Sprintf("all %d candidates were rejected; last: %s", len(s.cands), last)}
}

// verdict is the result of one session: a final status, or "" when the session ended
// without one (answers deferred, or a failed STARTTLS to retry at once).
type verdict struct {
	status   Status
	code     int
	detail   string
	host     string
	retryNow bool // retry at once without waiting (after a failed STARTTLS)
}

func dnsVerdict(err error) (Status, string) {
	var de *DNSError
	switch {
	case errors.Is(err, ErrNoDomain), errors.Is(err, ErrNullMX), errors.Is(err, ErrNoMailHost):
		return Undeliverable, err.Error()
	case isTimeout(err):
		return Timeout, "the DNS server did not answer in time: " + err.Error()
	case errors.As(err, &de):
		return Error, de.Error()
	}
	return Error, err.Error()
}

// session runs one SMTP conversation: greeting, EHLO (or HELO), STARTTLS when offered,
// MAIL FROM, the catch-all probes and the candidates as RCPT TO, RSET, QUIT.
func (v *Verifier) session(ctx context.Context, mxs []MX, st *checkState) verdict {
	c, release, vd := v.connect(ctx, mxs)
	if c == nil {
		return vd
	}
	defer release()
	defer c.close()
	host := c.host
	fail := func(err error) verdict { return ioVerdict(ctx, host, err) }
	var deferredAny reply

	r, err := c.read()
	if err != nil {
		return fail(err)
	}
	switch {
	case r.code == 220:
	case r.code == 421:
		return verdict{status: RateLimited, code: r.code, host: host, detail: "the mail host refused the session: " + r.String()}
	case r.code >= 400 && r.code < 500:
		return verdict{code: r.code, host: host, detail: "the mail host deferred the session: " + r.String()}
	case r.code >= 500:
		return verdict{status: Undeliverable, code: r.code, host: host, detail: "the mail host refuses connections: " + r.String()}
	default:
		return verdict{status: Error, code: r.code, host: host, detail: "unexpected greeting: " + r.String()}
	}
	if r, err = c.hello(v.set.HELO); err != nil {
		return fail(err)
	}
	if r.code != 250 {
		return v.unexpected(host, "EHLO/HELO", r)
	}
	if _, offered := c.ext["STARTTLS"]; offered && !v.set.DisableTLS && !v.skipTLS(host) {
		r, err = c.startTLS()
		var te *tlsError
		switch {
		case errors.As(err, &te):
			v.markNoTLS(host) // the next attempt talks plain text to this host
			return verdict{host: host, detail: te.Error(), retryNow: true}
		case err != nil:
			return fail(err)
		case r.code == 220:
			st.tls = true
			if r, err = c.hello(v.set.HELO); err != nil {
				return fail(err)
			}
			if r.code != 250 {
				return v.unexpected(host, "EHLO after STARTTLS", r)
			}
		}
		// Any other reply to STARTTLS (454 TLS not available) leaves the session in
		// plain text, as RFC 3207 allows.
	}
	if vd, ok := v.mailFrom(c); !ok {
		return vd
	}
	rcpts := 0
	// ask sends RCPT TO for one recipient and records the answer. A non-nil verdict
	// ends the session (throttling, policy refusal, broken connection).
	ask := func(rc *rcpt, what string) *verdict {
		if rcpts >= v.set.MaxRecipients {
			if r, err := c.cmd("RSET"); err != nil || r.code != 250 {
				vd := v.unexpected(host, "RSET", r)
				if err != nil {
					vd = fail(err)
				}
				return &vd
			}
			if vd, ok := v.mailFrom(c); !ok {
				return &vd
			}
			rcpts = 0
		}
		rcpts++
		r, err := c.cmd("RCPT TO:<%s@%s>", rc.local, st.domain)
		if err != nil {
			vd := fail(err)
			return &vd
		}
		rc.reply = r
		switch rcptClass(r) {
		case accepted:
			rc.answer = yes
		case rejected:
			rc.answer = no
		case tempfail:
			// Keep asking the others: each deferral registers its triplet with a
			// greylisting host, so the next attempt can clear them all at once.
			rc.answer = deferred
			deferredAny = r
		default:
			vd := v.rcptVerdict(host, r, what)
			return &vd
		}
		return nil
	}
	for i := range st.probes {
		if p := &st.probes[i]; p.answer == pending || p.answer == deferred {
			if vd := ask(p, "catch-all probe"); vd != nil {
				return *vd
			}
		}
	}
	if st.probed() {
		v.cache.put(st.domain, st.catchAll())
		if st.catchAll() {
			c.cmd("RSET")
			return verdict{host: host}
		}
	}
	for i := range st.cands {
		if st.accepted() >= 0 && !st.each {
			break // one accepted address is enough; only the probe may be open
		}
		if cd := &st.cands[i]; cd.answer == pending || cd.answer == deferred {
			if vd := ask(cd, cd.local+"@"+st.domain); vd != nil {
				return *vd
			}
		}
	}
	c.cmd("RSET")
	if deferredAny.code != 0 {
		return verdict{code: deferredAny.code, host: host, detail: "deferred: " + deferredAny.String()}
	}
	return verdict{host: host}
}

func (v *Verifier) mailFrom(c *conn) (verdict, bool) {
	r, err := c.cmd("MAIL FROM:<%s>", v.set.From)
	if err != nil {
		return ioVerdict(c.ctx, c.host, err), false
	}
	switch {
	case r.code == 250:
		return verdict{}, true
	case r.code == 421 || r.code == 452:
		return verdict{status: RateLimited, code: r.code, host: c.host, detail: "MAIL FROM: " + r.String()}, false
	case r.code >= 400 && r.code < 500:
		return verdict{code: r.code, host: c.host, detail: "MAIL FROM deferred: " + r.String()}, false
	}
	return verdict{status: Error, code: r.code, host: c.host, detail: "the mail host refused the sender: " + r.String()}, false
}

func (v *Verifier) unexpected(host, step string, r reply) verdict {
	if r.code == 421 {
		return verdict{status: RateLimited, code: r.code, host: host, detail: step + ": " + r.String()}
	}
	if r.code >= 400 && r.code < 500 {
		return verdict{code: r.code, host: host, detail: step + " deferred: " + r.String()}
	}
	return verdict{status: Error, code: r.code, host: host, detail: fmt.Sprintf("unexpected reply to %s: %s", step, r)}
}

type class int

const (
	accepted class = iota
	rejected
	limited   // 421, 452: the host throttles us
	tempfail  // other 4xx: greylisting and friends
	refused   // 5xx policy refusals: not about the mailbox
	malformed // not a RCPT reply
)

// rcptClass sorts a reply to RCPT TO. 452 (too many recipients, insufficient storage)
// and 421 are throttling, never an acceptance, so they cannot make a domain look
// catch-all. 5xx replies count as "no such mailbox" only when they say so (550, 551,
// 553, or an enhanced code 5.1.x); policy refusals such as 554 5.7.1 are errors.
func rcptClass(r reply) class {
	switch {
	case r.code == 250 || r.code == 251:
		return accepted
	case r.code == 421 || r.code == 452:
		return limited
	case r.code >= 400 && r.code < 500:
		return tempfail
	case r.code == 550 || r.code == 551 || r.code == 553 || r.code == 552:
		if strings.HasPrefix(r.text, "5.7.") {
			return refused
		}
		return rejected
	case r.code >= 500 && strings.HasPrefix(r.text, "5.1."):
		return rejected
	case r.code >= 500:
		return refused
	}
	return malformed
}

func (v *Verifier) rcptVerdict(host string, r reply, what string) verdict {
	switch rcptClass(r) {
	case limited:
		return verdict{status: RateLimited, code: r.code, host: host, detail: fmt.Sprintf("RCPT %s: %s", what, r)}
	case tempfail:
		return verdict{code: r.code, host: host, detail: fmt.Sprintf("RCPT %s deferred: %s", what, r)}
	case refused:
		return verdict{status: Error, code: r.code, host: host, detail: fmt.Sprintf("RCPT %s refused by policy: %s", what, r)}
	}
	return verdict{status: Error, code: r.code, host: host, detail: fmt.Sprintf("unexpected reply to RCPT %s: %s", what, r)}
}

// connect dials the MX hosts in preference order and their addresses in turn, within
// the per-host limits. Refused or unreachable hosts are skipped, and so are addresses
// the address rules refuse (see dial); when none answers the verdict is undeliverable,
// or timeout when some attempt timed out.
func (v *Verifier) connect(ctx context.Context, mxs []MX) (*conn, func(), verdict) {
	sawTimeout, lastErr := false, error(nil)
	var firstBlocked *blockedError
	otherFailure := false // a failure other than a refused address
	fail := func(host string, err error) {
		var be *blockedError
		switch {
		case errors.As(err, &be):
			if firstBlocked == nil {
				firstBlocked = be
			}
			lastErr = be
			return
		case isTimeout(err):
			sawTimeout = true
		}
		otherFailure = true
		lastErr = fmt.Errorf("%s: %w", host, err)
	}
	for _, mx := range mxs {
		addrs, err := v.dns.Addrs(ctx, mx.Host)
		if err != nil {
			fail(mx.Host, err)
			continue
		}
		// Refused addresses are dropped before the host takes a session slot; dial
		// vets again the address it connects to.
		addrs = slices.DeleteFunc(addrs, func(ip netip.Addr) bool {
			if be := v.vet(mx.Host, ip); be != nil {
				fail(mx.Host, be)
				return true
			}
			return false
		})
		if len(addrs) == 0 {
			continue
		}
		release, err := v.hosts.acquire(ctx, mx.Host)
		if err != nil {
			return nil, nil, verdict{status: Timeout, host: mx.Host, detail: "the budget ran out waiting for a session slot on " + mx.Host}
		}
		for _, ip := range addrs {
			nc, err := v.dial(ctx, mx.Host, ip)
			if err == nil {
				return newConn(ctx, nc, mx.Host, v.set.CommandTimeout), release, verdict{}
			}
			fail(mx.Host, err)
			if ctx.Err() != nil {
				break
			}
		}
		release()
		if ctx.Err() != nil {
			break
		}
	}
	switch {
	case sawTimeout || errors.Is(ctx.Err(), context.DeadlineExceeded):
		return nil, nil, verdict{status: Timeout, host: mxs[0].Host, detail: fmt.Sprintf("no mail host answered in time: %v", lastErr)}
	case firstBlocked != nil && !otherFailure:
		return nil, nil, verdict{status: Undeliverable, host: firstBlocked.host, detail: firstBlocked.Error()}
	}
	return nil, nil, verdict{status: Undeliverable, host: mxs[0].Host, detail: fmt.Sprintf("no mail host accepts connections: %v", lastErr)}
}

// dial connects to one address of an MX host on the SMTP port, after vetting that very
// address, so neither an MX record nor a DNS answer that changed after the lookup (DNS
// rebinding) can open a session to a private, loopback, link-local or cloud metadata
// address: the rules of the guarded fetch client (fetch.Blocked), with its allow list
// (Settings.AllowHosts). It is the only place the verifier opens connections.
func (v *Verifier) dial(ctx context.Context, host string, ip netip.Addr) (net.Conn, error) {
	if be := v.vet(host, ip); be != nil {
		return nil, be
	}
	return v.dialer.DialContext(ctx, "tcp", net.JoinHostPort(ip.String(), strconv.Itoa(v.set.Port)))
}

// vet applies the address rules to one address of an MX host: nil when it may be
// dialed (a public address, or the host or address is on the allow list).
func (v *Verifier) vet(host string, ip netip.Addr) *blockedError {
	port := strconv.Itoa(v.set.Port)
	if v.allow.Allows(host, port) || v.allow.Allows(ip.String(), port) {
		return nil
	}
	if reason := fetch.Blocked(ip.AsSlice()); reason != "" {
		return &blockedError{host: host, ip: ip, reason: reason}
	}
	return nil
}

// blockedError is an MX address the address rules refuse: nothing is dialed.
type blockedError struct {
	host   string
	ip     netip.Addr
	reason string // from fetch.Blocked: "loopback address", "private address", ...
}

func (e *blockedError) Error() string {
	return fmt.Sprintf("the MX host %s points at %s (%s): mail hosts on private, loopback, link-local or metadata addresses are never connected to", e.host, e.ip, e.reason)
}

// ioVerdict classifies a network failure in the middle of a session.
func ioVerdict(ctx context.Context, host string, err error) verdict {
	var pe *protocolError
	switch {
	case errors.As(err, &pe):
		return verdict{status: Error, host: host, detail: pe.Error()}
	case isTimeout(err) || errors.Is(ctx.Err(), context.DeadlineExceeded):
		return verdict{status: Timeout, host: host, detail: fmt.Sprintf("%s stopped answering: %v", host, err)}
	case errors.Is(err, syscall.ECONNRESET) || errors.Is(err, net.ErrClosed) || errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF):
		return verdict{status: Error, host: host, detail: fmt.Sprintf("%s closed the connection unexpectedly: %v", host, err)}
	}
	return verdict{status: Error, host: host, detail: fmt.Sprintf("%s: %v", host, err)}
}

func (v *Verifier) skipTLS(host string) bool {
	v.mu.Lock()
	defer v.mu.Unlock()
	return v.noTLS[host]
}

func (v *Verifier) markNoTLS(host string) {
	v.mu.Lock()
	defer v.mu.Unlock()
	if len(v.noTLS) > 10_000 {
		clear(v.noTLS)
	}
	v.noTLS[host] = true
}

// randomLocal makes a local part no mailbox has, for the catch-all probe.
func randomLocal() string {
	const letters = "abcdefghijklmnopqrstuvwxyz0123456789"
	b := make([]byte, 14)
	rand.Read(b)
	for i := range b {
		b[i] = letters[int(b[i])%len(letters)]
	}
	return "x" + string(b)
}
