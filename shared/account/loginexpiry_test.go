package account_test

import (
	"bytes"
	"context"
	"fmt"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/firmoapi/firmo/shared/account"
	"github.com/firmoapi/firmo/shared/kv"
	"github.com/firmoapi/firmo/shared/kv/boltkv"
)

// liveKeys wraps a store and keeps the set of keys holding a document, so a test can
// see what sign-in failures leave behind (the kv port cannot list partitions).
type liveKeys struct {
	kv.Store
	mu   sync.Mutex
	keys map[kv.Key]bool
}

func (l *liveKeys) Put(ctx context.Context, k kv.Key, data []byte, c kv.Cond) (int64, error) {
	v, err := l.Store.Put(ctx, k, data, c)
	if err == nil {
		l.mu.Lock()
		l.keys[k] = true
		l.mu.Unlock()
	}
	return v, err
}

func (l *liveKeys) Delete(ctx context.Context, k kv.Key, c kv.Cond) error {
	err := l.Store.Delete(ctx, k, c)
	if err == nil {
		l.mu.Lock()
		delete(l.keys, k)
		l.mu.Unlock()
	}
	return err
}

// count is how many live keys have a partition key starting with prefix.
func (l *liveKeys) count(prefix string) int {
	l.mu.Lock()
	defer l.mu.Unlock()
	n := 0
	for k := range l.keys {
		if strings.HasPrefix(k.PK, prefix) {
			n++
		}
	}
	return n
}

func (l *liveKeys) has(k kv.Key) bool {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.keys[k]
}

// newExpiryRig is a login rig whose store is watched by a liveKeys.
func newExpiryRig(t testing.TB, opts ...account.Option) (*loginRig, *liveKeys) {
	t.Helper()
	bolt, err := boltkv.Open(filepath.Join(t.TempDir(), "kv.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { bolt.Close() })
	bolt.DeferSync() // a test's store need not survive a crash: no fsync per write
	live := &liveKeys{Store: bolt, keys: map[kv.Key]bool{}}
	r := &loginRig{t: t, hasher: &fakeHasher{}, now: time.Date(2026, 11, 21, 12, 0, 0, 0, time.UTC), logs: &bytes.Buffer{}}
	opts = append([]account.Option{
		account.WithClock(func() time.Time { return r.now }),
		account.WithPasswordHasher(r.hasher),
	}, opts...)
	r.svc = account.New(live, opts...)
	setup(t, r.svc, account.PlanFree, account.RoleAdmin) // admin@acme.test, rightPassword
	return r, live
}

// spray signs in wrong with n made-up emails spread over addrs client addresses (few
// enough per address to stay under its free failures), a second apart.
func spray(r *loginRig, wave string, n, addrs int) {
	r.t.Helper()
	for i := range n {
		email := fmt.Sprintf("%s-%d@nowhere.test", wave, i)
		addr := fmt.Sprintf("198.18.%d.%d", len(wave), i%addrs+1)
		r.wantStatus(r.login(email, "guess", addr), 401, email)
		r.now = r.now.Add(time.Second)
	}
}

// TestLoginGuardsOfUnknownEmailsExpire: the failures of made-up emails leave one guard
// per email and per address, but once they are forgotten (an hour after the last) and
// no longer lock anything, later failures sweep them away: after a second spray two
// hours on, only the second spray's guards are stored.
func TestLoginGuardsOfUnknownEmailsExpire(t *testing.T) {
	const emails, addrs = 80, 8
	r, live := newExpiryRig(t)
	spray(r, "first", emails, addrs)
	if got, want := live.count("loginguard#account#"), emails; got != want {
		t.Fatalf("after the first spray %d email guards are stored, want %d", got, want)
	}
	if got, want := live.count("loginguard#addr#"), addrs; got != want {
		t.Fatalf("after the first spray %d address guards are stored, want %d", got, want)
	}
	r.now = r.now.Add(2 * time.Hour)
	spray(r, "second wave", emails, addrs)
	for _, c := range []struct {
		prefix string
		want   int
	}{
		{"loginguard#account#", emails},
		{"loginguard#addr#", addrs},
		{"loginguard#expiry", emails + addrs}, // one index item per stored guard
	} {
		if got := live.count(c.prefix); got != c.want {
			t.Errorf("after the second spray %d items under %s are stored, want %d (the second spray's alone)", got, c.prefix, c.want)
		}
	}
}

// TestLoginGuardDeletedOnRead: a sign-in that reads an expired guard deletes it; here
// the address's, which a successful sign-in does not otherwise touch.
func TestLoginGuardDeletedOnRead(t *testing.T) {
	const addr = "203.0.113.9"
	r, live := newExpiryRig(t)
	r.wantStatus(r.login("admin@acme.test", "wrong password", addr), 401, "failure")
	addrGuard := kv.Key{PK: "loginguard#addr#" + addr, SK: "ref"}
	if !live.has(addrGuard) {
		t.Fatalf("no guard stored at %s after a failure", addrGuard)
	}
	r.now = r.now.Add(59 * time.Minute)
	r.wantStatus(r.login("admin@acme.test", rightPassword, addr), 200, "sign-in while the failure is remembered")
	if !live.has(addrGuard) {
		t.Fatal("the address's guard was deleted before its failure was forgotten")
	}
	r.now = r.now.Add(time.Minute)
	r.wantStatus(r.login("admin@acme.test", rightPassword, addr), 200, "sign-in an hour after the failure")
	if live.has(addrGuard) {
		t.Error("the address's expired guard is still stored after a sign-in read it")
	}
}

// TestLoginSweepKeepsLocks: a lock longer than the time failures are remembered
// outlives it; sweeps run by other failures in between do not delete the locked guard.
func TestLoginSweepKeepsLocks(t *testing.T) {
	limits := account.DefaultLoginLimits()
	limits.Account = account.LoginLimit{Free: 3, LockAfter: 5, LockFor: 3 * time.Hour, Forget: time.Hour}
	r, _ := newExpiryRig(t, account.WithLoginLimits(limits))
	for i := range 5 {
		r.wantStatus(r.login("admin@acme.test", "wrong password", fmt.Sprintf("192.0.2.%d", i+1)), 401, fmt.Sprintf("failure %d", i+1))
		r.now = r.now.Add(time.Minute) // past every slow-down wait
	}
	r.now = r.now.Add(90 * time.Minute) // failures forgotten, the lock still on
	spray(r, "sweepers", 40, 4)
	if got := r.wantStatus(r.login("admin@acme.test", rightPassword, "198.51.100.1"), 429, "right password while locked"); got <= 0 {
		t.Fatalf("Retry-After %v", got)
	}
	r.now = r.now.Add(3 * time.Hour)
	spray(r, "late sweepers", 40, 4)
	r.wantStatus(r.login("admin@acme.test", rightPassword, "198.51.100.1"), 200, "after the lock")
}

// BenchmarkLoginGuardSpray signs in wrong once a (simulated) second for three hours,
// each time with a new made-up email from one of 5,000 addresses, and reports the most
// items the sign-in guards held at once (guards and their index) and how many
// failures were made: without expiry the items grow with the failures, with it they
// stay near an hour's worth. Figures: README, "Accounts and keys".
func BenchmarkLoginGuardSpray(b *testing.B) {
	const seconds, addrs = 3 * 3600, 5000 // an address fails once in 83 minutes: never slowed
	for b.Loop() {
		r, live := newExpiryRig(b)
		peak := 0
		for i := range seconds {
			email := fmt.Sprintf("spray-%d@nowhere.test", i)
			addr := fmt.Sprintf("198.19.%d.%d", i%addrs/250, i%addrs%250+1)
			if err := r.login(email, "guess", addr); err == nil {
				b.Fatal("a made-up email signed in")
			}
			r.now = r.now.Add(time.Second)
			if n := live.count("loginguard#"); n > peak {
				peak = n
			}
		}
		b.ReportMetric(float64(peak), "peak-items")
		b.ReportMetric(float64(live.count("loginguard#")), "final-items")
		b.ReportMetric(float64(seconds), "failures")
	}
}
