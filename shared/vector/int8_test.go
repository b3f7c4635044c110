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

// TestInt8KernelsAgree runs the code kernels with and without AVX-512 at every length around
// their block sizes (64- and 16-lane steps of the float-by-code kernel, 64- and 32-byte steps
// of the code-by-code one) against the portable loops, and checks that a float32 vector's
// codes (Quantize) score within Int8ErrorBound of the vector itself.
func TestInt8KernelsAgree(t *testing.T) {
	rng := rand.New(rand.NewPCG(9, 10))
	for _, wide := range []bool{true, false} {
		restore, has := vector.UseAVX512(wide)
		name := map[bool]string{true: "avx512", false: "avx2"}[wide]
		t.Run(name, func(t *testing.T) {
			if wide && !has {
				t.Skip("this CPU has no AVX-512")
			}
			lengths := []int{256, 383, 384, 385, 768, 1536}
			for n := 1; n <= 200; n++ {
				lengths = append(lengths, n)
			}
			for _, n := range lengths {
				q, v, w := make([]float32, n), make([]float32, n), make([]float32, n)
				for i := range q {
					q[i], v[i], w[i] = float32(rng.NormFloat64()), float32(rng.NormFloat64()), float32(rng.NormFloat64())
				}
				vector.Normalize(q)
				vector.Normalize(v)
				vector.Normalize(w)
				a, b := make([]int8, n), make([]int8, n)
				sa := vector.Quantize(a, v)
				vector.Quantize(b, w)
				var want float64
				var wantInt int32
				for i := range q {
					want += float64(q[i]) * float64(a[i])
					wantInt += int32(a[i]) * int32(b[i])
				}
				if got := vector.DotInt8(q, a); math.Abs(float64(got)-want) > 1e-3 {
					t.Errorf("DotInt8 length %d = %v, want %v", n, got, want)
				}
				if got, gen := vector.DotInt8s(a, b), vector.DotInt8sGeneric(a, b); got != wantInt || gen != wantInt {
					t.Errorf("DotInt8s length %d = %d (portable %d), want %d", n, got, gen, wantInt)
				}
				exact := vector.DotGeneric(q, v)
				if d, bound := math.Abs(float64(sa*vector.DotInt8(q, a)-exact)), vector.Int8ErrorBound(sa, vector.AbsSum(q)); d > float64(bound) {
					t.Errorf("length %d: codes' score is %v from the float32 score, bound %v", n, d, bound)
				}
			}
		})
		restore()
	}
}

// TestInt8sExtremes checks the code-by-code kernel where its sums are largest: every code
// -127 (or 127 against -127) over 1,536 values.
func TestInt8sExtremes(t *testing.T) {
	for _, wide := range []bool{true, false} {
		restore, _ := vector.UseAVX512(wide)
		a, b := make([]int8, 1536), make([]int8, 1536)
		for i := range a {
			a[i], b[i] = -127, -127
		}
		if got := vector.DotInt8s(a, b); got != 1536*127*127 {
			t.Errorf("avx512 %v: all -127 = %d, want %d", wide, got, 1536*127*127)
		}
		for i := range b {
			b[i] = 127
		}
		if got := vector.DotInt8s(a, b); got != -1536*127*127 {
			t.Errorf("avx512 %v: -127 by 127 = %d, want %d", wide, got, -1536*127*127)
		}
		restore()
	}
}

// BenchmarkDotInt8_384 times the code kernels on rows in cache: a float32 query against a
// row of codes, a query's 16-bit codes against a row of codes (a compact graph's walk) and
// two rows of codes (its build), per path.
func BenchmarkDotInt8_384(b *testing.B) {
	rng := rand.New(rand.NewPCG(1, 2))
	q, v := make([]float32, 384), make([]float32, 384)
	for i := range q {
		q[i], v[i] = float32(rng.NormFloat64()), float32(rng.NormFloat64())
	}
	c, d := make([]int8, 384), make([]int8, 384)
	vector.Quantize(c, q)
	vector.Quantize(d, v)
	q16 := make([]int16, 384)
	vector.Normalize(q)
	vector.QuantizeQuery(q16, q)
	for _, wide := range []bool{true, false} {
		name := map[bool]string{true: "avx512", false: "avx2"}[wide]
		restore, has := vector.UseAVX512(wide)
		if wide && !has {
			restore()
			continue
		}
		b.Run("query/"+name, func(b *testing.B) {
			var s float32
			for b.Loop() {
				s += vector.DotInt8(q, c)
			}
			_ = s
		})
		b.Run("query16/"+name, func(b *testing.B) {
			var s int32
			for b.Loop() {
				s += vector.DotInt16x8(q16, d)
			}
			_ = s
		})
		b.Run("codes/"+name, func(b *testing.B) {
			var s int32
			for b.Loop() {
				s += vector.DotInt8s(c, d)
			}
			_ = s
		})
		restore()
	}
}

// TestQuantizeUnit: unit codes are a unit vector, and a unit query's score on them stays
// within UnitCodesBound of its float32 score, for vectors with and without a spike.
func TestQuantizeUnit(t *testing.T) {
	rng := rand.New(rand.NewPCG(11, 12))
	for _, n := range []int{1, 2, 15, 16, 17, 64, 383, 384, 1536} {
		for trial := range 40 {
			q, v := make([]float32, n), make([]float32, n)
			for i := range q {
				q[i], v[i] = float32(rng.NormFloat64()), float32(rng.NormFloat64())
			}
			if trial%4 == 0 {
				v[rng.IntN(n)] *= 30
			}
			if trial%5 == 0 { // the query close to the vector: the scores that matter most
				copy(q, v)
				q[rng.IntN(n)] += 0.1
			}
			vector.Normalize(q)
			vector.Normalize(v)
			c := make([]int8, n)
			scale, resid := vector.QuantizeUnit(c, v)
			var norm float64
			for _, x := range c {
				norm += float64(scale) * float64(x) * float64(scale) * float64(x)
			}
			if math.Abs(norm-1) > 1e-5 {
				t.Fatalf("length %d: codes' length^2 %v, want 1", n, norm)
			}
			got, want := scale*vector.DotInt8(q, c), vector.Dot(q, v)
			if d := math.Abs(float64(got - want)); d > float64(vector.UnitCodesBound(resid)) {
				t.Fatalf("length %d: codes' score %v is %v from %v, bound %v", n, got, d, want, vector.UnitCodesBound(resid))
			}
		}
	}
	if s, r := vector.QuantizeUnit(make([]int8, 3), make([]float32, 3)); s != 0 || r != 0 {
		t.Errorf("zero vector: scale %v residual %v, want 0, 0", s, r)
	}
}

// TestQueryCodes: the 16-bit query kernel agrees with the portable loop at every length
// around its block sizes (32- and 64-code steps on AVX-512, 16 and 32 on AVX2), at the
// extremes of its sums, and a unit query's score on its codes and a row's unit codes stays
// within UnitCodesBound(row residual) + the query's residual of the float32 score.
func TestQueryCodes(t *testing.T) {
	rng := rand.New(rand.NewPCG(13, 14))
	for _, wide := range []bool{true, false} {
		restore, has := vector.UseAVX512(wide)
		t.Run(map[bool]string{true: "avx512", false: "avx2"}[wide], func(t *testing.T) {
			if wide && !has {
				t.Skip("this CPU has no AVX-512")
			}
			lengths := []int{256, 383, 384, 385, 516, 517, 768, 1536}
			for n := 1; n <= 200; n++ {
				lengths = append(lengths, n)
			}
			for _, n := range lengths {
				q, v := make([]float32, n), make([]float32, n)
				for i := range q {
					q[i], v[i] = float32(rng.NormFloat64()), float32(rng.NormFloat64())
				}
				if n%3 == 0 {
					copy(q, v) // a query close to the row
					q[0] += 0.05
				}
				vector.Normalize(q)
				vector.Normalize(v)
				qc, c := make([]int16, n), make([]int8, n)
				qs, qr := vector.QuantizeQuery(qc, q)
				vs, vr := vector.QuantizeUnit(c, v)
				var want int64
				for i := range qc {
					want += int64(qc[i]) * int64(c[i])
				}
				got := vector.DotInt16x8(qc, c)
				if int64(got) != want || vector.DotInt16x8Generic(qc, c) != got {
					t.Fatalf("DotInt16x8 length %d = %d (portable %d), want %d", n, got, vector.DotInt16x8Generic(qc, c), want)
				}
				approx := vs * qs * float32(got)
				bound := vector.UnitCodesBound(vr) + qr
				if d := math.Abs(float64(approx - vector.Dot(q, v))); d > float64(bound) {
					t.Fatalf("length %d: score on the codes %v is %v from %v, bound %v", n, approx, d, vector.Dot(q, v), bound)
				}
				// The extremes: every query code at the largest QuantizeQuery gives for this
				// length, every row code -127.
				flat := make([]float32, n)
				for i := range flat {
					flat[i] = 1
				}
				vector.QuantizeQuery(qc, flat)
				for i := range c {
					c[i] = -127
				}
				if got, want := vector.DotInt16x8(qc, c), -int64(qc[0])*127*int64(n); int64(got) != want {
					t.Fatalf("extremes, length %d: %d, want %d", n, got, want)
				}
			}
		})
		restore()
	}
}
