// Package crmtest is the contract suite of crm.Provider (as testing/fstest is for
// fs.FS): every provider client runs it against its fake from shared/testkit/crmfake,
// through the real OAuth 2.0 flow (authorize, code exchange with PKCE, refresh).
// Run starts a fresh fake per subtest, on a virtual clock it shares with the client,
// so waits (Retry-After, pacing) take no wall time and are checked exactly.
package crmtest

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"slices"
	"sync"
	"testing"
	"time"

	"golang.org/x/oauth2"

	"github.com/firmoapi/firmo/shared/apperr"
	"github.com/firmoapi/firmo/shared/crm"
	"github.com/firmoapi/firmo/shared/testkit/crmfake"
)

// Clock is what a client under test waits on.
type Clock struct {
	Now   func() time.Time
	Sleep func(ctx context.Context, d time.Duration) error
}

// Harness is one provider client and the fake it is tested against.
type Harness struct {
	// Provider is the crmfake provider name (crmfake.HubSpot, ...).
	Provider string
	// New returns the client under test with its OAuth endpoints and API host
	// pointed at fake, its waits on clock.
	New func(fake *crmfake.Server, clock Clock) crm.Provider
}

// The suite's data: enough records for three pages of at most pageCap.
const (
	companies = 250
	contacts  = 230
	pageCap   = 100
)

// env is one subtest's fake, clock and client.
type env struct {
	fake  *crmfake.Server
	clock *crmfake.VirtualClock
	p     crm.Provider

	mu     sync.Mutex
	waits  []time.Duration
	onWait func(ctx context.Context) error // replaces the clock's wait when set
}

func (h Harness) start(t *testing.T, seed uint64) *env {
	t.Helper()
	e := &env{clock: crmfake.NewVirtualClock(time.Now())}
	fake, err := crmfake.Start(crmfake.Options{
		Provider: h.Provider, Companies: companies, Contacts: contacts, Seed: seed,
		MaxPageSize: pageCap, Now: e.clock.Now,
	})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(fake.Close)
	e.fake = fake
	e.p = h.New(fake, Clock{Now: e.clock.Now, Sleep: e.sleep})
	return e
}

func (e *env) sleep(ctx context.Context, d time.Duration) error {
	e.mu.Lock()
	e.waits = append(e.waits, d)
	hook := e.onWait
	e.mu.Unlock()
	if hook != nil {
		return hook(ctx)
	}
	return e.clock.Sleep(ctx, d)
}

func (e *env) longWaits(atLeast time.Duration) int {
	e.mu.Lock()
	defer e.mu.Unlock()
	n := 0
	for _, w := range e.waits {
		if w >= atLeast {
			n++
		}
	}
	return n
}

// Run runs the contract suite on h.
func Run(t *testing.T, h Harness) {
	t.Run("name and endpoint", func(t *testing.T) {
		e := h.start(t, 1)
		if got := e.p.Name(); got != h.Provider {
			t.Errorf("Name() = %q, want %q", got, h.Provider)
		}
		if got := e.p.Endpoint(); got.AuthURL != e.fake.AuthURL() || got.TokenURL != e.fake.TokenURL() {
			t.Errorf("Endpoint() = %+v, want the fake's %s and %s", got, e.fake.AuthURL(), e.fake.TokenURL())
		}
	})
	t.Run("probe ok", func(t *testing.T) {
		e := h.start(t, 2)
		conn, _ := mustConnect(t, e)
		if err := e.p.Probe(context.Background(), conn); err != nil {
			t.Fatalf("Probe: %v", err)
		}
	})
	t.Run("probe with a rejected token", func(t *testing.T) { testRejected(t, h) })
	t.Run("expired access token is refreshed and rotated", func(t *testing.T) { testRefresh(t, h) })
	t.Run("companies paged completely without duplicates", func(t *testing.T) {
		e := h.start(t, 3)
		conn, _ := mustConnect(t, e)
		got, pages := collect(t, e.p.Companies, conn)
		assertSame(t, "websites", got, e.fake.Websites())
		if pages < 3 {
			t.Errorf("%d pages of %d companies at most %d a page, want 3 or more", pages, companies, pageCap)
		}
	})
	t.Run("contacts", func(t *testing.T) {
		e := h.start(t, 4)
		conn, _ := mustConnect(t, e)
		got, pages := collect(t, e.p.ContactEmails, conn)
		assertSame(t, "emails", got, e.fake.Emails())
		if pages < 3 {
			t.Errorf("%d pages of %d contacts at most %d a page, want 3 or more", pages, contacts, pageCap)
		}
	})
	t.Run("429 waited out", func(t *testing.T) {
		e := h.start(t, 5)
		conn, _ := mustConnect(t, e)
		const retryAfter = 7 * time.Second
		e.fake.Throttle(2, retryAfter)
		got, _ := collect(t, e.p.Companies, conn)
		assertSame(t, "websites after two 429s", got, e.fake.Websites())
		if n := e.fake.Stats().Throttled; n != 2 {
			t.Errorf("fake answered %d 429s, want 2", n)
		}
		if n := e.longWaits(retryAfter); n != 2 {
			t.Errorf("client waited Retry-After (%s or longer) %d times, want 2 (waits %v)", retryAfter, n, e.waits)
		}
	})
	t.Run("429 beyond the retry bound fails", func(t *testing.T) {
		e := h.start(t, 6)
		conn, _ := mustConnect(t, e)
		e.fake.Throttle(1000, time.Second)
		err := e.p.Companies(context.Background(), conn, func([]string) error { return nil })
		if !errors.Is(err, apperr.ErrRateLimited) || errors.Is(err, crm.ErrTokenRejected) {
			t.Fatalf("Companies under endless 429 = %v, want an error wrapping apperr.ErrRateLimited", err)
		}
		if n := e.fake.Stats().Throttled; n > 20 {
			t.Errorf("client tried %d times under 429, want a small bound", n)
		}
	})
	t.Run("context cancel", func(t *testing.T) { testCancel(t, h) })
	t.Run("page error stops paging", func(t *testing.T) {
		e := h.start(t, 9)
		conn, _ := mustConnect(t, e)
		stop := errors.New("stop here")
		calls := 0
		err := e.p.ContactEmails(context.Background(), conn, func([]string) error { calls++; return stop })
		if !errors.Is(err, stop) || calls != 1 {
			t.Fatalf("ContactEmails with a failing page = %v after %d calls, want the page's error after 1", err, calls)
		}
	})
}

func testRejected(t *testing.T, h Harness) {
	ctx := context.Background()
	t.Run("revoked", func(t *testing.T) {
		e := h.start(t, 10)
		conn, tok := mustConnect(t, e)
		if !e.fake.Revoke(tok.AccessToken) {
			t.Fatal("the fake does not know the access token it issued")
		}
		if err := e.p.Probe(ctx, conn); !errors.Is(err, crm.ErrTokenRejected) {
			t.Fatalf("Probe with a revoked token = %v, want crm.ErrTokenRejected", err)
		}
	})
	t.Run("expired at the provider", func(t *testing.T) {
		e := h.start(t, 11)
		conn, _ := mustConnect(t, e)
		e.fake.ExpireAccessTokens()
		err := e.p.Companies(ctx, conn, func([]string) error { return nil })
		if !errors.Is(err, crm.ErrTokenRejected) {
			t.Fatalf("Companies with a token the provider expired = %v, want crm.ErrTokenRejected", err)
		}
	})
	t.Run("refresh refused", func(t *testing.T) {
		e := h.start(t, 12)
		cfg := Config(e.fake, e.p)
		_, tok := mustConnect(t, e)
		e.fake.RevokeAll()
		tok.Expiry = time.Now().Add(-time.Minute) // make the oauth2 transport refresh first
		conn := ConnFor(cfg, tok)
		if err := e.p.Probe(ctx, conn); !errors.Is(err, crm.ErrTokenRejected) {
			t.Fatalf("Probe whose refresh answers invalid_grant = %v, want crm.ErrTokenRejected", err)
		}
		if n := e.fake.Stats().InvalidGrants; n != 1 {
			t.Errorf("fake refused %d grants, want 1", n)
		}
	})
}

// testRefresh checks that a connection keeps working across a refresh and that
// the refresh token it replaced is refused afterwards.
func testRefresh(t *testing.T, h Harness) {
	ctx := context.Background()
	e := h.start(t, 13)
	cfg := Config(e.fake, e.p)
	_, tok := mustConnect(t, e)
	e.fake.ExpireAccessTokens()
	old := *tok
	tok.Expiry = time.Now().Add(-time.Minute)
	if err := e.p.Probe(ctx, ConnFor(cfg, tok)); err != nil {
		t.Fatalf("Probe after a refresh: %v", err)
	}
	if n := e.fake.Stats().Refreshes; n != 1 {
		t.Fatalf("fake refreshed %d times, want 1", n)
	}
	old.Expiry = time.Now().Add(-time.Minute)
	err := e.p.Probe(ctx, ConnFor(cfg, &old))
	if !errors.Is(err, crm.ErrTokenRejected) {
		t.Fatalf("Probe refreshing with the rotated-out refresh token = %v, want crm.ErrTokenRejected", err)
	}
}

func testCancel(t *testing.T, h Harness) {
	t.Run("between pages", func(t *testing.T) {
		e := h.start(t, 7)
		conn, _ := mustConnect(t, e)
		ctx, cancel := context.WithCancel(context.Background())
		defer cancel()
		calls := 0
		err := e.p.Companies(ctx, conn, func([]string) error { calls++; cancel(); return nil })
		if !errors.Is(err, context.Canceled) || calls != 1 {
			t.Fatalf("Companies cancelled in the first page = %v after %d pages, want context.Canceled after 1", err, calls)
		}
	})
	t.Run("during a 429 wait", func(t *testing.T) {
		e := h.start(t, 8)
		conn, _ := mustConnect(t, e)
		ctx, cancel := context.WithCancel(context.Background())
		defer cancel()
		waiting := make(chan struct{}, 1)
		e.onWait = func(ctx context.Context) error {
			waiting <- struct{}{}
			select {
			case <-ctx.Done():
				return ctx.Err()
			case <-time.After(10 * time.Second):
				return errors.New("the wait was not given the call's context")
			}
		}
		e.fake.Throttle(1, time.Hour/60)
		go func() { <-waiting; cancel() }()
		err := e.p.ContactEmails(ctx, conn, func([]string) error { return nil })
		if !errors.Is(err, context.Canceled) {
			t.Fatalf("ContactEmails cancelled while waiting out a 429 = %v, want context.Canceled", err)
		}
	})
}

func collect(t *testing.T, list func(context.Context, crm.Conn, func([]string) error) error, conn crm.Conn) (all []string, pages int) {
	t.Helper()
	err := list(context.Background(), conn, func(values []string) error {
		pages++
		if len(values) == 0 {
			t.Errorf("page %d is empty; empty pages should not be reported", pages)
		}
		all = append(all, values...)
		return nil
	})
	if err != nil {
		t.Fatalf("after %d pages: %v", pages, err)
	}
	return all, pages
}

// assertSame wants got to be want in order: nothing dropped, nothing repeated.
func assertSame(t *testing.T, what string, got, want []string) {
	t.Helper()
	if slices.Equal(got, want) {
		return
	}
	t.Errorf("%s: got %d values, want %d", what, len(got), len(want))
	for i := range min(len(got), len(want)) {
		if got[i] != want[i] {
			t.Errorf("%s: first difference at %d: got %q, want %q", what, i, got[i], want[i])
			break
		}
	}
}

func mustConnect(t *testing.T, e *env) (crm.Conn, *oauth2.Token) {
	t.Helper()
	conn, tok, err := Connect(context.Background(), e.fake, e.p)
	if err != nil {
		t.Fatalf("connect to the %s fake: %v", e.fake.Provider(), err)
	}
	return conn, tok
}

// Config is the OAuth configuration of an app registered with fake, for p.
func Config(fake *crmfake.Server, p crm.Provider) *oauth2.Config {
	return &oauth2.Config{
		ClientID: fake.ClientID(), ClientSecret: fake.ClientSecret(), Endpoint: p.Endpoint(),
		RedirectURL: "http://127.0.0.1:9/v1/crm/" + p.Name() + "/callback", Scopes: p.Scopes(),
	}
}

// Connect runs the OAuth 2.0 authorization code flow with PKCE against fake, as
// Firmo's authorize and callback routes do, and returns the connection and token.
func Connect(ctx context.Context, fake *crmfake.Server, p crm.Provider) (crm.Conn, *oauth2.Token, error) {
	cfg := Config(fake, p)
	verifier := oauth2.GenerateVerifier()
	state := oauth2.GenerateVerifier()[:16]
	authURL := cfg.AuthCodeURL(state, oauth2.S256ChallengeOption(verifier))
	browser := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, authURL, nil)
	if err != nil {
		return crm.Conn{}, nil, err
	}
	resp, err := browser.Do(req)
	if err != nil {
		return crm.Conn{}, nil, fmt.Errorf("authorize: %w", err)
	}
	resp.Body.Close()
	back, err := url.Parse(resp.Header.Get("Location"))
	if resp.StatusCode != http.StatusFound || err != nil {
		return crm.Conn{}, nil, fmt.Errorf("authorize answered %s, want a redirect", resp.Status)
	}
	q := back.Query()
	if q.Get("state") != state || q.Get("code") == "" {
		return crm.Conn{}, nil, fmt.Errorf("authorize redirected to %s: want code and state %q", back.Redacted(), state)
	}
	tok, err := cfg.Exchange(ctx, q.Get("code"), oauth2.VerifierOption(verifier))
	if err != nil {
		return crm.Conn{}, nil, fmt.Errorf("exchange: %w", err)
	}
	return ConnFor(cfg, tok), tok, nil
}

// ConnFor is the connection a stored token gives: an HTTP client that refreshes
// it (with rotation) and the hosts the token response named.
func ConnFor(cfg *oauth2.Config, tok *oauth2.Token) crm.Conn {
	extra := func(k string) string { s, _ := tok.Extra(k).(string); return s }
	return crm.Conn{
		HTTP:        cfg.Client(context.Background(), tok),
		InstanceURL: extra("instance_url"),
		APIDomain:   extra("api_domain"),
	}
}

// Snapshot pages through every company and contact of a fake started with opts
// (its Provider and Now set here) with h's client, on a virtual clock shared by
// both, and fails t unless both lists come back complete, in order, with no value
// repeated. It returns the fake, for its Stats, and the virtual time taken.
func Snapshot(t *testing.T, h Harness, opts crmfake.Options) (*crmfake.Server, time.Duration) {
	t.Helper()
	clock := crmfake.NewVirtualClock(time.Now())
	opts.Provider, opts.Now = h.Provider, clock.Now
	fake, err := crmfake.Start(opts)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(fake.Close)
	p := h.New(fake, Clock{Now: clock.Now, Sleep: clock.Sleep})
	conn, _, err := Connect(context.Background(), fake, p)
	if err != nil {
		t.Fatal(err)
	}
	start := clock.Now()
	websites, _ := collect(t, p.Companies, conn)
	assertSame(t, "websites", websites, fake.Websites())
	emails, _ := collect(t, p.ContactEmails, conn)
	assertSame(t, "emails", emails, fake.Emails())
	return fake, clock.Now().Sub(start)
}
