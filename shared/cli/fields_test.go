package cli

import (
	"encoding/json"
	"strings"
	"testing"
)

// TestJSONFieldSelection: --json=FIELD,... keeps those fields, in that order, of the
// answer or of each row; a field the answer lacks is refused with the fields it has;
// a field list after a space is caught with the = form suggested.
func TestJSONFieldSelection(t *testing.T) {
	s := server(t)
	c := s.world.Company(3)

	r := s.firmo(t, "api", "score", c.Domain, "--json=score,domain")
	if r.code != 0 {
		t.Fatalf("exit %d: %s", r.code, r.stderr)
	}
	if got := strings.TrimSpace(r.stdout); !strings.HasPrefix(got, `{"score":`) || !strings.HasSuffix(got, `,"domain":"`+c.Domain+`"}`) {
		t.Fatalf("score --json=score,domain printed %s", got)
	}

	var rows []map[string]any
	mustJSON(t, s.firmo(t, "api", "match", c.Row.Name, "--json=domain,match_confidence"), &rows)
	if len(rows) == 0 || rows[0]["domain"] != c.Domain {
		t.Fatalf("match rows = %v, want %s first", rows, c.Domain)
	}
	for _, row := range rows {
		if len(row) != 2 || row["match_confidence"] == nil {
			t.Fatalf("a match row has %v, want domain and match_confidence only", row)
		}
	}

	mustJSON(t, s.firmo(t, "api", "match", "Zzzyxq Nonexistent", "--json=domain"), &rows)
	if rows == nil || len(rows) != 0 {
		t.Fatalf("no match: %v, want []", rows)
	}

	var all map[string]json.RawMessage
	mustJSON(t, s.firmo(t, "api", "score", c.Domain, "--json"), &all)
	if len(all) < 3 {
		t.Fatalf("--json alone kept %d fields", len(all))
	}

	r = s.firmo(t, "api", "bizdata", c.Domain, "--json=name,nickname")
	if r.code != 2 || !strings.Contains(r.stderr, `no field "nickname"`) || !strings.Contains(r.stderr, "the answer has: domain, name") {
		t.Fatalf("unknown field: exit %d, stderr %s", r.code, r.stderr)
	}
	r = s.firmo(t, "api", "score", c.Domain, "--json", "score,domain")
	if r.code != 2 || !strings.Contains(r.stderr, "--json=score,domain") {
		t.Fatalf("a list after a space: exit %d, stderr %s", r.code, r.stderr)
	}
}

// A parameter's help line is its description whole, its first sentence, or a cut at a
// word's end marked with "…"; never a word cut in two.
func TestFlagDescKeepsWords(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"Postal code (spaces and hyphens ignored).", "Postal code (spaces and hyphens ignored)."},
		{"Lowest match_confidence returned, inclusive (50-100). Nothing below 50 is ever returned, whatever the caller asks for here.",
			"Lowest match_confidence returned, inclusive (50-100)."},
		{"The company name. Required; a name with no letter or digit once whitespace and punctuation are stripped is refused",
			"The company name."},
		{"Required; a name with no letter or digit once whitespace and punctuation are stripped is refused with a 422 answer",
			"Required; a name with no letter or digit once whitespace and punctuation are stripped is refused…"},
	} {
		got := flagDesc(tc.in, 100)
		if got != tc.want {
			t.Errorf("flagDesc(%q)\n got %q\nwant %q", tc.in, got, tc.want)
		}
	}
}
