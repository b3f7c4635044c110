package upload

import (
	"archive/zip"
	"bytes"
	"errors"
	"fmt"
	"reflect"
	"strings"
	"testing"

	"github.com/xuri/excelize/v2"
	"golang.org/x/text/encoding"
	"golang.org/x/text/encoding/charmap"
	"golang.org/x/text/encoding/unicode"

	"github.com/firmoapi/firmo/shared/apperr"
)

// companies is the table most fixtures hold, in every encoding and format.
const companies = "domain,name\nexample.com,Société Générale\nacme.de,Müller GmbH\n"

func wantCompanies() [][]string {
	return [][]string{{"example.com", "Société Générale"}, {"acme.de", "Müller GmbH"}}
}

func encode(t *testing.T, enc encoding.Encoding, s string) []byte {
	t.Helper()
	b, err := enc.NewEncoder().Bytes([]byte(s))
	if err != nil {
		t.Fatalf("encode fixture: %v", err)
	}
	return b
}

// workbook writes an xlsx whose first sheet, "Companies", holds rows; a second sheet
// holds something else.
func workbook(t testing.TB, rows [][]any) []byte {
	t.Helper()
	f := excelize.NewFile()
	defer func() { _ = f.Close() }()
	if err := f.SetSheetName("Sheet1", "Companies"); err != nil {
		t.Fatal(err)
	}
	for i, r := range rows {
		cell, _ := excelize.CoordinatesToCellName(1, i+1)
		if err := f.SetSheetRow("Companies", cell, &r); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := f.NewSheet("Other"); err != nil {
		t.Fatal(err)
	}
	if err := f.SetSheetRow("Other", "A1", &[]any{"not", "this"}); err != nil {
		t.Fatal(err)
	}
	buf, err := f.WriteToBuffer()
	if err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// encryptedWorkbook is a password-protected xlsx, as Excel writes it with "Encrypt with
// Password": an OLE container with the encrypted package.
func encryptedWorkbook(t testing.TB) []byte {
	t.Helper()
	f := excelize.NewFile()
	defer func() { _ = f.Close() }()
	if err := f.SetSheetRow("Sheet1", "A1", &[]any{"domain"}); err != nil {
		t.Fatal(err)
	}
	if err := f.SetSheetRow("Sheet1", "A2", &[]any{"example.com"}); err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	if err := f.Write(&buf, excelize.Options{Password: "secret"}); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

func plainZip(t *testing.T) []byte {
	t.Helper()
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	w, err := zw.Create("notes.txt")
	if err != nil {
		t.Fatal(err)
	}
	_, _ = w.Write([]byte("domain\nexample.com\n"))
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// nil256 is the header "c" (named c, c2 ... to be distinct) of the 256-column fixture.
func distinctColumns(n int) string {
	var b strings.Builder
	for i := range n {
		fmt.Fprintf(&b, "c%d,", i)
	}
	return b.String()
}

func nil256() []string {
	h := make([]string, 256)
	for i := range 255 {
		h[i] = fmt.Sprintf("c%d", i)
	}
	h[255] = "domain"
	return h
}

func rowsCSV(n int) []byte {
	var b strings.Builder
	b.WriteString("domain\n")
	for i := range n {
		fmt.Fprintf(&b, "d%d.com\n", i)
	}
	return []byte(b.String())
}

func TestReadAccepts(t *testing.T) {
	tests := []struct {
		name     string
		data     []byte
		limits   Limits
		header   []string
		rows     [][]string
		format   string
		encoding string
	}{
		{name: "utf-8", data: []byte(companies), header: []string{"domain", "name"}, rows: wantCompanies(), format: FormatCSV, encoding: EncodingUTF8},
		{name: "utf-8 with BOM", data: []byte("\ufeff" + companies), header: []string{"domain", "name"}, rows: wantCompanies(), format: FormatCSV, encoding: EncodingUTF8BOM},
		{name: "latin-1", data: encode(t, charmap.ISO8859_1, companies), header: []string{"domain", "name"}, rows: wantCompanies(), format: FormatCSV, encoding: EncodingLatin1},
		{name: "windows-1252 euro sign", data: encode(t, charmap.Windows1252, "name,revenue\nAcme,€5\n"), header: []string{"name", "revenue"}, rows: [][]string{{"Acme", "€5"}}, format: FormatCSV, encoding: EncodingLatin1},
		{name: "utf-16le with BOM", data: encode(t, unicode.UTF16(unicode.LittleEndian, unicode.UseBOM), companies), header: []string{"domain", "name"}, rows: wantCompanies(), format: FormatCSV, encoding: EncodingUTF16LE},
		{name: "utf-16be with BOM", data: encode(t, unicode.UTF16(unicode.BigEndian, unicode.UseBOM), companies), header: []string{"domain", "name"}, rows: wantCompanies(), format: FormatCSV, encoding: EncodingUTF16BE},
		{name: "utf-16le without BOM", data: encode(t, unicode.UTF16(unicode.LittleEndian, unicode.IgnoreBOM), companies), header: []string{"domain", "name"}, rows: wantCompanies(), format: FormatCSV, encoding: EncodingUTF16LE},
		{name: "utf-16be without BOM", data: encode(t, unicode.UTF16(unicode.BigEndian, unicode.IgnoreBOM), companies), header: []string{"domain", "name"}, rows: wantCompanies(), format: FormatCSV, encoding: EncodingUTF16BE},
		{name: "utf-16le tab-separated (Excel Unicode text)", data: encode(t, unicode.UTF16(unicode.LittleEndian, unicode.UseBOM), strings.ReplaceAll(companies, ",", "\t")), header: []string{"domain", "name"}, rows: wantCompanies(), format: FormatCSV, encoding: EncodingUTF16LE},
		{name: "semicolon (European Excel)", data: []byte("Firma;Umsatz (EUR, Mio.)\r\nMüller GmbH;1,5\r\nAcme;2\r\n"), header: []string{"Firma", "Umsatz (EUR, Mio.)"}, rows: [][]string{{"Müller GmbH", "1,5"}, {"Acme", "2"}}, format: FormatCSV, encoding: EncodingUTF8},
		{name: "tab", data: []byte("domain\tname\nexample.com\tExample, Inc.\n"), header: []string{"domain", "name"}, rows: [][]string{{"example.com", "Example, Inc."}}, format: FormatCSV, encoding: EncodingUTF8},
		{name: "quoted delimiters", data: []byte("name,city\n\"Acme, Inc.\",\"Paris; France\"\n"), header: []string{"name", "city"}, rows: [][]string{{"Acme, Inc.", "Paris; France"}}, format: FormatCSV, encoding: EncodingUTF8},
		{name: "one column", data: []byte("domain\nexample.com\nacme.de\n"), header: []string{"domain"}, rows: [][]string{{"example.com"}, {"acme.de"}}, format: FormatCSV, encoding: EncodingUTF8},
		{name: "classic Mac line ends", data: []byte("domain,name\rexample.com,Example\r"), header: []string{"domain", "name"}, rows: [][]string{{"example.com", "Example"}}, format: FormatCSV, encoding: EncodingUTF8},
		{name: "blank and trailing empty rows dropped", data: []byte("\ndomain,name\nexample.com,Example\n,\n\nacme.de,Acme\n, \n\n"), header: []string{"domain", "name"}, rows: [][]string{{"example.com", "Example"}, {"acme.de", "Acme"}}, format: FormatCSV, encoding: EncodingUTF8},
		{name: "short rows padded, long rows cut, header trimmed", data: []byte(" domain , name \nexample.com\nacme.de,Acme,extra\n"), header: []string{"domain", "name"}, rows: [][]string{{"example.com", ""}, {"acme.de", "Acme"}}, format: FormatCSV, encoding: EncodingUTF8},
		{name: "trailing empty columns dropped", data: []byte("domain,name,,\nexample.com,Example,,\n"), header: []string{"domain", "name"}, rows: [][]string{{"example.com", "Example"}}, format: FormatCSV, encoding: EncodingUTF8},
		{name: "exactly the byte limit", data: []byte("domain\nexample.com\n"), limits: Limits{MaxBytes: 19}, header: []string{"domain"}, rows: [][]string{{"example.com"}}, format: FormatCSV, encoding: EncodingUTF8},
		{name: "exactly 10,000 rows", data: rowsCSV(DefaultMaxRows), limits: Limits{MaxBytes: 1 << 30}, header: []string{"domain"}, format: FormatCSV, encoding: EncodingUTF8},
		{name: "exactly 256 columns", data: []byte(distinctColumns(255) + "domain\n" + strings.Repeat(",", 255) + "example.com\n"), header: nil256(), rows: [][]string{append(make([]string, 255), "example.com")}, format: FormatCSV, encoding: EncodingUTF8},
		{name: "exactly the cell limit", data: []byte("domain\na.com\nb.com\nc.com\n"), limits: Limits{MaxCells: 4}, header: []string{"domain"}, rows: [][]string{{"a.com"}, {"b.com"}, {"c.com"}}, format: FormatCSV, encoding: EncodingUTF8},
		{name: "xlsx first sheet", data: workbook(t, [][]any{{"Domain", "Company Name", "Employees"}, {"example.com", "Société Générale", 120}, {"acme.de", "Müller GmbH", 8}}),
			header: []string{"Domain", "Company Name", "Employees"}, rows: [][]string{{"example.com", "Société Générale", "120"}, {"acme.de", "Müller GmbH", "8"}}, format: FormatXLSX},
		{name: "xlsx gaps, ragged and trailing empty rows", data: workbook(t, [][]any{{"domain", "name"}, {"example.com"}, {}, {"acme.de", "Acme"}, {nil, ""}, {}, {""}}),
			header: []string{"domain", "name"}, rows: [][]string{{"example.com", ""}, {"acme.de", "Acme"}}, format: FormatXLSX},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, err := Read(bytes.NewReader(tc.data), "upload.csv", tc.limits)
			if err != nil {
				t.Fatalf("Read: %v", err)
			}
			if !reflect.DeepEqual(got.Header, tc.header) {
				t.Errorf("header = %q, want %q", got.Header, tc.header)
			}
			if tc.rows != nil && !reflect.DeepEqual(got.Rows, tc.rows) {
				t.Errorf("rows = %q, want %q", got.Rows, tc.rows)
			}
			if tc.rows == nil && len(got.Rows) != DefaultMaxRows {
				t.Errorf("%d rows, want %d", len(got.Rows), DefaultMaxRows)
			}
			if got.Format != tc.format || got.Encoding != tc.encoding {
				t.Errorf("format, encoding = %q, %q; want %q, %q", got.Format, got.Encoding, tc.format, tc.encoding)
			}
		})
	}
}

func TestReadRefuses(t *testing.T) {
	ole := append([]byte("\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1"), make([]byte, 504)...)
	tests := []struct {
		name   string
		data   []byte
		limits Limits
		kind   *apperr.Kind
		want   string // in the message
	}{
		{name: "one byte over the limit", data: []byte("domain\nexample.com\n"), limits: Limits{MaxBytes: 18}, kind: apperr.ErrTooLarge, want: "larger than 18 bytes"},
		{name: "one byte over 1 MB", data: append([]byte("domain\n"), bytes.Repeat([]byte("a"), DefaultMaxBytes-6)...), kind: apperr.ErrTooLarge, want: "larger than 1 MB"},
		{name: "10,001 rows", data: rowsCSV(DefaultMaxRows + 1), limits: Limits{MaxBytes: 1 << 30}, kind: apperr.ErrInvalid, want: "has 10001 rows; at most 10000"},
		{name: "xlsx over MaxRows", data: workbook(t, [][]any{{"domain"}, {"a.com"}, {"b.com"}, {"c.com"}}), limits: Limits{MaxRows: 2}, kind: apperr.ErrInvalid, want: "has 3 rows; at most 2"},
		{name: "empty file", data: nil, kind: apperr.ErrInvalid, want: "is empty"},
		{name: "blank lines only", data: []byte("\n \r\n\n"), kind: apperr.ErrInvalid, want: "is empty"},
		{name: "BOM only", data: []byte("\xef\xbb\xbf"), kind: apperr.ErrInvalid, want: "is empty"},
		{name: "header only", data: []byte("domain,name\n"), kind: apperr.ErrInvalid, want: "header but no rows"},
		{name: "xlsx header only", data: workbook(t, [][]any{{"domain", "name"}}), kind: apperr.ErrInvalid, want: "header but no rows"},
		{name: "empty xlsx", data: workbook(t, nil), kind: apperr.ErrInvalid, want: "is empty"},
		{name: "blank header column", data: []byte("domain,,name\nexample.com,x,Example\n"), kind: apperr.ErrInvalid, want: "header column 2 is blank"},
		{name: "duplicate header", data: []byte("domain,Domain ,domain \nexample.com,a,b\n"), kind: apperr.ErrInvalid, want: `names column "domain" twice`},
		{name: "invalid CSV", data: []byte("domain,name\nexample.com,\"Acme\n"), kind: apperr.ErrInvalid, want: "not valid CSV"},
		{name: "zip that is not xlsx", data: plainZip(t), kind: apperr.ErrInvalid, want: "ZIP archive but not an Excel .xlsx workbook"},
		{name: "truncated xlsx", data: workbook(t, [][]any{{"domain"}, {"a.com"}})[:200], kind: apperr.ErrInvalid, want: "not an Excel .xlsx workbook"},
		{name: "legacy xls", data: ole, kind: apperr.ErrInvalid, want: ".xls"},
		{name: "encrypted xlsx", data: encryptedWorkbook(t), kind: apperr.ErrInvalid, want: "password-protected"},
		{name: "257 header columns", data: []byte(distinctColumns(256) + "last\nx\n"), kind: apperr.ErrInvalid, want: "the header has more than 256 columns; at most 256"},
		{name: "a row past column 256", data: []byte("domain\nexample.com" + strings.Repeat(",", 256) + "x\n"), kind: apperr.ErrInvalid, want: "a row has a value in column IW; at most 256 columns"},
		{name: "cells past the limit", data: rowsCSV(10), limits: Limits{MaxCells: 10}, kind: apperr.ErrInvalid, want: "more than 10 cells"},
		{name: "xlsx cells past the limit", data: workbook(t, [][]any{{"domain", "name"}, {"a.com", "A"}, {"b.com", "B"}}), limits: Limits{MaxCells: 5}, kind: apperr.ErrInvalid, want: "more than 5 cells (2 columns by 3 rows"},
		{name: "xlsx row past the column limit", data: workbook(t, [][]any{{"domain"}, {"a.com", "", "", "x"}}), limits: Limits{MaxColumns: 3}, kind: apperr.ErrInvalid, want: "a row has a value in column D; at most 3 columns"},
		{name: "value under a blank trailing header cell", data: []byte("domain,name,\nexample.com,Example,x\n"), kind: apperr.ErrInvalid, want: "header column 3 is blank"},
		{name: "binary", data: []byte("%PDF-1.7\n\x00\x01\x02\xff\xfe\x00binary"), kind: apperr.ErrInvalid, want: "neither CSV text nor an Excel .xlsx workbook"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, err := Read(bytes.NewReader(tc.data), "list.csv", tc.limits)
			if err == nil {
				t.Fatalf("Read = %d rows, want an error", len(got.Rows))
			}
			var ae *apperr.Error
			if !errors.As(err, &ae) {
				t.Fatalf("error %v is no *apperr.Error", err)
			}
			if ae.Kind != tc.kind || ae.Field != Field {
				t.Errorf("kind, field = %v, %q; want %v, %q", ae.Kind, ae.Field, tc.kind, Field)
			}
			if !strings.Contains(ae.Message, tc.want) {
				t.Errorf("message %q does not say %q", ae.Message, tc.want)
			}
			if !strings.Contains(ae.Message, `"list.csv"`) && !strings.HasPrefix(ae.Message, "header") && !strings.HasPrefix(ae.Message, "the header") {
				t.Errorf("message %q does not name the file", ae.Message)
			}
		})
	}
}

func TestReadIgnoresFileName(t *testing.T) {
	xlsx := workbook(t, [][]any{{"domain"}, {"example.com"}})
	for _, name := range []string{"list.csv", "list.txt", "", "list.xlsx"} {
		t.Run("xlsx named "+name, func(t *testing.T) {
			got, err := Read(bytes.NewReader(xlsx), name, Limits{})
			if err != nil || got.Format != FormatXLSX {
				t.Fatalf("Read = %q, %v; want an xlsx table", got.Format, err)
			}
		})
		t.Run("csv named "+name, func(t *testing.T) {
			got, err := Read(strings.NewReader("domain\nexample.com\n"), name, Limits{})
			if err != nil || got.Format != FormatCSV {
				t.Fatalf("Read = %q, %v; want a csv table", got.Format, err)
			}
		})
	}
}

// FuzzRead checks that Read never panics and that whatever it accepts is well formed.
// Run as a normal test it runs the seed corpus.
func FuzzRead(f *testing.F) {
	seeds := [][]byte{
		nil,
		[]byte(companies),
		[]byte("\ufeff" + companies),
		[]byte("a;b\n1;2\n"),
		[]byte("a\tb\n\"1\t2\"\t3\n"),
		[]byte("\xff\xfea\x00,\x00b\x00\n\x00"),
		[]byte("\xfe\xff\x00a"),
		[]byte("\xff\xfe\x00"),
		[]byte("caf\xe9,x\n1,2\n"),
		[]byte("\"unterminated\n"),
		[]byte("PK\x03\x04garbage"),
		[]byte("\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1"),
		workbook(f, [][]any{{"domain", "name"}, {"example.com", "Example"}}),
	}
	for _, s := range seeds {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		got, err := Read(bytes.NewReader(data), "fuzz", Limits{MaxRows: 100})
		if err != nil {
			var ae *apperr.Error
			if !errors.As(err, &ae) || ae.Field != Field {
				t.Fatalf("error %v is not an apperr.Error naming %q", err, Field)
			}
			return
		}
		if len(got.Header) == 0 || len(got.Rows) == 0 || len(got.Rows) > 100 {
			t.Fatalf("accepted a table of %d columns and %d rows", len(got.Header), len(got.Rows))
		}
		for _, r := range got.Rows {
			if len(r) != len(got.Header) {
				t.Fatalf("row %q is not as wide as header %q", r, got.Header)
			}
		}
	})
}
