package crm

// token.go is the connections' token lifecycle. Every API call of a provider client goes
// through the connection's transport, which takes the stored token, refreshes it
// shortly before it expires (one refresh at a time per connection; the rotated
// refresh token is stored, sealed), and on a 401 refreshes once and sends the request
// again. invalid_grant on refresh, or a 401 with a freshly refreshed token, sets the
// connection needs_reauth at once, and a needs_reauth connection refuses every call.

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"sync"
	"time"

	"golang.org/x/oauth2"

	"github.com/firmoapi/firmo/shared/apperr"
	"github.com/firmoapi/firmo/shared/kv"
)

// RefreshBefore is how long before its expiry a token is refreshed.
const RefreshBefore = time.Minute

// ErrNeedsReauth is wrapped by the error of every operation on a connection whose
// token no longer works: the user must authorise again.
var ErrNeedsReauth = errors.New("crm: the connection needs to be authorised again")

func needsReauth(provider string) error {
	return fmt.Errorf("%w: %w", &apperr.Error{Kind: apperr.ErrBadRequest, Code: "crm_needs_reauth", Message: fmt.Sprintf(
		"The %s connection needs to be authorised again: its token no longer works. Reconnect with GET /v1/crm/%s/authorize.", Title(provider), provider)}, ErrNeedsReauth)
}

func (s *Service) sealTokens(org, provider string, tok *oauth2.Token, keepRefresh string) (string, error) {
	doc := tokenDoc{Access: tok.AccessToken, Refresh: tok.RefreshToken, Type: tok.TokenType, Expiry: s.expiry(tok)}
	if doc.Refresh == "" {
		doc.Refresh = keepRefresh // a provider that does not rotate keeps the old one valid
	}
	b, err := json.Marshal(doc)
	if err != nil {
		return "", err
	}
	sealed, err := s.d.Sealer.Seal(tokenScope(org, provider), string(b))
	if err != nil {
		return "", fmt.Errorf("seal the %s tokens: %w", provider, err)
	}
	return sealed, nil
}

// expiry is when tok expires on the service's clock: x/oauth2 computes Expiry from
// expires_in with the wall clock, so it is computed again here from expires_in.
func (s *Service) expiry(tok *oauth2.Token) time.Time {
	var secs float64
	switch v := tok.Extra("expires_in").(type) {
	case float64:
		secs = v
	case string:
		fmt.Sscan(v, &secs)
	case json.Number:
		secs, _ = v.Float64()
	}
	if secs > 0 {
		return s.d.Now().Add(time.Duration(secs * float64(time.Second))).UTC()
	}
	return tok.Expiry.UTC()
}

func (s *Service) openTokens(org string, r record) (tokenDoc, error) {
	plain, err := s.d.Sealer.Open(tokenScope(org, r.Provider), r.Sealed)
	if err != nil {
		return tokenDoc{}, fmt.Errorf("open the %s tokens: %w", r.Provider, err)
	}
	var doc tokenDoc
	if err := json.Unmarshal([]byte(plain), &doc); err != nil {
		return tokenDoc{}, fmt.Errorf("decode the %s tokens: %w", r.Provider, err)
	}
	return doc, nil
}

// oauthContext makes x/oauth2 use the service's HTTP client for token requests.
func (s *Service) oauthContext(ctx context.Context) context.Context {
	return context.WithValue(ctx, oauth2.HTTPClient, s.d.HTTP)
}

// conn is what a provider client is given for a connection. probe lets the transport
// try a needs_reauth connection's tokens (a live check may find them working again).
func (s *Service) conn(org string, r record, st Setup, probe bool) Conn {
	base := s.d.HTTP.Transport
	if base == nil {
		base = http.DefaultTransport
	}
	t := &transport{svc: s, org: org, provider: r.Provider, setup: st, base: base, probe: probe}
	return Conn{HTTP: &http.Client{Transport: t, Timeout: s.d.HTTP.Timeout}, InstanceURL: r.InstanceURL, APIDomain: r.APIDomain, BaseURL: st.BaseURL}
}

func (s *Service) lock(org, provider string) *sync.Mutex {
	m, _ := s.locks.LoadOrStore(org+"/"+provider, &sync.Mutex{})
	return m.(*sync.Mutex)
}

// token returns a usable access token for the connection, refreshing it when it
// expires within RefreshBefore or when it is stale (the token a provider just refused;
// if another call already replaced it, that one is used). refreshed reports a refresh
// made by this call.
func (s *Service) token(ctx context.Context, org, provider string, st Setup, stale string, probe bool) (tok tokenDoc, refreshed bool, err error) {
	mu := s.lock(org, provider)
	mu.Lock()
	defer mu.Unlock()
	for range 3 {
		r, ver, err := s.getRecord(ctx, org, provider)
		if err != nil {
			return tokenDoc{}, false, err
		}
		if r.Status == StatusNeedsReauth && !probe {
			return tokenDoc{}, false, needsReauth(provider)
		}
		doc, err := s.openTokens(org, r)
		if err != nil {
			return tokenDoc{}, false, err
		}
		if doc.Access != stale && (doc.Expiry.IsZero() || s.d.Now().Add(RefreshBefore).Before(doc.Expiry)) {
			return doc, false, nil
		}
		fresh, err := s.refresh(ctx, org, provider, st, doc)
		if err != nil {
			return tokenDoc{}, false, err
		}
		if r.Sealed, err = s.sealTokens(org, provider, fresh, doc.Refresh); err != nil {
			return tokenDoc{}, false, err
		}
		r.UpdatedAt = s.d.Now().UTC()
		if probe {
			r.Status = StatusActive
		}
		err = s.putRecord(ctx, org, r, kv.Cond{IfVersion: ver})
		if errors.Is(err, apperr.ErrConflict) {
			continue // changed meanwhile (another process, a reconnect): read again
		}
		if err != nil {
			return tokenDoc{}, false, err
		}
		s.d.Log.InfoContext(ctx, "crm token refreshed", "org_id", org, "provider", provider)
		return tokenDoc{Access: fresh.AccessToken, Type: fresh.TokenType, Expiry: s.expiry(fresh)}, true, nil
	}
	return tokenDoc{}, false, apperr.Retryable(fmt.Errorf("refresh the %s token: the connection kept changing", provider), time.Second)
}

// refresh trades the refresh token for new tokens. invalid_grant (or any 4xx refusal)
// sets needs_reauth at once.
func (s *Service) refresh(ctx context.Context, org, provider string, st Setup, doc tokenDoc) (*oauth2.Token, error) {
	if doc.Refresh == "" {
		s.setStatus(ctx, org, provider, StatusNeedsReauth)
		return nil, needsReauth(provider)
	}
	cfg, err := s.oauthConfig(provider, st)
	if err != nil {
		return nil, err
	}
	// An expiry in the past makes the token source refresh.
	src := cfg.TokenSource(s.oauthContext(ctx), &oauth2.Token{RefreshToken: doc.Refresh, Expiry: time.Unix(1, 0)})
	fresh, err := src.Token()
	if err != nil {
		var re *oauth2.RetrieveError
		if errors.As(err, &re) && (re.ErrorCode == "invalid_grant" || re.Response != nil && re.Response.StatusCode >= 400 && re.Response.StatusCode < 500 && re.Response.StatusCode != http.StatusTooManyRequests) {
			s.d.Log.WarnContext(ctx, "crm refresh refused; connection needs reauthorisation", "org_id", org, "provider", provider, "code", re.ErrorCode)
			s.setStatus(ctx, org, provider, StatusNeedsReauth)
			return nil, needsReauth(provider)
		}
		return nil, apperr.Retryable(fmt.Errorf("refresh the %s token: %w", provider, err), 0)
	}
	return fresh, nil
}

// setStatus stores a connection's status (a connection removed meanwhile stays removed).
func (s *Service) setStatus(ctx context.Context, org, provider, status string) {
	for range 3 {
		r, ver, err := s.getRecord(ctx, org, provider)
		if err != nil || r.Status == status {
			return
		}
		r.Status, r.UpdatedAt = status, s.d.Now().UTC()
		if err := s.putRecord(ctx, org, r, kv.Cond{IfVersion: ver}); !errors.Is(err, apperr.ErrConflict) {
			if err != nil {
				s.d.Log.ErrorContext(ctx, "crm status not stored", "org_id", org, "provider", provider, "status", status, "err", err)
			}
			return
		}
	}
}

// transport adds the connection's bearer token to each request of a provider client.
type transport struct {
	svc      *Service
	org      string
	provider string
	setup    Setup
	base     http.RoundTripper
	probe    bool
}

func (t *transport) RoundTrip(req *http.Request) (*http.Response, error) {
	ctx := req.Context()
	tok, refreshed, err := t.svc.token(ctx, t.org, t.provider, t.setup, "", t.probe)
	if err != nil {
		return nil, err
	}
	resp, err := t.send(req, tok)
	if err != nil || resp.StatusCode != http.StatusUnauthorized {
		return resp, err
	}
	if refreshed {
		t.svc.setStatus(ctx, t.org, t.provider, StatusNeedsReauth)
		return resp, nil
	}
	// Refused before its expiry: refresh once and send again.
	io.Copy(io.Discard, io.LimitReader(resp.Body, 64<<10))
	resp.Body.Close()
	if req.Body != nil && req.GetBody == nil {
		return nil, fmt.Errorf("%s refused the token and the request cannot be sent again: %w", t.provider, ErrTokenRejected)
	}
	tok, _, err = t.svc.token(ctx, t.org, t.provider, t.setup, tok.Access, t.probe)
	if err != nil {
		return nil, err
	}
	resp, err = t.send(req, tok)
	if err == nil && resp.StatusCode == http.StatusUnauthorized {
		t.svc.setStatus(ctx, t.org, t.provider, StatusNeedsReauth)
	}
	return resp, err
}

func (t *transport) send(req *http.Request, tok tokenDoc) (*http.Response, error) {
	out := req.Clone(req.Context())
	if req.GetBody != nil {
		body, err := req.GetBody()
		if err != nil {
			return nil, err
		}
		out.Body = body
	}
	out.Header.Set("Authorization", "Bearer "+tok.Access)
	return t.base.RoundTrip(out)
}
