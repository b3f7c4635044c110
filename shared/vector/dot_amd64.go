package vector

import (
	"unsafe"

	"golang.org/x/sys/cpu"
)

// hasFMA selects the AVX2/FMA kernel, about five times the portable loop at 384 dimensions;
// hasF16C the half-precision one.
// hasAVX512 the 16-lane half-precision kernels (AVX-512F carries the 512-bit VCVTPH2PS): on
// this project's AMD EPYC they take about half the time of the 8-lane ones at 384 dimensions
// (BENCHMARKS.md, "Kernels"). These are read-only facts about the CPU, set once at package
// load by golang.org/x/sys/cpu.
var (
	hasFMA    = cpu.X86.HasAVX2 && cpu.X86.HasFMA
	hasF16C   = hasFMA && cpu.X86.HasF16C
	hasAVX512 = hasF16C && cpu.X86.HasAVX512F
	// hasAVX512BW adds the 512-bit byte and word instructions of the code-to-code kernel.
	hasAVX512BW = cpu.X86.HasAVX512BW
)

//go:noescape
func dotHalfFMA(a *float32, b *uint16, n int) float32

//go:noescape
func dotHalfAVX512(a *float32, b *uint16, n int) float32

//go:noescape
func dotHalvesAVX512(a, b *uint16, n int) float32

func dotHalf(q []float32, h []uint16) float32 {
	if n16 := len(q) &^ 15; hasAVX512 && n16 == len(q) && n16 > 0 {
		h = h[:len(q)]
		return dotHalfAVX512(&q[0], &h[0], n16)
	}
	n8 := len(q) &^ 7
	if !hasF16C || n8 == 0 {
		return dotHalfGeneric(q, h)
	}
	h = h[:len(q)]
	s := dotHalfFMA(&q[0], &h[0], n8)
	if n8 < len(q) {
		s += dotHalfGeneric(q[n8:], h[n8:])
	}
	return s
}

//go:noescape
func dotFMA(a, b *float32, n int) float32

func dot(a, b []float32) float32 {
	if hasFMA && len(a) > 0 {
		b = b[:len(a)]
		return dotFMA(&a[0], &b[0], len(a))
	}
	return dotGeneric(a, b)
}

//go:noescape
func dotHalvesFMA(a, b *uint16, n int) float32

func dotHalves(a, b []uint16) float32 {
	if n16 := len(a) &^ 15; hasAVX512 && n16 == len(a) && n16 > 0 {
		b = b[:len(a)]
		return dotHalvesAVX512(&a[0], &b[0], n16)
	}
	n8 := len(a) &^ 7
	if !hasF16C || n8 == 0 {
		return dotHalvesGeneric(a, b)
	}
	b = b[:len(a)]
	s := dotHalvesFMA(&a[0], &b[0], n8)
	if n8 < len(a) {
		s += dotHalvesGeneric(a[n8:], b[n8:])
	}
	return s
}

//go:noescape
func prefetchRows(base unsafe.Pointer, ids *uint32, n int, rowBytes int, lines int)

// PrefetchHalfRows asks the CPU to start loading rows ids of a dims-wide slab of halves (the
// first lines cache lines of each). A graph search calls it on a node's unvisited
// neighbours before scoring them, so their cache misses overlap instead of queueing.
func PrefetchHalfRows(slab []uint16, ids []uint32, dims, lines int) {
	if len(ids) == 0 || len(slab) == 0 || lines <= 0 {
		return
	}
	prefetchRows(unsafe.Pointer(&slab[0]), &ids[0], len(ids), dims*2, lines)
}

//go:noescape
func dotInt8FMA(a *float32, c *int8, n int) float32

//go:noescape
func dotInt8AVX512(a *float32, c *int8, n int) float32

func dotInt8(q []float32, c []int8) float32 {
	if n16 := len(q) &^ 15; hasAVX512 && n16 == len(q) && n16 > 0 {
		c = c[:len(q)]
		return dotInt8AVX512(&q[0], &c[0], n16)
	}
	n8 := len(q) &^ 7
	if !hasFMA || n8 == 0 {
		return dotInt8Generic(q, c)
	}
	c = c[:len(q)]
	s := dotInt8FMA(&q[0], &c[0], n8)
	if n8 < len(q) {
		s += dotInt8Generic(q[n8:], c[n8:])
	}
	return s
}

// PrefetchFloat32s asks the CPU to start loading slab[id] for each of ids (a graph search
// reads a scale per node it scores, from a slab of its own).
func PrefetchFloat32s(slab []float32, ids []uint32) {
	if len(ids) == 0 || len(slab) == 0 {
		return
	}
	prefetchRows(unsafe.Pointer(&slab[0]), &ids[0], len(ids), 4, 1)
}

// PrefetchUint32s asks the CPU to start loading lines cache lines of slab from slab[at] on
// (a graph search requests the neighbour list it will expand next).
func PrefetchUint32s(slab []uint32, at, lines int) {
	if at < 0 || at >= len(slab) || lines <= 0 {
		return
	}
	var first uint32
	prefetchRows(unsafe.Pointer(&slab[at]), &first, 1, 0, lines)
}

// PrefetchRow asks the CPU to start loading the first lines cache lines of row.
func PrefetchRow(row []float32, lines int) {
	if len(row) == 0 || lines <= 0 {
		return
	}
	var first uint32
	prefetchRows(unsafe.Pointer(&row[0]), &first, 1, 0, lines)
}

// PrefetchInt8Rows is PrefetchHalfRows for a slab of 8-bit codes.
func PrefetchInt8Rows(slab []int8, ids []uint32, dims, lines int) {
	if len(ids) == 0 || len(slab) == 0 || lines <= 0 {
		return
	}
	prefetchRows(unsafe.Pointer(&slab[0]), &ids[0], len(ids), dims, lines)
}

//go:noescape
func dotInt8sAVX2(a, b *int8, n int) int32

//go:noescape
func dotInt8sAVX512(a, b *int8, n int) int32

func dotInt8s(a, b []int8) int32 {
	b = b[:len(a)]
	if n32 := len(a) &^ 31; hasAVX512 && hasAVX512BW && n32 > 0 {
		s := dotInt8sAVX512(&a[0], &b[0], n32)
		if n32 < len(a) {
			s += dotInt8s(a[n32:], b[n32:])
		}
		return s
	}
	n16 := len(a) &^ 15
	if !hasFMA || n16 == 0 { // hasFMA implies AVX2
		return dotInt8sGeneric(a, b)
	}
	s := dotInt8sAVX2(&a[0], &b[0], n16)
	if n16 < len(a) {
		s += dotInt8sGeneric(a[n16:], b[n16:])
	}
	return s
}

//go:noescape
func dotInt16x8AVX512(q *int16, c *int8, n int) int32

//go:noescape
func dotInt16x8AVX2(q *int16, c *int8, n int) int32

func dotInt16x8(q []int16, c []int8) int32 {
	c = c[:len(q)]
	if n32 := len(q) &^ 31; hasAVX512 && hasAVX512BW && n32 > 0 {
		s := dotInt16x8AVX512(&q[0], &c[0], n32)
		if n32 < len(q) {
			s += dotInt16x8(q[n32:], c[n32:])
		}
		return s
	}
	n16 := len(q) &^ 15
	if !hasFMA || n16 == 0 {
		return dotInt16x8Generic(q, c)
	}
	s := dotInt16x8AVX2(&q[0], &c[0], n16)
	if n16 < len(q) {
		s += dotInt16x8Generic(q[n16:], c[n16:])
	}
	return s
}
