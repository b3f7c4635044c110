package industry

import (
	"encoding/json"
	"fmt"
	"os"
	"sort"
	"strings"
	"testing"
)

func TestZZExplain(t *testing.T) {
	in := os.Getenv("EXPLAIN_IN")
	if in == "" {
		t.Skip()
	}
	var pages []Page
	b, _ := os.ReadFile(in)
	json.Unmarshal(b, &pages)
	c := New()
	r, _ := c.load()
	want := strings.Split(os.Getenv("EXPLAIN_DOMS"), ",")
	for _, p := range pages {
		ok := false
		for _, d := range want {
			if d == p.Domain || d == "all" {
				ok = true
			}
		}
		if !ok {
			continue
		}
		res := r.classifyPage(p, defaultPageWeights)
		fmt.Printf("=== %s lang=%s types=%v\n title=%q\n desc=%.150q\n heads=%.200q\n groups=%v bm=%v\n", p.Domain, p.Lang, p.Types, p.Title, p.Description, strings.Join(p.Headings, " | "), res.Groups, res.BusinessModel)
		// feature contributions to the top classes
		pw := defaultPageWeights
		dom := domainWords(p.Domain)
		headings := strings.Join(p.Headings, "\n")
		l := textLang(p.Lang, r.stopIx, p.Title, p.Description, headings, p.Text)
		a := newAnalyzer(l, r.stops)
		a.cache = r.stems[l]
		w := map[string]float64{}
		for _, part := range []struct {
			toks []token
			w    float64
		}{{a.tokens(p.Title), pw.title}, {a.tokens(dom), pw.title}, {a.tokens(p.Description), pw.statement}, {a.tokens(headings), pw.statement}, {a.tokens(p.Text), pw.body}} {
			for f, n := range r.model.features(a, part.toks, r.model.feat) {
				w[f] += part.w * weight(n)
			}
		}
		for f := range w {
			if strings.Contains(f, " ") {
				w[f] *= pw.pair
			}
		}
		C := len(taxonomy)
		// mean log p per feature; contribution = w*(logp[c]-mean)
		for _, cls := range strings.Split(os.Getenv("EXPLAIN_CLS"), ",") {
			ci := -1
			for i, x := range taxonomy {
				if x.Value == cls {
					ci = i
				}
			}
			if ci < 0 {
				continue
			}
			type fc struct {
				f string
				v float64
			}
			var fcs []fc
			for f, x := range w {
				id := r.model.feat[f]
				row := r.model.logp[int(id)*C : int(id)*C+C]
				mean := 0.0
				for _, v := range row {
					mean += float64(v)
				}
				mean /= float64(C)
				fcs = append(fcs, fc{f, x * (float64(row[ci]) - mean)})
			}
			sort.Slice(fcs, func(i, j int) bool { return fcs[i].v > fcs[j].v })
			var s []string
			for i := 0; i < len(fcs) && i < 14; i++ {
				s = append(s, fmt.Sprintf("%s:%.1f", fcs[i].f, fcs[i].v))
			}
			fmt.Printf(" + %s: %s\n", cls, strings.Join(s, " "))
		}
	}
}

func TestZZCues(t *testing.T) {
	in := os.Getenv("EXPLAIN_IN")
	if in == "" {
		t.Skip()
	}
	var pages []Page
	b, _ := os.ReadFile(in)
	json.Unmarshal(b, &pages)
	r, _ := New().load()
	want := "," + os.Getenv("EXPLAIN_DOMS") + ","
	for _, p := range pages {
		if !strings.Contains(want, ","+p.Domain+",") {
			continue
		}
		l := textLang(p.Lang, r.stopIx, p.Title, p.Description, strings.Join(p.Headings, "\n"), p.Text)
		a := newAnalyzer(l, r.stops)
		var toks []token
		for _, s := range []string{p.Title, p.Description, p.Text, domainWords(p.Domain), strings.Join(p.Headings, "\n")} {
			toks = append(toks, a.tokens(s)...)
		}
		words := make([]string, len(toks))
		for i, t := range toks {
			words[i] = fold(t.surface)
		}
		found := map[string]int{}
		for i, w := range words {
			for _, c := range r.cues.byFirst[w] {
				if i+len(c.words) <= len(words) && matches(words[i:], c.words) {
					found[c.label+":"+strings.Join(c.words, " ")]++
				}
			}
		}
		fmt.Printf("%s %v\n", p.Domain, found)
	}
}

func TestZZProbe(t *testing.T) {
	in := os.Getenv("PROBE")
	if in == "" {
		t.Skip()
	}
	b, _ := os.ReadFile(in)
	ok, ok2, n := 0, 0, 0
	for _, l := range strings.Split(strings.TrimSpace(string(b)), "\n") {
		c := strings.Split(l, "\t")
		res := New().ClassifyPage(Page{Title: c[2], Description: c[3], Lang: c[1]})
		top := topIndexes(nil, 0)
		_ = top
		best, second := "", ""
		for k, v := range res.Groups {
			if best == "" || v > res.Groups[best] {
				second, best = best, k
			} else if second == "" || v > res.Groups[second] {
				second = k
			}
		}
		n++
		if best == c[0] {
			ok++
		} else {
			fmt.Printf("MISS %s %s: %v\n", c[0], c[2], res.Groups)
		}
		if best == c[0] || second == c[0] {
			ok2++
		}
	}
	fmt.Printf("probe %d/%d top-1, %d top-2\n", ok, n, ok2)
}

func TestZZNaicsGap(t *testing.T) {
	if os.Getenv("NGAP") == "" {
		t.Skip()
	}
	for _, text := range []string{"Septic tank pumping and cesspool cleaning", "Upholstery and furniture reupholstering", "Piano tuning and repair", "Taxidermy and trophy mounting", "Carpet and rug cleaning plants", "Dog grooming and pet boarding kennels", "Gutter cleaning and window washing", "Sewer cleaning and drain rodding", "Locksmiths and key duplication"} {
		with := New().Classify(text, "en")
		p := defaultParams
		p.naicsWeight = 0
		without := (&Classifier{p: p}).Classify(text, "en")
		fmt.Printf("%s | with %v | without %v\n", text, with.Groups, without.Groups)
	}
}
