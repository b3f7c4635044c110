package segment

import (
	"fmt"
	"math"
	"slices"
	"strings"

	"gonum.org/v1/gonum/mat"

	"github.com/firmoapi/firmo/shared/company"
	"github.com/firmoapi/firmo/shared/hdbscan"
)

// reducedDims is the dimension the embeddings are projected to before clustering. The
// clustering's cost grows with the dimension (all pairwise distances, twice), and the
// leading principal components of profile embeddings carry the topical differences
// that separate segments; the rest is mostly per-company detail.
const reducedDims = 32

// minPoints is the fewest companies clustered: two segments of two.
const minPoints = 4

// reduce projects vecs onto their leading k principal components (PCA: eigenvectors of
// the covariance matrix, gonum), or returns them as float64 when they have at most k
// dimensions or there are too few points. The projection is a deterministic function
// of the input.
func reduce(vecs [][]float32, k int) [][]float64 {
	n, d := len(vecs), len(vecs[0])
	if d <= k || n <= k {
		return widen(vecs)
	}
	x := mat.NewDense(n, d, nil)
	mean := make([]float64, d)
	for i, v := range vecs {
		for j, f := range v {
			x.Set(i, j, float64(f))
			mean[j] += float64(f)
		}
	}
	for j := range mean {
		mean[j] /= float64(n)
	}
	for i := range n {
		row := x.RawRowView(i)
		for j := range row {
			row[j] -= mean[j]
		}
	}
	var cov mat.SymDense
	cov.SymOuterK(1/float64(n), x.T())
	var eig mat.EigenSym
	if !eig.Factorize(&cov, true) {
		return widen(vecs) // not for a finite matrix; the full vectors then
	}
	var ev mat.Dense
	eig.VectorsTo(&ev) // columns ascending by eigenvalue
	basis := mat.NewDense(d, k, nil)
	for c := range k {
		col := d - 1 - c
		// A fixed sign per component (its largest coordinate positive), so the
		// projection does not depend on the solver's sign choice.
		sign, big := 1.0, 0.0
		for r := range d {
			if v := ev.At(r, col); math.Abs(v) > big {
				big, sign = math.Abs(v), math.Copysign(1, v)
			}
		}
		for r := range d {
			basis.Set(r, c, sign*ev.At(r, col))
		}
	}
	var proj mat.Dense
	proj.Mul(x, basis)
	out := make([][]float64, n)
	for i := range n {
		out[i] = append([]float64(nil), proj.RawRowView(i)...)
	}
	return out
}

// widen converts vecs to float64.
func widen(vecs [][]float32) [][]float64 {
	out := make([][]float64, len(vecs))
	for i, v := range vecs {
		out[i] = make([]float64, len(v))
		for j, x := range v {
			out[i][j] = float64(x)
		}
	}
	return out
}

// clusterPoints runs HDBSCAN with a minimum segment size that grows with the number of
// companies (1% of them, at least 5; fewer for small sets) and min_samples 5, which
// keeps noise low. The fringe excess of mass leaves as noise joins its nearest segment
// when it is tied to it at most attachScore times the segment's median core distance
// (hdbscan.Tree.Attach); background noise, far sparser, stays unclustered. Last, a cap
// (maxSegments, else MaxSegments) that the segments exceed is met by merging the
// nearest segments (hdbscan.MergeGroups, Ward's criterion), none growing past mergedSize
// while another merge stays within it, then improved by keepIndustries: every segment
// excess of mass found stays whole inside one, none is dropped into noise and no
// leftovers are lumped together.
func clusterPoints(points, mergeBy [][]float64, industries []string, maxSegments int) (hdbscan.Result, error) {
	n := len(points)
	size := max(5, n/100)
	if n < 50 {
		size = max(2, n/10)
	}
	tree, err := hdbscan.NewTree(points, hdbscan.Options{MinClusterSize: size, MinSamples: min(minSamples, n)})
	if err != nil {
		return hdbscan.Result{}, fmt.Errorf("cluster: %w", err)
	}
	limit := maxSegments
	if limit == 0 {
		limit = MaxSegments
	}
	res, err := tree.Cluster(size, 0)
	if err != nil {
		return res, err
	}
	// The fringe joins the segments excess of mass found, the finest ones, before any
	// merging, so merged sizes are final.
	res = tree.Attach(res, attachScore)
	if res.NumClusters() <= limit {
		return res, nil
	}
	if mergeBy == nil {
		mergeBy = points
	}
	bound := mergedSize(res, limit)
	into := hdbscan.MergeGroups(res, mergeBy, limit, bound)
	if industries != nil {
		into = keepIndustries(res.Labels, into, industries, bound)
	}
	return hdbscan.Group(res, into), nil
}

// keepIndustries improves the grouping of a cap (into: for each segment found, the
// segment naming its group) by moving whole segments between groups while a move raises
// the mutual information between the groups and the companies' top industries
// (industries, "" when unknown) and keeps every group non-empty and within maxSize: a
// segment whose companies share their industries with another group's joins it, so the
// groups a cap gives keep industries together. Greedy merging cannot undo an early
// merge; this can. Moves are tried segment by segment, group by group, the best
// improving one taken, then swaps of two segments of different groups, pair by pair,
// each taken when it improves, until nothing does; the result is deterministic.
func keepIndustries(labels, into []int, industries []string, maxSize int) []int {
	k := len(into)
	into = append([]int(nil), into...)
	index := map[string]int{}
	size := make([]int, k)
	var counts []map[int]float64
	for c := 0; c < k; c++ {
		counts = append(counts, map[int]float64{})
	}
	total := 0.0
	for p, c := range labels {
		if c < 0 {
			continue
		}
		size[c]++
		if industries[p] == "" {
			continue
		}
		y, ok := index[industries[p]]
		if !ok {
			y = len(index)
			index[industries[p]] = y
		}
		counts[c][y]++
		total++
	}
	if total == 0 {
		return into
	}
	py := make([]float64, len(index))
	for _, m := range counts {
		for y, v := range m {
			py[y] += v / total
		}
	}
	gsize := make([]int, k)
	gcount := make([][]float64, k)
	members := make([]int, k)
	for g := range gcount {
		gcount[g] = make([]float64, len(index))
	}
	for c, g := range into {
		gsize[g] += size[c]
		members[g]++
		for y, v := range counts[c] {
			gcount[g][y] += v
		}
	}
	// info is a group's share of the mutual information, with extra counts added.
	info := func(g int, add map[int]float64, sign float64) float64 {
		var n float64
		for y := range gcount[g] {
			n += gcount[g][y] + sign*add[y]
		}
		if n <= 0 {
			return 0
		}
		var mi float64
		for y := range gcount[g] {
			v := gcount[g][y] + sign*add[y]
			if v > 0 {
				mi += v / total * math.Log(v/n/py[y])
			}
		}
		return mi
	}
	for range 100 {
		moved := false
		for c := range k {
			g := into[c]
			if members[g] == 1 {
				continue
			}
			base := info(g, nil, 0)
			best, bestGain := -1, 1e-12
			for h := range k {
				if h == g || members[h] == 0 || gsize[h]+size[c] > maxSize {
					continue
				}
				gain := info(g, counts[c], -1) + info(h, counts[c], 1) - base - info(h, nil, 0)
				if gain > bestGain {
					best, bestGain = h, gain
				}
			}
			if best < 0 {
				continue
			}
			into[c] = best
			members[g]--
			members[best]++
			gsize[g] -= size[c]
			gsize[best] += size[c]
			for y, v := range counts[c] {
				gcount[g][y] -= v
				gcount[best][y] += v
			}
			moved = true
		}
		// Swaps: two segments of different groups trade places (a move alone may be
		// blocked by the size bound or an emptied group).
		for a := range k {
			for b := a + 1; b < k; b++ {
				ga, gb := into[a], into[b]
				if ga == gb || gsize[ga]-size[a]+size[b] > maxSize || gsize[gb]-size[b]+size[a] > maxSize {
					continue
				}
				diff := map[int]float64{} // what group ga gains, group gb loses
				for y, v := range counts[b] {
					diff[y] += v
				}
				for y, v := range counts[a] {
					diff[y] -= v
				}
				if info(ga, diff, 1)+info(gb, diff, -1)-info(ga, nil, 0)-info(gb, nil, 0) <= 1e-12 {
					continue
				}
				into[a], into[b] = gb, ga
				gsize[ga] += size[b] - size[a]
				gsize[gb] += size[a] - size[b]
				for y, v := range diff {
					gcount[ga][y] += v
					gcount[gb][y] -= v
				}
				moved = true
			}
		}
		if !moved {
			break
		}
	}
	return into
}

// Bounds on a segment made by merging, as a share of the companies: at most
// maxMergedShare with five segments or more and maxMergedShareFewer below, and at most
// mergedMeanFactor times the mean segment size of the cap (a quarter of the companies
// for a cap of 6, an eighth for 12), so a cap gives segments of comparable size rather
// than one that swallows the rest (which also keeps them following the industries:
// BENCHMARKS.md).
const (
	maxMergedShare      = 0.4
	maxMergedShareFewer = 0.6
	mergedMeanFactor    = 1.25
)

// mergedSize is the size bound of hdbscan.MergeGroups for a cap over res (all companies,
// unclustered ones included): the bounds above, or the largest segment excess of mass
// found when that is larger.
func mergedSize(res hdbscan.Result, limit int) int {
	share := maxMergedShare
	if limit < 5 {
		share = maxMergedShareFewer
	}
	share = min(share, mergedMeanFactor/float64(limit))
	largest := 0
	sizes := make([]int, res.NumClusters())
	for _, l := range res.Labels {
		if l >= 0 {
			sizes[l]++
			largest = max(largest, sizes[l])
		}
	}
	return max(largest, int(share*float64(len(res.Labels))))
}

// minSamples is HDBSCAN's min_samples: the neighbourhood of a core distance.
const minSamples = 5

// attachScore is the largest hdbscan.Reach.Score of a noise point that joins its
// nearest segment. The demo world's noise scores from 1.09 up (median 1.35, 90th
// percentile 1.59: an industry's fringe), uniform noise in the blob tests 11.9 and up:
// 1.5 attaches most of the fringe and keeps a wide margin to background noise
// (BENCHMARKS.md).
const attachScore = 1.5

// Weights of the industry coordinates withLabels appends to the embeddings (scaled to
// unit root-mean-square norm, so two companies' embeddings are about √2 apart): two
// companies certain of different industries differ by labelWeight·√2 ≈ 0.71 there,
// half the typical embedding distance, so the classifier's industry (the same in every
// language) pulls a segment's companies together across the languages of their
// keywords, while the embedding still splits an industry where its companies differ.
// Sub-industries are finer and less certain: half the weight. Measured in
// BENCHMARKS.md (weights 0 to 2).
const (
	labelWeight = 0.5
	subWeight   = 0.25
	// minLabelProbability drops an industry the classifier barely considered: it would
	// add a coordinate (and distance work) and no distance.
	minLabelProbability = 0.05
)

// withLabels scales the projected embeddings to unit root-mean-square norm and appends
// each profile's industry and sub-industry probabilities (one coordinate per value some
// profile holds with at least minLabelProbability, in sorted order, so the result does
// not depend on the order of the profiles), weighted by labelWeight and subWeight.
func withLabels(points [][]float64, profiles []company.Profile) [][]float64 {
	var ss float64
	for _, p := range points {
		for _, v := range p {
			ss += v * v
		}
	}
	rms := math.Sqrt(ss / float64(len(points)))
	if rms == 0 {
		rms = 1
	}
	type coord struct {
		sub   bool
		value string
	}
	weights := func(p company.Profile) map[coord]float64 {
		out := map[coord]float64{}
		for v, pr := range p.IndustryGroups {
			if pr >= minLabelProbability {
				out[coord{false, v}] = labelWeight * pr
			}
		}
		for v, pr := range p.SubIndustry {
			if pr >= minLabelProbability {
				out[coord{true, v}] = subWeight * pr
			}
		}
		return out
	}
	index := map[coord]int{}
	var keys []coord
	for _, p := range profiles {
		for c := range weights(p) {
			if _, ok := index[c]; !ok {
				index[c] = 0
				keys = append(keys, c)
			}
		}
	}
	slices.SortFunc(keys, func(a, b coord) int {
		if a.sub != b.sub {
			if a.sub {
				return 1
			}
			return -1
		}
		return strings.Compare(a.value, b.value)
	})
	for i, k := range keys {
		index[k] = i
	}
	d := len(points[0])
	out := make([][]float64, len(points))
	for i, p := range points {
		q := make([]float64, d+len(keys))
		for j, v := range p {
			q[j] = v / rms
		}
		for c, w := range weights(profiles[i]) {
			q[d+index[c]] = w
		}
		out[i] = q
	}
	return out
}

// industryPart is points with the industry and sub-industry coordinates withLabels
// appended after the first dims weighted mergeIndustryWeight times more, for merging
// under a cap (nil when it appended none): segments whose industries are alike merge
// first, and among the rest the embedding decides. Measured in BENCHMARKS.md against the
// points as they are (NMI at a cap of 6: 0.735 and 0.744 for 500 and 1,000 companies)
// and the industry coordinates alone (0.733, 0.762).
func industryPart(points [][]float64, dims int) [][]float64 {
	if len(points[0]) <= dims {
		return nil
	}
	out := make([][]float64, len(points))
	for i, p := range points {
		q := append([]float64(nil), p...)
		for j := dims; j < len(q); j++ {
			q[j] *= mergeIndustryWeight
		}
		out[i] = q
	}
	return out
}

// mergeIndustryWeight: with it the industry coordinates weigh 1.5 (industries) and 0.75
// (sub-industries) against the unit-RMS embedding when segments merge.
const mergeIndustryWeight = 3.0
