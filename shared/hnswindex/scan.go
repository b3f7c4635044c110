package hnswindex

import (
	"context"
	"errors"
	"fmt"
	"math"
	"runtime"
	"sync"

	"github.com/firmoapi/firmo/shared/vector"
)

// Exact scans, in two passes when the codes are on (SetCodes; off by default, when every
// scan is one pass on the half-precision rows). A Compact index always scans in two passes,
// its second on the caller's full-precision rows (compact.go). Scattered candidates make a scan wait on
// memory, row after row, so the first pass scores every candidate on its 8-bit codes (384 bytes a row instead of
// 768) and keeps the k best lower bounds (codes' score minus vector.Int8ErrorBound); the
// second re-scores on the half-precision row only the candidates whose upper bound reaches
// the k-th lower bound. No candidate of the true top k can fall below that line, so the
// answer is the same as scoring every row at half precision; typically a few percent of the
// rows are read twice.

// scanSlot is a node met by the first pass, with its codes' score.
type scanSlot struct {
	node   uint32
	approx float32
}

// scanID is a listed id and the slot of its node (scoreIDs).
type scanID struct {
	id   int64
	slot int32
}

// scan is the state of one two-pass scan; its slices come from the visited pool.
type scan struct {
	x     *Index
	q     []float32
	qAbs  float32
	vis   *visited
	lower *vector.TopK
	batch []uint32 // first pass: the nodes of the current chunk
	// direct: the first pass scores the half-precision rows and there is no second one.
	// Chosen when about expect candidates hold few more than k: most would be re-scored.
	direct bool
}

// twoPassRatio is how many candidates per hit make the codes' pass pay: with fewer, the
// rows re-scored (the k best and those near the line) are most of them.
const twoPassRatio = 8

func (x *Index) newScan(q []float32, k, expect int, vis *visited) *scan {
	vis.slots, vis.listed = vis.slots[:0], vis.listed[:0]
	return &scan{x: x, q: q, qAbs: vector.AbsSum(q), vis: vis, lower: vector.NewTopK(k),
		batch: make([]uint32, 0, scanChunk), direct: !x.compact && (x.halfOnly || expect < twoPassRatio*k)}
}

// scanChunk is how many rows are prefetched together.
const scanChunk = 32

// bound is the codes' error bound for node n.
func (s *scan) bound(n uint32) float32 {
	if s.direct {
		return 0
	}
	if s.x.compact {
		return s.x.codesBound(n)
	}
	return vector.Int8ErrorBound(s.x.scales[n], s.qAbs)
}

// scoreChunk scores the batched nodes on their codes and appends their slots; it returns
// the index of the first new slot.
func (s *scan) scoreChunk() int {
	x := s.x
	first := len(s.vis.slots)
	if s.direct {
		vector.PrefetchHalfRows(x.vecs, s.batch, x.dims, prefetchLines)
		for _, n := range s.batch {
			s.vis.slots = append(s.vis.slots, scanSlot{n, 1 - x.dist(s.q, n)})
		}
		s.batch = s.batch[:0]
		return first
	}
	vector.PrefetchInt8Rows(x.codes, s.batch, x.dims, prefetchLines)
	for _, n := range s.batch {
		off := int(n) * x.dims
		a := x.scales[n] * vector.DotInt8(s.q, x.codes[off:off+x.dims:off+x.dims])
		s.vis.slots = append(s.vis.slots, scanSlot{n, a})
	}
	s.batch = s.batch[:0]
	return first
}

// flushNodes is the first pass over nodes whose admitted ids (allow; nil: all) are candidates.
func (s *scan) flushNodes(allow func(int64) bool) {
	first := s.scoreChunk()
	for _, sl := range s.vis.slots[first:] {
		s.x.push(s.lower, sl.node, sl.approx-s.bound(sl.node), allow)
	}
}

// line is the k-th best lower bound: a candidate whose upper bound is below it cannot be in
// the top k. Without k candidates every one is.
func (s *scan) line() float32 {
	if !s.lower.Full() {
		return float32(math.Inf(-1))
	}
	return s.lower.Worst()
}

// rescore scores at half precision every slot that can reach the line and calls emit with
// each (the second pass: not for a direct scan, whose first pass is the answer).
func (s *scan) rescore(emit func(j int, score float32)) {
	x, line := s.x, s.line()
	batch := s.batch[:0]
	var at [scanChunk]int
	flush := func() {
		vector.PrefetchHalfRows(x.vecs, batch, x.dims, prefetchLines)
		for i, n := range batch {
			emit(at[i], 1-x.dist(s.q, n))
		}
		batch = batch[:0]
	}
	for j, sl := range s.vis.slots {
		if sl.approx+s.bound(sl.node) >= line {
			at[len(batch)] = j
			if batch = append(batch, sl.node); len(batch) == scanChunk {
				flush()
			}
		}
	}
	flush()
}

// finishNodes is the second pass of a scan over nodes.
func (s *scan) finishNodes(k int, allow func(int64) bool) []vector.Hit {
	if s.direct { // the first pass scored the half rows: its k best are the answer
		return s.lower.Sorted()
	}
	top := vector.NewTopK(k)
	if s.x.compact { // no half rows: each id that can reach the line is read from the rows
		line, pend := s.line(), s.vis.pend[:0]
		for _, sl := range s.vis.slots {
			if sl.approx+s.bound(sl.node) >= line {
				pend = s.x.addFull(pend, sl.node, sl.approx, sl.approx+s.bound(sl.node), allow)
			}
		}
		s.vis.pend = pend
		s.x.scoreFull(s.q, pend, top)
		return top.Sorted()
	}
	s.rescore(func(j int, score float32) { s.x.push(top, s.vis.slots[j].node, score, allow) })
	return top.Sorted()
}

// scoreIDs scores each listed id allow passes, each node once however many of its ids are
// listed.
func (x *Index) scoreIDs(q []float32, k int, list []int64, allow func(int64) bool) []vector.Hit {
	vis := x.getVisited() // marks the shared nodes already met, with their slot
	defer x.visited.Put(vis)
	vis.reset(len(x.ids))
	if len(vis.scored) < len(vis.marks) {
		vis.scored = make([]scoredMark, len(vis.marks))
	}
	s := x.newScan(q, k, len(list), vis)
	// In chunks: look the nodes up, prefetch their codes, then score them, so the rows'
	// cache misses overlap. A node of one id is scored where it is met (an id listed twice
	// shows as a repeat in the hits: exactIDs); a shared node is scored once, its slot kept
	// in vis.scored for the node's other listed ids.
	var pending [scanChunk]scanID // this chunk's ids; slot -1: the node is in s.batch
	for start := 0; start < len(list); start += scanChunk {
		np := 0
		for _, id := range list[start:min(start+scanChunk, len(list))] {
			n, ok := x.byID.get(id)
			if !ok || (allow != nil && !allow(id)) {
				continue
			}
			slot := int32(-1)
			if x.isShared(n) {
				sm := &vis.scored[n]
				if sm.epoch == vis.epoch {
					slot = int32(sm.slot)
				} else {
					sm.epoch, sm.slot = vis.epoch, int32(len(vis.slots)+len(s.batch))
				}
			}
			if slot < 0 {
				s.batch = append(s.batch, n)
				slot = int32(len(vis.slots) + len(s.batch) - 1)
			}
			pending[np] = scanID{id, slot}
			np++
		}
		s.scoreChunk()
		for _, p := range pending[:np] {
			sl := vis.slots[p.slot]
			s.lower.Push(vector.Hit{ID: p.id, Score: sl.approx - s.bound(sl.node)})
			if !s.direct {
				vis.listed = append(vis.listed, p)
			}
		}
	}
	if s.direct { // the first pass scored the half rows: its k best are the answer
		return s.lower.Sorted()
	}
	if x.compact { // no half rows: each listed id that can reach the line is read from the rows
		line, pend := s.line(), vis.pend[:0]
		for _, p := range vis.listed {
			if sl := vis.slots[p.slot]; sl.approx+s.bound(sl.node) >= line {
				pend = append(pend, rowCand{p.id, sl.approx, sl.approx + s.bound(sl.node), x.rowOf(p.id)})
			}
		}
		vis.pend = pend
		top := vector.NewTopK(k)
		x.scoreFull(q, pend, top)
		return top.Sorted()
	}
	exact := vis.exact[:0]
	exact = append(exact, make([]float32, len(vis.slots))...)
	for j := range exact {
		exact[j] = float32(math.NaN()) // not re-scored: cannot reach the top k
	}
	s.rescore(func(j int, score float32) { exact[j] = score })
	vis.exact = exact
	top := vector.NewTopK(k)
	for _, p := range vis.listed {
		if sc := exact[p.slot]; sc == sc {
			top.Push(vector.Hit{ID: p.id, Score: sc})
		}
	}
	return top.Sorted()
}

// exactScan scores every node the predicate admits, on several cores when the scan is long
// (inParts).
func (x *Index) exactScan(ctx context.Context, q []float32, k int, admit func(uint32) bool, allowID func(int64) bool) ([]vector.Hit, error) {
	expect := x.estimate(func(id int64) bool { n, ok := x.byID.get(id); return ok && admit(n) })
	return x.nodesInParts(k, expect, func(lo, hi, expect int) ([]vector.Hit, error) {
		return x.exactScanRange(ctx, q, k, expect, lo, hi, admit, allowID)
	})
}

func (x *Index) exactScanRange(ctx context.Context, q []float32, k, expect, lo, hi int, admit func(uint32) bool, allowID func(int64) bool) ([]vector.Hit, error) {
	vis := x.getVisited()
	defer x.visited.Put(vis)
	s := x.newScan(q, k, expect, vis)
	for n := lo; n < hi; n++ {
		if n&65535 == 65535 && ctx.Err() != nil {
			return nil, fmt.Errorf("exact scan: %w", ctx.Err())
		}
		if admit(uint32(n)) {
			if s.batch = append(s.batch, uint32(n)); len(s.batch) == scanChunk {
				s.flushNodes(allowID)
			}
		}
	}
	s.flushNodes(allowID)
	return s.finishNodes(k, allowID), nil
}

// exactScanAllow is exactScan for a predicate alone, with the predicate called directly: at
// a million vectors the scan is a million calls, and one closure layer less is a third off.
func (x *Index) exactScanAllow(ctx context.Context, q []float32, k int, allow func(int64) bool) ([]vector.Hit, error) {
	return x.nodesInParts(k, x.estimate(allow), func(lo, hi, expect int) ([]vector.Hit, error) {
		return x.exactScanAllowRange(ctx, q, k, expect, lo, hi, allow)
	})
}

func (x *Index) exactScanAllowRange(ctx context.Context, q []float32, k, expect, lo, hi int, allow func(int64) bool) ([]vector.Hit, error) {
	vis := x.getVisited()
	defer x.visited.Put(vis)
	s := x.newScan(q, k, expect, vis)
	ids, dead := x.ids[:hi], x.dead[:hi]
	for n := lo; n < hi; n++ {
		if n&65535 == 65535 && ctx.Err() != nil {
			return nil, fmt.Errorf("exact scan: %w", ctx.Err())
		}
		if !dead[n] && (allow(ids[n]) || (x.isShared(uint32(n)) && x.anyAllowed(uint32(n), allow))) {
			if s.batch = append(s.batch, uint32(n)); len(s.batch) == scanChunk {
				s.flushNodes(allow)
			}
		}
	}
	s.flushNodes(allow)
	return s.finishNodes(k, allow), nil
}

// Long exact scans run on several cores: a selective filter at a million contacts scans
// 12,000 scattered rows, about 2 ms spent waiting on memory, which two cores wait for in
// half the time. Parts are contiguous ranges of the ids or nodes, each scanned as a whole
// scan would be (its own visited state and top k); the hits are merged into one top k,
// which orders ties by id as every scan does, so the answer does not depend on the split.
// Predicates are called from every part's goroutine (vector.Filter allows it).

// defaultScanPart is how much work (a row read, or twenty predicate calls) a part should
// hold at least: below it a goroutine's start and the merge cost more than the wait they
// save.
const defaultScanPart = 4096

// nodesInParts runs a scan over every node, about expect of which it admits, in parts
// (inParts); each part's scan gets its node range and its share of expect. The work is a
// row read for each admitted node and a predicate call, a twentieth of a row, for each node
// (plan's cost model).
func (x *Index) nodesInParts(k, expect int, scan func(lo, hi, expect int) ([]vector.Hit, error)) ([]vector.Hit, error) {
	n := len(x.ids)
	return x.inParts(n, expect+n/20, k, func(lo, hi int) ([]vector.Hit, error) {
		return scan(lo, hi, expect*(hi-lo)/max(n, 1))
	})
}

// parts is how many parts a scan of the given work runs in.
func (x *Index) parts(work int) int {
	cores := x.scanCores
	if cores <= 0 {
		cores = runtime.GOMAXPROCS(0)
	}
	part := x.scanPart
	if part <= 0 {
		part = defaultScanPart
	}
	return max(1, min(cores, work/part))
}

// inParts runs scan over parts of [0, n), the first on the calling goroutine, and merges
// their hits into the top k. Called under the read lock, which the caller holds until every
// part has returned.
func (x *Index) inParts(n, work, k int, scan func(lo, hi int) ([]vector.Hit, error)) ([]vector.Hit, error) {
	parts := x.parts(work)
	if parts == 1 {
		return scan(0, n)
	}
	hits := make([][]vector.Hit, parts)
	errs := make([]error, parts)
	var wg sync.WaitGroup
	for p := 1; p < parts; p++ {
		wg.Go(func() { hits[p], errs[p] = scan(p*n/parts, (p+1)*n/parts) })
	}
	hits[0], errs[0] = scan(0, n/parts)
	wg.Wait()
	if err := errors.Join(errs...); err != nil {
		return nil, err
	}
	top := vector.NewTopK(k)
	for _, part := range hits {
		for _, h := range part {
			top.Push(h)
		}
	}
	return top.Sorted(), nil
}

// quantize derives the 8-bit codes of a slab of half-precision rows (they are not saved:
// deriving them costs less than reading them), on every core.
func quantize(h *hugeSpans, vecs []uint16, dims int) ([]int8, []float32) {
	n := len(vecs) / dims
	codes, scales := make([]int8, len(vecs)), make([]float32, n)
	adviseHuge(h, codes)
	workers := runtime.GOMAXPROCS(0)
	var wg sync.WaitGroup
	for w := range workers {
		wg.Go(func() {
			for i := w; i < n; i += workers {
				off := i * dims
				scales[i] = vector.QuantizeHalf(codes[off:off+dims], vecs[off:off+dims])
			}
		})
	}
	wg.Wait()
	return codes, scales
}
