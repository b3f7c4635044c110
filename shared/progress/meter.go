package progress

import (
	"fmt"
	"io"
	"sync"
	"time"
)

// Meter shows the progress of remote work whose count of records done is read now and
// then (a task's status answer): records done, the rate and the time left. On a
// terminal it redraws one bar in place; elsewhere it prints a plain line at most every
// Interval, plus the first and the last, in a form scripts can parse:
//
//	progress 1200/2000 60.0% 85.3/s eta 9s
//
// The count shown never goes down, so the lines are monotone even when a status answer
// lags behind an earlier one. A nil *Meter does nothing.
type Meter struct {
	mu       sync.Mutex
	w        io.Writer
	label    string
	tty      bool
	interval time.Duration
	now      func() time.Time
	columns  func() int

	started   bool
	start     time.Time
	base      int64 // done at the first reading: the rate counts this run's work only
	done      int64
	total     int64
	lastPrint time.Time
	printed   bool
	lastLine  string
	finished  bool
}

// DefaultInterval is how often a plain line is printed.
const DefaultInterval = 3 * time.Second

// MeterOptions tunes a Meter.
type MeterOptions struct {
	// Label starts the terminal line (default "progress"); plain lines always start
	// with "progress".
	Label string
	// Interval between plain lines (default DefaultInterval).
	Interval time.Duration
	// Terminal forces the terminal (true) or plain (false) form; nil detects it from w.
	Terminal *bool
	// Now is the clock (default time.Now).
	Now func() time.Time
	// Columns is the terminal's width at each redraw (default: read from w with
	// x/term, 80 when it cannot be read).
	Columns func() int
}

// NewMeter returns a meter writing to w.
func NewMeter(w io.Writer, opts MeterOptions) *Meter {
	m := &Meter{w: w, label: opts.Label, interval: opts.Interval, now: opts.Now}
	if m.label == "" {
		m.label = "progress"
	}
	if m.interval <= 0 {
		m.interval = DefaultInterval
	}
	if m.now == nil {
		m.now = time.Now
	}
	m.columns = opts.Columns
	if m.columns == nil {
		m.columns = func() int { return terminalColumns(w) }
	}
	if opts.Terminal != nil {
		m.tty = *opts.Terminal
	} else {
		m.tty = isTerminal(w)
	}
	return m
}

// Set records that done of total records are finished (total 0 when not known yet).
func (m *Meter) Set(done, total int64) {
	if m == nil {
		return
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.finished {
		return
	}
	now := m.now()
	if !m.started {
		m.started, m.start, m.base, m.done = true, now, done, done
	}
	if done > m.done {
		m.done = done
	}
	if total > 0 {
		m.total = total
	}
	m.draw(now, false)
}

// Finish prints the last line (and ends the terminal line). Calling it again is
// harmless.
func (m *Meter) Finish() {
	if m == nil {
		return
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.finished || !m.started {
		m.finished = true
		return
	}
	m.draw(m.now(), true)
	m.finished = true
}

func (m *Meter) draw(now time.Time, final bool) {
	if m.tty {
		if !final && m.printed && now.Sub(m.lastPrint) < redrawEvery {
			return
		}
		m.lastPrint, m.printed = now, true
		end := ""
		if final {
			end = "\n"
		}
		fmt.Fprintf(m.w, "\r%s\033[K%s", m.barLine(now, m.columns()), end)
		return
	}
	if !final && m.printed && now.Sub(m.lastPrint) < m.interval {
		return
	}
	line := m.plainLine(now)
	if final && line == m.lastLine {
		return
	}
	m.lastPrint, m.printed, m.lastLine = now, true, line
	fmt.Fprintln(m.w, line)
}

// rate is records per second of this run, and the time left at that rate (-1 when
// unknown).
func (m *Meter) rate(now time.Time) (float64, time.Duration) {
	secs := now.Sub(m.start).Seconds()
	if secs <= 0 || m.done <= m.base {
		return 0, -1
	}
	r := float64(m.done-m.base) / secs
	if m.total <= 0 {
		return r, -1
	}
	left := time.Duration(float64(max(m.total-m.done, 0)) / r * float64(time.Second))
	return r, left.Round(time.Second)
}

func (m *Meter) percent() float64 {
	if m.total <= 0 {
		return 0
	}
	return min(100*float64(m.done)/float64(m.total), 100)
}

// plainLine is "progress DONE/TOTAL PCT% RATE/s eta LEFT" ("eta ?" while unknown).
func (m *Meter) plainLine(now time.Time) string {
	r, left := m.rate(now)
	eta := "?"
	if left >= 0 {
		eta = left.String()
	}
	return fmt.Sprintf("progress %d/%d %.1f%% %.1f/s eta %s", m.done, m.total, m.percent(), r, eta)
}

// barLine is "label [#####.....]  60% 1200/2000 85.3/s 9s left", fitted into cols
// columns (see fitBar).
func (m *Meter) barLine(now time.Time, cols int) string {
	frac := m.percent() / 100
	r, left := m.rate(now)
	parts := []string{fmt.Sprintf("%3.0f%%", frac*100), fmt.Sprintf("%d/%d", m.done, m.total), fmt.Sprintf("%.1f/s", r)}
	if left >= 0 {
		parts = append(parts, left.String()+" left")
	}
	return fitBar(m.label, frac, parts, cols)
}
