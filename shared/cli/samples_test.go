package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/xuri/excelize/v2"
)

// TestSamplesAreTheDemoWorlds: firmo samples writes the four files the README uses, of
// the demo world's companies (hansen.de first), the Excel file holding the CSV's rows.
func TestSamplesAreTheDemoWorlds(t *testing.T) {
	dir := t.TempDir()
	r := firmo(t, dir, "samples")
	if r.code != 0 {
		t.Fatalf("exit %d\n%s", r.code, r.stderr)
	}
	out := filepath.Join(dir, "samples")
	csvRows := readCSV(t, filepath.Join(out, "companies.csv"))
	if len(csvRows) != sampleRows+3 || csvRows[1][0] != "Hansen Bau AG" || !strings.Contains(csvRows[1][3], "hansen.de") {
		t.Fatalf("companies.csv: %d rows, first %v", len(csvRows), csvRows[1])
	}
	if d := readCSV(t, filepath.Join(out, "domains.csv")); len(d) != sampleRows+1 || d[1][0] != "hansen.de" {
		t.Fatalf("domains.csv: %v", d[:2])
	}
	if n := readCSV(t, filepath.Join(out, "names.csv")); len(n) != 23 || n[0][0] != "Company" || n[0][1] != "Country" {
		t.Fatalf("names.csv: %d rows, header %v", len(n), n[0])
	}
	for _, name := range []string{"companies.csv", "companies.xlsx", "domains.csv", "names.csv"} {
		// Data files, not programs (excelize's SaveAs made the workbook 0755).
		if st, err := os.Stat(filepath.Join(out, name)); err != nil || st.Mode().Perm()&0o111 != 0 {
			t.Fatalf("%s: %v, mode %v", name, err, st.Mode())
		}
	}
	x, err := excelize.OpenFile(filepath.Join(out, "companies.xlsx"))
	if err != nil {
		t.Fatal(err)
	}
	defer x.Close()
	rows, err := x.GetRows(x.GetSheetName(0))
	if err != nil || len(rows) != len(csvRows) || rows[1][0] != csvRows[1][0] {
		t.Fatalf("companies.xlsx: %v, %d rows", err, len(rows))
	}
}
