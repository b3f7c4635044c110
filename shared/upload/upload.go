// Package upload reads the tabular files users upload to bulk match, segmentation and
// append: CSV (UTF-8 with or without BOM, UTF-16 and Latin-1 detected and converted; the
// delimiter sniffed among comma, semicolon and tab) and Excel .xlsx (the first sheet).
// The format and encoding are found from the content, never from the file name. Read
// returns a Table: a header of distinct names and the non-blank rows, each as wide as
// the header. DetectColumn finds the domain or company-name column when the request
// does not name it.
package upload

import (
	"bytes"
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/xuri/excelize/v2"
	"golang.org/x/text/encoding"
	"golang.org/x/text/encoding/charmap"
	"golang.org/x/text/encoding/unicode"

	"github.com/firmoapi/firmo/shared/apperr"
)

// Field is the upload's form field, named by every error Read returns.
const Field = "file"

// The default limits (the API reference's segment upload: 1 MB and 10,000 rows). A
// file's memory is bounded by its cells, not its bytes (a 1 MB CSV of empty cells or a
// small xlsx with one cell far to the right describes millions of cells), so columns
// and cells are bounded too, checked from the header and as rows stream, before a row
// is kept.
const (
	DefaultMaxBytes   = 1 << 20
	DefaultMaxRows    = 10_000
	DefaultMaxColumns = 256
	DefaultMaxCells   = 1_000_000
)

// Formats of a Table.
const (
	FormatCSV  = "csv"
	FormatXLSX = "xlsx"
)

// Encodings of a Table read from CSV; an xlsx table's Encoding is empty.
const (
	EncodingUTF8    = "utf-8"
	EncodingUTF8BOM = "utf-8-bom"
	// EncodingLatin1 is read as Windows-1252, the superset of ISO 8859-1 that Excel
	// writes on Western European Windows (it has € and curly quotes where ISO 8859-1
	// has unused control codes).
	EncodingLatin1  = "latin-1"
	EncodingUTF16LE = "utf-16le"
	EncodingUTF16BE = "utf-16be"
)

// encryptionInfo is the stream name "EncryptionInfo" as an OLE directory entry holds it
// (UTF-16LE): Office's encryption of an .xlsx stores it beside the encrypted package.
var encryptionInfo = []byte("E\x00n\x00c\x00r\x00y\x00p\x00t\x00i\x00o\x00n\x00I\x00n\x00f\x00o\x00")

// xlsxUnzipLimit bounds the uncompressed size of a workbook, so a small zip cannot
// expand without limit in memory.
const xlsxUnzipLimit = 64 << 20

// xlsxInMemoryLimit is the largest part of a workbook excelize keeps in memory; a
// larger worksheet is unzipped to a temporary file and streamed from there.
const xlsxInMemoryLimit = 16 << 20

// Limits bound an upload. A zero field takes its default.
type Limits struct {
	// MaxBytes is the largest file accepted, in bytes (default DefaultMaxBytes).
	MaxBytes int64
	// MaxRows is the most data rows accepted, the header and blank rows not counted
	// (default DefaultMaxRows).
	MaxRows int
	// MaxColumns is the most columns a file may have: its header's width, and the
	// last column of any row holding a value (default DefaultMaxColumns).
	MaxColumns int
	// MaxCells is the most cells kept: the header's width times the rows, header
	// included (default DefaultMaxCells).
	MaxCells int
}

func (l Limits) withDefaults() Limits {
	if l.MaxBytes <= 0 {
		l.MaxBytes = DefaultMaxBytes
	}
	if l.MaxRows <= 0 {
		l.MaxRows = DefaultMaxRows
	}
	if l.MaxColumns <= 0 {
		l.MaxColumns = DefaultMaxColumns
	}
	if l.MaxCells <= 0 {
		l.MaxCells = DefaultMaxCells
	}
	return l
}

// Table is an upload read: the header names (trimmed, distinct, non-blank) and the data
// rows, each exactly as wide as the header (cells beyond it dropped, missing ones
// blank); rows whose cells are all blank are left out.
type Table struct {
	Header   []string
	Rows     [][]string
	Format   string // FormatCSV or FormatXLSX
	Encoding string // the CSV's encoding (Encoding* constants); empty for xlsx
}

// Read reads an upload of at most limits.MaxBytes bytes holding a header row and 1 to
// limits.MaxRows data rows, at most limits.MaxColumns wide and limits.MaxCells cells.
// name, the client's file name, is only quoted in messages. A file over MaxBytes is
// apperr.ErrTooLarge (413) naming Field, as bulk match answers; every other refusal is
// apperr.Invalid (422) naming Field. The file is parsed in one streaming pass: a row is
// kept only once the limits allow it, cut to the header's width, so a file past a
// limit is refused having cost at most one row.
func Read(r io.Reader, name string, limits Limits) (Table, error) {
	limits = limits.withDefaults()
	data, err := io.ReadAll(io.LimitReader(r, limits.MaxBytes+1))
	if err != nil {
		return Table{}, fmt.Errorf("read upload: %w", err)
	}
	if int64(len(data)) > limits.MaxBytes {
		return Table{}, &apperr.Error{Kind: apperr.ErrTooLarge, Field: Field,
			Message: fmt.Sprintf("%s is larger than %s", fileName(name), size(limits.MaxBytes))}
	}
	if len(data) == 0 {
		return Table{}, apperr.Invalid(Field, "%s is empty: it needs a header row and at least one row", fileName(name))
	}
	c := &collector{name: name, limits: limits}
	t := Table{Format: FormatCSV}
	switch {
	case bytes.HasPrefix(data, []byte("PK\x03\x04")):
		t.Format = FormatXLSX
		err = readXLSX(data, c)
	case bytes.HasPrefix(data, []byte("\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1")) && bytes.Contains(data, encryptionInfo):
		// A password-protected .xlsx is an OLE container holding the encrypted package.
		err = apperr.Invalid(Field, "%s is a password-protected (encrypted) Excel workbook: remove the password, or save it as CSV", fileName(name))
	case bytes.HasPrefix(data, []byte("\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1")):
		err = apperr.Invalid(Field, "%s is an Excel 97-2003 (.xls) or other legacy Office file: save it as .xlsx or CSV", fileName(name))
	default:
		var text string
		text, t.Encoding = decodeText(data)
		data = nil // the text is the copy read from now on
		err = readCSV(text, c)
	}
	if err != nil {
		return Table{}, err
	}
	return c.table(t)
}

// collector keeps a file's rows as the readers stream them, within the limits: the
// first non-blank row is the header and decides the width; every later row is checked
// against the column limit before anything of it is kept, counted against the row and
// cell limits, and kept cut to the header's width.
type collector struct {
	name   string
	limits Limits
	header []string // trimmed names up to the last non-blank one; nil until read
	named  int      // the header row's width as read, blank trailing names included
	rows   [][]string
	n      int // data rows seen (kept or not)
}

// add takes the next record of the file. rec may be reused by the reader after add
// returns.
func (c *collector) add(rec []string) error {
	last := len(rec) // one past the last cell holding a value
	for last > 0 && strings.TrimSpace(rec[last-1]) == "" {
		last--
	}
	if last == 0 {
		return nil // a blank row
	}
	if last > c.limits.MaxColumns {
		return tooManyColumns(c.name, c.header == nil, last, c.limits.MaxColumns)
	}
	if c.header == nil {
		return c.readHeader(rec, last)
	}
	c.n++
	if c.n > c.limits.MaxRows {
		return nil // counted for the message, not kept
	}
	width := len(c.header)
	if cells := width * (c.n + 1); cells > c.limits.MaxCells {
		return apperr.Invalid(Field, "%s has more than %s cells (%d columns by %d rows and counting); at most %s cells (columns times rows, header included) are accepted: split the file or drop columns", fileName(c.name), thousands(c.limits.MaxCells), width, c.n+1, thousands(c.limits.MaxCells))
	}
	// A value in a column whose header cell is there but blank has no name.
	for i := width; i < min(last, c.named); i++ {
		if strings.TrimSpace(rec[i]) != "" {
			return apperr.Invalid(Field, "header column %d is blank: every column needs a name", width+1)
		}
	}
	row := make([]string, width)
	copy(row, rec)
	c.rows = append(c.rows, row)
	return nil
}

func (c *collector) readHeader(rec []string, last int) error {
	// Trailing columns with neither a name nor a value (Excel's formatted but empty
	// columns, a trailing delimiter) are not columns; a later value under one is an
	// error (add).
	seen := make(map[string]bool, last)
	header := make([]string, last)
	for i := range last {
		h := strings.TrimSpace(rec[i])
		if h == "" {
			return apperr.Invalid(Field, "header column %d is blank: every column needs a name", i+1)
		}
		if seen[h] {
			return apperr.Invalid(Field, "the header names column %q twice", h)
		}
		seen[h], header[i] = true, h
	}
	c.header, c.named = header, min(len(rec), c.limits.MaxColumns)
	return nil
}

// table is the Table of the rows collected.
func (c *collector) table(t Table) (Table, error) {
	if c.header == nil {
		return Table{}, apperr.Invalid(Field, "%s is empty: it needs a header row and at least one row", fileName(c.name))
	}
	if c.n == 0 {
		return Table{}, apperr.Invalid(Field, "%s has a header but no rows", fileName(c.name))
	}
	if c.n > c.limits.MaxRows {
		return Table{}, tooManyRows(c.name, c.n, c.limits.MaxRows)
	}
	t.Header, t.Rows = c.header, c.rows
	return t, nil
}

func tooManyRows(name string, n, maxRows int) error {
	return apperr.Invalid(Field, "%s has %d rows; at most %d are accepted", fileName(name), n, maxRows)
}

// tooManyColumns refuses a row with a value past the column limit; counted is how far
// the count went (the CSV header is counted only to one past the limit).
func tooManyColumns(name string, header bool, counted, maxColumns int) error {
	what := "a row has a value in column " + columnName(counted)
	if header {
		what = "the header has more than " + strconv.Itoa(maxColumns) + " columns"
		if counted > maxColumns+1 {
			what = "the header has " + strconv.Itoa(counted) + " columns"
		}
	}
	return apperr.Invalid(Field, "%s: %s; at most %d columns are accepted", fileName(name), what, maxColumns)
}

// columnName is the spreadsheet name of the 1-based column n (1 is A, 27 is AA).
func columnName(n int) string {
	name := ""
	for n > 0 {
		n--
		name = string(rune('A'+n%26)) + name
		n /= 26
	}
	return name
}

func thousands(n int) string {
	s := strconv.Itoa(n)
	for i := len(s) - 3; i > 0; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	return s
}

func blank(rec []string) bool {
	for _, c := range rec {
		if strings.TrimSpace(c) != "" {
			return false
		}
	}
	return true
}

// ---- CSV ----

// decodeText converts data to UTF-8 and names the encoding it was in: a BOM decides;
// without one, NUL bytes in every other position mean UTF-16, valid UTF-8 is UTF-8 and
// anything else is Latin-1 (Windows-1252).
func decodeText(data []byte) (string, string) {
	var enc encoding.Encoding
	name := EncodingUTF8
	switch {
	case bytes.HasPrefix(data, []byte("\xef\xbb\xbf")):
		return string(data[3:]), EncodingUTF8BOM
	case bytes.HasPrefix(data, []byte("\xff\xfe")):
		enc, name = unicode.UTF16(unicode.LittleEndian, unicode.IgnoreBOM), EncodingUTF16LE
		data = data[2:]
	case bytes.HasPrefix(data, []byte("\xfe\xff")):
		enc, name = unicode.UTF16(unicode.BigEndian, unicode.IgnoreBOM), EncodingUTF16BE
		data = data[2:]
	default:
		switch utf16Order(data) {
		case EncodingUTF16LE:
			enc, name = unicode.UTF16(unicode.LittleEndian, unicode.IgnoreBOM), EncodingUTF16LE
		case EncodingUTF16BE:
			enc, name = unicode.UTF16(unicode.BigEndian, unicode.IgnoreBOM), EncodingUTF16BE
		default:
			if utf8.Valid(data) {
				return string(data), EncodingUTF8
			}
			enc, name = charmap.Windows1252, EncodingLatin1
		}
	}
	out, err := enc.NewDecoder().Bytes(data)
	if err != nil {
		// The decoders replace what they cannot decode; keep the bytes as Latin-1 if
		// one ever refuses.
		out, _ = charmap.Windows1252.NewDecoder().Bytes(data)
		name = EncodingLatin1
	}
	return string(out), name
}

// utf16Order tells UTF-16 without a BOM by its NUL bytes: text that is mostly ASCII
// has a NUL as the high byte of most code units and almost nowhere else. It returns
// EncodingUTF16LE, EncodingUTF16BE or "".
func utf16Order(data []byte) string {
	sample := data[:min(len(data), 1024)&^1]
	units := len(sample) / 2
	if units == 0 {
		return ""
	}
	var even, odd int
	for i, b := range sample {
		if b != 0 {
			continue
		}
		if i%2 == 0 {
			even++
		} else {
			odd++
		}
	}
	switch {
	case odd*10 >= units*4 && even*20 < units:
		return EncodingUTF16LE
	case even*10 >= units*4 && odd*20 < units:
		return EncodingUTF16BE
	}
	return ""
}

// readCSV parses text with the sniffed delimiter into c. The header's width is counted
// before the CSV reader allocates it (a 1 MB line can hold 500,000 fields), and records
// reuse one slice, so a file past a limit costs one record.
func readCSV(text string, c *collector) error {
	text = strings.TrimPrefix(text, "\ufeff")
	if strings.ContainsRune(text, 0) {
		return apperr.Invalid(Field, "%s is neither CSV text nor an Excel .xlsx workbook", fileName(c.name))
	}
	if !strings.Contains(text, "\n") {
		// Classic Mac line ends.
		text = strings.ReplaceAll(text, "\r", "\n")
	}
	comma := sniffDelimiter(text, c.limits.MaxColumns)
	if n := headerFields(text, comma, c.limits.MaxColumns); n > c.limits.MaxColumns {
		return tooManyColumns(c.name, true, n, c.limits.MaxColumns)
	}
	cr := newCSVReader(text, comma)
	for {
		rec, err := cr.Read()
		if errors.Is(err, io.EOF) {
			return nil
		}
		if err != nil {
			return apperr.Invalid(Field, "%s is not valid CSV: %v", fileName(c.name), err)
		}
		if err := c.add(rec); err != nil {
			return err
		}
	}
}

// headerFields counts the fields of text's first record holding more than delimiters
// and spaces (the header), quotes respected, without allocating; it stops counting
// past limit (also on a blank record that wide).
func headerFields(text string, comma rune, limit int) int {
	n, quoted, content := 1, false, false
	for i := 0; i < len(text); i++ {
		ch := text[i]
		switch {
		case quoted:
			if ch == '"' {
				if i+1 < len(text) && text[i+1] == '"' {
					i++
				} else {
					quoted = false
				}
			}
		case ch == '"':
			quoted, content = true, true
		case rune(ch) == comma:
			if n++; n > limit {
				return n
			}
		case ch == '\n':
			if content {
				return n
			}
			n = 1
		case ch == ' ' || ch == '\t' || ch == '\r':
		default:
			content = true
		}
	}
	return n
}

func newCSVReader(text string, comma rune) *csv.Reader {
	cr := csv.NewReader(strings.NewReader(text))
	cr.Comma = comma
	cr.FieldsPerRecord = -1
	cr.ReuseRecord = true
	return cr
}

// sniffDelimiter picks the delimiter among comma, semicolon and tab that splits the
// first records most consistently: every sampled record as wide as the first, then
// the most columns, then the order comma, semicolon, tab. A file of one column is
// comma-separated. A delimiter giving a header wider than maxColumns is not tried
// (Read refuses the file if it is the one left).
func sniffDelimiter(text string, maxColumns int) rune {
	const sample = 50
	best, bestConsistent, bestWidth := ',', false, 0
	for _, comma := range []rune{',', ';', '\t'} {
		if w := headerFields(text, comma, maxColumns); w <= 1 || w > maxColumns {
			continue // one column: not this delimiter; too many: refused if it is the one left
		}
		cr := newCSVReader(text, comma)
		width, consistent, rows := 0, true, 0
		for rows < sample {
			rec, err := cr.Read()
			if errors.Is(err, io.EOF) {
				break
			}
			if err != nil {
				consistent = false
				break
			}
			if blank(rec) {
				continue
			}
			if rows == 0 {
				width = len(rec)
			} else if len(rec) != width {
				consistent = false
			}
			rows++
		}
		if width <= 1 {
			continue
		}
		if (consistent && !bestConsistent) || (consistent == bestConsistent && width > bestWidth) {
			best, bestConsistent, bestWidth = comma, consistent, width
		}
	}
	return best
}

// ---- xlsx ----

// readXLSX streams the rows of the workbook's first sheet into c. excelize's row
// iterator yields a row as wide as its last cell holding a value (at most Excel's
// 16,384 columns), never padded to other rows; the collector refuses a row past the
// column limit before keeping anything of it.
func readXLSX(data []byte, c *collector) error {
	name := c.name
	notWorkbook := apperr.Invalid(Field, "%s is a ZIP archive but not an Excel .xlsx workbook", fileName(name))
	f, err := excelize.OpenReader(bytes.NewReader(data), excelize.Options{UnzipSizeLimit: xlsxUnzipLimit, UnzipXMLSizeLimit: xlsxInMemoryLimit})
	if err != nil {
		if f != nil {
			_ = f.Close()
		}
		if strings.Contains(err.Error(), "unzip size") {
			return apperr.Invalid(Field, "%s expands to more than %s when unzipped", fileName(name), size(xlsxUnzipLimit))
		}
		return notWorkbook
	}
	defer func() { _ = f.Close() }()
	sheets := f.GetSheetList()
	if len(sheets) == 0 {
		return notWorkbook
	}
	rows, err := f.Rows(sheets[0])
	if err != nil {
		return notWorkbook
	}
	defer func() { _ = rows.Close() }()
	for rows.Next() {
		rec, err := rows.Columns()
		if err != nil {
			return apperr.Invalid(Field, "%s: sheet %q cannot be read: %v", fileName(name), sheets[0], err)
		}
		if err := c.add(rec); err != nil {
			return err
		}
	}
	if err := rows.Error(); err != nil {
		return apperr.Invalid(Field, "%s: sheet %q cannot be read: %v", fileName(name), sheets[0], err)
	}
	return nil
}

// ---- messages ----

func fileName(name string) string {
	name = strings.TrimSpace(name)
	if name == "" || !utf8.ValidString(name) || len(name) > 100 {
		return "the file"
	}
	return fmt.Sprintf("the file %q", name)
}

func size(n int64) string {
	if n >= 1<<20 && n%(1<<20) == 0 {
		return fmt.Sprintf("%d MB", n>>20)
	}
	if n >= 1<<10 && n%(1<<10) == 0 {
		return fmt.Sprintf("%d KB", n>>10)
	}
	return fmt.Sprintf("%d bytes", n)
}
