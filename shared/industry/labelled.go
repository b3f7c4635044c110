package industry

import (
	"bufio"
	_ "embed"
	"fmt"
	"strings"
)

// labelled.tsv holds company descriptions labelled with their sub-industry and
// language: "PARENT/SUB <tab> lang (ISO 639-2) <tab> description". Counting data
// rows from 0, every row with index % 4 == 3 is held out: the model never trains on
// it, and the accuracy test and ACCURACY.md measure on those rows only. New rows are
// appended at the end so that no existing row changes side.
//
//go:embed labelled.tsv
var labelledFile string

// labelledRow is one row of labelled.tsv.
type labelledRow struct {
	line    int // line in labelled.tsv
	index   int // data row index (comments and blank lines not counted)
	sub     string
	lang    string // ISO 639-1
	text    string
	heldOut bool
}

// parseLabelled reads labelled.tsv.
func parseLabelled(src string) ([]labelledRow, error) {
	var out []labelledRow
	sc := bufio.NewScanner(strings.NewReader(src))
	sc.Buffer(make([]byte, 1<<16), 1<<20)
	idx := 0
	for n := 1; sc.Scan(); n++ {
		line := sc.Text()
		if strings.TrimSpace(line) == "" || strings.HasPrefix(line, "#") {
			continue
		}
		f := strings.Split(line, "\t")
		if len(f) != 3 {
			return nil, fmt.Errorf("labelled.tsv:%d: want 3 tab-separated fields, got %d", n, len(f))
		}
		if !ValidSub(f[0]) {
			return nil, fmt.Errorf("labelled.tsv:%d: %q is not a sub-industry", n, f[0])
		}
		lang := normalizeLang(f[1])
		if lang == "" {
			return nil, fmt.Errorf("labelled.tsv:%d: language %q is not one of the seven", n, f[1])
		}
		out = append(out, labelledRow{line: n, index: idx, sub: f[0], lang: lang, text: f[2], heldOut: idx%4 == 3})
		idx++
	}
	return out, sc.Err()
}

// trainingExamples are the rows the model learns from: all but the held-out ones.
func trainingExamples(rows []labelledRow) []example {
	var out []example
	for _, r := range rows {
		if !r.heldOut {
			out = append(out, example{sub: r.sub, lang: r.lang, text: r.text})
		}
	}
	return out
}
