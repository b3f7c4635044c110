package websearch_test

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/firmoapi/firmo/shared/account"
	"github.com/firmoapi/firmo/shared/apperr"
	"github.com/firmoapi/firmo/shared/kv/boltkv"
	"github.com/firmoapi/firmo/shared/secret"
	"github.com/firmoapi/firmo/shared/websearch"
)

type fakeSearcher struct {
	err   error
	calls int
}

func (f *fakeSearcher) Search(ctx context.Context, q string, n int) ([]websearch.Result, error) {
	f.calls++
	if f.err != nil {
		return nil, f.err
	}
	return []websearch.Result{{URL: "https://x.example/" + q}}, nil
}

func TestBreaker(t *testing.T) {
	now := time.Unix(1000, 0)
	clock := func() time.Time { return now }
	f := &fakeSearcher{err: websearch.ErrUnavailable}
	b := websearch.NewBreaker(websearch.BreakerOptions{Failures: 3, CoolDown: time.Minute, Now: clock})
	s := b.Wrap(f)
	for i := 0; i < 3; i++ {
		if _, err := s.Search(context.Background(), "q", 1); !errors.Is(err, websearch.ErrUnavailable) {
			t.Fatalf("call %d: %v", i, err)
		}
	}
	if _, err := s.Search(context.Background(), "q", 1); !errors.Is(err, websearch.ErrCircuitOpen) || f.calls != 3 {
		t.Fatalf("open breaker: err %v, calls %d", err, f.calls)
	}
	now = now.Add(61 * time.Second)
	f.err = nil
	if _, err := s.Search(context.Background(), "q", 1); err != nil || b.State() != "closed" {
		t.Fatalf("trial call: %v, state %s", err, b.State())
	}

	// Out of credits opens at once and says so.
	f.err = fmt.Errorf("%w (brave 402)", websearch.ErrOutOfCredits)
	_, _ = s.Search(context.Background(), "q", 1)
	_, err := s.Search(context.Background(), "q", 1)
	if !errors.Is(err, websearch.ErrCircuitOpen) || !errors.Is(err, websearch.ErrOutOfCredits) {
		t.Fatalf("after out of credits: %v", err)
	}

	// A cancelled caller does not count as a provider failure.
	c := websearch.NewBreaker(websearch.BreakerOptions{Failures: 1, Now: clock})
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	_, _ = c.Wrap(&fakeSearcher{err: context.Canceled}).Search(ctx, "q", 1)
	if c.State() != "closed" {
		t.Fatal("cancellation opened the breaker")
	}
}

func newService(t *testing.T) (*websearch.Service, string, map[string]string) {
	t.Helper()
	path := filepath.Join(t.TempDir(), "kv.db")
	store, err := boltkv.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { store.Close() })
	box, _ := secret.New(bytes.Repeat([]byte{3}, secret.KeySize))
	keys := map[string]string{}
	f := websearch.FactoryFunc(func(kind, key string) (websearch.Searcher, error) {
		keys[kind] = key
		return &fakeSearcher{}, nil
	})
	return websearch.New(websearch.Deps{Store: store, Sealer: box, Factory: f}), path, keys
}

func TestServiceLifecycle(t *testing.T) {
	s, path, keys := newService(t)
	ctx := context.Background()
	if _, _, err := s.Resolve(ctx, "org1", ""); apperr.Describe(err).Status != 400 {
		t.Fatalf("no provider: %v", err)
	}
	brave, err := s.Create(ctx, admin("org1"), websearch.Input{Kind: "brave", Name: "Brave", APIKey: "BSA-secret-key-123"})
	if err != nil || !brave.IsDefault {
		t.Fatalf("create: %+v %v", brave, err)
	}
	native, err := s.Create(ctx, admin("org1"), websearch.Input{Kind: "native"})
	if err != nil || native.IsDefault || native.Name != "native" {
		t.Fatalf("create native: %+v %v", native, err)
	}
	p, _, err := s.Resolve(ctx, "org1", "")
	if err != nil || p.ID != brave.ID || keys["brave"] != "BSA-secret-key-123" {
		t.Fatalf("resolve default: %+v %v key %q", p, err, keys["brave"])
	}
	if _, err := s.SetDefault(ctx, admin("org1"), native.ID); err != nil {
		t.Fatal(err)
	}
	if p, _, _ := s.Resolve(ctx, "org1", ""); p.ID != native.ID {
		t.Fatalf("default after set-default = %s", p.ID)
	}
	// Another organisation sees nothing of it.
	for _, err := range []error{
		func() error { _, _, err := s.Resolve(ctx, "org2", brave.ID); return err }(),
		s.Delete(ctx, admin("org2"), brave.ID),
		func() error { _, err := s.SetDefault(ctx, admin("org2"), brave.ID); return err }(),
	} {
		if !errors.Is(err, apperr.ErrNotFound) {
			t.Fatalf("other org: %v, want not found", err)
		}
	}
	list, _ := s.List(ctx, "org1")
	if len(list) != 2 || list[0].ID != brave.ID || !list[1].IsDefault {
		t.Fatalf("list = %+v", list)
	}
	if err := s.Delete(ctx, admin("org1"), native.ID); err != nil {
		t.Fatal(err)
	}
	if _, _, err := s.Resolve(ctx, "org1", ""); apperr.Describe(err).Status != 400 {
		t.Fatalf("deleted default: %v", err)
	}
	// The raw store never holds the key in plain text.
	s = nil
	raw, err := os.ReadFile(path)
	if err == nil && bytes.Contains(raw, []byte("BSA-secret-key-123")) {
		t.Fatal("plaintext key found in the store file")
	}
}

func TestCreateValidation(t *testing.T) {
	s, _, _ := newService(t)
	cases := []struct {
		in    websearch.Input
		field string
	}{
		{websearch.Input{}, "provider"},
		{websearch.Input{Kind: "bing", APIKey: "k"}, "provider"},
		{websearch.Input{Kind: "brave"}, "api_key"},
		{websearch.Input{Kind: "serper", APIKey: "a b"}, "api_key"},
		{websearch.Input{Kind: "native", APIKey: "k"}, "api_key"},
	}
	for _, c := range cases {
		t.Run(fmt.Sprintf("%+v", c.in), func(t *testing.T) {
			_, err := s.Create(context.Background(), admin("org1"), c.in)
			if d := apperr.Describe(err); d.Status != 422 || d.Field != c.field {
				t.Fatalf("got %+v, want 422 on %s", d, c.field)
			}
		})
	}
}

// TestClassifyRetryable: transient failures are retryable for every retrier
// (apperr.IsRetryable) and keep their own sentinel and text; refusals that a retry
// cannot fix are not.
func TestClassifyRetryable(t *testing.T) {
	tests := []struct {
		name      string
		status    int
		body      string
		want      error
		retryable bool
	}{
		{"rate limited", 429, "slow down", websearch.ErrUnavailable, true},
		{"server error", 503, "oops", websearch.ErrUnavailable, true},
		{"bad key", 401, "no", websearch.ErrAuth, false},
		{"out of credits", 402, "top up", websearch.ErrOutOfCredits, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := websearch.Classify("brave", tt.status, tt.body)
			if !errors.Is(err, tt.want) || apperr.IsRetryable(err) != tt.retryable {
				t.Fatalf("Classify = %v (retryable %v), want %v (retryable %v)", err, apperr.IsRetryable(err), tt.want, tt.retryable)
			}
		})
	}
	if got := websearch.ErrUnavailable.Error(); got != "search provider: unavailable" {
		t.Errorf("ErrUnavailable text = %q, want it unchanged", got)
	}
}

// admin is an admin caller of org.
func admin(org string) account.Principal {
	return account.Principal{Org: account.Org{ID: org}, User: account.User{ID: "admin-of-" + org, Role: account.RoleAdmin}}
}
