package hnswindex

import (
	"testing"
	"unsafe"
)

// TestHugeRange checks that the advised range is whole 2 MB pages inside the slab, and
// none for a slab smaller than one page.
func TestHugeRange(t *testing.T) {
	if b := hugeRange(make([]uint16, 1000)); b != nil {
		t.Fatalf("a 2 KB slab gave a range of %d bytes", len(b))
	}
	slab := make([]uint16, 3*hugePage) // 6 MB: at least two whole pages inside
	b := hugeRange(slab)
	start, end := uintptr(unsafe.Pointer(&slab[0])), uintptr(unsafe.Pointer(&slab[0]))+uintptr(len(slab))*2
	p := uintptr(unsafe.Pointer(&b[0]))
	switch {
	case p%hugePage != 0 || len(b)%hugePage != 0:
		t.Fatalf("range at %#x of %d bytes is not whole pages", p, len(b))
	case p < start || p+uintptr(len(b)) > end:
		t.Fatalf("range %#x+%d leaves the slab %#x-%#x", p, len(b), start, end)
	case len(b) < 2*hugePage:
		t.Fatalf("range of %d bytes: want at least two pages of the 6 MB slab", len(b))
	}
}
