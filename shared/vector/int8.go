package vector

import "math"

// 8-bit codes. The graph keeps a second copy of each vector as one signed byte per
// dimension with a per-vector scale (v[i] ~ scale x code[i]): 384 bytes for 384 dims, half
// the half-precision row. An exact scan over scattered rows waits on memory, so it first
// scores every candidate on its codes and then re-scores, on the half-precision row, only
// those the codes' error bound cannot rule out (see Int8ErrorBound).

// QuantizeHalf writes the codes of a half-precision row into dst and returns their scale:
// the largest magnitude maps to +-127, each value rounds to the nearest code.
func QuantizeHalf(dst []int8, row []uint16) float32 {
	var peak float32
	for _, h := range row {
		peak = max(peak, float32(math.Abs(float64(fromHalf(h)))))
	}
	if peak == 0 {
		clear(dst[:len(row)])
		return 0
	}
	scale := peak / 127
	for i, h := range row {
		c := math.Round(float64(fromHalf(h) / scale))
		dst[i] = int8(max(-127, min(127, c)))
	}
	return scale
}

// DotInt8 is the inner product of a float32 query and a vector's codes, before the scale:
// the vector's score is scale x DotInt8.
func DotInt8(q []float32, c []int8) float32 { return dotInt8(q, c) }

// Int8ErrorBound is how far scale x DotInt8(q, codes) can be from the dot product of q with
// the half-precision row the codes were made from: rounding moves each value by at most half
// a step (scale/2), so the dot moves by at most scale/2 x sum|q[i]| (qAbs), plus float
// summation error.
func Int8ErrorBound(scale, qAbs float32) float32 { return scale/2*qAbs*1.0001 + 1e-5 }

// AbsSum is sum|q[i]|, the qAbs of Int8ErrorBound.
func AbsSum(q []float32) float32 {
	var s float32
	for _, x := range q {
		s += float32(math.Abs(float64(x)))
	}
	return s
}

func dotInt8Generic(q []float32, c []int8) float32 {
	c = c[:len(q)]
	var s0, s1, s2, s3 float32
	i := 0
	for ; i+4 <= len(q); i += 4 {
		s0 += q[i] * float32(c[i])
		s1 += q[i+1] * float32(c[i+1])
		s2 += q[i+2] * float32(c[i+2])
		s3 += q[i+3] * float32(c[i+3])
	}
	for ; i < len(q); i++ {
		s0 += q[i] * float32(c[i])
	}
	return (s0 + s1) + (s2 + s3)
}

// Quantize writes the codes of a float32 vector into dst and returns their scale, as
// QuantizeHalf does for a half-precision row. A graph that keeps only codes (no
// half-precision rows) quantizes the vectors it is given directly.
func Quantize(dst []int8, v []float32) float32 {
	var peak float32
	for _, f := range v {
		peak = max(peak, float32(math.Abs(float64(f))))
	}
	if peak == 0 {
		clear(dst[:len(v)])
		return 0
	}
	scale := peak / 127
	for i, f := range v {
		c := math.Round(float64(f / scale))
		dst[i] = int8(max(-127, min(127, c)))
	}
	return scale
}

// DotInt8s is the integer inner product of two code vectors (at most 2^17 long, so the sum
// cannot overflow): two vectors' codes score sa x sb x DotInt8s(a, b). A graph that keeps
// only codes compares its stored vectors with each other this way while it is built.
func DotInt8s(a, b []int8) int32 { return dotInt8s(a, b) }

func dotInt8sGeneric(a, b []int8) int32 {
	b = b[:len(a)]
	var s int32
	for i := range a {
		s += int32(a[i]) * int32(b[i])
	}
	return s
}

// QuantizeUnit writes the codes of a unit vector v into dst (as Quantize: the largest
// magnitude at +-127) and returns the scale that makes them a unit vector again (1/|codes|)
// and the residual |v - scale x codes|. Unit codes keep distances between stored vectors
// unbiased (a code vector's own length would shift them), and the residual bounds the error
// of a unit query's score on the codes (Cauchy-Schwarz: |q.v - scale x q.codes| <=
// |q| x residual), about a quarter tighter than Int8ErrorBound for 384 dims.
func QuantizeUnit(dst []int8, v []float32) (scale, residual float32) {
	if Quantize(dst, v) == 0 {
		return 0, 0
	}
	var sq float64
	for _, c := range dst[:len(v)] {
		sq += float64(c) * float64(c)
	}
	s := 1 / math.Sqrt(sq)
	var r float64
	for i, f := range v {
		d := float64(f) - s*float64(dst[i])
		r += d * d
	}
	return float32(s), float32(math.Sqrt(r))
}

// UnitCodesBound is how far scale x DotInt8(q, codes) can be from q.v for a unit query q and
// codes of v made by QuantizeUnit with the given residual: the residual, plus float32
// rounding of the sums (both under 1e-5 for unit vectors of up to a few thousand dims).
func UnitCodesBound(residual float32) float32 { return residual*1.0001 + 1e-5 }

// QuantizeQuery writes a query's 16-bit codes into dst and returns their scale and the
// residual |q - scale x codes|. The largest magnitude maps to the largest code that keeps
// DotInt16x8 with any row of 8-bit codes inside an int32 (32,767 up to 516 dims, less
// beyond): a walk scores every node as rowScale x scale x DotInt16x8, integer arithmetic
// twice as wide as the float one, and a unit query's score on unit codes then moves by at
// most this residual (Cauchy-Schwarz), about 1e-4 for 384 dims.
func QuantizeQuery(dst []int16, q []float32) (scale, residual float32) {
	var peak float64
	for _, f := range q {
		peak = max(peak, math.Abs(float64(f)))
	}
	if peak == 0 || len(q) == 0 {
		clear(dst[:len(q)])
		return 0, 0
	}
	top := min(32767, float64(math.MaxInt32/(127*len(q))))
	s := float64(float32(peak / top)) // the residual is of the scale returned
	var r float64
	for i, f := range q {
		c := max(-top, min(top, math.Round(float64(f)/s)))
		dst[i] = int16(c)
		d := float64(f) - s*c
		r += d * d
	}
	return float32(s), float32(math.Sqrt(r) * 1.0001)
}

// DotInt16x8 is the integer inner product of a query's 16-bit codes (QuantizeQuery) and a
// row of 8-bit codes.
func DotInt16x8(q []int16, c []int8) int32 { return dotInt16x8(q, c) }

func dotInt16x8Generic(q []int16, c []int8) int32 {
	c = c[:len(q)]
	var s int32
	for i := range q {
		s += int32(q[i]) * int32(c[i])
	}
	return s
}
