// Package account holds organisations, users, API keys and admin app sessions, and
// authenticates requests. Secrets are never stored: keys and session tokens are kept as
// SHA-256 hashes, passwords as argon2id hashes.
package account

import (
	"fmt"
	"strings"
	"time"

	"github.com/firmoapi/firmo/shared/apperr"
)

// Plan is an organisation's subscription tier. Tiers are ordered.
type Plan string

const (
	PlanFree       Plan = "FREE"
	PlanStarter    Plan = "STARTER"
	PlanPro        Plan = "PRO"
	PlanEnterprise Plan = "ENTERPRISE"
)

var planRank = map[Plan]int{PlanFree: 1, PlanStarter: 2, PlanPro: 3, PlanEnterprise: 4}

// ParsePlan accepts a plan name in any case.
func ParsePlan(s string) (Plan, error) {
	p := Plan(strings.ToUpper(strings.TrimSpace(s)))
	if _, ok := planRank[p]; !ok {
		return "", apperr.Invalid("plan", "plan %q is not one of FREE, STARTER, PRO, ENTERPRISE", s)
	}
	return p, nil
}

// AtLeast reports whether p is the tier min or a higher one.
func (p Plan) AtLeast(min Plan) bool { return planRank[p] >= planRank[min] }

// InitialCredits is the credit pool a new organisation starts with, by plan.
func (p Plan) InitialCredits() int64 {
	switch p {
	case PlanStarter:
		return 10_000
	case PlanPro:
		return 100_000
	case PlanEnterprise:
		return 1_000_000
	default:
		return 1_000
	}
}

// Role is a user's role inside an organisation.
type Role string

const (
	RoleAdmin  Role = "admin"
	RoleMember Role = "member"
)

// ParseRole accepts admin or member.
func ParseRole(s string) (Role, error) {
	switch r := Role(strings.ToLower(strings.TrimSpace(s))); r {
	case RoleAdmin, RoleMember:
		return r, nil
	}
	return "", apperr.Invalid("role", "role %q is not one of admin, member", s)
}

// Org is an organisation: the tenant that owns every per-organisation record.
type Org struct {
	ID        string    `json:"org_id"`
	Name      string    `json:"name"`
	Plan      Plan      `json:"plan"`
	CreatedAt time.Time `json:"created_at"`
	Credits   int64     `json:"-"` // the live balance, read from the credits counter
}

// User is a member of an organisation.
type User struct {
	ID           string    `json:"user_id"`
	OrgID        string    `json:"org_id"`
	Email        string    `json:"email"`
	Role         Role      `json:"role"`
	PasswordHash string    `json:"password_hash,omitempty"`
	CreatedAt    time.Time `json:"created_at"`
}

// Key describes an API key. The secret itself is never stored.
type Key struct {
	ID         string     `json:"key_id"` // the key's public prefix, e.g. fk_3kq9x2m4ab
	OrgID      string     `json:"org_id"`
	UserID     string     `json:"user_id"`
	Name       string     `json:"name"`
	Hash       string     `json:"hash"` // hex SHA-256 of the secret
	CreatedAt  time.Time  `json:"created_at"`
	RevokedAt  *time.Time `json:"revoked_at,omitempty"`
	LastUsedAt *time.Time `json:"last_used_at,omitempty"`
}

// Principal is the authenticated caller of a request.
type Principal struct {
	Org   Org
	User  User
	KeyID string // empty for an admin app session
	Via   Via
}

// Via says how a caller authenticated.
type Via string

const (
	ViaKey     Via = "api_key"
	ViaSession Via = "session"
)

// RequireRole refuses callers without the role (403 forbidden).
func (p Principal) RequireRole(r Role) error {
	if p.User.Role != r {
		return &apperr.Error{Kind: apperr.ErrForbidden, Message: fmt.Sprintf("This operation needs the %s role; your role is %s.", r, p.User.Role)}
	}
	return nil
}

// RequirePlan refuses organisations below the tier (403 plan_required naming the plan).
func (p Principal) RequirePlan(min Plan) error {
	if !p.Org.Plan.AtLeast(min) {
		return &apperr.Error{Kind: apperr.ErrPlanRequired, Message: fmt.Sprintf("This endpoint needs the %s plan or higher; your organisation is on %s.", min, p.Org.Plan)}
	}
	return nil
}

// RequireSession refuses callers that did not sign in to the admin app as admins.
func (p Principal) RequireSession() error {
	if p.Via != ViaSession {
		return &apperr.Error{Kind: apperr.ErrForbidden, Message: "This operation needs an admin app session (sign in with POST /v1/auth/login); API keys are not accepted."}
	}
	return p.RequireRole(RoleAdmin)
}
