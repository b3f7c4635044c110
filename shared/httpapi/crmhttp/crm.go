// Package crmhttp serves the CRM family: connecting a CRM over OAuth 2.0 (authorize and
// the provider's callback), listing and probing connections, suppression snapshots and
// removing a connection (README "CRM connections").
package crmhttp

import (
	"context"
	"html/template"
	"log/slog"
	"net/http"
	"strings"

	"github.com/firmoapi/firmo/shared/account"
	"github.com/firmoapi/firmo/shared/apperr"
	"github.com/firmoapi/firmo/shared/crm"
	"github.com/firmoapi/firmo/shared/httpapi"
	"github.com/firmoapi/firmo/shared/query"
)

// Service is what the CRM family needs. crm.Service implements it.
type Service interface {
	Authorize(ctx context.Context, orgID, userID, provider string) (string, error)
	Complete(ctx context.Context, cb crm.Callback) (crm.Connection, error)
	Connections(ctx context.Context, orgID string, probe bool) ([]crm.Connection, error)
	Suppress(ctx context.Context, orgID string, by query.Actor, provider, kind string) (crm.Suppression, error)
	Disconnect(ctx context.Context, orgID, provider string) error
}

// Deps are what the routes need.
type Deps struct {
	Service Service
	// Auth identifies the caller of the callback when its request carries credentials
	// (the browser's session cookie), so a state token minted for another organisation
	// is refused. The callback itself is authenticated by its state token.
	Auth httpapi.Authenticator
	Log  *slog.Logger
}

// Routes are the CRM family (Lambda "crm"). Their per-minute limits are the ratelimit
// table's CRM figures.
func Routes(d Deps) []httpapi.Route {
	if d.Log == nil {
		d.Log = slog.New(slog.DiscardHandler)
	}
	a := &api{d: d}
	const fam = httpapi.FamilyCRM
	return []httpapi.Route{
		{Method: "GET", Path: "/v1/crm/connections", Family: fam, Handle: a.connections},
		{Method: "GET", Path: "/v1/crm/{provider}/authorize", Family: fam, Handle: a.authorize},
		{Method: "GET", Path: "/v1/crm/{provider}/callback", Family: fam, Auth: httpapi.AuthNone, Handle: a.callback},
		{Method: "POST", Path: "/v1/crm/{provider}/suppress", Family: fam, Handle: a.suppress},
		{Method: "DELETE", Path: "/v1/crm/{provider}/connection", Family: fam, Handle: a.disconnect},
	}
}

type api struct{ d Deps }

func (a *api) connections(w http.ResponseWriter, r *http.Request) error {
	q, err := httpapi.ParseQuery(r.URL.Query(), "probe")
	if err != nil {
		return err
	}
	probe, err := q.Bool("probe", false)
	if err != nil {
		return err
	}
	list, err := a.d.Service.Connections(r.Context(), httpapi.Caller(r).Org.ID, probe)
	if err != nil {
		return err
	}
	httpapi.WriteJSON(w, http.StatusOK, list)
	return nil
}

func (a *api) authorize(w http.ResponseWriter, r *http.Request) error {
	if _, err := httpapi.ParseQuery(r.URL.Query()); err != nil {
		return err
	}
	p := httpapi.Caller(r)
	// A connection decides every later suppression list of the organisation, and a new
	// one replaces the old: making one is an admin's, as removing one is. The callback
	// completes only a state token minted here, so only by an admin.
	if p.User.Role != account.RoleAdmin {
		return &apperr.Error{Kind: apperr.ErrForbidden, Message: "Connecting a CRM needs an admin (an admin's API key or app session); a member's is refused."}
	}
	u, err := a.d.Service.Authorize(r.Context(), p.Org.ID, p.User.ID, r.PathValue("provider"))
	if err != nil {
		return err
	}
	w.Header().Set("Cache-Control", "no-store")
	httpapi.WriteJSON(w, http.StatusOK, map[string]string{"authorize_url": u})
	return nil
}

// callbackParams are what providers send back; others they add are ignored (the
// provider, not the user, writes this URL).
var callbackParams = []string{"state", "code", "error", "error_description"}

func (a *api) callback(w http.ResponseWriter, r *http.Request) error {
	v := r.URL.Query()
	for _, name := range callbackParams {
		if len(v[name]) > 1 {
			return apperr.Invalid(name, "give %s once", name)
		}
	}
	provider := r.PathValue("provider")
	cb := crm.Callback{Provider: provider, State: v.Get("state"), Code: v.Get("code"), Error: v.Get("error"), CallerOrgID: a.callerOrg(r)}
	conn, err := a.d.Service.Complete(r.Context(), cb)
	w.Header().Set("Cache-Control", "no-store")
	if wantsJSON(r) {
		if err != nil {
			return err
		}
		httpapi.WriteJSON(w, http.StatusOK, map[string]any{"message": "Connected " + crm.Title(provider) + ".", "connection": conn})
		return nil
	}
	status, title, msg := http.StatusOK, "Connected", crm.Title(provider)+" is connected to Firmo. You can close this page."
	if err != nil {
		d := apperr.Describe(err)
		if d.Internal || d.Status >= 500 {
			return err // logged and answered in the JSON shape, without detail
		}
		status, title, msg = d.Status, "Not connected", d.Message
	}
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.WriteHeader(status)
	return page.Execute(w, map[string]string{"Title": title, "Message": msg})
}

var page = template.Must(template.New("callback").Parse(`<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>{{.Title}} - Firmo</title></head>
<body><h1>{{.Title}}</h1><p>{{.Message}}</p></body></html>
`))

func wantsJSON(r *http.Request) bool {
	accept := r.Header.Get("Accept")
	return strings.Contains(accept, "application/json") && !strings.Contains(accept, "text/html")
}

// callerOrg is the organisation of the credentials the callback carries, if any.
func (a *api) callerOrg(r *http.Request) string {
	if a.d.Auth == nil {
		return ""
	}
	var p account.Principal
	var err error
	switch {
	case r.Header.Get("x-service-key") != "":
		p, err = a.d.Auth.Authenticate(r.Context(), strings.TrimSpace(r.Header.Get("x-service-key")))
	default:
		c, cerr := r.Cookie(httpapi.SessionCookie)
		if cerr != nil || c.Value == "" {
			return ""
		}
		p, err = a.d.Auth.SessionPrincipal(r.Context(), c.Value)
	}
	if err != nil {
		return ""
	}
	return p.Org.ID
}

func (a *api) suppress(w http.ResponseWriter, r *http.Request) error {
	q, err := httpapi.ParseQuery(r.URL.Query(), "kind")
	if err != nil {
		return err
	}
	kind, err := q.String("kind")
	if err != nil {
		return err
	}
	if kind == "" {
		kind = crm.KindCompanies
	}
	p := httpapi.Caller(r)
	by := query.Actor{UserID: p.User.ID, UserName: p.User.Email, Admin: p.User.Role == account.RoleAdmin}
	s, err := a.d.Service.Suppress(r.Context(), p.Org.ID, by, r.PathValue("provider"), kind)
	if err != nil {
		return err
	}
	httpapi.WriteJSON(w, http.StatusAccepted, s)
	return nil
}

func (a *api) disconnect(w http.ResponseWriter, r *http.Request) error {
	if _, err := httpapi.ParseQuery(r.URL.Query()); err != nil {
		return err
	}
	provider := r.PathValue("provider")
	// An unknown provider is a 404 before the role check: no caller can remove it.
	if err := crm.Known(provider); err != nil {
		return err
	}
	p := httpapi.Caller(r)
	if p.Via != account.ViaSession || p.User.Role != account.RoleAdmin {
		return &apperr.Error{Kind: apperr.ErrForbidden, Message: "Removing a CRM connection needs an admin app session (sign in with POST /v1/auth/login); API keys are refused, even an admin's."}
	}
	if err := a.d.Service.Disconnect(r.Context(), p.Org.ID, provider); err != nil {
		return err
	}
	httpapi.WriteJSON(w, http.StatusOK, map[string]string{"message": "The " + crm.Title(provider) + " connection and its tokens were removed."})
	return nil
}
