package testkit

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"
)

// Golden compares v, encoded as indented JSON (or taken as is when it is a []byte), with
// the file testdata/name of the calling package. With update set (a test's -update flag)
// it first rewrites the file, so a reviewed change of a mapping or query is one run away.
func Golden(t testing.TB, update bool, name string, v any) {
	t.Helper()
	var got []byte
	if b, ok := v.([]byte); ok {
		got = b
	} else {
		var err error
		if got, err = json.MarshalIndent(v, "", "  "); err != nil {
			t.Fatal(err)
		}
		got = append(got, '\n')
	}
	path := filepath.Join("testdata", name)
	if update {
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test with -update in this package to create it)", err)
	}
	if !bytes.Equal(got, want) {
		t.Fatalf("%s differs from the golden file:\n got: %s\nwant: %s", name, got, want)
	}
}
