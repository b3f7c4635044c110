package vector_test

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/firmoapi/firmo/shared/vector"
)

// TestHalfRoundTrip checks the conversion against known encodings and that every finite
// half survives a round trip through float32.
func TestHalfRoundTrip(t *testing.T) {
	known := []struct {
		f float32
		h uint16
	}{
		{0, 0x0000}, {1, 0x3c00}, {-2, 0xc000}, {0.5, 0x3800}, {65504, 0x7bff},
		{float32(math.Inf(1)), 0x7c00}, {1e6, 0x7c00}, {5.960464477539063e-08, 0x0001}, // smallest subnormal
		{0.333333333, 0x3555}, {1 + 1.0/2048, 0x3c00}, // a tie rounds to even
		{1 + 3.0/2048, 0x3c02},
	}
	for _, k := range known {
		if got := vector.ToHalfOne(k.f); got != k.h {
			t.Errorf("toHalf(%v) = %#04x, want %#04x", k.f, got, k.h)
		}
	}
	for h := 0; h < 1<<16; h++ {
		if h&0x7c00 == 0x7c00 && h&0x3ff != 0 {
			continue // NaN payloads
		}
		f := vector.FromHalfOne(uint16(h))
		if back := vector.ToHalfOne(f); back != uint16(h) {
			t.Fatalf("half %#04x -> %v -> %#04x", h, f, back)
		}
	}
	rng := rand.New(rand.NewPCG(3, 4))
	for i := 0; i < 10000; i++ {
		f := float32(rng.NormFloat64() * 0.1)
		back := vector.FromHalfOne(vector.ToHalfOne(f))
		if math.Abs(float64(back-f)) > math.Abs(float64(f))/2048+1e-7 {
			t.Fatalf("%v -> %v: more than half an ulp off", f, back)
		}
	}
}

func TestDotHalfMatchesFloat(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	for _, n := range []int{1, 7, 8, 9, 31, 32, 33, 40, 64, 100, 384} {
		q, v := make([]float32, n), make([]float32, n)
		for i := range q {
			q[i], v[i] = float32(rng.NormFloat64()), float32(rng.NormFloat64())
		}
		vector.Normalize(q)
		vector.Normalize(v)
		h := make([]uint16, n)
		vector.ToHalf(h, v)
		back := make([]float32, n)
		vector.FromHalf(back, h)
		want := vector.DotGeneric(q, back) // exact dot of the stored (rounded) values
		for name, got := range map[string]float32{"dispatch": vector.DotHalf(q, h), "generic": vector.DotHalfGeneric(q, h)} {
			if math.Abs(float64(got-want)) > 1e-5 {
				t.Errorf("%s DotHalf length %d = %v, want %v", name, n, got, want)
			}
		}
		hq := make([]uint16, n)
		vector.ToHalf(hq, q)
		backQ := make([]float32, n)
		vector.FromHalf(backQ, hq)
		if got, want := vector.DotHalves(hq, h), vector.DotGeneric(backQ, back); math.Abs(float64(got-want)) > 1e-5 {
			t.Errorf("DotHalves length %d = %v, want %v", n, got, want)
		}
		if d := math.Abs(float64(vector.DotHalf(q, h) - vector.Dot(q, v))); d > 2e-3 {
			t.Errorf("length %d: half precision moved the cosine by %v", n, d)
		}
	}
}
