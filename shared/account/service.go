package account

import (
	"context"
	"crypto/rand"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/mail"
	"strings"
	"sync"
	"time"

	"github.com/google/uuid"

	"github.com/firmoapi/firmo/shared/apperr"
	"github.com/firmoapi/firmo/shared/kv"
)

// Storage layout (partition / sort key):
//
//	org#<org_id>      / profile          Org; counter "credits"
//	org#<org_id>      / user#<user_id>   User
//	org#<org_id>      / key#<key_id>     Key
//	org#<org_id>      / keyuse#<key_id>  last-used time of a key
//	orgname#<name>    / ref              {org_id}: organisation names are unique
//	email#<email>     / ref              {org_id, user_id}: emails are unique
//	keyhash#<sha256>  / ref              {org_id, user_id, key_id}: present while a key is active
//	keyid#<key_id>    / ref              {org_id}
//	session#<sha256>  / ref              Session
//	loginguard#account#<sha256 of email> / ref   failed sign-ins of an email (login.go)
//	loginguard#addr#<client address>     / ref   failed sign-ins from an address (login.go)
//	loginguard#expiry / <expiry>#<guard pk>      the guards by expiry, for their sweep (loginexpiry.go)
const (
	skProfile = "profile"
	skRef     = "ref"
	// CreditsCounter is the counter on the organisation profile holding its balance.
	CreditsCounter = "credits"
)

func orgPK(id string) string { return "org#" + id }

// Service manages accounts. It is safe for concurrent use.
type Service struct {
	store kv.Store
	now   func() time.Time
	rand  io.Reader
	log   *slog.Logger

	// Sign-in protection (login.go): the password checker, the slots bounding how many
	// checks run at once, how long a sign-in waits for one, and the failure limits.
	hasher    PasswordHasher
	hashSlots chan struct{}
	hashWait  time.Duration
	limits    LoginLimits
	sweepMu   sync.Mutex // held by the sweep of expired guards (loginexpiry.go)

	mu       sync.Mutex
	lastSeen map[string]time.Time // key ID -> last time its use was written
}

// Option configures a Service.
type Option func(*Service)

// WithClock sets the clock (tests).
func WithClock(now func() time.Time) Option { return func(s *Service) { s.now = now } }

// WithLogger sets the logger of sign-in refusals and lockouts; without it they are not
// logged.
func WithLogger(l *slog.Logger) Option { return func(s *Service) { s.log = l } }

// WithPasswordHasher replaces the argon2id password check (tests count its calls).
func WithPasswordHasher(h PasswordHasher) Option { return func(s *Service) { s.hasher = h } }

// WithHashSlots bounds the password checks running at once to slots and makes a sign-in
// wait at most wait for one (then 503 with Retry-After). The default is DefaultHashSlots
// and DefaultHashWait.
func WithHashSlots(slots int, wait time.Duration) Option {
	return func(s *Service) {
		s.hashSlots = make(chan struct{}, max(slots, 1))
		s.hashWait = wait
	}
}

// WithLoginLimits replaces DefaultLoginLimits.
func WithLoginLimits(l LoginLimits) Option { return func(s *Service) { s.limits = l } }

// New makes a Service on a store.
func New(store kv.Store, opts ...Option) *Service {
	s := &Service{
		store: store, now: time.Now, rand: rand.Reader, log: slog.New(slog.DiscardHandler),
		hasher: argon2idHasher{}, hashSlots: make(chan struct{}, DefaultHashSlots), hashWait: DefaultHashWait,
		limits: DefaultLoginLimits(), lastSeen: map[string]time.Time{},
	}
	for _, o := range opts {
		o(s)
	}
	return s
}

func (s *Service) getJSON(ctx context.Context, k kv.Key, v any) (kv.Item, error) {
	return kv.GetJSON(ctx, s.store, k, v)
}

func (s *Service) putJSON(ctx context.Context, k kv.Key, v any, cond kv.Cond) error {
	_, err := kv.PutJSON(ctx, s.store, k, v, cond)
	return err
}

type orgRef struct {
	OrgID  string `json:"org_id"`
	UserID string `json:"user_id,omitempty"`
	KeyID  string `json:"key_id,omitempty"`
}

func normName(name string) string { return strings.ToLower(strings.Join(strings.Fields(name), " ")) }

// EnsureOrg returns the organisation with this name, creating it with the plan when it
// does not exist. created reports whether this call created it.
func (s *Service) EnsureOrg(ctx context.Context, name string, plan Plan) (org Org, created bool, err error) {
	name = strings.Join(strings.Fields(name), " ")
	if name == "" || len(name) > 200 {
		return Org{}, false, apperr.Invalid("name", "organisation name must be 1 to 200 characters")
	}
	if _, ok := planRank[plan]; !ok {
		return Org{}, false, apperr.Invalid("plan", "unknown plan %q", plan)
	}
	// Claim the name first; the claim holds the new ID, so a crash between the two
	// writes leaves a claim whose profile the next call completes.
	ref := orgRef{OrgID: uuid.NewString()}
	nameKey := kv.Key{PK: "orgname#" + normName(name), SK: skRef}
	if err := s.putJSON(ctx, nameKey, ref, kv.Cond{IfAbsent: true}); err != nil {
		if !errors.Is(err, apperr.ErrConflict) {
			return Org{}, false, fmt.Errorf("claim organisation name: %w", err)
		}
		if _, err := s.getJSON(ctx, nameKey, &ref); err != nil {
			return Org{}, false, fmt.Errorf("read organisation name: %w", err)
		}
	}
	org, err = s.GetOrg(ctx, ref.OrgID)
	if err == nil {
		return org, false, nil
	}
	if !errors.Is(err, apperr.ErrNotFound) {
		return Org{}, false, err
	}
	org = Org{ID: ref.OrgID, Name: name, Plan: plan, CreatedAt: s.now().UTC()}
	if err := s.putJSON(ctx, kv.Key{PK: orgPK(org.ID), SK: skProfile}, org, kv.Cond{IfAbsent: true}); err != nil {
		if errors.Is(err, apperr.ErrConflict) { // a concurrent call created it
			org, err = s.GetOrg(ctx, ref.OrgID)
			return org, false, err
		}
		return Org{}, false, fmt.Errorf("create organisation: %w", err)
	}
	bal, err := s.store.Add(ctx, kv.Key{PK: orgPK(org.ID), SK: skProfile}, CreditsCounter, plan.InitialCredits(), kv.AddCond{})
	if err != nil {
		return Org{}, false, fmt.Errorf("grant initial credits: %w", err)
	}
	org.Credits = bal
	return org, true, nil
}

// GetOrg reads an organisation with its live credit balance.
func (s *Service) GetOrg(ctx context.Context, id string) (Org, error) {
	var org Org
	it, err := s.getJSON(ctx, kv.Key{PK: orgPK(id), SK: skProfile}, &org)
	if err != nil {
		return Org{}, fmt.Errorf("get organisation %s: %w", id, err)
	}
	if it.Data == nil {
		return Org{}, fmt.Errorf("get organisation %s: %w", id, apperr.ErrNotFound)
	}
	org.Credits = it.Counters[CreditsCounter]
	return org, nil
}

// FindOrg finds an organisation by name.
func (s *Service) FindOrg(ctx context.Context, name string) (Org, error) {
	var ref orgRef
	if _, err := s.getJSON(ctx, kv.Key{PK: "orgname#" + normName(name), SK: skRef}, &ref); err != nil {
		return Org{}, fmt.Errorf("find organisation %q: %w", name, err)
	}
	return s.GetOrg(ctx, ref.OrgID)
}

// CreateUser adds a user to an organisation. An empty password makes a user that cannot
// sign in to the admin app (API keys only). Emails are unique across organisations.
func (s *Service) CreateUser(ctx context.Context, orgID, email string, role Role, password string) (User, error) {
	addr, err := mail.ParseAddress(strings.TrimSpace(email))
	if err != nil || addr.Name != "" {
		return User{}, apperr.Invalid("email", "%q is not a valid email address", email)
	}
	if role != RoleAdmin && role != RoleMember {
		return User{}, apperr.Invalid("role", "role %q is not one of admin, member", role)
	}
	if password != "" && len(password) < 10 {
		return User{}, apperr.Invalid("password", "password must have at least 10 characters")
	}
	u := User{ID: uuid.NewString(), OrgID: orgID, Email: strings.ToLower(addr.Address), Role: role, CreatedAt: s.now().UTC()}
	if password != "" {
		if u.PasswordHash, err = hashPassword(s.rand, password); err != nil {
			return User{}, err
		}
	}
	// The user record goes first: an email claim never points at a missing user.
	if err := s.putJSON(ctx, kv.Key{PK: orgPK(orgID), SK: "user#" + u.ID}, u, kv.Cond{IfAbsent: true}); err != nil {
		return User{}, fmt.Errorf("create user: %w", err)
	}
	if err := s.putJSON(ctx, kv.Key{PK: "email#" + u.Email, SK: skRef}, orgRef{OrgID: orgID, UserID: u.ID}, kv.Cond{IfAbsent: true}); err != nil {
		_ = s.store.Delete(ctx, kv.Key{PK: orgPK(orgID), SK: "user#" + u.ID}, kv.Cond{})
		if errors.Is(err, apperr.ErrConflict) {
			return User{}, &apperr.Error{Kind: apperr.ErrConflict, Field: "email", Message: fmt.Sprintf("a user with email %s already exists", u.Email)}
		}
		return User{}, fmt.Errorf("claim email: %w", err)
	}
	return u, nil
}

// GetUser reads a user of an organisation.
func (s *Service) GetUser(ctx context.Context, orgID, userID string) (User, error) {
	var u User
	if _, err := s.getJSON(ctx, kv.Key{PK: orgPK(orgID), SK: "user#" + userID}, &u); err != nil {
		return User{}, fmt.Errorf("get user %s: %w", userID, err)
	}
	return u, nil
}

// FindUserByEmail finds a user by email.
func (s *Service) FindUserByEmail(ctx context.Context, email string) (User, error) {
	var ref orgRef
	if _, err := s.getJSON(ctx, kv.Key{PK: "email#" + strings.ToLower(strings.TrimSpace(email)), SK: skRef}, &ref); err != nil {
		return User{}, fmt.Errorf("find user %s: %w", email, err)
	}
	return s.GetUser(ctx, ref.OrgID, ref.UserID)
}

// ListUsers lists the users of an organisation.
func (s *Service) ListUsers(ctx context.Context, orgID string) ([]User, error) {
	var users []User
	err := s.each(ctx, orgPK(orgID), "user#", func(it kv.Item) error {
		var u User
		if err := json.Unmarshal(it.Data, &u); err != nil {
			return err
		}
		users = append(users, u)
		return nil
	})
	return users, err
}

func (s *Service) each(ctx context.Context, pk, prefix string, fn func(kv.Item) error) error {
	cursor := ""
	for {
		page, err := s.store.Query(ctx, pk, kv.QueryOptions{Prefix: prefix, Limit: 500, Cursor: cursor})
		if err != nil {
			return fmt.Errorf("list %s %s: %w", pk, prefix, err)
		}
		for _, it := range page.Items {
			if err := fn(it); err != nil {
				return err
			}
		}
		if page.Next == "" {
			return nil
		}
		cursor = page.Next
	}
}
