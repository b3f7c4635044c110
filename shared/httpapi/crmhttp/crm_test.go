package crmhttp_test

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/firmoapi/firmo/shared/apperr"
	"github.com/firmoapi/firmo/shared/crm"
	"github.com/firmoapi/firmo/shared/httpapi"
	"github.com/firmoapi/firmo/shared/httpapi/crmhttp"
	"github.com/firmoapi/firmo/shared/query"
	"github.com/firmoapi/firmo/shared/ratelimit"
)

// callbackOnly answers Complete with err, recording the callback it got.
type callbackOnly struct {
	crmhttp.Service
	got crm.Callback
	err error
}

func (c *callbackOnly) Complete(_ context.Context, cb crm.Callback) (crm.Connection, error) {
	c.got = cb
	return crm.Connection{Provider: cb.Provider, Status: crm.StatusActive}, c.err
}

func (c *callbackOnly) Suppress(context.Context, string, query.Actor, string, string) (crm.Suppression, error) {
	return crm.Suppression{}, errors.New("not here")
}

func route(t *testing.T, svc crmhttp.Service, pattern string) httpapi.Route {
	t.Helper()
	for _, r := range crmhttp.Routes(crmhttp.Deps{Service: svc}) {
		if r.Pattern() == pattern {
			return r
		}
	}
	t.Fatalf("no route %s", pattern)
	return httpapi.Route{}
}

// TestCallbackPage: a browser (no JSON in Accept) gets a small HTML page saying what
// happened, escaped, with the error's status; the callback needs no key and passes the
// provider's parameters through.
func TestCallbackPage(t *testing.T) {
	for _, tc := range []struct {
		name   string
		err    error
		status int
		want   string
	}{
		{"connected", nil, 200, "HubSpot is connected to Firmo"},
		{"refused", apperr.BadRequest("crm_invalid_state", "This authorization expired <script>"), 400, "This authorization expired &lt;script&gt;"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			svc := &callbackOnly{err: tc.err}
			rt := route(t, svc, "GET /v1/crm/{provider}/callback")
			if rt.Auth != httpapi.AuthNone {
				t.Fatal("the callback must not need a key")
			}
			mux := http.NewServeMux()
			mux.HandleFunc(rt.Pattern(), func(w http.ResponseWriter, r *http.Request) {
				if err := rt.Handle(w, r); err != nil {
					t.Fatalf("handler error %v", err)
				}
			})
			rec := httptest.NewRecorder()
			req := httptest.NewRequest("GET", "/v1/crm/hubspot/callback?state=s1&code=c1&extra=kept", nil)
			req.Header.Set("Accept", "text/html,application/xhtml+xml")
			mux.ServeHTTP(rec, req)
			if rec.Code != tc.status || !strings.Contains(rec.Body.String(), tc.want) || !strings.HasPrefix(rec.Header().Get("Content-Type"), "text/html") {
				t.Fatalf("%d %s: %s", rec.Code, rec.Header().Get("Content-Type"), rec.Body)
			}
			if svc.got.State != "s1" || svc.got.Code != "c1" || svc.got.Provider != "hubspot" {
				t.Fatalf("callback passed %+v", svc.got)
			}
		})
	}
}

// TestRateLimitsKeyedToTheRoutes: the four CRM routes get the per-minute bases of the
// CRM table in the README (20, 10, 5, 10) through their own patterns; the callback,
// which needs no key, is not limited.
func TestRateLimitsKeyedToTheRoutes(t *testing.T) {
	want := map[string]int{
		"GET /v1/crm/connections":              20,
		"GET /v1/crm/{provider}/authorize":     10,
		"POST /v1/crm/{provider}/suppress":     5,
		"DELETE /v1/crm/{provider}/connection": 10,
	}
	for _, rt := range crmhttp.Routes(crmhttp.Deps{}) {
		if rt.Auth == httpapi.AuthNone {
			if rt.Path != "/v1/crm/{provider}/callback" {
				t.Errorf("%s needs no key", rt.Pattern())
			}
			continue
		}
		if got := ratelimit.Base(rt.Pattern(), rt.RateLimit); got != want[rt.Pattern()] {
			t.Errorf("%s: base %d per minute, want %d", rt.Pattern(), got, want[rt.Pattern()])
		}
		delete(want, rt.Pattern())
	}
	if len(want) != 0 {
		t.Errorf("routes not served: %v", want)
	}
}

// TestDisconnectUnknownProviderIs404First: an unknown provider is a 404 whoever asks,
// before the admin-session check refuses an API key with 403.
func TestDisconnectUnknownProviderIs404First(t *testing.T) {
	rt := route(t, &callbackOnly{}, "DELETE /v1/crm/{provider}/connection")
	for provider, want := range map[string]int{"zoho": http.StatusNotFound, "hubspot": http.StatusForbidden} {
		var err error
		mux := http.NewServeMux()
		mux.HandleFunc(rt.Pattern(), func(w http.ResponseWriter, r *http.Request) { err = rt.Handle(w, r) })
		mux.ServeHTTP(httptest.NewRecorder(), httptest.NewRequest("DELETE", "/v1/crm/"+provider+"/connection", nil))
		if got := apperr.Status(err); got != want {
			t.Errorf("DELETE %s connection without an admin session: %d (%v), want %d", provider, got, err, want)
		}
	}
}
