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

// The default limits (the API reference's segment upload: 1 MB and 10,000 rows).
const (
	DefaultMaxBytes = 1 << 20
	DefaultMaxRows  = 10_000
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

// Limits bound an upload. A zero field takes its default.
type Limits struct {
	// MaxBytes is the largest file accepted, in bytes (default DefaultMaxBytes).
	MaxBytes int64
	// MaxRows is the most data rows accepted, the header and blank rows not counted
	// (default DefaultMaxRows).
	MaxRows int
}

func (l Limits) withDefaults() Limits {
	if l.MaxBytes <= 0 {
		l.MaxBytes = DefaultMaxBytes
	}
	if l.MaxRows <= 0 {
		l.MaxRows = DefaultMaxRows
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
// limits.MaxRows data rows. name, the client's file name, is only quoted in messages.
// A file over MaxBytes is apperr.ErrTooLarge (413) naming Field, as bulk match
// answers; every other refusal is apperr.Invalid (422) naming Field.
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
	var records [][]string
	t := Table{Format: FormatCSV}
	switch {
	case bytes.HasPrefix(data, []byte("PK\x03\x04")):
		t.Format = FormatXLSX
		records, err = readXLSX(data, name, limits.MaxRows)
	case bytes.HasPrefix(data, []byte("\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1")) && bytes.Contains(data, encryptionInfo):
		// A password-protected .xlsx is an OLE container holding the encrypted package.
		err = apperr.Invalid(Field, "%s is a password-protected (encrypted) Excel workbook: remove the password, or save it as CSV", fileName(name))
	case bytes.HasPrefix(data, []byte("\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1")):
		err = apperr.Invalid(Field, "%s is an Excel 97-2003 (.xls) or other legacy Office file: save it as .xlsx or CSV", fileName(name))
	default:
		var text string
		text, t.Encoding = decodeText(data)
		records, err = readCSV(text, name, limits.MaxRows)
	}
	if err != nil {
		return Table{}, err
	}
	return table(t, records, name, limits.MaxRows)
}

// table checks the header and shapes the rows. records holds the file's non-blank
// rows, header first, and at most maxRows+1 data rows; a fuller file is refused by
// the readers.
func table(t Table, records [][]string, name string, maxRows int) (Table, error) {
	if len(records) == 0 {
		return Table{}, apperr.Invalid(Field, "%s is empty: it needs a header row and at least one row", fileName(name))
	}
	header := records[0]
	// Trailing columns with neither a name nor a value (Excel's formatted but empty
	// columns, a trailing delimiter) are not columns.
	width := len(header)
	for width > 0 && strings.TrimSpace(header[width-1]) == "" && columnBlank(records[1:], width-1) {
		width--
	}
	seen := make(map[string]bool, width)
	t.Header = make([]string, width)
	for i := range width {
		h := strings.TrimSpace(header[i])
		if h == "" {
			return Table{}, apperr.Invalid(Field, "header column %d is blank: every column needs a name", i+1)
		}
		if seen[h] {
			return Table{}, apperr.Invalid(Field, "the header names column %q twice", h)
		}
		seen[h], t.Header[i] = true, h
	}
	if len(records) == 1 {
		return Table{}, apperr.Invalid(Field, "%s has a header but no rows", fileName(name))
	}
	if n := len(records) - 1; n > maxRows {
		return Table{}, tooManyRows(name, n, maxRows)
	}
	t.Rows = make([][]string, len(records)-1)
	for i, rec := range records[1:] {
		row := make([]string, width)
		copy(row, rec)
		t.Rows[i] = row
	}
	return t, nil
}

func tooManyRows(name string, n, maxRows int) error {
	return apperr.Invalid(Field, "%s has %d rows; at most %d are accepted", fileName(name), n, maxRows)
}

func columnBlank(rows [][]string, col int) bool {
	for _, r := range rows {
		if col < len(r) && strings.TrimSpace(r[col]) != "" {
			return false
		}
	}
	return true
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

// readCSV parses text with the sniffed delimiter and returns its non-blank records,
// header first; it stops counting rows into memory past maxRows.
func readCSV(text, name string, maxRows int) ([][]string, error) {
	text = strings.TrimPrefix(text, "\ufeff")
	if strings.ContainsRune(text, 0) {
		return nil, apperr.Invalid(Field, "%s is neither CSV text nor an Excel .xlsx workbook", fileName(name))
	}
	if !strings.Contains(text, "\n") {
		// Classic Mac line ends.
		text = strings.ReplaceAll(text, "\r", "\n")
	}
	cr := newCSVReader(text, sniffDelimiter(text))
	var records [][]string
	n := 0 // data rows
	for {
		rec, err := cr.Read()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return nil, apperr.Invalid(Field, "%s is not valid CSV: %v", fileName(name), err)
		}
		if blank(rec) {
			continue
		}
		if len(records) > 0 {
			n++
		}
		if n <= maxRows {
			records = append(records, rec)
		}
	}
	if n > maxRows {
		return nil, tooManyRows(name, n, maxRows)
	}
	return records, nil
}

func newCSVReader(text string, comma rune) *csv.Reader {
	cr := csv.NewReader(strings.NewReader(text))
	cr.Comma = comma
	cr.FieldsPerRecord = -1
	return cr
}

// sniffDelimiter picks the delimiter among comma, semicolon and tab that splits the
// first records most consistently: every sampled record as wide as the first, then
// the most columns, then the order comma, semicolon, tab. A file of one column is
// comma-separated.
func sniffDelimiter(text string) rune {
	const sample = 50
	best, bestConsistent, bestWidth := ',', false, 0
	for _, comma := range []rune{',', ';', '\t'} {
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

// readXLSX returns the non-blank rows of the workbook's first sheet, header first.
func readXLSX(data []byte, name string, maxRows int) ([][]string, error) {
	notWorkbook := apperr.Invalid(Field, "%s is a ZIP archive but not an Excel .xlsx workbook", fileName(name))
	f, err := excelize.OpenReader(bytes.NewReader(data), excelize.Options{UnzipSizeLimit: xlsxUnzipLimit, UnzipXMLSizeLimit: xlsxUnzipLimit})
	if err != nil {
		if f != nil {
			_ = f.Close()
		}
		if strings.Contains(err.Error(), "unzip size") {
			return nil, apperr.Invalid(Field, "%s expands to more than %s when unzipped", fileName(name), size(xlsxUnzipLimit))
		}
		return nil, notWorkbook
	}
	defer func() { _ = f.Close() }()
	sheets := f.GetSheetList()
	if len(sheets) == 0 {
		return nil, notWorkbook
	}
	rows, err := f.Rows(sheets[0])
	if err != nil {
		return nil, notWorkbook
	}
	defer func() { _ = rows.Close() }()
	var records [][]string
	n := 0 // data rows
	for rows.Next() {
		rec, err := rows.Columns()
		if err != nil {
			return nil, apperr.Invalid(Field, "%s: sheet %q cannot be read: %v", fileName(name), sheets[0], err)
		}
		if blank(rec) {
			continue
		}
		if len(records) > 0 {
			n++
		}
		if n <= maxRows {
			records = append(records, rec)
		}
	}
	if err := rows.Error(); err != nil {
		return nil, apperr.Invalid(Field, "%s: sheet %q cannot be read: %v", fileName(name), sheets[0], err)
	}
	if n > maxRows {
		return nil, tooManyRows(name, n, maxRows)
	}
	return records, nil
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
