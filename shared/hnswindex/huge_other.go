//go:build !linux

package hnswindex

// adviseHuge is Linux's transparent huge pages (huge_linux.go); elsewhere the slabs keep
// the system's pages.
func adviseHuge[T any](slab []T) {}
