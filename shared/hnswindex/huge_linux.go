package hnswindex

import (
	"unsafe"

	"golang.org/x/sys/unix"
)

// hugePage is the size of a transparent huge page on x86-64 and most arm64 kernels.
const hugePage = 2 << 20

// adviseHuge asks the kernel to back the slab (its whole capacity) with transparent huge
// pages where the machine allows it (THP "madvise" mode is the common default). A search
// reads rows scattered over hundreds of megabytes; with 4 KB pages nearly every row is a TLB
// miss and a page walk, with 2 MB pages the walks mostly go (about 15% off a scattered row
// scan on the benchmark machine). Pages not yet touched then fault in huge (already touched
// ones wait for khugepaged). A refusal (old kernel, THP off) changes nothing but speed.
func adviseHuge[T any](slab []T) {
	if b := hugeRange(slab[:cap(slab)]); b != nil {
		_ = unix.Madvise(b, unix.MADV_HUGEPAGE)
	}
}

// hugeRange is the whole huge pages inside slab's memory (nil: none).
func hugeRange[T any](slab []T) []byte {
	if len(slab) == 0 {
		return nil
	}
	b := unsafe.Slice((*byte)(unsafe.Pointer(unsafe.SliceData(slab))), uintptr(len(slab))*unsafe.Sizeof(slab[0]))
	skip := (hugePage - int(uintptr(unsafe.Pointer(&b[0]))%hugePage)) % hugePage
	if skip >= len(b) {
		return nil
	}
	if n := (len(b) - skip) &^ (hugePage - 1); n > 0 {
		return b[skip : skip+n]
	}
	return nil
}
