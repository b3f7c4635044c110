package emailapp

import (
	"context"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/firmoapi/firmo/shared/contact"
	"github.com/firmoapi/firmo/shared/kv/boltkv"
)

// TestPatternsReadOnceWhateverTheCallers: concurrent first callers share one read of
// the contact store; a caller whose context ends first does not spoil it for the others,
// and the pattern learned from the store's addresses is the one answered.
func TestPatternsReadOnceWhateverTheCallers(t *testing.T) {
	store, err := boltkv.Open(filepath.Join(t.TempDir(), "kv.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer store.Close()
	cs := contact.NewStore(store)
	ctx := context.Background()
	for i, p := range []struct{ first, last string }{{"jane", "doe"}, {"john", "smith"}, {"ann", "lee"}} {
		r := contact.Raw{PersonaID: int64(i + 1), Name: p.first + " " + p.last, Domain: "acme.com", Email: p.first + "." + p.last + "@acme.com"}
		if _, err := cs.Put(ctx, r); err != nil {
			t.Fatal(err)
		}
	}
	l := newLearnedPatterns(cs)
	gone, cancel := context.WithCancel(ctx)
	cancel() // this caller has already given up
	if _, _, err := l.CompanyPattern(gone, "acme.com"); err == nil {
		t.Fatal("a cancelled caller got an answer before the read could end")
	}
	var wg sync.WaitGroup
	for range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			wctx, cancel := context.WithTimeout(ctx, 30*time.Second)
			defer cancel()
			p, ok, err := l.CompanyPattern(wctx, "acme.com")
			if err != nil || !ok || p.Template != "{first}.{last}" {
				t.Errorf("pattern = %+v, %v, %v; want {first}.{last}", p, ok, err)
			}
		}()
	}
	wg.Wait()
}
