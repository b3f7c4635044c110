package company

import (
	"context"
	"reflect"
	"strings"
	"testing"
	"time"
)

func TestScanLinksStatements(t *testing.T) {
	page := `<html><head><title>Praxis Dr. Beispiel</title>
<meta property="og:type" content="website">
<script type="application/ld+json">{"@context":"https://schema.org","@graph":[{"@type":"WebSite","name":"x"},
 {"@type":["Dentist","LocalBusiness"],"address":{"@type":"PostalAddress"}}]}</script>
<script type="application/ld+json">not json at all</script>
</head><body itemscope itemtype="https://schema.org/MedicalClinic">
<h1>Zahnarzt in <em>Köln</em></h1><h2>Unsere   Leistungen</h2><h4>not a statement</h4><h3></h3>
<p>Text</p></body></html>`
	got := scanLinks([]byte(page), "beispiel.de")
	if want := []string{"Zahnarzt in Köln", "Unsere Leistungen"}; !reflect.DeepEqual(got.Headings, want) {
		t.Errorf("headings = %q, want %q", got.Headings, want)
	}
	want := []string{"website", "WebSite", "Dentist", "LocalBusiness", "PostalAddress", "https://schema.org/MedicalClinic"}
	if !reflect.DeepEqual(got.Types, want) {
		t.Errorf("types = %q, want %q", got.Types, want)
	}
	if got.Title != "Praxis Dr. Beispiel" {
		t.Errorf("title = %q", got.Title)
	}
}

func TestAboutPage(t *testing.T) {
	pages := []Page{
		{URL: "https://acme.de/ueber-uns/team", StatusCode: 200},
		{URL: "https://www.acme.de/ueber-uns/", StatusCode: 200},
		{URL: "https://acme.de/en/about-us.html", StatusCode: 200},
		{URL: "https://other.de/about", StatusCode: 200},
		{URL: "https://acme.de/", StatusCode: 200},
	}
	if _, i := aboutPage("acme.de", pages); i != 1 {
		t.Errorf("about page = %d, want 1 (the shortest about path; team pages are not about pages)", i)
	}
	if _, i := aboutPage("acme.de", pages[:1]); i != -1 {
		t.Errorf("a team page was taken for the about page")
	}
}

func TestLegalPage(t *testing.T) {
	pages := []Page{
		{URL: "https://acme.fr/", StatusCode: 200},
		{URL: "https://acme.fr/mentions-legales/", StatusCode: 200},
		{URL: "https://acme.fr/fr/mentions-legales.html", StatusCode: 200},
		{URL: "https://acme.fr/impressum", StatusCode: 404},
	}
	if _, i := legalPage("acme.fr", pages); i != 1 {
		t.Errorf("legal page = %d, want 1 (the shortest legal notice path that answered)", i)
	}
	if _, i := legalPage("acme.fr", pages[:1]); i != -1 {
		t.Errorf("the home page was taken for the legal notice")
	}
}

// fakePageClassifier records what the pipeline hands a PageClassifier.
type fakePageClassifier struct {
	fakeClassifier
	got   PageStatements
	calls int
}

func (f *fakePageClassifier) ClassifyPage(p PageStatements) Classification {
	f.got, f.calls = p, f.calls+1
	return Classification{Groups: map[string]float64{"HEALTHCARE": 0.8}, Sub: map[string]float64{}, BusinessModel: map[string]float64{"B2C": 0.6}}
}

func TestDeriveHandsPageClassifierTheStatements(t *testing.T) {
	home := Page{URL: "https://praxis-beispiel.de/", StatusCode: 200, FetchedAt: day0, HTML: `<html lang="de"><head><title>Praxis</title>
<script type="application/ld+json">{"@type":"Dentist"}</script></head><body><h1>Zahnarzt in Köln</h1><p>Willkommen.</p></body></html>`}
	about := Page{URL: "https://praxis-beispiel.de/ueber-uns", StatusCode: 200, FetchedAt: day0, HTML: `<html><body><p>Unser Team behandelt Kinder und Erwachsene.</p></body></html>`}
	legal := Page{URL: "https://praxis-beispiel.de/impressum", StatusCode: 200, FetchedAt: day0, HTML: `<html><body><p>Zahnarztpraxis Beispiel, Zahnärztekammer Nordrhein, Körperschaft des öffentlichen Rechts</p></body></html>`}
	ex, cl := &fakeExtractor{}, &fakePageClassifier{}
	d := NewDeriver(DeriverDeps{Extractor: ex, Classifier: cl, Now: func() time.Time { return day0 }})
	p, _, _, pages := d.Derive(context.Background(), Inputs{Domain: "praxis-beispiel.de", Pages: []Page{about, home, legal}})
	if cl.calls != 1 || cl.fakeClassifier.gotLang != "" {
		t.Fatalf("ClassifyPage calls %d, Classify called with %q: the pipeline must prefer ClassifyPage", cl.calls, cl.fakeClassifier.gotLang)
	}
	g := cl.got
	if g.Domain != "praxis-beispiel.de" || g.Title != "Praxis" || !reflect.DeepEqual(g.Headings, []string{"Zahnarzt in Köln"}) || !reflect.DeepEqual(g.Types, []string{"Dentist"}) || g.Lang != "deu" {
		t.Errorf("statements = %+v", g)
	}
	if !strings.Contains(g.Text, "Willkommen") || !strings.Contains(g.Text, "Kinder und Erwachsene") {
		t.Errorf("text = %q, want the homepage's and the about page's", g.Text)
	}
	if !strings.Contains(g.Legal, "Körperschaft des öffentlichen Rechts") || strings.Contains(g.Text, "Körperschaft") {
		t.Errorf("legal = %q, text = %q: want the legal notice apart from the running text", g.Legal, g.Text)
	}
	if ex.calls != 3 || pages[0].Text == "" || pages[2].Text == "" {
		t.Errorf("extraction calls %d, about page %+v, legal page %+v: both are extracted and kept", ex.calls, pages[0], pages[2])
	}
	if p.IndustryGroups["HEALTHCARE"] != 0.8 || p.BusinessModel["B2C"] != 0.6 {
		t.Errorf("profile from ClassifyPage: %v %v", p.IndustryGroups, p.BusinessModel)
	}
}

func TestHeadTitle(t *testing.T) {
	for _, c := range []struct{ extracted, head, want string }{
		{"Startseite", "Startseite - Reinico-Gebäudereinigung", "Startseite - Reinico-Gebäudereinigung"},
		{"Snel en vakkundig gerepareerd", "GSM Reparatie Purmerend", "Snel en vakkundig gerepareerd | GSM Reparatie Purmerend"},
		{"Praxis Dr. Weber", "Praxis Dr. Weber", "Praxis Dr. Weber"},
		{"Praxis Dr. Weber | Zahnarzt", "praxis dr. weber", "Praxis Dr. Weber | Zahnarzt"},
		{"Kanzlei Kurz", "", "Kanzlei Kurz"},
		{"", "Bäckerei Korn", "Bäckerei Korn"},
	} {
		if got := headTitle(c.extracted, c.head); got != c.want {
			t.Errorf("headTitle(%q, %q) = %q, want %q", c.extracted, c.head, got, c.want)
		}
	}
}
