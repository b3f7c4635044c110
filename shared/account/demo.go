package account

import (
	"context"
	"errors"
	"fmt"

	"github.com/firmoapi/firmo/shared/apperr"
)

// Demo names the demo organisation made on a local server's first start.
const (
	DemoOrgName    = "Demo"
	DemoAdminEmail = "admin@demo.firmo.local"
)

// Demo is the outcome of EnsureDemo.
type Demo struct {
	Org           Org
	Key           string // the demo API key secret
	KeyCreated    bool   // a new key was issued by this call
	AdminPassword string // set only when this call created the admin user
}

// EnsureDemo makes sure the demo organisation (ENTERPRISE), its admin user and a working
// demo key exist. wantKey is the key to keep (FIRMO_DEMO_API_KEY, or the one saved by
// an earlier start); when empty, or revoked since, a new key is issued.
func (s *Service) EnsureDemo(ctx context.Context, wantKey string) (Demo, error) {
	org, _, err := s.EnsureOrg(ctx, DemoOrgName, PlanEnterprise)
	if err != nil {
		return Demo{}, fmt.Errorf("demo organisation: %w", err)
	}
	d := Demo{Org: org}
	admin, err := s.FindUserByEmail(ctx, DemoAdminEmail)
	if errors.Is(err, apperr.ErrNotFound) {
		if d.AdminPassword, err = randomString(s.rand, 20); err != nil {
			return Demo{}, err
		}
		admin, err = s.CreateUser(ctx, org.ID, DemoAdminEmail, RoleAdmin, d.AdminPassword)
	}
	if err != nil {
		return Demo{}, fmt.Errorf("demo admin: %w", err)
	}
	if wantKey != "" {
		if _, err := s.Authenticate(ctx, wantKey); err == nil {
			d.Key = wantKey
			return d, nil
		}
		if _, err := s.ImportKey(ctx, org.ID, admin.ID, "demo", wantKey); err == nil {
			d.Key, d.KeyCreated = wantKey, true
			return d, nil
		} else if !errors.Is(err, apperr.ErrConflict) {
			return Demo{}, fmt.Errorf("demo key: %w", err)
		}
		// The saved key was revoked: issue a fresh one below.
	}
	secret, _, err := s.CreateKey(ctx, org.ID, admin.ID, "demo")
	if err != nil {
		return Demo{}, fmt.Errorf("demo key: %w", err)
	}
	d.Key, d.KeyCreated = secret, true
	return d, nil
}
