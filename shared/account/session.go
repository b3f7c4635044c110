package account

import (
	"context"
	"errors"
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
