package boltkv_test

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/firmoapi/firmo/shared/kv"
	"github.com/firmoapi/firmo/shared/kv/boltkv"
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

func TestLockedFileGivesClearError(t *testing.T) {
	path := filepath.Join(t.TempDir(), "kv.db")
	s, err := boltkv.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	_, err = boltkv.Open(path)
	if err == nil || !strings.Contains(err.Error(), "locked by another process") {
		t.Fatalf("second open: %v", err)
	}
}
