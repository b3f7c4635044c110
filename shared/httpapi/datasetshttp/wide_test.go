package datasetshttp_test

import (
	"encoding/json"
	"net/url"
	"strings"
	"sync"
	"testing"

	"github.com/firmoapi/firmo/shared/testkit"
)

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
	file := testkit.WideWorkbook(t, rows, "acme.com")
	replies := make([]reply, 4)
	growth := testkit.HeapPeak(func() {
		var wg sync.WaitGroup
		for i := range replies {
			wg.Add(1)
			go func() {
				defer wg.Done()
				replies[i] = r.post(key, url.Values{"dataset": {"bizdata"}}, file, nil)
			}()
		}
		wg.Wait()
	})
	t.Logf("four %d KB workbooks of %d rows: peak heap in use %d MB above the start", len(file)>>10, rows, growth>>20)
	for i, rep := range replies {
		var e struct {
			Error struct{ Code, Field, Message string }
		}
		_ = json.Unmarshal(rep.body, &e)
		if rep.status != 422 || e.Error.Field != "file" || !strings.Contains(e.Error.Message, "at most 256 columns") {
			t.Errorf("upload %d: %d %s, want 422 naming file and the column limit", i, rep.status, rep.body)
		}
	}
	if growth > 300<<20 {
		t.Errorf("four wide uploads at once took %d MB of heap, want under 300 MB", growth>>20)
	}
}
