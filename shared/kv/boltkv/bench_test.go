package boltkv_test

import (
	"context"
	"fmt"
	"path/filepath"
	"sync"
	"testing"

	"github.com/firmoapi/firmo/shared/kv"
	"github.com/firmoapi/firmo/shared/kv/boltkv"
)

// BenchmarkTwoWritersDeferredSync is the demo world's seed on two cores: two
// goroutines writing with fsync deferred (DeferSync), each waiting for its write. With
// the sync off a batch commits in microseconds, so the group-commit window is what
// each concurrent write waits (README "The demo world" has the figures).
func BenchmarkTwoWritersDeferredSync(b *testing.B) { twoWriters(b, true) }

// BenchmarkTwoWritersSynced is the same with every commit fsynced, as the API writes:
// the window must not cost them much either.
func BenchmarkTwoWritersSynced(b *testing.B) { twoWriters(b, false) }

func twoWriters(b *testing.B, deferSync bool) {
	s, err := boltkv.Open(filepath.Join(b.TempDir(), "kv.db"))
	if err != nil {
		b.Fatal(err)
	}
	defer s.Close()
	if deferSync {
		defer s.DeferSync()()
	}
	ctx := context.Background()
	data := make([]byte, 512)
	b.ResetTimer()
	var wg sync.WaitGroup
	for w := range 2 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := w; i < b.N; i += 2 {
				if _, err := s.Put(ctx, kv.Key{PK: "bench", SK: fmt.Sprintf("%09d", i)}, data, kv.Cond{}); err != nil {
					b.Error(err)
					return
				}
			}
		}()
	}
	wg.Wait()
}
