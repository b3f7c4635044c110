package kvlimit_test

import (
	"context"
	"fmt"
	"path/filepath"
	"testing"
	"time"

	"github.com/firmoapi/firmo/shared/kv"
	"github.com/firmoapi/firmo/shared/kv/boltkv"
	"github.com/firmoapi/firmo/shared/kv/dynamokv"
	"github.com/firmoapi/firmo/shared/ratelimit"
	"github.com/firmoapi/firmo/shared/ratelimit/kvlimit"
	"github.com/firmoapi/firmo/shared/ratelimit/ratelimittest"
	"github.com/firmoapi/firmo/shared/testkit"
)

func boltStore(t *testing.T) kv.Store {
	s, err := boltkv.Open(filepath.Join(t.TempDir(), "kv.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

func TestContractBolt(t *testing.T) {
	s := boltStore(t)
	ratelimittest.Run(t, func(t *testing.T, now func() time.Time) ratelimit.Limiter { return kvlimit.New(s, now) })
}

// TestContractDynamo runs the contract on DynamoDB (dynalite): the counters every
// Lambda instance shares.
func TestContractDynamo(t *testing.T) {
	client := testkit.DynamoClient(t, testkit.Dynalite(t))
	table := fmt.Sprintf("firmo-limit-%d", time.Now().UnixNano())
	if err := dynamokv.EnsureTable(context.Background(), client, table); err != nil {
		t.Fatal(err)
	}
	s := dynamokv.New(client, table)
	ratelimittest.Run(t, func(t *testing.T, now func() time.Time) ratelimit.Limiter { return kvlimit.New(s, now) })
}

// TestTwoInstancesShareTheCount: two limiters on one store (two Lambda instances) share
// one budget.
func TestTwoInstancesShareTheCount(t *testing.T) {
	s := boltStore(t)
	clock := ratelimittest.NewClock(time.Date(2030, 1, 1, 0, 0, 0, 0, time.UTC))
	a, b := kvlimit.New(s, clock.Now), kvlimit.New(s, clock.Now)
	ctx := context.Background()
	for i, l := range []*kvlimit.Limiter{a, b, a, b} {
		d, err := l.Allow(ctx, "org GET /v1/x", 3)
		if err != nil {
			t.Fatal(err)
		}
		if want := i < 3; d.Allowed != want {
			t.Fatalf("request %d: allowed = %v, want %v", i+1, d.Allowed, want)
		}
	}
}

// TestOldWindowsAreDeleted: a key keeps only its current window's item.
func TestOldWindowsAreDeleted(t *testing.T) {
	s := boltStore(t)
	start := time.Date(2030, 1, 1, 0, 0, 0, 0, time.UTC)
	clock := ratelimittest.NewClock(start)
	l := kvlimit.New(s, clock.Now)
	ctx := context.Background()
	for m := 0; m < 5; m++ {
		clock.Set(start.Add(time.Duration(m*7) * time.Minute))
		for i := 0; i < 3; i++ {
			if _, err := l.Allow(ctx, "k", 10); err != nil {
				t.Fatal(err)
			}
		}
	}
	page, err := s.Query(ctx, "ratelimit#k", kv.QueryOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if len(page.Items) != 1 || page.Items[0].Counters["n"] != 3 {
		t.Fatalf("items after 5 windows: %+v, want only the current window with 3 requests", page.Items)
	}
}
