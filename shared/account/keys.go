package account

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"sort"
	"strings"
	"time"

	"github.com/firmoapi/firmo/shared/apperr"
	"github.com/firmoapi/firmo/shared/kv"
)

// usageWriteEvery bounds how often a key's last-used time is written.
const usageWriteEvery = time.Minute

// CreateKey issues a new API key for a user. The secret is returned once and never stored.
func (s *Service) CreateKey(ctx context.Context, orgID, userID, name string) (secret string, key Key, err error) {
	_, secret, err = newKeySecret(s.rand)
	if err != nil {
		return "", Key{}, err
	}
	key, err = s.ImportKey(ctx, orgID, userID, name, secret)
	return secret, key, err
}

// ImportKey registers a secret chosen by an operator (FIRMO_DEMO_API_KEY) as a key.
// Importing the same secret again returns the existing key.
func (s *Service) ImportKey(ctx context.Context, orgID, userID, name, secret string) (Key, error) {
	name = strings.TrimSpace(name)
	if len(name) > 100 {
		return Key{}, apperr.Invalid("name", "key name must be at most 100 characters")
	}
	if _, err := s.GetUser(ctx, orgID, userID); err != nil {
		return Key{}, err
	}
	k := Key{ID: keyIDOf(secret), OrgID: orgID, UserID: userID, Name: name, Hash: hashSecret(secret), CreatedAt: s.now().UTC()}
	// Record first, then the ID index, then the hash index that makes the key usable:
	// a crash between writes leaves at worst an unusable key record, never a usable
	// key without a record.
	if err := s.putJSON(ctx, kv.Key{PK: orgPK(orgID), SK: "key#" + k.ID}, k, kv.Cond{IfAbsent: true}); err != nil {
		if errors.Is(err, apperr.ErrConflict) {
			var existing Key
			if _, gerr := s.getJSON(ctx, kv.Key{PK: orgPK(orgID), SK: "key#" + k.ID}, &existing); gerr == nil && existing.Hash == k.Hash && existing.RevokedAt == nil {
				k = existing
			} else {
				return Key{}, &apperr.Error{Kind: apperr.ErrConflict, Message: "a key with this prefix already exists"}
			}
		} else {
			return Key{}, fmt.Errorf("store key: %w", err)
		}
	}
	if err := s.putJSON(ctx, kv.Key{PK: "keyid#" + k.ID, SK: skRef}, orgRef{OrgID: orgID}, kv.Cond{}); err != nil {
		return Key{}, fmt.Errorf("index key id: %w", err)
	}
	if err := s.putJSON(ctx, kv.Key{PK: "keyhash#" + k.Hash, SK: skRef}, orgRef{OrgID: orgID, UserID: userID, KeyID: k.ID}, kv.Cond{}); err != nil {
		return Key{}, fmt.Errorf("index key hash: %w", err)
	}
	return k, nil
}

// Authenticate resolves an API key secret to its caller.
func (s *Service) Authenticate(ctx context.Context, secret string) (Principal, error) {
	if secret == "" || len(secret) > 256 {
		return Principal{}, apperr.New(apperr.ErrUnauthorized, "A valid API key is required: send it in the x-service-key header or as Authorization: Bearer <key>.")
	}
	var ref orgRef
	if _, err := s.getJSON(ctx, kv.Key{PK: "keyhash#" + hashSecret(secret), SK: skRef}, &ref); err != nil {
		if errors.Is(err, apperr.ErrNotFound) {
			return Principal{}, apperr.New(apperr.ErrUnauthorized, "The API key is not valid or has been revoked.")
		}
		return Principal{}, fmt.Errorf("authenticate: %w", err)
	}
	p, err := s.principal(ctx, ref.OrgID, ref.UserID)
	if err != nil {
		return Principal{}, err
	}
	p.KeyID, p.Via = ref.KeyID, ViaKey
	s.touch(ctx, ref.OrgID, ref.KeyID)
	return p, nil
}

func (s *Service) principal(ctx context.Context, orgID, userID string) (Principal, error) {
	org, err := s.GetOrg(ctx, orgID)
	if err != nil {
		if errors.Is(err, apperr.ErrNotFound) {
			return Principal{}, apperr.New(apperr.ErrUnauthorized, "The credentials belong to an organisation that no longer exists.")
		}
		return Principal{}, err
	}
	user, err := s.GetUser(ctx, orgID, userID)
	if err != nil {
		if errors.Is(err, apperr.ErrNotFound) {
			return Principal{}, apperr.New(apperr.ErrUnauthorized, "The credentials belong to a user that no longer exists.")
		}
		return Principal{}, err
	}
	return Principal{Org: org, User: user}, nil
}

// touch records a key's last use, at most once a minute per key and process.
// It is best effort: a failed write never fails the request.
func (s *Service) touch(ctx context.Context, orgID, keyID string) {
	now := s.now().UTC()
	s.mu.Lock()
	if last, ok := s.lastSeen[keyID]; ok && now.Sub(last) < usageWriteEvery {
		s.mu.Unlock()
		return
	}
	s.lastSeen[keyID] = now
	s.mu.Unlock()
	b, _ := json.Marshal(now)
	_, _ = s.store.Put(ctx, kv.Key{PK: orgPK(orgID), SK: "keyuse#" + keyID}, b, kv.Cond{})
}

// ListKeys lists an organisation's keys, newest first, revoked ones included.
func (s *Service) ListKeys(ctx context.Context, orgID string) ([]Key, error) {
	var keys []Key
	used := map[string]time.Time{}
	err := s.each(ctx, orgPK(orgID), "key", func(it kv.Item) error {
		switch {
		case strings.HasPrefix(it.SK, "key#"):
			var k Key
			if err := json.Unmarshal(it.Data, &k); err != nil {
				return err
			}
			keys = append(keys, k)
		case strings.HasPrefix(it.SK, "keyuse#"):
			var t time.Time
			if err := json.Unmarshal(it.Data, &t); err == nil {
				used[strings.TrimPrefix(it.SK, "keyuse#")] = t
			}
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	for i := range keys {
		if t, ok := used[keys[i].ID]; ok {
			keys[i].LastUsedAt = &t
		}
	}
	sort.Slice(keys, func(i, j int) bool { return keys[i].CreatedAt.After(keys[j].CreatedAt) })
	return keys, nil
}

// RevokeKey revokes a key of an organisation. Another organisation's key is not found.
func (s *Service) RevokeKey(ctx context.Context, orgID, keyID string) (Key, error) {
	rk := kv.Key{PK: orgPK(orgID), SK: "key#" + keyID}
	var k Key
	it, err := s.getJSON(ctx, rk, &k)
	if err != nil {
		if errors.Is(err, apperr.ErrNotFound) {
			return Key{}, apperr.NotFound("API key %s was not found", keyID)
		}
		return Key{}, err
	}
	if k.RevokedAt == nil {
		now := s.now().UTC()
		k.RevokedAt = &now
		if err := s.putJSON(ctx, rk, k, kv.Cond{IfVersion: it.Version}); err != nil {
			return Key{}, fmt.Errorf("revoke key %s: %w", keyID, err)
		}
	}
	// Deleting the hash index is what stops the key from working; it is idempotent,
	// so revoking again completes a revocation interrupted here.
	if err := s.store.Delete(ctx, kv.Key{PK: "keyhash#" + k.Hash, SK: skRef}, kv.Cond{}); err != nil {
		return Key{}, fmt.Errorf("revoke key %s: %w", keyID, err)
	}
	return k, nil
}

// RevokeKeyByID revokes a key given only its ID (the operator CLI).
func (s *Service) RevokeKeyByID(ctx context.Context, keyID string) (Key, error) {
	var ref orgRef
	if _, err := s.getJSON(ctx, kv.Key{PK: "keyid#" + strings.TrimSpace(keyID), SK: skRef}, &ref); err != nil {
		if errors.Is(err, apperr.ErrNotFound) {
			return Key{}, apperr.NotFound("API key %s was not found", keyID)
		}
		return Key{}, err
	}
	return s.RevokeKey(ctx, ref.OrgID, keyID)
}

// KeyID returns the public prefix that identifies a key secret.
func KeyID(secret string) string { return keyIDOf(secret) }
