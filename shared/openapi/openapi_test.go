package openapi

import (
	"encoding/json"
	"testing"
)

func TestDocumentAssembles(t *testing.T) {
	raw, err := Document()
	if err != nil {
		t.Fatal(err)
	}
	var d map[string]any
	if err := json.Unmarshal(raw, &d); err != nil || d["openapi"] != "3.1.0" {
		t.Fatalf("document: %v", err)
	}
	ops, err := Operations()
	if err != nil || len(ops) == 0 {
		t.Fatalf("operations: %v", err)
	}
	for _, op := range ops {
		if op.Summary == "" || len(op.Responses) == 0 || len(op.Tags) == 0 {
			t.Errorf("%s %s lacks a summary, tag or responses", op.Method, op.Path)
		}
	}
}

func TestHTMLHasNoScripts(t *testing.T) {
	page, err := HTML()
	if err != nil {
		t.Fatal(err)
	}
	if len(page) < 1000 {
		t.Fatalf("page is %d bytes", len(page))
	}
}
