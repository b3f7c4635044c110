package people

import (
	"fmt"
	"html"
	"math/rand/v2"
	"sort"
	"strings"
	"testing"
)

// The robustness test puts invented names of the origins European organisations'
// pages carry, written the ways those pages write them, into every layout the
// extraction reads, and measures recall per origin, per way of writing and per
// layout. The name pools are the team's own, written for this test: common given
// names and family names of each origin, combined at random, so most people it
// makes do not exist.

type origin struct {
	key     string
	given   []string
	family  []string
	capsFam bool // the family name often set in capitals (the French habit)
}

var origins = []origin{
	{key: "es", given: []string{"Alejandro", "María José", "Javier", "Lucía", "Carmen", "Sergio", "Rocío", "Álvaro", "Nuria", "Iñigo", "Begoña", "Francisco Javier", "Ainhoa", "Raúl", "Montserrat", "Gonzalo"},
		family: []string{"García López", "Fernández de la Fuente", "Martínez Ruiz", "Sánchez-Vicario", "de la Torre Jiménez", "Rodríguez Iglesias", "Pérez de Castro", "Muñoz Arrieta", "Echeverría Goñi", "del Río Navarro", "Ibáñez", "Castillo Delgado"}},
	{key: "pt", given: []string{"João Pedro", "Ana Rita", "Gonçalo", "Inês", "Tiago", "Mariana", "Duarte", "Conceição", "Rui", "Filipa", "Joana", "Vasco"},
		family: []string{"da Silva Santos", "dos Reis", "Ferreira da Costa", "Gonçalves", "Magalhães Pinto", "de Sousa Lima", "Nogueira", "Albuquerque", "do Nascimento", "Mendes", "Carvalho Brandão", "Teixeira"}},
	{key: "nl", given: []string{"Pieter", "Sanne", "Joost", "Femke", "Maarten", "Anouk", "Bram", "Ilse", "Wouter", "Marieke", "Sjoerd", "Lieke"},
		family: []string{"van der Berg", "de Vries", "van Dijk", "Bakker", "van den Heuvel", "Jansen", "de Jong", "van der Meer", "ter Horst", "Visser", "Hoekstra", "Verhoeven"}},
	{key: "de", given: []string{"Jürgen", "Hans-Peter", "Annegret", "Friederike", "Wolfgang", "Dörte", "Klaus-Dieter", "Ulrike", "Matthias", "Katrin", "Jörg", "Heike"},
		family: []string{"von Falkenhausen", "Müller-Lüdenscheidt", "Schröder", "Weißenborn", "Krämer", "zu Eltz", "Brandstätter", "Hoffmann", "Köhler", "Baumgärtner", "von der Heydt", "Oberhuber"}},
	{key: "fr", capsFam: true, given: []string{"Jean-Baptiste", "Marie-Claire", "Anne-Sophie", "Pierre-Yves", "Émilie", "Thibault", "Ségolène", "François", "Hélène", "Gwenaëlle", "Jean-Michel", "Aurélien"},
		family: []string{"Moreau", "Lefèvre", "Dubois", "Rousseau", "Le Goff", "Fontaine", "de Villeneuve", "Chevalier", "Garnier", "Lemaître", "Perrin", "Bonnefoy"}},
	{key: "it", given: []string{"Giuseppe", "Francesca", "Alessandro", "Chiara", "Lorenzo", "Giulia", "Matteo", "Federica", "Gianluca", "Serena", "Pierluigi", "Beatrice"},
		family: []string{"Rossi", "D'Angelo", "Di Stefano", "Esposito", "Bianchi", "Lo Russo", "De Luca", "Ferrarese", "Colombo", "Dell'Acqua", "Mancini", "Galli"}},
	{key: "pl", given: []string{"Katarzyna", "Grzegorz", "Małgorzata", "Wojciech", "Agnieszka", "Krzysztof", "Łukasz", "Joanna", "Przemysław", "Zofia", "Bartłomiej", "Dorota"},
		family: []string{"Wiśniewska", "Kowalczyk", "Nowak", "Wójcik", "Zieliński", "Szymańska", "Lewandowski", "Dąbrowska", "Kamiński", "Jabłoński", "Grabowska", "Pawlak"}},
	{key: "tr", given: []string{"Mehmet", "Ayşe", "Mustafa", "Elif", "Emre", "Zeynep", "Hüseyin", "Gülşen", "Burak", "Özlem", "Oğuz", "Selin"},
		family: []string{"Öztürk", "Yılmaz", "Şahin", "Demir", "Çelik", "Kaya", "Aydın", "Arslan", "Doğan", "Kılıç", "Yıldız", "Erdoğan"}},
	{key: "ar", given: []string{"Mohammed", "Fatima", "Youssef", "Khadija", "Omar", "Samira", "Abdelkader", "Nadia", "Karim", "Leila", "Hassan", "Yasmina"},
		family: []string{"Al-Rashid", "El Amrani", "Ben Ali", "Bouzid", "Haddad", "El-Khoury", "Benali", "Mansour", "Al Saadi", "Belkacem", "Chaouki", "Abou Zeid"}},
	{key: "in", given: []string{"Priya", "Venkatesh", "Anil Kumar", "Lakshmi", "Rajesh", "Deepika", "Sanjay", "Ananya", "Srinivas", "Kavitha", "Arjun", "Meenakshi"},
		family: []string{"Raghunathan", "Subramanian", "Sharma", "Iyer", "Chatterjee", "Reddy", "Nair", "Venkataraman", "Deshpande", "Gupta", "Krishnamurthy", "Banerjee"}},
	{key: "zh", given: []string{"Wei", "Xiaoming", "Jing", "Hao", "Yufei", "Jianguo", "Mei", "Zhiwei", "Xinyi", "Lei", "Yiting", "Junjie"},
		family: []string{"Zhang", "Li", "Wang", "Liu", "Chen", "Huang", "Zhao", "Wu", "Zhou", "Xu", "Sun", "Ma"}},
	{key: "vi", given: []string{"Minh Anh", "Thi Hoa", "Duc", "Lan", "Quang Huy", "Thu Trang", "Tuan", "Ngoc", "Van Long", "Hai Yen", "Thị Mai", "Văn Thành"},
		family: []string{"Nguyen", "Tran", "Le", "Pham", "Hoang", "Vu", "Dang", "Bui", "Do", "Ngo", "Nguyễn", "Trần"}},
	{key: "ng", given: []string{"Chukwuemeka", "Oluwaseun", "Ngozi", "Babatunde", "Adaeze", "Olumide", "Chiamaka", "Emeka", "Funmilayo", "Ikechukwu", "Yetunde", "Tobi"},
		family: []string{"Okonkwo", "Adeyemi", "Eze", "Olatunji", "Nwosu", "Balogun", "Okafor", "Adebayo", "Obi", "Ogunleye", "Nnamdi", "Afolabi"}},
	{key: "gr", given: []string{"Konstantinos", "Eleni", "Dimitrios", "Georgia", "Nikolaos", "Vasiliki", "Panagiotis", "Athina", "Ioannis", "Sofia", "Christos", "Despoina"},
		family: []string{"Papadopoulos", "Georgiou", "Nikolaidis", "Papadopoulou", "Konstantinidis", "Oikonomou", "Karagiannis", "Vlachou", "Dimitriou", "Alexandropoulos", "Makris", "Antoniou"}},
	{key: "en", given: []string{"Siobhan", "Gareth", "Rhiannon", "Callum", "Niamh", "Hamish", "Imogen", "Declan", "Sarah", "James", "Bethany", "Alistair"},
		family: []string{"O'Connor", "McAllister", "Fitzgerald", "Ashworth", "Pemberton", "MacLeod", "Thwaites", "Llewellyn", "Featherstone", "Hargreaves", "Doherty", "Whitfield"}},
	{key: "nordic", given: []string{"Ingrid", "Bjørn", "Sigrid", "Håkon", "Astrid", "Mikael", "Søren", "Linnea", "Jukka", "Aino", "Ragnhild", "Torbjörn"},
		family: []string{"Håkansson", "Ødegård", "Lindqvist", "Virtanen", "Johansen", "Kristiansen", "Bergström", "Mäkinen", "Nørgaard", "Sæther", "Halvorsen", "Åberg"}},
	{key: "hu", given: []string{"Zsófia", "Bence", "Réka", "Levente", "Eszter", "Gergely", "Csilla", "Ábel", "Krisztina", "Dániel", "Boglárka", "Zoltán"},
		family: []string{"Kovács", "Szűcs", "Nagy", "Tóth", "Horváth", "Varga", "Kiss", "Molnár", "Fehérvári", "Lakatos", "Szabó-Kertész", "Bálint"}},
	{key: "cz-sk", given: []string{"Jiří", "Lenka", "Ondřej", "Tereza", "Zdeněk", "Markéta", "Radek", "Veronika", "Matúš", "Zuzana", "Vojtěch", "Kateřina"},
		family: []string{"Dvořák", "Nováková", "Procházka", "Černý", "Kučerová", "Svoboda", "Veselý", "Horáková", "Hrušovský", "Šimková", "Růžička", "Křížová"}},
	{key: "ro", given: []string{"Ioana", "Mihai", "Andreea", "Bogdan", "Raluca", "Cătălin", "Oana", "Ștefan", "Irina", "Radu", "Alexandra", "Vlad"},
		family: []string{"Popescu", "Ionescu", "Dumitrescu", "Stănescu", "Constantinescu", "Munteanu", "Georgescu", "Răducanu", "Marinescu", "Vasilescu", "Țurcanu", "Neagu"}},
	{key: "sq-ka-hy", given: []string{"Arben", "Blerta", "Nino", "Giorgi", "Anahit", "Tigran", "Dritan", "Mariam", "Lasha", "Ardita", "Levan", "Armine"},
		family: []string{"Krasniqi", "Gashi", "Beridze", "Kapanadze", "Hovhannisyan", "Sargsyan", "Berisha", "Tsiklauri", "Grigoryan", "Hoxha", "Lomidze", "Petrosyan"}},
	{key: "eu-lt", given: []string{"Iñaki", "Garazi", "Aitor", "Maialen", "Gintarė", "Mindaugas", "Rūta", "Žygimantas", "Itziar", "Unai", "Aušra", "Darius"},
		family: []string{"Etxeberria", "Agirre", "Goikoetxea", "Urrutia", "Kazlauskienė", "Petrauskas", "Jankauskaitė", "Žukauskas", "Arrizabalaga", "Zubizarreta", "Butkus", "Vaitkevičius"}},
	{key: "andes-eth", given: []string{"Wilberto", "Guely", "Marisabel", "Sadot", "Abebe", "Tigist", "Yohannes", "Meseret", "Quilla", "Dawit", "Hirut", "Amaru"},
		family: []string{"Mamani", "Choque", "Quispe", "Condori", "Huanca", "Bekele", "Tesfaye", "Haile", "Wolde", "Ticona", "Apaza", "Gebremedhin"}},
}

// forms are the ways pages write a name.
var forms = []string{"plain", "middle-initial", "initials", "honorific", "post-nominal", "all-caps", "family-first", "caps-family-first", "family-initial"}

var (
	honorifics   = []string{"Dr.", "Prof.", "Mag.", "Ing.", "Me", "Dña.", "Prof. Dr.", "Dipl.-Ing.", "Mr.", "Mme", "Dott.ssa", "Ir.", "Dr", "Sra.", "Lic. Aud.", "Cr. Gral.", "Arq.", "M.Sc. Lic.", "Abog.", "Ing. Agr."}
	postNominals = []string{", PhD", " MBA", ", M.Sc.", ", CPA", ", Ph.D.", " MSc", ", LL.M."}
	titlePool    = []string{"Managing Director", "Chief Financial Officer", "Head of Marketing", "Geschäftsführer", "Leiterin Vertrieb",
		"Directrice générale", "Responsable RH", "Director Comercial", "Presidenta", "Tesorero", "Direttore Tecnico", "Projectleider",
		"Diretora Financeira", "Software Engineer", "Office Manager", "Secretary", "Vice President Sales", "Kassenwartin",
		"Chargée de communication", "Account Manager", "Head of Operations", "Responsabile Amministrativo"}
	decoys = []string{"Sales Team", "Comité de Direction", "Position vacant", "Customer Service", "Berlin Office", "Junta Directiva", "Marketing & Communication", "Our Partners"}
)

// aName is a generated person: how the page writes the name and the name the
// extraction should give.
type aName struct{ written, want string }

func genName(r *rand.Rand, o origin, form string) aName {
	g := o.given[r.IntN(len(o.given))]
	f := o.family[r.IntN(len(o.family))]
	want := g + " " + f
	fam := f
	if o.capsFam && r.IntN(2) == 0 {
		fam = strings.ToUpper(f)
	}
	written := g + " " + fam
	switch form {
	case "middle-initial":
		m := string("ABCDEFGHJKLMNPRSTW"[r.IntN(18)])
		written, want = g+" "+m+". "+fam, g+" "+m+". "+f
	case "initials":
		var in []string
		for _, w := range strings.Fields(g) {
			in = append(in, string([]rune(w)[0])+".")
		}
		if len(in) == 1 && (r.IntN(2) == 0 || in[0] == "M." || in[0] == "D.") {
			// a lone "M." or "D." before a given name is Monsieur or Dom/Dona, as a reader takes it
			in = append(in, string("ABCEFGHJKLNPRSTW"[r.IntN(16)])+".")
		}
		written, want = strings.Join(in, " ")+" "+fam, strings.Join(in, " ")+" "+f
	case "honorific":
		written = honorifics[r.IntN(len(honorifics))] + " " + written
	case "post-nominal":
		written += postNominals[r.IntN(len(postNominals))]
	case "all-caps":
		written = strings.ToUpper(written)
	case "family-first":
		written = fam + ", " + g
	case "caps-family-first": // "MOREAU Jean-Baptiste": the family name in capitals, no comma
		written = strings.ToUpper(f) + " " + g
	case "family-initial": // "Moreau J.": family name, then the given name's initial
		in := string([]rune(g)[0]) + "."
		written, want = fam+" "+in, in+" "+f
	}
	return aName{written: written, want: want}
}

// layouts write a page of people: each gets the people (written name, title) and
// returns the page. notitle layouts give no title; a decoy is a non-person row
// written as a person would be.
type robustLayout struct {
	key     string
	notitle bool
	page    func(r *rand.Rand, ps []aName, titles []string, decoy string) string
}

var colHeads = [][2]string{{"Name", "Position"}, {"Name", "Funktion"}, {"Nom", "Fonction"}, {"Nombre", "Cargo"}, {"Nome", "Ruolo"}, {"Naam", "Functie"}, {"Nome", "Função"}}

var robustLayouts = []robustLayout{
	{key: "cards", page: func(r *rand.Rand, ps []aName, ts []string, d string) string {
		var b strings.Builder
		b.WriteString(`<h1>Acme</h1><h2>Our team</h2><div class="team">`)
		for i, p := range ps {
			fmt.Fprintf(&b, `<div class="team-member"><img src="p%d.jpg" alt=""><h3>%s</h3><p class="position">%s</p></div>`, i, esc(p.written), esc(ts[i]))
		}
		fmt.Fprintf(&b, `<div class="team-member"><h3>%s</h3><p class="position">%s</p></div></div>`, esc(d), "info@acme.example")
		return b.String()
	}},
	{key: "table-header", page: func(r *rand.Rand, ps []aName, ts []string, d string) string {
		h := colHeads[r.IntN(len(colHeads))]
		roleFirst := r.IntN(2) == 0
		var b strings.Builder
		b.WriteString(`<h2>Contacts</h2><table><tr>`)
		if roleFirst {
			fmt.Fprintf(&b, `<th>%s</th><th>%s</th><th>E-Mail</th></tr>`, h[1], h[0])
		} else {
			fmt.Fprintf(&b, `<th>%s</th><th>%s</th><th>E-Mail</th></tr>`, h[0], h[1])
		}
		for i, p := range ps {
			cells := [2]string{esc(p.written), esc(ts[i])}
			if roleFirst {
				cells[0], cells[1] = cells[1], cells[0]
			}
			fmt.Fprintf(&b, `<tr><td>%s</td><td>%s</td><td><a href="mailto:p%d@acme.example">p%d@acme.example</a></td></tr>`, cells[0], cells[1], i, i)
		}
		b.WriteString(`</table>`)
		return b.String()
	}},
	{key: "list-paren", page: func(r *rand.Rand, ps []aName, ts []string, d string) string {
		var b strings.Builder
		b.WriteString(`<h2>Board</h2><ul>`)
		for i, p := range ps {
			fmt.Fprintf(&b, `<li>%s (%s)</li>`, esc(p.written), esc(ts[i]))
		}
		b.WriteString(`</ul>`)
		return b.String()
	}},
	{key: "headings", page: func(r *rand.Rand, ps []aName, ts []string, d string) string {
		var b strings.Builder
		b.WriteString(`<h1>About us</h1><h2>Management</h2>`)
		for i, p := range ps {
			fmt.Fprintf(&b, `<h4>%s</h4><p>%s</p>`, esc(p.written), esc(ts[i]))
		}
		fmt.Fprintf(&b, `<h4>%s</h4><p>Call us on +44 20 7946 0000</p>`, esc(d))
		return b.String()
	}},
	{key: "dl", page: func(r *rand.Rand, ps []aName, ts []string, d string) string {
		var b strings.Builder
		b.WriteString(`<h2>Team</h2><dl>`)
		for i, p := range ps {
			fmt.Fprintf(&b, `<dt>%s</dt><dd>%s</dd>`, esc(p.written), esc(ts[i]))
		}
		b.WriteString(`</dl>`)
		return b.String()
	}},
	{key: "name-comma-title", page: func(r *rand.Rand, ps []aName, ts []string, d string) string {
		var b strings.Builder
		b.WriteString(`<h2>Leadership</h2>`)
		for i, p := range ps {
			fmt.Fprintf(&b, `<p>%s, %s</p>`, esc(p.written), esc(ts[i]))
		}
		return b.String()
	}},
	{key: "title-colon-name", page: func(r *rand.Rand, ps []aName, ts []string, d string) string {
		var b strings.Builder
		b.WriteString(`<h2>Vorstand</h2>`)
		for i, p := range ps {
			fmt.Fprintf(&b, `<p>%s: %s</p>`, esc(ts[i]), esc(p.written))
		}
		return b.String()
	}},
	{key: "name-dash-title", page: func(r *rand.Rand, ps []aName, ts []string, d string) string {
		var b strings.Builder
		b.WriteString(`<h2>Contact persons</h2><ul>`)
		for i, p := range ps {
			fmt.Fprintf(&b, `<li>%s – %s</li>`, esc(p.written), esc(ts[i]))
		}
		b.WriteString(`</ul>`)
		return b.String()
	}},
	{key: "label-above", page: func(r *rand.Rand, ps []aName, ts []string, d string) string {
		var b strings.Builder
		b.WriteString(`<div class="staff">`)
		for i, p := range ps {
			fmt.Fprintf(&b, `<div class="col"><p class="cargo">%s</p><h3>%s</h3></div>`, esc(ts[i]), esc(p.written))
		}
		b.WriteString(`</div>`)
		return b.String()
	}},
	{key: "bio", notitle: true, page: func(r *rand.Rand, ps []aName, ts []string, d string) string {
		var b strings.Builder
		b.WriteString(`<h1>Who we are</h1>`)
		for i, p := range ps {
			first := strings.Fields(p.want)[0]
			fmt.Fprintf(&b, `<div class="bio"><h3>%s</h3><p>%s is the %s of Acme and joined the company in 2015. Before that %s worked in consulting for many years.</p></div>`,
				esc(p.written), esc(first), esc(ts[i]), esc(first))
		}
		return b.String()
	}},
	{key: "figure", page: func(r *rand.Rand, ps []aName, ts []string, d string) string {
		var b strings.Builder
		b.WriteString(`<h2>Team</h2><div class="gallery">`)
		for i, p := range ps {
			fmt.Fprintf(&b, `<figure><img src="p%d.jpg" alt="%s"><figcaption>%s<br>%s</figcaption></figure>`, i, esc(p.written), esc(p.written), esc(ts[i]))
		}
		b.WriteString(`</div>`)
		return b.String()
	}},
	{key: "link-grid", notitle: true, page: func(r *rand.Rand, ps []aName, ts []string, d string) string {
		var b strings.Builder
		b.WriteString(`<h2>Our people</h2><div class="grid">`)
		for i, p := range ps {
			fmt.Fprintf(&b, `<div class="grid-item"><a href="/people/p%d">%s</a></div>`, i, esc(p.written))
		}
		b.WriteString(`</div>`)
		return b.String()
	}},
	{key: "br-lines", page: func(r *rand.Rand, ps []aName, ts []string, d string) string {
		var b strings.Builder
		b.WriteString(`<h2>Ansprechpartner</h2>`)
		for i, p := range ps {
			fmt.Fprintf(&b, `<p>%s<br>%s<br><a href="mailto:p%d@acme.example">E-Mail</a></p>`, esc(p.written), esc(ts[i]), i)
		}
		return b.String()
	}},
	{key: "strong-br", page: func(r *rand.Rand, ps []aName, ts []string, d string) string {
		var b strings.Builder
		b.WriteString(`<div class="entry-content">`)
		for i, p := range ps {
			fmt.Fprintf(&b, `<p><strong>%s</strong><br />%s</p>`, esc(p.written), esc(ts[i]))
		}
		b.WriteString(`</div>`)
		return b.String()
	}},
	{key: "linked-cards", page: func(r *rand.Rand, ps []aName, ts []string, d string) string {
		var b strings.Builder
		b.WriteString(`<section><h2>Leadership</h2><div class="row">`)
		for i, p := range ps {
			fmt.Fprintf(&b, `<div class="col-md-4"><img src="p%d.jpg" alt="%s"><h5><a href="/team/p%d">%s</a></h5><span>%s</span><a href="https://www.linkedin.com/in/p%d">LinkedIn</a></div>`, i, esc(p.written), i, esc(p.written), esc(ts[i]), i)
		}
		b.WriteString(`</div></section>`)
		return b.String()
	}},
	{key: "members-list", notitle: true, page: func(r *rand.Rand, ps []aName, ts []string, d string) string {
		var ws []string
		for _, p := range ps {
			ws = append(ws, esc(p.written))
		}
		sep := ", "
		if strings.Contains(ws[0], ",") {
			sep = "; " // family-first names are set apart by semicolons
		}
		return `<h2>Advisory board</h2><p>Members: ` + strings.Join(ws, sep) + `</p>`
	}},
	{key: "br-names", notitle: true, page: func(r *rand.Rand, ps []aName, ts []string, d string) string {
		var ws []string
		for _, p := range ps {
			ws = append(ws, esc(p.written))
		}
		return `<h2>Our team</h2><p>` + strings.Join(ws, "<br>") + `</p>`
	}},
	{key: "inline-sep", notitle: true, page: func(r *rand.Rand, ps []aName, ts []string, d string) string {
		var ws []string
		for _, p := range ps {
			ws = append(ws, esc(p.written))
		}
		sep := []string{" • ", " | ", " · ", "; "}[r.IntN(4)]
		return `<h2>Team</h2><p>` + strings.Join(ws, sep) + `</p>`
	}},
	{key: "table-noheader", page: func(r *rand.Rand, ps []aName, ts []string, d string) string {
		var b strings.Builder
		b.WriteString(`<h2>Mitarbeiter</h2><table>`)
		for i, p := range ps {
			fmt.Fprintf(&b, `<tr><td>%s</td><td>%s</td><td>+49 30 1234 56%d</td></tr>`, esc(p.written), esc(ts[i]), i)
		}
		b.WriteString(`</table>`)
		return b.String()
	}},
	{key: "table-grid", notitle: true, page: func(r *rand.Rand, ps []aName, ts []string, d string) string {
		var b strings.Builder
		b.WriteString(`<h2>Our staff</h2><table><tr>`)
		for _, p := range ps {
			fmt.Fprintf(&b, `<td>%s</td>`, esc(p.written))
		}
		b.WriteString(`</tr></table>`)
		return b.String()
	}},
	{key: "nested-ul", notitle: true, page: func(r *rand.Rand, ps []aName, ts []string, d string) string {
		var b strings.Builder
		b.WriteString(`<h2>Team</h2><ul><li>Management<ul>`)
		for _, p := range ps {
			fmt.Fprintf(&b, `<li>%s</li>`, esc(p.written))
		}
		b.WriteString(`</ul></li></ul>`)
		return b.String()
	}},
	{key: "dd-names", page: func(r *rand.Rand, ps []aName, ts []string, d string) string {
		var b strings.Builder
		b.WriteString(`<h2>Board</h2><dl>`)
		for i, p := range ps {
			fmt.Fprintf(&b, `<dt>%s</dt><dd>%s</dd>`, esc(ts[i]), esc(p.written))
		}
		b.WriteString(`</dl>`)
		return b.String()
	}},
	{key: "figcaption-only", notitle: true, page: func(r *rand.Rand, ps []aName, ts []string, d string) string {
		var b strings.Builder
		b.WriteString(`<h2>Team</h2><div class="gallery">`)
		for i, p := range ps {
			fmt.Fprintf(&b, `<figure><img src="p%d.jpg" alt=""><figcaption>%s</figcaption></figure>`, i, esc(p.written))
		}
		b.WriteString(`</div>`)
		return b.String()
	}},
}

func esc(s string) string { return html.EscapeString(s) }

// matchKey is NameKey with the Turkish dotless i folded: a name set in capitals
// ("YILMAZ") cannot tell it from i.
func matchKey(s string) string { return strings.NewReplacer("ı", "i", "İ", "i").Replace(NameKey(s)) }

// orderFree is a match key that ignores the order of the name's words and the full
// stops of its initials ("Moreau J." read as "Moreau J" at the end of a sentence).
func orderFree(k string) string {
	w := strings.Fields(strings.ReplaceAll(k, ".", ""))
	sort.Strings(w)
	return strings.Join(w, " ")
}

type tally struct{ want, got, titled, titleOK, extra int }

func (t tally) String() string {
	s := fmt.Sprintf("recall %.3f (%d/%d)", float64(t.got)/float64(max(1, t.want)), t.got, t.want)
	if t.titled > 0 {
		s += fmt.Sprintf(", titles %.3f (%d/%d)", float64(t.titleOK)/float64(t.titled), t.titleOK, t.titled)
	}
	return s
}

// robustness runs the generator and returns the tallies per origin, form and layout.
func robustness(t *testing.T, pagesPer int) (byOrigin, byForm, byLayout map[string]*tally, total *tally, extras []string) {
	main, apart := rand.New(rand.NewPCG(33, 2026)), rand.New(rand.NewPCG(33, 2027))
	byOrigin, byForm, byLayout, total = map[string]*tally{}, map[string]*tally{}, map[string]*tally{}, &tally{}
	get := func(m map[string]*tally, k string) *tally {
		if m[k] == nil {
			m[k] = &tally{}
		}
		return m[k]
	}
	for _, o := range origins {
		for _, f := range forms {
			for _, lay := range robustLayouts {
				if f == "family-first" && (lay.key == "name-comma-title" || lay.key == "bio") {
					continue // "Family, Given, Title" is ambiguous to a reader too
				}
				// "Moreau J." gives the model no given name: its form is held to a floor of
				// its own (initialFloor) and left out of the origin, layout and total tallies.
				r := main
				if f == "family-initial" {
					r = apart // its own stream, so the other classes' pages stay as they were
				}
				classes := func() []*tally {
					if f == "family-initial" {
						return []*tally{get(byForm, f)}
					}
					return []*tally{get(byOrigin, o.key), get(byForm, f), get(byLayout, lay.key), total}
				}
				for n := 0; n < pagesPer; n++ {
					ps := make([]aName, 3)
					ts := make([]string, 3)
					seen := map[string]bool{}
					for i := range ps {
						for {
							ps[i] = genName(r, o, f)
							if !seen[NameKey(ps[i].want)] {
								break
							}
						}
						seen[NameKey(ps[i].want)] = true
						ts[i] = titlePool[r.IntN(len(titlePool))]
					}
					page := lay.page(r, ps, ts, decoys[r.IntN(len(decoys))])
					got := map[string]Person{}
					for _, p := range Extract(page, "https://acme.example/team/", Options{}) {
						got[matchKey(p.Name)] = p
					}
					for i, p := range ps {
						for _, tl := range classes() {
							tl.want++
						}
						k := matchKey(p.want)
						gp, ok := got[k]
						if !ok { // a name kept in the page's order ("Moreau J.") is the same person
							for gk := range got {
								if orderFree(gk) == orderFree(k) {
									k, gp, ok = gk, got[gk], true
									break
								}
							}
						}
						delete(got, k)
						if !ok {
							if testing.Verbose() && t != nil {
								t.Logf("missed %s/%s/%s: %q", o.key, f, lay.key, p.written)
							}
							continue
						}
						for _, tl := range classes() {
							tl.got++
							if !lay.notitle {
								tl.titled++
								if gp.Title == ts[i] {
									tl.titleOK++
								}
							}
						}
					}
					for k, p := range got {
						for _, tl := range classes() {
							tl.extra++
						}
						extras = append(extras, fmt.Sprintf("%s/%s/%s: %q (%s) from %s", o.key, f, lay.key, p.Name, p.Title, k))
					}
				}
			}
		}
	}
	return
}

// TestNameRobustness holds recall on invented names of many origins and ways of
// writing them, in every layout, to a floor per class, with no extra rows.
func TestNameRobustness(t *testing.T) {
	pages := 2
	if testing.Short() {
		pages = 1
	}
	byOrigin, byForm, byLayout, total, extras := robustness(t, pages)
	report := func(what string, m map[string]*tally) {
		keys := make([]string, 0, len(m))
		for k := range m {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		for _, k := range keys {
			t.Logf("%-8s %-18s %s, extra rows %d", what, k, m[k], m[k].extra)
		}
	}
	report("origin", byOrigin)
	report("form", byForm)
	report("layout", byLayout)
	t.Logf("total %s, extra rows %d", total, total.extra)
	for _, e := range extras {
		t.Errorf("extra row %s", e)
	}
	floor := func(what string, m map[string]*tally, min float64) {
		for k, tl := range m {
			if r := float64(tl.got) / float64(tl.want); r < min {
				t.Errorf("%s %s: recall %.3f below %.2f", what, k, r, min)
			}
		}
	}
	for k, tl := range byOrigin {
		min := robustFloor
		if k == "andes-eth" {
			min = unknownOriginFloor
		}
		if r := float64(tl.got) / float64(tl.want); r < min {
			t.Errorf("origin %s: recall %.3f below %.2f", k, r, min)
		}
	}
	for k, tl := range byForm {
		min := robustFloor
		if k == "family-initial" {
			min = initialFloor
		}
		if r := float64(tl.got) / float64(tl.want); r < min {
			t.Errorf("form %s: recall %.3f below %.2f", k, r, min)
		}
	}
	floor("layout", byLayout, robustFloor)
	if r := float64(total.got) / float64(total.want); r < 0.98 {
		t.Errorf("total recall %.3f below 0.98", r)
	}
}

// robustFloor is the recall every origin, form and layout must reach. The classes
// below 0.95 are names no name model here knows (Andean and Ethiopian names such as
// "Wilberto Mamani", Chinese given names such as "Jianguo") where only the name model
// can tell them from other capitalised text: in a grid of links or a "Members:" list
// with no title, or written family name first in a line of its own shape ("Mamani,
// Wilberto (Presidente)"), where nothing else tells the given name from a place
// ("Madison, Tennessee") or a menu item ("Buy Tickets").
const robustFloor = 0.88

// unknownOriginFloor is the recall of the Andean and Ethiopian names, which no name
// model here knows: a page of three of them in a container with no title (a grid of
// links or captions, one line set apart by bullets, a table of names, a list under a
// team heading) has nothing that tells them from other capitalised text, and twelve
// of the twenty-four layouts give no title.
const unknownOriginFloor = 0.85

// initialFloor is the recall of names written family name first with the given name's
// initial after it ("Beridze A.", "Mamani W."): where no title stands beside them, only
// the name model's knowledge of the family name tells them from other text.
const initialFloor = 0.90

// TestNameForms: pronouns, generational suffixes, honorary doctorates, Austrian and
// French professional titles, Spanish "de los", "DI" opening a family name in capitals
// a given name's initial after the family name and a family name after its article in
// small letters ("al-Rashid") are read as pages write them.
func TestNameForms(t *testing.T) {
	for in, want := range map[string]string{"Anna Roth (she/her)": "Anna Roth", "Jo Berg, they/them": "Jo Berg", "Robert Smith Jr.": "Robert Smith Jr.",
		"John Doe III": "John Doe III", "Prof. Dr. h.c. Anna Roth": "Anna Roth", "DI Thomas Gruber": "Thomas Gruber", "Maître Anne Roux": "Anne Roux",
		"Ana María de los Ángeles Pérez": "Ana María de los Ángeles Pérez", "DI STEFANO Giuseppe": "Giuseppe Di Stefano",
		"Ahmed al-Rashid": "Ahmed al-Rashid", "Ibáñez M.": "Ibáñez M.", "García López D.": "García López D.", "de la Torre Jiménez B.": "de la Torre Jiménez B."} {
		if got, ok := nameOf(in); !ok || got != want {
			t.Errorf("nameOf(%q) = %q, %v; want %q", in, got, ok, want)
		}
	}
	for _, in := range []string{"Los Angeles", "Jr. Developer", "Level III"} {
		if got, ok := nameOf(in); ok {
			t.Errorf("nameOf(%q) = %q, a name", in, got)
		}
	}
}
