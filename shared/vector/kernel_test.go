package vector_test

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/firmoapi/firmo/shared/vector"
)

// TestHalfKernelsAgree runs the half-precision kernels with and without AVX-512 at every
// length around their block sizes (16-lane steps of 64, 8-lane steps of 32) against the
// portable loop over the same rounded values.
func TestHalfKernelsAgree(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	for _, wide := range []bool{true, false} {
		restore, has := vector.UseAVX512(wide)
		name := map[bool]string{true: "avx512", false: "fma"}[wide]
		t.Run(name, func(t *testing.T) {
			if wide && !has {
				t.Skip("this CPU has no AVX-512")
			}
			for n := 1; n <= 200; n++ {
				checkHalfKernels(t, rng, n)
			}
			for _, n := range []int{256, 383, 384, 385, 768, 1536} {
				checkHalfKernels(t, rng, n)
			}
		})
		restore()
	}
}

func checkHalfKernels(t *testing.T, rng *rand.Rand, n int) {
	t.Helper()
	q, v := make([]float32, n), make([]float32, n)
	for i := range q {
		q[i], v[i] = float32(rng.NormFloat64()), float32(rng.NormFloat64())
	}
	vector.Normalize(q)
	vector.Normalize(v)
	h, hq := make([]uint16, n), make([]uint16, n)
	vector.ToHalf(h, v)
	vector.ToHalf(hq, q)
	back, backQ := make([]float32, n), make([]float32, n)
	vector.FromHalf(back, h)
	vector.FromHalf(backQ, hq)
	if got, want := vector.DotHalf(q, h), vector.DotGeneric(q, back); math.Abs(float64(got-want)) > 1e-5 {
		t.Errorf("DotHalf length %d = %v, want %v", n, got, want)
	}
	if got, want := vector.DotHalves(hq, h), vector.DotGeneric(backQ, back); math.Abs(float64(got-want)) > 1e-5 {
		t.Errorf("DotHalves length %d = %v, want %v", n, got, want)
	}
}

// BenchmarkDotHalf384 times one query-to-row distance of the graph search on a row that is
// in cache, per kernel: the arithmetic alone (a search mostly waits on memory instead).
func BenchmarkDotHalf384(b *testing.B) {
	rng := rand.New(rand.NewPCG(1, 2))
	q, v := make([]float32, 384), make([]float32, 384)
	for i := range q {
		q[i], v[i] = float32(rng.NormFloat64()), float32(rng.NormFloat64())
	}
	h := make([]uint16, 384)
	vector.ToHalf(h, v)
	var sink float32
	for _, k := range []struct {
		name string
		wide bool
	}{{"avx512", true}, {"fma", false}} {
		b.Run(k.name, func(b *testing.B) {
			restore, has := vector.UseAVX512(k.wide)
			defer restore()
			if k.wide && !has {
				b.Skip("this CPU has no AVX-512")
			}
			b.SetBytes(384 * 2)
			for b.Loop() {
				sink += vector.DotHalf(q, h)
			}
		})
	}
	b.Run("generic", func(b *testing.B) {
		b.SetBytes(384 * 2)
		for b.Loop() {
			sink += vector.DotHalfGeneric(q, h)
		}
	})
	_ = sink
}
