package account_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/firmoapi/firmo/shared/account"
	"github.com/firmoapi/firmo/shared/apperr"
)

const rightPassword = "correct horse battery"

// fakeHasher stands in for argon2id: it counts its calls, remembers the hashes it was
// given and accepts rightPassword against any hash but the dummy one.
type fakeHasher struct {
	calls   atomic.Int64
	mu      sync.Mutex
	encoded []string
}

func (h *fakeHasher) Verify(encoded, password string) bool {
	h.calls.Add(1)
	h.mu.Lock()
	h.encoded = append(h.encoded, encoded)
	h.mu.Unlock()
	return encoded != account.DummyHash() && password == rightPassword
}

type loginRig struct {
	t      testing.TB
	svc    *account.Service
	hasher *fakeHasher
	now    time.Time
	logs   *bytes.Buffer
}

func newLoginRig(t *testing.T, opts ...account.Option) *loginRig {
	t.Helper()
	r := &loginRig{t: t, hasher: &fakeHasher{}, now: time.Date(2026, 11, 21, 12, 0, 0, 0, time.UTC), logs: &bytes.Buffer{}}
	opts = append([]account.Option{
		account.WithClock(func() time.Time { return r.now }),
		account.WithPasswordHasher(r.hasher),
		account.WithLogger(slog.New(slog.NewJSONHandler(r.logs, nil))),
	}, opts...)
	r.svc, _ = newService(t, opts...)
	setup(t, r.svc, account.PlanFree, account.RoleAdmin) // admin@acme.test, rightPassword
	return r
}

func (r *loginRig) login(email, password, addr string) error {
	_, _, err := r.svc.Login(context.Background(), account.LoginAttempt{Email: email, Password: password, ClientAddr: addr}, time.Hour)
	return err
}

// wantStatus checks err's HTTP answer and returns its Retry-After.
func (r *loginRig) wantStatus(err error, status int, what string) time.Duration {
	r.t.Helper()
	d := apperr.Describe(err)
	if err == nil {
		d.Status = 200
	}
	if d.Status != status {
		r.t.Fatalf("%s: status %d (%v), want %d", what, d.Status, err, status)
	}
	if status == 429 && d.RetryAfter <= 0 {
		r.t.Fatalf("%s: 429 without Retry-After", what)
	}
	return d.RetryAfter
}

func TestLoginLockout(t *testing.T) {
	const addr = "203.0.113.7"
	t.Run("locked after 10 failures even with the right password, until the lock expires", func(t *testing.T) {
		r := newLoginRig(t)
		for i := 1; i <= 10; i++ {
			r.wantStatus(r.login("admin@acme.test", "wrong password", addr), 401, fmt.Sprintf("failure %d", i))
			r.now = r.now.Add(time.Minute) // past every slow-down wait
		}
		calls := r.hasher.calls.Load()
		wait := r.wantStatus(r.login("admin@acme.test", rightPassword, addr), 429, "right password while locked")
		if want := 14 * time.Minute; wait != want { // locked 15 minutes at the 10th failure, a minute ago
			t.Errorf("Retry-After %v, want %v", wait, want)
		}
		r.now = r.now.Add(wait - time.Second)
		r.wantStatus(r.login("ADMIN@acme.test", rightPassword, "198.51.100.1"), 429, "right password from elsewhere, a second before the end")
		if got := r.hasher.calls.Load(); got != calls {
			t.Errorf("locked attempts ran %d password checks, want none", got-calls)
		}
		r.now = r.now.Add(time.Second)
		r.wantStatus(r.login("admin@acme.test", rightPassword, addr), 200, "right password after the lock")
		r.wantStatus(r.login("admin@acme.test", "wrong password", addr), 401, "a success forgets the failures")
		r.wantStatus(r.login("admin@acme.test", rightPassword, addr), 200, "no wait after one failure")
	})

	t.Run("slowed after 3 failures: each further failure doubles the wait", func(t *testing.T) {
		r := newLoginRig(t)
		for i := 1; i <= 3; i++ {
			r.wantStatus(r.login("admin@acme.test", "wrong password", addr), 401, fmt.Sprintf("free failure %d", i))
		}
		for i, want := range []time.Duration{time.Second, 2 * time.Second, 4 * time.Second} {
			r.wantStatus(r.login("admin@acme.test", "wrong password", addr), 401, fmt.Sprintf("failure %d", 4+i))
			if got := r.wantStatus(r.login("admin@acme.test", rightPassword, addr), 429, "right password while slowed"); got != want {
				t.Errorf("after failure %d: Retry-After %v, want %v", 4+i, got, want)
			}
			r.now = r.now.Add(want)
		}
		r.wantStatus(r.login("admin@acme.test", rightPassword, addr), 200, "right password once the wait is over")
	})

	t.Run("failures are forgotten an hour after the last one", func(t *testing.T) {
		r := newLoginRig(t)
		for i := 1; i <= 9; i++ {
			r.wantStatus(r.login("admin@acme.test", "wrong password", addr), 401, fmt.Sprintf("failure %d", i))
			r.now = r.now.Add(time.Minute)
		}
		r.now = r.now.Add(time.Hour)
		r.wantStatus(r.login("admin@acme.test", "wrong password", addr), 401, "tenth failure, an hour later")
		r.wantStatus(r.login("admin@acme.test", rightPassword, addr), 200, "not locked")
	})

	t.Run("per address: 50 failures over different emails lock the address, not the account", func(t *testing.T) {
		r := newLoginRig(t)
		for i := 1; i <= 50; i++ {
			r.wantStatus(r.login(fmt.Sprintf("guess%d@acme.test", i), "wrong password", addr), 401, fmt.Sprintf("failure %d", i))
			r.now = r.now.Add(time.Minute)
		}
		if got := r.wantStatus(r.login("admin@acme.test", rightPassword, addr), 429, "right password from the locked address"); got != 14*time.Minute {
			t.Errorf("Retry-After %v, want 14m", got)
		}
		r.wantStatus(r.login("admin@acme.test", rightPassword, "198.51.100.1"), 200, "the same account from another address")
	})

	t.Run("per address: an IPv6 /64 is one address", func(t *testing.T) {
		r := newLoginRig(t, account.WithLoginLimits(account.LoginLimits{
			Account: account.DefaultLoginLimits().Account,
			Address: account.LoginLimit{Free: 1, LockAfter: 2, LockFor: time.Hour, Forget: time.Hour},
		}))
		r.wantStatus(r.login("a@acme.test", "wrong password", "2001:db8:1:2::1"), 401, "first")
		r.now = r.now.Add(time.Minute)
		r.wantStatus(r.login("b@acme.test", "wrong password", "2001:db8:1:2:ffff::9"), 401, "second")
		r.wantStatus(r.login("admin@acme.test", rightPassword, "2001:db8:1:2::42"), 429, "same /64")
		r.wantStatus(r.login("admin@acme.test", rightPassword, "2001:db8:1:3::1"), 200, "another /64")
	})
}

func TestLoginEveryFailureCostsOneCheck(t *testing.T) {
	r := newLoginRig(t)
	org, err := r.svc.FindOrg(context.Background(), "Acme admin")
	if err != nil {
		t.Fatal(err)
	}
	// A password-less user, as `firmo keys create` makes them.
	if _, err := r.svc.CreateUser(context.Background(), org.ID, "cli@acme.test", account.RoleAdmin, ""); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name, email, password string
		wantDummy             bool
	}{
		{"wrong password", "admin@acme.test", "wrong password", false},
		{"unknown email", "nobody@acme.test", rightPassword, true},
		{"password-less user", "cli@acme.test", rightPassword, true},
	}
	for i, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			addr := fmt.Sprintf("192.0.2.%d", i+1)
			before := r.hasher.calls.Load()
			err := r.login(tt.email, tt.password, addr)
			if !errors.Is(err, apperr.ErrUnauthorized) || err.Error() != "unauthorized: The email or password is not correct." {
				t.Fatalf("err = %v, want the one 401 of every failure", err)
			}
			if got := r.hasher.calls.Load() - before; got != 1 {
				t.Fatalf("%d password checks, want exactly 1", got)
			}
			r.hasher.mu.Lock()
			last := r.hasher.encoded[len(r.hasher.encoded)-1]
			r.hasher.mu.Unlock()
			if isDummy := last == account.DummyHash(); isDummy != tt.wantDummy {
				t.Errorf("checked against the dummy hash: %v, want %v", isDummy, tt.wantDummy)
			}
			// and it counts as a failure of the email like any other: the fourth slows it
			for range 3 {
				r.login(tt.email, tt.password, addr)
			}
			r.wantStatus(r.login(tt.email, tt.password, addr), 429, "fifth attempt right after four failures")
		})
	}
}

// blockingHasher holds every check until released and fails the test when more than
// max run at once.
type blockingHasher struct {
	t        *testing.T
	max      int64
	inFlight atomic.Int64
	calls    atomic.Int64
	entered  chan struct{}
	release  chan struct{}
}

func (h *blockingHasher) Verify(string, string) bool {
	h.calls.Add(1)
	n := h.inFlight.Add(1)
	defer h.inFlight.Add(-1)
	if n > h.max {
		h.t.Errorf("%d password checks at once, want at most %d", n, h.max)
		return false
	}
	h.entered <- struct{}{}
	<-h.release
	return false
}

func TestLoginBoundsConcurrentChecks(t *testing.T) {
	const slots, callers = 2, 16
	t.Run("at most K checks at once; a caller finding none free within the wait gets 503 with Retry-After", func(t *testing.T) {
		h := &blockingHasher{t: t, max: slots, entered: make(chan struct{}, callers), release: make(chan struct{})}
		svc, _ := newService(t, account.WithPasswordHasher(h), account.WithHashSlots(slots, time.Millisecond))
		var wg sync.WaitGroup
		errs := make(chan error, callers)
		for i := range slots {
			wg.Go(func() {
				_, _, err := svc.Login(context.Background(), account.LoginAttempt{Email: fmt.Sprintf("u%d@acme.test", i), Password: "wrong password"}, time.Hour)
				errs <- err
			})
		}
		for range slots {
			<-h.entered // both slots are held until release
		}
		for i := slots; i < callers; i++ {
			_, _, err := svc.Login(context.Background(), account.LoginAttempt{Email: fmt.Sprintf("u%d@acme.test", i), Password: "wrong password"}, time.Hour)
			d := apperr.Describe(err)
			if d.Status != 503 || d.RetryAfter <= 0 {
				t.Fatalf("caller %d with every slot held: %+v (%v), want 503 with Retry-After", i, d, err)
			}
		}
		close(h.release)
		wg.Wait()
		close(errs)
		for err := range errs {
			if !errors.Is(err, apperr.ErrUnauthorized) {
				t.Errorf("a caller holding a slot: %v, want 401", err)
			}
		}
		if got := h.calls.Load(); got != slots {
			t.Errorf("%d checks ran, want %d", got, slots)
		}
	})

	t.Run("16 concurrent wrong logins all get their check, K at a time", func(t *testing.T) {
		h := &blockingHasher{t: t, max: slots, entered: make(chan struct{}, callers), release: make(chan struct{})}
		svc, _ := newService(t, account.WithPasswordHasher(h), account.WithHashSlots(slots, time.Hour))
		var wg sync.WaitGroup
		for i := range callers {
			wg.Go(func() {
				_, _, err := svc.Login(context.Background(), account.LoginAttempt{Email: fmt.Sprintf("u%d@acme.test", i), Password: "wrong password"}, time.Hour)
				if !errors.Is(err, apperr.ErrUnauthorized) {
					t.Errorf("caller %d: %v, want 401", i, err)
				}
			})
		}
		for range callers {
			<-h.entered
			h.release <- struct{}{}
		}
		wg.Wait()
		if got := h.calls.Load(); got != callers {
			t.Errorf("%d checks ran, want %d", got, callers)
		}
	})
}

func TestLoginLogsLockouts(t *testing.T) {
	r := newLoginRig(t)
	for i := 1; i <= 10; i++ {
		r.login("admin@acme.test", "wrong password", "203.0.113.9")
		r.now = r.now.Add(time.Minute)
	}
	r.login("admin@acme.test", rightPassword, "203.0.113.9")
	var locked, refused int
	dec := json.NewDecoder(bytes.NewReader(r.logs.Bytes()))
	for {
		var rec map[string]any
		if err := dec.Decode(&rec); err != nil {
			break
		}
		switch rec["msg"] {
		case "login locked":
			locked++
			if rec["level"] != "WARN" || rec["subject"] != "account" || rec["email"] != "admin@acme.test" || rec["client_addr"] != "203.0.113.9" || rec["locked_until"] == nil {
				t.Errorf("lockout record %v", rec)
			}
		case "login refused":
			refused++
			if rec["locked"] != true || rec["retry_after_s"] != float64(14*60) {
				t.Errorf("refusal record %v", rec)
			}
		}
	}
	if locked != 1 || refused != 1 {
		t.Errorf("%d lockout and %d refusal records, want 1 and 1; log:\n%s", locked, refused, r.logs)
	}
}
