package industry

import "testing"

func TestSchemaTypesAreTaxonomyValues(t *testing.T) {
	for k, v := range schemaTypes() {
		if v != "" && !Valid(v) && !ValidSub(v) {
			t.Errorf("schema.org type %q maps to %q, which is no industry or sub-industry", k, v)
		}
	}
	for in, want := range map[string]string{
		"Dentist": "HEALTHCARE/DENTAL", "https://schema.org/Attorney": "LEGAL_SERVICES/LAW_FIRMS", "http://schema.org/Brewery": "FOOD_BEVERAGE/BREWERY_WINERY",
		"schema:AutoRepair": "AUTOMOTIVE/REPAIR_SERVICE", "restaurant.restaurant": "HOSPITALITY/RESTAURANTS", "Organization": "", "website": "", "NoSuchType": "",
	} {
		if got := schemaType(in); got != want {
			t.Errorf("schemaType(%q) = %q, want %q", in, got, want)
		}
	}
}

// A page's own statement outweighs incidental vocabulary of its running text.
func TestClassifyPageWeighsStatements(t *testing.T) {
	p := Page{
		Domain:      "fahrschule-muster.de",
		Title:       "Fahrschule Muster – Führerschein in Leipzig",
		Description: "Fahrstunden, Theorieunterricht und Prüfungsvorbereitung für Klasse B.",
		Headings:    []string{"Fahrschule", "Unsere Fahrlehrer"},
		Text: "Unsere Software zur Terminplanung und die App für Lernkarten laufen in der Cloud. Wir testen jede Woche neue Apps, " +
			"programmieren eigene Tools und nutzen digitale Plattformen für die Verwaltung.",
		Lang: "deu",
	}
	got := shared.ClassifyPage(p)
	if top := topOf(got.Groups); top != "EDUCATION" {
		t.Errorf("top group = %q, want EDUCATION (%v)", top, got.Groups)
	}
	if top := topOf(got.Sub); top != "EDUCATION/DRIVING_SCHOOLS" {
		t.Errorf("top sub = %q, want EDUCATION/DRIVING_SCHOOLS (%v)", top, got.Sub)
	}
	checkShape(t, got)
}

// A declared schema.org type tips a page whose text is thin.
func TestClassifyPageDeclaredType(t *testing.T) {
	p := Page{Title: "Praxis am Markt", Text: "Willkommen in unserer Praxis. Termine nach Vereinbarung.", Lang: "de"}
	without := shared.ClassifyPage(p)
	p.Types = []string{"WebSite", "https://schema.org/Dentist"}
	with := shared.ClassifyPage(p)
	if with.Groups["HEALTHCARE"] <= without.Groups["HEALTHCARE"] || topOf(with.Groups) != "HEALTHCARE" {
		t.Errorf("HEALTHCARE with the type %v, without %v", with.Groups, without.Groups)
	}
	if topOf(with.Sub) != "HEALTHCARE/DENTAL" {
		t.Errorf("sub = %v, want HEALTHCARE/DENTAL", with.Sub)
	}
	checkShape(t, with)
}

// A page that says nothing about its customers still gets its industry's usual
// ones; one that says who they are gets them.
func TestClassifyPageBusinessModel(t *testing.T) {
	for _, c := range []struct {
		p    Page
		want string
	}{
		{Page{Title: "Bäckerei Korn", Description: "Brot, Brötchen und Kuchen aus eigener Backstube.", Lang: "de"}, "B2C"},
		{Page{Title: "Stahlbau Nord GmbH", Description: "Stahlkonstruktionen, Schweißarbeiten und Blechbearbeitung.", Lang: "de"}, "B2B"},
		{Page{Title: "Acme Analytics", Description: "Dashboards for your sales team. Request a demo or start your free trial.", Lang: "en"}, "B2B"},
		{Page{Title: "Pizzeria Roma", Description: "Order online for home delivery, opening hours Tuesday to Sunday.", Lang: "en"}, "B2C"},
	} {
		got := shared.ClassifyPage(c.p)
		if top := topOf(got.BusinessModel); top != c.want {
			t.Errorf("%s: business model %v, want %s on top (groups %v)", c.p.Title, got.BusinessModel, c.want, got.Groups)
		}
		checkShape(t, got)
	}
}

func TestClassifyPageEmpty(t *testing.T) {
	got := shared.ClassifyPage(Page{})
	if len(got.Groups) != 0 || got.Sub == nil || got.BusinessModel == nil {
		t.Errorf("empty page = %+v", got)
	}
}
