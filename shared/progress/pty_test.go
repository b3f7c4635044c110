package progress

import (
	"bytes"
	"io"
	"regexp"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/creack/pty"
)

// TestMeterFitsA60ColumnTerminal draws a meter on a real pseudo-terminal 60 columns
// wide (its width read through x/term, as on a user's terminal) and on one 120 wide:
// at 60 no redraw reaches the last column, so none wraps and scrolls; at 120 the full
// 30-cell bar is drawn.
func TestMeterFitsA60ColumnTerminal(t *testing.T) {
	for _, cols := range []uint16{60, 120} {
		ptm, tty, err := pty.Open()
		if err != nil {
			t.Skipf("no pseudo-terminal here: %v", err)
		}
		if err := pty.Setsize(tty, &pty.Winsize{Cols: cols, Rows: 24}); err != nil {
			t.Fatal(err)
		}
		got := make(chan []byte)
		go func() {
			b, _ := io.ReadAll(ptm)
			got <- b
		}()
		now := time.Unix(1000, 0)
		m := NewMeter(tty, MeterOptions{Label: "validate-icp", Now: func() time.Time { return now }})
		if !m.tty {
			t.Fatal("the pty's slave is not seen as a terminal")
		}
		for done := int64(0); done <= 1_234_567; done += 123_457 {
			m.Set(done, 1_234_567)
			now = now.Add(700 * time.Millisecond)
		}
		m.Set(1_234_567, 1_234_567)
		m.Finish()
		tty.Close()
		var out []byte
		select {
		case out = <-got:
		case <-time.After(5 * time.Second):
			t.Fatal("reading the pty timed out")
		}
		ptm.Close()
		ansi := regexp.MustCompile("\033\\[[0-9;]*[A-Za-z]")
		redraws := 0
		for _, seg := range strings.FieldsFunc(string(out), func(r rune) bool { return r == '\r' || r == '\n' }) {
			seg = ansi.ReplaceAllString(seg, "")
			if seg == "" {
				continue
			}
			redraws++
			if n := utf8.RuneCountInString(seg); n >= int(cols) {
				t.Errorf("width %d: a redraw of %d columns wraps: %q", cols, n, seg)
			}
		}
		if redraws < 5 {
			t.Fatalf("width %d: %d redraws in %q", cols, redraws, out)
		}
		full := bytes.Contains(out, []byte("["+strings.Repeat("#", 30)+"]"))
		if cols == 120 && !full {
			t.Errorf("width 120: no full 30-cell bar in %q", out)
		}
		if cols == 60 && !bytes.Contains(out, []byte("validate-icp [")) {
			t.Errorf("width 60: the bar went altogether: %q", out)
		}
	}
}
