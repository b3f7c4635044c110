package world

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"net/url"
	"strings"
	"time"

	"github.com/firmoapi/firmo/shared/company"
)

// streamTeamSite is the random stream of a company's leadership, contact and archived
// team pages. It is independent of every other stream, so adding these pages changed
// no company, page or contact the world gave before.
const streamTeamSite = 60

// Listed is a person as the company's pages list them: the truth contact generation is
// graded against. Department and seniority are the world author's labels of the
// title (titleTruth), written independently of Firmo's classifier.
type Listed struct {
	Name       string   `json:"name"`
	Title      string   `json:"title"`
	Email      string   `json:"email,omitempty"` // shown on a page
	Department string   `json:"department"`
	Seniority  string   `json:"seniority"`
	Pages      []string `json:"pages"` // the URLs that list the person
	// Left: the person no longer works there and is listed only on an archived page.
	Left bool `json:"left,omitempty"`
}

// TeamSite is a company's people pages beyond the homepage and team page Company
// gives: a leadership page, a contact page with role mailboxes, sometimes an archived
// team page that still lists people who left. Listed is everyone any of the company's
// pages lists (the Company's team page included); RoleAddresses are the function
// mailboxes the pages show, which are no one's.
type TeamSite struct {
	Domain        string         `json:"domain"`
	Pages         []company.Page `json:"-"`
	Listed        []Listed       `json:"listed"`
	RoleAddresses []string       `json:"role_addresses,omitempty"`
	// Layouts[k] is how Pages[k] marks its people up: one of teamLayouts for a
	// leadership page, "contact" for the contact page, "list" for an archived team page.
	Layouts []string `json:"-"`
}

// teamLayouts are how a leadership page marks its people up.
var teamLayouts = []string{"jsonld", "microdata", "hcard", "cards", "table", "dl", "lines"}

// teamSiteText is the text of the new pages per language: paths, headings and role
// mailboxes with the label shown next to them.
var teamSiteText = map[string]struct {
	leadPath, leadTitle, contactPath, contactTitle, archivePath, archiveTitle string
	roles                                                                     [][2]string // label, mailbox
}{
	"en": {"/leadership", "Leadership", "/contact", "Contact us", "/about/team-archive", "Our team", [][2]string{{"Sales", "sales"}, {"Press", "press"}, {"Careers", "jobs"}, {"General enquiries", "info"}}},
	"de": {"/unternehmen/geschaeftsleitung", "Geschäftsleitung", "/kontakt", "Kontakt", "/archiv/team", "Unser Team", [][2]string{{"Vertrieb", "vertrieb"}, {"Presse", "presse"}, {"Karriere", "karriere"}, {"Allgemeine Anfragen", "info"}}},
	"fr": {"/direction", "Direction", "/contact", "Contact", "/archives/equipe", "Notre équipe", [][2]string{{"Service commercial", "commercial"}, {"Presse", "presse"}, {"Recrutement", "rh"}, {"Renseignements", "contact"}}},
	"es": {"/direccion", "Equipo directivo", "/contacto", "Contacto", "/archivo/equipo", "Nuestro equipo", [][2]string{{"Ventas", "ventas"}, {"Prensa", "prensa"}, {"Empleo", "empleo"}, {"Información general", "info"}}},
	"pt": {"/lideranca", "Liderança", "/contacto", "Contacto", "/arquivo/equipa", "A nossa equipa", [][2]string{{"Vendas", "vendas"}, {"Imprensa", "press"}, {"Carreiras", "jobs"}, {"Informações", "geral"}}},
	"it": {"/direzione", "Direzione", "/contatti", "Contatti", "/archivio/team", "Il nostro team", [][2]string{{"Ufficio vendite", "vendite"}, {"Stampa", "press"}, {"Lavora con noi", "jobs"}, {"Informazioni", "info"}}},
	"nl": {"/over-ons/directie", "Directie", "/contact", "Contact", "/archief/team", "Ons team", [][2]string{{"Verkoop", "verkoop"}, {"Pers", "press"}, {"Vacatures", "jobs"}, {"Algemene vragen", "info"}}},
}

// TeamSite generates company i's people pages; c is w.Company(i). A company without a
// live site (closed and parked, redirected, no pages) has none, and then lists only
// what its Company pages list.
func (w *World) TeamSite(i int, c Company) TeamSite {
	s := w.skel[i]
	ts := TeamSite{Domain: s.domain}
	listed := map[string]int{}
	add := func(p Person, pageURL string, left bool) {
		k, ok := listed[p.Name]
		if !ok {
			dept, sen := titleTruthOf(p.Title)
			ts.Listed = append(ts.Listed, Listed{Name: p.Name, Title: p.Title, Department: dept, Seniority: sen, Left: left})
			k = len(ts.Listed) - 1
			listed[p.Name] = k
		}
		l := &ts.Listed[k]
		l.Pages = append(l.Pages, pageURL)
		if l.Email == "" {
			l.Email = p.Email
		}
	}
	lx := lexicons()[s.lang]
	var home *company.Page
	for k, p := range c.Pages {
		if p.StatusCode != 200 {
			continue
		}
		if strings.HasSuffix(p.URL, lx.one("team.path")) {
			for _, m := range c.Truth.Team {
				add(m, p.URL, false)
			}
		} else if home == nil {
			home = &c.Pages[k]
		}
	}
	if home == nil || len(c.Truth.Team) == 0 {
		return ts
	}
	u, err := url.Parse(home.URL)
	if err != nil {
		return ts
	}
	base := "https://" + u.Host
	r := w.rng(i, streamTeamSite)
	txt := teamSiteText[s.lang]
	year := home.FetchedAt.Year()
	fetched := home.FetchedAt.Add(time.Duration(1+r.IntN(900)) * time.Second)
	name := shortName(s)

	// The leadership page: the managers among the team (the first person always).
	if r.IntN(100) < 65 {
		var leaders []Person
		for k, m := range c.Truth.Team {
			if _, sen := titleTruthOf(m.Title); k == 0 || sen == "executive" || sen == "vp" || sen == "director" {
				leaders = append(leaders, m)
			}
		}
		layout := pick(r, teamLayouts)
		pageURL := base + txt.leadPath
		body := leadershipHTML(r, s.lang, name, txt.leadTitle, layout, leaders, s.domain, year)
		ts.Pages = append(ts.Pages, company.Page{URL: pageURL, StatusCode: 200, FetchedAt: fetched, HTML: body})
		ts.Layouts = append(ts.Layouts, layout)
		for _, m := range leaders {
			if layout != "jsonld" && layout != "microdata" && layout != "hcard" && layout != "cards" {
				m.Email = "" // the plain layouts show no addresses
			}
			add(m, pageURL, false)
		}
	}
	// The contact page: role mailboxes in cards shaped like people's.
	if r.IntN(100) < 55 {
		pageURL := base + txt.contactPath
		var b strings.Builder
		fmt.Fprintf(&b, "<!DOCTYPE html>\n<html lang=\"%s\">\n<head>\n<meta charset=\"utf-8\">\n<title>%s | %s</title>\n</head>\n<body>\n<main>\n<h1>%s</h1>\n<div class=\"contact-grid\">\n", s.lang, esc(txt.contactTitle), esc(name), esc(txt.contactTitle))
		roles := append([][2]string(nil), txt.roles...)
		r.Shuffle(len(roles), func(a, b int) { roles[a], roles[b] = roles[b], roles[a] })
		for _, ro := range roles[:2+r.IntN(len(roles)-1)] {
			addr := ro[1] + "@" + s.domain
			ts.RoleAddresses = append(ts.RoleAddresses, addr)
			fmt.Fprintf(&b, "<div class=\"card\"><h3>%s</h3><p><a href=\"mailto:%s\">%s</a></p></div>\n", esc(ro[0]), addr, addr)
		}
		fmt.Fprintf(&b, "</div>\n</main>\n<footer><p>© %d %s</p></footer>\n</body>\n</html>\n", year, esc(s.name))
		ts.Pages = append(ts.Pages, company.Page{URL: pageURL, StatusCode: 200, FetchedAt: fetched.Add(time.Second), HTML: b.String()})
		ts.Layouts = append(ts.Layouts, "contact")
	}
	// An archived team page from a few years ago: some of today's team and people who
	// have since left.
	if r.IntN(100) < 20 {
		old := year - 3 - r.IntN(4)
		pageURL := base + txt.archivePath
		var members []Person
		for _, m := range c.Truth.Team {
			if r.IntN(2) == 0 {
				m.Email = ""
				members = append(members, m)
			}
		}
		var gone []Person
		titles := lx.list("title")
		for n := 1 + r.IntN(3); len(gone) < n; {
			p := Person{Name: pick(r, lx.list(pick(r, []string{"first.m", "first.f"}))) + " " + pick(r, lx.list("last")), Title: pick(r, titles)}
			if _, dup := listed[p.Name]; dup || containsPerson(members, p.Name) || containsPerson(gone, p.Name) || containsPerson(c.Truth.Team, p.Name) {
				continue
			}
			gone = append(gone, p)
		}
		all := append(append([]Person(nil), members...), gone...)
		r.Shuffle(len(all), func(a, b int) { all[a], all[b] = all[b], all[a] })
		var b strings.Builder
		fmt.Fprintf(&b, "<!DOCTYPE html>\n<html lang=\"%s\">\n<head>\n<meta charset=\"utf-8\">\n<title>%s %d | %s</title>\n</head>\n<body>\n<main>\n<h1>%s</h1>\n<ul class=\"team\">\n", s.lang, esc(txt.archiveTitle), old, esc(name), esc(txt.archiveTitle))
		for _, m := range all {
			fmt.Fprintf(&b, "<li class=\"member\"><h3>%s</h3><p class=\"role\">%s</p></li>\n", esc(m.Name), esc(m.Title))
		}
		fmt.Fprintf(&b, "</ul>\n</main>\n<footer><p>© %d %s</p></footer>\n</body>\n</html>\n", old, esc(s.name))
		ts.Pages = append(ts.Pages, company.Page{URL: pageURL, StatusCode: 200, FetchedAt: time.Date(old, time.Month(1+r.IntN(12)), 1+r.IntN(28), 12, 0, 0, 0, time.UTC), HTML: b.String()})
		ts.Layouts = append(ts.Layouts, "list")
		for _, m := range members {
			add(m, pageURL, false)
		}
		for _, m := range gone {
			add(m, pageURL, true)
		}
	}
	return ts
}

func containsPerson(ps []Person, name string) bool {
	for _, p := range ps {
		if p.Name == name {
			return true
		}
	}
	return false
}

// leadershipHTML writes a leadership page in one of the layouts.
func leadershipHTML(r *rand.Rand, lang, name, heading, layout string, people []Person, dom string, year int) string {
	var b strings.Builder
	fmt.Fprintf(&b, "<!DOCTYPE html>\n<html lang=\"%s\">\n<head>\n<meta charset=\"utf-8\">\n<title>%s | %s</title>\n", lang, esc(heading), esc(name))
	if layout == "jsonld" {
		type ldPerson struct {
			Type     string `json:"@type"`
			Name     string `json:"name"`
			JobTitle string `json:"jobTitle"`
			Email    string `json:"email,omitempty"`
		}
		org := struct {
			Context  string     `json:"@context"`
			Type     string     `json:"@type"`
			Name     string     `json:"name"`
			URL      string     `json:"url"`
			Employee []ldPerson `json:"employee"`
		}{Context: "https://schema.org", Type: "Organization", Name: name, URL: "https://" + dom + "/"}
		for _, p := range people {
			org.Employee = append(org.Employee, ldPerson{Type: "Person", Name: p.Name, JobTitle: p.Title, Email: p.Email})
		}
		raw, _ := json.Marshal(org)
		fmt.Fprintf(&b, "<script type=\"application/ld+json\">%s</script>\n", raw)
	}
	fmt.Fprintf(&b, "</head>\n<body>\n<main>\n<h1>%s</h1>\n", esc(heading))
	switch layout {
	case "jsonld":
		b.WriteString("<div class=\"portraits\">\n")
		for _, p := range people {
			fmt.Fprintf(&b, "<figure><img src=\"/img/%s.jpg\" alt=\"%s\"><figcaption>%s</figcaption></figure>\n", slug(p.Name, true), esc(p.Name), esc(p.Name))
		}
		b.WriteString("</div>\n")
	case "microdata":
		for _, p := range people {
			fmt.Fprintf(&b, "<div itemscope itemtype=\"https://schema.org/Person\"><h2 itemprop=\"name\">%s</h2><p itemprop=\"jobTitle\">%s</p>", esc(p.Name), esc(p.Title))
			if p.Email != "" {
				fmt.Fprintf(&b, "<a itemprop=\"email\" href=\"mailto:%s\">%s</a>", esc(p.Email), esc(p.Email))
			}
			b.WriteString("</div>\n")
		}
	case "hcard":
		for _, p := range people {
			fmt.Fprintf(&b, "<div class=\"vcard\"><span class=\"fn\">%s</span> <span class=\"title\">%s</span>", esc(p.Name), esc(p.Title))
			if p.Email != "" {
				fmt.Fprintf(&b, " <a class=\"email\" href=\"mailto:%s\">%s</a>", esc(p.Email), esc(p.Email))
			}
			b.WriteString("</div>\n")
		}
	case "cards":
		b.WriteString("<div class=\"grid\">\n")
		for _, p := range people {
			if r.IntN(2) == 0 { // some sites put the title above the name
				fmt.Fprintf(&b, "<div class=\"card\"><h3>%s</h3><p>%s</p>", esc(p.Name), esc(p.Title))
			} else {
				fmt.Fprintf(&b, "<div class=\"card\"><p class=\"kicker\">%s</p><h3>%s</h3>", esc(p.Title), esc(p.Name))
			}
			if p.Email != "" {
				fmt.Fprintf(&b, "<a href=\"mailto:%s\">%s</a>", esc(p.Email), esc(p.Email))
			}
			b.WriteString("</div>\n")
		}
		b.WriteString("</div>\n")
	case "table":
		b.WriteString("<table>\n")
		for _, p := range people {
			fmt.Fprintf(&b, "<tr><td>%s</td><td>%s</td></tr>\n", esc(p.Name), esc(p.Title))
		}
		b.WriteString("</table>\n")
	case "dl":
		b.WriteString("<dl>\n")
		for _, p := range people {
			fmt.Fprintf(&b, "<dt>%s</dt><dd>%s</dd>\n", esc(p.Name), esc(p.Title))
		}
		b.WriteString("</dl>\n")
	default: // lines
		b.WriteString("<section class=\"leadership\">\n")
		for _, p := range people {
			fmt.Fprintf(&b, "<p>%s – %s</p>\n", esc(p.Name), esc(p.Title))
		}
		b.WriteString("</section>\n")
	}
	fmt.Fprintf(&b, "</main>\n<footer><p>© %d %s</p></footer>\n</body>\n</html>\n", year, esc(name))
	return b.String()
}

// titleTruth labels the world's team-page titles (lexicon "title", the same twelve
// roles in each language) with their department and the rank the title states.
var titleTruth = map[string][2]string{
	// en
	"Chief Executive Officer": {"Executive", "executive"}, "Chief Technology Officer": {"Technology", "executive"},
	"Chief Financial Officer": {"Finance", "executive"}, "Head of Sales": {"Sales - Marketing", "director"},
	"Marketing Manager": {"Sales - Marketing", "manager"}, "Operations Director": {"Operations", "director"},
	"Senior Software Engineer": {"Technology", "senior_ic"}, "Head of Customer Success": {"Customer Service", "director"},
	"HR Manager": {"Human Resources", "manager"}, "Product Manager": {"Technology", "manager"},
	"Account Executive": {"Sales - Marketing", "mid_level"}, "Office Manager": {"Administration", "manager"},
	// de
	"Geschäftsführer": {"Executive", "executive"}, "Technischer Leiter": {"Technology", "director"},
	"Leiterin Finanzen": {"Finance", "director"}, "Vertriebsleiter": {"Sales - Marketing", "director"},
	"Marketing Managerin": {"Sales - Marketing", "manager"}, "Leiter Betrieb": {"Operations", "director"},
	"Softwareentwickler": {"Technology", "mid_level"}, "Kundenbetreuerin": {"Customer Service", "mid_level"},
	"Personalreferentin": {"Human Resources", "mid_level"}, "Produktmanager": {"Technology", "manager"},
	"Key Account Manager": {"Sales - Marketing", "manager"}, "Assistenz der Geschäftsführung": {"Administration", "entry_level"},
	// fr
	"Président-directeur général": {"Executive", "executive"}, "Directeur technique": {"Technology", "director"},
	"Directrice financière": {"Finance", "director"}, "Directeur commercial": {"Sales - Marketing", "director"},
	"Responsable marketing": {"Sales - Marketing", "manager"}, "Directrice des opérations": {"Operations", "director"},
	"Ingénieur logiciel": {"Technology", "mid_level"}, "Chargée de clientèle": {"Customer Service", "mid_level"},
	"Responsable des ressources humaines": {"Human Resources", "manager"}, "Chef de produit": {"Technology", "manager"},
	"Ingénieur d'affaires": {"Sales - Marketing", "mid_level"}, "Assistante de direction": {"Administration", "entry_level"},
	// es
	"Director general": {"Executive", "executive"}, "Director de tecnología": {"Technology", "director"},
	"Directora financiera": {"Finance", "director"}, "Director comercial": {"Sales - Marketing", "director"},
	"Responsable de marketing": {"Sales - Marketing", "manager"}, "Directora de operaciones": {"Operations", "director"},
	"Ingeniero de software": {"Technology", "mid_level"}, "Gestora de clientes": {"Customer Service", "manager"},
	"Responsable de recursos humanos": {"Human Resources", "manager"}, "Jefe de producto": {"Technology", "manager"},
	"Ejecutivo de cuentas": {"Sales - Marketing", "mid_level"}, "Asistente de dirección": {"Administration", "entry_level"},
	// pt
	"Diretor executivo": {"Executive", "executive"}, "Diretor de tecnologia": {"Technology", "director"},
	"Diretora financeira": {"Finance", "director"}, "Diretor comercial": {"Sales - Marketing", "director"},
	"Gestora de marketing": {"Sales - Marketing", "manager"}, "Diretora de operações": {"Operations", "director"},
	"Engenheiro de software":          {"Technology", "mid_level"},
	"Responsável de recursos humanos": {"Human Resources", "manager"}, "Gestor de produto": {"Technology", "manager"},
	"Executivo de contas": {"Sales - Marketing", "mid_level"}, "Assistente de direção": {"Administration", "entry_level"},
	// it
	"Amministratore delegato": {"Executive", "executive"}, "Direttore tecnico": {"Technology", "director"},
	"Direttrice finanziaria": {"Finance", "director"}, "Direttore commerciale": {"Sales - Marketing", "director"},
	"Responsabile marketing": {"Sales - Marketing", "manager"}, "Direttrice operativa": {"Operations", "director"},
	"Ingegnere del software": {"Technology", "mid_level"}, "Responsabile clienti": {"Customer Service", "manager"},
	"Responsabile risorse umane": {"Human Resources", "manager"}, "Product manager": {"Technology", "manager"},
	"Account manager": {"Sales - Marketing", "manager"}, "Assistente di direzione": {"Administration", "entry_level"},
	// nl
	"Algemeen directeur": {"Executive", "executive"}, "Technisch directeur": {"Technology", "director"},
	"Financieel directeur": {"Finance", "director"}, "Commercieel directeur": {"Sales - Marketing", "director"},
	"Marketingmanager": {"Sales - Marketing", "manager"}, "Operationeel manager": {"Operations", "manager"},
	"Softwareontwikkelaar": {"Technology", "mid_level"}, "Klantadviseur": {"Customer Service", "mid_level"},
	"HR-adviseur": {"Human Resources", "mid_level"}, "Productmanager": {"Technology", "manager"},
	"Accountmanager": {"Sales - Marketing", "manager"}, "Officemanager": {"Administration", "manager"},
}

// titleTruthOf returns a title's labels; "" for a title outside the table (a test
// keeps the table complete).
func titleTruthOf(t string) (dept, seniority string) {
	v := titleTruth[t]
	return v[0], v[1]
}
