package segment

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/firmoapi/firmo/shared/company"
)

// blobs makes groups of points around random centres in dims dimensions, each group
// with its own spread, plus uniform noise over the groups' bounding box. truth is each
// point's group, -1 for noise.
func blobs(r *rand.Rand, dims int, sizes []int, spreads []float64, noise int) (points [][]float32, truth []int) {
	centres := make([][]float64, len(sizes))
	for g := range centres {
		centres[g] = make([]float64, dims)
		for j := range centres[g] {
			centres[g][j] = r.NormFloat64() * 1.5
		}
	}
	for g, n := range sizes {
		for range n {
			p := make([]float32, dims)
			for j := range p {
				p[j] = float32(centres[g][j] + r.NormFloat64()*spreads[g])
			}
			points, truth = append(points, p), append(truth, g)
		}
	}
	lo, hi := make([]float64, dims), make([]float64, dims)
	for j := range dims {
		lo[j], hi[j] = math.Inf(1), math.Inf(-1)
		for _, c := range centres {
			lo[j], hi[j] = min(lo[j], c[j]-1), max(hi[j], c[j]+1)
		}
	}
	for range noise {
		p := make([]float32, dims)
		for j := range p {
			p[j] = float32(lo[j] + r.Float64()*(hi[j]-lo[j]))
		}
		points, truth = append(points, p), append(truth, -1)
	}
	return points, truth
}

// blobDims is the dimension of the blob tests: uniform noise in a box is sparse there,
// as it is in the projected space segmentation clusters (in hundreds of dimensions
// uniform points are all about equally far apart and read as one more group).
const blobDims = 10

// TestClusterFindsBlobsOfSeveralDensities: four groups of different sizes and spreads,
// with 5% uniform noise over their bounding box, go through the same projection and
// clustering as segmentation: the adjusted Rand index against the truth (noise as its
// own class) is at least 0.95, the noise is found as -1 (at least 75% of it: noise
// falling inside a group's spread rightly joins it) and at most 2% of group members
// are.
func TestClusterFindsBlobsOfSeveralDensities(t *testing.T) {
	for _, seed := range []uint64{1, 2, 3} {
		r := rand.New(rand.NewPCG(seed, 99))
		points, truth := blobs(r, blobDims, []int{400, 250, 150, 100}, []float64{0.05, 0.08, 0.03, 0.12}, 47)
		res, err := clusterPoints(reduce(points, reducedDims), nil, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		ari := adjustedRand(truth, res.Labels)
		noise, found, lost := 0, 0, 0
		for i, g := range truth {
			switch {
			case g < 0:
				noise++
				if res.Labels[i] < 0 {
					found++
				}
			case res.Labels[i] < 0:
				lost++
			}
		}
		t.Logf("seed %d: %d clusters, ARI %.4f, noise found as -1: %d of %d, group members as -1: %d", seed, res.NumClusters(), ari, found, noise, lost)
		if ari < 0.95 {
			t.Errorf("seed %d: ARI %.4f, want >= 0.95", seed, ari)
		}
		if res.NumClusters() != 4 {
			t.Errorf("seed %d: %d clusters, want 4", seed, res.NumClusters())
		}
		if float64(found) < 0.75*float64(noise) {
			t.Errorf("seed %d: %d of %d noise points labelled -1, want at least 75%%", seed, found, noise)
		}
		if float64(lost) > 0.02*float64(len(truth)-noise) {
			t.Errorf("seed %d: %d group members labelled -1, want at most 2%%", seed, lost)
		}
	}
}

// TestClusterCapMergesRatherThanDropping: with a cap below the natural number of
// groups, the cap holds and most points stay clustered (segments merge rather than
// fall into noise).
func TestClusterCapMergesRatherThanDropping(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 7))
	// Six groups in three well-separated pairs: merging a pair is natural.
	var points [][]float32
	for pair := range 3 {
		ps, _ := blobs(r, 16, []int{120, 120}, []float64{0.04, 0.04}, 0)
		shift := float32(pair * 20)
		for i := range ps {
			ps[i][0] += shift
			points = append(points, ps[i])
		}
	}
	free, err := clusterPoints(reduce(points, reducedDims), nil, nil, 0)
	if err != nil {
		t.Fatal(err)
	}
	capped, err := clusterPoints(reduce(points, reducedDims), nil, nil, 3)
	if err != nil {
		t.Fatal(err)
	}
	noise := 0
	for _, l := range capped.Labels {
		if l < 0 {
			noise++
		}
	}
	t.Logf("uncapped %d clusters; capped at 3: %d clusters, %d of %d unclustered", free.NumClusters(), capped.NumClusters(), noise, len(points))
	if capped.NumClusters() > 3 || capped.NumClusters() < 2 {
		t.Errorf("capped at 3: %d clusters", capped.NumClusters())
	}
	if noise > len(points)/4 {
		t.Errorf("capped at 3: %d of %d points unclustered, want at most a quarter", noise, len(points))
	}
}

// TestReduceIsDeterministic: the projection of the same input is the same, and a group
// structure survives it (the first component separates two groups).
func TestReduceIsDeterministic(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	points, _ := blobs(r, 100, []int{50, 50}, []float64{0.1, 0.1}, 0)
	a, b := reduce(points, 8), reduce(points, 8)
	if len(a[0]) != 8 {
		t.Fatalf("reduced to %d dimensions, want 8", len(a[0]))
	}
	for i := range a {
		for j := range a[i] {
			if a[i][j] != b[i][j] {
				t.Fatalf("point %d coordinate %d: %v then %v", i, j, a[i][j], b[i][j])
			}
		}
	}
	// The first component separates the two groups.
	var m0, m1 float64
	for i := range 50 {
		m0 += a[i][0] / 50
		m1 += a[50+i][0] / 50
	}
	if math.Abs(m0-m1) < 1 {
		t.Errorf("first component means %.3f and %.3f: the groups are not separated", m0, m1)
	}
}

// adjustedRand is the adjusted Rand index of two labelings (Hubert and Arabie).
func adjustedRand(a, b []int) float64 {
	type pair struct{ x, y int }
	cont := map[pair]int{}
	ra, rb := map[int]int{}, map[int]int{}
	for i := range a {
		cont[pair{a[i], b[i]}]++
		ra[a[i]]++
		rb[b[i]]++
	}
	c2 := func(n int) float64 { return float64(n) * float64(n-1) / 2 }
	var index, sa, sb float64
	for _, n := range cont {
		index += c2(n)
	}
	for _, n := range ra {
		sa += c2(n)
	}
	for _, n := range rb {
		sb += c2(n)
	}
	expected := sa * sb / c2(len(a))
	maxIndex := (sa + sb) / 2
	if maxIndex == expected {
		return 1
	}
	return (index - expected) / (maxIndex - expected)
}

// TestWithLabels: the embedding part is scaled to unit root-mean-square norm; each
// industry and sub-industry some profile holds with at least minLabelProbability gets
// one weighted coordinate (a barely considered one gets none); two companies of one
// industry whose embeddings differ end up closer than two of different industries with
// the same embedding difference; and the coordinates do not depend on the order of the
// profiles.
func TestWithLabels(t *testing.T) {
	points := [][]float64{{1, 0}, {-1, 0}, {1, 2}, {1, -2}}
	profiles := []company.Profile{
		{IndustryGroups: map[string]float64{"SOFTWARE": 1}, SubIndustry: map[string]float64{"SOFTWARE/DEVTOOLS": 0.8}},
		{IndustryGroups: map[string]float64{"SOFTWARE": 0.9, "RETAIL": 0.01}},
		{IndustryGroups: map[string]float64{"LOGISTICS": 1}},
		{IndustryGroups: map[string]float64{"LOGISTICS": 0.6, "SOFTWARE": 0.4}},
	}
	got := withLabels(points, profiles)
	// SOFTWARE, LOGISTICS and SOFTWARE/DEVTOOLS; RETAIL at 0.01 gets no coordinate.
	if len(got[0]) != 2+3 {
		t.Fatalf("%d coordinates, want 2 + 3: %v", len(got[0]), got[0])
	}
	var ss float64
	for _, p := range got {
		ss += p[0]*p[0] + p[1]*p[1]
	}
	if math.Abs(ss/float64(len(got))-1) > 1e-12 {
		t.Errorf("embedding part has mean squared norm %v, want 1", ss/float64(len(got)))
	}
	sum := func(p []float64) (s float64) {
		for _, v := range p[2:] {
			s += v
		}
		return s
	}
	if want := labelWeight*1 + subWeight*0.8; math.Abs(sum(got[0])-want) > 1e-12 {
		t.Errorf("label coordinates of the first profile sum to %v, want %v", sum(got[0]), want)
	}
	dist := func(a, b []float64) float64 {
		var s float64
		for k := range a {
			s += (a[k] - b[k]) * (a[k] - b[k])
		}
		return math.Sqrt(s)
	}
	// Profile 0 is as far from 1 (software too) as from 2 (logistics) in the embedding;
	// the labels make 1 the nearer.
	if dist(got[0], got[1]) >= dist(got[0], got[2]) {
		t.Errorf("same industry %.3f apart, different industries %.3f", dist(got[0], got[1]), dist(got[0], got[2]))
	}
	perm := []int{3, 1, 0, 2}
	pp, pr := make([][]float64, 4), make([]company.Profile, 4)
	for i, j := range perm {
		pp[i], pr[i] = points[j], profiles[j]
	}
	again := withLabels(pp, pr)
	for i, j := range perm {
		if !slices.Equal(again[i], got[j]) {
			t.Errorf("profile %d: %v in another order, %v before", j, again[i], got[j])
		}
	}
}

// TestKeepIndustriesSwapsAcrossGroups: two groups that each mix industries A and B
// become one group per industry; the size bound blocks moving one segment alone, so it
// takes a swap, and the bound is never passed.
func TestKeepIndustriesSwapsAcrossGroups(t *testing.T) {
	var labels []int
	var industries []string
	for seg, ind := range []string{"A", "B", "B", "A"} {
		for range 10 {
			labels = append(labels, seg)
			industries = append(industries, ind)
		}
	}
	labels = append(labels, -1) // noise is left alone
	industries = append(industries, "A")
	got := keepIndustries(labels, []int{0, 0, 2, 2}, industries, 20)
	if got[0] != got[3] || got[1] != got[2] || got[0] == got[1] {
		t.Errorf("groups %v, want segments 0 and 3 together, 1 and 2 together", got)
	}
	// Already one industry per group: nothing moves.
	same := keepIndustries(labels, []int{0, 1, 1, 0}, industries, 20)
	if same[0] != 0 || same[1] != 1 || same[2] != 1 || same[3] != 0 {
		t.Errorf("a grouping that keeps industries together changed: %v", same)
	}
}
