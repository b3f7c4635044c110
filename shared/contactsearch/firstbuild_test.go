package contactsearch

import (
	"context"
	"errors"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/firmoapi/firmo/shared/apperr"
	"github.com/firmoapi/firmo/shared/contact"
	"github.com/firmoapi/firmo/shared/embed"
	"github.com/firmoapi/firmo/shared/kv/boltkv"
)

// countingEmbedder counts the texts it embeds.
type countingEmbedder struct {
	embed.Embedder
	mu    sync.Mutex
	texts int
}

func (c *countingEmbedder) Embed(ctx context.Context, texts []string) ([][]float32, error) {
	c.mu.Lock()
	c.texts += len(texts)
	c.mu.Unlock()
	return c.Embedder.Embed(ctx, texts)
}

func (c *countingEmbedder) took() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	n := c.texts
	c.texts = 0
	return n
}

// ownWorld copies the demo world's contacts into a store of the test's own, so the
// test can change contacts without touching the shared fixture.
func ownWorld(t *testing.T) (*contact.Store, *fixture) {
	t.Helper()
	f := demo(t)
	kv, err := boltkv.Open(filepath.Join(t.TempDir(), "kv.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { kv.Close() })
	kv.DB().NoSync = true
	cs := contact.NewStore(kv)
	ctx := context.Background()
	err = f.svc.contacts.List(ctx, func(r contact.Raw) error {
		_, err := cs.Put(ctx, r)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return cs, f
}

// gatedEmbedder counts the texts it embeds (countingEmbedder) and holds every Embed call
// until release is closed or the call's ctx ends; started is closed at the first call, so
// a test can act while a build is under way.
type gatedEmbedder struct {
	countingEmbedder
	once    sync.Once
	started chan struct{}
	release chan struct{}
}

func newGatedEmbedder(e embed.Embedder) *gatedEmbedder {
	return &gatedEmbedder{countingEmbedder: countingEmbedder{Embedder: e}, started: make(chan struct{}), release: make(chan struct{})}
}

func (g *gatedEmbedder) Embed(ctx context.Context, texts []string) ([][]float32, error) {
	g.once.Do(func() { close(g.started) })
	select {
	case <-g.release:
	case <-ctx.Done():
		return nil, ctx.Err()
	}
	return g.countingEmbedder.Embed(ctx, texts)
}

// TestFirstSearchesShareOneBuild: concurrent first searches on a fresh service embed each
// distinct contact text once between them all (one build), and so do those of a new
// service over the same store and data dir (a restart after a crash: the old service is
// dropped as it is), which loads the saved graph instead of building it again. In both,
// the caller that started the build gives up while it runs: it gets a 503 with
// Retry-After, and the build goes on for the others.
func TestFirstSearchesShareOneBuild(t *testing.T) {
	cs, f := ownWorld(t)
	_, full := demoSnapshot(t)
	texts := map[string]bool{}
	for _, e := range full.entries {
		texts[e.text] = true
	}
	req, err := Validate(uncapped(Params{PersonaID: IDs{full.entries[0].C.PersonaID}}))
	if err != nil {
		t.Fatal(err)
	}
	want, err := f.svc.Search(context.Background(), testOrg, req)
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	var graph os.FileInfo
	for _, start := range []string{"fresh", "restart"} {
		t.Run(start, func(t *testing.T) {
			emb := newGatedEmbedder(f.svc.embedder)
			svc := New(Deps{Contacts: cs, Companies: f.svc.companies, Embedder: emb, Dir: dir})
			firstSearches(t, svc, emb, req, ids(want))
			if got := emb.took(); got != len(texts) {
				t.Errorf("%d texts embedded; want each of the %d distinct texts once", got, len(texts))
			}
			files, err := filepath.Glob(filepath.Join(dir, "*.hnsw"))
			if err != nil || len(files) != 1 {
				t.Fatalf("graph files %v (%v); want one", files, err)
			}
			fi, err := os.Stat(files[0])
			if err != nil {
				t.Fatal(err)
			}
			if graph != nil && (fi.Name() != graph.Name() || !fi.ModTime().Equal(graph.ModTime())) {
				t.Errorf("the restart wrote the graph again (%s, %v; saved %s, %v): want it loaded", fi.Name(), fi.ModTime(), graph.Name(), graph.ModTime())
			}
			graph = fi
		})
	}
}

// firstSearches runs concurrent searches on svc before it has a snapshot: the first
// caller starts the build and gives up while emb holds it, twenty more arrive, and the
// build is let go. Every other caller must get want.
func firstSearches(t *testing.T, svc *Service, emb *gatedEmbedder, req Request, want []int64) {
	t.Helper()
	ctx := context.Background()
	giveUp, cancel := context.WithCancel(ctx)
	quit := make(chan error, 1)
	go func() {
		_, err := svc.Search(giveUp, testOrg, req)
		quit <- err
	}()
	<-emb.started

	const n = 20
	got := make([]Response, n)
	errs := make([]error, n)
	var wg sync.WaitGroup
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			got[i], errs[i] = svc.Search(ctx, testOrg, req)
		}()
	}
	cancel()
	err := <-quit
	if d := apperr.Describe(err); d.Status != http.StatusServiceUnavailable || d.RetryAfter < time.Second || !errors.Is(err, context.Canceled) {
		t.Errorf("the caller that gave up: %v (status %d, Retry-After %v); want a 503 with Retry-After wrapping its ctx's error", err, d.Status, d.RetryAfter)
	}
	close(emb.release)
	wg.Wait()
	for i := range n {
		if errs[i] != nil {
			t.Fatalf("search %d: %v", i, errs[i])
		}
		if g := ids(got[i]); !slices.Equal(g, want) {
			t.Fatalf("search %d: %d contacts, want the %d of the built service", i, len(g), len(want))
		}
	}
}
