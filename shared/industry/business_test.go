package industry

import (
	"math"
	"strings"
	"testing"
)

// A page read between two industries gets both industries' usual customers, weighted
// by their scores: a health consultancy between HEALTHCARE (households) and
// CONSULTING (firms) is no clear B2C.
func TestCustomerPriorMixesTheTwoIndustries(t *testing.T) {
	r, err := shared.load()
	if err != nil {
		t.Fatal(err)
	}
	one := r.cues.customerPrior([]scoredIndustry{{"HEALTHCARE", "", 1}})
	two := r.cues.customerPrior([]scoredIndustry{{"HEALTHCARE", "", 0.5}, {"CONSULTING", "", 0.5}})
	if one["B2C"] < 0.7 || one["B2B"] > 0.2 {
		t.Errorf("HEALTHCARE alone: prior %v, want B2C clearly ahead", one)
	}
	if math.Abs(two["B2C"]-two["B2B"]) > 0.01 {
		t.Errorf("HEALTHCARE and CONSULTING alike: prior %v, want B2B and B2C even", two)
	}
	for _, p := range []map[string]float64{one, two, r.cues.customerPrior(nil)} {
		sum := 0.0
		for _, v := range p {
			sum += v
		}
		if math.Abs(sum-1) > 1e-9 {
			t.Errorf("prior %v adds up to %.4f", p, sum)
		}
	}
	// A sub-industry whose customers differ from its industry's sets the prior.
	sub := r.cues.customerPrior([]scoredIndustry{{"FINANCIAL_SERVICES", "FINANCIAL_SERVICES/ASSET_MANAGEMENT", 1}})
	if sub["B2C"] <= sub["B2B"] {
		t.Errorf("a wealth manager: prior %v, want B2C ahead", sub)
	}
}

// Declared schema.org types that receive the public (a shop, a restaurant, opening
// hours) are weak consumer cues: they decide a split industry's customers.
func TestDeclaredTypesAreCustomerCues(t *testing.T) {
	r, err := shared.load()
	if err != nil {
		t.Fatal(err)
	}
	toks := []cueText{{newAnalyzer("en", r.stops).tokens("Kitchens, wardrobes and stairs made to measure by our joiners."), 1}}
	builder := []scoredIndustry{{"CONSTRUCTION", "CONSTRUCTION/TRADES", 0.5}, {"MANUFACTURING", "MANUFACTURING/WOOD_PAPER", 0.5}}
	without := r.cues.businessModel(toks, builder, nil)
	with := r.cues.businessModel(toks, builder, []string{"https://schema.org/OpeningHoursSpecification", "Organization"})
	if topOf(without) != "B2B" || topOf(with) != "B2C" {
		t.Errorf("joinery between building and manufacturing: %v without types, %v with opening hours; want B2B, then B2C", without, with)
	}
	if got := r.cues.businessModel(toks, builder, []string{"WholesaleStore"}); got["B2B"] <= without["B2B"] {
		t.Errorf("a wholesale store: %v, want more B2B than %v", got, without)
	}
}

// Cues are matched on whole words, the longest first, and weak cues are marked in the
// file: every cue line parses and a weak cue weighs less than a strong one.
func TestWeakCues(t *testing.T) {
	r, err := shared.load()
	if err != nil {
		t.Fatal(err)
	}
	a := newAnalyzer("en", r.stops)
	strong := r.cues.hits([]cueText{{a.tokens("Built for small businesses."), 1}})
	phrase := r.cues.hits([]cueText{{a.tokens("Built for businesses and their teams."), 1}})
	bare := r.cues.hits([]cueText{{a.tokens("Loved by businesses."), 1}})
	if strong["B2B"] != 1 || phrase["B2B"] != 1 || bare["B2B"] != r.cues.p.weakCue {
		t.Errorf("B2B hits: 'small businesses' %v, 'for businesses' %v, bare 'businesses' %v; want 1, 1 and %.1f", strong, phrase, bare, r.cues.p.weakCue)
	}
	twice := r.cues.hits([]cueText{{a.tokens("For businesses. For businesses."), 1}})
	if got, want := twice["B2B"], 1+math.Log(2); math.Abs(got-want) > 1e-9 {
		t.Errorf("a cue twice counts %.3f, want 1 + ln 2", got)
	}
	title := r.cues.hits([]cueText{{a.tokens("For businesses"), r.cues.p.statement}})
	if title["B2B"] != r.cues.p.statement {
		t.Errorf("a cue in the title counts %.2f, want %.2f", title["B2B"], r.cues.p.statement)
	}
	if !strings.Contains(businessModelsFile, "~") {
		t.Error("business_models.txt marks no weak cue")
	}
}

// A cue is matched word for word, so each inflection is listed: German declines
// "öffentlicher Sektor" to "aus dem öffentlichen Sektor", and a builder that names its
// public-sector customers so serves the public sector.
func TestInflectedPublicSectorCues(t *testing.T) {
	c := New()
	for _, text := range []string{
		"Wir sanieren Altbauten. Als Generalunternehmer übergeben wir schlüsselfertige Projekte. Unsere Kunden aus dem öffentlichen Sektor schätzen unsere Erfahrung mit Vergaberecht.",
		"Wir bauen Straßen und Brücken. Zu unseren Kunden zählen die Unternehmen der Region und die Einkäufer der öffentlichen Hand.",
	} {
		r := c.ClassifyPage(Page{Domain: "bau-beispiel.de", Title: "Bau Beispiel GmbH", Lang: "deu", Text: text})
		if r.BusinessModel["B2G"] < 0.5 {
			t.Errorf("%q: business model %v, want B2G at 0.5 or more", text, r.BusinessModel)
		}
	}
}
