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

// A page's cue outweighs its industry's prior only as far as the cue is clear: a weak
// cue (a word a page also uses about itself) decides a split industry's customers but
// does not overturn a clear industry's; a strong one (a phrase naming the customers)
// overturns both.
func TestBusinessModelCueAgainstThePrior(t *testing.T) {
	r, err := shared.load()
	if err != nil {
		t.Fatal(err)
	}
	bm := func(text string, in scoredIndustry) map[string]float64 {
		return r.cues.businessModel([]cueText{{newAnalyzer("en", r.stops).tokens(text), 1}}, []scoredIndustry{in}, nil)
	}
	saas := scoredIndustry{"SAAS", "SAAS/PROJECT_MANAGEMENT", 1}
	builder := scoredIndustry{"CONSTRUCTION", "CONSTRUCTION/TRADES", 1}
	for _, c := range []struct {
		text string
		in   scoredIndustry
		want string
	}{
		{"Project boards that families also love.", saas, "B2B"},                  // weak B2C cue, clear B2B prior
		{"Project boards: add to cart and pay by card.", saas, "B2C"},             // strong B2C cue
		{"Roofs and gutters repaired by our team.", builder, "B2C"},               // no cue: the prior
		{"Roofs and gutters repaired for companies.", builder, "B2B"},             // weak B2B cue, split prior
		{"Our team repairs roofs for homeowners and businesses.", builder, "B2C"}, // strong B2C beats weak B2B
	} {
		got := bm(c.text, c.in)
		if top := topOf(got); top != c.want {
			t.Errorf("%q (%s): business model %v, want %s on top", c.text, c.in.value, got, c.want)
		}
	}
	// A word inside a longer cue is no second cue: "companies of every size" is one
	// strong B2B cue, as many as "private customers" for B2C, so the split prior decides.
	got := bm("We work with companies of every size and private customers.", builder)
	if got["B2C"] <= got["B2B"] {
		t.Errorf("business model %v: one cue each, the builder's typical B2C must lead", got)
	}
	// Each label's score is the probability that the company serves those customers:
	// a page that names both gets both.
	if got["B2B"] < 0.5 || got["B2C"] < 0.5 {
		t.Errorf("business model %v: a page naming firms and households serves both", got)
	}
}

// Web and e-mail addresses in a page's footer are no vocabulary.
func TestWebAddressesAreNoVocabulary(t *testing.T) {
	r, err := shared.load()
	if err != nil {
		t.Fatal(err)
	}
	for _, lang := range []string{"en", "it", "de"} {
		a := newAnalyzer(lang, r.stops)
		for f := range r.model.features(a, a.tokens("www.example.com info@example.com https://example.com/ http://www.example.com"), r.model.feat) {
			if f != "exampl" && f != "example" {
				t.Errorf("%s: feature %q from an address", lang, f)
			}
		}
	}
}

// Trades the lexicon once missed (podiatry, laundries, phone repair, petrol stations,
// beekeeping, lubricants, pest control, glaziers, taxis, tattoos, surveyors, unions):
// short texts written for this test.
func TestClassifyPageTrades(t *testing.T) {
	for _, c := range []struct {
		p    Page
		want string
	}{
		{Page{Title: "Podologie Van Damme", Description: "Podologie en steunzolen op maat voor voet- en knieklachten.", Lang: "nl"}, "HEALTHCARE"},
		{Page{Title: "Wäscherei Blitz", Description: "Wäscherei und Textilreinigung: Hemden, Bettwäsche, Vorhänge.", Lang: "de"}, "PERSONAL_SERVICES"},
		{Page{Title: "Fix My Phone", Description: "Smartphone repair and screen repair while you wait.", Lang: "en"}, "ELECTRONICS"},
		{Page{Title: "Gasolineras del Norte", Description: "Red de gasolineras y estaciones de servicio con tienda.", Lang: "es"}, "ENERGY"},
		{Page{Title: "Apicoltura Rossi", Description: "Apicoltura biologica: i nostri alveari in collina.", Lang: "it"}, "AGRICULTURE"},
		{Page{Title: "Lubrifiants Martin", Description: "Lubrifiants et graisses industrielles pour l'industrie et les transports.", Lang: "fr"}, "CHEMICALS"},
		{Page{Title: "Bugs Away", Description: "Pest control: rats, mice, wasps and bed bugs removed fast.", Lang: "en"}, "PERSONAL_SERVICES"},
		{Page{Title: "Vidraçaria Lisboa", Description: "Vidraçaria: vidros, espelhos e caixilharia.", Lang: "pt"}, "CONSTRUCTION"},
		{Page{Title: "Taxi Krüger", Description: "Taxi und Flughafentransfer rund um die Uhr.", Lang: "de"}, "TRAVEL"},
		{Page{Title: "Estudio Tinta", Description: "Estudio de tatuajes y piercing con diseños personalizados.", Lang: "es"}, "PERSONAL_SERVICES"},
		{Page{Title: "Landview", Description: "Land surveyors: topographic and boundary surveys.", Lang: "en"}, "CONSULTING"},
		{Page{Title: "Entrümpelung Huber", Description: "Entrümpelung, Haushaltsauflösung und Sperrmüll in Augsburg.", Lang: "de"}, "ENVIRONMENTAL_SERVICES"},
		{Page{Title: "Serramenti Bianchi", Description: "Serramenti e infissi in alluminio e PVC su misura.", Lang: "it"}, "CONSTRUCTION"},
		{Page{Title: "Vakbond Samen", Description: "Vakbond voor werknemers: cao-onderhandelingen en advies voor leden.", Lang: "nl"}, "NON_PROFIT"},
	} {
		got := shared.ClassifyPage(c.p)
		if top := topOf(got.Groups); top != c.want {
			t.Errorf("%s: industries %v, want %s on top", c.p.Title, got.Groups, c.want)
		}
	}
}

// An accounting firm's page names what accounting software also names (bookkeeping,
// quotes, invoices): it stays an accounting firm.
func TestAccountingFirmIsNoSaaS(t *testing.T) {
	for _, p := range []Page{
		{Title: "Assessoria Contábil Silva", Description: "Contabilidade, orçamentos e faturas para o seu negócio: a sua assessoria contábil de confiança.", Lang: "pt"},
		{Title: "Boekhoudkantoor De Vries", Description: "Boekhouding, facturen en belastingaangifte voor ondernemers en particulieren.", Lang: "nl"},
	} {
		got := shared.ClassifyPage(p)
		if top := topOf(got.Groups); top != "FINANCIAL_SERVICES" {
			t.Errorf("%s: industries %v, want FINANCIAL_SERVICES on top", p.Title, got.Groups)
		}
	}
}

// Marketing words every firm uses ("solutions", "technology", "programs", "systems",
// "we develop") name no industry: pages of firms that are no software or IT company
// and say them are still read by what they do.
func TestMarketingWordsAreNoSoftware(t *testing.T) {
	tech := map[string]bool{"SOFTWARE": true, "SAAS": true, "IT_SERVICES": true}
	for _, p := range []Page{
		{Domain: "weber-gruppe.de", Title: "Weber – Lösungen und Technologie", Lang: "de",
			Text: "Wir entwickeln Lösungen mit modernster Technologie und eigenen Programmen für unsere Kunden. Metallbau und Schlosserei seit 1978."},
		{Domain: "rossi-associati.it", Title: "Rossi & Associati | Soluzioni e tecnologia", Lang: "it",
			Text: "Soluzioni innovative, tecnologia e programmi su misura per ogni cliente. Commercialista a Bergamo."},
		{Domain: "jansen-bv.nl", Title: "Jansen | Oplossingen en technologie", Lang: "nl",
			Text: "Oplossingen op maat met de nieuwste technologie en slimme systemen voor elke klant. Wij installeren warmtepompen."},
		{Domain: "garcia-sl.es", Title: "García | Soluciones y tecnología", Lang: "es",
			Text: "Soluciones integrales, tecnología y sistemas a medida para cada cliente. Transporte de mercancías por carretera."},
	} {
		got := New().ClassifyPage(p)
		if top := topOf(got.Groups); tech[top] {
			t.Errorf("%s: top group %s (%v), want the firm's own trade", p.Domain, top, got.Groups)
		}
	}
}

// Words of another meaning that share a stem with a lexicon word do not count for it:
// French "données" (data) is no "don" (donation), a German "Büro" (office) is no
// office-furniture maker.
func TestStemCollisions(t *testing.T) {
	for _, c := range []struct {
		p     Page
		wrong string
	}{
		{Page{Domain: "datako.fr", Title: "Vos données opérationnelles, enfin pilotables", Lang: "fr",
			Text: "Nous transformons vos données en tableaux de bord. Vos données restent les vôtres : données hébergées en France."}, "NON_PROFIT"},
		{Page{Domain: "gobio.de", Title: "Büro für limnologische Gutachten", Lang: "de",
			Text: "Unser Büro erstellt Gutachten zu Gewässern, Fischen und Amphibien. Das Büro ist Mo-Fr erreichbar."}, "MANUFACTURING"},
	} {
		if top := topOf(New().ClassifyPage(c.p).Groups); top == c.wrong {
			t.Errorf("%s: top group %s", c.p.Domain, top)
		}
	}
	a := newAnalyzer("fr", nil)
	if a.stemWord("données") == a.stemWord("dons") {
		t.Errorf("données and dons share the stem %q", a.stemWord("dons"))
	}
	// The phone of a contact block is no telephony.
	for lang, pair := range map[string][2]string{"fr": {"téléphone", "téléphonie"}, "es": {"teléfono", "telefonía"}, "pt": {"telefone", "telefonia"}} {
		if an := newAnalyzer(lang, nil); an.stemWord(pair[0]) == an.stemWord(pair[1]) {
			t.Errorf("%s: %s and %s share the stem %q", lang, pair[0], pair[1], an.stemWord(pair[1]))
		}
	}
	// Everyday words that stem as a trade word of another meaning does.
	for _, c := range []struct{ lang, word, other string }{
		{"es", "filas", "fil"}, {"es", "salto", "salt"}, {"es", "carpetas", "carpet"},
		{"es", "libre", "libros"}, {"fr", "libres", "libr"}, {"pt", "implantação", "implantes"},
		{"pt", "portaria", "portos"},
	} {
		if an := newAnalyzer(c.lang, nil); an.stemWord(c.word) == an.stemWord(c.other) {
			t.Errorf("%s: %s and %s share the stem %q", c.lang, c.word, c.other, an.stemWord(c.other))
		}
	}
	// Dutch "wij zorgen voor" (we see to it) and "zorgvuldig" (careful) are no "zorg"
	// (care): neither gives the feature.
	r, err := New().load()
	if err != nil {
		t.Fatal(err)
	}
	nl := newAnalyzer("nl", r.stops)
	care := nl.stemWord("zorg")
	for f := range r.model.features(nl, nl.tokens("Wij zorgen voor een zorgvuldige planning en zorgeloze verhuizing."), nil) {
		if f == care {
			t.Errorf("zorgen/zorgvuldig gave the feature %q", care)
		}
	}
	// Function words whose stem is an industry word of another meaning give no
	// feature: French "sera" (séries), Italian "facciamo" (facciate), "ti" (TI).
	for lang, text := range map[string]string{"fr": "ce sera", "it": "ti facciamo", "es": "será", "pt": "será só"} {
		an := newAnalyzer(lang, r.stops)
		if fs := r.model.features(an, an.tokens(text), r.model.feat); len(fs) > 0 {
			t.Errorf("%s %q gives features %v", lang, text, fs)
		}
	}
	if fs := r.model.features(nl, nl.tokens("zorgverlener"), nil); fs[care] == 0 {
		t.Errorf("zorgverlener (care provider) no longer gives %q: %v", care, fs)
	}
}

// A Dutch abstract noun in "-schap" (vakmanschap, gemeenschap) is no compound of
// "schaap" (sheep): it gives no part, while a real compound still splits.
func TestDerivationalSuffixIsNoCompound(t *testing.T) {
	r, err := New().load()
	if err != nil {
		t.Fatal(err)
	}
	a := newAnalyzer("nl", r.stops)
	for _, w := range []string{"vakmanschap", "gemeenschap", "lidmaatschap"} {
		if parts := r.model.compoundParts(a.stemWord(w)); len(parts) > 0 {
			t.Errorf("%s splits into %v", w, parts)
		}
	}
	if parts := r.model.compoundParts(a.stemWord("schapenhouderij")); len(parts) == 0 || parts[0] != a.stemWord("schapen") {
		t.Errorf("schapenhouderij (sheep farm) splits into %v, want %q first", parts, a.stemWord("schapen"))
	}
}

// Everyday service firms say what they do in plain words that a trade's vocabulary
// would otherwise outweigh: a computer repair shop is an IT service, a decluttering
// coach and a facility-services firm personal services, a Red Cross unit a non-profit.
func TestEverydayServiceFirms(t *testing.T) {
	for _, c := range []struct {
		p    Page
		want string
	}{
		{Page{Domain: "pchulp-devries.nl", Title: "De Vries Computerservice – computerreparatie en laptop reparatie", Lang: "nl",
			Text: "Is uw laptop kapot of traag? Wij doen computerreparatie, pc reparatie en dataherstel, ook bij u thuis. Persoonlijke service en eerlijke prijzen."}, "IT_SERVICES"},
		{Page{Domain: "ruimte-en-rust.nl", Title: "Opruimcoach Anna – professional organizer", Lang: "nl",
			Text: "Geen zorgen: samen opruimen geeft rust in huis. Als opruimcoach help ik met opruimen en ordening van kasten, zolder en werkplek."}, "PERSONAL_SERVICES"},
		{Page{Domain: "servicosfortes.com.br", Title: "Fortes – terceirização de serviços, portaria e limpeza", Lang: "pt",
			Text: "Oferecemos terceirização de serviços: portaria, zeladoria, limpeza e conservação para condomínios e empresas. Equipes treinadas e supervisão."}, "PERSONAL_SERVICES"},
		{Page{Domain: "brk-musterstadt.de", Title: "Bayerisches Rotes Kreuz – Bereitschaft Musterstadt", Lang: "de",
			Text: "Die Bereitschaft des Roten Kreuzes leistet Sanitätsdienst bei Veranstaltungen, organisiert die Blutspende und bietet Erste Hilfe Kurse an. Angebote für alle, ehrenamtlich."}, "NON_PROFIT"},
	} {
		got := New().ClassifyPage(c.p)
		if top := topOf(got.Groups); top != c.want {
			t.Errorf("%s: top group %s (%v), want %s", c.p.Domain, top, got.Groups, c.want)
		}
	}
}

// Leisure venues and party rentals are amusement and recreation, not a gym.
func TestLeisureVenuesAreEntertainment(t *testing.T) {
	for _, p := range []Page{
		{Domain: "strike-bowling.de", Title: "Strike Bowlingcenter – 12 Bowlingbahnen, Billard und Sportsbar", Lang: "de",
			Text: "Bowling für Familien, Vereine und Firmenfeiern. Reservieren Sie Ihre Bowlingbahn online. Kindergeburtstag mit Bowling und Pizza."},
		{Domain: "hinchables-sol.es", Title: "Hinchables Sol – alquiler de hinchables y castillos hinchables", Lang: "es",
			Text: "Alquiler de hinchables para cumpleaños, comuniones y fiestas. Castillos hinchables, toboganes y camas elásticas con monitor."},
	} {
		got := New().ClassifyPage(p)
		if top := topOf(got.Groups); top != "MEDIA_ENTERTAINMENT" {
			t.Errorf("%s: top group %s (%v), want MEDIA_ENTERTAINMENT", p.Domain, top, got.Groups)
		}
	}
}

// A charity that builds wells and schools is a charity, not a builder.
func TestAidCharityIsNoBuilder(t *testing.T) {
	p := Page{Domain: "wasser-fuer-doerfer.de", Title: "Wasser für Dörfer – Hilfsprojekte in Afrika", Lang: "de",
		Text: "Wir bauen Brunnen, Wasserleitungen und Schulgebäude. Bau und Bohrung eines Brunnens, Pumpe und Sanitäranlagen für ein Dorf. Unsere Hilfsprojekte leben von Spenden: jetzt spenden über unser Spendenkonto oder Entwicklungshilfe mit einer Patenschaft."}
	if top := topOf(New().ClassifyPage(p).Groups); top != "NON_PROFIT" {
		t.Errorf("%s: top group %s, want NON_PROFIT", p.Domain, top)
	}
}
