package crmfake

import (
	"crypto/rand"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"sync"
	"time"
)

// codeLifetime is how long an authorization code can be exchanged.
const codeLifetime = 10 * time.Minute

// grant is one authorisation of the app by a user: what Firmo calls a connection.
type grant struct {
	revoked bool
	scope   string
}

type authCode struct {
	g           *grant
	redirectURI string
	challenge   string
	expires     time.Time
	used        bool
}

type accessToken struct {
	g       *grant
	expires time.Time
	expired bool // ExpireAccessTokens
}

type refreshToken struct {
	g    *grant
	used bool // rotated: a second use is refused
}

// tokenStore holds the codes and tokens the fake has issued.
type tokenStore struct {
	mu      sync.Mutex
	now     func() time.Time
	grants  []*grant
	codes   map[string]*authCode
	access  map[string]*accessToken
	refresh map[string]*refreshToken
}

func newTokenStore(now func() time.Time) *tokenStore {
	return &tokenStore{
		now:     now,
		codes:   map[string]*authCode{},
		access:  map[string]*accessToken{},
		refresh: map[string]*refreshToken{},
	}
}

// check says what is wrong with a bearer token at now: "" when it works.
func (ts *tokenStore) check(token string, present bool, now time.Time) string {
	if !present || token == "" {
		return "missing"
	}
	ts.mu.Lock()
	defer ts.mu.Unlock()
	a, ok := ts.access[token]
	switch {
	case !ok:
		return "unknown"
	case a.g.revoked:
		return "revoked"
	case a.expired || !now.Before(a.expires):
		return "expired"
	}
	return ""
}

func (ts *tokenStore) expireAll() {
	ts.mu.Lock()
	defer ts.mu.Unlock()
	for _, a := range ts.access {
		a.expired = true
	}
}

func (ts *tokenStore) revoke(token string) bool {
	ts.mu.Lock()
	defer ts.mu.Unlock()
	if a, ok := ts.access[token]; ok {
		a.g.revoked = true
		return true
	}
	if r, ok := ts.refresh[token]; ok {
		r.g.revoked = true
		return true
	}
	return false
}

func (ts *tokenStore) revokeAll() {
	ts.mu.Lock()
	defer ts.mu.Unlock()
	for _, g := range ts.grants {
		g.revoked = true
	}
}

// issue mints an access and a refresh token for g.
func (ts *tokenStore) issue(g *grant, lifetime time.Duration, prefix string) (access, refresh string) {
	access, refresh = prefix+randomHex(24), prefix+"r-"+randomHex(24)
	ts.access[access] = &accessToken{g: g, expires: ts.now().Add(lifetime)}
	ts.refresh[refresh] = &refreshToken{g: g}
	return access, refresh
}

func randomHex(n int) string {
	b := make([]byte, n)
	rand.Read(b)
	return hex.EncodeToString(b)
}

// authorize plays the provider's consent screen: the user always agrees (unless
// DenyConsent), and the browser is sent back to redirect_uri with code and state.
func (s *Server) authorize(w http.ResponseWriter, r *http.Request) {
	q := r.URL.Query()
	if q.Get("client_id") != s.opts.ClientID {
		http.Error(w, "unknown client_id", http.StatusBadRequest)
		return
	}
	back, err := url.Parse(q.Get("redirect_uri"))
	if err != nil || !back.IsAbs() || (back.Scheme != "http" && back.Scheme != "https") {
		// OAuth never redirects to a redirect_uri it cannot trust.
		http.Error(w, "redirect_uri must be an absolute http(s) URL", http.StatusBadRequest)
		return
	}
	fail := func(code, desc string) {
		v := back.Query()
		v.Set("error", code)
		v.Set("error_description", desc)
		if st := q.Get("state"); st != "" {
			v.Set("state", st)
		}
		back.RawQuery = v.Encode()
		http.Redirect(w, r, back.String(), http.StatusFound)
	}
	s.mu.Lock()
	deny := s.deny
	s.mu.Unlock()
	switch {
	case deny:
		fail("access_denied", "the user denied the request")
		return
	case q.Get("response_type") != "" && q.Get("response_type") != "code":
		fail("unsupported_response_type", "only response_type=code is supported")
		return
	case q.Get("code_challenge") == "":
		fail("invalid_request", "code_challenge is required (PKCE)")
		return
	case q.Get("code_challenge_method") != "S256":
		fail("invalid_request", "code_challenge_method must be S256")
		return
	}
	code := randomHex(16)
	ts := s.tokens
	ts.mu.Lock()
	g := &grant{scope: q.Get("scope")}
	ts.grants = append(ts.grants, g)
	ts.codes[code] = &authCode{
		g: g, redirectURI: q.Get("redirect_uri"), challenge: q.Get("code_challenge"),
		expires: ts.now().Add(codeLifetime),
	}
	ts.mu.Unlock()
	v := back.Query()
	v.Set("code", code)
	if st := q.Get("state"); st != "" {
		v.Set("state", st)
	}
	back.RawQuery = v.Encode()
	http.Redirect(w, r, back.String(), http.StatusFound)
}

// token is the token endpoint: authorization_code (with PKCE) and refresh_token.
func (s *Server) token(w http.ResponseWriter, r *http.Request) {
	if err := r.ParseForm(); err != nil {
		oauthError(w, http.StatusBadRequest, "invalid_request", "the body is not a form")
		return
	}
	if problem := s.clientAuth(r); problem != "" {
		oauthError(w, http.StatusUnauthorized, "invalid_client", problem)
		return
	}
	switch r.PostForm.Get("grant_type") {
	case "authorization_code":
		s.exchange(w, r)
	case "refresh_token":
		s.refreshGrant(w, r)
	default:
		oauthError(w, http.StatusBadRequest, "unsupported_grant_type", "grant_type must be authorization_code or refresh_token")
	}
}

// clientAuth checks the app's credentials where the provider expects them:
// HubSpot in the form body, Pipedrive in HTTP Basic, Salesforce in either.
func (s *Server) clientAuth(r *http.Request) string {
	id, secret, basic := r.BasicAuth()
	if basic {
		// RFC 6749 2.3.1: both parts are form-urlencoded inside Basic.
		id, _ = url.QueryUnescape(id)
		secret, _ = url.QueryUnescape(secret)
	}
	switch {
	case s.opts.Provider == HubSpot && basic:
		return "client credentials go in the request body"
	case s.opts.Provider == Pipedrive && !basic:
		return "client credentials go in the Authorization header (HTTP Basic)"
	case !basic:
		id, secret = r.PostForm.Get("client_id"), r.PostForm.Get("client_secret")
	}
	if id != s.opts.ClientID || subtle.ConstantTimeCompare([]byte(secret), []byte(s.opts.ClientSecret)) != 1 {
		return "unknown client or wrong client secret"
	}
	return ""
}

func (s *Server) exchange(w http.ResponseWriter, r *http.Request) {
	f := r.PostForm
	ts := s.tokens
	ts.mu.Lock()
	c, ok := ts.codes[f.Get("code")]
	problem := ""
	switch {
	case !ok:
		problem = "unknown authorization code"
	case c.used:
		// A replayed code revokes what it issued (RFC 6749 4.1.2).
		c.g.revoked = true
		problem = "authorization code already used"
	case !ts.now().Before(c.expires):
		problem = "authorization code expired"
	case f.Get("redirect_uri") != c.redirectURI:
		problem = "redirect_uri does not match the authorize request"
	case !pkceMatches(f.Get("code_verifier"), c.challenge):
		problem = "code_verifier does not match code_challenge"
	}
	if problem != "" {
		ts.mu.Unlock()
		s.count(func(st *Stats) { st.InvalidGrants++ })
		oauthError(w, http.StatusBadRequest, "invalid_grant", problem)
		return
	}
	c.used = true
	access, refresh := ts.issue(c.g, s.opts.TokenLifetime, tokenPrefix[s.opts.Provider])
	scope := c.g.scope
	ts.mu.Unlock()
	s.count(func(st *Stats) { st.Exchanges++ })
	writeJSON(w, http.StatusOK, s.tokenResponse(access, refresh, scope), noStore())
}

func (s *Server) refreshGrant(w http.ResponseWriter, r *http.Request) {
	ts := s.tokens
	ts.mu.Lock()
	old, ok := ts.refresh[r.PostForm.Get("refresh_token")]
	problem := ""
	switch {
	case !ok:
		problem = "unknown refresh token"
	case old.g.revoked:
		problem = "the refresh token was revoked"
	case old.used:
		problem = "the refresh token was already used (tokens rotate on every refresh)"
	}
	if problem != "" {
		ts.mu.Unlock()
		s.count(func(st *Stats) { st.InvalidGrants++ })
		oauthError(w, http.StatusBadRequest, "invalid_grant", problem)
		return
	}
	old.used = true
	access, refresh := ts.issue(old.g, s.opts.TokenLifetime, tokenPrefix[s.opts.Provider])
	scope := old.g.scope
	ts.mu.Unlock()
	s.count(func(st *Stats) { st.Refreshes++ })
	writeJSON(w, http.StatusOK, s.tokenResponse(access, refresh, scope), noStore())
}

func pkceMatches(verifier, challenge string) bool {
	if verifier == "" {
		return false
	}
	sum := sha256.Sum256([]byte(verifier))
	return subtle.ConstantTimeCompare([]byte(base64.RawURLEncoding.EncodeToString(sum[:])), []byte(challenge)) == 1
}

var tokenPrefix = map[string]string{HubSpot: "hs-", Salesforce: "00Dfake!", Pipedrive: "v1:"}

// tokenResponse is the provider's token JSON. Salesforce sends no expires_in (a
// session lasts until the org's timeout and a call then answers 401
// INVALID_SESSION_ID) but carries instance_url; Pipedrive carries api_domain.
func (s *Server) tokenResponse(access, refresh, scope string) map[string]any {
	switch s.opts.Provider {
	case Salesforce:
		return map[string]any{
			"access_token": access, "refresh_token": refresh, "token_type": "Bearer",
			"scope": scope, "instance_url": s.url, "signature": randomHex(16),
			"id":        s.url + "/id/00Dfake0000000001/005fake0000000001",
			"issued_at": fmt.Sprint(s.opts.Now().UnixMilli()),
		}
	case Pipedrive:
		return map[string]any{
			"access_token": access, "refresh_token": refresh, "token_type": "Bearer",
			"scope": scope, "expires_in": int(s.opts.TokenLifetime.Seconds()), "api_domain": s.url,
		}
	default: // HubSpot
		return map[string]any{
			"access_token": access, "refresh_token": refresh, "token_type": "bearer",
			"expires_in": int(s.opts.TokenLifetime.Seconds()),
		}
	}
}

func oauthError(w http.ResponseWriter, status int, code, desc string) {
	writeJSON(w, status, map[string]string{"error": code, "error_description": desc}, noStore())
}

func noStore() http.Header {
	h := http.Header{}
	h.Set("Cache-Control", "no-store")
	return h
}

func writeJSON(w http.ResponseWriter, status int, body any, header http.Header) {
	for k, v := range header {
		w.Header()[k] = v
	}
	w.Header().Set("Content-Type", "application/json;charset=utf-8")
	w.WriteHeader(status)
	if body != nil {
		json.NewEncoder(w).Encode(body)
	}
}

// unauthorizedBody is the provider's 401 body for a bad bearer token.
func (s *Server) unauthorizedBody(problem string) any {
	switch s.opts.Provider {
	case Salesforce:
		return []map[string]string{{"message": "Session expired or invalid", "errorCode": "INVALID_SESSION_ID"}}
	case Pipedrive:
		return map[string]any{"success": false, "error": "unauthorized access", "errorCode": 401,
			"error_info": "Please check developers.pipedrive.com for more information about Pipedrive API."}
	default:
		category, msg := "INVALID_AUTHENTICATION", "Authentication credentials not found."
		if problem == "expired" {
			category, msg = "EXPIRED_AUTHENTICATION", "The OAuth token used to make this call expired."
		}
		return map[string]string{"status": "error", "message": msg, "correlationId": randomHex(8), "category": category}
	}
}

// rateLimitedBody is the provider's 429 body. Salesforce answers its concurrent
// and daily limits otherwise (403 REQUEST_LIMIT_EXCEEDED); Throttle's 429 stands for
// a proxy in front of it.
func (s *Server) rateLimitedBody() any {
	switch s.opts.Provider {
	case Salesforce:
		return []map[string]string{{"message": "TotalRequests Limit exceeded.", "errorCode": "REQUEST_LIMIT_EXCEEDED"}}
	case Pipedrive:
		return map[string]any{"success": false, "error": "Request over limit", "errorCode": 429}
	default:
		return map[string]string{"status": "error", "message": "You have reached your ten_secondly_rolling limit.",
			"errorType": "RATE_LIMIT", "correlationId": randomHex(8), "policyName": "TEN_SECONDLY_ROLLING"}
	}
}

// badRequest is the provider's body for a malformed API request.
func (s *Server) badRequest(code, msg string) any {
	switch s.opts.Provider {
	case Salesforce:
		return []map[string]string{{"message": msg, "errorCode": code}}
	case Pipedrive:
		return map[string]any{"success": false, "error": msg, "code": code}
	default:
		return map[string]string{"status": "error", "message": msg, "correlationId": randomHex(8), "category": code}
	}
}
