//go:build !linux

package hnswindex

// adviseHuge and collapseHuge are Linux's transparent huge pages (huge_linux.go); elsewhere
// the slabs keep the system's pages.
func adviseHuge[T any](slab []T)   {}
func collapseHuge[T any](slab []T) {}
