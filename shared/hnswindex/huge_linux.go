package hnswindex

import "golang.org/x/sys/unix"

// madviseHuge sets (MADV_HUGEPAGE) or clears (MADV_NOHUGEPAGE) the huge page advice of a
// range of whole huge pages (huge.go). The range is passed as numbers: a released slab may
// already be free memory of the heap, which the call only flags.
func madviseHuge(start, n uintptr, on bool) {
	advice := uintptr(unix.MADV_NOHUGEPAGE)
	if on {
		advice = unix.MADV_HUGEPAGE
	}
	_, _, _ = unix.Syscall(unix.SYS_MADVISE, start, n, advice)
}
