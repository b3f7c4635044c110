//go:build !amd64

package vector

func dot(a, b []float32) float32 { return dotGeneric(a, b) }

func dotHalf(q []float32, h []uint16) float32 { return dotHalfGeneric(q, h) }

func dotHalves(a, b []uint16) float32 { return dotHalvesGeneric(a, b) }

// PrefetchHalfRows is a no-op where there is no prefetch kernel.
func PrefetchHalfRows(slab []uint16, ids []uint32, dims, lines int) {}

func dotInt8(q []float32, c []int8) float32 { return dotInt8Generic(q, c) }

// PrefetchFloat32s is a no-op where there is no prefetch kernel.
func PrefetchFloat32s(slab []float32, ids []uint32) {}

// PrefetchUint32s is a no-op where there is no prefetch kernel.
func PrefetchUint32s(slab []uint32, at, lines int) {}

// PrefetchRow is a no-op where there is no prefetch kernel.
func PrefetchRow(row []float32, lines int) {}

// PrefetchInt8Rows is a no-op where there is no prefetch kernel.
func PrefetchInt8Rows(slab []int8, ids []uint32, dims, lines int) {}

func dotInt8s(a, b []int8) int32 { return dotInt8sGeneric(a, b) }

func dotInt16x8(q []int16, c []int8) int32 { return dotInt16x8Generic(q, c) }
