package contactsearch

import (
	"context"
	"errors"
	"path/filepath"
	"sync"
	"testing"

	"github.com/firmoapi/firmo/shared/apperr"
	"github.com/firmoapi/firmo/shared/contact"
	"github.com/firmoapi/firmo/shared/embed"
	"github.com/firmoapi/firmo/shared/embed/ppmiembed"
	"github.com/firmoapi/firmo/shared/kv/boltkv"
	"github.com/firmoapi/firmo/shared/vector"
)

// memRemote is an in-memory RemoteIndex (documents in a map, vectors in an exact
// index) that counts what contact search asks of it. OpenSearch itself is covered by
// osindex's golden and live suites.
type memRemote struct {
	mu       sync.Mutex
	docs     map[int64]Document
	exact    *vector.Exact
	ensured  int
	stored   int   // Stored calls
	written  []int // documents per Put call (empty calls included)
	removed  []int64
	searches []vector.Filter
	failPuts int // the next failPuts Put calls fail
}

func newMemRemote(dims int) *memRemote {
	return &memRemote{docs: map[int64]Document{}, exact: vector.NewExact(dims)}
}

func (m *memRemote) Dims() int { return m.exact.Dims() }

// MaxCandidates is OpenSearch's default terms limit, so searches take the ways they take
// against osindex.
func (m *memRemote) MaxCandidates() int { return testMaxCandidates }

const testMaxCandidates = 65_536

func (m *memRemote) EnsureIndex(context.Context) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.ensured++
	return nil
}

func (m *memRemote) Stored(_ context.Context, fn func(int64, string, []float32) error) error {
	m.mu.Lock()
	m.stored++
	docs := make([]Document, 0, len(m.docs))
	for _, d := range m.docs {
		docs = append(docs, d)
	}
	m.mu.Unlock()
	for _, d := range docs {
		if err := fn(d.PersonaID, d.FP, d.Vector); err != nil {
			return err
		}
	}
	return nil
}

func (m *memRemote) Put(ctx context.Context, docs []Document) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.failPuts > 0 {
		m.failPuts--
		return apperr.ErrUnavailable
	}
	m.written = append(m.written, len(docs))
	for _, d := range docs {
		m.docs[d.PersonaID] = d
		if err := m.exact.Upsert(ctx, d.PersonaID, d.Vector); err != nil {
			return err
		}
	}
	return nil
}

func (m *memRemote) Remove(ctx context.Context, ids []int64) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	for _, id := range ids {
		delete(m.docs, id)
		m.exact.Delete(ctx, id)
		m.removed = append(m.removed, id)
	}
	return nil
}

func (m *memRemote) Search(ctx context.Context, q []float32, k int, f vector.Filter) ([]vector.Hit, error) {
	m.mu.Lock()
	m.searches = append(m.searches, f)
	m.mu.Unlock()
	return m.exact.Search(ctx, q, k, f)
}

// totalWritten is the number of documents written since mark.
func (m *memRemote) totalWritten(mark int) int {
	m.mu.Lock()
	defer m.mu.Unlock()
	n := 0
	for _, w := range m.written[mark:] {
		n += w
	}
	return n
}

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

// remoteWorld copies the demo world's contacts into a store of the test's own, so the
// test can change contacts without touching the shared fixture.
func remoteWorld(t *testing.T) (*contact.Store, *fixture) {
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

func TestRemoteSyncWritesOnlyChanges(t *testing.T) {
	ctx := context.Background()
	cs, f := remoteWorld(t)
	emb := &countingEmbedder{Embedder: ppmiembed.New()}
	mem := newMemRemote(emb.Dims())
	// A document of a contact that no longer exists, left by an earlier deployment.
	stale := Document{PersonaID: 987654321, FP: "old", Vector: make([]float32, emb.Dims())}
	stale.Vector[0] = 1
	if err := mem.Put(ctx, []Document{stale}); err != nil {
		t.Fatal(err)
	}
	mark := len(mem.written)
	newService := func() *Service {
		return New(Deps{Contacts: cs, Companies: f.svc.companies, Embedder: emb, Remote: mem})
	}
	svc := newService()
	if err := svc.Refresh(ctx); err != nil {
		t.Fatal(err)
	}
	n := len(svc.snap.entries)
	if got := mem.totalWritten(mark); got != n {
		t.Fatalf("first sync wrote %d documents, want every contact (%d)", got, n)
	}
	for _, w := range mem.written[mark:] {
		if w > remoteBatch {
			t.Fatalf("a bulk write carried %d documents, more than %d", w, remoteBatch)
		}
	}
	if len(mem.removed) != 1 || mem.removed[0] != stale.PersonaID || mem.ensured != 1 {
		t.Fatalf("removed %v (want the stale document), EnsureIndex calls %d (want 1)", mem.removed, mem.ensured)
	}
	emb.took()

	t.Run("unchanged refresh writes nothing", func(t *testing.T) {
		mark, stored := len(mem.written), mem.stored
		if err := svc.Refresh(ctx); err != nil {
			t.Fatal(err)
		}
		if got := mem.totalWritten(mark); got != 0 || emb.took() != 0 || mem.stored != stored {
			t.Fatalf("wrote %d, read the index %d more times; want nothing", got, mem.stored-stored)
		}
	})

	var changed contact.Raw
	t.Run("a changed contact is embedded and written alone", func(t *testing.T) {
		first := svc.snap.entries[0].C.PersonaID
		r, err := cs.Get(ctx, first)
		if err != nil {
			t.Fatal(err)
		}
		r.Title = "Chief Kubernetes Gardener"
		if _, err := cs.Put(ctx, r); err != nil {
			t.Fatal(err)
		}
		changed = r
		mark := len(mem.written)
		if err := svc.Refresh(ctx); err != nil {
			t.Fatal(err)
		}
		if got, embedded := mem.totalWritten(mark), emb.took(); got != 1 || embedded != 1 {
			t.Fatalf("wrote %d documents, embedded %d texts; want 1 and 1", got, embedded)
		}
		if d := mem.docs[first]; d.Title != r.Title || d.FP == "" || len(d.Vector) != emb.Dims() {
			t.Fatalf("document = %+v", d)
		}
	})

	t.Run("a cold start reuses what the index holds", func(t *testing.T) {
		mark, stored := len(mem.written), mem.stored
		cold := newService()
		if err := cold.Refresh(ctx); err != nil {
			t.Fatal(err)
		}
		if got, embedded := mem.totalWritten(mark), emb.took(); got != 0 || embedded != 0 || mem.stored != stored+1 {
			t.Fatalf("cold start wrote %d, embedded %d, read the index %d times; want 0, 0, 1", got, embedded, mem.stored-stored)
		}
		i := cold.snap.byID[changed.PersonaID]
		if v := mem.docs[changed.PersonaID].Vector; vector.Dot(v, cold.snap.vecs[i]) < 0.9999 {
			t.Fatal("the cold snapshot's vector is not the stored one")
		}
	})

	t.Run("a failed write is redone from what the index holds", func(t *testing.T) {
		r := changed
		r.Title = "Head of Platform Engineering"
		if _, err := cs.Put(ctx, r); err != nil {
			t.Fatal(err)
		}
		mem.failPuts = 1
		if err := svc.Refresh(ctx); !errors.Is(err, apperr.ErrUnavailable) {
			t.Fatalf("refresh with the index down: %v", err)
		}
		stored := mem.stored
		if err := svc.Refresh(ctx); err != nil {
			t.Fatal(err)
		}
		if mem.stored != stored+1 || mem.docs[r.PersonaID].Title != r.Title {
			t.Fatalf("after the failure: index read %d times (want 1), title %q", mem.stored-stored, mem.docs[r.PersonaID].Title)
		}
	})
}

func TestRemoteSearch(t *testing.T) {
	ctx := context.Background()
	f := demo(t)
	emb := ppmiembed.New()
	mem := newMemRemote(emb.Dims())
	svc := New(Deps{Contacts: f.svc.contacts, Companies: f.svc.companies, Embedder: emb, Remote: mem})
	if err := svc.Refresh(ctx); err != nil {
		t.Fatal(err)
	}
	sn := svc.snap
	bruteForce := func(q []float32, k int, allow func(int) bool) []int64 {
		top := vector.NewTopK(k)
		for i, e := range sn.entries {
			if allow(i) {
				top.Push(vector.Hit{ID: e.C.PersonaID, Score: vector.Dot(q, sn.vecs[i])})
			}
		}
		var ids []int64
		for _, h := range top.Sorted() {
			ids = append(ids, h.ID)
		}
		return ids
	}
	q, err := emb.Embed(ctx, []string{"head of software development, kubernetes"})
	if err != nil {
		t.Fatal(err)
	}
	var tech []int64
	for _, e := range sn.entries {
		if e.C.Department == "Technology" {
			tech = append(tech, e.C.PersonaID)
		}
	}
	isTech := map[int64]bool{}
	for _, id := range tech {
		isTech[id] = true
	}
	cases := []struct {
		name       string
		filter     vector.Filter
		allow      func(i int) bool
		wantRemote bool
	}{
		{"every contact: k-NN in the index", vector.Filter{}, func(int) bool { return true }, true},
		{"every contact as a candidate list: k-NN without a filter", vector.Filter{IDs: sn.ids()}, func(int) bool { return true }, true},
		{"few candidates: exact in memory", vector.Filter{IDs: tech}, func(i int) bool { return isTech[sn.entries[i].C.PersonaID] }, false},
		{"a predicate becomes the candidate list", vector.Filter{Allow: func(id int64) bool { return isTech[id] }}, func(i int) bool { return isTech[sn.entries[i].C.PersonaID] }, false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			before := len(mem.searches)
			hits, err := svc.nearest(ctx, sn, q[0], 10, c.filter)
			if err != nil {
				t.Fatal(err)
			}
			if got := len(mem.searches) > before; got != c.wantRemote {
				t.Fatalf("searched the remote index: %v, want %v", got, c.wantRemote)
			}
			if c.wantRemote && mem.searches[len(mem.searches)-1].IDs != nil {
				t.Fatal("a search over every contact sent a candidate list")
			}
			want := bruteForce(q[0], 10, c.allow)
			if len(hits) != len(want) {
				t.Fatalf("got %d hits, want %d", len(hits), len(want))
			}
			for i := range want {
				if hits[i].ID != want[i] {
					t.Fatalf("hit %d = %d, want %d (exact order %v)", i, hits[i].ID, want[i], want)
				}
			}
		})
	}
	t.Run("a similarity search end to end", func(t *testing.T) {
		req, err := Validate(Params{IcpText: "head of software development, kubernetes"})
		if err != nil {
			t.Fatal(err)
		}
		resp, err := svc.Search(ctx, testOrg, req)
		if err != nil {
			t.Fatal(err)
		}
		got := resp.Contacts()
		if len(got) == 0 || got[0].Similarity == nil {
			t.Fatalf("got %d contacts (first similarity %v)", len(got), got)
		}
	})
}

func TestRemoteWay(t *testing.T) {
	ids := func(n int) []int64 { return make([]int64, n) }
	cases := []struct {
		name  string
		ids   []int64
		total int
		want  searchWay
	}{
		{"no filter", nil, 1_000_000, wayKNN},
		{"every contact", ids(10), 10, wayKNN},
		{"small set (5,208 x 384 <= 2M)", ids(5208), 1_000_000, wayExact},
		{"medium set", ids(5209), 1_000_000, wayKNNFiltered},
		{"at the terms limit", ids(testMaxCandidates), 1_000_000, wayKNNFiltered},
		{"past the terms limit", ids(testMaxCandidates + 1), 1_000_000, wayExact},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if got := remoteWay(c.ids, c.total, 384, testMaxCandidates); got != c.want {
				t.Errorf("got %d, want %d", got, c.want)
			}
		})
	}
}
