package people

import (
	"fmt"
	"math/rand/v2"
	"sort"
	"strings"
	"testing"
)

// The title robustness test puts invented people into the layouts team pages use,
// each card with the lines real cards carry around a title (a line of degrees
// before it, a town, a phone, an e-mail, a bio or a "since" line after it, a field
// label, a title broken over two lines, a role label above the name, the title stated
// only in the bio), and measures the exact title per kind and per layout. The titles,
// towns and bios are the team's own, written for this test.

// titleCard is what a kind writes around a person's title: the lines under the name
// (raw HTML of each line; one line may hold a <br>), the lines above it, and the
// title the extraction should give.
type titleCard struct {
	above, below []string
	after        string // raw HTML right after the name, in its element
	want         string
}

// roleTitles are titles by language, for the kinds that need one language.
var roleTitles = map[string][]string{
	"en": {"Managing Director", "Chief Financial Officer", "Head of Marketing", "Office Manager", "Software Engineer", "Treasurer", "Senior Consultant", "Project Manager", "Head of Operations", "Communications Officer"},
	"de": {"Geschäftsführer", "Leiterin Vertrieb", "Projektleiterin", "Kassenwartin", "Referentin für Öffentlichkeitsarbeit", "Softwareentwickler", "Vorsitzender", "Steuerberaterin"},
	"fr": {"Directrice générale", "Responsable RH", "Chargée de communication", "Trésorier", "Chef de projet", "Ingénieur logiciel", "Directeur technique"},
	"es": {"Director Comercial", "Presidenta", "Tesorero", "Coordinadora de proyectos", "Responsable de comunicación", "Gerente general"},
	"it": {"Direttore Tecnico", "Responsabile Amministrativo", "Presidente", "Segretaria", "Coordinatrice dei progetti"},
	"nl": {"Projectleider", "Directeur", "Penningmeester", "Beleidsmedewerker", "Office manager"},
}

// twoLine are titles pages break over two lines, as the two lines.
var twoLine = [][2]string{{"Head of Research", "and Development"}, {"Geschäftsführerin", "Vertrieb und Marketing"}, {"Directrice", "et Neuropsychologue"},
	{"Senior Manager", "Public Affairs"}, {"Responsable", "des partenariats"}, {"Vice President", "Customer Success"}, {"Leiter", "Finanzen und Controlling"}}

var (
	degreeLines = []string{"M.Sc., MBA", "Dipl.-Ing. (FH)", "Ph.D.", "Dr. rer. nat.", "LL.M.", "Dipl.-Kfm.", "MBA", "B.A., M.A.", "Licenciada en Derecho", "Diplom-Kauffrau", "Master en Finance", "Bachelor of Arts", "Laurea in Economia"}
	townLines   = []string{"Berlin", "Paris, France", "München", "Madrid", "Amsterdam, NL", "London", "Lyon", "Wien"}
	bioLines    = []string{
		"She joined the company in 2015 after ten years in consulting and now looks after our public sector clients.",
		"Seit 2012 im Team und zuständig für alle Fragen rund um Verträge und Abrechnung.",
		"Avant de nous rejoindre, il a travaillé dix ans dans le conseil en stratégie.",
		"Antes trabajó en varias empresas del sector energético en Bilbao y Sevilla.",
		"He has over twenty years of experience in logistics, finance and operations.",
	}
	oddTitles     = []string{"Head of Tier 2 Support", "Teacher (Grades 3–5)", "Coordinator, Year 7", "Leiterin Kita 2", "Director, Region 5", "Co-Founder & CEO", "Partner | Rechtsanwalt", "Geschäftsführer / CEO", "VP, People & Culture", "Directeur R&D", "Responsable Marketing & Communication digitale", "Chief of Staff to the CEO", "Head of Sales DACH", "Senior Consultant SAP S/4HANA"}
	wordTitles    = []string{"Sommelier", "Barista", "Bookkeeper", "Webmaster", "Florist", "Dean", "Provost", "Chaplain", "Pastor", "Kantor", "Küster", "Hausmeister", "Mesnerin", "Organist", "Sous Chef", "Head Chef", "Art Director", "Brand Ambassador", "Mentor", "Ombudsperson", "Hebamme", "Erzieherin", "Notaire", "Avocate", "Kinésithérapeute", "Enfermera", "Fisioterapeuta", "Maestra", "Tierärztin", "Gärtner", "Kassenprüferin", "Administradora", "Jugendwartin"}
	employerLines = []string{"Acme Holding GmbH", "Northwind Traders Ltd.", "Université de Lyon", "Fundación Horizonte", "Studio Verde S.r.l."}
	quoteLines    = []string{"“I love solving hard problems.”", "\"Coffee first.\"", "«Toujours en mouvement»"}
	detailLines   = []string{"Languages: English, German", "Sprachen: Deutsch, Englisch", "Room 204", "Raum C 3.05", "Mo–Fr 9–12 Uhr", "Office hours: Tue 2–4 pm", "Langues : français, anglais"}
	sinceLines    = []string{"Since 2019", "Seit 2018 im Team", "Depuis 2020", "Desde 2017", "Joined 2021"}
	labels        = []string{"Position", "Funktion", "Fonction", "Cargo", "Role", "Ruolo"}
)

// bioStatements state a title in a sentence, by language: the sentence with %s for
// the given name and %s for the title, and the title pool to draw from.
var bioStatements = []struct{ lang, text string }{
	{"en", "%s is the %s of Acme and joined the company in 2015. Before that, she worked in consulting."},
	{"en", "%s works as %s at Acme, where he looks after our clients in the north."},
	{"de", "%s ist seit 2014 %s bei der Acme GmbH. Zuvor war sie in der Beratung tätig."},
	{"de", "%s arbeitet als %s bei Acme und betreut unsere Kunden im Norden."},
	{"fr", "%s est %s chez Acme depuis 2016. Auparavant, elle a travaillé dans le conseil."},
	{"es", "%s es el %s de Acme desde 2018. Antes trabajó en el sector energético."},
	{"it", "%s è il %s di Acme dal 2019. In precedenza ha lavorato nella consulenza."},
	{"nl", "%s is %s bij Acme en werkt sinds 2015 in ons team."},
}

// titleKinds are the ways a card writes the lines around a title.
var titleKinds = []struct {
	key  string
	card func(r *rand.Rand, first string) titleCard
}{
	{"plain", func(r *rand.Rand, _ string) titleCard {
		t := pickTitle(r)
		return titleCard{below: []string{esc(t)}, want: t}
	}},
	{"degree-line", func(r *rand.Rand, _ string) titleCard {
		t := pickTitle(r)
		return titleCard{below: []string{esc(degreeLines[r.IntN(len(degreeLines))]), esc(t)}, want: t}
	}},
	{"then-town", func(r *rand.Rand, _ string) titleCard {
		t := pickTitle(r)
		return titleCard{below: []string{esc(t), esc(townLines[r.IntN(len(townLines))])}, want: t}
	}},
	{"then-phone", func(r *rand.Rand, _ string) titleCard {
		t := pickTitle(r)
		return titleCard{below: []string{esc(t), fmt.Sprintf("+49 30 %d %d", 100+r.IntN(900), 1000+r.IntN(9000))}, want: t}
	}},
	{"then-email", func(r *rand.Rand, first string) titleCard {
		t := pickTitle(r)
		m := strings.ToLower(foldLatin(strings.Fields(first)[0])) + "@acme.example"
		return titleCard{below: []string{esc(t), `<a href="mailto:` + m + `">` + m + `</a>`}, want: t}
	}},
	{"then-bio", func(r *rand.Rand, _ string) titleCard {
		t := pickTitle(r)
		return titleCard{below: []string{esc(t), esc(bioLines[r.IntN(len(bioLines))])}, want: t}
	}},
	{"then-since", func(r *rand.Rand, _ string) titleCard {
		t := pickTitle(r)
		return titleCard{below: []string{esc(t), esc(sinceLines[r.IntN(len(sinceLines))])}, want: t}
	}},
	{"field-label", func(r *rand.Rand, _ string) titleCard {
		t := pickTitle(r)
		return titleCard{below: []string{esc(labels[r.IntN(len(labels))]) + ": " + esc(t)}, want: t}
	}},
	{"two-line", func(r *rand.Rand, _ string) titleCard {
		tl := twoLine[r.IntN(len(twoLine))]
		return titleCard{below: []string{esc(tl[0]) + "<br>" + esc(tl[1])}, want: tl[0] + " " + tl[1]}
	}},
	{"label-above", func(r *rand.Rand, _ string) titleCard {
		t := pickTitle(r)
		return titleCard{above: []string{esc(t)}, want: t}
	}},
	{"then-address", func(r *rand.Rand, _ string) titleCard {
		t := pickTitle(r)
		return titleCard{below: []string{esc(t), "Hauptstraße 12", fmt.Sprintf("%d Berlin", 10115+r.IntN(900))}, want: t}
	}},
	{"label-colon", func(r *rand.Rand, _ string) titleCard {
		t := pickTitle(r)
		return titleCard{above: []string{esc(t) + ":"}, want: t}
	}},
	{"same-line-paren", func(r *rand.Rand, _ string) titleCard {
		t := pickTitle(r)
		return titleCard{after: " (" + esc(t) + ")", want: t}
	}},
	{"same-line-comma", func(r *rand.Rand, _ string) titleCard {
		t := pickTitle(r)
		return titleCard{after: ", " + esc(t), want: t}
	}},
	{"same-line-dash", func(r *rand.Rand, _ string) titleCard {
		t := pickTitle(r)
		return titleCard{after: " – " + esc(t), want: t}
	}},
	{"same-line-small", func(r *rand.Rand, _ string) titleCard {
		t := pickTitle(r)
		return titleCard{after: " <small>" + esc(t) + "</small>", want: t}
	}},
	{"post-nominal", func(r *rand.Rand, _ string) titleCard {
		t := pickTitle(r)
		return titleCard{after: esc(postNominals[r.IntN(len(postNominals))]), below: []string{esc(t)}, want: t}
	}},
	{"comma-then-bio", func(r *rand.Rand, _ string) titleCard {
		t := pickTitle(r)
		return titleCard{after: ", " + esc(t), below: []string{esc(bioLines[r.IntN(len(bioLines))])}, want: t}
	}},
	{"then-employer", func(r *rand.Rand, _ string) titleCard {
		t := pickTitle(r)
		return titleCard{below: []string{esc(t), esc(employerLines[r.IntN(len(employerLines))])}, want: t}
	}},
	{"then-quote", func(r *rand.Rand, _ string) titleCard {
		t := pickTitle(r)
		return titleCard{below: []string{esc(t), esc(quoteLines[r.IntN(len(quoteLines))])}, want: t}
	}},
	{"then-detail", func(r *rand.Rand, _ string) titleCard {
		t := pickTitle(r)
		return titleCard{below: []string{esc(t), esc(detailLines[r.IntN(len(detailLines))])}, want: t}
	}},
	{"town-first", func(r *rand.Rand, _ string) titleCard {
		t := pickTitle(r)
		return titleCard{below: []string{esc(townLines[r.IntN(len(townLines))]), esc(t)}, want: t}
	}},
	{"employer-first", func(r *rand.Rand, _ string) titleCard {
		t := pickTitle(r)
		return titleCard{below: []string{esc(employerLines[r.IntN(len(employerLines))]), esc(t)}, want: t}
	}},
	{"odd-title", func(r *rand.Rand, _ string) titleCard {
		t := oddTitles[r.IntN(len(oddTitles))]
		return titleCard{below: []string{esc(t)}, want: t}
	}},
	{"plain-word-title", func(r *rand.Rand, _ string) titleCard {
		t := wordTitles[r.IntN(len(wordTitles))]
		return titleCard{below: []string{esc(t)}, want: t}
	}},
	{"bio-only", func(r *rand.Rand, first string) titleCard {
		s := bioStatements[r.IntN(len(bioStatements))]
		pool := roleTitles[s.lang]
		t := pool[r.IntN(len(pool))]
		return titleCard{below: []string{esc(fmt.Sprintf(s.text, first, t))}, want: t}
	}},
}

func pickTitle(r *rand.Rand) string {
	langs := []string{"en", "de", "fr", "es", "it", "nl"}
	pool := roleTitles[langs[r.IntN(len(langs))]]
	return pool[r.IntN(len(pool))]
}

// titleLayouts write a page of cards: each card's name (HTML) and its titleCard.
var titleLayouts = []struct {
	key  string
	page func(names []string, cs []titleCard) string
}{
	{"cards", func(ns []string, cs []titleCard) string {
		var b strings.Builder
		b.WriteString(`<h1>Acme</h1><h2>Our team</h2><div class="team">`)
		for i, n := range ns {
			b.WriteString(`<div class="team-member"><img src="p.jpg" alt="">`)
			for _, a := range cs[i].above {
				fmt.Fprintf(&b, `<p class="label">%s</p>`, a)
			}
			fmt.Fprintf(&b, `<h3>%s</h3>`, n+cs[i].after)
			for _, x := range cs[i].below {
				fmt.Fprintf(&b, `<p>%s</p>`, x)
			}
			b.WriteString(`</div>`)
		}
		return b.String() + `</div>`
	}},
	{"br-lines", func(ns []string, cs []titleCard) string {
		var b strings.Builder
		b.WriteString(`<h2>Ansprechpartner</h2>`)
		for i, n := range ns {
			b.WriteString(`<p>`)
			for _, a := range cs[i].above {
				b.WriteString(a + `<br>`)
			}
			b.WriteString(n + cs[i].after)
			for _, x := range cs[i].below {
				b.WriteString(`<br>` + x)
			}
			b.WriteString(`</p>`)
		}
		return b.String()
	}},
	{"strong-br", func(ns []string, cs []titleCard) string {
		var b strings.Builder
		b.WriteString(`<div class="entry-content">`)
		for i, n := range ns {
			b.WriteString(`<p>`)
			for _, a := range cs[i].above {
				b.WriteString(`<em>` + a + `</em><br>`)
			}
			b.WriteString(`<strong>` + n + `</strong>` + cs[i].after)
			for _, x := range cs[i].below {
				b.WriteString(`<br>` + x)
			}
			b.WriteString(`</p>`)
		}
		return b.String() + `</div>`
	}},
	{"headings", func(ns []string, cs []titleCard) string {
		var b strings.Builder
		b.WriteString(`<h1>About us</h1><h2>Management</h2>`)
		for i, n := range ns {
			for _, a := range cs[i].above {
				fmt.Fprintf(&b, `<h5>%s</h5>`, a)
			}
			fmt.Fprintf(&b, `<h4>%s</h4>`, n+cs[i].after)
			for _, x := range cs[i].below {
				fmt.Fprintf(&b, `<p>%s</p>`, x)
			}
		}
		return b.String()
	}},
	{"linked-cards", func(ns []string, cs []titleCard) string {
		var b strings.Builder
		b.WriteString(`<section><h2>Leadership</h2><div class="row">`)
		for i, n := range ns {
			fmt.Fprintf(&b, `<div class="col-md-4"><img src="p%d.jpg" alt="">`, i)
			for _, a := range cs[i].above {
				fmt.Fprintf(&b, `<span class="kicker">%s</span>`, a)
			}
			fmt.Fprintf(&b, `<h5><a href="/team/p%d">%s</a>%s</h5>`, i, n, cs[i].after)
			for _, x := range cs[i].below {
				fmt.Fprintf(&b, `<div>%s</div>`, x)
			}
			fmt.Fprintf(&b, `<a href="https://www.linkedin.com/in/p%d">LinkedIn</a></div>`, i)
		}
		return b.String() + `</div></section>`
	}},
	{"list-items", func(ns []string, cs []titleCard) string {
		var b strings.Builder
		b.WriteString(`<h2>Team</h2><ul class="staff">`)
		for i, n := range ns {
			b.WriteString(`<li>`)
			for _, a := range cs[i].above {
				fmt.Fprintf(&b, `<small>%s</small><br>`, a)
			}
			fmt.Fprintf(&b, `<b>%s</b>%s`, n, cs[i].after)
			for _, x := range cs[i].below {
				fmt.Fprintf(&b, `<br>%s`, x)
			}
			b.WriteString(`</li>`)
		}
		return b.String() + `</ul>`
	}},
	{"table", func(ns []string, cs []titleCard) string {
		var b strings.Builder
		b.WriteString(`<h2>Kontakt</h2><table>`)
		for i, n := range ns {
			b.WriteString(`<tr><td><img src="p.jpg" alt=""></td><td>`)
			for _, a := range cs[i].above {
				b.WriteString(a + `<br>`)
			}
			b.WriteString(`<strong>` + n + `</strong>` + cs[i].after)
			for _, x := range cs[i].below {
				b.WriteString(`<br>` + x)
			}
			b.WriteString(`</td></tr>`)
		}
		return b.String() + `</table>`
	}},
	{"figure", func(ns []string, cs []titleCard) string {
		var b strings.Builder
		b.WriteString(`<h2>Team</h2><div class="gallery">`)
		for i, n := range ns {
			b.WriteString(`<figure><img src="p.jpg" alt=""><figcaption>`)
			for _, a := range cs[i].above {
				b.WriteString(a + `<br>`)
			}
			b.WriteString(n + cs[i].after)
			for _, x := range cs[i].below {
				b.WriteString(`<br>` + x)
			}
			b.WriteString(`</figcaption></figure>`)
		}
		return b.String() + `</div>`
	}},
}

// titleRobustness runs the generator and returns the tallies per kind and layout.
func titleRobustness(t *testing.T, pagesPer int) (byKind, byLayout map[string]*tally, total *tally, wrong []string) {
	r := rand.New(rand.NewPCG(33, 7))
	byKind, byLayout, total = map[string]*tally{}, map[string]*tally{}, &tally{}
	get := func(m map[string]*tally, k string) *tally {
		if m[k] == nil {
			m[k] = &tally{}
		}
		return m[k]
	}
	pool := origins[:6] // names the model knows: the titles are what is measured here
	for _, kind := range titleKinds {
		for _, lay := range titleLayouts {
			for n := 0; n < pagesPer; n++ {
				ns, cs, want := make([]string, 3), make([]titleCard, 3), make([]string, 3)
				seen := map[string]bool{}
				for i := range ns {
					var a aName
					for {
						a = genName(r, pool[r.IntN(len(pool))], "plain")
						if !seen[NameKey(a.want)] {
							break
						}
					}
					seen[NameKey(a.want)] = true
					ns[i], want[i] = esc(a.written), a.want
					cs[i] = kind.card(r, strings.Fields(a.want)[0])
				}
				got := map[string]Person{}
				for _, p := range Extract(lay.page(ns, cs), "https://acme.example/team/", Options{}) {
					got[matchKey(p.Name)] = p
				}
				for i := range ns {
					ts := []*tally{get(byKind, kind.key), get(byLayout, lay.key), total}
					for _, tl := range ts {
						tl.want++
					}
					p, ok := got[matchKey(want[i])]
					if !ok {
						continue
					}
					for _, tl := range ts {
						tl.got++
						tl.titled++
						if p.Title == cs[i].want {
							tl.titleOK++
						}
					}
					if p.Title != cs[i].want {
						wrong = append(wrong, fmt.Sprintf("%s/%s: %q: %q, want %q", kind.key, lay.key, want[i], p.Title, cs[i].want))
					}
				}
			}
		}
	}
	return
}

// TestTitleRobustness holds the exact title of invented people, in every layout,
// with the lines real cards carry around a title, to a floor per kind and layout.
func TestTitleRobustness(t *testing.T) {
	pages := 4
	if testing.Short() {
		pages = 2
	}
	byKind, byLayout, total, wrong := titleRobustness(t, pages)
	report := func(what string, m map[string]*tally) {
		keys := make([]string, 0, len(m))
		for k := range m {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		for _, k := range keys {
			t.Logf("%-7s %-14s %s", what, k, m[k])
		}
	}
	report("kind", byKind)
	report("layout", byLayout)
	t.Logf("total %s", total)
	if testing.Verbose() {
		for _, w := range wrong {
			t.Logf("wrong %s", w)
		}
	}
	for what, m := range map[string]map[string]*tally{"kind": byKind, "layout": byLayout} {
		for k, tl := range m {
			floor, ok := titleFloors[k]
			if !ok {
				floor = titleFloor
			}
			if float64(tl.titleOK) < floor*float64(tl.titled) {
				t.Errorf("%s %s: titles %.3f below %.2f", what, k, float64(tl.titleOK)/float64(tl.titled), floor)
			}
		}
	}
}

// titleFloors are the exact-title shares the kinds and layouts below the rest must
// reach; every other class must reach titleFloor. A one- or two-word title whose
// words the name model knows as names ("Brand Ambassador", "Sous Chef") on a line of
// the name's own block reads as a second person there: nothing on such a page tells
// it from a name.
var titleFloors = map[string]float64{"plain-word-title": 0.94}

const titleFloor = 0.97

// roleLedLayouts write pages where the title comes first or sits apart from the name:
// a title heading over the name, a definition list of roles, a table whose rows pair
// names and titles, a role label in bold over the name, role and name columns.
var roleLedLayouts = []struct {
	key  string
	page func(names, titles []string) string
}{
	{"heading-then-name", func(ns, ts []string) string {
		var b strings.Builder
		b.WriteString(`<h1>Vorstand</h1>`)
		for i, n := range ns {
			fmt.Fprintf(&b, `<h3>%s</h3><p>%s</p>`, ts[i], n)
		}
		return b.String()
	}},
	{"dl-role-first", func(ns, ts []string) string {
		var b strings.Builder
		b.WriteString(`<h2>Board</h2><dl>`)
		for i, n := range ns {
			fmt.Fprintf(&b, `<dt>%s</dt><dd>%s</dd>`, ts[i], n)
		}
		return b.String() + `</dl>`
	}},
	{"bold-label-br", func(ns, ts []string) string {
		var b strings.Builder
		b.WriteString(`<h2>Kontakt</h2>`)
		for i, n := range ns {
			fmt.Fprintf(&b, `<p><strong>%s:</strong><br>%s<br><a href="mailto:x%d@acme.example">x%d@acme.example</a></p>`, ts[i], n, i, i)
		}
		return b.String()
	}},
	{"table-rows", func(ns, ts []string) string {
		var b strings.Builder
		b.WriteString(`<h2>Team</h2><table><tr>`)
		for _, n := range ns {
			fmt.Fprintf(&b, `<td><strong>%s</strong></td>`, n)
		}
		b.WriteString(`</tr><tr>`)
		for _, t := range ts {
			fmt.Fprintf(&b, `<td>%s</td>`, t)
		}
		return b.String() + `</tr></table>`
	}},
	{"table-role-col", func(ns, ts []string) string {
		var b strings.Builder
		b.WriteString(`<h2>Board</h2><table>`)
		for i, n := range ns {
			fmt.Fprintf(&b, `<tr><td>%s</td><td>%s</td></tr>`, ts[i], n)
		}
		return b.String() + `</table>`
	}},
	{"grid-role-name", func(ns, ts []string) string {
		var b strings.Builder
		b.WriteString(`<h2>Ansprechpartner</h2>`)
		for i, n := range ns {
			fmt.Fprintf(&b, `<div class="row"><div class="col-4">%s</div><div class="col-8">%s</div></div>`, ts[i], n)
		}
		return b.String()
	}},
	{"title-colon-name-br", func(ns, ts []string) string {
		var b strings.Builder
		b.WriteString(`<h2>Vorstand</h2><p>`)
		for i, n := range ns {
			fmt.Fprintf(&b, `%s: %s<br>`, ts[i], n)
		}
		return b.String() + `</p>`
	}},
}

// TestRoleLedTitles holds the exact title where the page gives the title before or
// apart from the name, with names written plain, with an honorific or a post-nominal.
func TestRoleLedTitles(t *testing.T) {
	r := rand.New(rand.NewPCG(33, 8))
	pages := 4
	if testing.Short() {
		pages = 2
	}
	byLayout := map[string]*tally{}
	for _, lay := range roleLedLayouts {
		tl := &tally{}
		byLayout[lay.key] = tl
		for n := 0; n < pages; n++ {
			for _, form := range []string{"plain", "honorific", "post-nominal"} {
				ns, ts, want := make([]string, 3), make([]string, 3), make([]string, 3)
				seen := map[string]bool{}
				for i := range ns {
					var a aName
					for {
						a = genName(r, origins[r.IntN(6)], form)
						if !seen[NameKey(a.want)] {
							break
						}
					}
					seen[NameKey(a.want)] = true
					ns[i], want[i], ts[i] = esc(a.written), a.want, pickTitle(r)
				}
				got := map[string]Person{}
				for _, p := range Extract(lay.page(ns, ts), "https://acme.example/team/", Options{}) {
					got[matchKey(p.Name)] = p
				}
				for i := range ns {
					tl.want++
					p, ok := got[matchKey(want[i])]
					if !ok {
						t.Logf("missed %s/%s: %q", lay.key, form, ns[i])
						continue
					}
					tl.got++
					tl.titled++
					if p.Title == ts[i] {
						tl.titleOK++
					} else {
						t.Logf("wrong %s/%s: %q: %q, want %q", lay.key, form, want[i], p.Title, ts[i])
					}
				}
			}
		}
	}
	for _, lay := range roleLedLayouts {
		tl := byLayout[lay.key]
		t.Logf("%-20s %s", lay.key, tl)
		if float64(tl.titleOK) < titleFloor*float64(tl.want) {
			t.Errorf("%s: titles %d of %d people, below %.2f", lay.key, tl.titleOK, tl.want, titleFloor)
		}
	}
}
