package dataset

import (
	"bufio"
	"bytes"
	"encoding/json"
	"io"

	"github.com/firmoapi/firmo/shared/csvsafe"
)

// FieldNames are a dataset's fields in column order (growth's depend on the quarters).
func FieldNames(n Name, qs []Quarter) []string {
	switch n {
	case Bizdata:
		return profileFields()
	case DomainStatus:
		return []string{"status_code", "status_reason", "record_date"}
	case Redirects:
		return []string{"redirect_sources", "redirect_count"}
	case Growth:
		return growthFields(qs)
	case Vendors:
		return []string{"vendors"}
	case Subdomains:
		return []string{"subdomains"}
	}
	return nil
}

// Columns names an answer's columns, which are the JSON keys of each row and the CSV
// header, in this order: domain; the input columns, each prefixed "input:"; then each
// requested dataset's fields in All's order (bizdata, domain_status, redirects,
// growth, vendors, subdomains), each dataset's in FieldNames order. bizdata's fields
// are never prefixed; another dataset's are prefixed "<dataset>:" unless it is the only
// dataset requested.
func Columns(sets []Name, inputHeader []string, qs []Quarter) []string {
	cols := []string{"domain"}
	for _, h := range inputHeader {
		cols = append(cols, "input:"+h)
	}
	single := len(sets) == 1 && sets[0] != Bizdata
	for _, n := range sets {
		for _, f := range FieldNames(n, qs) {
			if n != Bizdata && !single {
				f = string(n) + ":" + f
			}
			cols = append(cols, f)
		}
	}
	return cols
}

// WriteJSON writes the result as a JSON array with one object per row, its keys in
// column order.
func WriteJSON(w io.Writer, r Result) error {
	bw := bufio.NewWriterSize(w, 64<<10)
	keys := make([][]byte, len(r.Columns))
	for i, c := range r.Columns {
		keys[i] = append(jsonString(c), ':')
	}
	bw.WriteByte('[')
	for i, row := range r.Rows {
		if i > 0 {
			bw.WriteByte(',')
		}
		bw.WriteByte('{')
		for j, v := range row {
			if j > 0 {
				bw.WriteByte(',')
			}
			bw.Write(keys[j])
			bw.Write(v)
		}
		bw.WriteByte('}')
	}
	bw.WriteString("]\n")
	return bw.Flush()
}

// WriteCSV writes the result as CSV: a header of the columns, then one record per row.
// A string is written as it is, a number or boolean as its JSON text, null as an empty
// cell, and an array or object as its JSON text. Cells a spreadsheet could run as a
// formula (profile fields come from third-party websites) are neutralised by
// shared/csvsafe: a leading = + - @, tab or CR gets a ' before it.
func WriteCSV(w io.Writer, r Result) error {
	cw := csvsafe.NewWriter(w)
	if err := cw.Write(r.Columns); err != nil {
		return err
	}
	rec := make([]string, len(r.Columns))
	for _, row := range r.Rows {
		for j, v := range row {
			rec[j] = CSVCell(v)
		}
		if err := cw.Write(rec); err != nil {
			return err
		}
	}
	cw.Flush()
	return cw.Error()
}

// CSVCell is a JSON value as a CSV cell (see WriteCSV).
func CSVCell(v json.RawMessage) string {
	v = bytes.TrimSpace(v)
	switch {
	case len(v) == 0 || bytes.Equal(v, null):
		return ""
	case v[0] == '"':
		var s string
		if json.Unmarshal(v, &s) == nil {
			return s
		}
	}
	return string(v)
}
