package crmfake_test

import (
	"context"
	"encoding/json"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"testing"
	"time"

	"golang.org/x/oauth2"

	"github.com/firmoapi/firmo/shared/testkit/crmfake"
)

func start(t *testing.T, opts crmfake.Options) *crmfake.Server {
	t.Helper()
	s, err := crmfake.Start(opts)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(s.Close)
	return s
}

var styles = map[string]oauth2.AuthStyle{
	crmfake.HubSpot: oauth2.AuthStyleInParams, crmfake.Salesforce: oauth2.AuthStyleInParams, crmfake.Pipedrive: oauth2.AuthStyleInHeader,
}

func config(s *crmfake.Server) *oauth2.Config {
	return &oauth2.Config{
		ClientID: s.ClientID(), ClientSecret: s.ClientSecret(), RedirectURL: "http://127.0.0.1:9/cb?keep=1",
		Endpoint: oauth2.Endpoint{AuthURL: s.AuthURL(), TokenURL: s.TokenURL(), AuthStyle: styles[s.Provider()]},
	}
}

// authorize follows the consent redirect and returns its query.
func authorize(t *testing.T, authURL string) url.Values {
	t.Helper()
	c := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	resp, err := c.Get(authURL)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	loc, err := url.Parse(resp.Header.Get("Location"))
	if resp.StatusCode != http.StatusFound || err != nil {
		t.Fatalf("authorize answered %s, want 302", resp.Status)
	}
	if !strings.HasPrefix(loc.String(), "http://127.0.0.1:9/cb?") || loc.Query().Get("keep") != "1" {
		t.Fatalf("redirected to %s, want the redirect_uri with its own query kept", loc)
	}
	return loc.Query()
}

func grantCode(t *testing.T, s *crmfake.Server) (code, verifier string) {
	t.Helper()
	verifier = oauth2.GenerateVerifier()
	q := authorize(t, config(s).AuthCodeURL("st4te", oauth2.S256ChallengeOption(verifier)))
	if q.Get("state") != "st4te" || q.Get("code") == "" {
		t.Fatalf("redirect query %v, want code and state", q)
	}
	return q.Get("code"), verifier
}

func oauthCode(err error) string {
	if re, ok := err.(*oauth2.RetrieveError); ok {
		return re.ErrorCode
	}
	return ""
}

func TestTokenExchangeChecks(t *testing.T) {
	ctx := context.Background()
	for _, p := range []string{crmfake.HubSpot, crmfake.Salesforce, crmfake.Pipedrive} {
		t.Run(p, func(t *testing.T) {
			s := start(t, crmfake.Options{Provider: p, Companies: 3})
			cfg := config(s)

			code, _ := grantCode(t, s)
			if _, err := cfg.Exchange(ctx, code, oauth2.VerifierOption(oauth2.GenerateVerifier())); oauthCode(err) != "invalid_grant" {
				t.Errorf("exchange with the wrong code_verifier = %v, want invalid_grant", err)
			}

			code, verifier := grantCode(t, s)
			wrong := *cfg
			wrong.ClientSecret = "not-it"
			if _, err := wrong.Exchange(ctx, code, oauth2.VerifierOption(verifier)); oauthCode(err) != "invalid_client" {
				t.Errorf("exchange with the wrong client secret = %v, want invalid_client", err)
			}
			elsewhere := *cfg
			elsewhere.RedirectURL = "http://127.0.0.1:9/other"
			if _, err := elsewhere.Exchange(ctx, code, oauth2.VerifierOption(verifier)); oauthCode(err) != "invalid_grant" {
				t.Errorf("exchange with another redirect_uri = %v, want invalid_grant", err)
			}

			code, verifier = grantCode(t, s)
			tok, err := cfg.Exchange(ctx, code, oauth2.VerifierOption(verifier))
			if err != nil {
				t.Fatalf("exchange: %v", err)
			}
			if p == crmfake.Salesforce && tok.Extra("instance_url") != s.URL() {
				t.Errorf("instance_url = %v, want %s", tok.Extra("instance_url"), s.URL())
			}
			if p == crmfake.Pipedrive && tok.Extra("api_domain") != s.URL() {
				t.Errorf("api_domain = %v, want %s", tok.Extra("api_domain"), s.URL())
			}
			if _, err := cfg.Exchange(ctx, code, oauth2.VerifierOption(verifier)); oauthCode(err) != "invalid_grant" {
				t.Errorf("second exchange of one code = %v, want invalid_grant", err)
			}
			if status := get(t, s, tok.AccessToken); status != http.StatusUnauthorized {
				t.Errorf("a replayed code must revoke its tokens: API answered %d, want 401", status)
			}
		})
	}
}

func TestCredentialsWhereTheProviderWantsThem(t *testing.T) {
	for p, wrong := range map[string]oauth2.AuthStyle{crmfake.HubSpot: oauth2.AuthStyleInHeader, crmfake.Pipedrive: oauth2.AuthStyleInParams} {
		s := start(t, crmfake.Options{Provider: p})
		code, verifier := grantCode(t, s)
		cfg := config(s)
		cfg.Endpoint.AuthStyle = wrong
		if _, err := cfg.Exchange(context.Background(), code, oauth2.VerifierOption(verifier)); oauthCode(err) != "invalid_client" {
			t.Errorf("%s with client credentials in the wrong place = %v, want invalid_client", p, err)
		}
	}
}

func TestAuthorizeRefusals(t *testing.T) {
	s := start(t, crmfake.Options{Provider: crmfake.HubSpot})
	cfg := config(s)
	if q := authorize(t, cfg.AuthCodeURL("s1")); q.Get("error") != "invalid_request" || q.Get("code") != "" {
		t.Errorf("authorize without PKCE redirected with %v, want error=invalid_request and no code", q)
	}
	s.DenyConsent(true)
	if q := authorize(t, cfg.AuthCodeURL("s2", oauth2.S256ChallengeOption("v"))); q.Get("error") != "access_denied" || q.Get("state") != "s2" {
		t.Errorf("denied consent redirected with %v, want error=access_denied and the state", q)
	}
	resp, err := http.Get(strings.Replace(cfg.AuthCodeURL("s3"), "client_id=", "client_id=x", 1))
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusBadRequest {
		t.Errorf("authorize for an unknown client answered %d, want 400 (no redirect)", resp.StatusCode)
	}
}

func connect(t *testing.T, s *crmfake.Server) *oauth2.Token {
	t.Helper()
	code, verifier := grantCode(t, s)
	tok, err := config(s).Exchange(context.Background(), code, oauth2.VerifierOption(verifier))
	if err != nil {
		t.Fatal(err)
	}
	return tok
}

var listPath = map[string]string{
	crmfake.HubSpot:    "/crm/v3/objects/companies?limit=1",
	crmfake.Salesforce: "/services/data/v62.0/query?q=SELECT+Id+FROM+Account+LIMIT+1",
	crmfake.Pipedrive:  "/api/v2/organizations?limit=1",
}

func get(t *testing.T, s *crmfake.Server, token string) int {
	t.Helper()
	code, _ := getHeader(t, s, token)
	return code
}

func getHeader(t *testing.T, s *crmfake.Server, token string) (int, http.Header) {
	t.Helper()
	req, _ := http.NewRequest(http.MethodGet, s.URL()+listPath[s.Provider()], nil)
	req.Header.Set("Authorization", "Bearer "+token)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	return resp.StatusCode, resp.Header
}

func TestRefreshRotationExpiryAndRevocation(t *testing.T) {
	ctx := context.Background()
	clock := crmfake.NewVirtualClock(time.Now())
	s := start(t, crmfake.Options{Provider: crmfake.Pipedrive, Companies: 2, TokenLifetime: time.Minute, Now: clock.Now})
	cfg := config(s)
	tok := connect(t, s)
	if get(t, s, tok.AccessToken) != http.StatusOK {
		t.Fatal("a fresh token was refused")
	}
	clock.Advance(time.Minute)
	if get(t, s, tok.AccessToken) != http.StatusUnauthorized {
		t.Error("a token past its lifetime was accepted")
	}
	refresh := func(rt string) (*oauth2.Token, error) {
		return cfg.TokenSource(ctx, &oauth2.Token{RefreshToken: rt, Expiry: time.Now().Add(-time.Hour)}).Token()
	}
	fresh, err := refresh(tok.RefreshToken)
	if err != nil || fresh.RefreshToken == tok.RefreshToken || get(t, s, fresh.AccessToken) != http.StatusOK {
		t.Fatalf("refresh = %v; want a working access token and a new refresh token", err)
	}
	if _, err := refresh(tok.RefreshToken); oauthCode(err) != "invalid_grant" {
		t.Errorf("reusing a rotated refresh token = %v, want invalid_grant", err)
	}
	s.ExpireAccessTokens()
	if get(t, s, fresh.AccessToken) != http.StatusUnauthorized {
		t.Error("ExpireAccessTokens left a token working")
	}
	if !s.Revoke(fresh.RefreshToken) {
		t.Fatal("Revoke did not know the refresh token")
	}
	if _, err := refresh(fresh.RefreshToken); oauthCode(err) != "invalid_grant" {
		t.Errorf("refreshing a revoked grant = %v, want invalid_grant", err)
	}
	if st := s.Stats(); st.Exchanges != 1 || st.Refreshes != 1 || st.InvalidGrants != 2 || st.Unauthorized != 2 {
		t.Errorf("stats %+v", st)
	}
}

func TestHubSpotRollingRateLimit(t *testing.T) {
	clock := crmfake.NewVirtualClock(time.Now())
	s := start(t, crmfake.Options{Provider: crmfake.HubSpot, Companies: 1, Now: clock.Now})
	tok := connect(t, s)
	for i := range 100 {
		if code := get(t, s, tok.AccessToken); code != http.StatusOK {
			t.Fatalf("request %d answered %d, want 200 within the limit", i+1, code)
		}
		clock.Advance(50 * time.Millisecond)
	}
	code, h := getHeader(t, s, tok.AccessToken)
	if code != http.StatusTooManyRequests || h.Get("Retry-After") != "5" {
		// The first of the 100 was served 5 s ago and leaves the window in 5 s.
		t.Fatalf("request 101 within 10 s answered %d Retry-After %q, want 429 and 5", code, h.Get("Retry-After"))
	}
	clock.Advance(5 * time.Second)
	if code := get(t, s, tok.AccessToken); code != http.StatusOK {
		t.Errorf("after the oldest request left the window: %d, want 200", code)
	}
	if st := s.Stats(); st.MaxInWindow != 100 || st.Throttled != 1 {
		t.Errorf("stats %+v, want 100 at most in a window and 1 throttled", st)
	}
}

func TestSeededRecords(t *testing.T) {
	a := start(t, crmfake.Options{Provider: crmfake.HubSpot, Companies: 2000, Contacts: 500, Seed: 3})
	b := start(t, crmfake.Options{Provider: crmfake.HubSpot, Companies: 2000, Contacts: 500, Seed: 3})
	c := start(t, crmfake.Options{Provider: crmfake.HubSpot, Companies: 2000, Contacts: 500, Seed: 4})
	if !slices.Equal(a.Websites(), b.Websites()) || !slices.Equal(a.Emails(), b.Emails()) {
		t.Error("one seed gave two different record sets")
	}
	if slices.Equal(a.Websites(), c.Websites()) {
		t.Error("two seeds gave the same websites")
	}
	w := a.Websites()
	if len(w) < 1500 || len(w) > 1950 {
		t.Errorf("%d of 2000 companies have a website, want about nine in ten", len(w))
	}
	shapes := map[string]bool{}
	for _, v := range w {
		switch {
		case strings.HasPrefix(v, "https://www.") && strings.Count(v, "/") > 2:
			shapes["with a path"] = true
		case !strings.Contains(v, "/") && !strings.HasPrefix(v, "www.") && v == strings.TrimSpace(v):
			shapes["bare"] = true
		case strings.HasPrefix(v, "www."):
			shapes["www only"] = true
		case v != strings.TrimSpace(v):
			shapes["padded"] = true
		}
	}
	if len(shapes) != 4 {
		t.Errorf("website shapes seen: %v, want paths, bare hosts, www-only and padded values", shapes)
	}
}

func TestExplicitRecords(t *testing.T) {
	s := start(t, crmfake.Options{Provider: crmfake.Salesforce, Websites: []string{"a.com", "", "b.com"}, Emails: []string{"x@a.com"}})
	if !slices.Equal(s.Websites(), []string{"a.com", "b.com"}) || !slices.Equal(s.Emails(), []string{"x@a.com"}) {
		t.Errorf("Websites %v, Emails %v", s.Websites(), s.Emails())
	}
}

func TestOptionsRefused(t *testing.T) {
	for _, opts := range []crmfake.Options{
		{Provider: "zoho"},
		{Provider: crmfake.HubSpot, Addr: "0.0.0.0:0"},
		{Provider: crmfake.HubSpot, Companies: crmfake.MaxRecords + 1},
	} {
		if s, err := crmfake.Start(opts); err == nil {
			s.Close()
			t.Errorf("Start(%+v) succeeded, want an error", opts)
		}
	}
}

func TestSalesforceQueryErrors(t *testing.T) {
	s := start(t, crmfake.Options{Provider: crmfake.Salesforce, Companies: 1})
	tok := connect(t, s)
	req, _ := http.NewRequest(http.MethodGet, s.URL()+"/services/data/v62.0/query?q="+url.QueryEscape("SELECT Revenue FROM Account"), nil)
	req.Header.Set("Authorization", "Bearer "+tok.AccessToken)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var body []struct{ Message, ErrorCode string }
	json.NewDecoder(resp.Body).Decode(&body)
	if resp.StatusCode != http.StatusBadRequest || len(body) != 1 || body[0].ErrorCode != "MALFORMED_QUERY" {
		t.Errorf("unknown column answered %d %+v, want 400 MALFORMED_QUERY", resp.StatusCode, body)
	}
}

func TestStartAll(t *testing.T) {
	all, err := crmfake.StartAll(crmfake.Options{Companies: 10, Contacts: 10, Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	for p, s := range all {
		defer s.Close()
		if s.Provider() != p || len(s.Websites()) == 0 {
			t.Errorf("%s: fake plays %s with %d websites", p, s.Provider(), len(s.Websites()))
		}
		tok := connect(t, s)
		if code := get(t, s, tok.AccessToken); code != http.StatusOK {
			t.Errorf("%s: API answered %d", p, code)
		}
	}
	if len(all) != 3 {
		t.Errorf("%d fakes, want 3", len(all))
	}
}

func TestControlEndpoints(t *testing.T) {
	s := start(t, crmfake.Options{Provider: crmfake.Salesforce, Companies: 1})
	tok := connect(t, s)
	post := func(path string) {
		t.Helper()
		resp, err := http.Post(s.URL()+path, "", nil)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != http.StatusNoContent {
			t.Fatalf("POST %s answered %s", path, resp.Status)
		}
	}
	post("/_control/throttle?n=1&retry_after=2")
	if code, h := getHeader(t, s, tok.AccessToken); code != http.StatusTooManyRequests || h.Get("Retry-After") != "2" {
		t.Errorf("after throttle: %d Retry-After %q, want 429 and 2", code, h.Get("Retry-After"))
	}
	if code := get(t, s, tok.AccessToken); code != http.StatusOK {
		t.Errorf("after the one throttled call: %d, want 200", code)
	}
	post("/_control/expire")
	if code := get(t, s, tok.AccessToken); code != http.StatusUnauthorized {
		t.Errorf("after expire: %d, want 401", code)
	}
	tok = connect(t, s)
	post("/_control/revoke-all")
	if code := get(t, s, tok.AccessToken); code != http.StatusUnauthorized {
		t.Errorf("after revoke-all: %d, want 401", code)
	}
}
