package account

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/netip"
	"strings"
	"time"

	"github.com/firmoapi/firmo/shared/apperr"
	"github.com/firmoapi/firmo/shared/kv"
)

// Sign-in protection. A password check is argon2id with 64 MiB (hashPassword), so:
//
//   - At most a few checks run at once (hashSlots): a sign-in waits up to hashWait for a
//     slot, then is answered 503 with Retry-After instead of queueing without bound.
//   - Failures are counted per email and per client address in the kv store (a JSON
//     document per subject, updated with conditional writes, so bbolt and DynamoDB behave
//     alike). After LoginLimit.Free failures each further one makes the subject wait
//     (1 s, 2 s, 4 s, ... at most a minute); after LockAfter failures it is locked for
//     LockFor. While a subject waits or is locked every attempt, even with the right
//     password, is answered 429 with Retry-After, without a password check. Failures
//     are forgotten Forget after the last one, and an email's on a successful sign-in;
//     an address's only by time, so signing in to one's own account does not reset an
//     attacker's address. A guard whose failures are forgotten and whose wait or lock is
//     over is deleted, on read or by a sweep (loginexpiry.go), so unknown emails do not
//     fill the store.
//   - Unknown emails and password-less users (made by the CLI) are checked against
//     DummyHash, and count as failures like a wrong password: every failure costs one
//     password check and the same writes, and locks the same way whether the email
//     exists or not.

// DefaultHashSlots is how many password checks run at once: a memory budget of
// 128 MiB over argon2id's 64 MiB per check. On Lambda an instance serves one request at
// a time, so the slots matter for firmo serve.
const DefaultHashSlots = (128 << 20) / (argonMemory << 10)

// DefaultHashWait is how long a sign-in waits for a free password-check slot.
const DefaultHashWait = 3 * time.Second

// maxSlowDelay caps the wait between failures before a lock.
const maxSlowDelay = time.Minute

// LoginLimit is how failed sign-ins of one subject (an email, a client address) are
// slowed and then locked.
type LoginLimit struct {
	Free      int           // failures answered without a wait
	LockAfter int           // failures that lock the subject
	LockFor   time.Duration // how long a lock lasts
	Forget    time.Duration // failures are forgotten this long after the last one
}

// LoginLimits are the limits per email and per client address.
type LoginLimits struct {
	Account LoginLimit
	Address LoginLimit
}

// DefaultLoginLimits: an email is slowed after 3 failures and locked for 15 minutes
// after 10; an address (possibly an office behind one NAT) after 20 and 50.
func DefaultLoginLimits() LoginLimits {
	return LoginLimits{
		Account: LoginLimit{Free: 3, LockAfter: 10, LockFor: 15 * time.Minute, Forget: time.Hour},
		Address: LoginLimit{Free: 20, LockAfter: 50, LockFor: 15 * time.Minute, Forget: time.Hour},
	}
}

// block is when a subject with this many failures may try again, and whether that is a
// lock.
func (l LoginLimit) block(failures int, now time.Time) (until time.Time, locked bool) {
	switch {
	case failures >= l.LockAfter:
		return now.Add(l.LockFor), true
	case failures > l.Free:
		shift := min(failures-l.Free-1, 16)
		return now.Add(min(time.Second<<shift, maxSlowDelay)), false
	}
	return time.Time{}, false
}

// LoginAttempt is what a sign-in is given.
type LoginAttempt struct {
	Email    string
	Password string
	// ClientAddr is the caller's IP address (httpapi.ClientAddr); empty skips the
	// per-address limit.
	ClientAddr string
}

// loginGuard is the stored failure state of one subject.
type loginGuard struct {
	Failures     int       `json:"failures"`
	LastFailure  time.Time `json:"last_failure"`
	BlockedUntil time.Time `json:"blocked_until"`
	Locked       bool      `json:"locked"`
}

// loginSubject is what failures are counted against.
type loginSubject struct {
	kind  string // "account" or "address"
	key   kv.Key
	limit LoginLimit
}

var errBadLogin = apperr.New(apperr.ErrUnauthorized, "The email or password is not correct.")

// Login checks an admin's email and password and opens a session. It returns the
// session token, which the caller hands out once (as a cookie). Errors: 401 for a wrong
// email or password, 429 with Retry-After while the email or the address is slowed or
// locked, 503 with Retry-After when no password-check slot frees in time, 403 for a
// user who is not an admin.
func (s *Service) Login(ctx context.Context, in LoginAttempt, ttl time.Duration) (token string, sess Session, err error) {
	subjects := s.loginSubjects(in)
	if err := s.refuseBlocked(ctx, subjects, in); err != nil {
		return "", Session{}, err
	}
	u, err := s.FindUserByEmail(ctx, in.Email)
	found := err == nil
	if err != nil && !errors.Is(err, apperr.ErrNotFound) {
		return "", Session{}, err
	}
	ok, err := s.checkPassword(ctx, subjects, in, u.PasswordHash)
	if err != nil {
		return "", Session{}, err
	}
	if !ok || !found || u.PasswordHash == "" {
		return "", Session{}, s.loginFailed(ctx, subjects, in)
	}
	if err := s.store.Delete(ctx, subjects[0].key, kv.Cond{}); err != nil {
		return "", Session{}, fmt.Errorf("clear failed sign-ins: %w", err)
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

// checkPassword runs one password check in a slot: against encoded, or DummyHash when
// there is none, so every attempt costs the same. Failures recorded while it waited
// for the slot are looked at again first.
func (s *Service) checkPassword(ctx context.Context, subjects []loginSubject, in LoginAttempt, encoded string) (bool, error) {
	release, err := s.acquireHashSlot(ctx, in)
	if err != nil {
		return false, err
	}
	defer release()
	if err := s.refuseBlocked(ctx, subjects, in); err != nil {
		return false, err
	}
	if encoded == "" {
		encoded = DummyHash()
	}
	return s.hasher.Verify(encoded, in.Password), nil
}

func (s *Service) acquireHashSlot(ctx context.Context, in LoginAttempt) (release func(), err error) {
	release = func() { <-s.hashSlots }
	select {
	case s.hashSlots <- struct{}{}:
		return release, nil
	default:
	}
	wait := time.NewTimer(s.hashWait)
	defer wait.Stop()
	select {
	case s.hashSlots <- struct{}{}:
		return release, nil
	case <-wait.C:
	case <-ctx.Done():
	}
	s.log.WarnContext(ctx, "login refused: password checks busy", "slots", cap(s.hashSlots), "client_addr", in.ClientAddr)
	return nil, &apperr.Error{Kind: apperr.ErrUnavailable, RetryAfter: time.Second,
		Message: "Too many sign-ins are being checked at the moment; retry in 1 second."}
}

func (s *Service) loginSubjects(in LoginAttempt) []loginSubject {
	email := strings.ToLower(strings.TrimSpace(in.Email))
	subjects := []loginSubject{{kind: "account", key: kv.Key{PK: "loginguard#account#" + hashSecret(email), SK: skRef}, limit: s.limits.Account}}
	if addr := addrBucket(in.ClientAddr); addr != "" {
		subjects = append(subjects, loginSubject{kind: "address", key: kv.Key{PK: "loginguard#addr#" + addr, SK: skRef}, limit: s.limits.Address})
	}
	return subjects
}

// addrBucket is the subject of a client address: the address itself, or its /64 for
// IPv6, since one host commonly holds a whole /64.
func addrBucket(addr string) string {
	if addr == "" {
		return ""
	}
	a, err := netip.ParseAddr(addr)
	if err != nil {
		return "x" + hashSecret(addr)[:32]
	}
	a = a.Unmap().WithZone("")
	if a.Is6() {
		p, _ := a.Prefix(64)
		return p.String()
	}
	return a.String()
}

// refuseBlocked answers 429 with Retry-After when a subject waits or is locked.
func (s *Service) refuseBlocked(ctx context.Context, subjects []loginSubject, in LoginAttempt) error {
	now := s.now()
	var worst *apperr.Error
	for _, sub := range subjects {
		g, _, err := s.readGuard(ctx, sub, now)
		if err != nil {
			return err
		}
		wait := g.BlockedUntil.Sub(now)
		if wait <= 0 || worst != nil && wait <= worst.RetryAfter {
			continue
		}
		worst = &apperr.Error{Kind: apperr.ErrRateLimited, RetryAfter: wait, Message: blockedMessage(sub.kind, g.Locked, wait)}
		s.log.InfoContext(ctx, "login refused", "subject", sub.kind, "locked", g.Locked, "failures", g.Failures,
			"retry_after_s", seconds(wait), "email", logEmail(in.Email), "client_addr", in.ClientAddr)
	}
	if worst == nil {
		return nil
	}
	return worst
}

func blockedMessage(kind string, locked bool, wait time.Duration) string {
	who := "this email"
	if kind == "address" {
		who = "your address"
	}
	if locked {
		return fmt.Sprintf("Too many failed sign-ins for %s: signing in is locked for %d seconds.", who, seconds(wait))
	}
	return fmt.Sprintf("Too many failed sign-ins for %s: wait %d seconds before trying again.", who, seconds(wait))
}

// loginFailed records a failure against every subject and answers 401.
func (s *Service) loginFailed(ctx context.Context, subjects []loginSubject, in LoginAttempt) error {
	now := s.now()
	for _, sub := range subjects {
		g, err := s.recordFailure(ctx, sub, now)
		if err != nil {
			return err
		}
		switch {
		case g.Locked && g.Failures >= sub.limit.LockAfter:
			s.log.WarnContext(ctx, "login locked", "subject", sub.kind, "failures", g.Failures, "locked_until", g.BlockedUntil.UTC(),
				"email", logEmail(in.Email), "client_addr", in.ClientAddr)
		case g.Failures > sub.limit.Free:
			s.log.InfoContext(ctx, "login slowed", "subject", sub.kind, "failures", g.Failures, "locked", g.Locked,
				"blocked_until", g.BlockedUntil.UTC(), "email", logEmail(in.Email), "client_addr", in.ClientAddr)
		}
	}
	s.sweepGuards(ctx)
	return errBadLogin
}

// recordFailureAttempts bounds the conditional writes of one failure that lose a race.
const recordFailureAttempts = 8

func (s *Service) recordFailure(ctx context.Context, sub loginSubject, now time.Time) (loginGuard, error) {
	for range recordFailureAttempts {
		g, version, err := s.readGuard(ctx, sub, now)
		if err != nil {
			return loginGuard{}, err
		}
		var oldExpiry time.Time
		if version != 0 {
			oldExpiry = sub.limit.expiry(g)
		}
		if now.Sub(g.LastFailure) >= sub.limit.Forget {
			g = loginGuard{}
		}
		g.Failures++
		g.LastFailure = now
		if until, locked := sub.limit.block(g.Failures, now); until.After(g.BlockedUntil) {
			g.BlockedUntil, g.Locked = until, locked
		}
		_, err = kv.PutJSON(ctx, s.store, sub.key, g, kv.Cond{IfAbsent: version == 0, IfVersion: version})
		if !errors.Is(err, apperr.ErrConflict) {
			if err != nil {
				return loginGuard{}, fmt.Errorf("record failed sign-in: %w", err)
			}
			s.reindexGuard(ctx, sub.key.PK, oldExpiry, sub.limit.expiry(g))
			return g, nil
		}
	}
	return loginGuard{}, apperr.Retryable(fmt.Errorf("record failed sign-in %s: %d conflicting writes", sub.key, recordFailureAttempts), time.Second)
}

// readGuard reads a subject's guard. One that has expired (LoginLimit.expiry) is
// deleted and read as none.
func (s *Service) readGuard(ctx context.Context, sub loginSubject, now time.Time) (loginGuard, int64, error) {
	g, version, err := s.readGuardDoc(ctx, sub.key)
	if err != nil || version == 0 {
		return g, version, err
	}
	if exp := sub.limit.expiry(g); !now.Before(exp) {
		if err := s.deleteExpiredGuard(ctx, sub.key, version, exp); err != nil {
			return loginGuard{}, 0, err
		}
		return loginGuard{}, 0, nil
	}
	return g, version, nil
}

// readGuardDoc reads the guard stored at key as it is; version 0 when there is none.
func (s *Service) readGuardDoc(ctx context.Context, key kv.Key) (loginGuard, int64, error) {
	it, err := s.store.Get(ctx, key)
	if errors.Is(err, apperr.ErrNotFound) {
		return loginGuard{}, 0, nil
	}
	if err != nil {
		return loginGuard{}, 0, fmt.Errorf("read failed sign-ins: %w", err)
	}
	var g loginGuard
	if err := json.Unmarshal(it.Data, &g); err != nil {
		return loginGuard{}, 0, fmt.Errorf("decode %s: %w", key, err)
	}
	return g, it.Version, nil
}

// seconds rounds a wait up to whole seconds, as Retry-After does.
func seconds(d time.Duration) int { return int((d + time.Second - 1) / time.Second) }

// logEmail bounds what an attacker-chosen email puts in the log.
func logEmail(email string) string {
	email = strings.TrimSpace(email)
	if len(email) > 254 {
		return email[:254]
	}
	return email
}
