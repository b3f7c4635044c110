package boltkv_test

import (
	"path/filepath"
	"testing"

	"github.com/firmoapi/firmo/shared/boltkv"
	"github.com/firmoapi/firmo/shared/kv"
	"github.com/firmoapi/firmo/shared/kv/kvtest"
)

func TestContract(t *testing.T) {
	kvtest.Run(t, func(t *testing.T) kv.Store {
		s, err := boltkv.Open(filepath.Join(t.TempDir(), "kv.db"))
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { s.Close() })
		return s
	})
}
