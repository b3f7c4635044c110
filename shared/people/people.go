// Package people reads the people a web page lists: schema.org Person items (JSON-LD
// and microdata), hCards (classic vcard and microformats2 h-card), and the people of
// team pages in any markup (lines.go): cards, list items, table rows, definition
// lists, a role label above the name, "Role: Name", "Name (Role)", "Name, Title" and
// "Name | Title" lines, names under a heading that names their body. It never
// invents a person: every Person is a name shown on the page, with the title, email,
// phone and LinkedIn URL shown next to it, and the URL of the page.
//
// Rules that keep it honest:
//   - a name is two to five words that read as a personal name (capitalised words,
//     name particles such as "van", "de", "von"), once honorifics ("Dr.", "Prof.",
//     "Dre") and degrees ("Ph.D", "MBA") are taken off; not a heading, a department,
//     a group or committee, a place, a product, a vacancy or a role mailbox ("Sales
//     Team", "Comité Exécutif", "Press Office", "info@...");
//   - a person without a title is kept only where the page says it lists people (a
//     person class, a heading of a people section, sibling cards with titles): a
//     bare list of names is not evidence that they work there; structured data
//     (JSON-LD, microdata, hCard) is kept with or without one;
//   - titles carry no degrees or post-nominals, and a title written over two lines
//     is kept whole;
//   - emails only when the page shows the address (a mailto link or the text), and
//     never a role address (info@, sales@, kontakt@...), which is no one's own;
//   - phones are typed (mobile or landline) from the number itself.
//
// Titles are kept verbatim; department and seniority come from shared/title.
package people

import (
	"strings"
	"sync"
	"unicode"

	"golang.org/x/net/html"

	"github.com/firmoapi/firmo/shared/contact"
	"github.com/firmoapi/firmo/shared/title"
)

// Person is one person a page lists.
type Person struct {
	Name        string          `json:"name"`
	Title       string          `json:"title,omitempty"`
	Department  string          `json:"department,omitempty"`
	Seniority   string          `json:"seniority,omitempty"`
	Email       string          `json:"email,omitempty"`
	LinkedInURL string          `json:"linkedin_url,omitempty"`
	Phones      []contact.Phone `json:"phone,omitempty"`
	SourceURL   string          `json:"source_url"`
	// Via names the reader that found the person: jsonld, microdata, hcard or block.
	Via string `json:"via"`

	rawPhones []string
	firstOnly bool // known by the given name alone, read where full names sit on the page
	slotted   bool // a given name ending like a noun, its family name in capitals, read where other names sit
	classed   bool // a family name that is also a job word ("Kurt Key"), read in an element with a name class
}

// Readers, as Person.Via names them.
const (
	ViaJSONLD    = "jsonld"
	ViaMicrodata = "microdata"
	ViaHCard     = "hcard"
	ViaBlock     = "block"
)

// Options tune an extraction.
type Options struct {
	// Country is the alpha-2 country national phone numbers are read in ("" reads
	// only international ones).
	Country string
}

// maxHTML bounds the page read: team pages are small, and a huge page is not one.
const maxHTML = 4 << 20

// Extract returns the people listed on a page, in page order, each once (the
// structured readers first: a person found by several keeps the richest fields).
func Extract(pageHTML, pageURL string, o Options) []Person {
	if len(pageHTML) > maxHTML {
		pageHTML = pageHTML[:maxHTML]
	}
	doc, err := html.Parse(strings.NewReader(pageHTML))
	if err != nil {
		return nil
	}
	var found []Person
	found = append(found, jsonLD(doc)...)
	found = append(found, microdata(doc)...)
	found = append(found, hcards(doc)...)
	found = append(found, attributePeople(doc)...)
	found = append(found, splitNameTables(doc)...)
	found = append(found, lines(doc)...)
	return finish(found, pageURL, o)
}

// finish cleans, validates, classifies and merges what the readers found.
func finish(found []Person, pageURL string, o Options) []Person {
	var out []Person
	byName := map[string]int{}
	for _, p := range found {
		name, ok := nameOf(p.Name)
		if p.firstOnly && givenAlone(p.Name) || p.slotted && isNameNounGiven(p.Name, true) || p.classed {
			name, ok = p.Name, true
		}
		if !ok {
			continue
		}
		p.Name = name
		p.Title = withoutEmployer(clean(stripDegrees(clean(contactAside.ReplaceAllString(p.Title, "")))))
		p.Email = personalEmail(p.Email)
		if !strings.Contains(strings.ToLower(p.LinkedInURL), "linkedin.com/") {
			p.LinkedInURL = ""
		}
		p.Phones = contact.Phones(p.rawPhones, o.Country)
		if len(p.Phones) == 0 {
			p.Phones = nil
		}
		p.rawPhones = nil
		if p.Title != "" {
			c := title.Classify(p.Title)
			p.Department, p.Seniority = c.Department, c.Seniority
		}
		p.SourceURL = pageURL
		key := NameKey(p.Name)
		if i, ok := byName[key]; ok {
			out[i] = merge(out[i], p)
			continue
		}
		byName[key] = len(out)
		out = append(out, p)
	}
	return out
}

// merge fills a's empty fields from b.
func merge(a, b Person) Person {
	if a.Title == "" {
		a.Title, a.Department, a.Seniority = b.Title, b.Department, b.Seniority
	}
	if a.Email == "" {
		a.Email = b.Email
	}
	if a.LinkedInURL == "" {
		a.LinkedInURL = b.LinkedInURL
	}
	for _, ph := range b.Phones {
		dup := false
		for _, have := range a.Phones {
			dup = dup || have.Phone == ph.Phone
		}
		if !dup {
			a.Phones = append(a.Phones, ph)
		}
	}
	return a
}

// Merge fills a's empty fields from b (the same person found on another page).
func Merge(a, b Person) Person { return merge(a, b) }

// NameKey is the key people are deduplicated by: the name folded to lower case with
// spaces collapsed.
func NameKey(name string) string { return strings.ToLower(strings.Join(strings.Fields(name), " ")) }

// clean collapses white space and trims separators left around a field.
func clean(s string) string {
	s = strings.Join(strings.Fields(s), " ")
	return strings.Trim(s, " ,;:|–—-·•")
}

// particles are the lower-case words personal names carry between capitalised ones.
var particles = map[string]bool{
	"van": true, "von": true, "der": true, "den": true, "de": true, "del": true, "della": true, "di": true, "da": true,
	"dos": true, "das": true, "do": true, "du": true, "la": true, "le": true, "ten": true, "ter": true, "zu": true, "y": true, "e": true,
	"zum": true, "zur": true, "des": true, "het": true, "'t": true, "bin": true, "ibn": true, "al": true, "el": true, "af": true, "av": true,
	"dalla": true, "dal": true, "degli": true, "dei": true, "lo": true, "i": true, "los": true, "las": true,
}

// generational suffixes end a name ("Robert Smith Jr.", "John Doe III") and are kept.
var generational = map[string]bool{"jr.": true, "jr": true, "sr.": true, "sr": true, "ii": true, "iii": true, "iv": true}

// notNameWords are words that make a capitalised phrase a heading, a team or a
// mailbox rather than a person ("Our Team", "Sales Department", "Press Office").
var notNameWords = sync.OnceValue(func() map[string]bool {
	m := make(map[string]bool, len(notNameList))
	for _, w := range notNameList {
		m[w] = true
	}
	return m
})

var notNameList = []string{
	// headings and page furniture
	"team", "teams", "our", "the", "about", "contact", "contacts", "home", "services", "careers", "jobs", "job", "news",
	"management", "leadership", "board", "directors", "executive", "meet", "people", "staff", "company", "group",
	"office", "offices", "department", "departments", "media", "support", "service", "sales", "marketing",
	"info", "information", "privacy", "imprint", "legal", "cookie", "cookies", "policy", "terms", "read", "more", "email",
	"phone", "call", "us", "we", "you", "your", "and", "of", "for", "with", "at", "all", "rights", "reserved", "welcome",
	"customer", "customers", "partners", "partner", "billing", "accounts", "hr", "recruiting", "general", "enquiries",
	// de
	"unser", "unsere", "über", "uns", "kontakt", "impressum", "datenschutz", "geschäftsleitung", "geschäftsführung",
	"vertrieb", "presse", "karriere", "abteilung", "leistungen", "startseite", "vorstand",
	// fr
	"notre", "nos", "équipe", "equipe", "direction", "propos", "mentions", "légales", "accueil", "carrières", "presse",
	// es
	"nuestro", "nuestra", "equipo", "dirección", "quiénes", "somos", "contacto", "aviso", "servicios", "empleo",
	// pt
	"nossa", "nosso", "equipa", "sobre", "nós", "contacto", "liderança", "serviços", "carreiras",
	// it
	"il", "nostro", "chi", "siamo", "contatti", "direzione", "servizi", "lavora", "noi",
	// nl
	"ons", "onze", "over", "directie", "diensten", "vacatures",
	// groups, committees and bodies, vacancies, places and products are not people
	"committee", "comité", "comite", "comitato", "comissão", "comisión", "commission", "kommission", "ausschuss", "council",
	"conselho", "consiglio", "consejo", "conseil", "gruppe", "grupo", "gruppo", "groupe", "komisja", "komise", "komisia", "zarząd", "výbor",
	"styrelse", "styrelsen", "bestyrelse", "hallitus", "bizottság", "präsidium", "commissione", "commissie", "comissió", "tribunal", "tribunale", "tribunaal", "schiedsgericht",
	"insights", "analytics", "capital", "network", "networks", "consultancy", "associates", "collective", "cooperative", "cooperativa",
	"coopérative", "genossenschaft", "coöperatie", "mesa", "nacional", "national",
	"ejecutiva", "executiva", "esecutivo", "vacant", "vacante", "vacancy", "vacature", "position", "poste", "offen",
	"unbesetzt", "junta", "assembleia", "asamblea", "assemblea", "assemblée", "bestuur", "beirat", "directorio",
	"diretoria", "direttivo", "fiscal", "suplente", "supplenti", "association", "verein", "stiftung", "foundation",
	"fondation", "fundación", "fundação", "fondazione", "stichting", "club", "clube", "society", "institute", "institut",
	"university", "universität", "université", "universidad", "universidade", "università", "ltd", "gmbh", "inc", "llc",
	"sas", "sarl", "sàrl", "srl", "llp", "lp", "pllc", "corp", "gbr", "ev", "spa", "bv", "ag", "sa", "kg", "ohg", "ug", "nv", "plc", "pty", "ltda", "lda", "oy", "ab", "asa", "aps", "labs", "lab", "studio", "studios", "agency", "digital", "solutions",
	"software", "technologies", "tech", "consulting", "project", "projects", "projekt", "projet", "proyecto", "progetto",
	"street", "strasse", "straße", "road", "avenue", "rue", "calle", "via", "rua", "platz", "weg", "building", "floor",
	"avenida", "travessa", "plaza", "paseo", "praça", "largo", "piazza", "viale", "corso", "boulevard", "chaussée", "allee",
	"gasse", "ring", "laan", "straat", "plein", "gate", "vei", "veien", "alameda", "carrer", "ronda", "camino", "estrada",
	"anfragen", "anfrage", "wertermittlung", "pflege", "beratung", "kostenlose", "allgemeine", "ambulante",
	"hiring", "join", "apply", "open", "wanted", "gesucht", "recherché", "recherchée", "buscamos", "cerchiamo", "you?",
	"sede", "secretaría", "secretaria", "presidencia", "tesorería", "vicepresidencia", "vocales", "vocal", "alumni",
	"newsletter", "blog", "shop", "store", "login", "register", "download", "event", "events", "meetup", "conference",
	"award", "awards", "copyright", "menu", "search", "members", "member", "mitglieder", "membres", "miembros", "membri",
	"área", "area", "áreas", "areas", "anrufen", "e-mail", "title", "here", "lorem", "ipsum", "placeholder", "tbd", "vorname",
	"nachname", "name", "nom", "prénom", "nombre", "apellido", "nome", "cognome", "naam",
	"hotel", "hotels", "restaurant", "ristorante", "café", "bar", "bistro", "clinic", "clínica", "clinica", "klinik", "praxis",
	"kanzlei", "atelier", "apotheke", "pharmacy", "farmacia", "bakery", "bäckerei", "boulangerie", "garage", "werkstatt",
	"resources", "relations", "affairs", "site", "visit", "book", "trust", "corporation", "utilities", "energy", "advanced",
	"systems", "holdings", "industries", "ventures", "diplom", "diploma", "zertifikat", "certificate", "certificat", "ausbildung", "state", "county", "province", "provincia", "région", "region", "district", "bezirk", "landkreis", "mitglied", "ehrenmitglied",
	"suite", "cloud", "platform", "app", "apps", "edition", "api", "sdk", "plugin", "engine", "saas", "enterprise",
	// institutions and units: schools, day-care, parishes, federations
	"kindertagesstätte", "tagesstätte", "kita", "kindergarten", "familienzentrum", "zentrum", "schule", "gymnasium",
	"gemeinde", "geschäftsstelle", "pfarramt", "pfarrei", "küsterei", "kirche", "bund", "verband", "church", "school", "école", "escuela",
	"scuola", "escola", "school", "center", "nostre", "nostri", "nostra", "oportunidades", "opportunités", "opportunities", "opportunità",
	"statuts", "statuten", "estatutos", "statuto", "link", "links", "interview", "interviews", "publikation", "publikationen",
	"publication", "publications", "profil", "profile", "cargos", "directivos", "directivas", "volontari", "professionisti",
}

func isNotNameWord(w string) bool { return notNameWords()[w] }

// IsPersonName reports whether s is a personal name the name model knows ("Christa
// Rempfler", "Dr. Rolf W. Rempfler"): a link with such a text leads to that person's
// page.
func IsPersonName(s string) bool {
	n, ok := nameOf(s)
	return ok && knownName(n)
}

// IsName reports whether s reads as a personal name: two to five words, the first
// and the last capitalised, the others capitalised or name particles, letters (and
// hyphens or apostrophes) only, no word of a heading or a department.
func IsName(s string) bool { return isNameNounGiven(s, false) }

// isNameNounGiven is IsName; with nounGiven, the first word may end like a noun ("Marité"):
// for a name read in the slot of the page's other names, its family name in capitals.
func isNameNounGiven(s string, nounGiven bool) bool {
	words := strings.Fields(s)
	if len(words) >= 3 && generational[strings.ToLower(words[len(words)-1])] && (words[len(words)-1][0] == 'J' || words[len(words)-1][0] == 'S' || words[len(words)-1][0] == 'I') {
		words = words[:len(words)-1] // "Robert Smith Jr.": the suffix is the name's
		s = strings.Join(words, " ")
	}
	if len(words) < 2 || len(words) > 8 || len(s) > 80 {
		return false
	}
	core := 0 // words other than particles: at most five ("Duc Do", "Minh Anh Le": a last word is no particle)
	for i, w := range words {
		if !particles[strings.ToLower(w)] || i == len(words)-1 && capitalised(w) {
			core++
		}
	}
	if core > 5 || core < 2 {
		return false
	}
	if streetOpeners[strings.ToLower(words[0])] || placeOpeners[strings.ToLower(words[0])] {
		return false // "Zur Keuchinger Flur", "Am Mühlbach": an address; "San Maurizio", "New Hampshire": a place
	}
	if len(words) == 2 && compassWords[strings.ToLower(words[0])] {
		return false // "North Carolina", "West Sussex"
	}
	if singleLetters(words) {
		return false // "C E O": a word spelt out
	}
	if gluedInitials.MatchString(words[len(words)-1]) {
		return false // "Delta B.V.", "Aurora S.A.": a legal form, not initials
	}
	if nounWords(words) >= 2 {
		return false // "Community Development Coalition": an organisation, whatever names it holds
	}
	compass := 0
	for i, w := range words {
		lw := strings.ToLower(w)
		if isNotNameWord(lw) || jobWord(lw) || nounWord(lw) && !knownName(s) && !(nounGiven && i == 0) || pluralJobWord(lw) || compoundOfNotName(lw) {
			return false
		}
		if compassWords[lw] {
			compass++
		}
		if particles[lw] && i > 0 && i < len(words)-1 {
			continue
		}
		if i > 0 && i < len(words)-1 && len([]rune(w)) >= 3 && lw == w && givenWord(lw) {
			continue // "Murtaza jamal Zia": a middle name written in small letters
		}
		if i > 0 && articled(w) {
			continue // "Ahmed al-Rashid": a family name after its article
		}
		if !capitalised(w) {
			return false
		}
	}
	return compass < len(words) // "North West", "Süd Ost": a region
}

// placeOpeners begin the names of places and states, never a personal name.
var placeOpeners = map[string]bool{"new": true, "san": true, "santa": true, "santo": true, "sankt": true, "saint": true, "sainte": true,
	"são": true, "united": true, "bundesrepublik": true, "republik": true, "republic": true, "república": true, "république": true,
	"repubblica": true, "königreich": true, "royaume": true, "reino": true, "kingdom": true, "bad": true}

// streetOpeners begin German street names and never a personal name.
var streetOpeners = map[string]bool{"zur": true, "zum": true, "am": true, "im": true, "auf": true, "beim": true, "unter": true, "hinter": true}

// compassWords name the parts of a country ("North West" is a region, not a person).
var compassWords = map[string]bool{"north": true, "south": true, "east": true, "west": true, "central": true, "nord": true,
	"süd": true, "sud": true, "ost": true, "norte": true, "sur": true, "este": true, "oeste": true, "centro": true, "centre": true,
	"noord": true, "zuid": true, "oost": true}

// pluralJobWord is the plural of a job word ("Consultants", "Managers"): a firm's or a
// team's name, never a person's.
func pluralJobWord(w string) bool {
	one, ok := strings.CutSuffix(w, "s")
	if !ok || len(one) < 5 {
		return false
	}
	if jobWords[one] {
		return true
	}
	for _, suf := range jobSuffixes {
		if strings.HasSuffix(one, suf) {
			return true
		}
	}
	return false
}

// compoundOfNotName is a compound word whose head is a word no name carries
// ("Vereinsvorstand", "Ehrenmitglied", "Kundenservice"): German and Dutch write them
// as one word.
func compoundOfNotName(w string) bool {
	rs := []rune(w)
	if len(rs) < 9 {
		return false
	}
	for k := 3; k <= len(rs)-5; k++ {
		if isNotNameWord(string(rs[k:])) {
			return true
		}
	}
	return false
}

// capitalised: an upper-case letter, then letters, with inner hyphens, apostrophes
// and a final period for an initial ("J.").
func capitalised(w string) bool {
	rs := []rune(w)
	if len(rs) == 0 || !unicode.IsUpper(rs[0]) {
		return false
	}
	if len(rs) == 1 || len(rs) == 2 && (rs[1] == '.' || unicode.IsUpper(rs[1])) {
		return true // an initial ("A", "J."), or two ("PJ")
	}
	if gluedInitials.MatchString(w) && !isDegreeChain(w) {
		return true // initials written together ("J.R.", "W.G.")
	}
	upper := 0
	for i, r := range rs {
		switch {
		case unicode.IsLetter(r):
			if unicode.IsUpper(r) {
				upper++
			}
		case (r == '-' || r == '\'' || r == '’') && i > 0 && i < len(rs)-1:
		default:
			return false
		}
	}
	// "SALES" or "CEO" is not a name word; "McDonald" and "O'Neil" are.
	return upper <= 3 && upper < len(rs)
}

// looksLikeTitle reports whether a block's second text reads as a job title: short,
// no sentence, no address or number, and a title word shared/title knows (a function
// or a rank).
func looksLikeTitle(s string) bool {
	if s == "" || len(s) > 90 || strings.ContainsAny(s, "@/:?!0123456789") {
		return false
	}
	words := strings.Fields(s)
	if len(words) > 9 || strings.HasSuffix(s, ".") && len(words) > 3 {
		return false
	}
	c := title.Classify(s)
	return c.Department != title.Other || c.Seniority != title.MidLevel || titleWord(s)
}

// titleWords are job words the classifier reads as mid-level Other but that are still
// titles ("Consultant" is classified, "Associate" or "Specialist" may not be).
var titleWords = []string{"specialist", "associate", "assistant", "officer", "coordinator", "advisor", "adviseur",
	"analyst", "engineer", "developer", "designer", "consultant", "manager", "lead", "head", "director", "partner",
	"founder", "owner", "president", "leader", "referent", "berater", "sachbearbeiter", "mitarbeiter", "chargé", "chargée",
	"gestor", "gestora", "tecnico", "técnico", "responsabile", "responsável", "medewerker", "ontwikkelaar", "directeur",
	"diretor", "diretora", "direttore", "direttrice", "amministratore", "ingegnere", "engenheiro", "assistente", "associato",
	"associata", "associado", "associada", "asociado", "asociada"}

// titleWordSet is titleWords as a set, made on first use.
var titleWordSet = sync.OnceValue(func() map[string]bool {
	m := map[string]bool{}
	for _, w := range titleWords {
		m[w] = true
	}
	return m
})

func titleWord(s string) bool {
	for _, w := range strings.Fields(strings.ToLower(s)) {
		if jobWord(strings.Trim(w, ",.;()")) {
			return true
		}
		for _, t := range titleWords {
			if strings.Trim(w, ",.;()") == t {
				return true
			}
		}
	}
	return false
}

// roleMailboxes are local parts that name a function, not a person.
var roleMailboxes = map[string]bool{
	"info": true, "information": true, "sales": true, "contact": true, "contacts": true, "hello": true, "hi": true, "office": true,
	"kontakt": true, "contacto": true, "contato": true, "contatti": true, "support": true, "help": true, "helpdesk": true,
	"service": true, "admin": true, "administrator": true, "webmaster": true, "postmaster": true, "hostmaster": true, "abuse": true,
	"noreply": true, "no-reply": true, "mail": true, "email": true, "team": true, "hr": true, "jobs": true, "careers": true,
	"career": true, "karriere": true, "bewerbung": true, "recruiting": true, "press": true, "presse": true, "prensa": true,
	"media": true, "pr": true, "marketing": true, "billing": true, "invoice": true, "invoices": true, "accounts": true,
	"accounting": true, "finance": true, "legal": true, "privacy": true, "datenschutz": true, "dpo": true, "security": true,
	"enquiries": true, "inquiries": true, "orders": true, "order": true, "shop": true, "booking": true, "reservations": true,
	"vertrieb": true, "verkauf": true, "buchhaltung": true, "empfang": true, "zentrale": true, "ventas": true, "comercial": true,
	"ventes": true, "commercial": true, "accueil": true, "rh": true, "emploi": true, "empleo": true, "vendite": true,
	"amministrazione": true, "verkoop": true, "receptie": true, "secretariaat": true, "geral": true, "vendas": true,
	"recepcion": true, "direccion": true, "direction": true, "management": true, "partners": true, "newsletter": true,
}

// IsRoleAddress reports whether an address is a function's mailbox (info@, sales@,
// kontakt@...) rather than a person's.
func IsRoleAddress(addr string) bool {
	local, _, ok := strings.Cut(strings.ToLower(strings.TrimSpace(addr)), "@")
	if !ok {
		return false
	}
	local = strings.TrimRight(local, "0123456789")
	return roleMailboxes[local] || roleMailboxes[strings.ReplaceAll(local, ".", "")]
}

// personalEmail keeps a plausible personal address: one @, a dotted domain, not a role
// mailbox. mailto: and query strings are stripped.
func personalEmail(s string) string {
	s = strings.TrimSpace(s)
	s = strings.TrimPrefix(strings.TrimPrefix(s, "mailto:"), "MAILTO:")
	if i := strings.IndexByte(s, '?'); i >= 0 {
		s = s[:i]
	}
	s = strings.ToLower(s)
	local, dom, ok := strings.Cut(s, "@")
	if !ok || local == "" || !strings.Contains(dom, ".") || strings.ContainsAny(s, " <>\"'") || strings.Count(s, "@") != 1 {
		return ""
	}
	if IsRoleAddress(s) {
		return ""
	}
	return s
}

// jobSuffixes end the words of job titles, never of names (the head nouns of German
// and Dutch compounds included: "Vertriebsleiter", "Marketingmanager").
var jobSuffixes = []string{"manager", "managerin", "leiter", "leiterin", "officer", "director", "directeur", "directrice",
	"engineer", "entwickler", "entwicklerin", "developer", "ontwikkelaar", "adviseur", "referent", "referentin", "betreuer",
	"betreuerin", "führer", "führerin", "assistent", "assistentin", "executive", "president", "founder", "specialist",
	"consultant", "analyst", "designer", "coordinator", "coordinador", "coordinadora", "coordinatore", "coordinatrice",
	"koordinator", "koordinatorin", "coördinator", "begeleider", "begeleidster", "expert", "experte", "expertin", "coordenador", "coordenadora", "accountant", "ingenieur", "ingénieur", "ingeniero", "engenheiro",
	"ingegnere", "diretor", "diretora", "direttore", "direttrice", "responsable", "responsabile", "responsável", "gestor",
	"gestora", "ejecutivo", "executivo", "directora", "scientist", "programmer", "programmierer", "programmeur", "programador",
	"programmatore", "sviluppatore", "sviluppatrice", "médica", "médico", "dentiste", "dentist", "orthodontiste", "logue", "redator", "redatora",
	"writer", "editor", "researcher", "programme", "program", "direktør", "leder", "sjef", "rådgiver", "konsulent", "utvikler",
	"ansvarlig", "medewerker", "pédiatre", "psychiatre", "thérapeute", "therapeut", "therapist", "trainee", "technician", "adviseur", "adviser", "advisor", "chargée", "chargé", "juriste", "comptable", "contable", "stagiaire", "praktikant",
	"ansprechpartner", "ansprechpartnerin", "librarian", "bibliothekar", "bibliothekarin", "bibliothécaire", "bibliotecario", "bibliotecaria", "bibliothecaris",
	"colaborador", "colaboradora", "collaborateur", "collaboratrice", "collaboratore", "collaboratrice", "medewerkster"}

// jobWords are whole words of job titles and departments that no name carries.
var jobWords = map[string]bool{
	"head": true, "chief": true, "lead": true, "senior": true, "vp": true, "ceo": true, "cto": true, "cfo": true,
	"coo": true, "cmo": true, "product": true, "account": true, "operations": true, "software": true, "success": true,
	"key": true, "finance": true, "finanzen": true, "betrieb": true, "technical": true, "technischer": true, "technique": true,
	"financière": true, "commercial": true, "commerciale": true, "general": true, "général": true, "intern": true,
	"assistant": true, "assistente": true, "assistenz": true, "vorstand": true, "partner": true, "owner": true,
	"treasurer": true, "secretary": true, "chair": true, "chairman": true, "chairwoman": true, "chairperson": true,
	"vice": true, "deputy": true, "président": true, "présidente": true, "presidente": true, "vicepresidente": true,
	"vice-presidente": true, "vice-président": true, "trésorier": true, "trésorière": true, "secrétaire": true,
	"tesoureiro": true, "tesoureira": true, "tesorero": true, "tesorera": true, "tesoriere": true, "secretário": true,
	"secretária": true, "secretario": true, "secretaria": true, "segretario": true, "segretaria": true,
	"kassenwart": true, "kassenwartin": true, "schatzmeister": true, "schatzmeisterin": true, "schriftführer": true, "schriftführerin": true,
	"kassier": true, "kassierin": true, "kassierer": true, "kassiererin": true, "aktuar": true, "aktuarin": true, "beisitzer": true,
	"beisitzerin": true, "vorsitzender": true, "vorsitzende": true, "stellvertreter": true, "stellvertretende": true,
	"penningmeester": true, "secretaris": true, "voorzitter": true, "bestuurslid": true, "kasserer": true, "styreleder": true,
	"leder": true, "daglig": true, "consigliere": true, "consigliera": true, "vocal": true, "socio": true, "socia": true, "coach": true, "trainer": true,
	"stagiaire": true, "praktikant": true, "member": true, "founder": true, "cofounder": true,
	"co-founder": true, "fondateur": true, "fondatrice": true, "gründer": true, "gründerin": true, "fundador": true,
	"fundadora": true, "fondatore": true, "oprichter": true, "coordinator": true, "volunteer": true, "volunteers": true,
	"freiwillige": true, "freiwilliger": true, "bénévole": true, "voluntario": true, "voluntaria": true, "vrijwilliger": true, "präsident": true, "präsidentin": true,
	"vizepräsident": true, "vizepräsidentin": true, "sekretär": true, "sekretärin": true, "lid": true, "ondervoorzitter": true,
	"vicevoorzitter": true, "schatbewaarder": true, "hoofd": true,
	// professions written before a name ("Rechtsanwalt Jana Roth", "Steuerberater Olaf Berg")
	"rechtsanwalt": true, "rechtsanwältin": true, "anwalt": true, "anwältin": true, "steuerberater": true, "steuerberaterin": true,
	"wirtschaftsprüfer": true, "wirtschaftsprüferin": true, "notar": true, "notarin": true, "avocat": true, "avocate": true,
	"abogado": true, "abogada": true, "avvocato": true, "advocaat": true, "notaris": true, "notario": true, "notaria": true,
	"notaio": true, "guide": true,
}

func jobWord(w string) bool {
	if jobWords[w] {
		return true
	}
	if a, b, ok := strings.Cut(w, "-"); ok && len(a) > 1 && len(b) > 3 && (jobWords[a] || jobWords[b]) {
		return true // "co-fundadora", "vice-presidente"
	}
	// German club offices: Platzwart, Jugendwartin, Gerätewart (not Stewart).
	if len([]rune(w)) >= 8 && (strings.HasSuffix(w, "wart") || strings.HasSuffix(w, "wartin")) {
		return true
	}
	for _, suf := range jobSuffixes {
		if strings.HasSuffix(w, suf) {
			return true
		}
	}
	return false
}
