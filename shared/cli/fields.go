package cli

import (
	"bytes"
	"encoding/json"
	"fmt"
	"regexp"
	"strings"
)

// allFields is the value --json takes when given alone.
const allFields = "*"

// jsonFlag is `firmo api`'s --json: print the answer as JSON, and with a value
// (--json=name,domain) only those fields, in that order: of the answer, or of each of
// its rows for a command whose table has rows (the array of those rows is printed).
type jsonFlag struct {
	set    bool
	fields []string
}

func (f *jsonFlag) String() string { return strings.Join(f.fields, ",") }
func (f *jsonFlag) Type() string   { return "fields" }

func (f *jsonFlag) Set(s string) error {
	f.set, f.fields = true, nil
	if s == allFields {
		return nil
	}
	for _, name := range strings.Split(s, ",") {
		if name = strings.TrimSpace(name); name != "" {
			f.fields = append(f.fields, name)
		}
	}
	if len(f.fields) == 0 {
		return fmt.Errorf("--json=%q names no field", s)
	}
	return nil
}

// fieldList is what a field list given after a space (--json name,domain) looks like.
var fieldList = regexp.MustCompile(`^[a-z_][a-z0-9_]*(,[a-z_][a-z0-9_]*)*$`)

// selectFields keeps the named fields of body, the answer of cmd.
func selectFields(cmd apiCommand, body []byte, fields []string) ([]byte, error) {
	var b bytes.Buffer
	if cmd.rows == nil {
		obj, err := decodeObject(body)
		if err != nil {
			return nil, err
		}
		var check []object
		if len(obj) > 0 {
			check = []object{obj}
		}
		if err := knownFields(cmd, fields, check, "the answer has"); err != nil {
			return nil, err
		}
		pick(obj, fields).marshal(&b)
		return b.Bytes(), nil
	}
	rows, err := cmd.rows(body)
	if err != nil {
		return nil, err
	}
	if err := knownFields(cmd, fields, rows, "its rows have"); err != nil {
		return nil, err
	}
	b.WriteByte('[')
	for i, r := range rows {
		if i > 0 {
			b.WriteByte(',')
		}
		pick(r, fields).marshal(&b)
	}
	b.WriteByte(']')
	return b.Bytes(), nil
}

// pick is o's fields named by fields, in that order; a field o lacks is null.
func pick(o object, fields []string) object {
	out := make(object, 0, len(fields))
	for _, name := range fields {
		v := o.get(name)
		if v == nil {
			v = json.RawMessage("null")
		}
		out = append(out, field{key: name, val: v})
	}
	return out
}

// knownFields refuses a field no row has (nothing can be checked without rows).
func knownFields(cmd apiCommand, fields []string, rows []object, what string) error {
	if len(rows) == 0 {
		return nil
	}
	have := unionKeys(rows)
	for _, name := range fields {
		found := false
		for _, h := range have {
			found = found || h == name
		}
		if !found {
			return fmt.Errorf("%w: --json: no field %q in the answer of firmo api %s; %s: %s", errUsage, name, cmd.name, what, strings.Join(have, ", "))
		}
	}
	return nil
}
