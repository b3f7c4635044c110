package industry

import (
	"math"
	"strings"
)

// Page is a company's web page read apart: what the page says about itself (its
// title, meta description, headings, the schema.org and Open Graph types it declares,
// the company's domain) and its running text. ClassifyPage weighs the statements
// over the running text, where incidental vocabulary (a drone maker's page that
// talks about research, a tax office's that mentions software) misleads.
type Page struct {
	// Domain is the company's registrable domain: its words (kanzlei-spreewald.de) are
	// usually the company's name, and names often say the trade.
	Domain      string
	Title       string
	Description string
	Headings    []string
	// Types are the page's declared types: JSON-LD @type and microdata itemtype values
	// (https://schema.org/Dentist, Restaurant) and og:type.
	Types []string
	// Text is the running text (the homepage's main text, and its about page's).
	Text string
	// Lang is the text's language (as for Classify).
	Lang string
	// Legal is the text of the company's legal notice (imprint): read for the legal
	// form it states (legalforms.go), never as vocabulary.
	Legal string
}

// pageWeights are the constants of ClassifyPage (see ACCURACY.md for how they were
// chosen: on the development homepages, never on the evaluation set).
type pageWeights struct {
	title     float64 // weight of a feature of the title (and domain), per (1 + ln n)
	statement float64 // weight of a feature in the page's other statements, per (1 + ln n)
	body      float64 // weight of a feature of the running text, per (1 + ln n)
	pair      float64 // multiplier of adjacent-word features (lexicon phrases)
	typeBoost float64 // log-odds a declared schema.org type adds to its industry
	formBoost float64 // log-odds a stated legal form adds to its industry (legalforms.go)
	temp      float64 // final scale of the log-odds (calibration)
}

var defaultPageWeights = pageWeights{title: 1.5, statement: 1.5, body: 1, pair: 1.5, typeBoost: 1.5, formBoost: 3, temp: 2.5}

// ClassifyPage classifies a page from its statements and its text.
func (c *Classifier) ClassifyPage(p Page) Result {
	res, err := c.load()
	if err != nil {
		panic("industry: embedded data: " + err.Error())
	}
	return res.classifyPage(p, defaultPageWeights)
}

func (r *resources) classifyPage(p Page, pw pageWeights) Result {
	dom := domainWords(p.Domain)
	headings := strings.Join(p.Headings, "\n")
	l := textLang(p.Lang, r.stopIx, p.Title, p.Description, headings, p.Text)
	a := newAnalyzer(l, r.stops)
	a.cache = r.stems[l]
	ttoks, dtoks := a.tokens(p.Title), a.tokens(dom)
	stoks, htoks := a.tokens(p.Description), a.tokens(headings)
	btoks := a.tokens(p.Text)
	w := map[string]float64{}
	for _, part := range []struct {
		toks []token
		w    float64
	}{{ttoks, pw.title}, {dtoks, pw.title}, {stoks, pw.statement}, {htoks, pw.statement}, {btoks, pw.body}} {
		for f, n := range r.model.features(a, part.toks, r.model.feat) {
			w[f] += part.w * weight(n)
		}
	}
	for f := range w {
		if strings.Contains(f, " ") {
			w[f] *= pw.pair
		}
	}
	boost, subBoost := typeBoosts(typeValues(p.Types), pw.typeBoost)
	// A legal form is a fact where a declared type is often a template's guess: it
	// weighs more, and its industry is always one of the two reported.
	forms := statedForms(p.Title, p.Description, headings, p.Text, p.Legal)
	if fb, fsub := typeBoosts(forms, pw.formBoost); fb != nil {
		if boost == nil {
			boost = make([]float64, len(taxonomy))
		}
		for i := range fb {
			boost[i] += fb[i]
			if fsub[i] >= 0 {
				subBoost[i] = fsub[i]
			}
		}
	}
	s := r.model.scoreWeighted(w, boost)
	if s.prob != nil && pw.temp != 1 {
		s.prob = sharpen(s.prob, pw.temp)
	}
	out := Result{Groups: map[string]float64{}, Sub: map[string]float64{}}
	top := topIndexes(s.prob, 2)
	if s.prob == nil {
		top = nil
	}
	if len(forms) > 0 && len(top) == 2 {
		if f := index[forms[0]].parent; f != top[0] {
			top[1] = f
		}
	}
	likelySub := "" // the top industry's most likely sub-industry, reported or not
	for k, i := range top {
		out.Groups[taxonomy[i].Value] = s.prob[i]
		subs := r.model.subScores(i, s)
		if b := subBoost[i]; b >= 0 {
			subs = boostSub(subs, len(taxonomy[i].Subs), b)
		}
		if k == 0 && subs != nil {
			likelySub = taxonomy[i].Subs[topIndexes(subs, 1)[0]].Value
		}
		for j, q := range subs {
			if conf := s.prob[i] * q; conf >= r.model.p.subThreshold {
				out.Sub[taxonomy[i].Subs[j].Value] = conf
			}
		}
	}
	// Keywords count the words of the page as a reader sees it (title, description,
	// text); business-model cues are read everywhere, most in the title and description.
	seen := append(append(append([]token(nil), ttoks...), stoks...), btoks...)
	st := r.cues.p.statement
	out.BusinessModel = r.cues.businessModel([]cueText{{ttoks, st}, {stoks, st}, {htoks, 1}, {btoks, 1}, {dtoks, 1}},
		scoredIndustries(top, s.prob, likelySub, out.Sub), p.Types)
	out.Keywords = keywords(seen, r.model, maxKeywords)
	return out
}

// typeValues are the industry values a page's declared types name.
func typeValues(types []string) []string {
	var out []string
	for _, t := range types {
		if v := schemaType(t); v != "" {
			out = append(out, v)
		}
	}
	return out
}

// typeBoosts turns the values a page states (its declared types', its legal form's)
// into log-odds per industry, and the sub-industry each names within its industry
// (-1: none).
func typeBoosts(values []string, b float64) ([]float64, []int) {
	var boost []float64
	sub := make([]int, len(taxonomy))
	for i := range sub {
		sub[i] = -1
	}
	seen := map[string]bool{}
	for _, v := range values {
		if v == "" || seen[v] {
			continue
		}
		seen[v] = true
		pos := index[v]
		if boost == nil {
			boost = make([]float64, len(taxonomy))
		}
		boost[pos.parent] = b
		if pos.sub >= 0 {
			sub[pos.parent] = pos.sub
		}
	}
	return boost, sub
}

// boostSub makes sub-industry j the most likely within its industry when the page
// declares it.
func boostSub(subs []float64, n, j int) []float64 {
	out := make([]float64, n)
	for i := range out {
		if subs != nil {
			out[i] = subs[i] * 0.2
		}
	}
	rest := 0.0
	for _, v := range out {
		rest += v
	}
	out[j] = 1 - rest + out[j]
	return out
}

// sharpen raises probabilities to the power k and renormalises (k > 1 sharpens, k < 1
// flattens): a temperature on the log-odds.
func sharpen(p []float64, k float64) []float64 {
	out := make([]float64, len(p))
	total := 0.0
	for i, v := range p {
		out[i] = math.Pow(v, k)
		total += out[i]
	}
	for i := range out {
		out[i] /= total
	}
	return out
}

// domainWords spells a domain's first label as words: "kanzlei-spreewald.de" gives
// "kanzlei spreewald".
func domainWords(dom string) string {
	dom = strings.TrimPrefix(strings.ToLower(strings.TrimSpace(dom)), "www.")
	label, _, _ := strings.Cut(dom, ".")
	return strings.NewReplacer("-", " ", "_", " ").Replace(label)
}

// bestSub is the highest-scored sub-industry of industry in subs ("" when none).
// scoredIndustries are the reported industries (top, best first) with their scores,
// the first with its most likely sub-industry topSub, the others with their best
// reported one.
func scoredIndustries(top []int, prob []float64, topSub string, subs map[string]float64) []scoredIndustry {
	var out []scoredIndustry
	for k, i := range top {
		in := scoredIndustry{value: taxonomy[i].Value, sub: topSub, score: prob[i]}
		if k > 0 {
			in.sub = bestSub(subs, in.value)
		}
		out = append(out, in)
	}
	return out
}

func bestSub(subs map[string]float64, industry string) string {
	best := ""
	for v, conf := range subs {
		if strings.HasPrefix(v, industry+"/") && (best == "" || conf > subs[best] || conf == subs[best] && v < best) {
			best = v
		}
	}
	return best
}
