package progress

import (
	"bytes"
	"strings"
	"testing"
	"time"
)

type clock struct{ t time.Time }

func (c *clock) now() time.Time { return c.t }

func TestPlainOutputEveryTenth(t *testing.T) {
	var buf bytes.Buffer
	c := &clock{t: time.Unix(0, 0)}
	b := newBar(&buf, "seed", 100, false, c.now)
	for i := 0; i < 100; i++ {
		c.t = c.t.Add(10 * time.Millisecond)
		b.Add(1)
	}
	b.Done()
	b.Done()
	lines := strings.Split(strings.TrimSpace(buf.String()), "\n")
	// The first unit (0-9%), 10%..90%, and the final line.
	if got, want := len(lines), 11; got != want {
		t.Fatalf("got %d lines, want %d:\n%s", got, want, buf.String())
	}
	last := lines[len(lines)-1]
	for _, want := range []string{"seed [", "100%", "100/100", "1s", "100/s"} {
		if !strings.Contains(last, want) {
			t.Errorf("final line %q lacks %q", last, want)
		}
	}
}

func TestTerminalRedrawsAtMostTenTimesASecond(t *testing.T) {
	var buf bytes.Buffer
	c := &clock{t: time.Unix(0, 0)}
	b := newBar(&buf, "ingest", 1000, true, c.now)
	for i := 0; i < 1000; i++ {
		c.t = c.t.Add(time.Millisecond) // one second in all
		b.Add(1)
	}
	b.Done()
	out := buf.String()
	redraws := strings.Count(out, "\r")
	if redraws < 5 || redraws > 12 {
		t.Fatalf("%d redraws in one simulated second, want about 10", redraws)
	}
	if !strings.HasSuffix(out, "\n") || !strings.Contains(out, "1000/1000") {
		t.Fatalf("final draw missing: %q", out)
	}
}

func TestUnknownTotalAndNil(t *testing.T) {
	var buf bytes.Buffer
	c := &clock{t: time.Unix(0, 0)}
	b := newBar(&buf, "rows", 0, false, c.now)
	b.Add(7)
	b.Done()
	if got := strings.TrimSpace(buf.String()); got != "rows 7 0s" {
		t.Fatalf("got %q", got)
	}
	var nilBar *Bar
	nilBar.Add(1) // must not panic
	nilBar.Done()
}
