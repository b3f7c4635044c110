package rowfile

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/firmoapi/firmo/shared/apperr"
)

type row struct {
	Name string `json:"name"`
	N    int    `json:"n"`
}

// TestLines: line numbers count blank lines and CRLF endings, a line over the limit is
// reported on its own line and the rows after it are still read.
func TestLines(t *testing.T) {
	long := `{"name":"` + strings.Repeat("x", 100) + `"}`
	in := "{\"name\":\"a\"}\r\n\n  \n" + long + "\n{\"name\":\"b\",\"n\":2}\n{\"nmae\":\"c\"}\n{\"n\":\"three\"}\n{\"name\":\"d\"} {}\nnot json"
	var got []string
	err := Lines(strings.NewReader(in), 64, func(line int, raw []byte) error {
		var r row
		if err := Decode(raw, &r); err != nil {
			got = append(got, ErrorAt(line, err).String())
			return nil
		}
		got = append(got, fmt.Sprintf("line %d: %s %d", line, r.Name, r.N))
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	want := []string{
		"line 1: a 0",
		"line 4: the line is longer than 64 bytes",
		"line 5: b 2",
		`line 6: nmae: unknown field "nmae"`,
		"line 7: n: wrong type: string where int is expected",
		"line 8: more than one JSON value on the line",
		"line 9: not a JSON object: invalid character 'o' in literal null (expecting 'u')",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Fatalf("got\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

func TestLinesStopsAtCallbackError(t *testing.T) {
	stop := errors.New("stop")
	calls := 0
	err := Lines(strings.NewReader("{}\n{}\n{}\n"), 1<<20, func(int, []byte) error { calls++; return stop })
	if !errors.Is(err, stop) || calls != 1 {
		t.Fatalf("err = %v after %d calls, want the callback's error after 1", err, calls)
	}
}

// TestTooLongSize: a line over the limit (its newline counted) is one bad row, and the
// row after it is read.
func TestTooLongSize(t *testing.T) {
	// Lines over the reader's 64 KiB buffer come in several chunks: the first case's
	// last chunk is what crosses the limit, the last case crosses it in the first and
	// then reads many more chunks.
	for _, c := range []struct {
		limit, line int
		want        string
	}{{8 << 20, 8 << 20, "8 MB"}, {1 << 20, 1<<20 + 5, "1 MB"}, {1000, 1001, "1000 bytes"}, {1000, 300 << 10, "1000 bytes"}} {
		t.Run(fmt.Sprint(c.limit, "/", c.line), func(t *testing.T) {
			in := strings.Repeat("y", c.line) + "\n{}\n"
			var errs []string
			Lines(strings.NewReader(in), c.limit, func(line int, raw []byte) error {
				if err := Decode(raw, &row{}); err != nil {
					errs = append(errs, ErrorAt(line, err).String())
				}
				return nil
			})
			if got, want := strings.Join(errs, "|"), "line 1: the line is longer than "+c.want; got != want {
				t.Fatalf("got %q, want %q", got, want)
			}
		})
	}
}

// TestCSV: header names are matched without case, spaces or a byte-order mark; bad
// records are reported by line and skipped; a missing column reads as "".
func TestCSV(t *testing.T) {
	in := "\ufeffName , N\nalpha,1\n\nbeta\n\"gam\"ma,3\ndelta,\"4\nline\"\nomega,9\n"
	var rows, bad []string
	err := CSV(strings.NewReader(in), []string{"name", "n", "extra"}, []string{"name"}, func(line int, get func(string) string) {
		rows = append(rows, fmt.Sprintf("%d:%s=%s/%q", line, get("name"), get("n"), get("extra")))
	}, func(line int, err error) {
		bad = append(bad, ErrorAt(line, err).String())
	})
	if err != nil {
		t.Fatal(err)
	}
	wantRows := []string{`2:alpha=1/""`, "6:delta=4\nline/\"\"", `8:omega=9/""`}
	wantBad := []string{"line 4: 1 fields where the header has 2", `line 5: malformed CSV: extraneous or missing " in quoted-field`}
	if fmt.Sprint(rows) != fmt.Sprint(wantRows) {
		t.Errorf("rows = %q, want %q", rows, wantRows)
	}
	if fmt.Sprint(bad) != fmt.Sprint(wantBad) {
		t.Errorf("bad = %q, want %q", bad, wantBad)
	}
}

func TestCSVHeaderErrors(t *testing.T) {
	for _, c := range []struct {
		name, in, field string
	}{
		{"unknown column", "name,colour\n", "colour"},
		{"column twice", "name,NAME\n", "name"},
		{"required column missing", "n\n1\n", "name"},
		{"empty file", "", "file"},
	} {
		t.Run(c.name, func(t *testing.T) {
			read := 0
			err := CSV(strings.NewReader(c.in), []string{"name", "n"}, []string{"name"}, func(int, func(string) string) { read++ }, func(int, error) { read++ })
			var ae *apperr.Error
			if !errors.As(err, &ae) || ae.Kind != apperr.ErrInvalid || ae.Field != c.field || read != 0 {
				t.Fatalf("err = %v (read %d rows), want a 422 naming %q", err, read, c.field)
			}
		})
	}
}

// TestJSONL: decoded rows go to row, undecodable ones to bad, and row's error stops
// the reading.
func TestJSONL(t *testing.T) {
	stop := errors.New("stop")
	var got []string
	err := JSONL(strings.NewReader("{\"name\":\"a\"}\n{\"name\":1}\n\n{\"name\":\"stop\"}\n{\"name\":\"never\"}\n"), 1<<20,
		func(line int, r row) error {
			got = append(got, fmt.Sprintf("%d:%s", line, r.Name))
			if r.Name == "stop" {
				return stop
			}
			return nil
		}, func(line int, err error) { got = append(got, ErrorAt(line, err).String()) })
	want := []string{"1:a", "line 2: name: wrong type: number where string is expected", "4:stop"}
	if !errors.Is(err, stop) || fmt.Sprint(got) != fmt.Sprint(want) {
		t.Fatalf("got %q, %v; want %q and the row's error", got, err, want)
	}
}

// A record is held whole by the CSV reader: a line past MaxCSVLine (a million commas,
// say) stops the reading with an error naming its line rather than filling memory.
func TestCSVLineBounded(t *testing.T) {
	in := "name,n\nalpha,1\n" + strings.Repeat(",", MaxCSVLine+1) + "\nomega,9\n"
	var rows []string
	err := CSV(strings.NewReader(in), []string{"name", "n"}, nil, func(line int, get func(string) string) {
		rows = append(rows, get("name"))
	}, func(int, error) {})
	if err == nil || !strings.Contains(err.Error(), "line 3 is longer than 1 MB") {
		t.Fatalf("CSV = %v, want the error naming line 3", err)
	}
	if fmt.Sprint(rows) != "[alpha]" {
		t.Errorf("rows before the long line = %q, want [alpha]", rows)
	}
}
