package hdbscan

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/firmoapi/firmo/shared/apperr"
)

// blobs returns, for each center, count Gaussian points of standard deviation sd, then
// noise uniform points in [lo, hi]^dim, and the true group of each point (-1 for noise).
func blobs(seed uint64, centers [][]float64, count int, sd float64, noise int, lo, hi float64) ([][]float64, []int) {
	r := rand.New(rand.NewPCG(seed, seed^0x9e3779b97f4a7c15))
	var pts [][]float64
	var truth []int
	for g, c := range centers {
		for range count {
			p := make([]float64, len(c))
			for k := range c {
				p[k] = c[k] + sd*r.NormFloat64()
			}
			pts = append(pts, p)
			truth = append(truth, g)
		}
	}
	for range noise {
		p := make([]float64, len(centers[0]))
		for k := range p {
			p[k] = lo + (hi-lo)*r.Float64()
		}
		pts = append(pts, p)
		truth = append(truth, -1)
	}
	return pts, truth
}

func dist2(a, b []float64) float64 {
	var s float64
	for k := range a {
		s += (a[k] - b[k]) * (a[k] - b[k])
	}
	return math.Sqrt(s)
}

// samePartition reports whether a and b label the points identically up to renaming the
// clusters, noise (-1) staying noise.
func samePartition(a, b []int) bool {
	if len(a) != len(b) {
		return false
	}
	ab, ba := map[int]int{}, map[int]int{}
	for i := range a {
		if (a[i] < 0) != (b[i] < 0) {
			return false
		}
		if a[i] < 0 {
			continue
		}
		if x, ok := ab[a[i]]; ok && x != b[i] {
			return false
		}
		if x, ok := ba[b[i]]; ok && x != a[i] {
			return false
		}
		ab[a[i]], ba[b[i]] = b[i], a[i]
	}
	return true
}

func checkResult(t *testing.T, res Result, n int) {
	t.Helper()
	if len(res.Labels) != n || len(res.Probabilities) != n {
		t.Fatalf("got %d labels, %d probabilities for %d points", len(res.Labels), len(res.Probabilities), n)
	}
	sizes := make([]int, res.NumClusters())
	maxProb := make([]float64, res.NumClusters())
	for i, l := range res.Labels {
		p := res.Probabilities[i]
		if math.IsNaN(p) || p < 0 || p > 1 {
			t.Fatalf("point %d: probability %v outside [0,1]", i, p)
		}
		if l < -1 || l >= res.NumClusters() {
			t.Fatalf("point %d: label %d with %d clusters", i, l, res.NumClusters())
		}
		if l == -1 {
			if p != 0 {
				t.Fatalf("noise point %d has probability %v", i, p)
			}
			continue
		}
		sizes[l]++
		maxProb[l] = max(maxProb[l], p)
	}
	for c := range sizes {
		if c > 0 && sizes[c] > sizes[c-1] {
			t.Fatalf("cluster %d (%d points) larger than cluster %d (%d)", c, sizes[c], c-1, sizes[c-1])
		}
		if maxProb[c] != 1 {
			t.Fatalf("cluster %d: densest point has probability %v, want 1", c, maxProb[c])
		}
		if s := res.Stabilities[c]; math.IsNaN(s) || math.IsInf(s, 0) || s <= 0 {
			t.Fatalf("cluster %d: stability %v", c, s)
		}
	}
}

var threeCenters = [][]float64{{0, 0}, {10, 0}, {0, 10}}

func TestClusterBlobs(t *testing.T) {
	pts, truth := blobs(1, threeCenters, 100, 0.5, 40, -10, 20)
	for _, tc := range []struct {
		name string
		opts Options
	}{
		{"min cluster size 15", Options{MinClusterSize: 15}},
		{"min samples 3", Options{MinClusterSize: 10, MinSamples: 3}},
		{"cosine", Options{MinClusterSize: 15, Metric: Cosine}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			in := pts
			if tc.opts.Metric == Cosine {
				// Shift away from the origin so angles separate the blobs.
				in = make([][]float64, len(pts))
				for i, p := range pts {
					in[i] = []float64{p[0] + 20, p[1] + 20}
				}
			}
			res, err := Cluster(in, tc.opts)
			if err != nil {
				t.Fatal(err)
			}
			checkResult(t, res, len(pts))
			if res.NumClusters() != 3 {
				t.Fatalf("got %d clusters, want 3 (labels %v)", res.NumClusters(), res.Labels)
			}
			blobLabel := map[int]int{}
			for i, g := range truth {
				if g < 0 || dist2(pts[i], threeCenters[g]) > 1 { // core points: within 2 sd
					continue
				}
				l := res.Labels[i]
				if l < 0 {
					t.Fatalf("core point %d of blob %d is noise", i, g)
				}
				if want, ok := blobLabel[g]; ok && want != l {
					t.Fatalf("blob %d split over clusters %d and %d", g, want, l)
				}
				blobLabel[g] = l
			}
			if len(blobLabel) != 3 || blobLabel[0] == blobLabel[1] || blobLabel[1] == blobLabel[2] || blobLabel[0] == blobLabel[2] {
				t.Fatalf("blobs map to clusters %v", blobLabel)
			}
			// Blob points stay in their blob's cluster. Uniform points far from every blob are
			// noise, or (bridging blobs, as in scikit-learn) weak members of a cluster.
			far, farNoise := 0, 0
			for i, l := range res.Labels {
				g := truth[i]
				if g >= 0 && l >= 0 && l != blobLabel[g] {
					t.Fatalf("point %d of blob %d in cluster %d", i, g, l)
				}
				if g < 0 && tc.opts.Metric == Euclidean {
					near := false
					for _, c := range threeCenters {
						near = near || dist2(pts[i], c) < 4
					}
					if !near {
						far++
						if l == -1 {
							farNoise++
						} else if res.Probabilities[i] >= 0.5 {
							t.Errorf("far uniform point %d in cluster %d with probability %v", i, l, res.Probabilities[i])
						}
					}
				}
			}
			// A small MinSamples lets sparse points reach clusters before the blobs separate,
			// so the noise count is only checked with the default MinSamples.
			if tc.opts.Metric == Euclidean && (far < 30 || tc.opts.MinSamples == 0 && 2*farNoise < far) {
				t.Fatalf("%d of %d far uniform points are noise", farNoise, far)
			}
		})
	}
}

// TestHandWorked checks the condensed tree, selection and probabilities of a 1-D example.
//
// Points (index: value): 0:0 1:1 2:2 3:3 4:5 | 5:10 6:11 7:12 | 8:30, MinClusterSize 3,
// MinSamples 2 (core distance = distance to the nearest other point):
//
//	core: 1 1 1 1 2 | 1 1 1 | 18
//	spanning tree (mutual reachability): 0-1, 1-2, 2-3, 5-6, 6-7 at 1; 3-4 at max(1,2,2)=2;
//	4-5 at max(2,1,5)=5; 7-8 at max(1,18,18)=18.
//
// Condensed tree, top-down (lambda = 1/distance):
//
//	root (9 points, birth 0): at 18 the parts are {0..7} (8) and {8} (1): point 8 leaves the
//	root at lambda 1/18 and {0..7} continues as the root. At 5 the parts {0..4} (5) and {5,6,7}
//	(3) both reach 3 points: clusters A = {0..4} and B = {5,6,7} are born at lambda 1/5.
//	A: at 2 point 4 leaves (lambda 1/2), at 1 points 0..3 leave together (lambda 1).
//	B: at 1 points 5, 6, 7 leave (lambda 1).
//
// Stabilities: A = (1/2 - 1/5) + 4*(1 - 1/5) = 3.5; B = 3*(1 - 1/5) = 2.4.
// Excess of mass: A and B are leaves and the root is never selected, so both are clusters;
// A is larger, so label 0. Point 8 is noise. Probabilities: lambda over the cluster's largest
// lambda (1): point 4 gets 0.5, the others in clusters 1.
func TestHandWorked(t *testing.T) {
	values := []float64{0, 1, 2, 3, 5, 10, 11, 12, 30}
	pts := make([][]float64, len(values))
	for i, v := range values {
		pts[i] = []float64{v}
	}
	opts := Options{MinClusterSize: 3, MinSamples: 2}

	t.Run("condensed tree", func(t *testing.T) {
		o, err := validate(pts, opts)
		if err != nil {
			t.Fatal(err)
		}
		sp := newSpace(pts, o.Metric)
		edges := sp.spanningTree(sp.coreDistances(o.MinSamples))
		ct := condense(buildHierarchy(len(pts), edges), o.MinClusterSize, lambdaCap(edges))
		if len(ct.parent) != 3 || ct.parent[1] != 0 || ct.parent[2] != 0 {
			t.Fatalf("cluster parents %v, want [-1 0 0]", ct.parent)
		}
		a, b := ct.ptCluster[0], ct.ptCluster[5]
		if ct.size[a] != 5 || ct.size[b] != 3 {
			t.Fatalf("sizes %v", ct.size)
		}
		for _, c := range []int{a, b} {
			if math.Abs(ct.birth[c]-0.2) > 1e-12 {
				t.Errorf("cluster %d born at %v, want 0.2", c, ct.birth[c])
			}
		}
		if math.Abs(ct.stability[a]-3.5) > 1e-12 || math.Abs(ct.stability[b]-2.4) > 1e-12 {
			t.Errorf("stabilities A=%v B=%v, want 3.5 and 2.4", ct.stability[a], ct.stability[b])
		}
		wantLambda := []float64{1, 1, 1, 1, 0.5, 1, 1, 1, 1.0 / 18}
		for p, w := range wantLambda {
			if math.Abs(ct.ptLambda[p]-w) > 1e-12 {
				t.Errorf("point %d leaves at lambda %v, want %v", p, ct.ptLambda[p], w)
			}
		}
		if ct.ptCluster[8] != 0 {
			t.Errorf("point 8 leaves cluster %d, want the root", ct.ptCluster[8])
		}
	})

	for _, tc := range []struct {
		name       string
		maxC       int
		wantLabels []int
		wantProb   []float64
		wantStab   []float64
	}{
		{"selection", 0, []int{0, 0, 0, 0, 0, 1, 1, 1, -1}, []float64{1, 1, 1, 1, 0.5, 1, 1, 1, 0}, []float64{3.5, 2.4}},
		{"max clusters 1 keeps the most stable", 1, []int{0, 0, 0, 0, 0, -1, -1, -1, -1}, []float64{1, 1, 1, 1, 0.5, 0, 0, 0, 0}, []float64{3.5}},
		{"max clusters 2 is no cap here", 2, []int{0, 0, 0, 0, 0, 1, 1, 1, -1}, []float64{1, 1, 1, 1, 0.5, 1, 1, 1, 0}, []float64{3.5, 2.4}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			o := opts
			o.MaxClusters = tc.maxC
			res, err := Cluster(pts, o)
			if err != nil {
				t.Fatal(err)
			}
			if fmt.Sprint(res.Labels) != fmt.Sprint(tc.wantLabels) {
				t.Errorf("labels %v, want %v", res.Labels, tc.wantLabels)
			}
			for i := range tc.wantProb {
				if math.Abs(res.Probabilities[i]-tc.wantProb[i]) > 1e-12 {
					t.Errorf("probabilities %v, want %v", res.Probabilities, tc.wantProb)
					break
				}
			}
			if len(res.Stabilities) != len(tc.wantStab) {
				t.Fatalf("stabilities %v, want %v", res.Stabilities, tc.wantStab)
			}
			for i := range tc.wantStab {
				if math.Abs(res.Stabilities[i]-tc.wantStab[i]) > 1e-12 {
					t.Errorf("stabilities %v, want %v", res.Stabilities, tc.wantStab)
				}
			}
		})
	}
}

// TestNoClusters covers inputs where allow_single_cluster=false leaves everything noise:
// the root is never selected, so data that never splits into two parts of MinClusterSize
// points has no cluster.
func TestNoClusters(t *testing.T) {
	lattice := make([][]float64, 50)
	for i := range lattice {
		lattice[i] = []float64{float64(i)}
	}
	three, _ := blobs(2, threeCenters, 30, 0.5, 10, -5, 15)
	same := make([][]float64, 20)
	for i := range same {
		same[i] = []float64{1, 2, 3}
	}
	for _, tc := range []struct {
		name string
		pts  [][]float64
		opts Options
	}{
		// Evenly spaced points merge all at one distance: one multi-way split into singletons.
		{"regular lattice", lattice, Options{}},
		// More than half the points: no split can give two parts that large.
		{"min cluster size above every group", three, Options{MinClusterSize: 51}},
		{"all points identical", same, Options{MinClusterSize: 3}},
		{"single point", [][]float64{{1}}, Options{MinSamples: 1}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			res, err := Cluster(tc.pts, tc.opts)
			if err != nil {
				t.Fatal(err)
			}
			checkResult(t, res, len(tc.pts))
			if res.NumClusters() != 0 {
				t.Fatalf("got %d clusters, want all noise: %v", res.NumClusters(), res.Labels)
			}
		})
	}
}

// TestSingleBlob: with allow_single_cluster=false a single Gaussian blob is never one cluster
// holding every point; it is noise or splits along density fluctuations, as in scikit-learn.
func TestSingleBlob(t *testing.T) {
	for _, seed := range []uint64{3, 4, 5} {
		t.Run(fmt.Sprint("seed ", seed), func(t *testing.T) {
			pts, _ := blobs(seed, [][]float64{{0, 0}}, 200, 1, 0, 0, 0)
			res, err := Cluster(pts, Options{MinClusterSize: 10})
			if err != nil {
				t.Fatal(err)
			}
			checkResult(t, res, len(pts))
			if res.NumClusters() == 1 {
				for _, l := range res.Labels {
					if l != 0 {
						return
					}
				}
				t.Fatal("the whole blob is one cluster: the root was selected")
			}
		})
	}
}

func TestDuplicates(t *testing.T) {
	base, truth := blobs(6, threeCenters, 40, 0.5, 0, 0, 0)
	var pts [][]float64
	var tr []int
	for i, p := range base {
		for range 3 {
			pts = append(pts, append([]float64(nil), p...))
			tr = append(tr, truth[i])
		}
	}
	for _, tc := range []struct {
		name string
		opts Options
	}{
		// MinSamples 3: every point's core distance is 0 (itself and two copies).
		{"zero core distances", Options{MinClusterSize: 10, MinSamples: 3}},
		{"copies below min cluster size", Options{MinClusterSize: 10}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			res, err := Cluster(pts, tc.opts)
			if err != nil {
				t.Fatal(err)
			}
			checkResult(t, res, len(pts))
			if res.NumClusters() != 3 {
				t.Fatalf("got %d clusters, want 3", res.NumClusters())
			}
			if !samePartition(res.Labels, tr) {
				t.Fatalf("labels %v do not recover the blobs", res.Labels)
			}
		})
	}
}

func TestMaxClusters(t *testing.T) {
	centers := [][]float64{{0, 0}, {10, 0}, {0, 10}, {10, 10}, {20, 20}}
	pts, _ := blobs(7, centers, 40, 0.5, 0, 0, 0)
	full, err := Cluster(pts, Options{MinClusterSize: 10})
	if err != nil {
		t.Fatal(err)
	}
	if full.NumClusters() != 5 {
		t.Fatalf("got %d clusters without a cap, want 5", full.NumClusters())
	}
	for _, limit := range []int{1, 2, 4, 5, 9} {
		t.Run(fmt.Sprint("max ", limit), func(t *testing.T) {
			res, err := Cluster(pts, Options{MinClusterSize: 10, MaxClusters: limit})
			if err != nil {
				t.Fatal(err)
			}
			checkResult(t, res, len(pts))
			want := min(limit, 5)
			if res.NumClusters() != want {
				t.Fatalf("got %d clusters, want %d", res.NumClusters(), want)
			}
			// Kept clusters are the most stable ones, with the same points; the rest is noise.
			for i, l := range res.Labels {
				if l >= 0 && full.Labels[i] < 0 {
					t.Fatalf("point %d is noise uncapped but in cluster %d capped", i, l)
				}
			}
			kept := res.Stabilities
			minKept := math.Inf(1)
			for _, s := range kept {
				minKept = min(minKept, s)
			}
			dropped := 0
			for _, s := range full.Stabilities {
				found := false
				for _, k := range kept {
					found = found || k == s
				}
				if !found {
					dropped++
					if s > minKept {
						t.Fatalf("dropped stability %v above kept %v", s, kept)
					}
				}
			}
			if dropped != 5-want {
				t.Fatalf("dropped %d clusters, want %d", dropped, 5-want)
			}
		})
	}
}

func TestOrderInvariance(t *testing.T) {
	pts, _ := blobs(8, threeCenters, 60, 0.8, 40, -5, 15)
	lattice := make([][]float64, 0, 60)
	for i := range 30 {
		lattice = append(lattice, []float64{float64(i % 10), float64(i / 10)}, []float64{float64(i%10) + 40, float64(i / 10)})
	}
	for _, tc := range []struct {
		name string
		pts  [][]float64
		opts Options
	}{
		{"blobs with noise", pts, Options{}},
		{"blobs min samples 2", pts, Options{MinClusterSize: 8, MinSamples: 2}},
		// Many equal distances: the tie handling must not depend on order.
		{"lattices", lattice, Options{MinClusterSize: 4, MinSamples: 3}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			base, err := Cluster(tc.pts, tc.opts)
			if err != nil {
				t.Fatal(err)
			}
			r := rand.New(rand.NewPCG(9, 10))
			for trial := range 5 {
				perm := r.Perm(len(tc.pts))
				shuffled := make([][]float64, len(tc.pts))
				for i, j := range perm {
					shuffled[i] = tc.pts[j]
				}
				res, err := Cluster(shuffled, tc.opts)
				if err != nil {
					t.Fatal(err)
				}
				back := make([]int, len(tc.pts))
				prob := make([]float64, len(tc.pts))
				for i, j := range perm {
					back[j] = res.Labels[i]
					prob[j] = res.Probabilities[i]
				}
				if !samePartition(base.Labels, back) {
					t.Fatalf("trial %d: partition changed under permutation", trial)
				}
				for i := range prob {
					if prob[i] != base.Probabilities[i] {
						t.Fatalf("trial %d: point %d probability %v, was %v", trial, i, prob[i], base.Probabilities[i])
					}
				}
			}
		})
	}
}

func TestInvalid(t *testing.T) {
	ok := [][]float64{{0, 0}, {1, 1}, {2, 2}, {3, 3}, {4, 4}}
	for _, tc := range []struct {
		name string
		pts  [][]float64
		opts Options
	}{
		{"no points", nil, Options{}},
		{"zero dimension", [][]float64{{}, {}}, Options{MinSamples: 1}},
		{"ragged", [][]float64{{0, 0}, {1}, {2, 2}, {3, 3}, {4, 4}}, Options{}},
		{"NaN", [][]float64{{0, 0}, {math.NaN(), 1}, {2, 2}, {3, 3}, {4, 4}}, Options{}},
		{"min cluster size 1", ok, Options{MinClusterSize: 1}},
		{"negative min samples", ok, Options{MinSamples: -1}},
		{"min samples above n", ok, Options{MinSamples: 6}},
		{"default min samples above n", ok[:4], Options{}},
		{"negative max clusters", ok, Options{MaxClusters: -1}},
		{"unknown metric", ok, Options{Metric: 7}},
		{"cosine zero vector", ok, Options{Metric: Cosine}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Cluster(tc.pts, tc.opts)
			if !errors.Is(err, apperr.ErrInvalid) {
				t.Fatalf("error %v, want apperr.ErrInvalid", err)
			}
		})
	}
}

func TestNthSmallest(t *testing.T) {
	r := rand.New(rand.NewPCG(11, 12))
	for _, n := range []int{1, 2, 7, 100} {
		t.Run(fmt.Sprint(n), func(t *testing.T) {
			a := make([]float64, n)
			for i := range a {
				a[i] = float64(r.IntN(5)) // many ties
			}
			sorted := append([]float64(nil), a...)
			for i := 1; i < n; i++ {
				for j := i; j > 0 && sorted[j] < sorted[j-1]; j-- {
					sorted[j], sorted[j-1] = sorted[j-1], sorted[j]
				}
			}
			for k := range n {
				if got := nthSmallest(append([]float64(nil), a...), k); got != sorted[k] {
					t.Fatalf("k=%d: got %v, want %v", k, got, sorted[k])
				}
			}
		})
	}
}

func BenchmarkCluster(b *testing.B) {
	for _, n := range []int{2000, 10000} {
		b.Run(fmt.Sprint(n, "x384"), func(b *testing.B) {
			r := rand.New(rand.NewPCG(13, 14))
			centers := make([][]float64, 20)
			for c := range centers {
				centers[c] = make([]float64, 384)
				for k := range centers[c] {
					centers[c][k] = r.NormFloat64()
				}
			}
			pts := make([][]float64, n)
			for i := range pts {
				c := centers[r.IntN(len(centers))]
				p := make([]float64, 384)
				for k := range p {
					p[k] = c[k] + 0.3*r.NormFloat64()
				}
				pts[i] = p
			}
			var clusters int
			for b.Loop() {
				res, err := Cluster(pts, Options{MinClusterSize: 10, Metric: Cosine})
				if err != nil {
					b.Fatal(err)
				}
				clusters = res.NumClusters()
			}
			b.ReportMetric(float64(clusters), "clusters")
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(n), "ns/point")
		})
	}
}

// TestTreeReclusters: a Tree built once condenses and selects for any minimum cluster
// size and cap exactly as Cluster with those options, and refuses invalid ones.
func TestTreeReclusters(t *testing.T) {
	pts, _ := blobs(5, [][]float64{{0, 0}, {6, 0}, {0, 6}, {6, 6}}, 60, 0.5, 20, -3, 9)
	tree, err := NewTree(pts, Options{MinSamples: 5})
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct{ size, max int }{{5, 0}, {15, 0}, {40, 0}, {10, 2}} {
		want, err := Cluster(pts, Options{MinClusterSize: c.size, MinSamples: 5, MaxClusters: c.max})
		if err != nil {
			t.Fatal(err)
		}
		got, err := tree.Cluster(c.size, c.max)
		if err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(got.Labels, want.Labels) || !slices.Equal(got.Probabilities, want.Probabilities) {
			t.Errorf("size %d cap %d: the tree's clustering differs from Cluster's", c.size, c.max)
		}
	}
	if _, err := tree.Cluster(1, 0); err == nil {
		t.Error("min cluster size 1 accepted")
	}
}

// tailedBlobs is two dense Gaussian blobs in 10 dimensions that nearly touch (so the
// root, which is never selected, splits late and the points of a blob's fringe fall out
// of it as noise), each with a wider fringe of 20 points, plus uniform noise over a box
// around them and two far outliers. truth is each point's blob (its fringe included),
// -1 for the uniform noise and the outliers.
func tailedBlobs(seed uint64) ([][]float64, []int) {
	r := rand.New(rand.NewPCG(seed, seed+1))
	const dim = 10
	var pts [][]float64
	var truth []int
	add := func(g int, sd float64, count int) {
		for range count {
			p := make([]float64, dim)
			for k := range p {
				p[k] = sd * r.NormFloat64()
			}
			p[0] += 0.8 * float64(g)
			pts, truth = append(pts, p), append(truth, g)
		}
	}
	add(0, 0.1, 150)
	add(1, 0.1, 150)
	add(0, 0.15, 20)
	add(1, 0.15, 20)
	for range 20 {
		p := make([]float64, dim)
		for k := range p {
			p[k] = -1 + 3*r.Float64()
		}
		pts, truth = append(pts, p), append(truth, -1)
	}
	far := make([]float64, dim)
	far[0], far[1] = 30, -30
	pts = append(pts, far, []float64{-40, 20, 0, 0, 0, 0, 0, 0, 0, 0})
	return pts, append(truth, -1, -1)
}

// TestAttach: attaching joins exactly the noise points whose Reach scores at most the
// limit, each to its nearest cluster (members keep theirs, the numbering follows the new
// sizes), with a probability no higher than any member's; the blob points attached
// (their fringe, mostly) join their own blob, bar a few lying between the two, while the
// far outliers and most uniform noise stay -1; the result does not depend on the order
// of the points.
func TestAttach(t *testing.T) {
	pts, truth := tailedBlobs(21)
	opts := Options{MinClusterSize: 15, MinSamples: 5}
	tree, err := NewTree(pts, opts)
	if err != nil {
		t.Fatal(err)
	}
	base, err := tree.Cluster(opts.MinClusterSize, 0)
	if err != nil {
		t.Fatal(err)
	}
	if base.NumClusters() != 2 {
		t.Fatalf("%d clusters before attaching, want 2", base.NumClusters())
	}
	reaches := tree.Reaches(base)
	const limit = 2
	got := tree.Attach(base, limit)
	checkResult(t, got, len(pts))
	// Where each base cluster went (members keep their cluster).
	moved := map[int]int{}
	minProb := map[int]float64{}
	for i, l := range base.Labels {
		if l < 0 {
			continue
		}
		if to, ok := moved[l]; ok && to != got.Labels[i] {
			t.Fatalf("members of cluster %d split between %d and %d", l, to, got.Labels[i])
		}
		moved[l] = got.Labels[i]
		if p, ok := minProb[l]; !ok || base.Probabilities[i] < p {
			minProb[l] = base.Probabilities[i]
		}
		if got.Probabilities[i] != base.Probabilities[i] {
			t.Fatalf("member %d: probability %v became %v", i, base.Probabilities[i], got.Probabilities[i])
		}
	}
	attached, tailAttached, wrong, noiseKept, tailNoise := 0, 0, 0, 0, 0
	for i, l := range base.Labels {
		if l >= 0 {
			if reaches[i].Cluster != -1 {
				t.Fatalf("member %d has a reach %+v", i, reaches[i])
			}
			continue
		}
		r := reaches[i]
		if r.Score <= limit {
			attached++
			if got.Labels[i] != moved[r.Cluster] {
				t.Fatalf("noise point %d (score %.2f) labelled %d, want %d", i, r.Score, got.Labels[i], moved[r.Cluster])
			}
			if got.Probabilities[i] <= 0 || got.Probabilities[i] > minProb[r.Cluster] {
				t.Fatalf("attached point %d: probability %v, members' lowest %v", i, got.Probabilities[i], minProb[r.Cluster])
			}
			if truth[i] >= 0 {
				tailAttached++
				if base.Labels[slices.Index(truth, truth[i])] != r.Cluster {
					wrong++
				}
			}
			continue
		}
		if got.Labels[i] != -1 {
			t.Fatalf("noise point %d (score %.2f) labelled %d", i, r.Score, got.Labels[i])
		}
		if truth[i] < 0 {
			noiseKept++
		} else {
			tailNoise++
		}
	}
	uniform := 0
	for _, g := range truth {
		if g < 0 {
			uniform++
		}
	}
	t.Logf("attached %d noise points (%d of the blobs' points, %d of them to the other blob); left as noise %d of the blobs' points and %d of %d uniform points",
		attached, tailAttached, wrong, tailNoise, noiseKept, uniform)
	if tailAttached == 0 || wrong*10 > tailAttached {
		t.Errorf("%d of the blobs' noise points attached, %d of them to the other blob", tailAttached, wrong)
	}
	if n := len(pts); got.Labels[n-1] != -1 || got.Labels[n-2] != -1 {
		t.Errorf("far outliers labelled %d and %d", got.Labels[n-2], got.Labels[n-1])
	}
	if float64(noiseKept) < 0.75*float64(uniform) {
		t.Errorf("%d of %d uniform noise points stay -1, want at least 75%%", noiseKept, uniform)
	}
	if none := tree.Attach(base, 0); !slices.Equal(none.Labels, base.Labels) {
		t.Error("Attach with limit 0 changed the labels")
	}
	if all := tree.Attach(base, math.Inf(1)); slices.Contains(all.Labels, -1) {
		t.Error("Attach without a limit left noise")
	}

	// The same points in another order: the same attached partition and probabilities.
	perm := rand.New(rand.NewPCG(5, 6)).Perm(len(pts))
	shuffled := make([][]float64, len(pts))
	for i, j := range perm {
		shuffled[i] = pts[j]
	}
	tree2, err := NewTree(shuffled, opts)
	if err != nil {
		t.Fatal(err)
	}
	base2, err := tree2.Cluster(opts.MinClusterSize, 0)
	if err != nil {
		t.Fatal(err)
	}
	got2 := tree2.Attach(base2, limit)
	back, prob := make([]int, len(pts)), make([]float64, len(pts))
	for i, j := range perm {
		back[j], prob[j] = got2.Labels[i], got2.Probabilities[i]
	}
	if !samePartition(got.Labels, back) || !slices.Equal(got.Probabilities, prob) {
		t.Error("attaching depends on the order of the points")
	}
}

// TestPrunedDistancesAreExact: distBelow returns dist bit for bit when it is below the
// bound and at least the bound otherwise, and the pruned core distances equal the k-th
// smallest of every distance computed in full, for both metrics and several dimensions.
func TestPrunedDistancesAreExact(t *testing.T) {
	r := rand.New(rand.NewPCG(11, 12))
	for _, dim := range []int{3, 16, 37} {
		pts := make([][]float64, 300)
		for i := range pts {
			pts[i] = make([]float64, dim)
			for k := range pts[i] {
				pts[i][k] = float64(i%3) + r.NormFloat64()
			}
		}
		for _, m := range []Metric{Euclidean, Cosine} {
			sp := newSpace(pts, m)
			for trial := range 2000 {
				i, j := r.IntN(len(pts)), r.IntN(len(pts))
				full := sp.dist(i, j)
				bound := full * (0.5 + r.Float64())
				got := sp.distBelow(i, j, bound)
				if full < bound && got != full || full >= bound && got < bound {
					t.Fatalf("dim %d metric %d trial %d: distBelow %v with bound %v, dist %v", dim, m, trial, got, bound, full)
				}
			}
			for _, k := range []int{2, 5, 9} {
				core := sp.coreDistances(k)
				row := make([]float64, len(pts))
				for i := range pts {
					for j := range pts {
						row[j] = sp.dist(i, j)
					}
					row[i] = 0
					if want := nthSmallest(row, k-1); core[i] != want {
						t.Fatalf("dim %d metric %d k %d point %d: core %v, want %v", dim, m, k, i, core[i], want)
					}
				}
			}
		}
	}
}

// TestMergeJoinsNearestClusters: merging six blobs in three well-separated pairs down to
// three joins each pair, keeps every point's cluster-mates and probability, and adds no
// noise; a size bound keeps a merge from making a cluster past it while another merge
// stays within it.
func TestMergeJoinsNearestClusters(t *testing.T) {
	centers := [][]float64{{0, 0}, {3, 0}, {40, 0}, {43, 0}, {0, 40}, {3, 40}}
	pts, truth := blobs(3, centers, 40, 0.4, 0, 0, 0)
	tree, err := NewTree(pts, Options{MinSamples: 5})
	if err != nil {
		t.Fatal(err)
	}
	full, err := tree.Cluster(10, 0)
	if err != nil || full.NumClusters() != 6 {
		t.Fatalf("%d clusters without a cap (%v), want 6", full.NumClusters(), err)
	}
	got := Merge(full, pts, 3, 0)
	checkResult(t, got, len(pts))
	if got.NumClusters() != 3 {
		t.Fatalf("merged to %d clusters, want 3", got.NumClusters())
	}
	for p := range pts {
		if (full.Labels[p] < 0) != (got.Labels[p] < 0) || got.Probabilities[p] != full.Probabilities[p] {
			t.Fatalf("point %d: label %d -> %d, probability %v -> %v", p, full.Labels[p], got.Labels[p], full.Probabilities[p], got.Probabilities[p])
		}
		for q := range pts {
			samePair := truth[p]/2 == truth[q]/2
			if full.Labels[p] >= 0 && full.Labels[q] >= 0 && (got.Labels[p] == got.Labels[q]) != samePair {
				t.Fatalf("points %d and %d (blobs %d, %d): merged together %v", p, q, truth[p], truth[q], got.Labels[p] == got.Labels[q])
			}
		}
	}
	var stab float64
	for _, s := range full.Stabilities {
		stab += s
	}
	var merged float64
	for _, s := range got.Stabilities {
		merged += s
	}
	if math.Abs(stab-merged) > 1e-9*stab {
		t.Errorf("stabilities sum %v after merging, %v before", merged, stab)
	}
	if same := Merge(full, pts, 6, 0); !slices.Equal(same.Labels, full.Labels) {
		t.Error("a cap that is not exceeded changed the clustering")
	}
	// Two close blobs of 40 and a far one of 15, merged to two with a bound of 60
	// points: the close pair (80) would pass it, so the far blob joins one of them.
	pts, _ = blobs(4, [][]float64{{0, 0}, {3, 0}}, 40, 0.4, 0, 0, 0)
	far, _ := blobs(5, [][]float64{{40, 40}}, 15, 0.4, 0, 0, 0)
	pts = append(pts, far...)
	tree, err = NewTree(pts, Options{MinSamples: 5})
	if err != nil {
		t.Fatal(err)
	}
	three, err := tree.Cluster(10, 0)
	if err != nil || three.NumClusters() != 3 {
		t.Fatalf("%d clusters (%v), want 3", three.NumClusters(), err)
	}
	for bound, want := range map[int]int{0: 80, 60: 55} {
		res := Merge(three, pts, 2, bound)
		sizes := make([]int, res.NumClusters())
		for _, l := range res.Labels {
			if l >= 0 {
				sizes[l]++
			}
		}
		if len(sizes) != 2 || sizes[0] != want {
			t.Errorf("merged to two with bound %d: sizes %v, want the largest %d", bound, sizes, want)
		}
	}
}
