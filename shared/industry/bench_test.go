package industry

import (
	"strings"
	"testing"
)

// homepage is a homepage-sized text (about 2,500 characters) such as extraction
// hands over.
var homepage = strings.Repeat(`Nordlicht Software GmbH entwickelt seit 2009 Software für die Lohnabrechnung und
Personalverwaltung im Mittelstand. Über 3.000 Unternehmen nutzen unsere Cloud-Lösung im Abo,
monatlich kündbar und DSGVO-konform in Deutschland gehostet. Zeiterfassung, Urlaubsplanung und
Bewerbermanagement gehören zu jedem Paket. Kostenlos testen: 30 Tage ohne Installation im Browser.
Kontakt Impressum Datenschutz Karriere Blog. `, 5)

const description = "Cloud-based payroll and HR software for growing companies: run payroll in minutes and manage benefits."

// BenchmarkClassify measures one classification (model already built) of a short
// description and of a homepage-sized text.
func BenchmarkClassify(b *testing.B) {
	c := New()
	if err := c.Warm(); err != nil {
		b.Fatal(err)
	}
	for _, bc := range []struct{ name, text, lang string }{
		{"description", description, "eng"},
		{"homepage", homepage, "deu"},
		{"homepage-guess-language", homepage, ""},
	} {
		b.Run(bc.name, func(b *testing.B) {
			b.SetBytes(int64(len(bc.text)))
			b.ReportAllocs()
			for i := 0; i < b.N; i++ {
				c.Classify(bc.text, bc.lang)
			}
		})
	}
}

// BenchmarkClassifyPage measures ClassifyPage on the same homepage read apart (title,
// description, headings, a declared type), against Classify of its joined text above.
func BenchmarkClassifyPage(b *testing.B) {
	c := New()
	if err := c.Warm(); err != nil {
		b.Fatal(err)
	}
	p := Page{
		Domain: "nordlicht-software.de", Title: "Nordlicht Software GmbH | Lohnabrechnung und Personalverwaltung",
		Description: "Software für die Lohnabrechnung im Mittelstand, im Abo, in Deutschland gehostet.",
		Headings:    []string{"Lohnabrechnung in der Cloud", "Zeiterfassung", "Bewerbermanagement", "Kostenlos testen"},
		Types:       []string{"WebSite", "Organization", "SoftwareApplication"}, Text: homepage, Lang: "deu",
	}
	b.SetBytes(int64(len(p.Text)))
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		c.ClassifyPage(p)
	}
}

// BenchmarkBuild measures what the first Classify of a process pays: parsing the
// embedded lexicon and labelled rows and training the model.
func BenchmarkBuild(b *testing.B) {
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		if _, err := build(defaultParams, nil); err != nil {
			b.Fatal(err)
		}
	}
}
