package hnswindex

import (
	"runtime"
	"sync"
	"unsafe"
)

// Transparent huge pages for the slabs a search reads at random (vecs, codes, links0). A
// search reads rows scattered over hundreds of megabytes; with 4 KB pages nearly every row
// is a TLB miss and a page walk, with 2 MB pages the walks mostly go (about 15% off a
// scattered row scan on the benchmark machine). A slab is advised before its first write,
// so its pages fault in huge (THP "madvise" mode, the common default; a refusal, an old
// kernel or THP off change nothing but speed).
//
// The advice belongs to the address range, not to the slab: once a slab is dropped (a slab
// outgrown during a build, a graph replaced by a newer one), the Go heap reuses its memory
// for small objects, and after the runtime has returned such memory to the system the next
// touch of a whole 2 MB range faults in a huge page, zeroed and, when free memory is
// fragmented, compacted first: 3 to 6 ms of system time in the middle of a search that
// happened to allocate there (measured at 100k contacts before the advice was taken back).
// So the index records what it advised and takes the advice back from every slab it drops,
// and from all of them when the index itself is collected.

// hugePage is the size of a transparent huge page on x86-64 and most arm64 kernels.
const hugePage = 2 << 20

// hugeSpans are the ranges one index advised (start -> length), taken back by release.
type hugeSpans struct {
	mu    sync.Mutex
	spans map[uintptr]uintptr
}

// newHugeSpans returns the spans of owner, all taken back when owner is collected.
func newHugeSpans[T any](owner *T) *hugeSpans {
	h := &hugeSpans{spans: map[uintptr]uintptr{}}
	runtime.AddCleanup(owner, (*hugeSpans).releaseAll, h)
	return h
}

// adviseHuge advises slab's whole huge pages (its capacity) and records them.
func adviseHuge[T any](h *hugeSpans, slab []T) {
	if b := hugeRange(slab[:cap(slab)]); b != nil {
		start := uintptr(unsafe.Pointer(&b[0]))
		h.mu.Lock()
		h.spans[start] = uintptr(len(b))
		h.mu.Unlock()
		madviseHuge(start, uintptr(len(b)), true)
	}
}

// releaseHuge takes the advice back from a slab the index drops.
func releaseHuge[T any](h *hugeSpans, slab []T) {
	if cap(slab) == 0 {
		return
	}
	if b := hugeRange(slab[:cap(slab)]); b != nil {
		start := uintptr(unsafe.Pointer(&b[0]))
		h.mu.Lock()
		n, ok := h.spans[start]
		delete(h.spans, start)
		h.mu.Unlock()
		if ok {
			madviseHuge(start, n, false)
		}
	}
}

// releaseAll takes the advice back from every recorded range (the index was collected: its
// slabs are free memory of the heap now, or soon).
func (h *hugeSpans) releaseAll() {
	h.mu.Lock()
	defer h.mu.Unlock()
	for start, n := range h.spans {
		madviseHuge(start, n, false)
	}
	clear(h.spans)
}

// appendAdvised is append for the slabs a search reads at random: a new backing array is
// advised into huge pages, its part beyond the copied rows still untouched, and the
// outgrown one's advice is taken back.
func appendAdvised[T any](h *hugeSpans, slab []T, add ...T) []T {
	old := slab
	if slab = append(slab, add...); cap(slab) != cap(old) {
		adviseHuge(h, slab)
		releaseHuge(h, old)
	}
	return slab
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

// reserveAdvised returns slab with room for n elements in all: a new backing array,
// advised, when it has less, the outgrown one's advice taken back.
func reserveAdvised[T any](h *hugeSpans, slab []T, n int) []T {
	if cap(slab) >= n {
		return slab
	}
	old := slab
	slab = make([]T, len(old), n)
	copy(slab, old)
	adviseHuge(h, slab)
	releaseHuge(h, old)
	return slab
}
