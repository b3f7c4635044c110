package app_test

import (
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// TestReadmeLayoutListsEveryPackage keeps README.md's Layout section true to the
// tree: every package under shared/ (internal ones aside) is named there by its path.
func TestReadmeLayoutListsEveryPackage(t *testing.T) {
	root := repoRoot(t)
	raw, err := os.ReadFile(filepath.Join(root, "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	_, layout, ok := strings.Cut(string(raw), "\n## Layout\n")
	if !ok {
		t.Fatal("README.md has no ## Layout section")
	}
	layout, _, _ = strings.Cut(layout, "\n## ")
	shared := filepath.Join(root, "shared")
	err = filepath.WalkDir(shared, func(path string, d fs.DirEntry, err error) error {
		if err != nil || !d.IsDir() {
			return err
		}
		rel, _ := filepath.Rel(shared, path)
		if d.Name() == "testdata" || d.Name() == "internal" || strings.HasPrefix(d.Name(), ".") {
			return filepath.SkipDir
		}
		if rel == "." || !hasGoSource(t, path) {
			return nil
		}
		name := filepath.ToSlash(rel)
		if !regexp.MustCompile(`(^|[\s,(])` + regexp.QuoteMeta(name) + `([\s,)]|$)`).MatchString(layout) {
			t.Errorf("README.md's Layout does not list shared/%s", name)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

func hasGoSource(t *testing.T, dir string) bool {
	t.Helper()
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		if strings.HasSuffix(e.Name(), ".go") && !strings.HasSuffix(e.Name(), "_test.go") {
			return true
		}
	}
	return false
}

// TestCommentsCiteTheRepository keeps code comments and test messages pointing at what
// the repository holds (the README, the API reference, the code, the benchmark notes):
// a citation of a design note or of a specification that does not ship with the code
// sends a reader nowhere.
func TestCommentsCiteTheRepository(t *testing.T) {
	root := repoRoot(t)
	banned := regexp.MustCompile(`DESIGN\.md|service-spec|\b[Tt]he spec\b`)
	for _, dir := range []string{"functions", "shared", "statemachines"} {
		err := filepath.WalkDir(filepath.Join(root, dir), func(path string, d fs.DirEntry, err error) error {
			if err != nil || d.IsDir() || !strings.HasSuffix(path, ".go") {
				return err
			}
			raw, err := os.ReadFile(path)
			if err != nil {
				return err
			}
			for i, line := range strings.Split(string(raw), "\n") {
				if banned.MatchString(line) && !strings.Contains(line, "banned :=") {
					rel, _ := filepath.Rel(root, path)
					t.Errorf("%s:%d cites something outside the repository: %s", rel, i+1, strings.TrimSpace(line))
				}
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	}
}
