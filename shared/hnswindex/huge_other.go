//go:build !linux

package hnswindex

// madviseHuge is Linux's transparent huge page advice (huge_linux.go); elsewhere the slabs
// keep the system's pages.
func madviseHuge(start, n uintptr, on bool) {}
