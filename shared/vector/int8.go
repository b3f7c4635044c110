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
