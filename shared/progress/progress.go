// Package progress draws a one-line progress bar for long command-line work (seed,
// ingest). On a terminal the line is redrawn in place at most ten times a second; on
// anything else (a pipe, a CI log) it prints a plain line every ten percent, so logs stay
// short and readable.
package progress

import (
	"fmt"
	"io"
	"os"
	"strings"
	"sync"
	"time"
	"unicode/utf8"

	"golang.org/x/term"
)

// Bar is a progress bar. Its methods are safe for concurrent use. A nil *Bar does
// nothing, so callers may pass nil to stay quiet.
type Bar struct {
	mu        sync.Mutex
	w         io.Writer
	label     string
	total     int64
	done      int64
	start     time.Time
	last      time.Time
	lastTenth int64
	tty       bool
	finished  bool
	now       func() time.Time
}

// width is the number of cells of the drawn bar.
const width = 30

// redrawEvery bounds how often a terminal line is redrawn.
const redrawEvery = 100 * time.Millisecond

// New starts a bar for total units of work (0 when unknown) written to w.
func New(w io.Writer, label string, total int64) *Bar {
	return newBar(w, label, total, isTerminal(w), time.Now)
}

func newBar(w io.Writer, label string, total int64, tty bool, now func() time.Time) *Bar {
	t := now()
	return &Bar{w: w, label: label, total: total, start: t, tty: tty, now: now, lastTenth: -1}
}

// Add records n more units done.
func (b *Bar) Add(n int64) {
	if b == nil {
		return
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	b.done += n
	b.draw(false)
}

// Done finishes the bar with a final line and a newline. Calling it twice is harmless.
func (b *Bar) Done() {
	if b == nil {
		return
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.finished {
		return
	}
	b.draw(true)
	b.finished = true
}

func (b *Bar) draw(final bool) {
	if b.finished {
		return
	}
	now := b.now()
	if b.tty {
		if !final && now.Sub(b.last) < redrawEvery {
			return
		}
		b.last = now
		end := ""
		if final {
			end = "\n"
		}
		fmt.Fprintf(b.w, "\r%s%s", b.line(now), end)
		return
	}
	tenth := int64(-1)
	if b.total > 0 {
		tenth = b.done * 10 / b.total
	}
	if final || (tenth > b.lastTenth && tenth < 10) {
		b.lastTenth = tenth
		fmt.Fprintln(b.w, b.line(now))
	}
}

// line renders "label [#######.......]  45% 900/2000 1.2s" (or without the bar when the
// total is unknown).
func (b *Bar) line(now time.Time) string {
	elapsed := now.Sub(b.start).Round(100 * time.Millisecond)
	if b.total <= 0 {
		return fmt.Sprintf("%s %d %s", b.label, b.done, elapsed)
	}
	frac := float64(b.done) / float64(b.total)
	if frac > 1 {
		frac = 1
	}
	parts := []string{fmt.Sprintf("%3.0f%%", frac*100), fmt.Sprintf("%d/%d", b.done, b.total), elapsed.String()}
	if secs := now.Sub(b.start).Seconds(); secs > 0 {
		parts = append(parts, fmt.Sprintf("%.0f/s", float64(b.done)/secs))
	}
	cols := 1 << 20 // plain lines are not fitted
	if b.tty {
		cols = terminalColumns(b.w)
	}
	return fitBar(b.label, frac, parts, cols)
}

// fitBar is "label [#####.....] part part ..." in at most cols-1 columns, so that a
// redraw never wraps (a wrapped line cannot be redrawn with \r and scrolls instead):
// the bar shrinks from 30 cells down to 5, then goes, then the last parts go, then
// the line is cut.
func fitBar(label string, frac float64, parts []string, cols int) string {
	limit := cols - 1
	for n := len(parts); n >= 1; n-- {
		tail := strings.Join(parts[:n], " ")
		fixed := utf8.RuneCountInString(label) + 1 + utf8.RuneCountInString(tail)
		if cells := min(width, limit-fixed-3); cells >= 5 {
			done := int(frac * float64(cells))
			return label + " [" + strings.Repeat("#", done) + strings.Repeat(".", cells-done) + "] " + tail
		}
		if fixed <= limit {
			return label + " " + tail
		}
	}
	line := []rune(label + " " + parts[0])
	if len(line) > limit {
		line = line[:max(limit, 0)]
	}
	return string(line)
}

// terminalColumns is the width of the terminal w writes to (80 when it is none or
// cannot tell).
func terminalColumns(w io.Writer) int {
	if f, ok := w.(*os.File); ok {
		if cols, _, err := term.GetSize(int(f.Fd())); err == nil && cols > 0 {
			return cols
		}
	}
	return 80
}

// isTerminal reports whether w is a character device (a terminal), without a
// dependency: redrawing with \r only makes sense there.
func isTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	if !ok {
		return false
	}
	st, err := f.Stat()
	return err == nil && st.Mode()&os.ModeCharDevice != 0
}
