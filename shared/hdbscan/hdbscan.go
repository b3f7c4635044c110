// Package hdbscan is a self-contained HDBSCAN (Campello, Moulavi and Sander 2013), written here
// because no Go HDBSCAN library is served to this project. It follows scikit-learn's
// sklearn.cluster.HDBSCAN with its defaults (alpha 1, excess-of-mass selection,
// allow_single_cluster false, cluster_selection_epsilon 0):
//
//  1. Core distance of a point: the distance to its MinSamples-th nearest neighbour counting
//     the point itself, as scikit-learn does (MinSamples 1 gives core distance 0; MinSamples 2
//     gives the distance to the nearest other point).
//  2. Mutual reachability distance: max(core(a), core(b), d(a, b)).
//  3. Minimum spanning tree of the mutual reachability graph by Prim's algorithm on the dense
//     graph, O(n²) time and O(n) memory: distances are recomputed, never stored, so 10,000
//     points (the upload cap) need no n² matrix. The work is spread over GOMAXPROCS goroutines.
//  4. Single-linkage hierarchy from the spanning tree, condensed with MinClusterSize: a split
//     where at least two parts have MinClusterSize points gives new clusters, smaller parts are
//     points falling out of the cluster at lambda = 1/distance.
//  5. Excess-of-mass selection; the root is never selected (allow_single_cluster false), so a
//     data set that never splits into two clusters of MinClusterSize points is all noise.
//  6. Labels (-1 noise) and membership probabilities as scikit-learn computes them.
//  7. Optionally (Tree.Attach), a soft assignment of the noise: a noise point joins the
//     cluster it is nearest to in mutual reachability when that distance is at most a
//     given multiple of the cluster's median core distance. It is an outlier score
//     relative to that cluster in the spirit of GLOSH (Campello et al. 2015), with the
//     cluster's typical density as the reference where GLOSH takes its densest point
//     (robust to a few very dense points). The hdbscan library's soft clustering
//     (membership vectors) is not followed: it gives every point a share of every
//     cluster, and segmentation needs one label or -1.
//
// Two deliberate differences from scikit-learn, both for determinism:
//
//   - Merges at exactly the same distance are one multi-way split rather than an arbitrary
//     sequence of binary ones, so the result does not depend on the input order (scikit-learn's
//     result can, through tie-breaking). Small parts of such a split fall out of the parent.
//   - A zero distance (duplicate points) gives lambda = 2/smallest positive spanning-tree
//     distance (1 when every distance is zero) instead of +Inf, so stabilities stay finite.
package hdbscan

import (
	"cmp"
	"errors"
	"fmt"
	"math"
	"runtime"
	"slices"
	"sync"

	"github.com/firmoapi/firmo/shared/apperr"
)

// Metric is the distance between points.
type Metric int

const (
	// Euclidean is the L2 distance (the default).
	Euclidean Metric = iota
	// Cosine is 1 - cosine similarity; zero vectors are rejected.
	Cosine
)

// DefaultMinClusterSize is scikit-learn's default min_cluster_size.
const DefaultMinClusterSize = 5

// Options configure Cluster. The zero value means scikit-learn's defaults.
type Options struct {
	// MinClusterSize is the smallest cluster (min_cluster_size): 0 means 5, otherwise >= 2.
	MinClusterSize int
	// MinSamples is the neighbourhood size of the core distance, counting the point itself
	// (min_samples): 0 means MinClusterSize. It must not exceed the number of points.
	MinSamples int
	// Metric is Euclidean (default) or Cosine.
	Metric Metric
	// MaxClusters caps the number of clusters: 0 means no cap. When more clusters are
	// selected, the MaxClusters with the highest stability are kept (ties: more points first)
	// and the points of the others become noise.
	MaxClusters int
}

// Result is the clustering of Cluster's input, in input order.
type Result struct {
	// Labels holds the cluster of each point, -1 for noise. Clusters are numbered 0.. by size
	// descending, ties broken by the smallest input index among their points.
	Labels []int
	// Probabilities holds each point's membership strength as scikit-learn's probabilities_:
	// the lambda at which the point left its cluster over the cluster's largest lambda,
	// in [0, 1]; 1 for the densest points, 0 for noise.
	Probabilities []float64
	// Stabilities holds the excess-of-mass stability of each cluster, indexed by label.
	Stabilities []float64
	// Births holds the lambda (1/distance) at which each cluster appeared in the condensed
	// tree, indexed by label: its members all joined it at this density or a higher one.
	Births []float64
	// MaxLambdas holds each cluster's largest lambda (the denominator of Probabilities),
	// indexed by label.
	MaxLambdas []float64
}

// NumClusters is the number of clusters in r.
func (r Result) NumClusters() int { return len(r.Stabilities) }

// Cluster runs HDBSCAN over points (each a vector of the same dimension). Invalid input or
// options give an error wrapping apperr.ErrInvalid.
func Cluster(points [][]float64, opts Options) (Result, error) {
	opts, err := validate(points, opts)
	if err != nil {
		return Result{}, fmt.Errorf("hdbscan: %w: %w", apperr.ErrInvalid, err)
	}
	return newTree(points, opts).cluster(opts.MinClusterSize, opts.MaxClusters), nil
}

// Tree is the single-linkage hierarchy of the mutual reachability graph: the O(n²) part
// of HDBSCAN, which depends on the points, MinSamples and the metric only. Its Cluster
// condenses and selects for any MinClusterSize and MaxClusters without redoing it.
type Tree struct {
	h         *hierarchy
	capLambda float64
	sp        *space
	core      []float64 // internal scale, as space.dist
}

// NewTree builds the hierarchy of points with opts.MinSamples and opts.Metric (and
// validates opts as Cluster does; MinClusterSize and MaxClusters are left to Cluster).
// The tree keeps points for Reaches and Attach: the caller must not change them.
func NewTree(points [][]float64, opts Options) (*Tree, error) {
	opts, err := validate(points, opts)
	if err != nil {
		return nil, fmt.Errorf("hdbscan: %w: %w", apperr.ErrInvalid, err)
	}
	return newTree(points, opts), nil
}

func newTree(points [][]float64, opts Options) *Tree {
	sp := newSpace(points, opts.Metric)
	core := sp.coreDistances(opts.MinSamples)
	edges := sp.spanningTree(core)
	return &Tree{h: buildHierarchy(len(points), edges), capLambda: lambdaCap(edges), sp: sp, core: core}
}

// Cluster condenses the tree with minClusterSize (>= 2), selects by excess of mass and
// keeps at most maxClusters clusters (0: no cap), as Cluster with those options.
func (t *Tree) Cluster(minClusterSize, maxClusters int) (Result, error) {
	if minClusterSize < 2 || maxClusters < 0 {
		return Result{}, fmt.Errorf("hdbscan: %w: min cluster size %d, max clusters %d", apperr.ErrInvalid, minClusterSize, maxClusters)
	}
	return t.cluster(minClusterSize, maxClusters), nil
}

func (t *Tree) cluster(minClusterSize, maxClusters int) Result {
	ct := condense(t.h, minClusterSize, t.capLambda)
	selected := ct.selectEOM()
	if maxClusters > 0 {
		selected = ct.capClusters(selected, maxClusters)
	}
	return ct.label(selected)
}

func validate(points [][]float64, opts Options) (Options, error) {
	if len(points) == 0 {
		return opts, errors.New("no points")
	}
	dim := len(points[0])
	if dim == 0 {
		return opts, errors.New("points have dimension 0")
	}
	for i, p := range points {
		if len(p) != dim {
			return opts, fmt.Errorf("point %d has dimension %d, point 0 has %d", i, len(p), dim)
		}
		for _, v := range p {
			if math.IsNaN(v) || math.IsInf(v, 0) {
				return opts, fmt.Errorf("point %d has a non-finite coordinate", i)
			}
		}
		if opts.Metric == Cosine && norm(p) == 0 {
			return opts, fmt.Errorf("point %d is a zero vector, cosine distance is undefined", i)
		}
	}
	switch {
	case opts.MinClusterSize == 0:
		opts.MinClusterSize = DefaultMinClusterSize
	case opts.MinClusterSize < 2:
		return opts, fmt.Errorf("min cluster size %d is below 2", opts.MinClusterSize)
	}
	switch {
	case opts.MinSamples == 0:
		opts.MinSamples = opts.MinClusterSize
	case opts.MinSamples < 1:
		return opts, fmt.Errorf("min samples %d is below 1", opts.MinSamples)
	}
	if opts.MinSamples > len(points) {
		return opts, fmt.Errorf("min samples %d exceeds the %d points", opts.MinSamples, len(points))
	}
	if opts.MaxClusters < 0 {
		return opts, fmt.Errorf("max clusters %d is negative", opts.MaxClusters)
	}
	if opts.Metric != Euclidean && opts.Metric != Cosine {
		return opts, fmt.Errorf("unknown metric %d", opts.Metric)
	}
	return opts, nil
}

func norm(p []float64) float64 {
	var s float64
	for _, v := range p {
		s += v * v
	}
	return math.Sqrt(s)
}

// space computes distances. For Euclidean it works with squared distances (monotone, so core
// distances, mutual reachability and the spanning tree are unchanged) and takes the square
// root of the spanning-tree edges only; for Cosine the vectors are normalised once.
type space struct {
	pts     [][]float64
	metric  Metric
	workers int
}

func newSpace(points [][]float64, metric Metric) *space {
	pts := points
	if metric == Cosine {
		pts = make([][]float64, len(points))
		for i, p := range points {
			nm := norm(p)
			q := make([]float64, len(p))
			for j, v := range p {
				q[j] = v / nm
			}
			pts[i] = q
		}
	}
	return &space{pts: pts, metric: metric, workers: max(1, runtime.GOMAXPROCS(0))}
}

// dist is the squared Euclidean distance or the cosine distance. It is symmetric bit for bit.
func (s *space) dist(i, j int) float64 { return s.distBelow(i, j, math.Inf(1)) }

// distBelow is dist when that is below bound; otherwise it may stop early and return any
// value of at least bound. For Euclidean the partial sums only grow (every term is a
// square, and rounding is monotone), so a partial sum at or above bound proves the
// distance is too; a distance that is computed to the end is bit for bit dist's.
// Cosine is always computed in full.
func (s *space) distBelow(i, j int, bound float64) float64 {
	a, b := s.pts[i], s.pts[j]
	b = b[:len(a)]
	if s.metric == Cosine {
		var dot float64
		for k := range a {
			dot += a[k] * b[k]
		}
		return max(0, 1-dot)
	}
	var s0, s1, s2, s3 float64
	k := 0
	for ; k+4 <= len(a); k += 4 {
		d0, d1, d2, d3 := a[k]-b[k], a[k+1]-b[k+1], a[k+2]-b[k+2], a[k+3]-b[k+3]
		s0 += d0 * d0
		s1 += d1 * d1
		s2 += d2 * d2
		s3 += d3 * d3
		if k&12 == 12 { // every 16 coordinates
			if partial := (s0 + s1) + (s2 + s3); partial >= bound {
				return partial
			}
		}
	}
	for ; k < len(a); k++ {
		d := a[k] - b[k]
		s0 += d * d
	}
	return (s0 + s1) + (s2 + s3)
}

// finish turns an internal distance into the reported one.
func (s *space) finish(d float64) float64 {
	if s.metric == Euclidean {
		return math.Sqrt(d)
	}
	return d
}

// parallel runs f over [0, n) split into contiguous chunks, one per worker.
func (s *space) parallel(n int, f func(lo, hi, worker int)) {
	w := s.workers
	if n < 256 || w == 1 {
		f(0, n, 0)
		return
	}
	w = min(w, n)
	var wg sync.WaitGroup
	for t := range w {
		lo, hi := t*n/w, (t+1)*n/w
		wg.Go(func() { f(lo, hi, t) })
	}
	wg.Wait()
}

// coreDistances returns each point's distance (internal scale) to its k-th nearest neighbour,
// the point itself included as the first. Each point keeps its k-1 nearest others so
// far, sorted, and a distance that cannot enter them is not computed to the end.
func (s *space) coreDistances(k int) []float64 {
	n := len(s.pts)
	core := make([]float64, n)
	if k == 1 {
		return core
	}
	bufs := make([][]float64, s.workers)
	s.parallel(n, func(lo, hi, worker int) {
		if bufs[worker] == nil {
			bufs[worker] = make([]float64, k-1)
		}
		near := bufs[worker]
		for i := lo; i < hi; i++ {
			for t := range near {
				near[t] = math.Inf(1)
			}
			last := len(near) - 1
			for j := range n {
				if j == i {
					continue
				}
				d := s.distBelow(i, j, near[last])
				if d >= near[last] {
					continue
				}
				t := last
				for t > 0 && near[t-1] > d {
					near[t] = near[t-1]
					t--
				}
				near[t] = d
			}
			core[i] = near[last]
		}
	})
	return core
}

// nthSmallest returns the k-th smallest value (0-based) of a, reordering a (quickselect).
func nthSmallest(a []float64, k int) float64 {
	lo, hi := 0, len(a)-1
	for lo < hi {
		pivot := a[lo+(hi-lo)/2]
		i, j := lo, hi
		for i <= j {
			for a[i] < pivot {
				i++
			}
			for a[j] > pivot {
				j--
			}
			if i <= j {
				a[i], a[j] = a[j], a[i]
				i++
				j--
			}
		}
		switch {
		case k <= j:
			hi = j
		case k >= i:
			lo = i
		default:
			return a[k]
		}
	}
	return a[k]
}

// edge is a spanning-tree edge with its mutual reachability distance (reported scale).
type edge struct {
	a, b int
	w    float64
}

// spanningTree is Prim's algorithm on the dense mutual reachability graph.
func (s *space) spanningTree(core []float64) []edge {
	n := len(s.pts)
	best := make([]float64, n)
	from := make([]int, n)
	in := make([]bool, n)
	for i := range best {
		best[i] = math.Inf(1)
	}
	type cand struct {
		w float64
		j int
	}
	cands := make([]cand, s.workers)
	for t := range cands {
		cands[t].j = -1
	}
	edges := make([]edge, 0, n-1)
	cur := 0
	for len(edges) < n-1 {
		in[cur] = true
		c := cur
		s.parallel(n, func(lo, hi, worker int) {
			bw, bj := math.Inf(1), -1
			for j := lo; j < hi; j++ {
				if in[j] {
					continue
				}
				// The edge can only improve best[j] below both core distances, and only
				// when the distance itself is below best[j].
				if floor := max(core[c], core[j]); floor < best[j] {
					if d := s.distBelow(c, j, best[j]); d < best[j] {
						best[j], from[j] = max(floor, d), c
					}
				}
				if best[j] < bw || bj < 0 {
					bw, bj = best[j], j
				}
			}
			cands[worker] = cand{bw, bj}
		})
		next := -1
		for t := range cands {
			cd := cands[t]
			if cd.j >= 0 && (next < 0 || cd.w < best[next]) {
				next = cd.j
			}
			cands[t] = cand{j: -1}
		}
		edges = append(edges, edge{a: from[next], b: next, w: s.finish(best[next])})
		cur = next
	}
	return edges
}

// lambdaCap is the lambda given to a zero distance: twice the largest finite lambda.
func lambdaCap(edges []edge) float64 {
	minPos := math.Inf(1)
	for _, e := range edges {
		if e.w > 0 {
			minPos = min(minPos, e.w)
		}
	}
	if math.IsInf(minPos, 1) {
		return 1
	}
	return 2 / minPos
}

// hierarchy is the single-linkage tree: nodes 0..n-1 are points, later nodes merge their
// children at distance dist. Merges at equal distance form one multi-way node.
type hierarchy struct {
	n        int
	children [][]int // per internal node (index node-n)
	dist     []float64
	size     []int // per node, points included
}

func buildHierarchy(n int, edges []edge) *hierarchy {
	h := &hierarchy{n: n, size: make([]int, n, 2*n)}
	for i := range n {
		h.size[i] = 1
	}
	sorted := slices.Clone(edges)
	slices.SortFunc(sorted, func(x, y edge) int { return cmp.Compare(x.w, y.w) })
	parent := make([]int, n)
	nodeOf := make([]int, n) // union-find root -> hierarchy node
	for i := range n {
		parent[i], nodeOf[i] = i, i
	}
	find := func(x int) int {
		for parent[x] != x {
			parent[x] = parent[parent[x]]
			x = parent[x]
		}
		return x
	}
	type prior struct{ node, rep int }
	for lo := 0; lo < len(sorted); {
		hi := lo
		for hi < len(sorted) && sorted[hi].w == sorted[lo].w {
			hi++
		}
		var priors []prior
		seen := map[int]bool{}
		for _, e := range sorted[lo:hi] {
			for _, v := range [2]int{e.a, e.b} {
				r := find(v)
				if !seen[r] {
					seen[r] = true
					priors = append(priors, prior{nodeOf[r], r})
				}
			}
		}
		for _, e := range sorted[lo:hi] {
			ra, rb := find(e.a), find(e.b)
			parent[ra] = rb
		}
		groups := map[int][]int{}
		var roots []int
		for _, p := range priors {
			r := find(p.rep)
			if _, ok := groups[r]; !ok {
				roots = append(roots, r)
			}
			groups[r] = append(groups[r], p.node)
		}
		for _, r := range roots {
			kids := groups[r]
			size := 0
			for _, k := range kids {
				size += h.size[k]
			}
			nodeOf[r] = n + len(h.children)
			h.children = append(h.children, kids)
			h.dist = append(h.dist, sorted[lo].w)
			h.size = append(h.size, size)
		}
		lo = hi
	}
	return h
}

// leaves appends the points under node to dst.
func (h *hierarchy) leaves(node int, dst []int) []int {
	stack := []int{node}
	for len(stack) > 0 {
		v := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if v < h.n {
			dst = append(dst, v)
			continue
		}
		stack = append(stack, h.children[v-h.n]...)
	}
	return dst
}

// condensed is the condensed cluster tree. Cluster 0 is the root; a child's id is larger than
// its parent's.
type condensed struct {
	n         int
	parent    []int     // per cluster, -1 for the root
	birth     []float64 // lambda at which the cluster appears
	stability []float64 // sum over its points and child clusters of (lambda - birth) * size
	maxLambda []float64 // largest lambda of anything leaving the cluster (scikit-learn's death)
	size      []int
	kids      [][]int
	ptCluster []int     // cluster each point falls out of
	ptLambda  []float64 // lambda at which it falls out
}

func (ct *condensed) newCluster(parent int, birth float64, size int) int {
	id := len(ct.parent)
	ct.parent = append(ct.parent, parent)
	ct.birth = append(ct.birth, birth)
	ct.stability = append(ct.stability, 0)
	ct.maxLambda = append(ct.maxLambda, 0)
	ct.size = append(ct.size, size)
	ct.kids = append(ct.kids, nil)
	if parent >= 0 {
		ct.kids[parent] = append(ct.kids[parent], id)
	}
	return id
}

// leave records count points (or a child cluster of count points) leaving c at lambda.
func (ct *condensed) leave(c int, lambda float64, count int) {
	ct.stability[c] += (lambda - ct.birth[c]) * float64(count)
	ct.maxLambda[c] = max(ct.maxLambda[c], lambda)
}

func condense(h *hierarchy, minSize int, capLambda float64) *condensed {
	n := h.n
	ct := &condensed{n: n, ptCluster: make([]int, n), ptLambda: make([]float64, n)}
	root := ct.newCluster(-1, 0, n)
	if n == 1 {
		return ct
	}
	type item struct{ node, cluster int }
	stack := []item{{len(h.size) - 1, root}}
	var pts []int
	for len(stack) > 0 {
		it := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		d := h.dist[it.node-n]
		lambda := capLambda
		if d > 0 {
			lambda = 1 / d
		}
		kids := h.children[it.node-n]
		big := 0
		for _, k := range kids {
			if h.size[k] >= minSize {
				big++
			}
		}
		for _, k := range kids {
			switch {
			case h.size[k] >= minSize && big >= 2:
				ct.leave(it.cluster, lambda, h.size[k])
				stack = append(stack, item{k, ct.newCluster(it.cluster, lambda, h.size[k])})
			case h.size[k] >= minSize:
				stack = append(stack, item{k, it.cluster})
			default:
				pts = h.leaves(k, pts[:0])
				for _, p := range pts {
					ct.ptCluster[p], ct.ptLambda[p] = it.cluster, lambda
				}
				ct.leave(it.cluster, lambda, len(pts))
			}
		}
	}
	return ct
}

// selectEOM is excess-of-mass selection without the root (allow_single_cluster false).
func (ct *condensed) selectEOM() []bool {
	m := len(ct.parent)
	stab := slices.Clone(ct.stability)
	selected := make([]bool, m)
	for c := m - 1; c >= 1; c-- {
		var sub float64
		for _, k := range ct.kids[c] {
			sub += stab[k]
		}
		if sub > stab[c] {
			stab[c] = sub
			continue
		}
		selected[c] = true
		stack := slices.Clone(ct.kids[c])
		for len(stack) > 0 {
			k := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			selected[k] = false
			stack = append(stack, ct.kids[k]...)
		}
	}
	return selected
}

// capClusters keeps the limit selected clusters of highest stability (ties: larger first).
func (ct *condensed) capClusters(selected []bool, limit int) []bool {
	var ids []int
	for c, ok := range selected {
		if ok {
			ids = append(ids, c)
		}
	}
	if len(ids) <= limit {
		return selected
	}
	slices.SortStableFunc(ids, func(a, b int) int {
		if c := cmp.Compare(ct.stability[b], ct.stability[a]); c != 0 {
			return c
		}
		return cmp.Compare(ct.size[b], ct.size[a])
	})
	out := slices.Clone(selected)
	for _, c := range ids[limit:] {
		out[c] = false
	}
	return out
}

func (ct *condensed) label(selected []bool) Result {
	n, m := ct.n, len(ct.parent)
	owner := make([]int, m) // nearest selected ancestor, the cluster itself included
	for c := range m {
		switch {
		case selected[c]:
			owner[c] = c
		case ct.parent[c] >= 0:
			owner[c] = owner[ct.parent[c]]
		default:
			owner[c] = -1
		}
	}
	type group struct {
		cluster, first, count int
	}
	groups := map[int]*group{}
	var order []*group
	for p := range n {
		c := owner[ct.ptCluster[p]]
		if c < 0 {
			continue
		}
		g, ok := groups[c]
		if !ok {
			g = &group{cluster: c, first: p}
			groups[c] = g
			order = append(order, g)
		}
		g.count++
	}
	slices.SortStableFunc(order, func(a, b *group) int {
		if c := cmp.Compare(b.count, a.count); c != 0 {
			return c
		}
		return cmp.Compare(a.first, b.first)
	})
	number := map[int]int{}
	res := Result{
		Labels:        make([]int, n),
		Probabilities: make([]float64, n),
		Stabilities:   make([]float64, len(order)),
		Births:        make([]float64, len(order)),
		MaxLambdas:    make([]float64, len(order)),
	}
	for i, g := range order {
		number[g.cluster] = i
		res.Stabilities[i] = ct.stability[g.cluster]
		res.Births[i] = ct.birth[g.cluster]
		res.MaxLambdas[i] = ct.maxLambda[g.cluster]
	}
	for p := range n {
		c := owner[ct.ptCluster[p]]
		if c < 0 {
			res.Labels[p] = -1
			continue
		}
		res.Labels[p] = number[c]
		maxL := ct.maxLambda[c]
		if maxL <= 0 {
			res.Probabilities[p] = 1
		} else {
			res.Probabilities[p] = min(ct.ptLambda[p], maxL) / maxL
		}
	}
	return res
}

// Reach is, for one noise point, the cluster whose members it is closest to in mutual
// reachability and how far outside that cluster it lies.
type Reach struct {
	// Cluster is the label of the nearest cluster: the smallest mutual reachability
	// distance to one of its members, ties to the lower label. It is -1 for a point that
	// is not noise (or when there is no cluster).
	Cluster int
	// Lambda is 1 / that distance: the density level at which the point would join the
	// cluster.
	Lambda float64
	// Score is that distance over the median core distance of the cluster's members:
	// how much sparser the point's tie to the cluster is than the cluster's own typical
	// neighbourhood. A point at the fringe of a cluster scores about 1 to 2; a point of
	// uniform background noise scores far higher (about 10 and up in the blob tests).
	Score float64
}

// Reaches computes Reach for every point of res (a clustering of this tree's points).
// It is O(noise × n) distances, spread over GOMAXPROCS goroutines, and deterministic.
func (t *Tree) Reaches(res Result) []Reach {
	n := len(t.sp.pts)
	out := make([]Reach, n)
	var noise []int
	for i, l := range res.Labels {
		out[i].Cluster = -1
		if l < 0 {
			noise = append(noise, i)
		}
	}
	k := res.NumClusters()
	if k == 0 || len(noise) == 0 {
		return out
	}
	// The median core distance of each cluster's members (internal scale).
	cores := make([][]float64, k)
	for q, c := range res.Labels {
		if c >= 0 {
			cores[c] = append(cores[c], t.core[q])
		}
	}
	medianCore := make([]float64, k)
	for c := range cores {
		slices.Sort(cores[c])
		medianCore[c] = t.sp.finish(cores[c][len(cores[c])/2])
	}
	bufs := make([][]float64, t.sp.workers)
	t.sp.parallel(len(noise), func(lo, hi, worker int) {
		if bufs[worker] == nil {
			bufs[worker] = make([]float64, k)
		}
		best := bufs[worker]
		for _, p := range noise[lo:hi] {
			for c := range best {
				best[c] = math.Inf(1)
			}
			for q := range n {
				c := res.Labels[q]
				if c < 0 {
					continue
				}
				if floor := max(t.core[p], t.core[q]); floor < best[c] {
					if d := t.sp.distBelow(p, q, best[c]); d < best[c] {
						best[c] = max(floor, d)
					}
				}
			}
			c := 0
			for j, d := range best {
				if d < best[c] {
					c = j
				}
			}
			d := t.sp.finish(best[c])
			r := Reach{Cluster: c, Lambda: t.capLambda, Score: math.Inf(1)}
			if d > 0 {
				r.Lambda = 1 / d
			}
			switch {
			case medianCore[c] > 0:
				r.Score = d / medianCore[c]
			case d == 0:
				r.Score = 1
			}
			out[p] = r
		}
	})
	return out
}

// Attach returns res with each noise point whose Reach scores at most maxScore joined to
// its nearest cluster: a soft assignment of the fringe that excess of mass leaves as
// noise, while points far outside every cluster (by its own density) stay -1. An
// attached point's probability is its Lambda over the cluster's largest lambda, as for
// members, so it is at most every member's (a noise point lies at or beyond the
// distance at which the cluster was born). Clusters are renumbered by their new sizes,
// as Result's labels are. res itself is not changed.
func (t *Tree) Attach(res Result, maxScore float64) Result {
	out := res
	out.Labels = slices.Clone(res.Labels)
	out.Probabilities = slices.Clone(res.Probabilities)
	for p, r := range t.Reaches(res) {
		if r.Cluster < 0 || r.Score > maxScore {
			continue
		}
		out.Labels[p] = r.Cluster
		if m := res.MaxLambdas[r.Cluster]; m > 0 {
			out.Probabilities[p] = min(r.Lambda, m) / m
		} else {
			out.Probabilities[p] = 1
		}
	}
	return renumber(out)
}

// Merge returns res (a clustering of points, or of other coordinates of the same points
// in the same order) with its clusters joined pairwise until at most limit remain (limit
// >= 1; res itself is not changed). Each step joins the two clusters whose union adds the
// least within-cluster sum of squares (Ward's criterion on their centroids in points:
// na·nb/(na+nb)·|ca-cb|²; ties to the lowest pair), so the nearest clusters merge
// first and a large cluster takes in another only when it is much nearer than any pair
// of small ones. A merge that would make a cluster of more than maxSize points (0: no
// bound) is taken only when every possible merge would: a cap gives that many
// coherent clusters, not one that swallows the rest. Merging along the condensed tree instead was measured and rejected:
// single linkage chains, so on profile embeddings the tree peels small clusters off one
// large branch, and every cut with few clusters keeps one cluster of most points
// (segment/BENCHMARKS.md). Noise stays noise; no point changes its probability (its
// membership in the cluster it was found in); a merged cluster's stability is the sum,
// its birth the smallest and its largest lambda the largest of its parts. Clusters are
// renumbered by their new sizes.
func Merge(res Result, points [][]float64, limit, maxSize int) Result {
	return Group(res, MergeGroups(res, points, limit, maxSize))
}

// MergeGroups is Merge's grouping: for each cluster of res, the cluster (of res) whose
// group it joined; a cluster that took others in names its own group.
func MergeGroups(res Result, points [][]float64, limit, maxSize int) []int {
	k := res.NumClusters()
	into := make([]int, k)
	for c := range into {
		into[c] = c
	}
	if limit < 1 {
		limit = 1
	}
	if k <= limit {
		return into
	}
	dims := len(points[0])
	sum := make([][]float64, k)
	n := make([]float64, k)
	for c := range sum {
		sum[c] = make([]float64, dims)
	}
	for p, c := range res.Labels {
		if c < 0 {
			continue
		}
		n[c]++
		for j, v := range points[p] {
			sum[c][j] += v
		}
	}
	cost := func(a, b int) float64 {
		var d float64
		for j := range dims {
			x := sum[a][j]/n[a] - sum[b][j]/n[b]
			d += x * x
		}
		return n[a] * n[b] / (n[a] + n[b]) * d
	}
	alive := make([]bool, k)
	for c := range alive {
		alive[c] = true
	}
	for left := k; left > limit; left-- {
		ba, bb, bc, big := -1, -1, math.Inf(1), true
		for a := range k {
			for b := a + 1; b < k && alive[a]; b++ {
				if !alive[b] {
					continue
				}
				over := maxSize > 0 && n[a]+n[b] > float64(maxSize)
				if c := cost(a, b); (big && !over) || (big == over && c < bc) {
					ba, bb, bc, big = a, b, c, over
				}
			}
		}
		alive[bb] = false
		n[ba] += n[bb]
		for j := range dims {
			sum[ba][j] += sum[bb][j]
		}
		for c := range into {
			if into[c] == bb {
				into[c] = ba
			}
		}
	}
	return into
}

// Group returns res with the clusters that into maps to the same value joined (into[c]
// is any group id in [0, NumClusters) for cluster c): a joined cluster's stability is
// the sum, its birth the smallest and its largest lambda the largest of its parts; no
// point changes its probability; noise stays noise. Clusters are renumbered by size.
func Group(res Result, into []int) Result {
	k := res.NumClusters()
	number := make([]int, k)
	for g := range number {
		number[g] = -1
	}
	var order []int // group ids in order of their first cluster
	for c := range k {
		if g := into[c]; number[g] < 0 {
			number[g] = len(order)
			order = append(order, g)
		}
	}
	out := res
	m := len(order)
	out.Stabilities, out.Births, out.MaxLambdas = make([]float64, m), make([]float64, m), make([]float64, m)
	for i := range out.Births {
		out.Births[i] = math.Inf(1)
	}
	for c := range k {
		i := number[into[c]]
		out.Stabilities[i] += res.Stabilities[c]
		out.Births[i] = min(out.Births[i], res.Births[c])
		out.MaxLambdas[i] = max(out.MaxLambdas[i], res.MaxLambdas[c])
	}
	out.Labels = slices.Clone(res.Labels)
	for p, c := range out.Labels {
		if c >= 0 {
			out.Labels[p] = number[into[c]]
		}
	}
	return renumber(out)
}

// renumber numbers res's clusters by size descending, ties by the smallest input index
// among their points, and orders the per-cluster slices alike.
func renumber(res Result) Result {
	k := res.NumClusters()
	size, first := make([]int, k), make([]int, k)
	for c := range first {
		first[c] = -1
	}
	for p, c := range res.Labels {
		if c >= 0 {
			size[c]++
			if first[c] < 0 {
				first[c] = p
			}
		}
	}
	order := make([]int, k)
	for c := range order {
		order[c] = c
	}
	slices.SortStableFunc(order, func(a, b int) int {
		if c := cmp.Compare(size[b], size[a]); c != 0 {
			return c
		}
		return cmp.Compare(first[a], first[b])
	})
	number := make([]int, k)
	out := res
	out.Stabilities, out.Births, out.MaxLambdas = make([]float64, k), make([]float64, k), make([]float64, k)
	for i, c := range order {
		number[c] = i
		out.Stabilities[i], out.Births[i], out.MaxLambdas[i] = res.Stabilities[c], res.Births[c], res.MaxLambdas[c]
	}
	for p, c := range out.Labels {
		if c >= 0 {
			out.Labels[p] = number[c]
		}
	}
	return out
}
