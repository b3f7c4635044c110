package progress

import (
	"bytes"
	"strings"
	"testing"
	"time"
)

// TestMeterPlainLines: off a terminal the meter prints the first reading, then at most
// one line per interval, and the last; the count never goes down even when a reading
// lags; the rate and time left follow the readings.
func TestMeterPlainLines(t *testing.T) {
	var buf bytes.Buffer
	now := time.Unix(1000, 0)
	plain := false
	m := NewMeter(&buf, MeterOptions{Interval: 2 * time.Second, Terminal: &plain, Now: func() time.Time { return now }})
	m.Set(0, 0)
	now = now.Add(time.Second)
	m.Set(100, 1000) // within the interval: no line
	now = now.Add(time.Second)
	m.Set(200, 1000)
	now = now.Add(2 * time.Second)
	m.Set(150, 1000) // lags: still 200
	now = now.Add(6 * time.Second)
	m.Set(1000, 1000)
	m.Finish()
	m.Finish()
	got := strings.Split(strings.TrimSpace(buf.String()), "\n")
	want := []string{
		"progress 0/0 0.0% 0.0/s eta ?",
		"progress 200/1000 20.0% 100.0/s eta 8s",
		"progress 200/1000 20.0% 50.0/s eta 16s",
		"progress 1000/1000 100.0% 100.0/s eta 0s",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Fatalf("lines:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

// TestMeterTerminal: on a terminal the line is redrawn in place and ended once.
func TestMeterTerminal(t *testing.T) {
	var buf bytes.Buffer
	now := time.Unix(1000, 0)
	tty := true
	m := NewMeter(&buf, MeterOptions{Label: "bulkmatch", Terminal: &tty, Now: func() time.Time { return now }})
	m.Set(0, 2000)
	now = now.Add(10 * time.Second)
	m.Set(1000, 2000)
	m.Finish()
	out := buf.String()
	if strings.Count(out, "\r") != 3 || strings.Count(out, "\n") != 1 || !strings.HasSuffix(out, "\n") {
		t.Fatalf("terminal output %q: want three redraws and one newline", out)
	}
	if !strings.Contains(out, "bulkmatch [###############...............]  50% 1000/2000 100.0/s 10s left") {
		t.Fatalf("terminal output %q lacks the half-way bar", out)
	}
	var nilMeter *Meter
	nilMeter.Set(1, 2)
	nilMeter.Finish()
}
