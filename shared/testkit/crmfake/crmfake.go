// Package crmfake runs in-process fakes of the three CRM providers Firmo connects
// (HubSpot, Salesforce, Pipedrive). Each fake speaks its provider's wire format for
// what Firmo uses: the OAuth 2.0 authorize redirect, the token exchange (client secret
// and PKCE S256 checked) and refresh (refresh tokens rotate; a reused or revoked one
// answers invalid_grant), access tokens that expire and then answer 401, the record
// lists with the provider's own paging (HubSpot after, Salesforce nextRecordsUrl,
// Pipedrive cursor) and 429 with Retry-After past the rate limit.
//
// No fake of these APIs is served as a library, so this one is ours. It does not
// import package testing: tests start one with Start and close it with
// t.Cleanup(s.Close), and `firmo serve` can start the three of them for an offline
// demo. Every fake listens on loopback only.
package crmfake

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"strings"
	"sync"
	"time"
)

// The provider identifiers, as in Firmo's routes.
const (
	HubSpot    = "hubspot"
	Salesforce = "salesforce"
	Pipedrive  = "pipedrive"
)

// MaxRecords is the largest number of generated companies or contacts.
const MaxRecords = 100_000

// Options configure one fake. Zero values take the provider's real figures.
type Options struct {
	// Provider is HubSpot, Salesforce or Pipedrive.
	Provider string
	// ClientID and ClientSecret are the registered app's credentials; defaults
	// "fake-<provider>-client" and "fake-<provider>-secret".
	ClientID, ClientSecret string
	// Companies and Contacts are how many records to generate (at most MaxRecords),
	// from Seed, deterministically.
	Companies, Contacts int
	Seed                uint64
	// Websites and Emails, when not nil, replace the generated records: one company
	// per website value and one contact per email value, empty values included.
	Websites, Emails []string
	// TokenLifetime is how long an access token works: default 30 minutes (HubSpot),
	// 2 hours (Salesforce's default session timeout) or 1 hour (Pipedrive).
	TokenLifetime time.Duration
	// RateLimit API requests are served per RateWindow for the account, on a rolling
	// window; the next one answers 429. Default: HubSpot 100 per 10 s; the others are
	// not limited unless set (Throttle forces 429s on any of them).
	RateLimit  int
	RateWindow time.Duration
	// MaxPageSize, when set, caps every page below what the client asked for, so
	// small test data still spans several pages (real APIs may also answer short
	// pages).
	MaxPageSize int
	// Now is the fake's clock (token expiry, the rate window); default time.Now.
	// A test shares a VirtualClock with the client under test to run a long
	// rate-limited snapshot in no time.
	Now func() time.Time
	// Addr is the listen address; default a free loopback port. It must be loopback.
	Addr string
}

// Stats counts what the fake has answered.
type Stats struct {
	// APICalls counts record-list requests served with 200.
	APICalls int
	// Throttled counts 429 answers; Unauthorized counts 401 answers.
	Throttled, Unauthorized int
	// Exchanges and Refreshes count tokens issued for a code and for a refresh
	// token; InvalidGrants counts refused codes and refresh tokens.
	Exchanges, Refreshes, InvalidGrants int
	// MaxInWindow is the most API requests served within any one rate window (only
	// tracked when a rate limit is set).
	MaxInWindow int
}

// Server is one running fake.
type Server struct {
	opts   Options
	srv    *http.Server
	ln     net.Listener
	url    string
	done   chan struct{}
	data   *records
	tokens *tokenStore
	limit  *window

	mu       sync.Mutex
	stats    Stats
	throttle int              // API calls still to answer 429
	retryFor time.Duration    // their Retry-After
	deny     bool             // authorize answers access_denied
	locators map[string]*soql // Salesforce query locators
}

// Start starts a fake and returns it once it accepts connections.
func Start(opts Options) (*Server, error) {
	if err := opts.defaults(); err != nil {
		return nil, err
	}
	addr := opts.Addr
	if addr == "" {
		addr = "127.0.0.1:0"
	}
	if err := loopbackOnly(addr); err != nil {
		return nil, err
	}
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return nil, fmt.Errorf("crmfake %s: listen: %w", opts.Provider, err)
	}
	s := &Server{
		opts:   opts,
		ln:     ln,
		url:    "http://" + ln.Addr().String(),
		done:   make(chan struct{}),
		data:   newRecords(opts),
		tokens: newTokenStore(opts.Now),
	}
	if opts.RateLimit > 0 {
		s.limit = newWindow(opts.RateLimit, opts.RateWindow)
	}
	s.srv = &http.Server{Handler: s.Handler(), ReadHeaderTimeout: 10 * time.Second}
	go func() {
		defer close(s.done)
		s.srv.Serve(ln)
	}()
	return s, nil
}

func (o *Options) defaults() error {
	switch o.Provider {
	case HubSpot:
		if o.TokenLifetime == 0 {
			o.TokenLifetime = 30 * time.Minute
		}
		if o.RateLimit == 0 {
			o.RateLimit, o.RateWindow = 100, 10*time.Second
		}
	case Salesforce:
		if o.TokenLifetime == 0 {
			o.TokenLifetime = 2 * time.Hour
		}
	case Pipedrive:
		if o.TokenLifetime == 0 {
			o.TokenLifetime = time.Hour
		}
	default:
		return fmt.Errorf("crmfake: unknown provider %q (want %s, %s or %s)", o.Provider, HubSpot, Salesforce, Pipedrive)
	}
	if o.RateLimit > 0 && o.RateWindow <= 0 {
		o.RateWindow = 10 * time.Second
	}
	if o.ClientID == "" {
		o.ClientID = "fake-" + o.Provider + "-client"
	}
	if o.ClientSecret == "" {
		o.ClientSecret = "fake-" + o.Provider + "-secret"
	}
	if o.Companies < 0 || o.Companies > MaxRecords || o.Contacts < 0 || o.Contacts > MaxRecords {
		return fmt.Errorf("crmfake: companies and contacts must be within 0..%d", MaxRecords)
	}
	if o.Now == nil {
		o.Now = time.Now
	}
	return nil
}

// loopbackOnly refuses a listen address that is not a loopback IP or localhost:
// the fakes hand out tokens to anyone who asks.
func loopbackOnly(addr string) error {
	host, _, err := net.SplitHostPort(addr)
	if err != nil {
		return fmt.Errorf("crmfake: listen address %q: %w", addr, err)
	}
	if host == "localhost" {
		return nil
	}
	if ip := net.ParseIP(host); ip != nil && ip.IsLoopback() {
		return nil
	}
	return fmt.Errorf("crmfake: listen address %q is not loopback", addr)
}

// Close stops the fake and waits for it to finish.
func (s *Server) Close() {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if err := s.srv.Shutdown(ctx); err != nil && !errors.Is(err, http.ErrServerClosed) {
		s.srv.Close()
	}
	<-s.done
}

// Provider is the provider this fake plays.
func (s *Server) Provider() string { return s.opts.Provider }

// URL is the fake's base URL. It is also the API host: HubSpot's api.hubapi.com,
// Salesforce's instance_url and Pipedrive's api_domain all point here.
func (s *Server) URL() string { return s.url }

// AuthURL and TokenURL are the fake's OAuth endpoints, on the provider's real paths.
func (s *Server) AuthURL() string  { return s.url + paths[s.opts.Provider].authorize }
func (s *Server) TokenURL() string { return s.url + paths[s.opts.Provider].token }

// ClientID and ClientSecret are the credentials the fake accepts.
func (s *Server) ClientID() string     { return s.opts.ClientID }
func (s *Server) ClientSecret() string { return s.opts.ClientSecret }

// Websites are the companies' website or domain values as a client should report
// them (empty values left out), in the provider's list order.
func (s *Server) Websites() []string { return nonEmpty(s.data.websites) }

// Emails are the contacts' email addresses as a client should report them (empty
// values left out), in the provider's list order.
func (s *Server) Emails() []string {
	var out []string
	for _, c := range s.data.contacts {
		out = append(out, nonEmpty(c)...)
	}
	return out
}

// Stats returns the counters so far.
func (s *Server) Stats() Stats {
	s.mu.Lock()
	defer s.mu.Unlock()
	st := s.stats
	if s.limit != nil {
		st.MaxInWindow = s.limit.maxSeen()
	}
	return st
}

// ExpireAccessTokens makes every access token issued so far expired: the next API
// call with one answers 401 until the client refreshes.
func (s *Server) ExpireAccessTokens() { s.tokens.expireAll() }

// Revoke revokes the grant (the connection) an access or refresh token belongs to:
// its access tokens answer 401 and its refresh token invalid_grant. It reports
// whether the token was known.
func (s *Server) Revoke(token string) bool { return s.tokens.revoke(token) }

// RevokeAll revokes every grant issued so far, as when the user uninstalls the app.
func (s *Server) RevokeAll() { s.tokens.revokeAll() }

// Throttle makes the next n API calls answer 429 with Retry-After retryAfter
// (whole seconds, rounded up).
func (s *Server) Throttle(n int, retryAfter time.Duration) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.throttle, s.retryFor = n, retryAfter
}

// DenyConsent makes the authorize endpoint redirect with error=access_denied, as
// when the user clicks "cancel" on the provider's consent screen.
func (s *Server) DenyConsent(deny bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.deny = deny
}

func (s *Server) count(f func(*Stats)) {
	s.mu.Lock()
	defer s.mu.Unlock()
	f(&s.stats)
}

// Handler serves the fake's routes: the OAuth endpoints, the provider's API and
// /_control/{expire,revoke-all,throttle} (POST) for a demo driven from a shell.
func (s *Server) Handler() http.Handler {
	mux := http.NewServeMux()
	p := paths[s.opts.Provider]
	mux.HandleFunc("GET "+p.authorize, s.authorize)
	mux.HandleFunc("POST "+p.token, s.token)
	switch s.opts.Provider {
	case HubSpot:
		mux.HandleFunc("GET /crm/v3/objects/{object}", s.api(s.hubspotList))
	case Salesforce:
		mux.HandleFunc("GET /services/data/{version}/query", s.api(s.salesforceQuery))
		mux.HandleFunc("GET /services/data/{version}/query/{locator}", s.api(s.salesforceMore))
	case Pipedrive:
		mux.HandleFunc("GET /api/v2/{object}", s.api(s.pipedriveList))
	}
	mux.HandleFunc("POST /_control/expire", func(w http.ResponseWriter, r *http.Request) {
		s.ExpireAccessTokens()
		w.WriteHeader(http.StatusNoContent)
	})
	mux.HandleFunc("POST /_control/revoke-all", func(w http.ResponseWriter, r *http.Request) {
		s.RevokeAll()
		w.WriteHeader(http.StatusNoContent)
	})
	mux.HandleFunc("POST /_control/throttle", func(w http.ResponseWriter, r *http.Request) {
		var n, secs int
		fmt.Sscan(r.FormValue("n"), &n)
		fmt.Sscan(r.FormValue("retry_after"), &secs)
		s.Throttle(n, time.Duration(secs)*time.Second)
		w.WriteHeader(http.StatusNoContent)
	})
	return mux
}

// endpointPaths are a provider's OAuth paths on its authorize and token hosts.
type endpointPaths struct{ authorize, token string }

var paths = map[string]endpointPaths{
	HubSpot:    {"/oauth/authorize", "/oauth/v1/token"},
	Salesforce: {"/services/oauth2/authorize", "/services/oauth2/token"},
	Pipedrive:  {"/oauth/authorize", "/oauth/token"},
}

// apiHandler serves one authorised API request; it returns the status and body to
// write (a body of nil writes nothing).
type apiHandler func(r *http.Request) (status int, body any, header http.Header)

// api wraps h with what every API call goes through, in the providers' order:
// bearer token first (401), then the forced and the real rate limit (429).
func (s *Server) api(h apiHandler) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		token, ok := strings.CutPrefix(r.Header.Get("Authorization"), "Bearer ")
		if !ok {
			// Some clients send the scheme in lower case; RFC 6750 says it is
			// case-insensitive.
			token, ok = strings.CutPrefix(r.Header.Get("Authorization"), "bearer ")
		}
		now := s.opts.Now()
		if problem := s.tokens.check(token, ok, now); problem != "" {
			s.count(func(st *Stats) { st.Unauthorized++ })
			writeJSON(w, http.StatusUnauthorized, s.unauthorizedBody(problem), nil)
			return
		}
		if wait, limited := s.admit(now); limited {
			s.count(func(st *Stats) { st.Throttled++ })
			h := http.Header{}
			h.Set("Retry-After", fmt.Sprint(ceilSeconds(wait)))
			writeJSON(w, http.StatusTooManyRequests, s.rateLimitedBody(), h)
			return
		}
		status, body, header := h(r)
		if status == http.StatusOK {
			s.count(func(st *Stats) { st.APICalls++ })
		}
		if s.opts.Provider == HubSpot && s.limit != nil {
			if header == nil {
				header = http.Header{}
			}
			header.Set("X-HubSpot-RateLimit-Interval-Milliseconds", fmt.Sprint(s.opts.RateWindow.Milliseconds()))
			header.Set("X-HubSpot-RateLimit-Max", fmt.Sprint(s.opts.RateLimit))
			header.Set("X-HubSpot-RateLimit-Remaining", fmt.Sprint(s.limit.remaining(now)))
		}
		writeJSON(w, status, body, header)
	}
}

// admit applies Throttle, then the rolling rate window; it reports how long the
// caller should wait when the call is refused.
func (s *Server) admit(now time.Time) (time.Duration, bool) {
	s.mu.Lock()
	if s.throttle > 0 {
		s.throttle--
		wait := s.retryFor
		s.mu.Unlock()
		return wait, true
	}
	s.mu.Unlock()
	if s.limit == nil {
		return 0, false
	}
	return s.limit.admit(now)
}

func ceilSeconds(d time.Duration) int64 {
	if d <= 0 {
		return 0
	}
	return int64((d + time.Second - 1) / time.Second)
}

func nonEmpty(values []string) []string {
	out := make([]string, 0, len(values))
	for _, v := range values {
		if strings.TrimSpace(v) != "" {
			out = append(out, v)
		}
	}
	return out
}

// StartAll starts one fake per provider from the same options (Provider ignored),
// as `firmo serve` does for an offline demo, and returns them by provider name.
// On an error it closes those already started.
func StartAll(opts Options) (map[string]*Server, error) {
	all := map[string]*Server{}
	for _, p := range []string{HubSpot, Salesforce, Pipedrive} {
		o := opts
		o.Provider = p
		s, err := Start(o)
		if err != nil {
			for _, started := range all {
				started.Close()
			}
			return nil, err
		}
		all[p] = s
	}
	return all, nil
}
