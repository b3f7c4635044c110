package account_test

import (
	"bytes"
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/firmoapi/firmo/shared/account"
	"github.com/firmoapi/firmo/shared/apperr"
	"github.com/firmoapi/firmo/shared/kv"
	"github.com/firmoapi/firmo/shared/kv/boltkv"
)

func newService(t *testing.T, opts ...account.Option) (*account.Service, string) {
	t.Helper()
	path := filepath.Join(t.TempDir(), "kv.db")
	store, err := boltkv.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { store.Close() })
	return account.New(store, opts...), path
}

func setup(t testing.TB, svc *account.Service, plan account.Plan, role account.Role) (account.Org, account.User, string) {
	t.Helper()
	ctx := context.Background()
	org, _, err := svc.EnsureOrg(ctx, "Acme "+string(role), plan)
	if err != nil {
		t.Fatal(err)
	}
	u, err := svc.CreateUser(ctx, org.ID, string(role)+"@acme.test", role, "correct horse battery")
	if err != nil {
		t.Fatal(err)
	}
	secret, _, err := svc.CreateKey(ctx, org.ID, u.ID, "ci")
	if err != nil {
		t.Fatal(err)
	}
	return org, u, secret
}

func TestKeyLifecycle(t *testing.T) {
	svc, _ := newService(t)
	ctx := context.Background()
	org, u, secret := setup(t, svc, account.PlanPro, account.RoleAdmin)

	if !strings.HasPrefix(secret, "fk_") || len(secret) != 46 {
		t.Fatalf("secret %q has an unexpected form", secret)
	}
	p, err := svc.Authenticate(ctx, secret)
	if err != nil {
		t.Fatal(err)
	}
	if p.Org.ID != org.ID || p.User.ID != u.ID || p.Via != account.ViaKey || p.KeyID != account.KeyID(secret) || p.Org.Credits != account.PlanPro.InitialCredits() {
		t.Fatalf("principal = %+v", p)
	}
	keys, err := svc.ListKeys(ctx, org.ID)
	if err != nil || len(keys) != 1 || keys[0].ID != p.KeyID || keys[0].LastUsedAt == nil {
		t.Fatalf("ListKeys = %+v, %v", keys, err)
	}
	if _, err := svc.Authenticate(ctx, secret+"x"); !errors.Is(err, apperr.ErrUnauthorized) {
		t.Fatalf("wrong secret: %v", err)
	}
	if _, err := svc.RevokeKey(ctx, "other-org", p.KeyID); !errors.Is(err, apperr.ErrNotFound) {
		t.Fatalf("revoke from another org: %v", err)
	}
	if _, err := svc.RevokeKey(ctx, org.ID, p.KeyID); err != nil {
		t.Fatal(err)
	}
	if _, err := svc.Authenticate(ctx, secret); !errors.Is(err, apperr.ErrUnauthorized) {
		t.Fatalf("revoked key still works: %v", err)
	}
	keys, _ = svc.ListKeys(ctx, org.ID)
	if keys[0].RevokedAt == nil {
		t.Fatal("revoked key not marked")
	}
	if _, err := svc.RevokeKeyByID(ctx, p.KeyID); err != nil {
		t.Fatalf("revoking twice must be idempotent: %v", err)
	}
}

func TestEnsureOrgIdempotentAndConcurrent(t *testing.T) {
	svc, _ := newService(t)
	ctx := context.Background()
	var wg sync.WaitGroup
	ids := make([]string, 8)
	created := make([]bool, 8)
	for i := range ids {
		wg.Add(1)
		go func(i int) {
			defer wg.Done()
			org, c, err := svc.EnsureOrg(ctx, "  Globex   Corp ", account.PlanStarter)
			if err != nil {
				t.Error(err)
			}
			ids[i], created[i] = org.ID, c
		}(i)
	}
	wg.Wait()
	n := 0
	for i := range ids {
		if ids[i] != ids[0] {
			t.Fatalf("different orgs: %v", ids)
		}
		if created[i] {
			n++
		}
	}
	if n != 1 {
		t.Fatalf("created %d times", n)
	}
	org, err := svc.FindOrg(ctx, "globex corp")
	if err != nil || org.Name != "Globex Corp" || org.Credits != account.PlanStarter.InitialCredits() {
		t.Fatalf("FindOrg = %+v, %v", org, err)
	}
}

func TestUserValidation(t *testing.T) {
	svc, _ := newService(t)
	ctx := context.Background()
	org, _, _ := svc.EnsureOrg(ctx, "V", account.PlanFree)
	cases := []struct {
		email, password string
		role            account.Role
		field           string
	}{
		{"not-an-email", "", account.RoleMember, "email"},
		{"a@b.test", "short", account.RoleMember, "password"},
		{"a@b.test", "", account.Role("owner"), "role"},
	}
	for _, c := range cases {
		_, err := svc.CreateUser(ctx, org.ID, c.email, c.role, c.password)
		var ae *apperr.Error
		if !errors.As(err, &ae) || ae.Field != c.field || !errors.Is(err, apperr.ErrInvalid) {
			t.Errorf("CreateUser(%q) err = %v, want invalid %s", c.email, err, c.field)
		}
	}
	if _, err := svc.CreateUser(ctx, org.ID, "dup@b.test", account.RoleMember, ""); err != nil {
		t.Fatal(err)
	}
	if _, err := svc.CreateUser(ctx, org.ID, "DUP@b.test", account.RoleMember, ""); !errors.Is(err, apperr.ErrConflict) {
		t.Fatalf("duplicate email: %v", err)
	}
	users, _ := svc.ListUsers(ctx, org.ID)
	if len(users) != 1 {
		t.Fatalf("a refused duplicate left a partial user: %d users", len(users))
	}
}

func TestRolesAndPlans(t *testing.T) {
	p := account.Principal{Org: account.Org{Plan: account.PlanStarter}, User: account.User{Role: account.RoleMember}, Via: account.ViaKey}
	if err := p.RequirePlan(account.PlanStarter); err != nil {
		t.Errorf("STARTER on STARTER: %v", err)
	}
	err := p.RequirePlan(account.PlanPro)
	if !errors.Is(err, apperr.ErrPlanRequired) || !strings.Contains(err.Error(), "PRO") {
		t.Errorf("STARTER on PRO: %v", err)
	}
	if err := p.RequireRole(account.RoleAdmin); !errors.Is(err, apperr.ErrForbidden) {
		t.Errorf("member as admin: %v", err)
	}
	p.User.Role = account.RoleAdmin
	if err := p.RequireSession(); !errors.Is(err, apperr.ErrForbidden) {
		t.Errorf("key as session: %v", err)
	}
	p.Via = account.ViaSession
	if err := p.RequireSession(); err != nil {
		t.Errorf("admin session: %v", err)
	}
}

func TestSessions(t *testing.T) {
	now := time.Date(2026, 11, 21, 12, 0, 0, 0, time.UTC)
	svc, _ := newService(t, account.WithClock(func() time.Time { return now }))
	ctx := context.Background()
	org, _, _ := setup(t, svc, account.PlanFree, account.RoleAdmin)
	if _, _, err := svc.Login(ctx, account.LoginAttempt{Email: "admin@acme.test", Password: "wrong password!"}, time.Hour); !errors.Is(err, apperr.ErrUnauthorized) {
		t.Fatalf("wrong password: %v", err)
	}
	if _, _, err := svc.Login(ctx, account.LoginAttempt{Email: "nobody@acme.test", Password: "whatever12345"}, time.Hour); !errors.Is(err, apperr.ErrUnauthorized) {
		t.Fatalf("unknown email: %v", err)
	}
	token, _, err := svc.Login(ctx, account.LoginAttempt{Email: "ADMIN@acme.test", Password: "correct horse battery"}, time.Hour)
	if err != nil {
		t.Fatal(err)
	}
	p, err := svc.SessionPrincipal(ctx, token)
	if err != nil || p.Org.ID != org.ID || p.Via != account.ViaSession {
		t.Fatalf("SessionPrincipal = %+v, %v", p, err)
	}
	now = now.Add(2 * time.Hour)
	if _, err := svc.SessionPrincipal(ctx, token); !errors.Is(err, apperr.ErrUnauthorized) {
		t.Fatalf("expired session: %v", err)
	}
	now = now.Add(-2 * time.Hour)
	token, _, _ = svc.Login(ctx, account.LoginAttempt{Email: "admin@acme.test", Password: "correct horse battery"}, time.Hour)
	if err := svc.Logout(ctx, token); err != nil {
		t.Fatal(err)
	}
	if _, err := svc.SessionPrincipal(ctx, token); !errors.Is(err, apperr.ErrUnauthorized) {
		t.Fatalf("after logout: %v", err)
	}
	member, _ := svc.CreateUser(ctx, org.ID, "m@acme.test", account.RoleMember, "member password")
	_ = member
	if _, _, err := svc.Login(ctx, account.LoginAttempt{Email: "m@acme.test", Password: "member password"}, time.Hour); !errors.Is(err, apperr.ErrForbidden) {
		t.Fatalf("member login: %v", err)
	}
}

func TestDemoKeepsKeyAcrossRestarts(t *testing.T) {
	svc, _ := newService(t)
	ctx := context.Background()
	d1, err := svc.EnsureDemo(ctx, "")
	if err != nil || !d1.KeyCreated || d1.AdminPassword == "" || d1.Org.Plan != account.PlanEnterprise {
		t.Fatalf("first demo = %+v, %v", d1, err)
	}
	d2, err := svc.EnsureDemo(ctx, d1.Key)
	if err != nil || d2.Key != d1.Key || d2.KeyCreated || d2.AdminPassword != "" || d2.Org.ID != d1.Org.ID {
		t.Fatalf("second demo = %+v, %v", d2, err)
	}
	fixed := "my-fixed-demo-key-123456"
	d3, err := svc.EnsureDemo(ctx, fixed)
	if err != nil || d3.Key != fixed {
		t.Fatalf("fixed demo key = %+v, %v", d3, err)
	}
	if _, err := svc.Authenticate(ctx, fixed); err != nil {
		t.Fatal(err)
	}
	svc.RevokeKeyByID(ctx, account.KeyID(d1.Key))
	d4, err := svc.EnsureDemo(ctx, d1.Key)
	if err != nil || d4.Key == d1.Key || !d4.KeyCreated {
		t.Fatalf("revoked saved key must be replaced: %+v, %v", d4, err)
	}
}

// TestNoSecretInStorage reads the raw database file and finds none of the secrets.
func TestNoSecretInStorage(t *testing.T) {
	svc, path := newService(t)
	ctx := context.Background()
	_, _, secret := setup(t, svc, account.PlanFree, account.RoleAdmin)
	fixed := "operator-chosen-demo-key-42"
	d, err := svc.EnsureDemo(ctx, fixed)
	if err != nil {
		t.Fatal(err)
	}
	token, _, err := svc.Login(ctx, account.LoginAttempt{Email: "admin@acme.test", Password: "correct horse battery"}, time.Hour)
	if err != nil {
		t.Fatal(err)
	}
	raw, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range []string{secret, secret[len("fk_")+11:], fixed, token, "correct horse battery", d.AdminPassword} {
		if bytes.Contains(raw, []byte(s)) {
			t.Errorf("secret %q found in raw storage", s)
		}
	}
	// and the hash index is there, so the test looked at the right file
	if !bytes.Contains(raw, []byte("keyhash#")) {
		t.Fatal("raw storage does not hold the key index; wrong file?")
	}
}

var _ kv.Store = (*boltkv.Store)(nil)
