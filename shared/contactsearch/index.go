package contactsearch

import (
	"context"
	"errors"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"runtime"
	"sort"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/firmoapi/firmo/shared/company"
	"github.com/firmoapi/firmo/shared/company/contactfields"
	"github.com/firmoapi/firmo/shared/contact"
	"github.com/firmoapi/firmo/shared/emailpattern"
	"github.com/firmoapi/firmo/shared/geo"
	"github.com/firmoapi/firmo/shared/hnswindex"
	"github.com/firmoapi/firmo/shared/vector"
)

// companyInfo is what a search needs of an employer.
type companyInfo struct {
	Domain         string
	Name           string
	Employees      string
	Revenue        string
	Industries     []string // enum values, best score first
	IndustryGroups map[string]float64
	Country        string
	StateCode      string // full ISO 3166-2 code, "" when unknown
	StateName      string
	Pattern        *emailpattern.Pattern
	signal         signalDoc // what the icp_prompt company search reads (signals.go)
}

// entry is one contact of the snapshot with its precomputed filter fields.
type entry struct {
	C           contact.Contact
	Co          *companyInfo
	PersonState string // full ISO 3166-2 code of the person, "" when unknown
	nameFold    string
	summaryFold string   // " folded summary "
	skills      []string // lowercased, as listed
	hasLinkedin bool
	text        string // what is embedded: title, skills, summary
}

// snapshot is the in-memory search index over every contact: a table scanned by the
// filters and an HNSW graph over the contacts' embeddings.
type snapshot struct {
	entries   []entry
	byID      map[int64]int
	companies map[string]*companyInfo
	vecs      [][]float32 // by entry index, unit length
	// index is the HNSW graph; nil while Prepare's graph is being built, when searches
	// scan every vector exactly instead (scan).
	index   atomic.Pointer[hnswindex.Index]
	built   time.Time
	signals lazyCompanyIndex // the icp_prompt company search, built on first use
	post    *postings        // entries per filter value, narrowing the filter scan (postings.go)
}

// CompanyLister pages through the company store (company.Store satisfies it).
type CompanyLister interface {
	List(ctx context.Context, cursor string, limit int) (recs []company.Record, next string, err error)
}

func companyOf(rec company.Record) *companyInfo {
	// The same fields the OpenSearch adapter writes into contact documents.
	f := contactfields.Of(rec)
	return &companyInfo{Domain: f.Domain, Name: f.Name, Employees: f.Employees, Revenue: f.Revenue,
		Industries: f.Industries, IndustryGroups: f.IndustryGroups, Country: f.Country,
		StateCode: f.StateCode, StateName: f.StateName, signal: f.Signal.Texts()}
}

func embedText(c contact.Contact) string {
	parts := []string{c.Title}
	if len(c.Skills) > 0 {
		parts = append(parts, strings.Join(c.Skills, ", "))
	}
	if c.Summary != nil {
		parts = append(parts, *c.Summary)
	}
	s := strings.TrimSpace(strings.Join(parts, ". "))
	if s == "" || strings.Trim(s, ". ") == "" {
		s = c.Name // an untitled contact still needs a place
	}
	return s
}

// graph is the snapshot's HNSW graph, nil until it is built (see index).
func (sn *snapshot) graph() *hnswindex.Index { return sn.index.Load() }

// build loads every contact and company and embeds the contacts. prev, when given,
// donates the vectors of contacts whose text did not change, so a refresh embeds only
// what is new. With deferGraph, a graph that must be built from scratch is not: fill
// builds it into the snapshot, which searches by exact scan until then.
func (s *Service) build(ctx context.Context, prev *snapshot, deferGraph bool) (sn *snapshot, fill func(context.Context) error, err error) {
	sn = &snapshot{byID: map[int64]int{}, companies: map[string]*companyInfo{}, built: time.Now()}
	cursor := ""
	for {
		recs, next, err := s.companies.List(ctx, cursor, 500)
		if err != nil {
			return nil, nil, fmt.Errorf("load companies: %w", err)
		}
		for _, r := range recs {
			sn.companies[r.Domain] = companyOf(r)
		}
		if next == "" {
			break
		}
		cursor = next
	}
	learner := emailpattern.NewLearner()
	err = s.contacts.List(ctx, func(r contact.Raw) error {
		c := contact.Derive(r)
		co := sn.companies[r.Domain]
		if co == nil {
			co = &companyInfo{Domain: r.Domain}
			sn.companies[r.Domain] = co
		}
		c.CompanyName, c.Employees, c.RevenueRange = co.Name, co.Employees, co.Revenue
		if c.RevenueRange == "" {
			c.RevenueRange = company.RevenueUnknown
		}
		// Shared, read only, by the company's contacts: a copy each costs a slice per contact.
		c.Industry = co.Industries
		if c.Industry == nil {
			c.Industry = []string{}
		}
		e := entry{C: c, Co: co, nameFold: fold(c.Name), hasLinkedin: r.LinkedinURL != ""}
		if r.State != "" && r.Country != "" {
			e.PersonState, _ = geo.ResolveState(r.Country, r.State)
		}
		if c.Summary != nil {
			e.summaryFold = " " + fold(*c.Summary) + " "
		}
		sk := make([]string, len(c.Skills))
		for i, v := range c.Skills {
			sk[i] = strings.ToLower(v)
		}
		e.skills = sk
		e.text = embedText(c)
		sn.byID[c.PersonaID] = len(sn.entries)
		sn.entries = append(sn.entries, e)
		learner.Add(r.Domain, r.Name, r.Email)
		return nil
	})
	if err != nil {
		return nil, nil, err
	}
	for d, p := range learner.Patterns() {
		sn.companies[d].Pattern = &p
	}
	// Entries sorted by persona id, so filter-mode results come in a stable order.
	sort.Slice(sn.entries, func(i, j int) bool { return sn.entries[i].C.PersonaID < sn.entries[j].C.PersonaID })
	for i, e := range sn.entries {
		sn.byID[e.C.PersonaID] = i
	}
	sn.post = postingsOf(sn.entries)
	fill, err = s.embedAll(ctx, sn, prev)
	if err != nil {
		return nil, nil, err
	}
	if fill != nil && !deferGraph {
		if err := fill(ctx); err != nil {
			return nil, nil, err
		}
		fill = nil
	}
	return sn, fill, nil
}

// embedBatch bounds one Embed call.
const embedBatch = 256

// embedAll gives every entry its vector and sets up the vector index: the HNSW graph,
// reused or loaded when it can be, else returned as fill, the build the caller runs.
func (s *Service) embedAll(ctx context.Context, sn *snapshot, prev *snapshot) (fill func(context.Context) error, err error) {
	dims := s.embedder.Dims()
	todo, err := s.embedMissing(ctx, sn, func(i int) []float32 { return prevVector(prev, sn.entries[i]) })
	if err != nil {
		return nil, err
	}
	// The graph is rebuilt only when something changed; an unchanged world reuses it
	// (once built: one still being built by Prepare's fill is not waited for), and a
	// graph persisted under the data dir for the same contacts is loaded, not rebuilt.
	if prev != nil && len(todo) == 0 && len(prev.entries) == len(sn.entries) {
		if g := prev.graph(); g != nil {
			g.SetRows(sn.row)
			sn.index.Store(g)
			return nil, nil
		}
	}
	idx := newGraph(dims)
	path := s.indexPath(sn)
	if path != "" && len(todo) == len(sn.entries) {
		if err := idx.LoadFile(path); err == nil {
			if n, _ := idx.Len(ctx); n == len(sn.entries) {
				idx.SetRows(sn.row)
				sn.index.Store(idx)
				return nil, nil
			}
			idx = newGraph(dims)
		}
	}
	idx.SetRows(sn.row)
	return func(ctx context.Context) error {
		if err := insertAll(ctx, idx, sn); err != nil {
			return err
		}
		sn.index.Store(idx)
		if path != "" {
			if err := os.MkdirAll(filepath.Dir(path), 0o755); err == nil {
				_ = idx.SaveFile(path) // a cache: failing to write it costs a rebuild next start
			}
		}
		return nil
	}, nil
}

// nearest is a similarity search over the snapshot: the graph, or an exact scan while
// it is not built yet.
func (s *Service) nearest(ctx context.Context, sn *snapshot, q []float32, k int, f vector.Filter) ([]vector.Hit, error) {
	g := sn.graph()
	if g == nil {
		return sn.scan(ctx, q, k, f)
	}
	hits, err := g.Search(ctx, q, k, f)
	if err != nil {
		return nil, err
	}
	sn.rescore(q, hits)
	return hits, nil
}

// rescore replaces the graph's scores, computed on its half-precision copies of the
// vectors, by the cosine with the snapshot's float32 vectors, and re-sorts. Near-ties among
// the returned candidates then fall the way an exact search orders them (it decides which
// c-1 contacts a consensus search adds, and which ten come first), and the similarity a
// result shows is exact. It costs one dot product per hit.
func (sn *snapshot) rescore(q []float32, hits []vector.Hit) {
	for i, h := range hits {
		if j, ok := sn.byID[h.ID]; ok && len(sn.vecs[j]) == len(q) {
			hits[i].Score = vector.Dot(q, sn.vecs[j])
		}
	}
	vector.SortHits(hits)
}

// scan is the exact search that stands in for the graph while Prepare's fill builds
// it: every contact the filter admits is scored (the demo world's 27,405 contacts in
// a few milliseconds). Its answer is what the graph approximates.
func (sn *snapshot) scan(ctx context.Context, q []float32, k int, f vector.Filter) ([]vector.Hit, error) {
	if f.IDs != nil {
		top := vector.NewTopK(k)
		for n, id := range f.IDs {
			if n%4096 == 0 && ctx.Err() != nil {
				return nil, ctx.Err()
			}
			if i, ok := sn.byID[id]; ok && (f.Allow == nil || f.Allow(id)) {
				top.Push(vector.Hit{ID: id, Score: vector.Dot(q, sn.vecs[i])})
			}
		}
		return top.Sorted(), nil
	}
	top := vector.NewTopK(k)
	for i, e := range sn.entries {
		if i%4096 == 0 && ctx.Err() != nil {
			return nil, ctx.Err()
		}
		if id := e.C.PersonaID; f.Allow == nil || f.Allow(id) {
			top.Push(vector.Hit{ID: id, Score: vector.Dot(q, sn.vecs[i])})
		}
	}
	return top.Sorted(), nil
}

// row is the vector of the contact with this persona id, nil when the snapshot has none:
// the graph re-ranks its final candidates on these full-precision rows (hnswindex.Rows),
// so its answers order ties exactly as scan does.
func (sn *snapshot) row(id int64) []float32 {
	if i, ok := sn.byID[id]; ok {
		return sn.vecs[i]
	}
	return nil
}

// prevVector is prev's vector of e when e's embedded text did not change; else nil.
func prevVector(prev *snapshot, e entry) []float32 {
	if prev != nil {
		if j, ok := prev.byID[e.C.PersonaID]; ok && prev.entries[j].text == e.text {
			return prev.vecs[j]
		}
	}
	return nil
}

// embedMissing sets sn.vecs: donor(i) may supply entry i's vector; the others are
// embedded in batches of embedBatch, each distinct text once (entries with the same text,
// common when titles repeat without a summary, share one vector slice). It returns the
// indices of the entries given a fresh vector.
func (s *Service) embedMissing(ctx context.Context, sn *snapshot, donor func(i int) []float32) ([]int, error) {
	sn.vecs = make([][]float32, len(sn.entries))
	var todo, texts []int // todo: entries without a donor; texts: the first entry of each text
	first := map[string]int{}
	for i := range sn.entries {
		if v := donor(i); v != nil {
			sn.vecs[i] = v
			continue
		}
		todo = append(todo, i)
		if _, ok := first[sn.entries[i].text]; !ok {
			first[sn.entries[i].text] = i
			texts = append(texts, i)
		}
	}
	for start := 0; start < len(texts); start += embedBatch {
		end := min(start+embedBatch, len(texts))
		batch := make([]string, 0, end-start)
		for _, i := range texts[start:end] {
			batch = append(batch, sn.entries[i].text)
		}
		vs, err := s.embedder.Embed(ctx, batch)
		if err != nil {
			return nil, fmt.Errorf("embed contacts: %w", err)
		}
		for k, i := range texts[start:end] {
			sn.vecs[i] = vs[k]
		}
	}
	for _, i := range todo {
		sn.vecs[i] = sn.vecs[first[sn.entries[i].text]]
	}
	return todo, nil
}

// graphConfig is the contact graph's: the index's defaults, compact (8-bit codes in the
// graph, every answer re-scored on the snapshot's float32 rows, sn.row; hnswindex
// Config.Compact), with each search's breadth set by graphBreadth (newGraph). At 100,000
// contacts the compact graph searched every kind of BenchmarkScale in less CPU than the
// half-precision one, at the same or higher recall (BENCHMARKS.md, "The compact graph").
// A graph saved by a half-precision build (file version 3) is refused on load and rebuilt.
func graphConfig() hnswindex.Config { return hnswindex.Config{Seed: 1, Compact: true} }

// newGraph is an empty contact graph searching by graphBreadth.
func newGraph(dims int) *hnswindex.Index {
	g := hnswindex.New(dims, graphConfig())
	g.SetBreadth(graphBreadth)
	return g
}

// graphBreadth is contact search's breadth rule (hnswindex.Breadth), chosen from
// BenchmarkBreadth's sweep of its query shapes at 100,000 and 1,000,000 contacts
// (BENCHMARKS.md, "The graph's breadth"): k is what a page asks for (12, 31, 62, 125 for
// pages of 10 to 100; 400 under per-company caps), sel the share of contacts the filter
// admits. Each setting is the cheapest the sweep found within 0.003 of the best recall@k
// any breadth reached for that shape at 1M:
//   - unfiltered or broad (sel >= 0.5): ef max(128, k + min(k, 128)/2) from 64 layer-1
//     entry points. Unfiltered at 1M, ef 64 (before) left recall@12 at 0.978 and recall@62
//     at 0.970; ef 128 reaches 0.990 (the best of any breadth) for 0.05 to 0.1 ms more. 64
//     entry points cost 10 to 15% more than 16 on this graph for the same recall, but kept
//     a weaker build's whole neighbourhoods in reach (hnswindex Config.EfUpper).
//   - filtered (sel < 0.5): ef max(48, k) from 16. A filtered walk passes about 1/sel
//     nodes for each admitted one, so it already looks wide: at 12% and 30% of 1M, ef 48
//     for k 12 and 31 and ef k above came within 0.003 of the best recall, and 64 entry
//     points only added time.
//
// Narrow filters are scanned exactly instead (the index's cost model, hnswindex plan; at 1M
// from a few percent of the contacts down), which the sweep found cheaper at every k.
func graphBreadth(k int, sel float64) (ef, efUpper int) {
	if sel >= 0.5 {
		return max(128, k+min(k, 128)/2), 64
	}
	return max(48, k), 16
}

// parallelBuild is the size from which the graph is built by two writers (hnswindex inserts
// concurrently; a million contacts take half the time). Smaller worlds keep one writer and
// so the reproducible graph of Config.Seed.
const parallelBuild = 20_000

func insertAll(ctx context.Context, idx *hnswindex.Index, sn *snapshot) error {
	writers := 1
	if len(sn.entries) >= parallelBuild {
		writers = min(2, runtime.GOMAXPROCS(0))
	}
	idx.Reserve(len(sn.entries))
	return parallel(writers, len(sn.entries), func(i int) error {
		if err := idx.Upsert(ctx, sn.entries[i].C.PersonaID, sn.vecs[i]); err != nil {
			return fmt.Errorf("index persona %d: %w", sn.entries[i].C.PersonaID, err)
		}
		return nil
	})
}

// parallel runs fn(0..n-1) on workers goroutines, each taking every workers-th k; a
// goroutine stops at its first error, and the errors come back joined.
func parallel(workers, n int, fn func(k int) error) error {
	errs := make([]error, workers)
	var wg sync.WaitGroup
	for w := range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for k := w; k < n; k += workers {
				if err := fn(k); err != nil {
					errs[w] = err
					return
				}
			}
		}()
	}
	wg.Wait()
	return errors.Join(errs...)
}

// indexPath names the persisted graph by a fingerprint of the embedded texts, so a
// changed world never loads a stale graph.
func (s *Service) indexPath(sn *snapshot) string {
	if s.dir == "" {
		return ""
	}
	var h uint64 = 1469598103934665603
	for _, e := range sn.entries {
		for _, b := range []byte(fmt.Sprintf("%d|%s\n", e.C.PersonaID, e.text)) {
			h = (h ^ uint64(b)) * 1099511628211
		}
	}
	// The same texts embedded by another embedder (FIRMO_EMBEDDER, a retrained model) give
	// other vectors: a sample of the vectors joins the fingerprint, so such a graph is not
	// loaded either.
	for i := 0; i < len(sn.vecs); i += 997 {
		for _, x := range sn.vecs[i] {
			h = (h ^ uint64(math.Float32bits(x))) * 1099511628211
		}
	}
	return filepath.Join(s.dir, fmt.Sprintf("contacts-%016x.hnsw", h))
}

// similarity turns a cosine into the API reference's 0-100 score.
func similarity(score float32) int {
	v := int(math.Round(float64(score) * 100))
	return max(0, min(100, v))
}

var _ vector.Index = (*hnswindex.Index)(nil)
