package testkit

import (
	"runtime"
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/xuri/excelize/v2"
)

// HeapPeak runs fn while sampling the heap in use every millisecond and returns the
// peak above the heap in use before fn started (measured after a GC).
func HeapPeak(fn func()) uint64 {
	runtime.GC()
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	base, peak := ms.HeapInuse, ms.HeapInuse
	done := make(chan struct{})
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		var ms runtime.MemStats
		tick := time.NewTicker(time.Millisecond)
		defer tick.Stop()
		for {
			runtime.ReadMemStats(&ms)
			peak = max(peak, ms.HeapInuse)
			select {
			case <-done:
				return
			case <-tick.C:
			}
		}
	}()
	fn()
	close(done)
	wg.Wait()
	return peak - base
}

// WideWorkbook is an xlsx file of rows rows, each with value in column A and "z" in
// column XFD (Excel's last), under a header row "domain" ... "last": a small file that
// describes rows x 16,384 cells (about 80 KB for 10,000 rows), the shape of a wide-upload
// attack.
func WideWorkbook(t testing.TB, rows int, value string) []byte {
	t.Helper()
	f := excelize.NewFile()
	defer func() { _ = f.Close() }()
	sw, err := f.NewStreamWriter("Sheet1")
	if err != nil {
		t.Fatal(err)
	}
	for i := 1; i <= rows; i++ {
		cells := make([]any, 16384) // the stream writer skips nil cells
		cells[0], cells[16383] = value, "z"
		if i == 1 {
			cells[0], cells[16383] = "domain", "last"
		}
		if err := sw.SetRow("A"+strconv.Itoa(i), cells); err != nil {
			t.Fatal(err)
		}
	}
	if err := sw.Flush(); err != nil {
		t.Fatal(err)
	}
	buf, err := f.WriteToBuffer()
	if err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}
