package allapp_test

import (
	"context"
	"testing"
	"time"

	"github.com/firmoapi/firmo/shared/kv/boltkv"
	"github.com/firmoapi/firmo/shared/world"
)

// Contact seeding, like company seeding, writes with the embedded store's fsync
// deferred and syncs once at the end, not once per contact (README "The demo world").
func TestSeedContactsDefersSync(t *testing.T) {
	e := newEnv(t, nil)
	db := e.app.Core.Store.(*boltkv.Store).DB()
	companies, deferred := 0, 0
	n, err := e.app.SeedContacts(context.Background(), world.Options{Seed: 5, Companies: 3, AsOf: time.Now()}, func() {
		companies++
		if db.NoSync {
			deferred++
		}
	})
	if err != nil || n == 0 {
		t.Fatalf("seeded %d contacts: %v", n, err)
	}
	if deferred != companies {
		t.Fatalf("fsync deferred during %d of %d companies' contacts", deferred, companies)
	}
	if db.NoSync {
		t.Fatal("fsync still off after seeding")
	}
}
