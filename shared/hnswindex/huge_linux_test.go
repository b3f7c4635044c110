package hnswindex

import (
	"bufio"
	"context"
	"math/rand/v2"
	"os"
	"runtime"
	"strconv"
	"strings"
	"testing"
	"time"
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

// TestHugeAdviceTakenBack: the live slabs of a grown index are advised into huge pages,
// the slabs it outgrew are not any more, and once the index is collected none of its
// ranges is (the heap reuses that memory for small objects, where a huge page fault
// stalls whatever allocated there for milliseconds).
func TestHugeAdviceTakenBack(t *testing.T) {
	if _, err := os.Stat("/proc/self/smaps"); err != nil {
		t.Skip("no /proc/self/smaps")
	}
	for range 3 { // earlier tests' indexes: collected and their advice taken back first
		runtime.GC()
		time.Sleep(10 * time.Millisecond)
	}
	const dims = 384
	x := New(dims, Config{M: 4, EfConstruction: 8, Seed: 1})
	rng := rand.New(rand.NewPCG(1, 2))
	v := make([]float32, dims)
	var outgrown []uintptr // starts of the huge ranges of slabs the index left behind
	prev := uintptr(0)
	for id := int64(0); id < 20_000; id++ {
		for d := range v {
			v[d] = rng.Float32() - 0.5
		}
		if err := x.Upsert(context.Background(), id, v); err != nil {
			t.Fatal(err)
		}
		if b := hugeRange(x.vecs[:cap(x.vecs)]); b != nil {
			if p := uintptr(unsafe.Pointer(&b[0])); p != prev {
				if prev != 0 {
					outgrown = append(outgrown, prev)
				}
				prev = p
			}
		}
	}
	live := prev
	if live == 0 || len(outgrown) == 0 {
		t.Fatalf("the vectors' slab did not grow past one huge page (%d bytes)", cap(x.vecs)*2)
	}
	if flags := vmFlags(t, live); !flags["hg"] {
		t.Fatalf("live slab at %#x: VmFlags %v, want hg (huge page advice)", live, flags)
	}
	liveEnd := live + uintptr(len(hugeRange(x.vecs[:cap(x.vecs)])))
	for _, p := range outgrown {
		if p >= live && p < liveEnd {
			continue // the heap gave the freed range to the grown slab itself
		}
		if flags := vmFlags(t, p); flags["hg"] {
			t.Fatalf("outgrown slab at %#x still advised (VmFlags %v)", p, flags)
		}
	}
	runtime.KeepAlive(x)
	x = nil
	deadline := time.Now().Add(5 * time.Second)
	for {
		runtime.GC()
		flags := vmFlags(t, live)
		if !flags["hg"] {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("collected index's slab at %#x still advised (VmFlags %v)", live, flags)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// vmFlags are the VmFlags of the mapping holding address p (or none when p is unmapped).
func vmFlags(t *testing.T, p uintptr) map[string]bool {
	t.Helper()
	f, err := os.Open("/proc/self/smaps")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	in := false
	for sc.Scan() {
		line := sc.Text()
		if lo, hi, ok := strings.Cut(strings.Fields(line + " ")[0], "-"); ok && !strings.HasSuffix(line, ":") {
			a, err1 := strconv.ParseUint(lo, 16, 64)
			b, err2 := strconv.ParseUint(hi, 16, 64)
			if err1 == nil && err2 == nil {
				in = uint64(p) >= a && uint64(p) < b
				continue
			}
		}
		if rest, ok := strings.CutPrefix(line, "VmFlags:"); ok && in {
			flags := map[string]bool{}
			for _, fl := range strings.Fields(rest) {
				flags[fl] = true
			}
			return flags
		}
	}
	return map[string]bool{}
}
