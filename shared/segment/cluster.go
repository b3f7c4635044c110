package segment

import (
	"fmt"
	"math"

	"gonum.org/v1/gonum/mat"

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
// keeps noise low. A cap (maxSegments, else MaxSegments) is met first by raising the
// minimum segment size, which merges small segments into larger ones rather than
// dropping them into noise, and only then by keeping the most stable segments.
func clusterPoints(points [][]float64, maxSegments int) (hdbscan.Result, error) {
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
	for err == nil && res.NumClusters() > limit && size < n/2 {
		size = max(size+1, size*3/2)
		res, err = tree.Cluster(size, 0)
	}
	if err == nil && res.NumClusters() > limit {
		res, err = tree.Cluster(size, limit)
	}
	return res, err
}

// minSamples is HDBSCAN's min_samples: the neighbourhood of a core distance.
const minSamples = 5
