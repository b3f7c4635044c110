package industry

import (
	"fmt"
	"math"
	"reflect"
	"regexp"
	"strings"
	"sync"
	"testing"
)

// shared is one classifier for the tests (its model builds once).
var shared = New()

func TestTaxonomy(t *testing.T) {
	enum := regexp.MustCompile(`^[A-Z][A-Z0-9_]*[A-Z0-9]$`)
	all, subs := All(), Subs()
	// The API reference counts 217 sub-industry labels.
	if len(all) != 39 || len(subs) != 217 {
		t.Fatalf("got %d industries and %d sub-industries, want 39 and 217", len(all), len(subs))
	}
	seen := map[string]bool{}
	for _, in := range Taxonomy() {
		if !enum.MatchString(in.Value) || in.Label == "" || seen[in.Value] {
			t.Errorf("industry %q (label %q): not an uppercase enum value, unlabelled or repeated", in.Value, in.Label)
		}
		seen[in.Value] = true
		if len(in.Subs) < 4 {
			t.Errorf("%s has %d sub-industries, want at least 4", in.Value, len(in.Subs))
		}
		for _, s := range in.Subs {
			parent, sub, ok := strings.Cut(s.Value, "/")
			if !ok || parent != in.Value || !enum.MatchString(sub) || s.Label == "" || seen[s.Value] {
				t.Errorf("sub-industry %q of %s (label %q) is malformed or repeated", s.Value, in.Value, s.Label)
			}
			seen[s.Value] = true
			if Parent(s.Value) != in.Value {
				t.Errorf("Parent(%s) = %q", s.Value, Parent(s.Value))
			}
		}
	}
	// The examples of the API reference, and the industries the demo world writes pages for.
	for _, v := range []string{"SAAS", "SOFTWARE", "FINANCIAL_SERVICES", "HEALTHCARE", "CLOUD_COMPUTING", "IT_SERVICES",
		"RETAIL", "MANUFACTURING", "LOGISTICS", "REAL_ESTATE", "EDUCATION", "HOSPITALITY", "LEGAL_SERVICES",
		"CONSTRUCTION", "MARKETING_ADVERTISING"} {
		if !Valid(v) {
			t.Errorf("Valid(%q) = false", v)
		}
	}
	for _, c := range []struct {
		in         string
		valid, sub bool
	}{
		{"SAAS", true, false}, {"SAAS/CRM", false, true}, {"saas", false, false}, {"SAAS/", false, false},
		{"CRM", false, false}, {"", false, false}, {"SOFTWARE/CRM", false, false}, {" SAAS", false, false},
	} {
		if Valid(c.in) != c.valid || ValidSub(c.in) != c.sub {
			t.Errorf("Valid(%q), ValidSub = %v, %v; want %v, %v", c.in, Valid(c.in), ValidSub(c.in), c.valid, c.sub)
		}
	}
	if l, ok := Label("SAAS/CRM"); !ok || l != "CRM and sales software" {
		t.Errorf("Label(SAAS/CRM) = %q, %v", l, ok)
	}
	if _, ok := Label("NOPE"); ok || Parent("NOPE") != "" {
		t.Error("an unknown value has a label or a parent")
	}
	// Callers get copies.
	tx := Taxonomy()
	tx[0].Subs[0].Label = "changed"
	All()[0] = "changed"
	if l, _ := Label(tx[0].Subs[0].Value); l == "changed" || All()[0] == "changed" {
		t.Error("changing a returned slice changed the taxonomy")
	}
}

func TestLexiconCoversTaxonomy(t *testing.T) {
	stops, err := parseStopwords(stopwordsFile)
	if err != nil {
		t.Fatal(err)
	}
	lex, err := loadLexicon(stops)
	if err != nil {
		t.Fatal(err)
	}
	langsOf := map[string]map[string]bool{}
	terms := map[string]int{}
	for _, e := range lex {
		if langsOf[e.value] == nil {
			langsOf[e.value] = map[string]bool{}
		}
		langsOf[e.value][e.lang] = true
		terms[e.value]++
	}
	for _, in := range taxonomy {
		for _, v := range append([]string{in.Value}, Subs()...) {
			if Parent(v) != in.Value {
				continue
			}
			for _, l := range languages {
				if !langsOf[v][l] {
					t.Errorf("%s has no lexicon line in %s", v, l)
				}
			}
			if min := map[bool]int{true: 30, false: 15}[v == in.Value]; terms[v] < min {
				t.Errorf("%s has %d lexicon terms, want at least %d", v, terms[v], min)
			}
		}
	}
}

func TestLexiconErrors(t *testing.T) {
	stops, _ := parseStopwords(stopwordsFile)
	a := map[string]*analyzer{}
	for _, l := range languages {
		a[l] = newAnalyzer(l, stops)
	}
	for _, c := range []struct{ src, want string }{
		{"[NOT_AN_INDUSTRY]\nen: x", "not an industry"},
		{"en: software", "under a [VALUE] header"},
		{"[SAAS]\nxx: software", "under a [VALUE] header"},
		{"[SAAS]\nen: the, of the", `term "of the" has no word left`},
	} {
		_, err := parseLexicon("t.txt", c.src, a)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("parseLexicon(%q) = %v, want an error containing %q", c.src, err, c.want)
		}
	}
}

func TestLabelledSet(t *testing.T) {
	rows, err := parseLabelled(labelledFile)
	if err != nil {
		t.Fatal(err)
	}
	if len(rows) < 400 {
		t.Errorf("%d labelled rows, want at least 400", len(rows))
	}
	perLang, perIndustry, trainPerIndustry := map[string]int{}, map[string]int{}, map[string]int{}
	heldOut := 0
	seen := map[string]int{}
	for i, r := range rows {
		perLang[r.lang]++
		perIndustry[Parent(r.sub)]++
		if r.heldOut != (i%4 == 3) {
			t.Fatalf("row %d (line %d): held out = %v breaks the every-4th rule", i, r.line, r.heldOut)
		}
		if r.heldOut {
			heldOut++
		} else {
			trainPerIndustry[Parent(r.sub)]++
		}
		if prev, dup := seen[r.text]; dup {
			t.Errorf("lines %d and %d have the same description", prev, r.line)
		}
		seen[r.text] = r.line
	}
	for _, l := range languages {
		if perLang[l] < 50 {
			t.Errorf("%d rows in %s, want at least 50", perLang[l], l)
		}
	}
	for _, v := range All() {
		if perIndustry[v] < 8 || trainPerIndustry[v] < 5 {
			t.Errorf("%s has %d rows (%d for training), want at least 8 (5)", v, perIndustry[v], trainPerIndustry[v])
		}
	}
	if heldOut < 100 {
		t.Errorf("%d held-out rows, want at least 100", heldOut)
	}
	for _, c := range []struct{ src, want string }{
		{"SAAS/CRM\teng", "3 tab-separated fields"},
		{"SAAS/NOPE\teng\tx", "not a sub-industry"},
		{"SAAS/CRM\tklingon\tx", "not one of the seven"},
	} {
		if _, err := parseLabelled(c.src); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("parseLabelled(%q) = %v, want an error containing %q", c.src, err, c.want)
		}
	}
}

// topOf is the best key of a map (ties: alphabetical).
func topOf(m map[string]float64) string {
	if k := sortedKeys(m); len(k) > 0 {
		return k[0]
	}
	return ""
}

// These texts are written for this test (none is in labelled.tsv): one per
// language and a few industries, to pin the classifier's behaviour end to end.
func TestClassify(t *testing.T) {
	for _, c := range []struct {
		lang, text, wantGroup, wantSub string
	}{
		{"eng", "We run payroll and HR for 4,000 small companies: employees get their payslips and holiday requests in one app.", "SAAS", "SAAS/HR_PAYROLL"},
		{"deu", "Unsere Kanzlei berät Arbeitnehmer und Betriebsräte im Arbeitsrecht und vertritt sie vor dem Arbeitsgericht.", "LEGAL_SERVICES", "LEGAL_SERVICES/LAW_FIRMS"},
		{"fra", "Boulangerie artisanale à Nantes : pains au levain, croissants et gâteaux faits maison chaque matin.", "FOOD_BEVERAGE", "FOOD_BEVERAGE/BAKERY"},
		{"spa", "Instalamos placas solares y baterías en viviendas de Murcia y gestionamos las subvenciones.", "ENERGY", "ENERGY/SOLAR"},
		{"por", "Transportamos contentores entre o porto de Sines e o resto da Europa por via marítima.", "LOGISTICS", "LOGISTICS/SHIPPING_MARITIME"},
		{"ita", "Agenzia immobiliare a Roma: vendita e affitto di appartamenti, valutazione gratuita della tua casa.", "REAL_ESTATE", "REAL_ESTATE/RESIDENTIAL_AGENCY"},
		{"nld", "Wij bouwen maatwerk software en webapplicaties voor logistieke bedrijven in Brabant.", "IT_SERVICES", "IT_SERVICES/SOFTWARE_DEVELOPMENT"},
		// A German compound the lexicon only knows in parts: Zahnzusatzversicherung.
		{"de", "Zahnzusatzversicherungen und Krankenhauszusatzversicherungen online abschließen.", "INSURANCE", ""},
		// No language given: guessed from stopwords.
		{"", "Het is de beste kapsalon van de stad: knippen en kleuren voor dames en heren.", "PERSONAL_SERVICES", "PERSONAL_SERVICES/HAIR_BEAUTY"},
	} {
		t.Run(c.lang+"/"+c.wantGroup, func(t *testing.T) {
			got := shared.Classify(c.text, c.lang)
			if top := topOf(got.Groups); top != c.wantGroup {
				t.Errorf("top group = %q, want %q (%v)", top, c.wantGroup, got.Groups)
			}
			if c.wantSub != "" && topOf(got.Sub) != c.wantSub {
				t.Errorf("top sub = %q, want %q (%v)", topOf(got.Sub), c.wantSub, got.Sub)
			}
			checkShape(t, got)
		})
	}
}

// checkShape checks the invariants every Result keeps.
func checkShape(t *testing.T, r Result) {
	t.Helper()
	if r.Groups == nil || r.Sub == nil || r.BusinessModel == nil || r.Keywords == nil {
		t.Fatalf("a nil map in %+v", r)
	}
	if len(r.Groups) > 2 {
		t.Errorf("%d groups, want at most 2", len(r.Groups))
	}
	sum := 0.0
	for g, v := range r.Groups {
		if !Valid(g) || v <= 0 || v > 1 {
			t.Errorf("group %s = %v", g, v)
		}
		sum += v
	}
	if sum > 1+1e-9 {
		t.Errorf("group scores sum to %v > 1", sum)
	}
	for s, v := range r.Sub {
		if _, ok := r.Groups[Parent(s)]; !ok || !ValidSub(s) || v < defaultParams.subThreshold || v > r.Groups[Parent(s)]+1e-9 {
			t.Errorf("sub %s = %v with groups %v", s, v, r.Groups)
		}
	}
	for m, v := range r.BusinessModel {
		if !contains(BusinessModels(), m) || v < minModel || v >= 1 {
			t.Errorf("business model %s = %v", m, v)
		}
	}
	if len(r.Keywords) > maxKeywords {
		t.Errorf("%d keywords", len(r.Keywords))
	}
	for k, v := range r.Keywords {
		if v <= 0 || v > 1 || k == "" {
			t.Errorf("keyword %q = %v", k, v)
		}
	}
}

func contains(list []string, s string) bool {
	for _, v := range list {
		if v == s {
			return true
		}
	}
	return false
}

func TestClassifyWithoutEvidence(t *testing.T) {
	for _, text := range []string{"", "   ", "xyzzy plugh qwertz", "12345 67-89"} {
		got := shared.Classify(text, "eng")
		if len(got.Groups) != 0 || got.Sub == nil || len(got.Sub) != 0 {
			t.Errorf("Classify(%q): groups %v, sub %v; want none and an empty (non-nil) sub map", text, got.Groups, got.Sub)
		}
		checkShape(t, got)
	}
}

func TestLanguageCodes(t *testing.T) {
	text := "Wir sind Ihr Versicherungsmakler für Gewerbekunden und vergleichen Haftpflichtversicherungen."
	want := shared.Classify(text, "de")
	for _, code := range []string{"deu", "ger", "DE", "German", "", "und", "xx"} {
		if got := shared.Classify(text, code); !reflect.DeepEqual(got, want) {
			t.Errorf("Classify(lang %q) = %+v, want the same as with \"de\": %+v", code, got, want)
		}
	}
	stops, _ := parseStopwords(stopwordsFile)
	for _, c := range []struct{ text, want string }{
		{"Nous sommes une entreprise de la région et nous travaillons pour vous.", "fr"},
		{"Somos una empresa de la región y trabajamos para usted con los mejores.", "es"},
		{"Somos uma empresa da região e trabalhamos para você com os melhores.", "pt"},
		{"Siamo un'azienda della regione e lavoriamo per voi con i migliori.", "it"},
		{"Wij zijn een bedrijf uit de regio en werken voor u met de besten.", "nl"},
		{"We are a company from the region and we work with the best.", "en"},
		{"Wir sind ein Unternehmen aus der Region und arbeiten mit den Besten.", "de"},
		{"", "en"},
	} {
		if got := guessLang(newStopIndex(stops), c.text); got != c.want {
			t.Errorf("guessLang(%q) = %s, want %s", c.text, got, c.want)
		}
	}
}

func TestBusinessModel(t *testing.T) {
	for _, c := range []struct{ lang, text, want string }{
		{"en", "Accounting software for small businesses and their accountants: invoices, expenses and VAT returns.", "B2B"},
		{"de", "Wir liefern Verpackungen an Großhändler und Industriekunden in ganz Europa.", "B2B"},
		{"fr", "Votre coiffeur à Lille : réservez en ligne, pour toute la famille, enfants compris.", "B2C"},
		{"en", "Family dentist welcoming new patients: book now for check-ups for the whole family.", "B2C"},
		{"es", "Constructora de carreteras, puentes y túneles: obra civil y movimiento de tierras, sobre todo para administraciones públicas mediante licitaciones.", "B2G"},
		{"en", "We build radar and secure radio systems for the armed forces and government agencies.", "B2G"},
		{"nl", "Tweedehands kleding kopen en verkopen: van particulier aan particulier, bij jou in de buurt.", "C2C"},
		{"it", "Olio extravergine venduto direttamente dai produttori, con vendita diretta online.", "D2C"},
		{"en", "We buy your used car for cash: sell your car to us in 30 minutes.", "C2B"},
		{"en", "Official website of the city council: pay your council tax and report a missed bin collection. Services for residents.", "G2C"},
	} {
		t.Run(c.want+"/"+c.lang, func(t *testing.T) {
			got := shared.Classify(c.text, c.lang)
			if top := topOf(got.BusinessModel); top != c.want {
				t.Errorf("top business model = %q, want %q (%v; groups %v)", top, c.want, got.BusinessModel, got.Groups)
			}
			checkShape(t, got)
		})
	}
	// A private company's text never gets a government label, whatever it says.
	got := shared.Classify("Our plumbing company fixes boilers and leaking pipes for homeowners, residents and families across Leeds.", "en")
	if _, g := got.BusinessModel["G2C"]; g {
		t.Errorf("a plumber got G2C: %v (groups %v)", got.BusinessModel, got.Groups)
	}
}

func TestKeywords(t *testing.T) {
	text := "Solar panels for farms. Our solar panels and batteries power farms; solar is all we do. Cookies: we use cookies. The the the."
	got := shared.Classify(text, "en").Keywords
	want := map[string]float64{"solar": 1, "panels": 2.0 / 3, "farms": 2.0 / 3}
	for k, v := range want {
		if math.Abs(got[k]-v) > 1e-9 {
			t.Errorf("keyword %q = %v, want %v (all: %v)", k, got[k], v, got)
		}
	}
	for _, k := range []string{"the", "cookies", "our", "we"} {
		if _, ok := got[k]; ok {
			t.Errorf("%q is a keyword: %v", k, got)
		}
	}
	long := strings.Repeat("alpha beta gamma delta epsilon zeta eta theta iota kappa lambda mu ", 3)
	if n := len(shared.Classify(long, "en").Keywords); n != maxKeywords {
		t.Errorf("%d keywords, want %d", n, maxKeywords)
	}
}

func TestTokens(t *testing.T) {
	stops, _ := parseStopwords(stopwordsFile)
	a := newAnalyzer("en", stops)
	toks := a.tokens("Our E-commerce IT support, l'équipe Straße: 24/7")
	var got []string
	for _, t := range toks {
		s := t.surface + "|" + t.stem
		if t.joined != "" {
			s += "|" + t.joined
		}
		if t.stop {
			s += "|stop"
		}
		if t.brk {
			s += "|brk"
		}
		got = append(got, s)
	}
	// "IT" in capitals is no stopword; "24/7" has no letter and is dropped.
	want := []string{"our|our|stop|brk", "e|e", "commerce|commerc|ecommerc", "it|it", "support|support",
		"l|l|brk", "équipe|equip", "straße|strasse"}
	if strings.Join(got, " ") != strings.Join(want, " ") {
		t.Errorf("tokens:\n got %v\nwant %v", got, want)
	}
	if got := fold("société ærø œuvre ß ñ ç"); got != "societe aero oeuvre ss n c" {
		t.Errorf("fold = %q", got)
	}
}

func TestDeterministicAndConcurrent(t *testing.T) {
	texts := []string{
		"Cloud hosting, domains and email for small businesses in Spain.",
		"Wir sind ein Fahrradladen mit Werkstatt in Freiburg.",
		"Cabinet d'avocats spécialisé en droit des affaires.",
	}
	want := make([]Result, len(texts))
	for i, tx := range texts {
		want[i] = New().Classify(tx, "")
	}
	var wg sync.WaitGroup
	errs := make(chan string, 64)
	for g := 0; g < 8; g++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for n := 0; n < 20; n++ {
				i := (g + n) % len(texts)
				if got := shared.Classify(texts[i], ""); !reflect.DeepEqual(got, want[i]) {
					errs <- fmt.Sprintf("text %d: %+v != %+v", i, got, want[i])
					return
				}
			}
		}()
	}
	wg.Wait()
	close(errs)
	for e := range errs {
		t.Error(e)
	}
}

func TestWarm(t *testing.T) {
	if err := New().Warm(); err != nil {
		t.Fatal(err)
	}
}
