package title

import (
	"bufio"
	"os"
	"strings"
	"testing"
)

type labelled struct {
	line                   int
	lang                   string
	title, dept, seniority string
}

// readLabelled reads a tab-separated evaluation file. "# lang=xx" comment lines set the
// language of the rows below them.
func readLabelled(t *testing.T, path string) []labelled {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var rows []labelled
	lang := ""
	sc := bufio.NewScanner(f)
	for n := 1; sc.Scan(); n++ {
		line := sc.Text()
		if l, ok := strings.CutPrefix(line, "# lang="); ok {
			lang = l
			continue
		}
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		cols := strings.Split(line, "\t")
		if len(cols) != 3 {
			t.Fatalf("%s:%d: want 3 tab-separated columns, got %d", path, n, len(cols))
		}
		if !ValidDepartment(cols[1]) || !ValidSeniority(cols[2]) {
			t.Fatalf("%s:%d: invalid label %q / %q", path, n, cols[1], cols[2])
		}
		rows = append(rows, labelled{n, lang, cols[0], cols[1], cols[2]})
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return rows
}

type score struct{ n, dept, seniority int }

func (s score) rates() (dept, seniority float64) {
	return float64(s.dept) / float64(s.n), float64(s.seniority) / float64(s.n)
}

// evaluate classifies every row, logs the misses and returns the overall score.
func evaluate(t *testing.T, rows []labelled) score {
	t.Helper()
	var total score
	byLang := map[string]*score{}
	var langs []string
	for _, r := range rows {
		got := Classify(r.title)
		s := byLang[r.lang]
		if s == nil {
			s = &score{}
			byLang[r.lang] = s
			langs = append(langs, r.lang)
		}
		s.n++
		total.n++
		if got.Department == r.dept {
			s.dept++
			total.dept++
		} else {
			t.Logf("department miss line %d %q: got %q, want %q", r.line, r.title, got.Department, r.dept)
		}
		if got.Seniority == r.seniority {
			s.seniority++
			total.seniority++
		} else {
			t.Logf("seniority miss line %d %q: got %q, want %q", r.line, r.title, got.Seniority, r.seniority)
		}
	}
	for _, l := range langs {
		d, s := byLang[l].rates()
		t.Logf("%s: %d titles, department %.1f%%, seniority %.1f%%", l, byLang[l].n, 100*d, 100*s)
	}
	d, s := total.rates()
	t.Logf("all: %d titles, department accuracy %.1f%%, seniority accuracy %.1f%%", total.n, 100*d, 100*s)
	return total
}

// accuracySets are the labelled sets and their floors, set a few points under the
// accuracy measured when ACCURACY.md was written, so that a change that makes the
// classifier clearly worse fails while the labels stay untouched.
var accuracySets = []struct {
	file                      string
	deptFloor, seniorityFloor float64
}{
	// The main set: written before the rules, but the rules were then written with it
	// in view, so its accuracy is in-sample.
	{"testdata/titles.tsv", 0.97, 0.97},
	// Written after the first rules were frozen; its first measurement is the unbiased
	// one. Vocabulary gaps it revealed were then fixed, so it is now in-sample too.
	{"testdata/holdout.tsv", 0.97, 0.97},
	// Written after those fixes and never used to change the rules.
	{"testdata/holdout2.tsv", 0.91, 0.95},
}

func TestAccuracy(t *testing.T) {
	for _, set := range accuracySets {
		t.Run(strings.TrimSuffix(strings.TrimPrefix(set.file, "testdata/"), ".tsv"), func(t *testing.T) {
			rows := readLabelled(t, set.file)
			d, s := evaluate(t, rows).rates()
			if d < set.deptFloor {
				t.Errorf("department accuracy %.3f under the floor %.2f", d, set.deptFloor)
			}
			if s < set.seniorityFloor {
				t.Errorf("seniority accuracy %.3f under the floor %.2f", s, set.seniorityFloor)
			}
		})
	}
}

// TestAccuracySetSize keeps the main set at the size the accuracy claim rests on.
func TestAccuracySetSize(t *testing.T) {
	langs := map[string]int{}
	rows := readLabelled(t, "testdata/titles.tsv")
	for _, r := range rows {
		langs[r.lang]++
	}
	if len(rows) < 320 || langs["de"] < 40 || langs["fr"] < 30 || langs["es"] < 30 {
		t.Errorf("evaluation set too small: %d rows, per language %v", len(rows), langs)
	}
}

// TestLabelledSetsDisjoint keeps the held-out sets honest: a title in two sets would be
// measured twice and would no longer be unseen.
func TestLabelledSetsDisjoint(t *testing.T) {
	seen := map[string]string{}
	files := []string{holdout3}
	for _, set := range accuracySets {
		files = append(files, set.file)
	}
	for _, file := range files {
		for _, r := range readLabelled(t, file) {
			key := Normalize(r.title)
			if prev, ok := seen[key]; ok && prev != file {
				t.Errorf("%q is in both %s and %s", r.title, prev, file)
			}
			seen[key] = file
		}
	}
}
