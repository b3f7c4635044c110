// Package accounttest sets up accounts for tests of other packages: a second
// organisation, a member next to an admin, each with an API key to call the API with.
package accounttest

import (
	"context"
	"testing"

	"github.com/firmoapi/firmo/shared/account"
)

// OrgKey makes sure the organisation org exists on plan, creates the user email in it
// with role and returns the secret of a new API key of that user.
func OrgKey(t testing.TB, s *account.Service, org string, plan account.Plan, email string, role account.Role) string {
	t.Helper()
	ctx := context.Background()
	o, _, err := s.EnsureOrg(ctx, org, plan)
	if err != nil {
		t.Fatalf("organisation %s: %v", org, err)
	}
	return UserKey(t, s, o.ID, email, role)
}

// UserKey creates the user email with role in the organisation orgID and returns the
// secret of a new API key of that user.
func UserKey(t testing.TB, s *account.Service, orgID, email string, role account.Role) string {
	t.Helper()
	ctx := context.Background()
	u, err := s.CreateUser(ctx, orgID, email, role, "")
	if err != nil {
		t.Fatalf("user %s: %v", email, err)
	}
	secret, _, err := s.CreateKey(ctx, orgID, u.ID, "test")
	if err != nil {
		t.Fatalf("key of %s: %v", email, err)
	}
	return secret
}
