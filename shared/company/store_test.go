package company_test

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/firmoapi/firmo/shared/apperr"
	"github.com/firmoapi/firmo/shared/company"
	"github.com/firmoapi/firmo/shared/company/companytest"
	"github.com/firmoapi/firmo/shared/kv"
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

// landedThenConflict is a kv store whose first write of a certificate chunk lands and is
// then answered with a conflict, as DynamoDB answers a client's retry of a conditional
// write whose first try had landed.
type landedThenConflict struct {
	*boltkv.Store
	done bool
}

func (s *landedThenConflict) Put(ctx context.Context, key kv.Key, data []byte, cond kv.Cond) (int64, error) {
	v, err := s.Store.Put(ctx, key, data, cond)
	if err == nil && !s.done && strings.HasPrefix(key.SK, "cert#") {
		s.done = true
		return 0, fmt.Errorf("put %s: condition failed on the retry: %w", key, apperr.ErrConflict)
	}
	return v, err
}

// Certificates whose write landed before the store answered a conflict are still reported
// as added by the call that wrote them (they read as present on its retry): none is lost
// from what AddCertificates says it added.
func TestCertificatesWrittenBeforeAConflictCountAsAdded(t *testing.T) {
	s := company.NewKVStore(&landedThenConflict{Store: newBolt(t)})
	base := time.Date(2021, 1, 1, 0, 0, 0, 0, time.UTC)
	var certs []company.Certificate
	for i := range 6 {
		from := base.AddDate(0, i, 0)
		certs = append(certs, company.Certificate{SHA1Fingerprint: fmt.Sprintf("%040x", i+1), FQDN: "www.example.com",
			Organization: "Acme", Country: "DE", DateFrom: from, DateTo: from.AddDate(0, 3, 0)})
	}
	added, err := s.AddCertificates(context.Background(), "example.com", certs)
	if err != nil || len(added) != len(certs) {
		t.Fatalf("%d of %d reported added, %v", len(added), len(certs), err)
	}
	got, err := s.Certificates(context.Background(), "example.com", 100)
	if err != nil || len(got) != len(certs) {
		t.Fatalf("%d stored, %v", len(got), err)
	}
}
