package upload

import (
	"bytes"
	"context"
	"errors"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/firmoapi/firmo/shared/apperr"
	"github.com/firmoapi/firmo/shared/testkit"
)

// The review's finding: four small xlsx uploads at once, each 10,000 rows with a value
// in A and in XFD, took the server from 452 MB to 5.5 GB (every row padded to 16,384
// cells and kept). Read refuses each at its first row, naming the column limit, and the
// four together stay far under +300 MB of heap.
func TestWideWorkbooksAtOnceStayBounded(t *testing.T) {
	rows := 10_000
	if testing.Short() {
		rows = 2_000
	}
	data := testkit.WideWorkbook(t, rows, "a")
	t.Logf("workbook: %d rows, %d KB", rows, len(data)>>10)
	errs := make([]error, 4)
	peak := testkit.HeapPeak(func() {
		var wg sync.WaitGroup
		for i := range errs {
			wg.Add(1)
			go func() {
				defer wg.Done()
				_, errs[i] = Read(bytes.NewReader(data), "wide.xlsx", Limits{})
			}()
		}
		wg.Wait()
	})
	t.Logf("peak heap in use above the start: %d MB", peak>>20)
	for i, err := range errs {
		var ae *apperr.Error
		if !errors.As(err, &ae) || ae.Kind != apperr.ErrInvalid || ae.Field != Field {
			t.Fatalf("upload %d: error %v, want a 422 naming %s", i, err, Field)
		}
		if !strings.Contains(ae.Message, "at most 256 columns") {
			t.Errorf("upload %d: message %q does not name the column limit", i, ae.Message)
		}
	}
	if peak > 300<<20 {
		t.Errorf("four wide uploads at once took %d MB of heap, want under 300 MB", peak>>20)
	}
}

// The review's 816 KB CSV: 200,000 short column names and 10,000 rows (about 32 GB once
// every row is as wide as the header). It is refused from a count of the header's
// delimiters, before the CSV reader allocates the header or any row: the whole Read
// allocates little more than the file's own text.
func TestWideCSVRefusedBeforeAllocation(t *testing.T) {
	var b strings.Builder
	for i := range 200_000 {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteString("c")
		b.WriteString(strconv.Itoa(i % 1000))
	}
	b.WriteByte('\n')
	for range 10_000 {
		b.WriteString("x\n")
	}
	data := []byte(b.String())
	if len(data) > DefaultMaxBytes {
		t.Fatalf("fixture is %d bytes, over the 1 MB limit", len(data))
	}
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	_, err := Read(bytes.NewReader(data), "wide.csv", Limits{})
	runtime.ReadMemStats(&after)
	var ae *apperr.Error
	if !errors.As(err, &ae) || ae.Kind != apperr.ErrInvalid || ae.Field != Field || !strings.Contains(ae.Message, "more than 256 columns") {
		t.Fatalf("Read error = %v, want a 422 naming %s and the column limit", err, Field)
	}
	// Reading the file (io.ReadAll's growing buffer) and its text: about 3 MB. Parsing
	// the header on top would allocate its 3.2 MB of field headers and its line
	// buffers, and each row as wide as it 3.2 MB more.
	if alloc := after.TotalAlloc - before.TotalAlloc; alloc > 4<<20 {
		t.Errorf("Read allocated %d KB before refusing, want under 4 MB", alloc>>10)
	}
}

func TestGateBoundsUploadsAtOnce(t *testing.T) {
	g := NewGateSize(1, 50*time.Millisecond)
	release, err := g.Enter(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	_, err = g.Read(context.Background(), strings.NewReader("domain\na.com\n"), "a.csv", Limits{})
	if apperr.Status(err) != 503 || apperr.RetryAfter(err) <= 0 {
		t.Fatalf("second upload while the one slot is taken: %v (status %d), want 503 with Retry-After", err, apperr.Status(err))
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := g.Read(ctx, strings.NewReader("domain\na.com\n"), "a.csv", Limits{}); !errors.Is(err, context.Canceled) {
		t.Fatalf("upload whose request ended while waiting: %v, want context.Canceled", err)
	}
	go func() { time.Sleep(10 * time.Millisecond); release() }()
	tab, err := g.Read(context.Background(), strings.NewReader("domain\na.com\n"), "a.csv", Limits{})
	if err != nil || len(tab.Rows) != 1 {
		t.Fatalf("upload once the slot is released: %v, %d rows", err, len(tab.Rows))
	}
	var none *Gate
	if _, err := none.Read(context.Background(), strings.NewReader("domain\na.com\n"), "a.csv", Limits{}); err != nil {
		t.Fatalf("nil gate: %v", err)
	}
}
