package people

import "testing"

// TestRecallLayouts holds the readers of recall.go to small hand-written pages (written
// for this test): people vouched for by the page's repeated structure, cards inside
// buttons and card footers, a person's own page, a name and title set apart by plain
// inline elements, and a role and name with nothing between them; and the pages
// where none of these may find anyone.
func TestRecallLayouts(t *testing.T) {
	const url = "https://acme.example/team/"
	tests := []struct {
		name string
		html string
		want map[string]string
	}{
		{"a name the model does not know, in a card of the grid where the others have titles",
			`<h2>Who we are</h2><div class="row"><div class="col"><img src="a.jpg"><h4>Abebe Bekele</h4><p>Agronomist</p></div><div class="col"><img src="b.jpg"><h4>Tigist Haile</h4><p>Field Coordinator</p></div><div class="col"><img src="c.jpg"><h4>Wilmaru Quispe</h4><p>Communications</p></div><div class="col"><img src="d.jpg"><h4>Amaru Mamani</h4><p>Soil Scientist</p></div></div>`,
			map[string]string{"Abebe Bekele": "Agronomist", "Tigist Haile": "Field Coordinator", "Wilmaru Quispe": "Communications", "Amaru Mamani": "Soil Scientist"}},
		{"the same column of a table whose other rows hold people",
			`<h2>Contacts</h2><table><tr><th>Name</th><th>Function</th></tr><tr><td>Abebe Bekele</td><td>Agronomist</td></tr><tr><td>Tigist Haile</td><td>Field Coordinator</td></tr><tr><td>Iñaki Etxeberria</td><td>Communications</td></tr></table>`,
			map[string]string{"Abebe Bekele": "Agronomist", "Tigist Haile": "Field Coordinator", "Iñaki Etxeberria": "Communications"}},
		{"a grid of the same shape under another container is not vouched for by the team's",
			`<h2>Team</h2><div class="grid"><div class="c"><h4>Anna Roth</h4><p>Head of Finance</p></div><div class="c"><h4>Jan Hahn</h4><p>Lead Engineer</p></div></div><h2>Projects</h2><div class="grid"><div class="c"><h4>Afya Njema</h4><p>Reforestation in the north</p></div><div class="c"><h4>Maji Safi</h4><p>Clean water for the port</p></div><div class="c"><h4>Elimu Kwanza</h4><p>A school garden</p></div></div>`,
			map[string]string{"Anna Roth": "Head of Finance", "Jan Hahn": "Lead Engineer"}},
		{"cards written as buttons that open a modal",
			`<h1>Our Team</h1><div class="grid"><button class="card" data-toggle="modal"><h3>Anna Roth</h3><p>Head of Finance</p></button><button class="card" data-toggle="modal"><h3>Jan Hahn</h3><p>Lead Engineer</p></button></div><form><button>Send</button></form>`,
			map[string]string{"Anna Roth": "Head of Finance", "Jan Hahn": "Lead Engineer"}},
		{"the title in a card's footer; the page's footer is not read",
			`<h1>Our Team</h1><article class="card"><h3>Anna Roth</h3><footer>Head of Finance</footer></article><article class="card"><h3>Jan Hahn</h3><footer>Lead Engineer</footer></article><footer><p>Mira Olsen</p><p>Webdesign</p></footer>`,
			map[string]string{"Anna Roth": "Head of Finance", "Jan Hahn": "Lead Engineer"}},
		{"a person's own page: the one h1 and the title under it",
			`<header><a href="/">Acme</a></header><h1>Anna Roth</h1><p class="role">Head of Finance</p><p>Anna joined Acme in 2012 and leads its finance team.</p>`,
			map[string]string{"Anna Roth": "Head of Finance"}},
		{"a page whose one h1 is a name with no title under it names itself",
			`<h1>Anna Roth</h1><p>Photographs of the coast, 2019 to 2024.</p>`,
			map[string]string{}},
		{"names set side by side with bullets or semicolons, one the model does not know, under the team's heading",
			`<h2>Our team</h2><p>Anna Roth • Tigist Haile • Jan Hahn</p><h2>Board</h2><p>Roth, Mira; Hahn, Lena; TÓTH, Krisztina</p>`,
			map[string]string{"Anna Roth": "", "Tigist Haile": "", "Jan Hahn": "", "Mira Roth": "Board", "Lena Hahn": "Board", "Krisztina Tóth": "Board"}},
		{"a family name after its Arabic article in small letters; places with a French elision are no people",
			`<h2>Our team</h2><div class="c"><h3>Ahmed al-Rashid</h3><p>Managing Director</p></div><div class="c"><h3>Anna Roth</h3><p>Head of Finance</p></div><h2>Where we work</h2><ul><li>Côte d'Ivoire</li><li>Val d'Aosta</li></ul>`,
			map[string]string{"Ahmed al-Rashid": "Managing Director", "Anna Roth": "Head of Finance"}},
		{"a row of services or places set apart by bullets or semicolons is no list of people",
			`<h2>Our team</h2><p>Web Design • Brand Strategy • Search Marketing</p><p>Berlin, DE; Paris, FR; Madrid, ES</p><p>Home | About Us | Contact</p>`,
			map[string]string{}},
		{"a name and a title set apart by inline elements with no class",
			`<h2>Team</h2><p>Anna Roth <span>Head of Finance</span></p><p><em>Jan Hahn</em>, Lead Engineer</p>`,
			map[string]string{"Anna Roth": "Head of Finance", "Jan Hahn": "Lead Engineer"}},
		{"a role and a name with nothing between them; a title going on over the next words is not",
			`<h2>Vorstand</h2><p>Präsident Peter Meier</p><p>Senior Ecologist and Forest Steward</p>`,
			map[string]string{"Peter Meier": "Präsident"}},
		{"soft hyphens and zero-width spaces inside names and titles",
			"<h2>Team</h2><div class=m><h3>Anna Rot\u00adh</h3><p>Head of Fi\u00adnance</p></div><div class=m><h3>Jan\u200b Hahn</h3><p>Lead Engineer</p></div>",
			map[string]string{"Anna Roth": "Head of Finance", "Jan Hahn": "Lead Engineer"}},
		{"a footnote's mark or a symbol after a name",
			`<h2>Vorstand</h2><ul><li>Anna Roth* – Vorsitzende</li><li>Jan Hahn¹ – Kassierer</li><li>Mira Olsen 🌱 – Schriftführerin</li></ul><p>* Gründungsmitglied</p>`,
			map[string]string{"Anna Roth": "Vorsitzende", "Jan Hahn": "Kassierer", "Mira Olsen": "Schriftführerin"}},
		{"a name written in one run per word, the role in the next; tabs of single words are no name",
			`<h2>Team</h2><div class="t"><p><span class="first">Anna</span> <span class="last">Roth</span> <span class="role">CEO</span></p></div><div class="t"><p><span class="first">Jan</span> <span class="last">Hahn</span> <span class="role">CTO</span></p></div><p><a class="tab">Completed</a> <a class="tab">Residential</a> <a class="tab">Commercial</a></p>`,
			map[string]string{"Anna Roth": "CEO", "Jan Hahn": "CTO"}},
		{"under a heading that names the team, a grid of names with no titles, one of them known to the model",
			`<h2>Our team</h2><div class="row"><div class="col-md-3"><h4>Abebe Bekele</h4></div><div class="col-md-3"><h4>Tigist Haile</h4></div><div class="col-md-3"><h4>Wilmaru Quispe</h4></div><div class="col-md-3"><h4>Amaru Mamani</h4></div></div>`,
			map[string]string{"Abebe Bekele": "", "Tigist Haile": "", "Wilmaru Quispe": "", "Amaru Mamani": ""}},
		{"under another heading such a grid is not vouched for, nor is the one name the model knows with no title, team heading or titled card beside it",
			`<h2>¿Qué hacemos?</h2><div class="row"><div class="col-md-3"><h4>Kilimo Endelevu</h4></div><div class="col-md-3"><h4>Afya Njema</h4></div><div class="col-md-3"><h4>Maji Safi</h4></div><div class="col-md-3"><h4>Amaru Mamani</h4></div></div>`,
			map[string]string{}},
		{"a role label with its term in brackets",
			`<h2>Styrelsen</h2><ul><li><strong>Ordförande (2 år):</strong> Karin Lund</li><li><strong>Kassör (1 år):</strong> Nils Berg</li></ul>`,
			map[string]string{"Karin Lund": "Ordförande", "Nils Berg": "Kassör"}},
		{"a role's list with two given names sharing a family name, and two roles on one line",
			`<h2>Vedení</h2><p><strong>trenéři:</strong> Jan Hahn, Eva Bauer, Aleš a Luděk Novák, Petra Lang<br><strong>lékaři:</strong> Ota Malý, Ivan Roth <strong>sklad:</strong> Karel Veselý<br>pokladník: Věra Malá (příspěvky) a Ota Malý (závody)</p>`,
			map[string]string{"Jan Hahn": "trenéři", "Eva Bauer": "trenéři", "Aleš Novák": "trenéři", "Luděk Novák": "trenéři", "Petra Lang": "trenéři", "Ota Malý": "lékaři", "Ivan Roth": "lékaři", "Karel Veselý": "sklad", "Věra Malá": "pokladník"}},
		{"stacked academic honorifics, a year before a name and a post-nominal of dotted capitals",
			`<h2>Zarząd</h2><div class="p"><h3>Prof. UW dr hab. Anna Nowak</h3><p>Dyrektorka</p></div><div class="p"><h3>Mgr inż. Jan Kowalski</h3><p>Skarbnik</p></div><h2>Roster</h2><div class="p"><h3>2008 Artur Zieliński D.P.M</h3><p>Associate Member</p></div>`,
			map[string]string{"Anna Nowak": "Dyrektorka", "Jan Kowalski": "Skarbnik", "Artur Zieliński": "Associate Member"}},
		{"people named only as the subject of their bios, two or more on the page",
			`<h1>Team</h1><img src="a.jpg"><div>Hakim Alsaber is a veteran of the telecom industry with over thirty years of experience. Mr. Alsaber held posts at several carriers.</div><img src="b.jpg"><div>Tareq Nadwan holds a degree in computer science and has led many projects across the region. Tareq lives in Amman.</div>`,
			map[string]string{"Hakim Alsaber": "", "Tareq Nadwan": ""}},
		{"one bio that opens with a name is not enough",
			`<h1>Story</h1><div>Hakim Alsaber is a veteran of the telecom industry with over thirty years of experience. Mr. Alsaber held posts at several carriers.</div>`,
			map[string]string{}},
		{"a header row written in capitals as an ordinary row, and a role column beside the names",
			`<h2>Zarząd</h2><table><tr><td>STANOWISKO</td><td>IMIE I NAZWISKO</td></tr><tr><td>Prezes</td><td>Jan Kowalski</td></tr><tr><td>V-ce Prezes</td><td>Marek Wiśniewski</td></tr><tr><td>Skarbnik</td><td>Anna Nowak</td></tr><tr><td>Sekretarz</td><td>Ewa Zając</td></tr></table>`,
			map[string]string{"Jan Kowalski": "Prezes", "Marek Wiśniewski": "V-ce Prezes", "Anna Nowak": "Skarbnik", "Ewa Zając": "Sekretarz"}},
		{"a name in capitals the model does not know, in a figure caption's name run like the others",
			`<h2>Team</h2><figure><figcaption><span class="name">ANNA ROTH</span><span class="role">Chief Executive Officer</span></figcaption></figure><figure><figcaption><span class="name">JAN HAHN</span><span class="role">Chief Financial Officer</span></figcaption></figure><figure><figcaption><span class="name">YOSHIRO AKUZAWI</span><span class="role">Director of Field Operations</span></figcaption></figure>`,
			map[string]string{"Anna Roth": "Chief Executive Officer", "Jan Hahn": "Chief Financial Officer", "Yoshiro Akuzawi": "Director of Field Operations"}},
		{"a form that wraps the whole page, as ASP.NET pages do, is read; its fields are not",
			`<form id="form1" method="post" action="./Styrelsen.aspx"><input type="hidden" name="__VIEWSTATE" value="x"><h1>Styrelsen</h1><p>Styrelsen väljs på föreningsstämman varje år och ansvarar för föreningens förvaltning, ekonomi och underhåll av fastigheten och dess gemensamma utrymmen.</p><table><tr><td>Ordförande</td><td>Karin Lund</td></tr><tr><td>Kassör</td><td>Nils Berg</td></tr></table><p>Kontakta styrelsen via brevlådan i entrén eller via e-post; vi svarar normalt inom en vecka på alla frågor från medlemmarna.</p><select><option>Anna Roth</option></select></form><form action="/subscribe"><h3>Newsletter</h3><p>Jan Hahn</p><p>Editor</p><input type="email"></form>`,
			map[string]string{"Karin Lund": "Ordförande", "Nils Berg": "Kassör"}},
		{"a long list of names with one item that is no name keeps the names",
			`<h2>Mitglieder</h2><div class="members"><p>Anna Roth, Jan Hahn, Eva Bauer, Ota Malý und Tom Lehmann, sowie weitere Freiwillige</p></div>`,
			map[string]string{"Anna Roth": "", "Jan Hahn": "", "Eva Bauer": "", "Ota Malý": "", "Tom Lehmann": ""}},
		{"terms of office after names and roles; names the model does not know in a <br> list beside names it knows",
			`<h3>Ráðið</h3><p>Albert Svan Sigurðsson, ritari 1 ár<br>Elsa Kristjánsdóttir, gjaldkeri 1 ár<br>Hrafnkell Þórvaldsson 2 ár<br>Bergljót Ýrsdóttir 2 ár<br>Jón Pétursson 1 ár</p>`,
			map[string]string{"Albert Svan Sigurðsson": "ritari", "Elsa Kristjánsdóttir": "gjaldkeri", "Hrafnkell Þórvaldsson": "Ráðið", "Bergljót Ýrsdóttir": "Ráðið", "Jón Pétursson": "Ráðið"}},
		{"a board's cards: the town and state, the employer with its legal form and an organisation's name are no people; an alumni council is current",
			`<h1>Board of Directors</h1><ul id="board"><li><p><strong>Kristian Sekse</strong><br>Interim Chairperson<br>Baltimore, MD<br>Joined Board: January 2011</p></li><li><p><strong>Kristin Andersen</strong><br>Treasurer</p><p>North Shore Community Development Coalition, Chief Program Officer<br>Medford, MA</p></li><li><p><strong>Andrew Schneider</strong><br>Secretary</p><p>Price Waterhouse Coopers, LLP, Advisory Senior Associate<br>New York, NY</p></li></ul><h3>Alumni Council Co-Chairs</h3><ul id="alumni"><li><p><strong>Jesse Cohn</strong><br>Alumni Council Co-Chair<br>Chapel Hill, NC</p></li><li><p><strong>Natalie Serle’</strong><br>Alumni Council Co-Chair<br>Seattle, WA</p></li></ul>`,
			map[string]string{"Kristian Sekse": "Interim Chairperson", "Kristin Andersen": "Treasurer", "Andrew Schneider": "Secretary", "Jesse Cohn": "Alumni Council Co-Chair", "Natalie Serle": "Alumni Council Co-Chair"}},
		{"an accordion whose headers are buttons holding the names",
			`<h5>Developer Team</h5><div class="accordion"><div class="card"><h2 class="mb-0"><button class="btn" type="button" data-toggle="collapse" aria-expanded="true">Anna Roth</button></h2><div class="collapse"><div class="card-body">Backend developer</div></div></div><div class="card"><h2 class="mb-0"><button class="btn" type="button" aria-expanded="false">Jan Hahn</button></h2><div class="collapse"><div class="card-body">Frontend developer</div></div></div></div>`,
			map[string]string{"Anna Roth": "Backend developer", "Jan Hahn": "Frontend developer"}},
		{"a given name and a family name of several words in runs of their own",
			`<h2>People</h2><div class="m"><div class="names"><span class="fname">Sophie</span> <span class="lname">Tezenas Du Montcel</span></div><div class="job">University Lecturer</div></div><div class="m"><div class="names"><span class="fname">Arya</span> <span class="lname">Yazdan Panah</span></div><div class="job">Postdoc</div></div>`,
			map[string]string{"Sophie Tezenas Du Montcel": "University Lecturer", "Arya Yazdan Panah": "Postdoc"}},
		{"a sentence that lists 'Name (Role)' items; 'D.ª' before a name",
			`<h2>Our Board</h2><p>The board consists of Anna Roth (Chair), Jan Hahn (Treasurer) and Eva Bauer (Secretary).</p><ul><li>D.ª María López – Secretaria</li></ul>`,
			map[string]string{"Anna Roth": "Chair", "Jan Hahn": "Treasurer", "Eva Bauer": "Secretary", "María López": "Secretaria"}},
		{"short bios under headings that are no names, each going on with a pronoun; a card's own bio is its name's",
			`<h2>Meet the team</h2><div class="col"><h4>Meet Anna</h4><p>Anna Roth is our CEO and co-founder. She leads the company since 2015.</p></div><div class="col"><h4>Meet Jan</h4><p>Jan Hahn is our lead engineer. He builds the platform since 2016.</p></div><div class="m"><h3>Chris Chilies</h3><h4>The Suit</h4><p>Chris Chiles serves as the director of sales, bringing experience from earlier firms. His work is known.</p></div>`,
			map[string]string{"Anna Roth": "CEO and co-founder", "Jan Hahn": "lead engineer", "Chris Chilies": "The Suit"}},
		{"a family name that also spells a degree; a full stop after a name; a function heading with 'Alumni' in a compound",
			`<h2>Team</h2><div class="c"><h3>Linglong Meng</h3><p>Research Engineer</p></div><div class="c"><h3>Jesús Abimael Granados Lugo.</h3><p>Abogado asociado</p></div><h3>Alumniarbeit</h3><div class="name">Anita Kohlberg</div><div class="role">Beisitzerin</div>`,
			map[string]string{"Linglong Meng": "Research Engineer", "Jesús Abimael Granados Lugo": "Abogado asociado", "Anita Kohlberg": "Beisitzerin"}},
		{"a row of links is no name; a job word and a given name before a town is no person",
			`<h2>People</h2><table><tr><td>PI: Alice R. Walker<br><a href="/cv">CV</a> <a href="/gs">Google Scholar</a> <a href="/o">OrcID</a> <a href="/b">BlueSky</a></td></tr></table><h2>Professionisti</h2><h2>Maria Luisa CANNAS</h2><h4>Associato Junior - Padova</h4>`,
			map[string]string{"Alice R. Walker": "PI", "Maria Luisa Cannas": "Associato Junior - Padova"}},
		{"sentences that name a role, then its holders; a sentence that names no role gives no one",
			`<h2>Über uns</h2><p>Geschäftsführer sind Anna Roth und Jan Hahn.</p><p>Le bureau est composé de Claire Durand, présidente, Paul Martin, trésorier, et Sophie Bernard, secrétaire.</p><p>Our favourite authors are Mark Twain and Jane Austen.</p>`,
			map[string]string{"Anna Roth": "Geschäftsführer", "Jan Hahn": "Geschäftsführer", "Claire Durand": "présidente", "Paul Martin": "trésorier", "Sophie Bernard": "secrétaire"}},
		{"the page's section headings kept by mistake vouch for no third; a word spelt out is no name; a middle name in small letters",
			`<h2>Servicii Fiscale</h2><p class="lead">Departamentul Fiscal</p><p>Specialiștii noștri fiscali se concentrează pe optimizarea fiscală legală.</p><h2>Filozofia Echipei</h2><h3>Educație Continuă</h3><p>Echipa noastră participă regulat la cursuri.</p><h2>Valori Comune</h2><p>Integritate și excelență.</p><h2>Dezvoltare Profesională</h2><p>Echipa AWG Activ Consulting beneficiază de programe.</p><h2>Team</h2><div class="c"><h4>C E O</h4><p>Olivier</p></div><div class="c"><h4>Murtaza jamal Zia</h4><p>Advisor</p></div>`,
			map[string]string{"Murtaza jamal Zia": "Advisor"}},
		{"initials written together before a family name; a degree written so is no initial (nor a role: the section gives the title)",
			`<h2>Board of Governors</h2><ul><li><a href="/g/1">J.R. Smith</a> Chair</li><li><a href="/g/2">W.G. Champion Mitchell</a> Governor</li></ul><div class="c"><h4>Andreas Lind</h4><p>B.A. Betriebswirt</p></div>`,
			map[string]string{"J.R. Smith": "Chair", "W.G. Champion Mitchell": "Governor", "Andreas Lind": "Board of Governors"}},
		{"a numbered list of names and roles; 'Role, Name' lines; a family name first is no role",
			`<h2>Vorstand</h2><p>1. Anna Roth – Vorsitzende<br>2. Jan Hahn – Stellvertreter</p><h2>Leadership</h2><p>CEO, Eva Bauer</p><p>Head of Sales, Tom Lehmann</p><p>Roth, Anna</p>`,
			map[string]string{"Anna Roth": "Vorsitzende", "Jan Hahn": "Stellvertreter", "Eva Bauer": "CEO", "Tom Lehmann": "Head of Sales"}},
		{"'Name / Title' and 'Name: Title' lines; a name followed only by its phone and e-mail",
			`<h2>Team</h2><p>Anna Roth / Geschäftsführerin</p><p>Jan Hahn: CTO</p><h2>Ansprechpartner</h2><p>Eva Bauer, Tel. 0123 45678, eva@acme.de</p>`,
			map[string]string{"Anna Roth": "Geschäftsführerin", "Jan Hahn": "CTO", "Eva Bauer": "Ansprechpartner"}},
		{"a Mexican accountant's initials before a name are an honorific",
			`<h2>Nuestro equipo</h2><div class="miembro"><h4>Lic. Juan Pérez García</h4><span>Director General</span></div><div class="miembro"><h4>C.P. Roberto Sánchez</h4><span>Contador</span></div>`,
			map[string]string{"Juan Pérez García": "Director General", "Roberto Sánchez": "Contador"}},
		{"a directory table with the given and family names in columns of their own",
			`<h2>Staff directory</h2><table><thead><tr><th>Last name</th><th>First name</th><th>Position</th></tr></thead><tbody><tr><td>Roth</td><td>Anna</td><td>Director</td></tr><tr><td>Bekele</td><td>Abebe</td><td>Field Officer</td></tr></tbody></table><table><tr><th>Vorname</th><th>Name</th><th>Funktion</th></tr><tr><td>Jan</td><td>Hahn</td><td>Buchhaltung</td></tr></table><table><tr><th>Ort</th><th>Name</th></tr><tr><td>Bonn</td><td>Kita Sonnenschein</td></tr></table>`,
			map[string]string{"Anna Roth": "Director", "Abebe Bekele": "Field Officer", "Jan Hahn": "Buchhaltung"}},
		{"cards as links or buttons of inline runs; a grid of the same shape under a heading of projects holds no people",
			`<h2>Who we are</h2><div><a href="/p/0"><small>Head of Finance</small><span>Anna Roth</span></a><a href="/p/1"><small>Lead Engineer</small><span>Jan Hahn</span></a></div><div><button><b>Eva Bauer</b><span>Office Manager</span></button><button><b>Tom Lehmann</b><span>Controller</span></button></div>
<h2>Our Team</h2><div class="row g-4"><div class="col-md-4"><h3 class="fw-bold">Paul Martin</h3><p class="small">Head of Sales</p></div><div class="col-md-4"><h3 class="fw-bold">Claire Durand</h3><p class="small">Designer</p></div></div><h2>Our projects</h2><div class="row g-4"><div class="col-md-4"><h3 class="fw-bold">Green Valley</h3><p class="small">Community programme since 2019</p></div><div class="col-md-4"><h3 class="fw-bold">Blue Harbor</h3><p class="small">Community programme since 2019</p></div><div class="col-md-4"><h3 class="fw-bold">Silver Line</h3><p class="small">Community programme since 2019</p></div></div>`,
			map[string]string{"Anna Roth": "Head of Finance", "Jan Hahn": "Lead Engineer", "Eva Bauer": "Office Manager", "Tom Lehmann": "Controller", "Paul Martin": "Head of Sales", "Claire Durand": "Designer"}},
		{"a firm's legal form in dotted capitals is no initial; a department heading 'Technical Services' still gives its people a title",
			`<h2>Impressum</h2><p>Delta B.V.</p><p>Aurora Asesores S.A.</p><h2>Technical Services</h2><ul><li>Anna Roth</li><li>Jan Hahn</li></ul>`,
			map[string]string{"Anna Roth": "Technical Service", "Jan Hahn": "Technical Service"}},
		{"two bios on a page of the firm's history are no team",
			`<h2>Our history</h2><p>Karl Benz was an engineer who built the first car in 1885. He lived in Mannheim with his family.</p><p>Bertha Benz was the first to drive it a long way in 1888. She took her sons along.</p>`,
			map[string]string{}},
		{"a byline's word before a name is no part of it",
			`<h2>Team</h2><div class="m"><h3>By Anna Roth</h3><p>Head of Finance</p></div><div class="m"><h3>Par Claire Durand</h3><p>Directrice</p></div>`,
			map[string]string{"Anna Roth": "Head of Finance", "Claire Durand": "Directrice"}},
		{"names in a row of header cells or in capitals with their titles in the next row; a name with a degree that spells a state",
			`<h2>Vorstand</h2><table><tr><th>Anna Roth</th><th>Jan Hahn</th><th>Eva Bauer</th></tr><tr><td>Vorsitzende</td><td>Kassierer</td><td>Schriftführerin</td></tr></table><table><tr><td>ANNA KLEIN</td><td>JAN WOLF</td></tr><tr><td>Vorsitzende</td><td>Kassierer</td></tr></table><h2>Medical Board</h2><ul><li>Jane Smith, MD</li><li>John Miller, PA</li></ul>`,
			map[string]string{"Anna Roth": "Vorsitzende", "Jan Hahn": "Kassierer", "Eva Bauer": "Schriftführerin", "Anna Klein": "Vorsitzende", "Jan Wolf": "Kassierer", "Jane Smith": "Medical Board", "John Miller": "Medical Board"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got := Extract(tc.html, url, Options{})
			if len(got) != len(tc.want) {
				t.Fatalf("got %q, want %v", names(got), tc.want)
			}
			for _, p := range got {
				if want, ok := tc.want[p.Name]; !ok || p.Title != want {
					t.Errorf("got %q with title %q; want %v", p.Name, p.Title, tc.want)
				}
			}
		})
	}
}

// TestSectionHeadingsVouchForNoOne: a page's section headings (h2) that another rule
// keeps by mistake ("Echipa de Specialiști" over a department heading) do not make
// the other section headings people by their repetition.
func TestSectionHeadingsVouchForNoOne(t *testing.T) {
	page := `<h2>Echipa de Specialiști</h2><h3>Departamentul consultanta financiara</h3><p>Echipa noastră de contabili certificați gestionează toate aspectele financiare ale afacerii tale.</p>
<h2>Filozofia Echipei</h2><h3>Educație Continuă</h3><p>Echipa noastră participă regulat la cursuri de specializare și seminarii.</p>
<h2>Valori Comune</h2><ul><li><strong>Integritate</strong>: Menținem standardele etice cele mai înalte</li></ul>
<h2>Dezvoltare Profesională</h2><p>Echipa AWG Activ Consulting beneficiază de:</p><ul><li>Programe continue de formare profesională</li></ul>`
	for _, p := range Extract(page, "https://acme.example/echipa/", Options{}) {
		if p.Name == "Filozofia Echipei" || p.Name == "Valori Comune" {
			t.Errorf("section heading %q read as a person", p.Name)
		}
	}
}
