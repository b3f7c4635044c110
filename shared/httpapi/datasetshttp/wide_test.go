package datasetshttp_test

import (
	"encoding/json"
	"net/url"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/xuri/excelize/v2"
)

// wideWorkbook is the review's attack: rows rows with one value in column A and one in
// XFD (Excel's last column), about 80 KB for 10,000 rows.
func wideWorkbook(t *testing.T, rows int) []byte {
	t.Helper()
	f := excelize.NewFile()
	defer func() { _ = f.Close() }()
	sw, err := f.NewStreamWriter("Sheet1")
	if err != nil {
		t.Fatal(err)
	}
	for i := 1; i <= rows; i++ {
		cells := make([]any, 16384)
		cells[0], cells[16383] = "acme.com", "z"
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
	b, err := f.WriteToBuffer()
	if err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// The review's finding: four such uploads at once took the server from 452 MB to
// 5.5 GB before answering 422. Through POST /v1/append they now answer 422 naming the
// file and the column limit, and the heap in use (sampled every millisecond) grows by
// far less than 300 MB for the four together.
func TestFourWideWorkbooksAtOnce(t *testing.T) {
	// 2,000 rows: the file is refused at its first row whatever its length
	// (shared/upload's test reads the review's 10,000).
	rows := 2_000
	r := newRig(t)
	key, _ := r.key("Org A")
	file := wideWorkbook(t, rows)
	runtime.GC()
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	base, peak := ms.HeapInuse, ms.HeapInuse
	stop := make(chan struct{})
	var sampler sync.WaitGroup
	sampler.Add(1)
	go func() {
		defer sampler.Done()
		var ms runtime.MemStats
		for {
			runtime.ReadMemStats(&ms)
			peak = max(peak, ms.HeapInuse)
			select {
			case <-stop:
				return
			case <-time.After(time.Millisecond):
			}
		}
	}()
	replies := make([]reply, 4)
	var wg sync.WaitGroup
	for i := range replies {
		wg.Add(1)
		go func() {
			defer wg.Done()
			replies[i] = r.post(key, url.Values{"dataset": {"bizdata"}}, file, nil)
		}()
	}
	wg.Wait()
	close(stop)
	sampler.Wait()
	t.Logf("four %d KB workbooks of %d rows: peak heap in use %d MB above the start", len(file)>>10, rows, (peak-base)>>20)
	for i, rep := range replies {
		var e struct {
			Error struct{ Code, Field, Message string }
		}
		_ = json.Unmarshal(rep.body, &e)
		if rep.status != 422 || e.Error.Field != "file" || !strings.Contains(e.Error.Message, "at most 256 columns") {
			t.Errorf("upload %d: %d %s, want 422 naming file and the column limit", i, rep.status, rep.body)
		}
	}
	if peak-base > 300<<20 {
		t.Errorf("four wide uploads at once took %d MB of heap, want under 300 MB", (peak-base)>>20)
	}
}
