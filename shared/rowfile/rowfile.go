// Package rowfile reads ingest files of rows, CSV with a header row or JSON Lines, and
// numbers each row by its line in the file, so that a bad row is reported by line and
// the field to blame while the good rows go on. The company and contact ingests share it.
package rowfile

import (
	"bufio"
	"bytes"
	"encoding/csv"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/firmoapi/firmo/shared/apperr"
)

// RowError is a rejected row: its line in the file (1-based), the offending field when
// one is to blame, and why.
type RowError struct {
	Line    int    `json:"line"`
	Field   string `json:"field,omitempty"`
	Message string `json:"message"`
}

func (e RowError) String() string {
	if e.Field != "" {
		return fmt.Sprintf("line %d: %s: %s", e.Line, e.Field, e.Message)
	}
	return fmt.Sprintf("line %d: %s", e.Line, e.Message)
}

// ErrorAt is the RowError of err at line; an apperr.Error gives its field and message.
func ErrorAt(line int, err error) RowError {
	re := RowError{Line: line, Message: err.Error()}
	var ae *apperr.Error
	if errors.As(err, &ae) {
		re.Field, re.Message = ae.Field, ae.Message
	}
	return re
}

// Counter passes reads through and reports the bytes read to Add (a progress bar).
type Counter struct {
	R   io.Reader
	Add func(n int64)
}

func (c *Counter) Read(p []byte) (int, error) {
	n, err := c.R.Read(p)
	c.Add(int64(n))
	return n, err
}

// tooLongPrefix starts the stand-in Lines passes for a line over its limit; Decode
// turns it into the row's error. A real line cannot start so: JSON keys are quoted.
const tooLongPrefix = "\x00too long:"

// Lines calls fn for each non-blank line of r, trimmed, with its 1-based number, and
// stops at fn's first error. A line longer than maxLine bytes is consumed, not kept:
// fn gets a stand-in that Decode reports as too long, so one huge row costs no memory
// and stops nothing.
func Lines(r io.Reader, maxLine int, fn func(line int, raw []byte) error) error {
	br := bufio.NewReaderSize(r, 1<<16)
	line := 0
	for {
		raw, err := readLine(br, maxLine)
		if len(raw) > 0 || err == nil {
			line++
		}
		if t := bytes.TrimSpace(raw); len(t) > 0 {
			if ferr := fn(line, t); ferr != nil {
				return ferr
			}
		}
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return err
		}
	}
}

// JSONL reads JSON Lines of T: each non-blank line is decoded by Decode and given to
// row with its line number, or its error to bad. row's first error stops the reading.
func JSONL[T any](r io.Reader, maxLine int, row func(line int, v T) error, bad func(line int, err error)) error {
	return Lines(r, maxLine, func(line int, raw []byte) error {
		var v T
		if err := Decode(raw, &v); err != nil {
			bad(line, err)
			return nil
		}
		return row(line, v)
	})
}

// readLine reads one line without its newline; a line over maxLine (newline
// included) is consumed to its end and replaced by the too-long stand-in.
func readLine(br *bufio.Reader, maxLine int) ([]byte, error) {
	var buf []byte
	long := false
	for {
		chunk, err := br.ReadSlice('\n')
		if !long && len(buf)+len(chunk) <= maxLine {
			buf = append(buf, chunk...)
		} else {
			long, buf = true, nil
		}
		if err == bufio.ErrBufferFull {
			continue
		}
		if long {
			return []byte(tooLongPrefix + strconv.Itoa(maxLine)), err
		}
		return bytes.TrimRight(buf, "\r\n"), err
	}
}

// Decode decodes one line of Lines, a JSON object, into v, refusing unknown fields; the
// error names the field to blame when there is one (unknown, or of the wrong type).
func Decode(raw []byte, v any) error {
	if limit, ok := bytes.CutPrefix(raw, []byte(tooLongPrefix)); ok {
		n, _ := strconv.Atoi(string(limit))
		return fmt.Errorf("the line is longer than %s", size(n))
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		msg := err.Error()
		if name, ok := strings.CutPrefix(msg, "json: unknown field "); ok {
			name = strings.Trim(name, `"`)
			return apperr.Invalid(name, "unknown field %q", name)
		}
		var te *json.UnmarshalTypeError
		if errors.As(err, &te) {
			return apperr.Invalid(te.Field, "wrong type: %s where %s is expected", te.Value, te.Type)
		}
		return fmt.Errorf("not a JSON object: %v", err)
	}
	if dec.More() {
		return errors.New("more than one JSON value on the line")
	}
	return nil
}

func size(n int) string {
	if n >= 1<<20 && n%(1<<20) == 0 {
		return fmt.Sprintf("%d MB", n>>20)
	}
	return fmt.Sprintf("%d bytes", n)
}

// CSV reads CSV with a header row. The header's names (case and spaces ignored, a
// byte-order mark dropped) must be among columns, each once, and include every name of
// required; a bad header is an error naming the column, and nothing is read. Then row
// is called for each record with its line and a getter of its fields by column name
// ("" for a column the file lacks), and bad for each malformed record (its line and
// why). Blank lines are skipped. A record's memory is bounded: a line longer than
// MaxCSVLine stops the reading with an error naming it (the CSV reader would hold it
// whole), and records share one slice (get is valid during row only).
func CSV(r io.Reader, columns, required []string, row func(line int, get func(column string) string), bad func(line int, err error)) error {
	cr := csv.NewReader(&lineLimit{r: r, max: MaxCSVLine, line: 1})
	cr.FieldsPerRecord = -1
	cr.ReuseRecord = true
	header, err := cr.Read()
	if err != nil {
		return apperr.Invalid("file", "the CSV header row cannot be read: %v", err)
	}
	cols := map[string]int{}
	for i, h := range header {
		h = strings.ToLower(strings.TrimSpace(strings.TrimPrefix(h, "\ufeff")))
		if !contains(columns, h) {
			return apperr.Invalid(h, "unknown column %q; the columns are %s", h, strings.Join(columns, ", "))
		}
		if _, dup := cols[h]; dup {
			return apperr.Invalid(h, "column %q appears twice", h)
		}
		cols[h] = i
	}
	for _, name := range required {
		if _, ok := cols[name]; !ok {
			return apperr.Invalid(name, "the header has no %s column", name)
		}
	}
	for {
		rec, err := cr.Read()
		if err == io.EOF {
			return nil
		}
		var pe *csv.ParseError
		if errors.As(err, &pe) {
			bad(pe.StartLine, fmt.Errorf("malformed CSV: %v", pe.Err))
			continue
		}
		if err != nil {
			return err
		}
		line, _ := cr.FieldPos(0)
		if len(rec) == 1 && strings.TrimSpace(rec[0]) == "" {
			continue // blank line
		}
		if len(rec) != len(header) {
			bad(line, fmt.Errorf("%d fields where the header has %d", len(rec), len(header)))
			continue
		}
		row(line, func(name string) string {
			if i, ok := cols[name]; ok {
				return rec[i]
			}
			return ""
		})
	}
}

// MaxCSVLine bounds one physical line of an ingested CSV file.
const MaxCSVLine = 1 << 20

// lineLimit passes r through and fails once a line runs past max bytes.
type lineLimit struct {
	r        io.Reader
	max, run int // run: bytes of the current line so far
	line     int
}

func (l *lineLimit) Read(p []byte) (int, error) {
	n, err := l.r.Read(p)
	for i, b := range p[:n] {
		if b == '\n' {
			l.line++
			l.run = 0
			continue
		}
		if l.run++; l.run > l.max {
			return i, fmt.Errorf("line %d is longer than %s: %w", l.line, size(l.max), apperr.ErrInvalid)
		}
	}
	return n, err
}

func contains(list []string, v string) bool {
	for _, x := range list {
		if x == v {
			return true
		}
	}
	return false
}
