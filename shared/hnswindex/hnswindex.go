// Package hnswindex is the embedded approximate adapter of the vector.Index port: a
// Hierarchical Navigable Small World graph (Malkov & Yashunin, 2016) written for Firmo, kept in
// memory and persisted as one file under the data dir.
//
// Layout: node numbers are dense uint32s; vectors live in one slab of half-precision floats
// (768 bytes for 384 dims: a search waits on memory, so halving the bytes read speeds it up;
// the rounding moves a cosine by about 1e-4) and layer-0 neighbour lists in one []uint32
// slab (count + up to 2M ids per node), so a search touches few cache lines and saving is a
// straight copy. Vectors are normalized on insert; queries stay float32; the distance is
// 1 - dot, which orders like cosine distance. A Config.Compact graph keeps 8-bit codes in
// place of the half-precision rows, half the bytes again, and re-scores its final candidates
// on the caller's float32 rows (compact.go). With SetCodes(true) searches take their first
// pass on an 8-bit copy of each row (a per-vector scale, 384 bytes) and re-score on the
// half-precision rows: a walk
// re-scores what it returns, an exact scan every candidate the codes' error bound cannot rule
// out (scan.go), so exact plans answer as a half-precision scan would.
//
// Filtered search follows OpenSearch's rule: when candidates x dims <= vector.ExactThreshold
// the candidates are scanned exactly. Past that it compares costs (see plan): a larger set is
// still scanned while that is cheaper than the walk; otherwise the graph is walked with the
// filter applied while walking (filtered-out nodes are still used to navigate, and the walk
// continues until ef admitted nodes are found, which widens it by about 1/selectivity).
//
// Searches descend greedily through the upper layers; with Config.EfUpper above 1 they
// search layer 1 that wide and start the layer-0 walk from all of those nodes, not from the
// one nearest: from a single entry point a walk can miss a whole neighbourhood that is
// connected but far along the graph (seen on one build of a million contacts).
//
// Updates: replacing or deleting an id leaves its old node in the graph as a tombstone that
// still routes searches but is never returned; Len counts live ids only.
//
// Identical vectors share one node: an id whose (half-precision) vector some node already
// holds joins that node instead of entering the graph. Real contact data is full of them
// (the same title and no summary, the same templated profile), and as separate nodes they
// break the graph: each twin's neighbour list fills with its twins (all at distance 0), the
// heuristic lets an outside node link to only one of them, and a cluster of hundreds ends up
// reachable through a link or two, or not at all. At a million contacts 52% of the vectors
// had a twin, and a search for a stored vector missed its own twins (recall@10 0.91). A hit
// on a shared node yields every live id on it that the filter admits.
package hnswindex

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"sync"

	"github.com/firmoapi/firmo/shared/vector"
)

// Config holds the graph parameters. Zero fields take the defaults.
type Config struct {
	M              int // neighbours per node on upper layers (layer 0 keeps 2M); default 16
	EfConstruction int // candidate list size while inserting; default 200
	EfSearch       int // candidate list size while searching, at least k; default 64
	// EfUpper is the candidate list size of a search on layer 1, all of whose results enter
	// layer 0; 1 (the default) is the paper's greedy descent to one entry point. A single
	// entry point can land where a layer-0 walk does not reach a whole neighbourhood: on one
	// build of a million contacts three of 100 title queries lost their entire top 10 that
	// way, and 64 entry points found two of them (recall@10 0.966 -> 0.990, about 10% more
	// time at ef 125). At small ef the beam costs relatively more (100k vectors, ef 64: 0.11
	// -> 0.17 ms), so contact search asks for 64 and the default stays 1. Not saved with the
	// graph (a search setting).
	EfUpper int
	Seed    uint64 // seeds the level draws, so a single-writer build is reproducible
	// Compact keeps each node's vector as 8-bit codes and a scale only (388 bytes for 384
	// dims) instead of a half-precision row (768): the graph is built and walked on the
	// codes, and the final candidates are re-ranked on the caller's full-precision rows
	// (SetRows), which every candidate the codes' error bound cannot rule out is read from
	// (compact.go). Without rows its scores are the codes' (off by up to
	// vector.Int8ErrorBound). Saved with the graph: a compact index loads only compact files.
	Compact bool
}

func (c Config) withDefaults() Config {
	if c.M <= 0 {
		c.M = 16
	}
	if c.EfConstruction <= 0 {
		c.EfConstruction = 200
	}
	if c.EfSearch <= 0 {
		c.EfSearch = 64
	}
	if c.EfUpper <= 0 {
		c.EfUpper = 1
	}
	return c
}

// maxLevels bounds the layer count: with M=16 the chance of a 16th layer is 16^-16.
const maxLevels = 16

// Index is the HNSW graph. Searches take a read lock and run in parallel; inserts find their
// neighbours under the read lock too and take the write lock only to link, so searches keep
// running during a build.
type Index struct {
	dims int
	cfg  Config
	m0   int     // layer-0 capacity: 2M
	ml   float64 // level multiplier 1/ln(M)

	mu       sync.RWMutex
	rng      *rand.Rand
	ids      []int64            // node -> its first live id (or the last one, once dead)
	more     map[uint32][]int64 // node -> the other live ids sharing its vector (few nodes have any)
	shared   []uint64           // bit per node: more is not empty (a small array a scan can test)
	byVec    twinTable          // finds the node holding a vector (twins.go)
	levels   []uint8
	dead     []bool
	vecs     []uint16  // node*dims, binary16 (see vector.ToHalf)
	codes    []int8    // node*dims, 8-bit codes of vecs: the first pass of searches (scan.go)
	scales   []float32 // node -> the scale of its codes
	resids   []float32 // Compact: node -> the largest residual of its ids' vectors (compact.go)
	links0   []uint32  // node*(m0+1): count, then neighbours
	upper    []uint32  // the upper layers of every node above layer 0, one slab (upperAt)
	upperAt  []uint32  // node -> where its upper layers start in upper: layer l at +(l-1)*(M+1), count first
	byID     idMap
	entry    uint32
	maxLevel int
	live     int
	tombs    int        // nodes left without ids
	halfOnly bool       // no codes (SetCodes): searches read the half-precision rows only
	compact  bool       // Config.Compact: codes and scales are the only vectors (vecs is empty)
	huge     *hugeSpans // what vecs, codes and links0 advised into huge pages (huge.go)
	rows     Rows       // full-precision rows the final candidates are re-ranked on (rerank.go)
	breadth  Breadth    // per-search ef and EfUpper (SetBreadth); nil: the Config's
	// Long exact scans split into parts (scan.go inParts): at most scanCores of them (0:
	// GOMAXPROCS), each of at least scanPart units of work (0: defaultScanPart).
	// Tests set both to split small scans.
	scanCores, scanPart int

	visited sync.Pool
	scratch sync.Pool // *scratch of inserts
	// Scratch of addLink, which runs under the write lock.
	linkCands []cand
	linkList  []uint32
}

// scratch is an insert's reusable memory: its normalized vector and its half-precision row.
// A build of a million vectors otherwise leaves 2.3 KB of garbage per insert, and the
// garbage collector lets the heap grow to twice what is live before it collects.
type scratch struct {
	v     []float32
	row   []uint16
	codes []int8 // Compact: the vector's codes
}

func (x *Index) getScratch() *scratch {
	if sc, ok := x.scratch.Get().(*scratch); ok {
		return sc
	}
	return &scratch{}
}

var (
	_ vector.Index      = (*Index)(nil)
	_ vector.Persistent = (*Index)(nil)
)

// New returns an empty index for vectors of the given dimension.
func New(dims int, cfg Config) *Index {
	cfg = cfg.withDefaults()
	x := &Index{
		dims:     dims,
		cfg:      cfg,
		m0:       2 * cfg.M,
		ml:       1 / math.Log(float64(cfg.M)),
		rng:      rand.New(rand.NewPCG(cfg.Seed, 0x5851f42d4c957f2d)),
		byID:     newIDMap(),
		more:     map[uint32][]int64{},
		maxLevel: -1,
		halfOnly: !cfg.Compact,
		compact:  cfg.Compact,
	}
	x.huge = newHugeSpans(x)
	return x
}

// Dims implements vector.Index.
func (x *Index) Dims() int { return x.dims }

// Config returns the graph parameters in force.
func (x *Index) Config() Config { return x.cfg }

// SetEfSearch changes the search breadth (recall against latency) for later searches.
func (x *Index) SetEfSearch(ef int) {
	x.mu.Lock()
	x.cfg.EfSearch = max(ef, 1)
	x.mu.Unlock()
}

// Reserve makes room for n nodes in all, so a bulk load of a known size grows no slab: a
// grown slab is copied, and until the copy ends the old one and the new one are both held,
// which at the last doubling is the peak of a whole build's memory.
func (x *Index) Reserve(n int) {
	x.mu.Lock()
	defer x.mu.Unlock()
	if n <= len(x.ids) {
		return
	}
	x.ids = slices.Grow(x.ids, n-len(x.ids))
	x.levels = slices.Grow(x.levels, n-len(x.levels))
	x.dead = slices.Grow(x.dead, n-len(x.dead))
	x.upperAt = slices.Grow(x.upperAt, n-len(x.upperAt))
	// About one node in M has upper layers, one layer in M of those a second, and so on.
	x.upper = slices.Grow(x.upper, (n/(x.cfg.M-1)+1)*(x.cfg.M+1))
	if !x.compact {
		x.vecs = reserveAdvised(x.huge, x.vecs, n*x.dims)
	}
	x.links0 = reserveAdvised(x.huge, x.links0, n*(x.m0+1))
	if !x.halfOnly {
		x.codes = reserveAdvised(x.huge, x.codes, n*x.dims)
		x.scales = slices.Grow(x.scales, n-len(x.scales))
	}
	if x.compact {
		x.resids = slices.Grow(x.resids, n-len(x.resids))
	}
	x.byVec.resize(x, n)
}

// SetEfUpper sets the candidate list size of searches on layer 1 (Config.EfUpper; 1: greedy).
func (x *Index) SetEfUpper(ef int) {
	x.mu.Lock()
	x.cfg.EfUpper = max(ef, 1)
	x.mu.Unlock()
}

// SetScanSplit makes long exact scans split into at most cores parts (0: GOMAXPROCS; 1:
// never split) of at least part units of work each (0: scan.go defaultScanPart). For
// tests, and for benchmarks that compare split and whole scans.
func (x *Index) SetScanSplit(cores, part int) {
	x.mu.Lock()
	defer x.mu.Unlock()
	x.scanCores, x.scanPart = cores, part
}

// SetCodes turns the 8-bit first pass of searches on or off (the default: off, and no codes
// are kept). An interleaved A/B at a million contacts measured it 3 to 7% slower through the
// contact-search service than reading the half-precision rows alone (the rows are waited for,
// not streamed, and the pass adds a re-score), so it stays an option to measure on other
// hardware. Turning it on derives the codes of every node. A Compact index keeps codes only
// and ignores it.
func (x *Index) SetCodes(on bool) {
	x.mu.Lock()
	defer x.mu.Unlock()
	if x.compact {
		return
	}
	x.halfOnly = !on
	releaseHuge(x.huge, x.codes)
	x.codes, x.scales = nil, nil
	if on {
		x.codes, x.scales = quantize(x.huge, x.vecs, x.dims)
	}
}

// Len implements vector.Index.
func (x *Index) Len(context.Context) (int, error) {
	x.mu.RLock()
	defer x.mu.RUnlock()
	return x.live, nil
}

// Delete implements vector.Index: the node stays as a tombstone that still routes searches.
func (x *Index) Delete(_ context.Context, id int64) error {
	x.mu.Lock()
	defer x.mu.Unlock()
	if n, ok := x.byID.get(id); ok {
		x.detach(id, n)
	}
	return nil
}

// detach takes id off node n; a node left without ids becomes a tombstone. Called under the
// write lock.
func (x *Index) detach(id int64, n uint32) {
	x.byID.del(id)
	x.live--
	more := x.more[n]
	switch {
	case x.ids[n] != id:
		i := slices.Index(more, id)
		more = slices.Delete(more, i, i+1)
	case len(more) > 0:
		x.ids[n] = more[len(more)-1]
		more = more[:len(more)-1]
	default:
		x.dead[n] = true
		x.tombs++
	}
	if len(more) == 0 {
		delete(x.more, n)
		x.shared[n>>6] &^= 1 << (n & 63)
	} else {
		x.more[n] = more
	}
}

// isShared reports whether node n holds more than one id.
func (x *Index) isShared(n uint32) bool { return x.shared[n>>6]&(1<<(n&63)) != 0 }

// attach puts id on node n, which holds the same vector (reviving a tombstone). Called
// under the write lock.
func (x *Index) attach(id int64, n uint32) {
	if x.dead[n] {
		x.dead[n] = false
		x.tombs--
		x.ids[n] = id
	} else {
		x.more[n] = append(x.more[n], id)
		x.shared[n>>6] |= 1 << (n & 63)
	}
	x.byID.set(id, n)
	x.live++
}

// vecKey is a vector as a node stores it: its half-precision row, or (Compact) its codes
// and their scale. Two ids share a node when their keys are equal.
type vecKey struct {
	half  []uint16
	codes []int8
	scale float32
	resid float32 // Compact: the residual of the vector behind the codes (not part of the key)
}

// hash is FNV-1a over the key's values.
func (k vecKey) hash() uint64 {
	h := uint64(14695981039346656037)
	for _, v := range k.half {
		h = (h ^ uint64(v)) * 1099511628211
	}
	for _, v := range k.codes {
		h = (h ^ uint64(uint8(v))) * 1099511628211
	}
	if k.codes != nil {
		h = (h ^ uint64(math.Float32bits(k.scale))) * 1099511628211
	}
	return h
}

// keyOf is node n's stored vector.
func (x *Index) keyOf(n uint32) vecKey {
	if x.compact {
		return vecKey{codes: x.codesOf(n), scale: x.scales[n]}
	}
	return vecKey{half: x.row(n)}
}

// holds reports whether node n stores the vector k.
func (x *Index) holds(n uint32, k vecKey) bool {
	if x.compact {
		return x.scales[n] == k.scale && slices.Equal(x.codesOf(n), k.codes)
	}
	return x.vecs[int(n)*x.dims] == k.half[0] && equalRows(x.row(n), k.half)
}

// twin returns the node already holding k, if any. Called under a lock.
func (x *Index) twin(k vecKey) (uint32, bool) {
	return x.byVec.find(x, k.hash(), k)
}

// Upsert implements vector.Index.
func (x *Index) Upsert(ctx context.Context, id int64, vec []float32) error {
	sc := x.getScratch()
	defer x.scratch.Put(sc)
	v, err := vector.CheckInto(sc.v, vec, x.dims)
	if err != nil {
		return fmt.Errorf("upsert %d: %w", id, err)
	}
	sc.v = v
	if err := ctx.Err(); err != nil {
		return fmt.Errorf("upsert %d: %w", id, err)
	}
	node, level, ep, epLevel, done := x.allocate(id, v, sc)
	if done {
		return nil
	}
	// Find the neighbours under the read lock: searches and other inserts go on meanwhile.
	x.mu.RLock()
	found := x.findNeighbours(v, ep, epLevel, level)
	x.mu.RUnlock()

	x.mu.Lock()
	defer x.mu.Unlock()
	for l := min(level, epLevel); l >= 0; l-- {
		x.setLinks(node, l, found[l])
		for _, nb := range found[l] {
			x.addLink(nb, node, l)
		}
	}
	if level > x.maxLevel {
		x.entry, x.maxLevel = node, level
	}
	return nil
}

// allocate appends a node for id (taking id off its earlier node) and returns the entry
// point to insert from. done is true when nothing is left to link: the node became the
// graph's only entry, or id joined a node that already holds its vector.
func (x *Index) allocate(id int64, v []float32, sc *scratch) (node uint32, level int, ep uint32, epLevel int, done bool) {
	var key vecKey
	if x.compact {
		if cap(sc.codes) < x.dims {
			sc.codes = make([]int8, x.dims)
		}
		key.codes = sc.codes[:x.dims]
		key.scale, key.resid = vector.QuantizeUnit(key.codes, v)
	} else {
		if cap(sc.row) < x.dims {
			sc.row = make([]uint16, x.dims)
		}
		key.half = sc.row[:x.dims]
		vector.ToHalf(key.half, v)
	}
	x.mu.Lock()
	defer x.mu.Unlock()
	if old, ok := x.byID.get(id); ok {
		if x.holds(old, key) {
			x.widenResid(old, key)
			return old, 0, 0, 0, true // the same vector again
		}
		x.detach(id, old)
	}
	if n, ok := x.twin(key); ok {
		x.widenResid(n, key)
		x.attach(id, n)
		return n, 0, 0, 0, true
	}
	level = min(int(-math.Log(1-x.rng.Float64())*x.ml), maxLevels-1)
	node = uint32(len(x.ids))
	x.ids = append(x.ids, id)
	if int(node>>6) >= len(x.shared) {
		x.shared = append(x.shared, 0)
	}
	x.levels = append(x.levels, uint8(level))
	x.dead = append(x.dead, false)
	switch {
	case x.compact:
		x.codes = appendAdvised(x.huge, x.codes, key.codes...)
		x.scales = append(x.scales, key.scale)
		x.resids = append(x.resids, key.resid)
	case x.halfOnly:
		x.vecs = appendAdvised(x.huge, x.vecs, key.half...)
	default:
		x.vecs = appendAdvised(x.huge, x.vecs, key.half...)
		x.codes = appendAdvised(x.huge, x.codes, make([]int8, x.dims)...)
		x.scales = append(x.scales, vector.QuantizeHalf(x.codes[int(node)*x.dims:], key.half))
	}
	x.byVec.add(x, key.hash(), node)
	x.links0 = appendAdvised(x.huge, x.links0, make([]uint32, x.m0+1)...)
	x.upperAt = append(x.upperAt, uint32(len(x.upper)))
	if level > 0 {
		x.upper = append(x.upper, make([]uint32, level*(x.cfg.M+1))...)
	}
	x.byID.set(id, node)
	x.live++
	if x.maxLevel < 0 {
		x.entry, x.maxLevel = node, level
		return node, level, 0, 0, true
	}
	return node, level, x.entry, x.maxLevel, false
}

// findNeighbours runs the insertion search: greedy descent to the node's top layer, then an
// efConstruction-wide search and neighbour selection on each layer it lives on.
func (x *Index) findNeighbours(v []float32, ep uint32, epLevel, level int) [][]uint32 {
	vis := x.getVisited()
	defer x.visited.Put(vis)
	q := x.newQuery(v, vis)
	cur := ep
	curDist := x.qdist(q, cur)
	for l := epLevel; l > level; l-- {
		cur, curDist = x.greedy(q, cur, curDist, l)
	}
	found := make([][]uint32, min(level, epLevel)+1)
	for l := min(level, epLevel); l >= 0; l-- {
		w := x.searchLayer(q, []cand{{curDist, cur}}, x.cfg.EfConstruction, l, nil, vis, false)
		found[l] = x.selectNeighbours(w, x.cfg.M)
		best := w[0]
		for _, c := range w {
			if c.d < best.d {
				best = c
			}
		}
		cur, curDist = best.n, best.d
	}
	return found
}

// greedy walks layer l towards v, one best neighbour at a time.
func (x *Index) greedy(q *query, cur uint32, curDist float32, l int) (uint32, float32) {
	for changed := true; changed; {
		changed = false
		nbs := x.neighbours(cur, l)
		x.prefetch(nbs, x.compact)
		for _, nb := range nbs {
			if d := x.qdist(q, nb); d < curDist {
				cur, curDist, changed = nb, d, true
			}
		}
	}
	return cur, curDist
}

func (x *Index) dist(v []float32, n uint32) float32 {
	if x.compact {
		return x.dist8(v, n)
	}
	return 1 - vector.DotHalf(v, x.row(n))
}

// dist8 is dist on n's 8-bit codes.
func (x *Index) dist8(v []float32, n uint32) float32 {
	off := int(n) * x.dims
	return 1 - x.scales[n]*vector.DotInt8(v, x.codes[off:off+x.dims:off+x.dims])
}

func (x *Index) distNodes(a, b uint32) float32 {
	if x.compact {
		return 1 - x.scales[a]*x.scales[b]*float32(vector.DotInt8s(x.codesOf(a), x.codesOf(b)))
	}
	return 1 - vector.DotHalves(x.row(a), x.row(b))
}

// codesOf is node n's 8-bit codes.
func (x *Index) codesOf(n uint32) []int8 {
	off := int(n) * x.dims
	return x.codes[off : off+x.dims : off+x.dims]
}

func (x *Index) row(n uint32) []uint16 {
	off := int(n) * x.dims
	return x.vecs[off : off+x.dims : off+x.dims]
}

// neighbours returns the current neighbour list of n on layer l (a view, read under a lock).
func (x *Index) neighbours(n uint32, l int) []uint32 {
	if l == 0 {
		off := int(n) * (x.m0 + 1)
		return x.links0[off+1 : off+1+int(x.links0[off])]
	}
	off := int(x.upperAt[n]) + (l-1)*(x.cfg.M+1)
	return x.upper[off+1 : off+1+int(x.upper[off])]
}

func (x *Index) setLinks(n uint32, l int, nbs []uint32) {
	var list []uint32
	if l == 0 {
		off := int(n) * (x.m0 + 1)
		list = x.links0[off : off+x.m0+1]
	} else {
		off := int(x.upperAt[n]) + (l-1)*(x.cfg.M+1)
		list = x.upper[off : off+x.cfg.M+1]
	}
	list[0] = uint32(copy(list[1:], nbs))
}

func (x *Index) capacity(l int) int {
	if l == 0 {
		return x.m0
	}
	return x.cfg.M
}

// addLink adds the back link n -> nb on layer l, pruning n's list with the heuristic when full.
func (x *Index) addLink(n, nb uint32, l int) {
	cur := x.neighbours(n, l)
	for _, c := range cur {
		if c == nb {
			return
		}
	}
	if len(cur) < x.capacity(l) {
		x.linkList = append(append(x.linkList[:0], cur...), nb)
		x.setLinks(n, l, x.linkList)
		return
	}
	cands := x.linkCands[:0]
	for _, c := range cur {
		cands = append(cands, cand{x.distNodes(n, c), c})
	}
	cands = append(cands, cand{x.distNodes(n, nb), nb})
	x.linkCands = cands
	x.setLinks(n, l, x.selectNeighbours(cands, x.capacity(l)))
}

// selectNeighbours is the paper's heuristic (algorithm 4): take candidates nearest first and
// keep one only if it is nearer to the base than to every neighbour kept so far. It keeps
// links pointing in different directions, which is what lets the graph cross between
// clusters.
func (x *Index) selectNeighbours(cands []cand, m int) []uint32 {
	sortCands(cands)
	out := make([]uint32, 0, m)
	for _, c := range cands {
		if len(out) >= m {
			break
		}
		keep := true
		for _, o := range out {
			if x.distNodes(c.n, o) < c.d {
				keep = false
				break
			}
		}
		if keep {
			out = append(out, c.n)
		}
	}
	return out
}

// searchLayer is the paper's algorithm 2 with a filter: every visited node steers the walk,
// only admitted nodes enter the result, and the walk stops once ef admitted nodes are held
// and no candidate can improve them. It returns up to ef admitted candidates, unordered.
//
// With codes the distances are taken on the 8-bit codes (scan.go), half the bytes of a
// row: a search reads its nodes' rows from all over memory, and the caller re-scores the
// result on the half-precision rows.
func (x *Index) searchLayer(q *query, eps []cand, ef, l int, admit func(uint32) bool, vis *visited, codes bool) []cand {
	codes = codes || x.compact
	vis.reset(len(x.ids))
	cs := vis.cs[:0] // candidates to expand, nearest first
	ws := vis.ws[:0] // results, farthest first
	defer func() { vis.cs, vis.ws = cs, ws }()
	for _, e := range eps {
		vis.mark(e.n)
		cs.push(e)
		if admit == nil || admit(e.n) {
			ws.push(e)
		}
	}
	bound := float32(math.Inf(1))
	if len(ws) > 0 {
		bound = ws.top().d
	}
	for len(cs) > 0 {
		c := cs.pop()
		if c.d > bound && len(ws) >= ef {
			break
		}
		if l == 0 && len(cs) > 0 {
			// The list expanded next, most likely: its cache misses overlap this scoring.
			vector.PrefetchUint32s(x.links0, int(cs[0].n)*(x.m0+1), linkLines)
		}
		fresh := vis.batch[:0]
		for _, nb := range x.neighbours(c.n, l) {
			if !vis.seen(nb) {
				vis.mark(nb)
				fresh = append(fresh, nb)
			}
		}
		vis.batch = fresh
		x.prefetch(fresh, codes)
		for _, nb := range fresh {
			var d float32
			switch {
			case x.compact:
				d = x.qdist(q, nb)
			case codes:
				d = x.dist8(q.v, nb)
			default:
				d = x.dist(q.v, nb)
			}
			if len(ws) < ef || d < bound {
				cs.push(cand{d, nb})
				if admit == nil || admit(nb) {
					ws.push(cand{d, nb})
					if len(ws) > ef {
						ws.pop()
					}
				}
				if len(ws) > 0 {
					bound = ws.top().d
				}
			}
		}
	}
	return ws
}

// Search implements vector.Index: it runs the plan PlanOf chooses.
func (x *Index) Search(ctx context.Context, query []float32, k int, f vector.Filter) ([]vector.Hit, error) {
	return x.search(ctx, query, k, f, nil)
}

// SearchPlan is Search run by the given plan instead of the one PlanOf would choose: an
// exact scan of what the filter admits, or a graph walk p.Ef wide (at least k) from p.EfUpper
// entry points (at least 1). For measurements that compare plans on the same queries.
func (x *Index) SearchPlan(ctx context.Context, query []float32, k int, f vector.Filter, p Plan) ([]vector.Hit, error) {
	return x.search(ctx, query, k, f, &p)
}

func (x *Index) search(ctx context.Context, query []float32, k int, f vector.Filter, forced *Plan) ([]vector.Hit, error) {
	if err := vector.CheckK(k); err != nil {
		return nil, err
	}
	q, err := vector.Check(query, x.dims)
	if err != nil {
		return nil, fmt.Errorf("search: %w", err)
	}
	x.mu.RLock()
	defer x.mu.RUnlock()
	if x.live == 0 {
		return nil, nil
	}
	var p Plan
	if forced != nil {
		p = *forced
		p.Ef, p.EfUpper = max(p.Ef, k), max(p.EfUpper, 1)
	} else {
		p = x.plan(f, k)
	}
	if p.Exact {
		if f.IDs != nil {
			return x.exact(q, k, func(kk int) ([]vector.Hit, error) { return x.exactIDs(q, kk, f), nil })
		}
		if f.Allow != nil {
			return x.exact(q, k, func(kk int) ([]vector.Hit, error) { return x.exactScanAllow(ctx, q, kk, f.Allow) })
		}
		admit, _ := x.admitter(f)
		return x.exact(q, k, func(kk int) ([]vector.Hit, error) { return x.exactScan(ctx, q, kk, admit, nil) })
	}
	admit, allowID := x.admitter(f)
	if !f.Active() && x.tombs == 0 {
		admit = nil // every node is live: the walk need not ask
	}
	hits := x.graphSearch(q, k, p.Ef, p.EfUpper, admit, allowID)
	if len(hits) < k && f.Active() {
		// The filter admits fewer nodes than the walk could reach: only a scan is sure to
		// find every one.
		return x.exact(q, k, func(kk int) ([]vector.Hit, error) { return x.exactScan(ctx, q, kk, admit, allowID) })
	}
	return hits, nil
}

// exact runs an exact plan for the k best, re-ranked on the full-precision rows when the
// index has them.
func (x *Index) exact(q []float32, k int, scan func(kk int) ([]vector.Hit, error)) ([]vector.Hit, error) {
	if x.rows == nil || x.compact { // a compact scan re-scores on the rows itself (scan.go)
		return scan(k)
	}
	return x.exactRerank(q, k, scan)
}

// ScansExactly reports whether a search for k hits with filter f scores its candidates
// exactly instead of walking the graph. Such a search's k hits are the head of its answer
// for more (same order, same scores), so a caller that may need more later can ask for few
// first; fewer cost less (a smaller top to keep, sort and re-rank).
func (x *Index) ScansExactly(f vector.Filter, k int) bool { return x.PlanOf(f, k).Exact }

// Plan is how one search runs: an exact scan of every candidate the filter admits
// (re-ranked on the full-precision rows when the index has them, so its answer is the
// exact top k), or a walk of the graph Ef wide on layer 0 from EfUpper entry points found
// on layer 1.
type Plan struct {
	Exact       bool
	Ef, EfUpper int // the walk's breadth (0 for an exact plan)
}

// Breadth chooses a graph walk's breadth from k and the filter's selectivity, the share of
// live ids it admits (1 without a filter, an estimate for a predicate): ef on layer 0 and
// efUpper on layer 1. Search takes ef at least k and efUpper at least 1.
type Breadth func(k int, selectivity float64) (ef, efUpper int)

// SetBreadth sets the rule that chooses each search's ef and EfUpper (nil: Config.EfSearch
// and Config.EfUpper for every search). The plan's cost model uses the same ef, so the rule
// also moves the point where an exact scan of a filtered set is cheaper than a walk. Not
// saved with the graph (a search setting).
func (x *Index) SetBreadth(b Breadth) {
	x.mu.Lock()
	x.breadth = b
	x.mu.Unlock()
}

// PlanOf returns the plan Search runs for k hits with filter f.
func (x *Index) PlanOf(f vector.Filter, k int) Plan {
	x.mu.RLock()
	defer x.mu.RUnlock()
	return x.plan(f, k)
}

// walkCostFactor is what a node of a filtered walk's estimate (ef x 2M / selectivity) costs
// against a candidate an exact scan scores. The estimate counts every neighbour of every
// expanded node, but a walk scores only those it has not met yet; an exact plan that
// re-ranks on full-precision rows may scan twice when many candidates tie near the k-th
// (exactRerank). Measured on contact search's shapes (contactsearch BenchmarkBreadth): at
// 1,000,000 contacts a 29,177-id list costs the same either way at ef 46 (factor 0.58) and a
// 1% list is scanned faster than walked even at ef 12 (above 0.34); at 100,000 a 10,977-id
// list ties at ef 125 (0.30) and is walked faster at ef 62 (below 0.61). 0.6 sends the ties
// to the exact plan, whose answer is exact.
const walkCostFactor = 0.6

// breadthOf is the walk's ef and EfUpper for k hits at this selectivity. Called under a
// lock.
func (x *Index) breadthOf(k int, sel float64) (ef, efUpper int) {
	ef, efUpper = x.cfg.EfSearch, x.cfg.EfUpper
	if x.breadth != nil {
		ef, efUpper = x.breadth(k, sel)
	}
	return max(ef, k), max(efUpper, 1)
}

// plan applies the switching rule. OpenSearch's rule first: a filter admitting n ids is
// scanned exactly when n x dims <= vector.ExactThreshold. Past that, the cheaper way wins: a
// filtered walk must pass about ef x 2M / selectivity nodes to collect ef admitted ones
// (each walkCostFactor of a scanned row; ef from the breadth rule), an exact scan scores the
// n candidates (plus one cheap
// predicate call per node, counted as a twentieth of a distance, when only a predicate says
// which they are). Either way the answer for a small filtered set is exact. Called under the
// read lock.
func (x *Index) plan(f vector.Filter, k int) Plan {
	n, scanAll := x.live, false
	switch {
	case f.IDs != nil:
		n = len(f.IDs)
	case f.Allow != nil:
		n, scanAll = x.estimate(f.Allow), true
	}
	ef, efUpper := x.breadthOf(k, float64(n)/float64(max(x.live, 1)))
	if !f.Active() {
		return Plan{Ef: ef, EfUpper: efUpper}
	}
	exact := vector.UseExact(n, x.dims)
	if !exact {
		exactCost := float64(n)
		if scanAll {
			exactCost += float64(len(x.ids)) / 20
		}
		walkCost := walkCostFactor * float64(ef) * float64(x.m0) * float64(x.live) / float64(max(n, 1))
		exact = exactCost < walkCost
	}
	if exact {
		return Plan{Exact: true}
	}
	return Plan{Ef: ef, EfUpper: efUpper}
}

// admitter turns a filter into a node predicate that also drops tombstones (a node passes
// when one of its ids does) and the id predicate that picks the ids of a passing node (nil:
// all of them).
func (x *Index) admitter(f vector.Filter) (admit func(uint32) bool, allowID func(int64) bool) {
	if f.IDs != nil {
		in := make([]bool, len(x.ids))
		set := make(map[int64]struct{}, len(f.IDs))
		for _, id := range f.IDs {
			if n, ok := x.byID.get(id); ok {
				in[n] = true
				set[id] = struct{}{}
			}
		}
		allow := f.Allow
		allowID = func(id int64) bool {
			_, ok := set[id]
			return ok && (allow == nil || allow(id))
		}
		return func(n uint32) bool { return in[n] && x.anyAllowed(n, allowID) }, allowID
	}
	if f.Allow != nil {
		allow := f.Allow
		return func(n uint32) bool { return !x.dead[n] && x.anyAllowed(n, allow) }, allow
	}
	return func(n uint32) bool { return !x.dead[n] }, nil
}

// anyAllowed reports whether allow passes one of live node n's ids. The shared bit is
// tested before more is read: most nodes hold one id, and a filtered walk asks about
// hundreds of nodes the filter turns away, each a cache miss on more's slice headers.
func (x *Index) anyAllowed(n uint32, allow func(int64) bool) bool {
	if allow(x.ids[n]) {
		return true
	}
	if !x.isShared(n) {
		return false
	}
	for _, id := range x.more[n] {
		if allow(id) {
			return true
		}
	}
	return false
}

// push offers every id of live node n that allow passes (nil: every id) at score.
func (x *Index) push(top *vector.TopK, n uint32, score float32, allow func(int64) bool) {
	if id := x.ids[n]; allow == nil || allow(id) {
		top.Push(vector.Hit{ID: id, Score: score})
	}
	if !x.isShared(n) {
		return
	}
	for _, id := range x.more[n] {
		if allow == nil || allow(id) {
			top.Push(vector.Hit{ID: id, Score: score})
		}
	}
}

// estimate guesses how many live ids a predicate admits from an evenly spaced sample.
func (x *Index) estimate(allow func(int64) bool) int {
	const samples = 1024
	n := len(x.ids)
	step := max(n/samples, 1)
	seen, ok := 0, 0
	for i := 0; i < n; i += step {
		if x.dead[i] {
			continue
		}
		more := x.more[uint32(i)]
		for j := -1; j < len(more); j++ {
			id := x.ids[i]
			if j >= 0 {
				id = more[j]
			}
			seen++
			if allow(id) {
				ok++
			}
		}
	}
	if seen == 0 {
		return 0
	}
	return int(float64(ok) / float64(seen) * float64(x.live))
}

func (x *Index) graphSearch(v []float32, k, ef, efUpper int, admit func(uint32) bool, allowID func(int64) bool) []vector.Hit {
	vis := x.getVisited()
	defer x.visited.Put(vis)
	qq := x.newQuery(v, vis)
	cur := x.entry
	curDist := x.qdist(qq, cur)
	wide := efUpper > 1 && x.maxLevel >= 1 // layer 1 searched efUpper wide
	greedyTo := 1
	if wide {
		greedyTo = 2
	}
	for l := x.maxLevel; l >= greedyTo; l-- {
		cur, curDist = x.greedy(qq, cur, curDist, l)
	}
	eps := []cand{{curDist, cur}}
	if wide {
		// The next search reuses the visited set's heaps, which hold this one's result.
		eps = append(vis.eps[:0], x.searchLayer(qq, eps, efUpper, 1, nil, vis, false)...)
		vis.eps = eps
	}
	w := x.searchLayer(qq, eps, max(ef, k), 0, admit, vis, !x.halfOnly)
	if x.compact {
		return x.rerankCodes(qq, k, w, allowID, vis)
	}
	q := v
	if x.rows != nil {
		if !x.halfOnly {
			for i, c := range w { // the walk scored on the codes: rank on the halves first
				w[i].d = x.dist(q, c.n)
			}
		}
		return x.rerank(q, k, x.graphCands(w, allowID))
	}
	top := vector.NewTopK(k)
	if x.halfOnly {
		for _, c := range w {
			x.push(top, c.n, 1-c.d, allowID)
		}
		return top.Sorted()
	}
	batch := vis.batch[:0]
	for _, c := range w {
		batch = append(batch, c.n)
	}
	vis.batch = batch
	vector.PrefetchHalfRows(x.vecs, batch, x.dims, prefetchLines)
	for _, n := range batch {
		x.push(top, n, 1-x.dist(q, n), allowID)
	}
	return top.Sorted()
}

func (x *Index) exactIDs(q []float32, k int, f vector.Filter) []vector.Hit {
	hits := x.scoreIDsInParts(q, k, f.IDs, f.Allow)
	for i := 1; i < len(hits); i++ {
		if hits[i].ID == hits[i-1].ID {
			// The list names an id twice (equal ids score the same, so they sit side by
			// side): score it again without the repeats.
			return x.scoreIDsInParts(q, k, dedupe(f.IDs), f.Allow)
		}
	}
	return hits
}

// scoreIDsInParts is scoreIDs over parts of the list on several cores (scan.go inParts). An
// id listed in two parts shows as a repeat in the merged hits, as one listed twice in a
// part does.
func (x *Index) scoreIDsInParts(q []float32, k int, list []int64, allow func(int64) bool) []vector.Hit {
	hits, _ := x.inParts(len(list), len(list), k, func(lo, hi int) ([]vector.Hit, error) {
		return x.scoreIDs(q, k, list[lo:hi], allow), nil
	})
	return hits
}

// dedupe is ids without repeats, in their order.
func dedupe(ids []int64) []int64 {
	seen := make(map[int64]struct{}, len(ids))
	out := make([]int64, 0, len(ids))
	for _, id := range ids {
		if _, ok := seen[id]; !ok {
			seen[id] = struct{}{}
			out = append(out, id)
		}
	}
	return out
}

// visited marks nodes with an epoch number, so clearing it between searches is free.
type visited struct {
	marks  []uint32
	scored []scoredMark // scoreIDs: shared nodes met in this epoch, with their slot
	epoch  uint32
	batch  []uint32 // scratch: the unvisited neighbours of the node being expanded
	// searchLayer's heaps, reused (its result is ws: valid until the next searchLayer with
	// this set), and a copy of one result that the next search starts from.
	cs  minHeap
	ws  maxHeap
	eps []cand

	pend   []rowCand // compact re-ranks' candidates (compact.go)
	q      query     // the search's query (newQuery)
	qcodes []int16   // its codes' memory

	// Scratch of the exact scans (scan.go).
	slots  []scanSlot
	listed []scanID
	exact  []float32
}

// prefetchLines is how many cache lines of each neighbour's vector are requested ahead (of
// 12 for 384 halves): on the benchmark 4 beat 0, 8 and 12; the hardware streams the rest.
// codeLines is the same for a row of codes, all of its 6 lines for 384 dims.
const (
	prefetchLines = 4
	codeLines     = 6
	linkLines     = 3 // a layer-0 list: 33 words for M 16
)

// prefetch requests the vectors of nodes ns: their codes (codes true) with the scales, or
// their half-precision rows.
func (x *Index) prefetch(ns []uint32, codes bool) {
	if codes {
		vector.PrefetchInt8Rows(x.codes, ns, x.dims, codeLines)
		vector.PrefetchFloat32s(x.scales, ns)
		return
	}
	vector.PrefetchHalfRows(x.vecs, ns, x.dims, prefetchLines)
}

func (x *Index) getVisited() *visited {
	if v, ok := x.visited.Get().(*visited); ok {
		return v
	}
	return &visited{}
}

func (v *visited) reset(n int) {
	if len(v.marks) < n {
		v.marks = make([]uint32, n+n/4)
		v.scored = nil
		v.epoch = 0
	}

	v.epoch++
	if v.epoch == 0 { // wrapped: old marks could collide
		clear(v.marks)
		clear(v.scored)
		v.epoch = 1
	}
}

// scoredMark is a node's mark and scan slot in one cache line access.
type scoredMark struct {
	epoch uint32
	slot  int32
}

func (v *visited) mark(n uint32)      { v.marks[n] = v.epoch }
func (v *visited) seen(n uint32) bool { return v.marks[n] == v.epoch }
