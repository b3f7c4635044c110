package account

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/firmoapi/firmo/shared/apperr"
	"github.com/firmoapi/firmo/shared/kv"
)

// Expiry of the sign-in guards (login.go). Every failure of an unknown email stores a
// guard, so a spray of made-up emails would grow the store without bound if guards
// lived for ever. A guard expires once its failures are forgotten and any wait or lock
// is over (loginGuard.expiry); then it is deleted:
//
//   - on read, as an expired session is (SessionPrincipal), when a sign-in looks at it;
//   - by a sweep that every recorded failure runs, over an index of the guards ordered
//     by expiry: the guards of emails never tried again are found there. The kv port has
//     no TTL and the DynamoDB stand-ins do not expire items, so, like the windows of
//     kvlimit, old items are deleted by the writes that make new ones: the store holds
//     about the guards of the failures of the last Forget, whatever came before.
//
// The index is one partition, guardIndexPK, with one item per guard whose sort key is
// "<expiry, unix seconds rounded up, 12 digits>#<guard PK>"; a failure that moves a
// guard's expiry writes its new item and deletes the old one.
const guardIndexPK = "loginguard#expiry"

// guardSweepBatch is how many due index items one sweep looks at: more than the two
// guards (email, address) a failure can add, so sweeps outpace a spray.
const guardSweepBatch = 32

// expiry is when a guard of a subject with limit l may be deleted: its failures are
// forgotten and it no longer blocks. The zero guard has expired already.
func (l LoginLimit) expiry(g loginGuard) time.Time {
	exp := g.LastFailure.Add(l.Forget)
	if g.BlockedUntil.After(exp) {
		exp = g.BlockedUntil
	}
	return exp
}

// guardIndexSK is the index item of a guard stored at pk expiring at exp. The seconds
// are rounded up, so an item due by the clock's seconds is a guard past its expiry.
func guardIndexSK(pk string, exp time.Time) string {
	sec := exp.Unix()
	if exp.Nanosecond() > 0 {
		sec++
	}
	return fmt.Sprintf("%012d#%s", max(sec, 0), pk)
}

// parseGuardIndexSK undoes guardIndexSK.
func parseGuardIndexSK(sk string) (due int64, pk string, ok bool) {
	secs, pk, ok := strings.Cut(sk, "#")
	if !ok {
		return 0, "", false
	}
	due, err := strconv.ParseInt(secs, 10, 64)
	return due, pk, err == nil && pk != ""
}

// limitOf is the limit of the guard stored at pk (loginSubjects names them).
func (s *Service) limitOf(pk string) (LoginLimit, bool) {
	switch {
	case strings.HasPrefix(pk, "loginguard#account#"):
		return s.limits.Account, true
	case strings.HasPrefix(pk, "loginguard#addr#"):
		return s.limits.Address, true
	}
	return LoginLimit{}, false
}

// reindexGuard records in the index that the guard at pk now expires at exp instead of
// at old (zero when it was not stored). Housekeeping: a failed write leaves an item the
// sweep corrects, so errors are only logged.
func (s *Service) reindexGuard(ctx context.Context, pk string, old, exp time.Time) {
	sk := guardIndexSK(pk, exp)
	oldSK := ""
	if !old.IsZero() {
		oldSK = guardIndexSK(pk, old)
	}
	if sk == oldSK {
		return
	}
	if _, err := s.store.Put(ctx, kv.Key{PK: guardIndexPK, SK: sk}, []byte("{}"), kv.Cond{}); err != nil {
		s.log.WarnContext(ctx, "index sign-in guard", "err", err)
		return
	}
	if oldSK != "" {
		s.dropIndexItem(ctx, oldSK)
	}
}

func (s *Service) dropIndexItem(ctx context.Context, sk string) {
	if err := s.store.Delete(ctx, kv.Key{PK: guardIndexPK, SK: sk}, kv.Cond{}); err != nil {
		s.log.WarnContext(ctx, "drop sign-in guard index item", "err", err)
	}
}

// deleteExpiredGuard deletes a guard read at version that has expired, with its index
// item. A conflict means a failure has just written it again: it is kept.
func (s *Service) deleteExpiredGuard(ctx context.Context, key kv.Key, version int64, exp time.Time) error {
	err := s.store.Delete(ctx, key, kv.Cond{IfVersion: version})
	if errors.Is(err, apperr.ErrConflict) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("delete expired sign-in guard: %w", err)
	}
	s.dropIndexItem(ctx, guardIndexSK(key.PK, exp))
	return nil
}

// sweepGuards deletes the guards whose index items are due, up to guardSweepBatch of
// them, oldest first. One sweep runs at a time in a process (the others skip: the
// running one serves them). Housekeeping: errors end the sweep and are logged.
func (s *Service) sweepGuards(ctx context.Context) {
	if !s.sweepMu.TryLock() {
		return
	}
	defer s.sweepMu.Unlock()
	now := s.now()
	page, err := s.store.Query(ctx, guardIndexPK, kv.QueryOptions{Limit: guardSweepBatch})
	if err != nil {
		s.log.WarnContext(ctx, "sweep sign-in guards", "err", err)
		return
	}
	for _, it := range page.Items {
		due, pk, ok := parseGuardIndexSK(it.SK)
		if ok && due > now.Unix() {
			return // sorted by expiry: the rest are not due either
		}
		if err := s.sweepGuard(ctx, it.SK, pk, ok, now); err != nil {
			s.log.WarnContext(ctx, "sweep sign-in guards", "err", err)
			return
		}
	}
}

// sweepGuard handles one due index item: the guard is deleted if it has expired, and
// indexed again at its expiry if a later failure moved it.
func (s *Service) sweepGuard(ctx context.Context, sk, pk string, parsed bool, now time.Time) error {
	limit, known := s.limitOf(pk)
	if !parsed || !known {
		s.dropIndexItem(ctx, sk) // not an item this code writes
		return nil
	}
	key := kv.Key{PK: pk, SK: skRef}
	g, version, err := s.readGuardDoc(ctx, key)
	if err != nil {
		return err
	}
	exp := limit.expiry(g)
	switch {
	case version == 0: // signed in since, or deleted on read
		s.dropIndexItem(ctx, sk)
	case !now.Before(exp):
		if err := s.deleteExpiredGuard(ctx, key, version, exp); err != nil {
			return err
		}
		s.dropIndexItem(ctx, sk) // the item may predate exp's rounding
	default:
		if guardIndexSK(pk, exp) != sk {
			s.reindexGuard(ctx, pk, time.Time{}, exp)
			s.dropIndexItem(ctx, sk)
		}
	}
	return nil
}
