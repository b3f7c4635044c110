package account

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/firmoapi/firmo/shared/apperr"
	"github.com/firmoapi/firmo/shared/kv"
)

// Session is an admin app session. Only the hash of its token is stored.
type Session struct {
	OrgID     string    `json:"org_id"`
	UserID    string    `json:"user_id"`
	CreatedAt time.Time `json:"created_at"`
	ExpiresAt time.Time `json:"expires_at"`
}

var errBadLogin = apperr.New(apperr.ErrUnauthorized, "The email or password is not correct.")

// Login checks an admin's email and password and opens a session. It returns the
// session token, which the caller hands out once (as a cookie).
func (s *Service) Login(ctx context.Context, email, password string, ttl time.Duration) (token string, sess Session, err error) {
	u, err := s.FindUserByEmail(ctx, email)
	if err != nil {
		if errors.Is(err, apperr.ErrNotFound) {
			// Spend the same time as a real check so timing does not reveal which emails exist.
			checkPassword("$argon2id$v=19$m=65536,t=3,p=2$c2FsdHNhbHRzYWx0c2FsdA$aGFzaGhhc2hoYXNoaGFzaGhhc2hoYXNoaGFzaGhhc2g", password)
			return "", Session{}, errBadLogin
		}
		return "", Session{}, err
	}
	if u.PasswordHash == "" || !checkPassword(u.PasswordHash, password) {
		return "", Session{}, errBadLogin
	}
	if u.Role != RoleAdmin {
		return "", Session{}, &apperr.Error{Kind: apperr.ErrForbidden, Message: "Only admins can sign in to the admin app."}
	}
	token, err = newToken(s.rand)
	if err != nil {
		return "", Session{}, err
	}
	now := s.now().UTC()
	sess = Session{OrgID: u.OrgID, UserID: u.ID, CreatedAt: now, ExpiresAt: now.Add(ttl)}
	if err := s.putJSON(ctx, kv.Key{PK: "session#" + hashSecret(token), SK: skRef}, sess, kv.Cond{IfAbsent: true}); err != nil {
		return "", Session{}, fmt.Errorf("store session: %w", err)
	}
	return token, sess, nil
}

// SessionPrincipal resolves a session token to its caller.
func (s *Service) SessionPrincipal(ctx context.Context, token string) (Principal, error) {
	var sess Session
	k := kv.Key{PK: "session#" + hashSecret(token), SK: skRef}
	if _, err := s.getJSON(ctx, k, &sess); err != nil {
		if errors.Is(err, apperr.ErrNotFound) {
			return Principal{}, apperr.New(apperr.ErrUnauthorized, "The session is not valid; sign in again.")
		}
		return Principal{}, err
	}
	if !s.now().Before(sess.ExpiresAt) {
		_ = s.store.Delete(ctx, k, kv.Cond{})
		return Principal{}, apperr.New(apperr.ErrUnauthorized, "The session has expired; sign in again.")
	}
	p, err := s.principal(ctx, sess.OrgID, sess.UserID)
	if err != nil {
		return Principal{}, err
	}
	p.Via = ViaSession
	return p, nil
}

// Logout ends a session. Ending an unknown session is not an error.
func (s *Service) Logout(ctx context.Context, token string) error {
	return s.store.Delete(ctx, kv.Key{PK: "session#" + hashSecret(token), SK: skRef}, kv.Cond{})
}
