package cli

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"strings"

	"github.com/firmoapi/firmo/shared/csvsafe"
	"github.com/firmoapi/firmo/shared/dataset"
)

// field is one member of a JSON object, its value as sent.
type field struct {
	key string
	val json.RawMessage
}

// object is a JSON object with its members in the order the server sent them (a map
// would lose it, and the API's field order is part of its answers).
type object []field

func (o object) get(key string) json.RawMessage {
	for _, f := range o {
		if f.key == key {
			return f.val
		}
	}
	return nil
}

func (o object) has(key string) bool { return o.get(key) != nil }

// marshal writes o as a JSON object in its order.
func (o object) marshal(b *bytes.Buffer) {
	b.WriteByte('{')
	for i, f := range o {
		if i > 0 {
			b.WriteByte(',')
		}
		k, _ := json.Marshal(f.key)
		b.Write(k)
		b.WriteByte(':')
		if len(f.val) == 0 {
			b.WriteString("null")
		} else {
			b.Write(f.val)
		}
	}
	b.WriteByte('}')
}

// decodeObject decodes a JSON object keeping its members' order.
func decodeObject(raw []byte) (object, error) {
	dec := json.NewDecoder(bytes.NewReader(raw))
	tok, err := dec.Token()
	if err != nil {
		return nil, fmt.Errorf("decode answer: %w", err)
	}
	if d, ok := tok.(json.Delim); !ok || d != '{' {
		return nil, fmt.Errorf("decode answer: not a JSON object: %.100s", raw)
	}
	var out object
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return nil, fmt.Errorf("decode answer: %w", err)
		}
		key, _ := tok.(string)
		var v json.RawMessage
		if err := dec.Decode(&v); err != nil {
			return nil, fmt.Errorf("decode answer: %w", err)
		}
		out = append(out, field{key: key, val: v})
	}
	return out, nil
}

// decodeArray decodes a JSON array of objects, each keeping its members' order; null
// is an empty array.
func decodeArray(raw []byte) ([]object, error) {
	var items []json.RawMessage
	if err := json.Unmarshal(raw, &items); err != nil {
		return nil, fmt.Errorf("decode answer: %w", err)
	}
	out := make([]object, 0, len(items))
	for _, it := range items {
		o, err := decodeObject(it)
		if err != nil {
			return nil, err
		}
		out = append(out, o)
	}
	return out, nil
}

// cellText is a value as a CSV cell, as the API's own CSV answers write it
// (dataset.CSVCell: strings bare, null empty, anything else as JSON).
func cellText(v json.RawMessage) string { return dataset.CSVCell(v) }

// unionKeys are the keys of rows in first-seen order.
func unionKeys(rows []object) []string {
	seen := map[string]bool{}
	var keys []string
	for _, r := range rows {
		for _, f := range r {
			if !seen[f.key] {
				seen[f.key] = true
				keys = append(keys, f.key)
			}
		}
	}
	return keys
}

// Output formats of a job.
const (
	formatCSV  = "csv"
	formatJSON = "json"
)

// outputFormat is the format flag, else the output file's extension, else CSV.
func outputFormat(flagValue, out string) (string, error) {
	f := strings.ToLower(strings.TrimSpace(flagValue))
	if f == "" {
		f = formatCSV
		if strings.HasSuffix(strings.ToLower(out), ".json") {
			f = formatJSON
		}
	}
	if f != formatCSV && f != formatJSON {
		return "", fmt.Errorf("%w: --format must be csv or json, not %q", errUsage, flagValue)
	}
	return f, nil
}

// writeRows writes rows as CSV (a header of every key in first-seen order) or as a
// JSON array of the objects in their order.
func writeRows(w io.Writer, format string, rows []object) error {
	if format == formatJSON {
		var b bytes.Buffer
		b.WriteString("[")
		for i, r := range rows {
			if i > 0 {
				b.WriteString(",")
			}
			b.WriteString("\n")
			r.marshal(&b)
		}
		b.WriteString("\n]\n")
		_, err := w.Write(b.Bytes())
		return err
	}
	cols := unionKeys(rows)
	cw := csvsafe.NewWriter(w) // cells from websites and uploads: no formulas
	if err := cw.Write(cols); err != nil {
		return err
	}
	rec := make([]string, len(cols))
	for _, r := range rows {
		for i, c := range cols {
			rec[i] = cellText(r.get(c))
		}
		if err := cw.Write(rec); err != nil {
			return err
		}
	}
	cw.Flush()
	return cw.Error()
}

// jsonEncoder encodes without escaping <, > and & (cells are data, not HTML).
func jsonEncoder(w io.Writer) *json.Encoder {
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	return enc
}
