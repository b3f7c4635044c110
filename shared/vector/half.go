package vector

import "math"

// Half-precision (IEEE 754 binary16) storage. The HNSW graph keeps its vectors as halves: a
// 384-dim vector takes 768 bytes instead of 1,536, so twice as many fit in cache and a search,
// which waits on memory far more than on arithmetic, reads half as much. On unit vectors the
// rounding error of a dot product is about 1e-4, far below the gaps that rank neighbours.

// ToHalf rounds each value of src to the nearest binary16 (ties to even) into dst.
func ToHalf(dst []uint16, src []float32) {
	for i, f := range src {
		dst[i] = toHalf(f)
	}
}

// FromHalf widens binary16 values to float32.
func FromHalf(dst []float32, src []uint16) {
	for i, h := range src {
		dst[i] = fromHalf(h)
	}
}

// DotHalf is the inner product of a float32 query and a vector stored as halves.
func DotHalf(q []float32, h []uint16) float32 { return dotHalf(q, h) }

// DotHalves is the inner product of two vectors stored as halves (graph construction compares
// stored vectors with each other).
func DotHalves(a, b []uint16) float32 { return dotHalves(a, b) }

func dotHalvesGeneric(a, b []uint16) float32 {
	b = b[:len(a)]
	var s float32
	for i := range a {
		s += fromHalf(a[i]) * fromHalf(b[i])
	}
	return s
}

func dotHalfGeneric(q []float32, h []uint16) float32 {
	h = h[:len(q)]
	var s0, s1, s2, s3 float32
	i := 0
	for ; i+4 <= len(q); i += 4 {
		s0 += q[i] * fromHalf(h[i])
		s1 += q[i+1] * fromHalf(h[i+1])
		s2 += q[i+2] * fromHalf(h[i+2])
		s3 += q[i+3] * fromHalf(h[i+3])
	}
	for ; i < len(q); i++ {
		s0 += q[i] * fromHalf(h[i])
	}
	return (s0 + s1) + (s2 + s3)
}

func toHalf(f float32) uint16 {
	b := math.Float32bits(f)
	sign := uint16(b>>16) & 0x8000
	e := int((b >> 23) & 0xff)
	mant := b & 0x7fffff
	if e == 0xff { // infinity or NaN
		if mant != 0 {
			return sign | 0x7e00
		}
		return sign | 0x7c00
	}
	exp := e - 127 + 15
	if exp >= 31 {
		return sign | 0x7c00 // too large: infinity
	}
	if exp <= 0 { // subnormal half, or zero
		if exp < -10 {
			return sign
		}
		mant |= 0x800000
		shift := uint(14 - exp)
		h := uint16(mant >> shift)
		rem := mant & (1<<shift - 1)
		halfway := uint32(1) << (shift - 1)
		if rem > halfway || (rem == halfway && h&1 == 1) {
			h++
		}
		return sign | h
	}
	h := sign | uint16(exp)<<10 | uint16(mant>>13)
	rem := mant & 0x1fff
	if rem > 0x1000 || (rem == 0x1000 && h&1 == 1) {
		h++ // a carry into the exponent is the right rounding
	}
	return h
}

func fromHalf(h uint16) float32 {
	sign := uint32(h&0x8000) << 16
	exp := uint32(h>>10) & 0x1f
	mant := uint32(h & 0x3ff)
	switch exp {
	case 0:
		if mant == 0 {
			return math.Float32frombits(sign)
		}
		e := uint32(127 - 15 + 1)
		for mant&0x400 == 0 {
			mant <<= 1
			e--
		}
		return math.Float32frombits(sign | e<<23 | (mant&0x3ff)<<13)
	case 31:
		return math.Float32frombits(sign | 0x7f800000 | mant<<13)
	}
	return math.Float32frombits(sign | (exp+127-15)<<23 | mant<<13)
}
