package company_test

import (
	"context"
	"fmt"
	"path/filepath"
	"testing"
	"time"

	"github.com/firmoapi/firmo/shared/company"
	"github.com/firmoapi/firmo/shared/company/companytest"
	"github.com/firmoapi/firmo/shared/kv/boltkv"
	"github.com/firmoapi/firmo/shared/kv/dynamokv"
	"github.com/firmoapi/firmo/shared/testkit"
)

func TestKVStoreOnBolt(t *testing.T) {
	companytest.Run(t, func(t *testing.T) company.Store { return company.NewKVStore(newBolt(t)) })
}

func TestKVStoreOnDynamoDB(t *testing.T) {
	client := testkit.DynamoClient(t, testkit.Dynalite(t))
	n := 0
	companytest.Run(t, func(t *testing.T) company.Store {
		n++
		table := fmt.Sprintf("firmo-company-%d-%d", time.Now().UnixNano(), n)
		if err := dynamokv.EnsureTable(context.Background(), client, table); err != nil {
			t.Fatal(err)
		}
		return company.NewKVStore(dynamokv.New(client, table))
	})
}

func newBolt(t testing.TB) *boltkv.Store {
	t.Helper()
	s, err := boltkv.Open(filepath.Join(t.TempDir(), "kv.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}
