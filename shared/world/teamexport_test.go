package world

import (
	"bytes"
	"encoding/csv"
	"encoding/json"
	"html"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func readCSV(t *testing.T, path string, header []string) [][]string {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	rows, err := csv.NewReader(f).ReadAll()
	if err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	if len(rows) == 0 || strings.Join(rows[0], ",") != strings.Join(header, ",") {
		t.Fatalf("%s: header %v, want %v", path, rows[:min(1, len(rows))], header)
	}
	return rows[1:]
}

// TestExportTeamSites exports the people pages of a small world and checks the files
// against TeamSite, computed directly from a second world of the same options: every
// page once, byte for byte; every listed person once per page that lists them, found
// verbatim in that page's file; every role mailbox flagged and on its page.
func TestExportTeamSites(t *testing.T) {
	opts := Options{Seed: 11, Companies: 150, AsOf: asOf}
	dir := t.TempDir()
	if err := New(opts).ExportTeamSites(dir, nil); err != nil {
		t.Fatal(err)
	}
	pages := readCSV(t, filepath.Join(dir, "teampages.csv"), teamPagesHeader)
	people := readCSV(t, filepath.Join(dir, "teampeople.csv"), teamPeopleHeader)

	// What the world says, computed without the export.
	w := New(opts)
	wantPages, wantPeople, wantRoles, wantLeft, wantStale := map[string]string{}, 0, 0, 0, 0
	listed := map[string]Listed{} // domain + name
	roles := map[string]bool{}
	teamPath := map[string]bool{}
	for _, lang := range Languages {
		teamPath[lexicons()[lang].one("team.path")] = true
	}
	for i := 0; i < w.Len(); i++ {
		c := w.Company(i)
		ts := w.TeamSite(i, c)
		for _, p := range c.Pages {
			if u := strings.TrimPrefix(p.URL, "https://"); p.StatusCode == 200 && strings.Contains(u, "/") && teamPath[u[strings.Index(u, "/"):]] {
				wantPages[p.URL] = p.HTML
			}
		}
		for _, p := range ts.Pages {
			wantPages[p.URL] = p.HTML
		}
		for _, l := range ts.Listed {
			listed[c.Domain+"\x00"+l.Name] = l
			wantPeople += len(l.Pages)
			if l.Left {
				wantLeft++
			}
		}
		for _, a := range ts.RoleAddresses {
			roles[a] = true
			wantRoles++
		}
	}

	// The index: one row per page, the file holding exactly the page.
	files := map[string]string{} // url -> file
	layouts := map[string]int{}
	for _, r := range pages {
		domain, u, lang, layout, stale, file := r[0], r[1], r[2], r[3], r[4], r[5]
		want, ok := wantPages[u]
		if !ok {
			t.Fatalf("index lists %s, which is no people page of the world", u)
		}
		if _, dup := files[u]; dup {
			t.Fatalf("index lists %s twice", u)
		}
		files[u] = file
		layouts[layout]++
		if stale == "true" {
			wantStale++
		}
		got, err := os.ReadFile(filepath.Join(dir, filepath.FromSlash(file)))
		if err != nil || !bytes.Equal(got, []byte(want)) {
			t.Fatalf("%s: file %s differs from the page (%v)", u, file, err)
		}
		if !strings.Contains(want, `lang="`+lang+`"`) || !strings.Contains(u, domain) {
			t.Errorf("%s: language %q or domain %q does not fit the page", u, lang, domain)
		}
	}
	if len(pages) != len(wantPages) {
		t.Errorf("index has %d pages, the world %d", len(pages), len(wantPages))
	}
	var onDisk int
	filepath.WalkDir(filepath.Join(dir, "teampages"), func(_ string, d os.DirEntry, _ error) error {
		if d != nil && !d.IsDir() {
			onDisk++
		}
		return nil
	})
	if onDisk != len(wantPages) {
		t.Errorf("%d page files on disk, want %d", onDisk, len(wantPages))
	}
	for _, l := range append(append([]string(nil), teamLayouts...), "list", "contact") {
		if layouts[l] == 0 {
			t.Errorf("no page of layout %q in %d pages (%v)", l, len(pages), layouts)
		}
	}

	// The people: every row a listed person (or a role mailbox) found verbatim in its
	// page, every listed person on every page that lists them.
	var gotPeople, gotRoles, gotLeft, staleRows int
	seen := map[string]bool{}
	for _, r := range people {
		domain, u, name, title, dept, sen, email, linkedin, phone, left, stale, role := r[0], r[1], r[2], r[3], r[4], r[5], r[6], r[7], r[8], r[9], r[10], r[11]
		file, ok := files[u]
		if !ok {
			t.Fatalf("%s: page %s is not in the index", name, u)
		}
		body, _ := os.ReadFile(filepath.Join(dir, filepath.FromSlash(file)))
		page := string(body)
		if linkedin != "" || phone != "" {
			t.Errorf("%s: linkedin %q, phone %q; the world shows none", name, linkedin, phone)
		}
		if stale == "true" {
			staleRows++
		}
		if role == "true" {
			gotRoles++
			if name != "" || !roles[email] || !strings.Contains(page, email) {
				t.Errorf("role row %v: not a role mailbox shown on %s", r, u)
			}
			continue
		}
		gotPeople++
		l, ok := listed[domain+"\x00"+name]
		if !ok {
			t.Fatalf("%s at %s is not listed by the world", name, domain)
		}
		if title != l.Title || dept != l.Department || sen != l.Seniority || left != map[bool]string{true: "true", false: "false"}[l.Left] {
			t.Errorf("%s: row %v differs from the truth %+v", name, r, l)
		}
		if l.Left {
			gotLeft++
		}
		if !strings.Contains(page, name) {
			t.Errorf("%s does not occur verbatim in %s", name, file)
		}
		jt, _ := json.Marshal(title)
		if !strings.Contains(page, title) && !strings.Contains(page, html.EscapeString(title)) && !strings.Contains(page, string(jt)) {
			t.Errorf("%s: title %q does not occur in %s", name, title, file)
		}
		if email != "" && (!strings.Contains(page, email) || email != l.Email) {
			t.Errorf("%s: email %q is not the person's address shown on %s", name, email, file)
		}
		if roles[email] {
			t.Errorf("%s carries the role mailbox %s", name, email)
		}
		key := u + "\x00" + name
		if seen[key] {
			t.Errorf("%s is listed twice on %s", name, u)
		}
		seen[key] = true
	}
	if gotPeople != wantPeople || gotRoles != wantRoles || gotLeft != wantLeft {
		t.Errorf("people rows %d, role rows %d, left rows %d; the world lists %d, %d role mailboxes, %d left",
			gotPeople, gotRoles, gotLeft, wantPeople, wantRoles, wantLeft)
	}
	if wantLeft == 0 || wantRoles == 0 || wantStale == 0 || staleRows == 0 {
		t.Errorf("want some people who left (%d), role mailboxes (%d) and stale pages (%d, rows %d)", wantLeft, wantRoles, wantStale, staleRows)
	}
	t.Logf("%d companies: %d pages (%v), %d person rows (%d left), %d role rows", opts.Companies, len(pages), layouts, gotPeople, gotLeft, gotRoles)

	// Same options, same bytes.
	again := t.TempDir()
	if err := New(opts).ExportTeamSites(again, nil); err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"teampages.csv", "teampeople.csv"} {
		x, _ := os.ReadFile(filepath.Join(dir, name))
		y, _ := os.ReadFile(filepath.Join(again, name))
		if !bytes.Equal(x, y) {
			t.Errorf("%s differs between two exports of the same world", name)
		}
	}
}

func TestPageFileRejectsOddURLs(t *testing.T) {
	if got, err := pageFile("https://www.acme.de/unternehmen/geschaeftsleitung"); err != nil || got != "teampages/www.acme.de/unternehmen/geschaeftsleitung.html" {
		t.Errorf("pageFile: %q, %v", got, err)
	}
	for _, u := range []string{"https://acme.de/../etc/passwd", "https://acme.de/", "https://ACME.de/x", "https://acme.de/a b"} {
		if got, err := pageFile(u); err == nil {
			t.Errorf("pageFile(%q) = %q, want an error", u, got)
		}
	}
}
