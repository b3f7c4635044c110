package industry

import (
	"reflect"
	"slices"
	"testing"
)

// A page's legal form names the kind of body that runs it, in each language's own
// words, and a company's ordinary forms name nothing.
func TestStatedForms(t *testing.T) {
	for _, c := range []struct {
		text string
		want []string
	}{
		{"© 2025 Förderverein der Grundschule Musterdorf e.V., Vereinsregister VR 1234", []string{"NON_PROFIT/ASSOCIATIONS"}},
		{"Träger: Lebenshilfe Musterstadt gGmbH", []string{"NON_PROFIT/CHARITIES"}},
		{"Association loi 1901 reconnue d'intérêt général", []string{"NON_PROFIT/ASSOCIATIONS"}},
		{"Organisme de sécurité civile, fondée en 1899, reconnue d’utilité publique", []string{"NON_PROFIT/ASSOCIATIONS"}},
		{"Associazione di promozione sociale – ONLUS", []string{"NON_PROFIT/ASSOCIATIONS"}},
		{"Somos una asociación sin ánimo de lucro", []string{"NON_PROFIT/ASSOCIATIONS"}},
		{"Registered charity number 1234567", []string{"NON_PROFIT/CHARITIES"}},
		{"We are a 501(c)(3) organization", []string{"NON_PROFIT/CHARITIES"}},
		{"Die Handwerkskammer ist eine Körperschaft des öffentlichen Rechts", []string{"GOVERNMENT/AGENCIES"}},
		{"Un établissement public administratif de l'État", []string{"GOVERNMENT/AGENCIES"}},
		{"An official website of the State of Ohio", []string{"GOVERNMENT"}},
		{"Boisset (43) - Site officiel de la commune", []string{"GOVERNMENT/MUNICIPALITIES"}},
		{"Sito istituzionale del Comune di Bergamo", []string{"GOVERNMENT/MUNICIPALITIES"}},
		{"Offizielle Website der Gemeinde Musterdorf", []string{"GOVERNMENT/MUNICIPALITIES"}},
		{"Portal oficial da Prefeitura de Campinas", []string{"GOVERNMENT/MUNICIPALITIES"}},
		// Ordinary companies, and words that only look like a form.
		{"Muster GmbH, HRB 12345, Amtsgericht Köln. Webdesign: Agentur XY GmbH", nil},
		{"Testsieger bei Stiftung Warentest", nil},
		{"Bernd Müller e. K., Inhaber", nil},
		{"Zwei Produkte: E-Bikes und e-Scooter, Version V.2", nil},
		{"Muster B.V., KvK 12345678, BTW NL123", nil},
		// A public body named as a client is no form of the page's own.
		{"De la collectivité territoriale à l'entreprise privée, chaque mission compte", nil},
	} {
		if got := statedForms(c.text); !slices.Equal(got, c.want) {
			t.Errorf("statedForms(%q) = %v, want %v", c.text, got, c.want)
		}
	}
	// A municipality's "official site" counts in the page's statements, not in the
	// running text of the web agency that built it.
	agency := "Nous avons réalisé le site officiel de la commune de Boisset."
	if got := statedForms("Agence web Dupont", "", "", agency, ""); got != nil {
		t.Errorf("in running text: %v, want none", got)
	}
	if got := statedForms("Boisset - Site officiel de la commune", "", "", "", ""); !slices.Equal(got, []string{"GOVERNMENT/MUNICIPALITIES"}) {
		t.Errorf("in the title: %v", got)
	}
}

// A stated legal form tips a page like a declared type, and its industry is always
// one of the two reported: the same page with and without "e.V." in its footer.
func TestLegalFormTipsAPage(t *testing.T) {
	c := New()
	p := Page{Domain: "nabu-musterdorf.de", Title: "Naturschutz in Musterdorf", Lang: "de",
		Text: "Wir pflegen Streuobstwiesen, hängen Nistkästen auf und laden zu Vorträgen und Exkursionen ein. Machen Sie mit!"}
	without := c.ClassifyPage(p)
	p.Text += " © Naturschutzgruppe Musterdorf e.V."
	with := c.ClassifyPage(p)
	if _, ok := without.Groups["NON_PROFIT"]; ok {
		t.Fatalf("without the form: %v; the test no longer shows what the form adds", without.Groups)
	}
	if _, ok := with.Groups["NON_PROFIT"]; !ok {
		t.Errorf("with the form: %v, want NON_PROFIT among the two", with.Groups)
	}
	if top(with) != top(without) && top(with) != "NON_PROFIT" {
		t.Errorf("the form changed the top industry from %s to %s", top(without), top(with))
	}
}

// The legal notice is read for the form it states only: its legal vocabulary does not
// move the industry scores.
func TestLegalNoticeIsNoVocabulary(t *testing.T) {
	c := New()
	p := Page{Domain: "baeckerei-muster.de", Title: "Bäckerei Muster", Lang: "de",
		Text: "Frische Brötchen, Brot aus dem Steinofen und Kuchen. Öffnungszeiten Mo-Sa ab 6 Uhr."}
	without := c.ClassifyPage(p)
	p.Legal = "Impressum. Haftung für Inhalte und Links, Urheberrecht, Rechtsanwalt, Gerichtsstand, Streitschlichtung, Verbraucherschlichtungsstelle. Muster GmbH, HRB 123."
	with := c.ClassifyPage(p)
	if !reflect.DeepEqual(with.Groups, without.Groups) {
		t.Errorf("groups %v with the legal notice, %v without", with.Groups, without.Groups)
	}
	p.Legal += " Träger ist der Förderverein Muster e.V."
	if _, ok := c.ClassifyPage(p).Groups["NON_PROFIT"]; !ok {
		t.Errorf("a form stated in the legal notice did not count")
	}
}
