package accounthttp

import (
	"context"
	"net/http"
	"strings"
	"time"

	"github.com/firmoapi/firmo/shared/account"
	"github.com/firmoapi/firmo/shared/apperr"
	"github.com/firmoapi/firmo/shared/httpapi"
)

// AccountService is what the account family needs. account.Service implements it.
type AccountService interface {
	ListKeys(ctx context.Context, orgID string) ([]account.Key, error)
	CreateKey(ctx context.Context, orgID, userID, name string) (string, account.Key, error)
	RevokeKey(ctx context.Context, orgID, keyID string) (account.Key, error)
	Login(ctx context.Context, in account.LoginAttempt, ttl time.Duration) (string, account.Session, error)
	Logout(ctx context.Context, token string) error
}

// SessionOptions configure admin app session cookies.
type SessionOptions struct {
	TTL      time.Duration
	Insecure bool // omit the Secure flag (plain-HTTP development only)
}

type accountAPI struct {
	svc  AccountService
	opts SessionOptions
}

// AccountRoutes are the account family: the caller's account, API keys and admin app
// sign-in. Key issuing and rotation are left open by the API reference; these endpoints fill it.
func AccountRoutes(svc AccountService, opts SessionOptions) []httpapi.Route {
	a := &accountAPI{svc: svc, opts: opts}
	const fam = httpapi.FamilyAccount
	return []httpapi.Route{
		{Method: "GET", Path: "/v1/account", Family: fam, Handle: a.get},
		{Method: "GET", Path: "/v1/account/keys", Family: fam, Handle: a.listKeys},
		{Method: "POST", Path: "/v1/account/keys", Family: fam, Handle: a.createKey},
		{Method: "DELETE", Path: "/v1/account/keys/{key_id}", Family: fam, Handle: a.revokeKey},
		{Method: "POST", Path: "/v1/auth/login", Family: fam, Auth: httpapi.AuthNone, Handle: a.login},
		{Method: "POST", Path: "/v1/auth/logout", Family: fam, Auth: httpapi.AuthNone, Handle: a.logout},
	}
}

// AccountView is the answer of GET /v1/account.
type AccountView struct {
	OrgID         string `json:"org_id"`
	Organization  string `json:"organization"`
	Plan          string `json:"plan"`
	CreditBalance int64  `json:"credit_balance"`
	UserID        string `json:"user_id"`
	Email         string `json:"email"`
	Role          string `json:"role"`
	KeyID         string `json:"key_id,omitempty"`
	AuthMethod    string `json:"auth_method"`
}

func (a *accountAPI) get(w http.ResponseWriter, r *http.Request) error {
	if _, err := httpapi.ParseQuery(r.URL.Query()); err != nil {
		return err
	}
	p := httpapi.Caller(r)
	httpapi.WriteJSON(w, http.StatusOK, AccountView{
		OrgID: p.Org.ID, Organization: p.Org.Name, Plan: string(p.Org.Plan), CreditBalance: p.Org.Credits,
		UserID: p.User.ID, Email: p.User.Email, Role: string(p.User.Role), KeyID: p.KeyID, AuthMethod: string(p.Via),
	})
	return nil
}

// KeyView is an API key as listed: never its secret.
type KeyView struct {
	KeyID      string     `json:"key_id"`
	Name       string     `json:"name"`
	UserID     string     `json:"user_id"`
	CreatedAt  time.Time  `json:"created_at"`
	LastUsedAt *time.Time `json:"last_used_at"`
	RevokedAt  *time.Time `json:"revoked_at"`
	Active     bool       `json:"active"`
}

func keyView(k account.Key) KeyView {
	return KeyView{KeyID: k.ID, Name: k.Name, UserID: k.UserID, CreatedAt: k.CreatedAt, LastUsedAt: k.LastUsedAt, RevokedAt: k.RevokedAt, Active: k.RevokedAt == nil}
}

func (a *accountAPI) listKeys(w http.ResponseWriter, r *http.Request) error {
	p := httpapi.Caller(r)
	if err := p.RequireRole(account.RoleAdmin); err != nil {
		return err
	}
	if _, err := httpapi.ParseQuery(r.URL.Query()); err != nil {
		return err
	}
	keys, err := a.svc.ListKeys(r.Context(), p.Org.ID)
	if err != nil {
		return err
	}
	out := make([]KeyView, 0, len(keys))
	for _, k := range keys {
		out = append(out, keyView(k))
	}
	httpapi.WriteJSON(w, http.StatusOK, map[string]any{"keys": out})
	return nil
}

type createKeyRequest struct {
	Name *string `json:"name"`
}

func (a *accountAPI) createKey(w http.ResponseWriter, r *http.Request) error {
	p := httpapi.Caller(r)
	if err := p.RequireRole(account.RoleAdmin); err != nil {
		return err
	}
	var req createKeyRequest
	if r.ContentLength != 0 {
		if err := httpapi.DecodeJSON(r, &req); err != nil {
			return err
		}
	}
	name := ""
	if req.Name != nil {
		name = strings.TrimSpace(*req.Name)
		if name == "" {
			return apperr.Invalid("name", "name must not be blank when given")
		}
	}
	secret, k, err := a.svc.CreateKey(r.Context(), p.Org.ID, p.User.ID, name)
	if err != nil {
		return err
	}
	httpapi.WriteJSON(w, http.StatusCreated, struct {
		KeyView
		Key     string `json:"key"`
		Message string `json:"message"`
	}{keyView(k), secret, "Store this key now: it is shown only once."})
	return nil
}

func (a *accountAPI) revokeKey(w http.ResponseWriter, r *http.Request) error {
	p := httpapi.Caller(r)
	if err := p.RequireRole(account.RoleAdmin); err != nil {
		return err
	}
	k, err := a.svc.RevokeKey(r.Context(), p.Org.ID, r.PathValue("key_id"))
	if err != nil {
		return err
	}
	httpapi.WriteJSON(w, http.StatusOK, map[string]any{"message": "API key revoked.", "key_id": k.ID, "revoked_at": k.RevokedAt})
	return nil
}

type loginRequest struct {
	Email    string `json:"email"`
	Password string `json:"password"`
}

func (a *accountAPI) login(w http.ResponseWriter, r *http.Request) error {
	var req loginRequest
	if err := httpapi.DecodeJSON(r, &req); err != nil {
		return err
	}
	if strings.TrimSpace(req.Email) == "" {
		return apperr.Invalid("email", "email is required")
	}
	if req.Password == "" {
		return apperr.Invalid("password", "password is required")
	}
	in := account.LoginAttempt{Email: req.Email, Password: req.Password, ClientAddr: httpapi.ClientAddr(r)}
	token, sess, err := a.svc.Login(r.Context(), in, a.opts.TTL)
	if err != nil {
		return err
	}
	http.SetCookie(w, &http.Cookie{
		Name: httpapi.SessionCookie, Value: token, Path: "/", Expires: sess.ExpiresAt, MaxAge: int(a.opts.TTL.Seconds()),
		HttpOnly: true, Secure: !a.opts.Insecure, SameSite: http.SameSiteStrictMode,
	})
	httpapi.WriteJSON(w, http.StatusOK, map[string]any{"message": "Signed in.", "org_id": sess.OrgID, "expires_at": sess.ExpiresAt})
	return nil
}

func (a *accountAPI) logout(w http.ResponseWriter, r *http.Request) error {
	if c, err := r.Cookie(httpapi.SessionCookie); err == nil && c.Value != "" {
		if err := a.svc.Logout(r.Context(), c.Value); err != nil {
			return err
		}
	}
	http.SetCookie(w, &http.Cookie{Name: httpapi.SessionCookie, Value: "", Path: "/", MaxAge: -1, HttpOnly: true, Secure: !a.opts.Insecure, SameSite: http.SameSiteStrictMode})
	httpapi.WriteJSON(w, http.StatusOK, map[string]string{"message": "Signed out."})
	return nil
}
