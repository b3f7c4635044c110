package crmhttp_test

import (
	"context"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"testing"

	"github.com/firmoapi/firmo/shared/account"
	"github.com/firmoapi/firmo/shared/httpapi"
	"github.com/firmoapi/firmo/shared/httpapi/crmhttp"
	"github.com/firmoapi/firmo/shared/kv/boltkv"
)

// authorizeOnly records the authorizations it mints.
type authorizeOnly struct {
	crmhttp.Service
	minted []string // user ids
}

func (a *authorizeOnly) Authorize(_ context.Context, orgID, userID, provider string) (string, error) {
	a.minted = append(a.minted, userID)
	return "https://app.hubspot.com/oauth/authorize?state=s", nil
}

// The review's finding: a member could authorize (and then complete) a connection
// replacing the admin's, which decides every later suppression list, though removing
// one needs an admin. Authorizing now needs an admin, by API key or session: a
// member's key is a 403 and mints no state token.
func TestAuthorizeNeedsAnAdmin(t *testing.T) {
	store, err := boltkv.Open(filepath.Join(t.TempDir(), "kv.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer store.Close()
	ctx := context.Background()
	accounts := account.New(store)
	org, _, err := accounts.EnsureOrg(ctx, "Org", account.PlanPro)
	if err != nil {
		t.Fatal(err)
	}
	keyOf := func(email string, role account.Role) string {
		u, err := accounts.CreateUser(ctx, org.ID, email, role, "")
		if err != nil {
			t.Fatal(err)
		}
		k, _, err := accounts.CreateKey(ctx, org.ID, u.ID, "")
		if err != nil {
			t.Fatal(err)
		}
		return k
	}
	admin, member := keyOf("admin@org.test", account.RoleAdmin), keyOf("member@org.test", account.RoleMember)
	svc := &authorizeOnly{}
	s := httpapi.NewServer(httpapi.Deps{Log: slog.New(slog.NewTextHandler(io.Discard, nil)), Auth: accounts, MaxBody: 1 << 20})
	s.Add(crmhttp.Routes(crmhttp.Deps{Service: svc, Auth: accounts})...)
	srv := httptest.NewServer(s.Handler())
	defer srv.Close()
	get := func(key string) int {
		req, _ := http.NewRequest("GET", srv.URL+"/v1/crm/hubspot/authorize", nil)
		req.Header.Set("x-service-key", key)
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		return resp.StatusCode
	}
	if got := get(member); got != http.StatusForbidden {
		t.Errorf("member's authorize: %d, want 403", got)
	}
	if len(svc.minted) != 0 {
		t.Fatalf("a member's request minted %d state tokens", len(svc.minted))
	}
	if got := get(admin); got != http.StatusOK || len(svc.minted) != 1 {
		t.Errorf("admin's authorize: %d with %d tokens minted, want 200 and 1", got, len(svc.minted))
	}
}
