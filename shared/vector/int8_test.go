package vector_test

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/firmoapi/firmo/shared/vector"
)

// TestDotInt8 checks both kernels against a float64 dot of the codes, and that the codes'
// score stays within Int8ErrorBound of the half-precision score it stands in for (the
// bound the exact scans rely on to re-score every candidate that could make the top k).
func TestDotInt8(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	for _, n := range []int{1, 7, 8, 9, 31, 32, 33, 40, 64, 100, 384} {
		for trial := 0; trial < 50; trial++ {
			q, v := make([]float32, n), make([]float32, n)
			for i := range q {
				q[i], v[i] = float32(rng.NormFloat64()), float32(rng.NormFloat64())
			}
			if trial%5 == 0 { // a spike: most codes small
				v[rng.IntN(n)] *= 20
			}
			vector.Normalize(q)
			vector.Normalize(v)
			h := make([]uint16, n)
			vector.ToHalf(h, v)
			c := make([]int8, n)
			scale := vector.QuantizeHalf(c, h)
			var want float64
			for i := range q {
				want += float64(q[i]) * float64(c[i])
			}
			for name, got := range map[string]float32{"dispatch": vector.DotInt8(q, c), "generic": vector.DotInt8Generic(q, c)} {
				if math.Abs(float64(got)-want) > 1e-3 {
					t.Fatalf("%s DotInt8 length %d = %v, want %v", name, n, got, want)
				}
			}
			half := vector.DotHalf(q, h)
			approx := scale * vector.DotInt8(q, c)
			bound := vector.Int8ErrorBound(scale, vector.AbsSum(q))
			if d := math.Abs(float64(approx - half)); d > float64(bound) {
				t.Fatalf("length %d: codes' score %v is %v from the half score %v, bound %v", n, approx, d, half, bound)
			}
		}
	}
	zero := make([]int8, 4)
	if s := vector.QuantizeHalf(zero, make([]uint16, 4)); s != 0 {
		t.Errorf("scale of a zero row = %v, want 0", s)
	}
}

// TestQuantizeHalfRange checks that the largest magnitude takes code +-127 and that every
// value rounds to its nearest code.
func TestQuantizeHalfRange(t *testing.T) {
	v := []float32{0.5, -1, 0.25, 0.001, -0.5}
	h := make([]uint16, len(v))
	vector.ToHalf(h, v)
	c := make([]int8, len(v))
	scale := vector.QuantizeHalf(c, h)
	if want := float32(1.0 / 127); math.Abs(float64(scale-want)) > 1e-7 {
		t.Fatalf("scale = %v, want %v", scale, want)
	}
	want := []int8{64, -127, 32, 0, -64}
	for i := range want {
		if c[i] != want[i] {
			t.Errorf("code %d = %d, want %d", i, c[i], want[i])
		}
	}
}
