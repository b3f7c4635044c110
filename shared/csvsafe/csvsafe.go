// Package csvsafe writes CSV that a spreadsheet opens as data, never as formulas: a
// cell starting with = + - @, a tab or a carriage return is one Excel, LibreOffice and
// Google Sheets may run as a formula (=HYPERLINK(...), =cmd|...), and the cells Firmo
// writes carry text from third-party websites and from uploads. Such a cell is
// prefixed with a single quote, OWASP's rule for CSV injection, which spreadsheets
// show as the text itself. A plain number (-5, +1.5) is left as it is: it is no
// formula, and quoting it would turn a number column into text.
package csvsafe

import (
	"encoding/csv"
	"io"
)

// Cell is s as a cell safe to open in a spreadsheet: s itself, or s prefixed with a
// single quote when a spreadsheet could read it as a formula.
func Cell(s string) string {
	if s == "" {
		return s
	}
	switch s[0] {
	case '=', '@', '\t', '\r':
		return "'" + s
	case '+', '-':
		if number(s[1:]) {
			return s
		}
		return "'" + s
	}
	return s
}

// number reports whether s is digits with at most one decimal point among them.
func number(s string) bool {
	digits, point := 0, false
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c >= '0' && c <= '9':
			digits++
		case c == '.' && !point:
			point = true
		default:
			return false
		}
	}
	return digits > 0
}

// Writer is a csv.Writer whose cells pass through Cell.
type Writer struct {
	w   *csv.Writer
	rec []string
}

// NewWriter returns a Writer writing to w (comma-separated, "\n" line ends, as
// csv.NewWriter).
func NewWriter(w io.Writer) *Writer { return &Writer{w: csv.NewWriter(w)} }

// Write writes one record, its cells made safe; record itself is not changed.
func (w *Writer) Write(record []string) error {
	w.rec = w.rec[:0]
	for _, c := range record {
		w.rec = append(w.rec, Cell(c))
	}
	return w.w.Write(w.rec)
}

// WriteAll writes the records and flushes, as csv.Writer.WriteAll.
func (w *Writer) WriteAll(records [][]string) error {
	for _, r := range records {
		if err := w.Write(r); err != nil {
			return err
		}
	}
	w.w.Flush()
	return w.w.Error()
}

// Flush writes any buffered data to the underlying writer.
func (w *Writer) Flush() { w.w.Flush() }

// Error is the first error of a previous Write or Flush.
func (w *Writer) Error() error { return w.w.Error() }
