package people

import (
	"regexp"
	"sort"
	"strings"
	"unicode"
	"unicode/utf8"

	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"
)

// The lines reader reads the people of team pages whatever their markup: the page is
// laid out as lines (the text of each block element, split at <br>), a line that is
// a personal name is a person, and the title is found next to it in the smallest part
// of the page that holds no other name (its card, list item, table row, or the pair
// of a dt and its dd): the line after the name, else the line before it (a role
// label above the name). Lines that carry a name and a title together are read by
// their shape: "Role: Name", "Name (Role)", "Name, Title", "Name | Title",
// "Name – Title". A name alone in a list under a heading takes the heading as its
// title when the heading names a role or a body ("Vorstand", "Backend"), not the page
// ("Our team"). Sections of former members (alumni, ehemalige, anciens...) and of
// open positions are skipped.
//
// A person without a title is kept only where the page says it lists people: a
// person class on the card or a container (member, team, staff...), a heading of a
// people section above, or a sibling card with a title.

// line is one line of a page's text.
type line struct {
	text    string
	parts   []string   // the text split where marked-up runs (strong, a span with a class, a link) begin and end
	fine    []string   // the text split where any inline element begins and ends ("Name <span>Title</span>")
	block   *html.Node // the block element the text sits in
	heading int        // 1-6 when the block is a heading
	links   []string   // hrefs of the links on the line
	skip    bool       // in a section of former members or open positions
	bold    bool       // all its text is set in bold (strong, b, th, dt): a label
}

// layout is a page laid out as lines.
type layout struct {
	lines []line
	span  map[*html.Node][2]int // the lines under each element: [first, last+1)
	prose map[int]bool          // lines that open a sentence naming someone on the next line: not titles
	slot  map[int]bool          // lines in the role slot of the page's cards: titles whatever their words
	// slotTitles counts, by element shape (rosterKey), the titles read right after a known name
	slotTitles map[string]int
	// jobSlot marks the shapes of the first of two title lines where those lines mostly
	// state jobs held elsewhere: the second line is the role
	jobSlot map[string]bool
	repeats map[string]int // how often each line's text occurs on the page (repeated, on first use)
}

var inlineTags = map[atom.Atom]bool{atom.Span: true, atom.Strong: true, atom.B: true, atom.Em: true, atom.I: true, atom.A: true,
	atom.Small: true, atom.Abbr: true, atom.Font: true, atom.Label: true, atom.Sup: true, atom.Sub: true, atom.U: true,
	atom.Time: true, atom.Cite: true, atom.Mark: true, atom.Bdi: true, atom.Q: true}

// skippedTags hold no people's text: code, navigation, forms.
var skippedTags = map[atom.Atom]bool{atom.Script: true, atom.Style: true, atom.Noscript: true, atom.Template: true, atom.Nav: true,
	atom.Form: true, atom.Select: true, atom.Button: true, atom.Svg: true, atom.Head: true, atom.Footer: true, atom.Img: true}

func layOut(doc *html.Node) *layout {
	l := &layout{span: map[*html.Node][2]int{}}
	var cur strings.Builder
	var parts, fine []string
	var part, finePart strings.Builder
	var links []string
	var block *html.Node
	boldDepth, plain := 0, false // bold elements entered; text outside them on the line
	flushFine := func() {
		if s := strings.Join(strings.Fields(finePart.String()), " "); s != "" {
			fine = append(fine, s)
		}
		finePart.Reset()
	}
	flushPart := func() {
		flushFine()
		if s := strings.Join(strings.Fields(part.String()), " "); s != "" {
			parts = append(parts, s)
		}
		part.Reset()
	}
	flush := func() {
		flushPart()
		if s := cutTerm(strings.Join(strings.Fields(cur.String()), " ")); s != "" && block != nil {
			if len(parts) > 0 {
				parts[len(parts)-1] = cutTerm(parts[len(parts)-1])
			}
			ln := line{text: s, parts: joinNameRuns(parts), fine: fine, block: block, links: links, bold: !plain}
			if h := headingLevel(enclosingBlock(block)); h > 0 {
				ln.heading = h
			} else if labelClass.MatchString(attr(block, "class")) && len(strings.Fields(s)) <= 6 {
				ln.heading = 7 // a label styled as a section heading ("<div class=role-title>")
			}
			l.lines = append(l.lines, ln)
		}
		cur.Reset()
		parts, fine, links, plain = nil, nil, nil, false
	}
	var open []*html.Node // elements entered, to record their line spans
	var rec func(n *html.Node)
	rec = func(n *html.Node) {
		switch n.Type {
		case html.TextNode:
			text := invisible.Replace(n.Data)
			if boldDepth == 0 && strings.TrimSpace(text) != "" {
				plain = true
			}
			cur.WriteString(text)
			cur.WriteByte(' ')
			part.WriteString(text)
			part.WriteByte(' ')
			finePart.WriteString(text)
			finePart.WriteByte(' ')
			return
		case html.ElementNode, html.DocumentNode:
		default:
			return
		}
		if skippedTags[n.DataAtom] && !cardPart(n) {
			return
		}
		if n.DataAtom == atom.Br {
			flush()
			return
		}
		if n.DataAtom == atom.Sup {
			// "1<sup>ste</sup> Deken", "2<sup>nd</sup>": the ordinal's ending joins its number
			for _, b := range []*strings.Builder{&cur, &part, &finePart} {
				if t := b.String(); len(t) >= 2 && t[len(t)-1] == ' ' && t[len(t)-2] >= '0' && t[len(t)-2] <= '9' {
					b.Reset()
					b.WriteString(t[:len(t)-1])
				}
			}
		}
		// A link or span with a person class is a card, not a run of text.
		inline := inlineTags[n.DataAtom] && !personish(n) && !inlineCard(n)
		marked := inline && (n.DataAtom != atom.Span && n.DataAtom != atom.Font && n.DataAtom != atom.Abbr || attr(n, "class") != "")
		if !inline {
			flush()
		} else if marked {
			flushPart()
		} else {
			flushFine()
		}
		if n.DataAtom == atom.A {
			if h := attr(n, "href"); h != "" {
				links = append(links, h)
			}
		}
		saved := block
		if !inline && n.Type == html.ElementNode {
			block = n
		}
		start := len(l.lines)
		open = append(open, n)
		bold := boldTags[n.DataAtom]
		if bold {
			boldDepth++
		}
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			rec(c)
		}
		if bold {
			boldDepth--
		}
		if !inline {
			flush()
		} else if marked {
			flushPart()
		} else {
			flushFine()
		}
		open = open[:len(open)-1]
		block = saved
		if n.Type == html.ElementNode {
			l.span[n] = [2]int{start, len(l.lines)}
		}
	}
	rec(doc)
	flush()
	return l
}

// enclosingBlock is the block element around n: n itself, or the first ancestor that
// is not inline when n is a span or link read as a card ("<h2><span class=leader-name>").
func enclosingBlock(n *html.Node) *html.Node {
	b := n
	for b != nil && b.Type == html.ElementNode && inlineTags[b.DataAtom] {
		b = b.Parent
	}
	if b == nil || b.Type != html.ElementNode {
		return n
	}
	return b
}

// labelClass is the class of a block that heads a group of people without being a
// heading element ("role-title", "section-label").
var labelClass = regexp.MustCompile(`(?i)(^|[-_\s])(role[-_]?title|section[-_]?(?:title|label|heading)|group[-_]?(?:title|label)|team[-_]?(?:title|heading))($|[-_\s])`)

// boldTags set a label's text apart.
var boldTags = map[atom.Atom]bool{atom.Strong: true, atom.B: true, atom.Th: true, atom.Dt: true}

func headingLevel(n *html.Node) int {
	switch n.DataAtom {
	case atom.H1:
		return 1
	case atom.H2:
		return 2
	case atom.H3:
		return 3
	case atom.H4:
		return 4
	case atom.H5:
		return 5
	case atom.H6:
		return 6
	}
	return 0
}

// skipSection marks headings of sections that list no current people.
var skipSection = regexp.MustCompile(`(?i)\b(alumni\b|alumnae|former|history|historique|histórico|historico|storico|historie|past|previous|emerit|in memoriam|ehemalige|früher|anciens?|anciennes?|antiguos?|antigos?|ex-|passati|ex membri|voormalige|oud-|tidligere|hiring|join us|join our|open positions|vacanc|vacatures|stellenangebote|offene stellen|jobs|careers|karriere|recrutement|nous rejoindre|trabaja con|lavora con|testimonial|what our (?:clients|customers) say|kundenstimmen|témoignages?|testimonios?|depoimentos?|recensioni|referenzen|reviews)`)

// genericHeading is a heading that names the page or its list, not a role or a body.
var genericHeading = regexp.MustCompile(`(?i)^(?:(?:the|our|meet|unser(?:e|es)?|das|notre|l'|nuestro|el|il nostro|het|ons) \S+[ -])?(the |our |meet |unser(e)? |notre |nuestro |nosso |a nossa |il nostro |il |lo |el |los |las |os |as |het |de |den |der |ons |vårt |l'|la |le |das |die )*(team|teams|équipe|equipe|equipo|equipa|people|staff|members|mitglieder|mitarbeiter(innen)?|personnel|persone|personas|pessoas|medewerkers|ansatte|medlemmer.*|membres|miembros|membri|membros|zespół|zespol|ekipa|kadra|tým|personál|medarbetare|medarbeidere|tiimi|henkilöstö|who we are|o nas|o nás|about us|über uns|qui sommes-nous|quiénes somos|chi siamo|over ons|om oss|contact|kontakt|contacto|contatti|leadership|management)$`)

// headingRole is the title a heading or a label gives the people under it: the role
// in brackets ("Erweiterter Vorstand (Beisitzer)" gives Beisitzer), else the heading
// without a possessive ("Nos designers" gives designers).
func headingRole(t string) string {
	if m := nameParen.FindStringSubmatch(t); m != nil {
		if r, ok := titleLine(m[2]); ok && looksLikeTitle(r) {
			return r
		}
		if !knownName(m[1]) {
			return headingRole(m[1]) // an aside in brackets ("Vocales (Números Impares)", "Board (2024-2026)")
		}
	}
	if rest := listOf.ReplaceAllString(t, ""); rest != t && len(strings.Fields(rest)) <= 2 && !strings.ContainsAny(rest, "0123456789") {
		r := []rune(rest)
		return string(unicode.ToUpper(r[0])) + string(r[1:]) // "Liste des administrateurs": Administrateurs
	}
	if m := articleOf.FindStringSubmatch(t); m != nil && !titleWord(m[2]) && !pluralJobWord(strings.ToLower(m[2])) {
		if genericHeading.MatchString(m[1]) {
			return "" // "The Team of Acme": people, no title
		}
		return m[1] // "Les Fondateurs d'Aqualis" gives Fondateurs, "The Partners of Acme" Partners
	}
	return possessive.ReplaceAllString(t, "")
}

// listOf opens a heading that lists the holders of a role ("Liste des administrateurs",
// "List of trustees"): the role is the rest.
var listOf = regexp.MustCompile(`^(?i:liste des|liste der|list of|lista de|elenco dei|elenco degli|lijst van)\s+`)

// articleOf is a heading that names the role of the people under it after an article
// and before the organisation's name ("Les Fondateurs d'Aqualis", "The Founders of
// Acme", "Los Socios de Vega"): the role is the word or two between them.
var articleOf = regexp.MustCompile(`^(?i:les|the|die|los|las|gli|het)\s+(\pL[\pL-]*(?:\s\pL[\pL-]*)?)\s+(?i:of|d'|d’|de|du|des|del|der|von|van|di|della|dell')\s*(\p{Lu}[\pL&.-]*(?:\s\p{Lu}[\pL&.-]*){0,3})$`)

// roleClass is the class of an element that holds a title ("member-role",
// "job-title", "cargo"; not "card-title", a heading): its text is a title even when it reads like a name
// ("Breitensport Reiten").
var roleClass = regexp.MustCompile(`(?i)(^|[-_\s])(role|position|job|job[-_]?title|funktion|fonction|poste|cargo|ruolo|function|designation|rolle|functie)($|[-_\s])`)

// possessive opens a heading over a list of people ("Nos designers", "Unsere
// Trainer"): the members' title is the rest.
var possessive = regexp.MustCompile(`(?i)^(?:nos|notre|our|unsere?|nuestros|nuestras|nuestro|nuestra|i nostri|le nostre|onze|nossos|nossas)\s+`)

// markSkipped flags the lines of sections whose heading says they list former
// members or open positions, up to the next heading of the same or a higher rank.
func (l *layout) markSkipped() {
	level := 0
	for i := range l.lines {
		ln := &l.lines[i]
		if ln.heading > 0 {
			if level > 0 && ln.heading <= level {
				level = 0
			}
			if level == 0 && skipSection.MatchString(alumniBody.ReplaceAllString(ln.text, "")) {
				level = ln.heading
			}
		}
		ln.skip = level > 0
	}
}

// found is a person the lines reader found, and how.
type found struct {
	p      Person
	line   int
	alone  bool // the name stands alone in its card (no title beside it)
	strong bool // the line's shape says it is a person ("Role: Name")
	card   bool // read from the lines around a name (personAt), not from the line's shape
	shared bool // one of two or more names on one line, or a name with an aside: its card gives the title
	bio    bool // the title is the role the card's bio states
}

// lines reads the people of a page's layout.
func lines(doc *html.Node) []Person {
	l := layOut(doc)
	l.markSkipped()
	l.markHeaderRows()
	isName := make([]bool, len(l.lines))
	names := make([]string, len(l.lines))
	h1 := 0 // a page with one h1 names itself there; with several, an h1 may be a person's
	for _, ln := range l.lines {
		if ln.heading == 1 {
			h1++
		}
	}
	var out, bios []found
	classed, partner := map[int]bool{}, map[int]string{}
	for i, ln := range l.lines {
		if ln.heading == 1 && h1 < 2 && !l.ownPage(i) || ln.skip || inMenu(ln.block) || l.townLine(i) || firmFirst.MatchString(ln.text) {
			continue
		}
		if fs := fromParts(ln.parts); len(fs) > 0 {
			if len(fs) == 1 && fs[0].p.Title == "" {
				// "<strong>Name</strong>, PhD" or "Name (Acme Ltd)": one name with no
				// title in its line; the card around it may give one
				isName[i], names[i] = true, fs[0].p.Name
				continue
			}
			for _, f := range fs {
				if len(fs) == 1 {
					l.contacts(&f.p, i, true)
				}
				f.line = i
				out = append(out, f)
			}
			isName[i] = true
			continue
		}
		if in, ok := bracketed(clean(ln.text)); ok {
			// "<strong>Aktuarin:</strong><br>(Conni Hubel)": a name in brackets on its own line
			if n, ok := nameOf(in); ok && nameEvidence(n) {
				isName[i], names[i] = true, n
				continue
			}
		}
		if m := interimHolder.FindStringSubmatch(clean(ln.text)); m != nil {
			// "vacant (interim: Name)": the post's holder for now, with the row's role
			if n, ok := nameOf(m[1]); ok && knownName(n) {
				isName[i], names[i] = true, n
				continue
			}
		}
		if a, b, ok := sharedFamily(clean(ln.text)); ok {
			// "Bessie and Max Simon": two people who share the family name and the card
			isName[i], names[i], partner[i] = true, a, b
			continue
		}
		if n, ok := l.ledBy(i); ok {
			isName[i], names[i] = true, n
			continue
		}
		if n, ok := classedName(ln); ok {
			// "<dt class="director-name">Kurt Key</dt>": a name class says name, where a
			// family name is also a job word ("Key", "Head", "Senior")
			isName[i], names[i], classed[i] = true, n, true
			continue
		}
		if n, ok := nameOf(ln.text); ok && !menuLine(ln) && !roleClassed(ln.block) {
			if knownName(n) || !looksLikeTitle(n) {
				isName[i], names[i] = true, n
			}
			continue // an unknown "name" that reads as a title is a title line ("Coordinador de Eventos")
		}
		if ps := semiList(ln.text); len(ps) > 0 {
			for _, p := range ps {
				out = append(out, found{p: p, line: i, alone: true, shared: true})
			}
			isName[i] = true
			continue
		}
		if fs := barList(ln.text); len(fs) > 0 {
			for _, f := range fs {
				f.line = i
				out = append(out, f)
			}
			isName[i] = true
			continue
		}
		if p, ok := barRow(ln.text); ok {
			l.contacts(&p, i, true)
			out = append(out, found{p: p, line: i, strong: true})
			isName[i] = true
			continue
		}
		if p, ok, alone := shaped(ln.text); ok {
			l.contacts(&p, i, true)
			out = append(out, found{p: p, line: i, alone: alone, strong: roleColonName.MatchString(ln.text), shared: alone})
			isName[i] = true
			continue
		}
		if p, ok := titledName(ln); ok && l.span[ln.block][1]-l.span[ln.block][0] == 1 {
			l.contacts(&p, i, true)
			out = append(out, found{p: p, line: i})
			isName[i] = true
			continue
		}
		if p, ok := nameByTitle(clean(ln.text)); ok {
			l.contacts(&p, i, true)
			out = append(out, found{p: p, line: i, strong: true})
			isName[i] = true
			continue
		}
		if n, ok := nameWithContacts(clean(ln.text)); ok {
			p := Person{Via: ViaBlock, Name: n}
			l.contacts(&p, i, true)
			out = append(out, found{p: p, line: i, alone: true})
			isName[i] = true
			continue
		}
		if p, ok := roleCommaName(clean(ln.text)); ok {
			l.contacts(&p, i, true)
			out = append(out, found{p: p, line: i, strong: true})
			isName[i] = true
			continue
		}
		if fs := fineParts(ln); len(fs) > 0 {
			l.contacts(&fs[0].p, i, true)
			fs[0].line = i
			out = append(out, fs[0])
			isName[i] = true
			continue
		}
		if ps := nameList(ln.text); len(ps) > 0 {
			for _, p := range ps {
				out = append(out, found{p: p, line: i, alone: true, shared: true})
			}
			isName[i] = true
			continue
		}
		if ps := labelRuns(ln.parts); len(ps) > 0 {
			for _, p := range ps {
				out = append(out, found{p: p, line: i})
			}
			isName[i] = true
			continue
		}
		if ps := prose(ln.text); len(ps) > 0 {
			for _, p := range ps {
				out = append(out, found{p: p, line: i})
			}
			isName[i] = true
		} else if ps := copulaPeople(ln.text); len(ps) > 0 {
			for _, p := range ps {
				out = append(out, found{p: p, line: i})
			}
			isName[i] = true
		} else if ps := parenPeople(ln.text); len(ps) > 0 {
			for _, p := range ps {
				out = append(out, found{p: p, line: i})
			}
			isName[i] = true
		} else if p, ok := bioLead(ln.text); ok {
			bios = append(bios, found{p: p, line: i, strong: true}) // no heading gives a bio its title
		}
	}
	bios = l.ownBios(bios, isName)
	if len(bios) >= 3 || len(bios) == 2 && l.teamSection(bios[0].line) {
		// Bios that each open with a name, three or more, or two under a heading that
		// names the team: the page's people ("Hakim Alhusan is a veteran of ...")
		out = append(out, bios...) // not marked as names: a card's own name keeps its title
	}
	out = append(out, l.slottedParts(isName)...)
	l.roleColumns(isName, names)
	l.roleSlots(isName, names)
	if len(l.slot) > 0 {
		kept := out[:0]
		for _, f := range out {
			if !l.slot[f.line] {
				kept = append(kept, f)
			}
		}
		out = kept
	}
	// A given name alone ("Juan") in the slot where two or more other cards of the page
	// hold full names is a person known by the first name, when a title goes with it.
	slot := map[string]int{}
	for i := range l.lines {
		if names[i] != "" {
			slot[l.rosterKey(i)]++
		}
	}
	single, slotted, nounGiven := map[int]bool{}, map[int]bool{}, map[int]bool{}
	for i, ln := range l.lines {
		if w := clean(ln.text); !isName[i] && !ln.skip && !ln.bold && ln.heading != 1 && slot[l.rosterKey(i)] >= 2 && givenAlone(w) && !l.nameBeside(i, isName) {
			isName[i], names[i], single[i] = true, w, true
		} else if t := capsFamilyName(w); !isName[i] && !ln.skip && ln.heading != 1 && t != w && slot[l.rosterKey(i)] >= 3 && isNameNounGiven(t, true) && !looksLikeTitle(t) && !inMenu(ln.block) {
			// A family name in capitals whose words the model does not know ("Ottavin
			// BRUCKMOSER"), in the slot where three or more other names of the page sit;
			// its given name may end like a noun ("Marité SAUTIER").
			isName[i], names[i], slotted[i], nounGiven[i] = true, t, true, !IsName(t)
		} else if t, ok := slotName(w); !isName[i] && !ln.skip && ln.heading != 1 && ok && slot[l.rosterKey(i)] >= 2 && !inMenu(ln.block) && !l.nameInRow(i, isName) {
			// A name the model does not know written in capitals ("GIORGI BERIDZE") or
			// family name first ("Beridze, Giorgi"), in the slot where two or more other
			// names of the page sit, with no name beside it (not the town in the next cell).
			isName[i], names[i], slotted[i] = true, t, true
		}
	}
	l.capsRuns(isName, names, slotted)
	l.joinSplitNames(isName, names)
	for i := range l.lines {
		if names[i] != "" {
			if f := l.personAt(i, isName, names); !single[i] && !nounGiven[i] || f.p.Title != "" && looksLikeTitle(f.p.Title) {
				f.p.firstOnly, f.p.slotted, f.p.classed, f.strong = single[i], nounGiven[i], classed[i], f.strong || slotted[i]
				out = append(out, f)
				if partner[i] != "" {
					g := f
					g.p.Name, g.p.Email, g.p.Phones, g.p.rawPhones, g.p.LinkedInURL = partner[i], "", nil, nil, ""
					out = append(out, g)
				}
			}
		}
	}
	// Two or more names in one line ("A, B", "A und B") share the role their card
	// gives, read as for one name; so does a name with an aside and no title ("Name
	// (@handle)").
	shared := map[int]string{}
	for k, f := range out {
		if !f.shared {
			continue
		}
		t, ok := shared[f.line]
		if !ok {
			t = l.personAt(f.line, isName, names).p.Title
			shared[f.line] = t
		}
		if t != "" {
			out[k].p.Title, out[k].alone = t, false
		}
	}
	sort.SliceStable(out, func(a, b int) bool { return out[a].line < out[b].line })
	l.outsideJobs(out)
	l.biosUnderBoards(out)
	return l.keep(out, isName)
}

// menuLine reports whether a line is a row of links, one word each ("Unterricht
// Schulpferde Pensionspferde" in a menu), not a name.
func menuLine(ln line) bool {
	if len(ln.links) < 2 || len(ln.parts) < 2 {
		return false
	}
	for _, p := range ln.parts {
		if n := len(strings.Fields(p)); n != 1 && (n > 2 || len(ln.links) < 3 || len(ln.parts) != len(ln.links)) {
			return false // one word each, or a row of three or more links of two words at most ("CV Google Scholar OrcID")
		}
	}
	return true
}

// barSep splits a line of people set side by side ("Anna Roth (Vorsitzende) | Jan Hahn
// (Kassenwart)").
var barSep = regexp.MustCompile(`\s+[|·•]\s+`)

// barList reads a line of two or more people set side by side with bars or dots,
// each "Name (Role)", "Name – Role", "Role: Name" or a bare name; nothing when a part
// is something else.
func barList(text string) []found {
	segs := barSep.Split(clean(text), -1)
	if len(segs) < 2 {
		return nil
	}
	var out []found
	named := 0
	for _, seg := range segs {
		if _, ok := nameOf(seg); ok && !strings.Contains(seg, "(") {
			named++
		}
	}
	for _, seg := range segs {
		if n, ok := nameOf(seg); ok && !strings.Contains(seg, "(") {
			out = append(out, found{p: Person{Via: ViaBlock, Name: n}, alone: true})
			continue
		}
		if n, ok := listSlotName(seg, named); ok {
			out = append(out, found{p: Person{Via: ViaBlock, Name: n}, alone: true})
			continue
		}
		p, ok, alone := shaped(seg)
		if !ok {
			return nil
		}
		out = append(out, found{p: p, alone: alone, strong: roleColonName.MatchString(seg)})
	}
	return out
}

// nameList reads a line that is only names, two or more, separated by commas or
// "and" ("Laura Vidal, Carmen Ortiz y Pablo Ruiz"): each a person without a title.
func nameList(text string) []Person {
	if ps := semiList(text); len(ps) > 0 {
		return ps
	}
	parts := listSep.Split(sharedItems(clean(text)), -1)
	if len(parts) < 2 || strings.Contains(text, ":") {
		return nil // "Label: A, B" is prose's
	}
	var out []Person
	bad := 0
	for _, part := range parts {
		n, ok := nameOf(part)
		if !ok {
			bad++
			continue
		}
		out = append(out, Person{Via: ViaBlock, Name: n})
	}
	if bad > 0 && (len(out) < 4 || 4*bad > len(out)) {
		return nil // one item that is no name spoils a short list, or more than one in four a long one
	}
	return out
}

// joinSplitNames joins a name written over two lines: a single word followed, in the
// same block, by a line that completes a name ("Anna<br>Müller", "HÉLÈNE<br>PETRY"),
// or in the next heading of the same rank ("<h4 class=firstname>Anne-Charlotte</h4>
// <h4 class=surname>PASSELAC</h4>"); and a name followed by a line that opens with a
// particle ("Marcus Antonio<br>de Oliveira"), which is its family name, not a title.
func (l *layout) joinSplitNames(isName []bool, names []string) {
	for i := 0; i+1 < len(l.lines); i++ {
		a, b := l.lines[i], l.lines[i+1]
		if isName[i+1] || a.text == "" {
			continue
		}
		sameBlock := a.block == b.block
		pair := a.heading > 0 && a.heading == b.heading && b.block == nextElement(a.block) && (a.block.Parent == b.block.Parent)
		if !sameBlock && !pair {
			continue
		}
		aw, bw := strings.Fields(a.text), strings.Fields(b.text)
		if len(bw) == 0 || len(bw) > 3 {
			continue
		}
		if isName[i] {
			// "Marcus Antonio<br>de Oliveira": the particle-led line is the family name
			if sameBlock && particles[bw[0]] && len(bw) >= 2 {
				if n, ok := nameOf(a.text + " " + b.text); ok {
					isName[i], names[i] = false, ""
					isName[i+1], names[i+1] = true, n
					l.lines[i].text = ""
				}
			}
			continue
		}
		if len(aw) != 1 || !capitalised(a.text) && !(strings.ToUpper(a.text) == a.text && len([]rune(a.text)) >= 3) {
			continue
		}
		if looksLikeTitle(a.text) && !givenWord(strings.ToLower(a.text)) || looksLikeTitle(b.text) {
			continue // "Presidenta<br>London", "London<br>Projectleider": a title and a town, not a name
		}
		if n, ok := nameOf(a.text + " " + b.text); ok && (sameBlock || givenWord(strings.ToLower(a.text))) {
			isName[i+1], names[i+1] = true, n
			l.lines[i].text = "" // consumed
		}
	}
}

// item is the span of lines of the smallest part of the page around line i that
// holds no other name: widened from the line's block up its ancestors while no other
// name comes in.
func (l *layout) item(i int, isName []bool) (*html.Node, [2]int) {
	n := l.lines[i].block
	best, sp := n, l.span[n]
	for p := n.Parent; p != nil && p.Type == html.ElementNode; p = p.Parent {
		if p.DataAtom == atom.Body || p.DataAtom == atom.Main || p.DataAtom == atom.Html {
			break
		}
		s := l.span[p]
		other := false
		for k := s[0]; k < s[1] && !other; k++ {
			other = k != i && isName[k]
		}
		if other {
			break
		}
		best, sp = p, s
		if p.DataAtom == atom.Tr && cells(p) >= 2 {
			break // a table row of cells is a record: its card, not the table around it
		}
	}
	return best, sp
}

// cells counts the cells of a table row.
func cells(tr *html.Node) int {
	n := 0
	for c := tr.FirstChild; c != nil; c = c.NextSibling {
		if c.DataAtom == atom.Td || c.DataAtom == atom.Th {
			n++
		}
	}
	return n
}

// personAt reads the person whose name is line i.
func (l *layout) personAt(i int, isName []bool, names []string) found {
	p := Person{Via: ViaBlock, Name: names[i]}
	it, sp := l.item(i, isName)
	// The line after the name in its card, else the line before it (a role label
	// above the name, in its card or just above it). A label that names a job wins
	// over a line after the name that does not (an affiliation, an address).
	after, ownLine, afterK := "", false, -1 // ownLine: a line of text follows the name, title or not
	for k := i + 1; k < sp[1] && after == ""; k++ {
		if l.lines[k].heading > 0 && l.lines[i].heading == 0 && !(l.lines[k].heading >= 5 && k == i+1) || isName[k] {
			break // a heading after the name opens the next part; another name is another person
		}
		if qualificationLine(l.lines[k].text) {
			continue // "B.Sc.-Wirt.-Inf.": a degree, not the role
		}
		if t, ok := l.titleAt(k); ok {
			if k2, t2, ok := l.titleAfterDetail(k, t, sp[1], isName); ok {
				k, t = k2, t2 // "Name / München / Geschäftsführer": the town, then the title
			}
			after, afterK = l.multiLine(k, t, sp[1], isName), k
		} else if !isNoise(l.lines[k].text) {
			ownLine = !isName[k]
			break
		}
	}
	before, label := "", false
	for k := i - 1; k >= sp[0] && before == "" && !isName[k]; k-- {
		if qualificationLine(l.lines[k].text) {
			continue
		}
		if t, ok := l.titleAt(k); ok {
			if ownLine && k-1 >= sp[0] && isName[k-1] {
				break // "Name / line / Name / line": the line above is the card before's
			}
			before, label = t, l.isLabel(k, i)
		} else if !isNoise(l.lines[k].text) {
			break
		}
	}
	if afterK >= 0 && l.jobSlot[l.rosterKey(afterK)] && afterK+1 < sp[1] && !isName[afterK+1] && l.lines[afterK+1].heading == 0 {
		if t, ok := l.titleAt(afterK + 1); ok {
			if w := strings.Fields(t); titleWord(t) || agentNoun(w[len(w)-1]) {
				after = t // the role under the job held elsewhere, as on the page's other cards
			}
		}
	} else if afterK >= 0 && outsideJob(after) {
		// "<h4>Name</h4><h5>Research engineer at Acme</h5><p>Treasurer</p>": the job
		// held elsewhere, then the role held here; the role wins
		for k := afterK + 1; k < sp[1] && !isName[k] && l.lines[k].heading == 0; k++ {
			if t, ok := l.titleAt(k); ok {
				if w := strings.Fields(t); !outsideJob(t) && len(w) <= 6 && (titleWord(t) || agentNoun(w[len(w)-1])) {
					after = t
				}
				break
			} else if !isNoise(l.lines[k].text) {
				break
			}
		}
	}
	title := after
	if after == "" || label && titleWord(before) && !titleWord(after) || label && l.headsAddress(afterK, i) || before != "" && titleish(before) && l.boilerplate(afterK) {
		title = before // a label above the name wins over an addressee over a street ("Verwaltung des Friedhofs<br>Hauptstraße 9")
	}
	if t := l.rowRole(i, isName); t != "" {
		title = t // the table's column of titles
	} else if title == "" {
		title = l.rowLabel(i, isName) // the role cell before the name's cell
	}
	// A title on the card's first line and the name on its last, a bio between them
	// ("<li><p>Directeur artistique</p><p>Il veille ...<br>Léa Martin</p></li>").
	if title == "" && i == sp[1]-1 && sp[0] < i-1 && !l.lines[sp[0]].skip {
		if t, ok := l.titleAt(sp[0]); ok && looksLikeTitle(t) && len(strings.Fields(t)) <= 5 {
			title = t
		}
	}
	if title == "" {
		title = l.roleCarried(i, isName)
	}
	if title == "" {
		title = l.tabLabel(i, isName)
	}
	// A name heading and the title in the next heading of the same or a lower rank
	// ("<h5>Name</h5><h5>Président</h5><p>Firm<br>Street</p>", "<h4>Name</h4><h6>Vocal</h6>").
	if k := sp[1]; title == "" && l.lines[i].heading > 0 && k < len(l.lines) && !isName[k] && l.lines[k].heading >= l.lines[i].heading && l.lines[k].heading <= 6 &&
		l.lines[k].block == nextElement(it) && !l.labelsLead(i, k, isName) {
		if t, ok := titleLine(l.lines[k].text); ok && (looksLikeTitle(t) || l.slotTitles[l.rosterKey(k)] >= 2) {
			title = t
		}
	}
	// A name heading and the text after it in the heading's own container ("<div><h2>
	// Name</h2><hr><strong>Chair</strong><div>Country</div></div>") when the item stops
	// at the heading.
	if k := i + 1; title == "" && l.lines[i].heading > 0 && sp[1] == k && k < len(l.lines) && !isName[k] && l.lines[k].heading == 0 &&
		it.Parent != nil && l.lines[k].block == it.Parent {
		if t, ok := titleLine(l.lines[k].text); ok && (l.lines[k].bold || looksLikeTitle(t)) {
			title = t
		}
	}
	// A dt and its dd, a heading and its paragraph: the next sibling's line.
	if title == "" && !l.titlesLead(it, isName) {
		title = l.siblingTitle(it, isName)
	}
	if title == "" && l.titlesLead(it, isName) {
		if prev := prevElement(it); prev != nil {
			if sp2, ok := l.span[prev]; ok && sp2[1] > sp2[0] && !isName[sp2[0]] {
				title, _ = titleLine(l.lines[sp2[0]].text)
				if l.lines[sp2[0]].heading > 0 && l.lines[sp2[1]-1].block == l.lines[sp2[0]].block {
					title, _ = titleLine(headingRole(l.headingText(sp2[1] - 1))) // a heading broken by <br>
				}
			}
		}
	}
	if title == "" {
		title = l.rowBelow(i, isName)
	}
	if title == "" {
		title = l.labelAbove(i, sp, isName)
	}
	bio := title == ""
	for k := sp[0]; k < sp[1] && title == ""; k++ {
		if k != i && !isName[k] {
			title = latestRole(l.lines[k].text) // "Medlem af Bestyrelsen siden 2010. Formand siden 2016."
		}
	}
	for k := sp[0]; k < sp[1] && title == ""; k++ {
		if k != i && len(strings.Fields(l.lines[k].text)) > 6 {
			title = bioTitle(l.lines[k].text)
			break
		}
	}
	// A name heading and its bio in the paragraph after it ("<h4>Name</h4><p>Name is
	// the Chief Financial Officer of...</p>").
	if k := sp[1]; title == "" && l.lines[i].heading > 0 && k < len(l.lines) && !isName[k] && l.lines[k].heading == 0 &&
		len(strings.Fields(l.lines[k].text)) > 6 && l.sibling(it, l.lines[k].block) {
		title = bioTitle(l.lines[k].text)
	}
	for k := sp[0]; k < sp[1]; k++ {
		l.contacts(&p, k, k == i)
	}
	p.Title = title
	return found{p: p, line: i, alone: title == "", card: true, bio: bio && title != ""}
}

// agentNoun reports whether w names what a person does by its ending ("Administrator",
// "Kassierer", "Trésorière").
func agentNoun(w string) bool {
	lw := strings.ToLower(strings.Trim(w, ".,;"))
	if len([]rune(lw)) < 5 {
		return false
	}
	for _, e := range agentEndings {
		if strings.HasSuffix(lw, e) {
			return true
		}
	}
	return false
}

// headsAddress reports whether line k, after the name on line i, opens a block of its
// own that goes on with a postal address: the addressee, not the person's title.
func (l *layout) headsAddress(k, i int) bool {
	if k < 1 || l.lines[k].block == l.lines[i].block || l.lines[k-1].block == l.lines[k].block {
		return false
	}
	for j := k + 1; j < len(l.lines) && j <= k+2; j++ {
		if w := strings.Fields(l.lines[j].text); len(w) > 0 && addressLike(w) {
			return l.lines[j].block == l.lines[k].block || signature(l.lines[j].block) == signature(l.lines[k].block)
		}
	}
	return false
}

// outsideJobs gives the people of a board's section the section's role where their
// cards state the jobs they hold elsewhere: under "Trustees" or "Advisory Board",
// "Founder, Brick & Mortar Ventures" or "Director of Policy at a Charity" is what
// a member does outside the organisation, not the role held in it. A section
// qualifies when its heading names a board or the plural of a role, and at least
// half (two or more) of its cards' lines read as a job elsewhere (a role and an
// organisation). A role given in the name's own line ("Name, Chair") is kept.
func (l *layout) outsideJobs(fs []found) {
	type section struct{ cards, outside int }
	heads := make([]string, len(fs))
	secs := map[string]*section{}
	for k, f := range fs {
		if !f.card || f.p.Title == "" {
			continue
		}
		head, _ := l.sectionOf(f.line, l.lines[f.line].heading, true)
		if head == "" || !boardHeading(head) {
			continue
		}
		heads[k] = head
		if secs[head] == nil {
			secs[head] = &section{}
		}
		secs[head].cards++
		if outsideJob(f.p.Title) {
			secs[head].outside++
		}
	}
	for k := range fs {
		if sec := secs[heads[k]]; heads[k] != "" && sec.outside >= 2 && sec.outside*2 >= sec.cards && !boardOffice(fs[k].p.Title) {
			fs[k].p.Title = singular(heads[k])
		}
	}
}

// boardWords name a board or council, or its members.
var boardWords = regexp.MustCompile(`(?i)(^|\s)(board|trustees?|advisory|advisors?|advisers?|council|governors|directors|beirat|kuratorium|\pL*rat|conseil|consejo|consiglio|conselho|comité|comitato|committee|junta|bestuur|raad|vocales|miembros|membres|members|mitglieder)(\s|$)`)

// boardHeading reports whether a section heading names a board or council
// ("Advisory Board", "Beirat") or the holders of a role ("Trustees", "Presidentes
// de Asociaciones"); a department ("Engineering") does not.
func boardHeading(head string) bool {
	return boardWords.MatchString(head) || singular(head) != head
}

// orgWords name organisations; a line naming one beside a board member's name is an
// affiliation.
var orgWords = regexp.MustCompile(`(?i)(^|[\s(,])(university|universidad|universidade|université|universität|università|college|school|academy|institute|institut|instituto|istituto|foundation|fundación|fundação|fondation|stiftung|fondazione|association|asociación|associação|associazione|verband|verein|federation|federación|fédération|federazione|agrupación|club|clube|sociedad|société|società|sociedade|cooperativa|coopérative|genossenschaft|company|corporation|corp\.?|inc\.?|llc|llp|ltd\.?|gmbh|s\.a\.|s\.l\.|ventures|capital|bank|ministry|ministerio|ministère|house of representatives|senate|parliament|cámara)([\s),.]|$)`)

// jobAt joins a job to the organisation it is held at ("Director at NC Child",
// "Leiterin bei Acme", "Consultante chez Acme").
var jobAt = regexp.MustCompile(`\s(?:at|bei|chez|@)\s+(?:the\s+)?\p{Lu}`)

// jobOf joins a job to a named organisation ("Executive Director of Common Cause
// NC", "Member of the State House"): "of the" and a capital, or a name with an
// acronym.
var jobOf = regexp.MustCompile(`\sof\s+(?:the\s+\p{Lu}|(?:\p{Lu}\pL*\s+)*\p{Lu}{2,}\b)`)

// outsideJob reports whether a line beside a board member's name reads as a job held
// elsewhere: a role and an organisation ("Partner, Sidley Austin LLP", "CEO at
// Acme", "Founder, Brick & Mortar Ventures"), or an organisation alone.
func outsideJob(t string) bool {
	if orgWords.MatchString(t) || jobAt.MatchString(t) || jobOf.MatchString(t) {
		return true
	}
	_, rest, ok := strings.Cut(t, ", ")
	if !ok {
		return false
	}
	caps := 0
	for _, w := range strings.Fields(rest) {
		if titleWord(w) {
			return false
		}
		if r, _ := utf8.DecodeRuneInString(w); unicode.IsUpper(r) || unicode.IsDigit(r) {
			caps++
		}
	}
	return caps >= 2
}

// roleSlots finds the lines in the role slot of a page's cards that read like names
// but are roles: where two or more cards give a title in the line right after a
// known name, in elements of one shape, a line of that shape right after a name (known,
// or in the slot where three or more known names sit) is its title whatever its words
// ("Asistencia Social", "Elected Delegate", "PR"), unless the model knows it as a name.
func (l *layout) roleSlots(isName []bool, names []string) {
	known := map[string]int{} // known names by element shape: the page's name slots
	for j := range l.lines {
		if isName[j] && names[j] != "" && knownName(names[j]) {
			known[l.rosterKey(j)]++
		}
	}
	after := func(k int) bool { // line k follows a known name, or a name in a slot of three or more known names, in an element of another shape
		j := k - 1
		return j >= 0 && isName[j] && names[j] != "" && (knownName(names[j]) || known[l.rosterKey(j)] >= 3) && l.rosterKey(j) != l.rosterKey(k)
	}
	titled := map[string]int{}
	for k := range l.lines {
		if !isName[k] && after(k) {
			if _, ok := titleLine(l.lines[k].text); ok {
				titled[l.rosterKey(k)]++
			}
		}
	}
	l.slotTitles = titled
	// Cards with two title lines after the name, the first mostly a job held elsewhere
	// ("<h5>Research engineer at Acme</h5><p>Treasurer</p>"): the second is the role.
	pairs, outside := map[string]int{}, map[string]int{}
	for k := range l.lines {
		if isName[k] || !after(k) || k+1 >= len(l.lines) || isName[k+1] || l.rosterKey(k+1) == l.rosterKey(k) {
			continue
		}
		t, ok := titleLine(l.lines[k].text)
		if _, ok2 := titleLine(l.lines[k+1].text); !ok || !ok2 {
			continue
		}
		pairs[l.rosterKey(k)]++
		if outsideJob(t) {
			outside[l.rosterKey(k)]++
		}
	}
	for key, n := range pairs {
		if n >= 3 && outside[key]*2 >= n {
			if l.jobSlot == nil {
				l.jobSlot = map[string]bool{}
			}
			l.jobSlot[key] = true
		}
	}
	for k, ln := range l.lines {
		if !after(k) || titled[l.rosterKey(k)] < 2 || ln.skip {
			continue
		}
		t := clean(ln.text)
		unknown := isName[k] && names[k] != "" && (!knownName(names[k]) || looksLikeTitle(names[k])) // "Brand Ambassador": words of names, a title by the job model
		if p, ok, _ := shaped(t); isName[k] && names[k] == "" && ok && !knownName(p.Name) && p.Title != "" {
			unknown = true // "Scat Dog Handler, Research Manager": a title read as "Name, Title"
		}
		acronym := !isName[k] && len(t) >= 2 && len(t) <= 5 && strings.ToUpper(t) == t && strings.IndexFunc(t, func(r rune) bool { return !unicode.IsUpper(r) }) < 0
		if unknown || acronym && isNoise(t) && !emailRe.MatchString(t) {
			isName[k], names[k] = false, ""
			if l.slot == nil {
				l.slot = map[int]bool{}
			}
			l.slot[k] = true
		}
	}
}

// titleAt reads line k as a title (titleLine); a line whose element has a title class
// is one even when it reads like a name ("<div class=role>Breitensport Reiten</div>"),
// and so is a line in the role slot of the page's cards (roleSlots).
func (l *layout) titleAt(k int) (string, bool) {
	if l.prose[k] {
		return "", false
	}
	if l.slot[k] {
		return clean(l.lines[k].text), true
	}
	text := l.lines[k].text
	if ps := l.lines[k].parts; len(ps) >= 2 && trailingRun(ps[len(ps)-1]) {
		// "<span>Head of Marketing</span><a>LinkedIn</a>": the link's label is not the title's
		end := len(ps)
		for end > 1 && trailingRun(ps[end-1]) {
			end--
		}
		if t := strings.Join(ps[:end], " "); len(strings.FieldsFunc(t, func(r rune) bool { return !unicode.IsLetter(r) })) > 0 {
			text = t
		}
	}
	if t, ok := titleLine(text); ok {
		return t, true
	}
	if t := clean(l.lines[k].text); roleClassed(l.lines[k].block) && t != "" && len(t) <= 110 && !isNoise(t) {
		return t, true
	}
	return "", false
}

// titlesLead reports whether the siblings of it alternate a title and a name with the
// title first ("<li>Kassiererin</li><li>Anna Roth</li><li>Beisitzer</li>..."), from
// the first to the last: a title belongs to the name after it, not to the name before.
func (l *layout) titlesLead(it *html.Node, isName []bool) bool {
	if it.Parent == nil {
		return false
	}
	var run []int // the first line of each child of it's parent
	for c := it.Parent.FirstChild; c != nil; c = c.NextSibling {
		if sp, ok := l.span[c]; ok && c.Type == html.ElementNode && sp[1] > sp[0] {
			run = append(run, sp[0])
		}
	}
	if len(run) < 4 || len(run)%2 != 0 {
		return false
	}
	names := 0
	for k, first := range run {
		if k%2 == 1 {
			if isName[first] {
				names++
			}
			continue
		}
		if _, ok := titleLine(l.lines[first].text); isName[first] || !ok {
			return false
		}
	}
	return names*5 >= len(run)/2*4 // a name the model does not know may sit among them
}

// isLabel reports whether line k, above the name on line i, is set as a label: a
// heading, a line ending in a colon, or bold text over a name that is not bold.
func (l *layout) isLabel(k, i int) bool {
	ln := l.lines[k]
	return ln.heading > 0 || strings.HasSuffix(ln.text, ":") || ln.bold && !l.lines[i].bold
}

// labelAbove is the role label right above a name's card, outside it ("<p><strong>
// Kassenwart</strong></p><p>Jonas Reuter</p>", "<h4>Chargée de placement</h4><img><p>
// Name</p>"): the line before the card when it is set as a label, names a role (not
// the page), and is not part of the card of the name before.
func (l *layout) labelAbove(i int, sp [2]int, isName []bool) string {
	k := sp[0] - 1
	if k < 0 || isName[k] || l.lines[k].skip || l.lines[k].heading == 1 || !l.isLabel(k, i) || l.headsSection(k, sp[1], isName) {
		return ""
	}
	for p := k - 1; p >= 0; p-- {
		if isName[p] {
			if _, sp2 := l.item(p, isName); sp2[1] > k {
				return ""
			}
			break
		}
	}
	t, ok := titleLine(l.headingText(k))
	if words := len(strings.Fields(t)); !ok || genericHeading.MatchString(t) || thingHead(t) || words > 10 || l.lines[k].heading == 0 && words > 4 || clauseLabel(t) {
		return "" // not a label but a sentence ("Il Consiglio Direttivo in carica è composto da:")
	}
	return singular(headingRole(t))
}

// tableCell is the table cell (td or th, in a row) that holds n, or nil when n is not
// inside one (or is a table or row itself).
func tableCell(n *html.Node) *html.Node {
	for n != nil && n.DataAtom != atom.Td && n.DataAtom != atom.Th {
		if n.DataAtom == atom.Table || n.DataAtom == atom.Tr {
			return nil
		}
		n = n.Parent
	}
	if n == nil || n.Parent == nil || n.Parent.DataAtom != atom.Tr {
		return nil
	}
	return n
}

// rowBelow reads a table whose rows pair up: names in one row, their titles in the
// same columns of the next; or the titles in the row above, a title cell spanning
// the columns of the names it heads ("<td colspan=2>Secrétaires</td>" over two names).
func (l *layout) rowBelow(i int, isName []bool) string {
	cell := tableCell(l.lines[i].block)
	if cell == nil {
		return ""
	}
	col := 0
	for c := cell.Parent.FirstChild; c != nil && c != cell; c = c.NextSibling {
		if c.Type == html.ElementNode {
			col += colspan(c)
		}
	}
	if t := l.titleInColumn(nextElement(cell.Parent), col, isName); t != "" {
		return t
	}
	if t := l.titleInColumn(prevElement(cell.Parent), col, isName); t != "" && colspan(l.cellAt(prevElement(cell.Parent), col)) > 1 {
		return singular(headingRole(t))
	}
	return ""
}

// roleCarried reads a role/name table whose role cell is left empty for the second
// and later holders of a role ("<tr><td>Box office</td><td>A</td></tr><tr><td></td>
// <td>B</td></tr>"): the empty cell carries the role of the nearest row above whose
// cell in that column is filled, when every row in between names a person in the
// same column as this name.
func (l *layout) roleCarried(i int, isName []bool) string {
	cell := tableCell(l.lines[i].block)
	if cell == nil {
		return ""
	}
	tr := cell.Parent
	nameCol, col := -1, 0
	var empty []int
	for c := tr.FirstChild; c != nil; c = c.NextSibling {
		if c.Type != html.ElementNode {
			continue
		}
		if c == cell {
			nameCol = col
		} else if sp, ok := l.span[c]; !ok || sp[1] <= sp[0] {
			empty = append(empty, col)
		}
		col += colspan(c)
	}
	if nameCol < 0 {
		return ""
	}
	for _, ec := range empty {
		for up := prevElement(tr); up != nil && up.DataAtom == atom.Tr; up = prevElement(up) {
			nc := l.cellAt(up, nameCol)
			if nc == nil {
				break
			}
			if sp, ok := l.span[nc]; !ok || sp[1] <= sp[0] || !isName[sp[0]] {
				break // a row without a name in the name column: not the same list
			}
			c := l.cellAt(up, ec)
			if sp, ok := l.span[c]; c == nil || !ok || sp[1] <= sp[0] {
				continue // empty too: look further up
			}
			if t := l.titleInColumn(up, ec, isName); t != "" {
				return t
			}
			break
		}
	}
	return ""
}

// cellAt is the cell of row tr that covers column col, counting spans.
func (l *layout) cellAt(tr *html.Node, col int) *html.Node {
	if tr == nil || tr.DataAtom != atom.Tr {
		return nil
	}
	k := 0
	for c := tr.FirstChild; c != nil; c = c.NextSibling {
		if c.Type != html.ElementNode {
			continue
		}
		if k += colspan(c); k > col {
			return c
		}
	}
	return nil
}

// titleInColumn is the title in the cell of row tr over column col: its first line,
// when no line of it is a name.
func (l *layout) titleInColumn(tr *html.Node, col int, isName []bool) string {
	c := l.cellAt(tr, col)
	if c == nil {
		return ""
	}
	sp, ok := l.span[c]
	if !ok || sp[1] <= sp[0] {
		return ""
	}
	for j := sp[0]; j < sp[1]; j++ {
		if isName[j] {
			return ""
		}
	}
	t, _ := titleLine(l.lines[sp[0]].text)
	return t
}

func colspan(c *html.Node) int {
	if c == nil {
		return 1
	}
	n := 0
	for _, r := range attr(c, "colspan") {
		if r < '0' || r > '9' || n > 100 {
			break
		}
		n = n*10 + int(r-'0')
	}
	return max(n, 1)
}

// multiLine joins a title written over several lines of one block ("Directrice<br>et
// Neuropsychologue").
func (l *layout) multiLine(k int, t string, end int, isName []bool) string {
	for j := k + 1; j < end && l.lines[j].block == l.lines[k].block && !isName[j]; j++ {
		more, ok := titleLine(l.lines[j].text)
		if !ok || !continuesTitle(l.lines[j-1].text, more) || townState(l.lines[j].text) {
			break
		}
		t += " " + more
	}
	return t
}

// sibling reports whether block sits in the element right after it (a dd after a dt).
func (l *layout) sibling(it, block *html.Node) bool {
	next := nextElement(it)
	for b := block; b != nil; b = b.Parent {
		if b == next {
			return true
		}
		if b == it.Parent {
			return false
		}
	}
	return false
}

// contacts takes the email, phone and LinkedIn link shown on line k for p.
func (l *layout) contacts(p *Person, k int, own bool) {
	ln := l.lines[k]
	for _, h := range ln.links {
		lh := strings.ToLower(h)
		switch {
		case strings.HasPrefix(lh, "mailto:"):
			if p.Email == "" {
				p.Email = h
			}
		case strings.HasPrefix(lh, "tel:"):
			p.rawPhones = append(p.rawPhones, h[4:])
		case strings.Contains(lh, "linkedin.com/in/"):
			if p.LinkedInURL == "" {
				p.LinkedInURL = h
			}
		}
	}
	if own {
		return
	}
	s := ln.text
	switch {
	case emailRe.MatchString(s) && len(strings.Fields(s)) <= 3:
		if p.Email == "" {
			p.Email = emailRe.FindString(s)
		}
	case phoneRe.MatchString(strings.TrimLeft(s, phoneLabel)):
		p.rawPhones = append(p.rawPhones, s)
	}
}

// keepWith drops the people without a title the page gives no sign of listing people
// for, and attaches section headings as titles; rescue says which lines the page's
// repeated structure vouches for (keep, repeat.go). It returns the lines kept.
func (l *layout) keepWith(fs []found, isName []bool, rescue func(int) bool) ([]Person, []int) {
	var out []Person
	var at []int
	titled := map[string]bool{} // block signatures of titled cards, by section
	for _, f := range fs {
		if !f.alone {
			titled[l.sectionSignature(f.line)] = true
		}
	}
	roster := l.rosters(fs)
	// Where three or more names are headings of one shape, a name-like line that is
	// not a heading and opens a block with an address under it is the firm or the
	// bank a person works for ("<h5>Name</h5><h5>Title</h5><p>Firm<br>12, Main St</p>").
	shapes := map[string]int{}
	headed := false
	for _, f := range fs {
		k := l.rosterKey(f.line)
		shapes[k]++
		headed = headed || l.lines[f.line].heading > 0 && shapes[k] >= 3
	}
	for _, f := range fs {
		if headed && l.lines[f.line].heading == 0 && l.addressBelow(f.line) {
			continue
		}
		// A name the name model does not know needs a title that reads as one, a
		// person class on its card, a "Role: Name" line, or a list whose other names
		// the model knows: "Área Penal" over "Nuestro compromiso" is not a person.
		strong := f.strong || f.p.Title != "" && looksLikeTitle(f.p.Title) || l.personClass(f.line) || roster[l.rosterKey(f.line)] && !l.thingSection(f.line)
		if !strong && !knownName(f.p.Name) && !rescue(f.line) || !knownName(f.p.Name) && (l.tagOfCard(f.line, isName) || looksLikeTitle(f.p.Name)) {
			continue // a name the model does not know that reads as a title is the title ("Coordinador de Eventos")
		}
		if !f.alone {
			if l.thingSection(f.line) && !f.strong && !l.personClass(f.line) {
				continue // "Our projects": "Green Valley" over "Community programme since 2019"
			}
			out, at = append(out, f.p), append(at, f.line)
			continue
		}
		head, people := l.sectionOf(f.line, l.lines[f.line].heading, len(titled) > 0)
		if head == "" {
			head = l.sameRankSection(f.line, isName)
		}
		if head != "" {
			f.p.Title = singular(head)
		}
		if people || head != "" || titled[l.sectionSignature(f.line)] || l.personClass(f.line) || roster[l.rosterKey(f.line)] && !l.thingSection(f.line) || rescue(f.line) {
			out, at = append(out, f.p), append(at, f.line)
		}
	}
	return out, at
}

// tagOfCard reports whether line i, not a heading, sits in the card of the one person
// named in a heading above it, as one of that card's tags or skills ("<h3>Name</h3>
// <p>bio</p><ul><li>Systèmes Embarqués</li>...</ul>"): not a person of its own.
func (l *layout) tagOfCard(i int, isName []bool) bool {
	if l.lines[i].heading > 0 {
		return false
	}
	it, _ := l.item(i, isName)
	if it.Parent == nil {
		return false
	}
	sp, ok := l.span[it.Parent]
	if !ok {
		return false
	}
	owner := -1
	for k := sp[0]; k < sp[1]; k++ {
		if k == i || !isName[k] {
			continue
		}
		if owner >= 0 || k > i {
			return false // more than one other name, or one after it: a list of people
		}
		owner = k
	}
	if owner < 0 || l.lines[owner].heading == 0 {
		return false
	}
	n, ok := nameOf(l.lines[owner].text)
	return ok && knownName(n)
}

// nameBeside reports whether another line under the parent of line i's block is a
// name (a label cell beside the name's cell, not a person).
func (l *layout) nameBeside(i int, isName []bool) bool {
	b := l.lines[i].block
	if b.Parent == nil {
		return false
	}
	sp, ok := l.span[b.Parent]
	for k := sp[0]; ok && k < sp[1]; k++ {
		if k != i && isName[k] {
			return true
		}
	}
	return false
}

// nameInRow reports whether line i sits in a table row with a name in another cell
// (the town beside the name, not a person).
func (l *layout) nameInRow(i int, isName []bool) bool {
	n := l.lines[i].block
	for d := 0; n != nil && d < 3 && n.DataAtom != atom.Tr; d++ {
		n = n.Parent
	}
	if n == nil || n.DataAtom != atom.Tr {
		return false
	}
	sp := l.span[n]
	for k := sp[0]; k < sp[1]; k++ {
		if k != i && isName[k] {
			return true
		}
	}
	return false
}

// followingRole is the role a sentence names before the list it opens ("the following
// directors", "die folgenden Kassenprüfer", "les membres suivants" has none).
var followingRole = regexp.MustCompile(`(?i:following|folgenden|folgende|volgende|siguientes|seguenti)\s+(\pL[\pL-]{3,})`)

// addressBelow reports whether the lines after line i in its block hold an address.
func (l *layout) addressBelow(i int) bool {
	for k := i + 1; k < len(l.lines) && k <= i+3 && l.lines[k].block == l.lines[i].block; k++ {
		if w := strings.Fields(l.lines[k].text); len(w) > 0 && addressLike(w) {
			return true
		}
	}
	return false
}

// menuClass marks a site's navigation menu written as lists rather than a nav
// element ("<ul class="nav navbar-nav"><li class="menu-item">").
var menuClass = regexp.MustCompile(`(?i)(^|\s)(menu|menu-item|nav|navbar|navbar-nav|dropdown-menu|sub-menu|main-menu)(\s|$)`)

// inMenu reports whether n sits in a navigation menu: its list item or list (up to
// three levels up) has a menu class.
func inMenu(n *html.Node) bool {
	for k := 0; n != nil && k < 4; k, n = k+1, n.Parent {
		if (n.DataAtom == atom.Li || n.DataAtom == atom.Ul || n.DataAtom == atom.Ol) && menuClass.MatchString(attr(n, "class")) {
			return true
		}
	}
	return false
}

// givenAlone reports whether w is one given name the name model knows, written as a
// name ("Juan"; not "JUAN", "Team" or a job word).
func givenAlone(w string) bool {
	r := []rune(w)
	if len(r) < 3 || len(r) > 20 || !unicode.IsUpper(r[0]) || strings.ToLower(string(r[1:])) != string(r[1:]) {
		return false
	}
	for _, c := range r[1:] {
		if !unicode.IsLetter(c) {
			return false
		}
	}
	return givenLexicon()[strings.ToLower(w)] || nameLexicon()[strings.ToLower(w)] && !titleWord(w) && !looksLikeTitle(w) && !genericHeading.MatchString(w)
}

// rosterKey groups the lines of one list: the shape of the line's block and of its
// parent.
func (l *layout) rosterKey(i int) string {
	b := l.lines[i].block
	k := signature(b)
	if b.Parent != nil {
		k = signature(b.Parent) + ">" + k
	}
	return k
}

// rosters are the lists of three or more people at least half of whose names the
// name model knows: the others in them are names too.
func (l *layout) rosters(fs []found) map[string]bool {
	known, all := map[string]int{}, map[string]int{}
	for _, f := range fs {
		k := l.rosterKey(f.line)
		all[k]++
		if knownName(f.p.Name) || initialled(f.p.Name) {
			known[k]++
		}
	}
	out := map[string]bool{}
	for k, n := range all {
		out[k] = n >= 3 && known[k]*2 >= n
	}
	return out
}

// sectionOf is the nearest heading (or "Label:" line) above line i: as a title when
// it names a role or a body, and whether it says the section lists people.
// A name that is a heading looks only at headings of a higher rank.
//
// On a page where other people have titles, a list heading "Members" ("Mitglieder",
// "Membres", "Miembros", "Vocales", "Trustees") or such a label in bold over a list
// of names gives its singular: the ordinary members of a board beside its officers.
// On a page where no one has a title, "Members" is the page's heading and gives none.
func (l *layout) sectionOf(i, rank int, titledPage bool) (title string, people bool) {
	for k := i - 1; k >= 0; k-- {
		ln := l.lines[k]
		if rank == 0 && ln.heading == 0 && strings.HasSuffix(ln.text, ":") && len(strings.Fields(ln.text)) > 4 {
			// A sentence that opens the list ("Des Weiteren sind die folgenden
			// Kassenprüfer gewählt:") ends the search: the labels above are others'.
			if m := followingRole.FindStringSubmatch(ln.text); m != nil {
				return singular(m[1]), true
			}
			if body := composedBody(ln.text); body != "" {
				return body, true
			}
			if membersSentence(ln.text) {
				continue // "The committee also has these members:": the heading above names the body
			}
			return "", true
		}
		label := strings.HasSuffix(ln.text, ":") && len(strings.Fields(ln.text)) <= 4
		if rank == 0 && ln.heading == 0 && ln.bold && !label && titledPage && l.shortLinesBetween(k, i) {
			// "<b>Trustees</b><table>...names...</table>": a bold plural role over a list
			if one := memberTitle(clean(ln.text)); one != "" {
				return one, true
			}
		}
		if ln.heading == 0 && !label || rank > 1 && (ln.heading == 0 || ln.heading >= rank) || rank == 1 && ln.heading != 1 {
			continue // a name in an h1 (a page of several) looks at the other h1s
		}
		t := clean(l.headingText(k))
		if genericHeading.MatchString(t) {
			if one := memberSingular[strings.ToLower(t)]; one != "" && titledPage && rank == 0 {
				return one, true
			}
			return "", true
		}
		t = headingRole(t)
		if _, ok := nameOf(t); ok && rank == 1 {
			continue // another person's h1
		}
		if _, ok := nameOf(t); ok || len(strings.Fields(t)) > 6 || strings.ContainsAny(t, ".!?") || thingHead(clean(l.headingText(k))) {
			return "", false
		}
		if clauseLabel(t) {
			return "", true // "We are:": the list's opening words, no role
		}
		return t, true
	}
	return "", false
}

// headingText is the text of the heading on line k with the lines of the same
// heading before it: a heading broken by <br> ("Comisión de<br>Auditoría").
func (l *layout) headingText(k int) string {
	t := l.lines[k].text
	if l.lines[k].heading == 0 {
		return t
	}
	for j := k - 1; j >= 0 && k-j < 4 && l.lines[j].block == l.lines[k].block; j-- {
		t = l.lines[j].text + " " + t
	}
	return t
}

// personClass reports whether line i's block or one of its near ancestors carries a
// person class.
func (l *layout) personClass(i int) bool {
	n := l.lines[i].block
	for d := 0; n != nil && d < 5; d, n = d+1, n.Parent {
		if n.Type == html.ElementNode && personish(n) {
			return true
		}
	}
	return false
}

// titleLine reports whether a line next to a name reads as its title: short, not a
// sentence, not a contact detail or a link label; the label colon and degrees go.
func titleLine(s string) (string, bool) {
	s = stripDegrees(clean(fieldLabel.ReplaceAllString(strings.TrimSuffix(strings.TrimSpace(s), ":"), "")))
	s = strings.TrimSpace(contactAside.ReplaceAllString(s, "")) // "Vorsitzender (jan@…, PGP-Key)": Vorsitzender
	s = withoutRegistration(s)
	s = termAside.ReplaceAllString(s, "") // "Ordförande (2 år)": Ordförande
	if loc := nameSepSplit.FindStringIndex(s); loc != nil && stripDegrees(clean(s[:loc[0]])) == "" {
		s = clean(s[loc[1]:]) // "Dr.-Ing. - Geschäftsführer": the degree before the title goes
	}
	if s == "" || len(s) > 110 || isNoise(s) || degreeToken(s) || strings.HasSuffix(s, "...") || strings.HasSuffix(s, "…") || strings.IndexFunc(s, unicode.IsLetter) < 0 {
		return "", false // empty, a contact detail, or a placeholder ("bio courte...")
	}
	words := strings.Fields(s)
	caps := strings.ToUpper(s) == s // "OFICIAL DE SEG. DE LA INFORMACIÓN": abbreviations, not sentences
	if len(words) > 12 || sentenceBreak(s) && len(words) > 4 && !caps || strings.HasSuffix(s, ".") && len(words) > 4 && !caps {
		return "", false
	}
	if verbLed(s) {
		return "", false // the rest of a sentence ("is a retired", "ist seit 2010"), not a title
	}
	if m := otherField.FindStringSubmatch(s); m != nil || strings.Count(s, ": ") >= 2 {
		return "", false // "Profession: …", "From: Madison", "Term: 2013 – 2015": a field of the card, not the role
	}
	if r, _ := utf8.DecodeRuneInString(s); unicode.IsLower(r) && strings.HasSuffix(s, ".") && len([]rune(words[len(words)-1])) > 5 {
		return "", false // the end of a sentence broken over lines ("de l'entreprise."), not a title
	}
	if n, ok := nameOf(s); ok && (knownName(n) || !looksLikeTitle(n)) || len(nameList(s)) > 0 {
		return "", false // a name; but an unknown "name" that reads as a title is one ("Coordinador de Eventos")
	}
	if strings.HasPrefix(s, "(") && strings.HasSuffix(s, ")") {
		return "", false // an affiliation aside
	}
	if strings.HasPrefix(s, "[") && strings.HasSuffix(s, "]") {
		return "", false // a placeholder ("[Name]")
	}
	if addressLike(words) {
		return "", false // "Zur Keuchinger Flur, Mettlach", "Hauptstraße 12"
	}
	if len(words) >= 2 && pluralJobWord(strings.ToLower(words[len(words)-1])) && capitalised(words[0]) && capitalised(words[len(words)-1]) && !titleWord(words[0]) && !possessive.MatchString(s) {
		return "", false // a firm ("Rinaldi Consultants"), not a title
	}
	for k, w := range words {
		if strings.ContainsAny(w, "0123456789") && strings.Trim(w, "0123456789-–/.,+()") == "" && !ordinal(words, k) && !smallNumberInRole(words, w) {
			return "", false // a number: a street number, a year, a phone
		}
	}
	return s, true
}

// contactAside is a part in brackets, closed or cut off, that holds a way to reach the
// person (an e-mail address, a link, a key, a phone): no part of the title.
var contactAside = regexp.MustCompile(`(?i)\s*[(\[][^()\[\]]*(?:@|https?://|www\.|\bpgp\b|\bgpg\b|\bkey\b|e-?mail|\btel\b|\bphone\b|\bfax\b)[^()\[\]]*(?:[)\]]|$)`)

// streetEnds end street names (German and Dutch compounds); streetWords are street
// names' own words elsewhere.
var (
	streetEnds  = []string{"straße", "strasse", "str.", "gasse", "weg", "allee", "platz", "damm", "laan", "straat", "gracht", "kade"}
	streetWords = map[string]bool{"street": true, "road": true, "avenue": true, "lane": true, "drive": true, "rue": true,
		"calle": true, "via": true, "rua": true, "st": true, "rd": true, "ave": true}
)

// addressLike reports whether a line is a postal address: it opens like a German
// street name, or names a street and carries a house number or a comma.
func addressLike(words []string) bool {
	if streetOpeners[strings.ToLower(words[0])] && len(words) >= 2 {
		return true
	}
	number := false
	for _, w := range words {
		number = number || strings.ContainsAny(w, "0123456789") || strings.HasSuffix(w, ",")
	}
	for _, w := range words {
		lw := strings.ToLower(strings.Trim(w, ",."))
		if number && streetWords[lw] {
			return true
		}
		for _, e := range streetEnds {
			if number && strings.HasSuffix(lw, e) && len(lw) > len(e)+2 {
				return true
			}
		}
	}
	return false
}

// ordinalWord is a written ordinal: Dutch, English, French, Spanish, Italian,
// Portuguese.
var ordinalWord = regexp.MustCompile(`^[1-9](?:ste|de|e|ème|eme|er|re|ère|st|nd|rd|th|º|ª|°|o|a)$`)

// ordinal reports whether the number words[k] ranks a role ("2. Vorsitzender",
// "Beisitzer 3") rather than giving an address or a year: one digit, before the role
// with a dot or after it, next to a word that names a job.
func ordinal(words []string, k int) bool {
	w := words[k]
	if len(words) < 2 || len(w) > 2 && !(k == 0 && ordinalWord.MatchString(w)) {
		return false
	}
	if k == 0 {
		// "1ste Deken", "2nd Vice Chair", "1er Vice-Président": a written ordinal ranks
		// whatever role follows it
		if ordinalWord.MatchString(w) && capitalised(words[1]) {
			return true
		}
		return len(w) == 2 && w[1] == '.' && titleWord(strings.Join(words[1:], " "))
	}
	return k == len(words)-1 && len(w) == 1 && titleWord(strings.Join(words[:k], " "))
}

// employerLead ends a title that goes on with the employer's name ("CEO en <a>Tienda
// Mía</a>", "Partner at <a>Acme</a>"): what follows is a firm, not a person.
var employerLead = regexp.MustCompile(`(?i)\s(?:at|of|for|en|de|del|da|do|di|du|chez|bei|bij|van|von|für|pour|para|per|presso|with|mit)$`)

// otherField opens a line that gives a field of a person's card other than the role
// held ("Profession: Architect", "From: Leeds", "Representing: Business"), or a
// credit ("Bildnachweis: C. Krüger", "Photo : Léa Roux"): the name after it is the
// photographer's, not a member's.
var otherField = regexp.MustCompile(`(?i)^(?:bildnachweis|bildnachweise|bildquelle|bildquellen|fotos?|photos?|fotografie|photography|crédits? photos?|crédits?|credits?|quelle|source|fuente|fonte|copyright|profession|beruf|métier|profesión|profissão|professione|beroep|occupation|representing|from|origin|herkunft|wohnort|location|standort|lieu|ville|ciudad|città|term|amtszeit|mandat|mandato|since|seit|depuis|desde|dal|hobbies?|interests?|education|ausbildung|formation|formación)\s*:\s*`)

// sentenceBreak reports whether s holds a full stop between sentences, not the dot of
// an abbreviation ("Oficial de Seg. de la Información", "Func. Resp. de Cumplimiento"),
// an honorific or an initial ("Assistant to Dr. Jane Roe").
func sentenceBreak(s string) bool {
	words := strings.Fields(s)
	for _, w := range words[:max(0, len(words)-1)] {
		if strings.HasSuffix(w, ".") && !abbreviation(w) && !honorificWords[honorificKey(w)] && len([]rune(strings.TrimSuffix(w, "."))) > 1 {
			return true
		}
	}
	return false
}

// abbreviation is a word cut short with a dot ("Seg.", "RESP.", "Dept.", "Dr."):
// capitalised, at most four letters.
func abbreviation(w string) bool {
	core := strings.TrimSuffix(w, ".")
	r, _ := utf8.DecodeRuneInString(core)
	return core != w && len([]rune(core)) <= 4 && unicode.IsUpper(r)
}

// fieldLabel opens a title given as a form field ("Funktion: Präsident", "Position:
// CFO"): the field's name is not part of the title.
var fieldLabel = regexp.MustCompile(`(?i)^(?:funktion|function|fonction|position|role|rolle|titel|title|job title|poste|cargo|ruolo|functie|positie)\s*:\s+`)

var noise = regexp.MustCompile(`(?i)^((she|he|they|her|him|them|elle|il|iel|sie|er)\s*/\s*\w+|read more|more|mehr|lire la suite|en savoir plus|leer más|saiba mais|leggi|lees meer|les mer|bio|linkedin|twitter|x|github|mastodon|e-?mail|mail|e-?post|courriel|correo(?: electrónico)?|sähköposti|web|website|tel\.?|tlf\.?|phone|telefon|telefone|téléphone|teléfono|telefono|mobile?|handy|fax|vcard|contact|kontakt|contact me|contáctame|contácteme|contacte-me|contactez-moi|kontaktieren|contattami|ver biografía|view bio|read bio|full bio|profile?|jr\.?|sr\.?|ii|iii|iv|view profile|ver perfil|@\S+|https?://\S+|\S+\.(com|org|net|io|de|fr)\S*)$`)

// idLine is a membership number or an identifier shown under a name ("Socio #430",
// "Mitglied Nr. 12", "N° 7"), and handleLine a handle given with its service's label
// ("GitHub: jdoe", "Twitter: @jdoe"): neither is a title.
var (
	idLine     = regexp.MustCompile(`^(?:\pL+\.?\s+)?(?:#|nº|n°|no\.|nr\.|num\.|núm\.)\s*\d+$`)
	handleLine = regexp.MustCompile(`(?i)^(?:github|gitlab|codeberg|twitter|x|mastodon|bluesky|linkedin|instagram|facebook|skype|telegram|orcid|keybase|matrix|irc)\s*:\s*@?\S+$`)
)

// statusLine says where a person is for now, not what they do ("Zurzeit in
// Elternzeit", "currently on parental leave", "en congé maternité").
var statusLine = regexp.MustCompile(`(?i)^(?:(?:zurzeit|zur zeit|derzeit|z\.\s?zt\.|currently|actuellement|actualmente|attualmente|momenteel)\s+)?(?:in\s+elternzeit|in\s+mutterschutz|beurlaubt|im\s+sabbatical|on\s+(?:parental\s+|maternity\s+|paternity\s+|sick\s+)?leave|en\s+congé(?:\s+\pL+)*|de\s+baja(?:\s+\pL+)*|in\s+congedo(?:\s+\pL+)*|met\s+(?:zwangerschaps|ouderschaps)?verlof)$`)

// factLine is a labelled fact about a person that is not their role in the
// organisation: what they do for a living, whom they represent, where they come from,
// their term ("Profession: Lawyer", "Representing: Business", "From: Leeds", "Term:
// 2023–2025", "Beruf: Lehrerin").
var factLine = regexp.MustCompile(`(?i)^(?:profession|occupation|day job|beruf|métier|profesión|profissão|professione|beroep|representing|represents|vertritt|vertreten durch|représente|representa|rappresenta|from|aus|herkunft|wohnort|hometown|home town|lives in|ville|ciudad|città|woonplaats|term|term of office|amtszeit|mandat|mandato|termijn|employer|arbeitgeber|employeur|empleador|affiliation|education|ausbildung|formation|formación|studies|studium|hobbies|hobby|interests|interessen|centres d'intérêt|intereses)\s*:\s*\S`)

func isNoise(s string) bool {
	s = strings.TrimSpace(s)
	return s == "" || strings.IndexFunc(s, func(r rune) bool { return unicode.IsLetter(r) || unicode.IsDigit(r) }) < 0 || statusLine.MatchString(s) || factLine.MatchString(s) || honorificWords[honorificKey(s)] && (len(s) <= 5 || strings.HasSuffix(s, ".")) || noise.MatchString(s) || idLine.MatchString(strings.ToLower(s)) || handleLine.MatchString(s) || stripDegrees(s) == "" || emailRe.MatchString(s) && len(strings.Fields(s)) <= 3 || phoneRe.MatchString(strings.TrimLeft(s, phoneLabel))
}

var (
	roleColonName = regexp.MustCompile(`^([^:]{2,60}?)\s*:\s+(.+)$`)
	nameParen     = regexp.MustCompile(`^(.+?)\s*\(([^()]{2,80})\)\s*$`)
	nameSepTitle  = regexp.MustCompile(`^(.+?)\s+(?:[–—|·]|-{1,2})\s+(.+)$`)
	nameComma     = regexp.MustCompile(`^([^,]+?),\s+(.+)$`)
	parenthetical = regexp.MustCompile(`\s*\([^()]*\)`)
)

// shaped reads a line that holds a name and a title: "Role: Name", "Name (Role)",
// "Name – Title", "Name | Title", "Name, Title".
// A name with only a date or an aside in brackets is a person without a title.
func shaped(s string) (p Person, ok, alone bool) {
	s = strings.TrimSpace(strings.Trim(s, "|·•"))
	if m := roleColonName.FindStringSubmatch(s); m != nil {
		rest := strings.TrimSpace(parenthetical.ReplaceAllString(m[2], ""))
		if n, ok := nameOf(rest); ok {
			if t, ok := titleLine(m[1]); ok && (!strings.Contains(rest, ",") || looksLikeTitle(t)) && !otherField.MatchString(clean(m[1])+": ") { // not "From: Madison, Tennessee"
				return Person{Via: ViaBlock, Name: n, Title: t}, true, false
			}
		}
		return Person{}, false, false
	}
	if m := nameParen.FindStringSubmatch(s); m != nil {
		if n, ok := invertedWithRole(m[1], m[2]); ok {
			t, _ := titleLine(m[2])
			return Person{Via: ViaBlock, Name: n, Title: t}, true, false
		}
		if n, ok := nameOf(m[1]); ok {
			t, _ := titleLine(m[2])
			if isDateLike(m[2]) || strings.Contains(m[2], ".") && !strings.Contains(m[2], " ") {
				t = "" // "(elected 12.11.2019)", "(Acme.Tech)"
			}
			if r := []rune(t); len(r) > 0 && unicode.IsLower(r[0]) && !looksLikeTitle(t) {
				t = "" // an aside, not a role: "(kooklessen)", "(per Acme srl)"
			}
			return Person{Via: ViaBlock, Name: n, Title: t}, true, t == ""
		}
	}
	// "Rechtsanwalt Rüdiger Schubert", "Wirtschaftsprüfer, Steuerberater Jens Hollenbeck,
	// Dipl.-Betriebswirt (FH)": professions before a name the model knows.
	if w := strings.Fields(s); len(w) >= 3 && len(w) <= 10 {
		k := 0
		for k < len(w)-2 && (professions[strings.ToLower(strings.TrimRight(w[k], ","))] || k > 0 && (w[k] == "und" || w[k] == "&" || w[k] == "/")) {
			k++
		}
		if k > 0 && !jobWords[strings.ToLower(w[k])] {
			if n, ok := nameOf(strings.Join(w[k:], " ")); ok && knownName(n) && len(strings.Fields(n)) <= 3 {
				return Person{Via: ViaBlock, Name: n, Title: clean(strings.Join(w[:k], " "))}, true, false
			}
		}
	}
	// "CEO Jane Doe": an executive's acronym before a name the model knows.
	if w := strings.Fields(s); len(w) >= 3 && len(w) <= 6 && len(w[0]) <= 4 && strings.ToUpper(w[0]) == w[0] && jobWords[strings.ToLower(w[0])] {
		if n, ok := nameOf(strings.Join(w[1:], " ")); ok && knownName(n) {
			return Person{Via: ViaBlock, Name: n, Title: w[0]}, true, false
		}
	}
	for _, re := range []*regexp.Regexp{nameSepTitle, nameComma} {
		if m := re.FindStringSubmatch(s); m != nil {
			n, ok := nameOf(strings.TrimSpace(parenthetical.ReplaceAllString(m[1], ""))) // "Name (links) – Title"
			if !ok && re == nameSepTitle {
				if n, ok := invertedWithRole(m[1], m[2]); ok {
					t, _ := titleLine(m[2])
					return Person{Via: ViaBlock, Name: n, Title: t}, true, false
				}
			}
			if ok && re == nameSepTitle && strings.Contains(m[1], ",") {
				// "Vogt, Petra - Pressereferentin - petra@acme.example": family name first,
				// and the title is the first part after it.
				m[2] = barSep.Split(nameSepSplit.Split(m[2], 2)[0], 2)[0]
			}
			if !ok && re == nameSepTitle {
				// "Becker, Georg - Büroleiter - georg@acme.example": family name first, and
				// the title is the first part after it.
				if n, ok = inverted(m[1]); ok {
					m[2] = barSep.Split(nameSepSplit.Split(m[2], 2)[0], 2)[0]
				}
			}
			if !ok {
				// "Title – Name", when the name model knows the name or the title names a
				// job ("Vice President - Tayjus Surampudi")
				if n, ok := nameOf(m[2]); ok && re == nameSepTitle {
					if t, ok := titleLine(m[1]); ok && looksLikeTitle(t) && (nameEvidence(n) || titleWord(t)) {
						return Person{Via: ViaBlock, Name: n, Title: t}, true, false
					}
				}
				continue
			}
			if re == nameComma && givenAfterComma(m[2]) {
				continue // "Carvalho Brandão, Conceição": a name written family name first, not a title
			}
			if re == nameComma && postNominalLetters(m[2]) {
				return Person{Via: ViaBlock, Name: n}, true, true // "Ruth Miles, MSW": letters after the name, no title
			}
			if t, ok := titleLine(m[2]); ok {
				return Person{Via: ViaBlock, Name: n, Title: t}, true, false
			}
			if t, ok := firstPartTitle(m[2]); ok && re == nameSepTitle {
				return Person{Via: ViaBlock, Name: n, Title: t}, true, false // "Name – Vertrieb – Tel. 030 ...": the first part
			}
			if stripDegrees(m[2]) == "" || isNoise(m[2]) || degreeToken(m[2]) { // "Jane Doe, PhD", "Jane Doe - on leave", "Jane Doe, B.Sc.Pharm."
				return Person{Via: ViaBlock, Name: n}, true, true
			}
		}
	}
	return Person{}, false, false
}

// professions are the regulated professions written before a name in an imprint
// ("Rechtsanwalt Jana Roth", "Steuerberater Olaf Berg", "Maître Anne Roux").
var professions = map[string]bool{"rechtsanwalt": true, "rechtsanwältin": true, "anwalt": true, "anwältin": true, "steuerberater": true,
	"steuerberaterin": true, "wirtschaftsprüfer": true, "wirtschaftsprüferin": true, "notar": true, "notarin": true, "avocat": true,
	"avocate": true, "abogado": true, "abogada": true, "avvocato": true, "advocaat": true, "notaris": true, "notario": true,
	"notaria": true, "notaio": true, "ra": true, "stb": true, "wp": true}

// nameSepSplit splits the parts of a "Name – Title – contact" line.
var nameSepSplit = regexp.MustCompile(`\s+(?:[–—|·]|-{1,2})\s+`)

// inverted reads a name written family name first ("Becker, Georg", "Sander-Beuermann,
// Wolfgang, Dr.-Ing.", "Pérez de Castro, María José", "MOREAU, Jean-Baptiste", "Smith,
// J. R."): a family name of up to three words besides particles, then given names
// the name model knows or initials, then degrees. Two names in a row ("Laura Vidal,
// Carmen Ortiz"), a place ("Lyon, France") and days ("Mercredi, Samedi") are not one.
func inverted(s string) (string, bool) {
	parts := strings.Split(s, ",")
	for len(parts) > 2 && stripHonorifics(strings.TrimSpace(parts[len(parts)-1])) == "" {
		parts = parts[:len(parts)-1]
	}
	if len(parts) != 2 {
		return "", false
	}
	family, given := strings.Fields(parts[0]), strings.Fields(parts[1])
	if len(family) == 0 || len(given) == 0 || len(given) > 3 || len(family) > 5 || len(given) == 1 && regionCodes[given[0]] {
		return "", false // "Baltimore, MD": a town and its state
	}
	core := 0
	for _, w := range family {
		if !particles[strings.ToLower(w)] {
			core++
		}
	}
	initials := 0
	for k, w := range given {
		lw := strings.ToLower(w)
		switch {
		case isInitial(w):
			initials++
		case k == 0 && (notGiven[lw] || placeWords[lw]), !knownHyphened(lw), titleWord(w):
			return "", false
		}
	}
	if initials > 0 && initials < len(given) && isInitial(given[0]) || core > 3 || streetOpeners[strings.ToLower(family[0])] {
		return "", false // "Zur Keuchinger Flur, Mettlach"
	}
	if core >= 2 && len(given) >= 2 {
		// "Pérez de Castro, María José", but two names in a row: "Marie Zimmer, Viviane
		// Schramm", "Patricia Metzendorff, Patrick Otto"; the given names must all be
		// given names, and the family name must not open with one.
		if givenWord(strings.ToLower(family[0])) {
			return "", false
		}
		for _, w := range given {
			if !givenWord(strings.ToLower(w)) {
				return "", false
			}
		}
	}
	return nameOf(strings.Join(given, " ") + " " + strings.Join(family, " "))
}

// givenAfterComma reports whether the text after a name's comma is one or two given
// names ("Conceição", "Ana Rita"), not a title.
func givenAfterComma(s string) bool {
	words := strings.Fields(s)
	if len(words) == 0 || len(words) > 2 || looksLikeTitle(s) {
		return false
	}
	for _, w := range words {
		lw := strings.ToLower(w)
		if !capitalised(w) || titleWord(w) || !givenWord(lw) && !knownWord(nameLexicon(), lw, true) {
			return false
		}
	}
	return true
}

// sharedSep joins two given names before one family name ("Bessie and Max Simon",
// "Anna und Jan Roth", "Léa et Paul Martin").
var sharedSep = regexp.MustCompile(`^(\p{Lu}[\pL'-]+)\s+(?:and|und|et|y|e|en|&|a|och|og|i|és|ja|ve)\s+(\p{Lu}[\pL'-]+)\s+(\p{Lu}.*)$`)

// sharedFamily reads "Given and Given Family" as two people: both given names the
// model knows as given names, and the family name one a name model knows.
func sharedFamily(s string) (string, string, bool) {
	m := sharedSep.FindStringSubmatch(s)
	if m == nil || !givenWord(strings.ToLower(m[1])) || !givenWord(strings.ToLower(m[2])) || len(strings.Fields(m[3])) > 2 {
		return "", "", false
	}
	a, ok1 := nameOf(m[1] + " " + m[3])
	b, ok2 := nameOf(m[2] + " " + m[3])
	fam := strings.Fields(strings.ToLower(m[3]))
	if !ok1 || !ok2 || !knownWord(nameLexicon(), fam[len(fam)-1], true) && !inHumanLexicon(fam[len(fam)-1]) {
		return "", "", false // "Tom & Jerry Productions" is no family
	}
	return a, b, true
}

// nameClassRe is the class of an element that holds a person's name ("member-name",
// "director-name", "nom"), not a team's, a firm's or a product's.
var nameClassRe = regexp.MustCompile(`(?i)(^|[-_\s])(name|full-?name|nom|nombre|nome|naam)($|[-_\s])`)
var notPersonClass = regexp.MustCompile(`(?i)(team|company|firm|group|product|brand|site|org|page|section|file|user)[-_]?name`)

// jobSurnames are job words that are also family names ("Kurt Key", "Laura Head").
var jobSurnames = map[string]bool{"key": true, "head": true, "senior": true, "lead": true, "chief": true, "general": true}

// classedName reads a line in an element with a name class whose last word is a job
// word that is also a family name, after a given name ("Kurt Key").
func classedName(ln line) (string, bool) {
	words := strings.Fields(ln.text)
	if len(words) != 2 || !givenWord(strings.ToLower(words[0])) || !jobSurnames[strings.ToLower(words[1])] || !capitalised(words[0]) || !capitalised(words[1]) {
		return "", false
	}
	for n, d := ln.block, 0; n != nil && d < 2; n, d = n.Parent, d+1 {
		if c := attr(n, "class"); nameClassRe.MatchString(c) && !notPersonClass.MatchString(c) {
			return ln.text, true
		}
	}
	return "", false
}

// invertedWithRole reads "Mamani, Wilberto" before a role that names a job ("(Presidente)",
// "– Tesorero") as a name written family name first, its given name one the model does
// not know: the role says person, where "Berlin, Kreuzberg (Sales Office)" names none.
func invertedWithRole(name, role string) (string, bool) {
	if !strings.Contains(name, ",") {
		return "", false
	}
	t, ok := titleLine(role)
	if !ok || !titleWord(t) || !looksLikeTitle(t) {
		return "", false
	}
	return slotName(strings.TrimSpace(name))
}

// slotName reads a line as a name by its shape alone, for the slot of other names: a
// name in capitals ("GIORGI BERIDZE") or written family name first with a given name
// the model does not know ("Beridze, Giorgi"); not a place ("Tbilisi, Georgia",
// "Berlin, DE"), a title or a heading.
func slotName(s string) (string, bool) {
	if t := titleCase(s); t != s {
		if n, ok := slotName(t); ok {
			return n, true
		}
		if IsName(t) && !looksLikeTitle(t) && !titleWord(t) {
			return t, true
		}
		return "", false
	}
	parts := strings.Split(s, ",")
	if len(parts) != 2 {
		return "", false
	}
	family, given := strings.Fields(parts[0]), strings.Fields(parts[1])
	if len(family) == 0 || len(family) > 4 || len(given) == 0 || len(given) > 2 || streetOpeners[strings.ToLower(family[0])] {
		return "", false
	}
	for _, w := range given {
		lw := strings.ToLower(w)
		if len([]rune(w)) < 3 || !capitalised(w) || notGiven[lw] || placeWords[lw] || isNotNameWord(lw) || titleWord(w) {
			return "", false
		}
	}
	n := clean(strings.Join(given, " ") + " " + capsFamilyName(strings.Join(family, " ")))
	if t := capsFamilyName(strings.Join(given, " ") + " " + strings.Join(family, " ")); t != n {
		n = t
	}
	if !IsName(n) || looksLikeTitle(n) {
		return "", false
	}
	return n, true
}

// placeWords are countries and regions written after a town ("Tbilisi, Georgia",
// "Graz, Österreich"), in the languages the product reads.
var placeWords = map[string]bool{"germany": true, "deutschland": true, "allemagne": true, "alemania": true, "germania": true, "duitsland": true,
	"spain": true, "españa": true, "spanien": true, "espagne": true, "spagna": true, "italy": true, "italia": true, "italien": true, "italie": true,
	"belgium": true, "belgique": true, "belgië": true, "belgien": true, "austria": true, "österreich": true, "autriche": true,
	"switzerland": true, "schweiz": true, "suisse": true, "svizzera": true, "netherlands": true, "nederland": true, "niederlande": true,
	"portugal": true, "poland": true, "polska": true, "polen": true, "ireland": true, "england": true, "scotland": true, "wales": true,
	"canada": true, "australia": true, "brazil": true, "brasil": true, "argentina": true, "chile": true, "peru": true, "perú": true,
	"mexico": true, "méxico": true, "colombia": true, "bolivia": true, "ecuador": true, "uruguay": true, "paraguay": true, "venezuela": true,
	"luxembourg": true, "luxemburg": true, "denmark": true, "danmark": true, "sweden": true, "sverige": true, "norway": true, "norge": true,
	"finland": true, "suomi": true, "greece": true, "turkey": true, "türkiye": true, "romania": true, "românia": true, "hungary": true,
	"magyarország": true, "czechia": true, "slovakia": true, "croatia": true, "hrvatska": true, "serbia": true, "slovenia": true,
	"bulgaria": true, "ukraine": true, "morocco": true, "maroc": true, "tunisia": true, "tunisie": true, "algeria": true, "algérie": true,
	"egypt": true, "nigeria": true, "ghana": true, "senegal": true, "sénégal": true, "japan": true, "korea": true, "vietnam": true,
	"usa": true, "america": true, "united": true, "states": true, "kingdom": true, "republic": true, "emirates": true, "indiana": true, "louisiana": true, "maryland": true, "tennessee": true, "dakota": true, "nevada": true,
	"arizona": true, "alabama": true, "kansas": true, "kentucky": true, "missouri": true, "oregon": true, "texas": true, "vermont": true,
	"wyoming": true, "idaho": true, "iowa": true, "maine": true, "utah": true, "ohio": true, "washington": true, "delaware": true,
	"colorado": true, "alaska": true, "hawaii": true, "california": true, "michigan": true, "minnesota": true, "mississippi": true,
	"nebraska": true, "oklahoma": true, "wisconsin": true, "connecticut": true, "massachusetts": true, "illinois": true,
	"pennsylvania": true, "arkansas": true, "york": true, "jersey": true, "hampshire": true, "mexique": true, "bavaria": true, "bayern": true,
	"hessen": true, "sachsen": true, "tirol": true, "catalunya": true, "cataluña": true, "andalucía": true, "galicia": true, "toscana": true,
	"lombardia": true, "bretagne": true, "normandie": true, "provence": true, "alsace": true, "savoie": true, "vlaanderen": true, "wallonie": true}

// knownHyphened reports whether each part of a given name ("klaus-dieter") is a given
// name the name model knows (not any name: "Batumi, Adjara" is a place).
func knownHyphened(w string) bool {
	for _, p := range strings.Split(w, "-") {
		if !givenWord(p) {
			return false
		}
	}
	return true
}

// notGiven are words after a comma that a name model may know but that make the line a
// place or a date: countries also spelt as given names ("Lyon, France"), days
// ("Mercredi, Samedi").
var notGiven = map[string]bool{"france": true, "jordan": true, "india": true, "china": true, "israel": true, "kenya": true, "chad": true,
	"georgia": true, "virginia": true, "carolina": true, "florida": true, "montana": true,
	"monday": true, "tuesday": true, "wednesday": true, "thursday": true, "friday": true, "saturday": true, "sunday": true,
	"lundi": true, "mardi": true, "mercredi": true, "jeudi": true, "vendredi": true, "samedi": true, "dimanche": true,
	"montag": true, "dienstag": true, "mittwoch": true, "donnerstag": true, "freitag": true, "samstag": true, "sonntag": true,
	"lunes": true, "martes": true, "miércoles": true, "jueves": true, "viernes": true, "sábado": true, "domingo": true,
	"lunedì": true, "martedì": true, "mercoledì": true, "giovedì": true, "venerdì": true, "sabato": true, "domenica": true}

var dateLike = regexp.MustCompile(`[0-9]{4}|[0-9]{1,2}\.[0-9]{1,2}\.`)

func isDateLike(s string) bool { return dateLike.MatchString(s) }

// fromParts reads a line whose marked-up runs are names and titles
// ("<strong>Name</strong> <span class=role>Title</span>", one card after another):
// each name starts a person, and the first title-like run after it is the title. A
// name whose other runs are only asides ("(Acme Ltd)") is a person without a title.
// A line of two runs, a title then a name, is the role label before the name.
func fromParts(parts []string) []found {
	if len(parts) < 2 {
		return nil
	}
	if _, ok := nameOf(parts[0]); !ok {
		if m := nameComma.FindStringSubmatch(parts[0]); m != nil && len(parts) == 2 {
			// "<span>Name, Treasurer</span><span>Co-Founder, Acme</span>": the role
			// beside the name is the title, the run after it a job held elsewhere
			if n, ok := nameOf(m[1]); ok {
				if t, ok := titleLine(m[2]); ok && looksLikeTitle(t) {
					return []found{{p: Person{Via: ViaBlock, Name: n, Title: t}, strong: true}}
				}
			}
		}
		if len(parts) >= 3 {
			// "<span class=role>Presidente · 2 años</span><strong>Name</strong><span>Socio
			// #1299</span>": a role, the one name, then details of the card
			n, ok := nameOf(parts[1])
			for _, p := range parts[2:] {
				if _, other := nameOf(p); other {
					ok = false
				}
			}
			if t, tok := termTitle(parts[0]); ok && tok && looksLikeTitle(t) {
				return []found{{p: Person{Via: ViaBlock, Name: n, Title: t}, strong: true}}
			}
			return nil
		}
		if n, ok := nameOf(listEnd(parts[len(parts)-1])); ok && len(parts) == 2 {
			if t, ok := termTitle(parts[0]); ok && (!strings.Contains(parts[1], ",") || looksLikeTitle(t)) && !otherField.MatchString(clean(parts[0])+": ") && !employerLead.MatchString(t) { // not "<b>From:</b> Madison, Tennessee"
				return []found{{p: Person{Via: ViaBlock, Name: n, Title: t}, strong: true}}
			}
		}
		return nil
	}
	var out []found
	closed := -1 // the person whose card a bio sentence ended
	for j, s := range parts {
		if n, ok := nameOf(s); ok && (len(out) == 0 || out[len(out)-1].p.Title != "" || knownName(n) || !looksLikeTitle(n)) {
			out = append(out, found{p: Person{Via: ViaBlock, Name: n}, alone: true})
			continue
		}
		cur := &out[len(out)-1] // an unknown "name" that reads as a title is the title ("Gerente de Pesquerías Taiwán")
		if cur.p.Title != "" || closed == len(out)-1 {
			continue
		}
		if verbLed(s) {
			// "<strong>Name</strong> is a retired <a>Professor of ...</a>": a bio
			// sentence, not a title; the title is the role the sentence states, if any.
			closed = len(out) - 1
			if t := bioTitle(cur.p.Name + " " + strings.Join(parts[j:], " ")); t != "" {
				cur.p.Title, cur.alone = t, false
			}
			continue
		}
		if strings.HasPrefix(strings.TrimSpace(s), ",") {
			// "<strong>Mireille Roger</strong>, directrice pédagogique du secondaire."
			s = strings.TrimSuffix(strings.TrimSpace(s), ".")
		}
		if t, ok := titleLine(s); ok {
			cur.p.Title, cur.alone = t, false
			continue
		}
		if in, ok := leadingBracket(s); ok && !isDateLike(in) && !(strings.Contains(in, ".") && !strings.Contains(in, " ")) { // not "(Acme.Tech)"
			// "<a>Name</a> (Joint Chair)": the role in brackets after a linked name
			if t, ok := titleLine(in); ok && titleish(t) {
				cur.p.Title, cur.alone = t, false
				continue
			}
		}
		if s = strings.TrimSpace(s); !isNoise(s) && !(strings.HasPrefix(s, "(") && strings.HasSuffix(s, ")")) {
			cur.p.Title = "\x00" // something else follows the name: not a card of names and titles
		}
	}
	kept := out[:0]
	for _, f := range out {
		if f.p.Title != "\x00" {
			kept = append(kept, f)
		}
	}
	return kept
}

// termSep sets a role apart from its term ("Presidente · 2 años", "Kassenwart – bis 2026").
var termSep = regexp.MustCompile(`\s+[·•|–-]\s+(.*)$`)

// termTitle reads a run as a title, without a term after it that holds a number.
func termTitle(s string) (string, bool) {
	if t, ok := titleLine(s); ok {
		return t, true
	}
	if m := termSep.FindStringSubmatchIndex(s); m != nil && strings.ContainsAny(s[m[2]:m[3]], "0123456789") {
		return titleLine(s[:m[0]])
	}
	if m := termBracket.FindStringIndex(s); m != nil && m[0] > 0 {
		return titleLine(s[:m[0]]) // "Ordförande (2 år):"
	}
	return "", false
}

// bioPatterns find the title a card's bio states in its first sentences: "Chris is the
// technical lead on...", "Kristina ist seit 2014 Geschäftsführerin bei...", "arbeitet
// als Projektleiterin", "Je suis coach agile chez...", "es la directora de...".
var bioPatterns = []*regexp.Regexp{
	regexp.MustCompile(`\b(?:is|as|was appointed|serves as)\s+(?:our|the|a|an)\s+((?:[\p{L}&-]+\s+){0,4}?[\p{L}-]+)\s+(?:at|of|for|on|in|with|and|who|since)\b`),
	regexp.MustCompile(`\b(?:ist|als)\s+(?:seit\s+[^.]*?\s+)?(?:(?:die|der|unsere?)\s+)?(\p{Lu}[\p{L}-]+)\s+(?:bei|von|der|des|im|für|und|verantwortlich|tätig)\b`),
	regexp.MustCompile(`(?i:\bje suis)\s+([^.,;:]{3,60}?)(?:,|\s+(?:chez|depuis|au sein|à|au)\b)`),
	regexp.MustCompile(`\b(?:est|comme)\s+(?:notre|la|le|l')?\s*([^.,;:]{3,50}?)\s+(?:chez|de la|du|au sein)\b`),
	regexp.MustCompile(`\bes\s+(?:nuestro|nuestra|el|la)\s+([^.,;:]{3,50}?)\s+(?:de|en)\b`),
	regexp.MustCompile(`\bè\s+(?:il|la|lo|l')?\s*([^.,;:]{3,50}?)\s+(?:di|della|del|presso)\b`),
	regexp.MustCompile(`\bé\s+(?:o|a)\s+([^.,;:]{3,50}?)\s+(?:da|do|de|na|no)\b`),
	regexp.MustCompile(`\bis\s+(?:onze|de|het)\s+([^.,;:]{3,50}?)\s+(?:bij|van)\b`),
	// A bio that opens with the role held in the company ("Co-founder of the company
	// in 1990, she...", "Fondatrice de la société, elle...").
	regexp.MustCompile(`^((?:[\p{L}-]+\s+){0,2}?[\p{L}-]+)\s+(?:de la société|de l'entreprise|de l’entreprise|de la empresa|de la compañía|dell'azienda|della società|of the company|of the firm|des Unternehmens|der Firma|van het bedrijf)(?:[\s,.;]|$)`),
}

// bioTitle is the title a bio states in its first two sentences, when it reads as a
// job title (shared/title or the job words); "" otherwise.
func bioTitle(bio string) string {
	if t := bioRole(bio); t != "" {
		// the patterns below may read the same role further ("consultant en
		// architecture du SI"): the longer of two readings that agree wins
		if u := bioPatternTitle(bio); strings.HasPrefix(u, t+" ") {
			return u
		}
		return t
	}
	if t := bioPatternTitle(bio); t != "" {
		return t
	}
	return bioOpener(bio)
}

// bioPatternTitle is the title bioPatterns find in a bio's first two sentences.
func bioPatternTitle(bio string) string {
	sentences := strings.SplitAfterN(bio, ". ", 3)
	text := strings.Join(sentences[:min(2, len(sentences))], "")
	for _, re := range bioPatterns {
		for _, m := range re.FindAllStringSubmatch(text, 3) {
			t := clean(m[1])
			if len(strings.Fields(t)) <= 6 && looksLikeTitle(t) {
				return t
			}
		}
	}
	return ""
}

var (
	clauseSep = regexp.MustCompile(`;\s+|\.\s+`)
	listSep   = regexp.MustCompile(`\s*,\s*|\s+(?:and|und|et|y|e|en|og|och|i|a|és|ja|ve)\s+|\s*&\s*`)
)

// clauses splits running text at semicolons and full stops, but not at the dot of an
// initial or an honorific ("Nuria R. Ibáñez", "Dr. Anna Roth").
func clauses(text string) []string {
	var out []string
	start := 0
	for _, m := range clauseSep.FindAllStringIndex(text, -1) {
		if text[m[0]] == '.' {
			w, before := text[start:m[0]], ""
			if i := strings.LastIndexAny(w, " \t"); i >= 0 {
				w, before = w[i+1:], strings.TrimSpace(w[:i])
			}
			if isInitial(w) || honorificWords[strings.ToLower(w)] {
				continue
			}
			// an abbreviated title that opens a list's member ("Members: Arq. Ana Roth,
			// Cr. Gral. Hugo Vidal"), not a town ending a sentence ("in Bonn. Anna")
			if (titleAbbrev.MatchString(w+".") || isDegreeChain(w+".")) && (before == "" || strings.HasSuffix(before, ",") || strings.HasSuffix(before, ":") ||
				titleAbbrev.MatchString(before[strings.LastIndexAny(before, " \t")+1:])) {
				continue
			}
		}
		out = append(out, text[start:m[0]])
		start = m[1]
	}
	return append(out, text[start:])
}

// prose reads people named in running text, clause by clause: "Lucio Ariaudo,
// Presidente; Corrado Cosa, Vice Presidente" and "Consiglieri: Emanuele Bernardi, Maura
// Fasoli e Giulia Pellegrino". A line yields people only when two or more clauses or
// list members read so, each title reading as a job title, so a sentence that
// merely mentions someone yields no one.
func prose(text string) []Person {
	var out []Person
	// "Label: Family, Given; Family, Given": names written family name first, set
	// apart by semicolons.
	if label, rest, ok := strings.Cut(strings.TrimSuffix(strings.TrimSpace(text), "."), ":"); ok && strings.Contains(rest, ";") && strings.Contains(rest, ",") {
		if ps := labelled(label, strings.Split(rest, ";")); len(ps) >= 2 {
			return ps
		}
	}
	for _, clause := range clauses(text) {
		clause = strings.TrimSpace(strings.TrimSuffix(clause, "."))
		// "Label: Name, Name and Name"
		if label, rest, ok := strings.Cut(clause, ":"); ok {
			if ps := labelled(label, listSep.Split(strings.TrimSpace(sharedItems(withoutAsides(rest))), -1)); len(ps) > 0 {
				roles := asideRoles(rest)
				for k := range ps {
					if t := roles[NameKey(ps[k].Name)]; t != "" {
						ps[k].Title = t // "Anna Roth (Vorsitzende)": her own role, over the list's label
					}
				}
				out = append(out, ps...)
				continue
			}
			clause = strings.TrimSpace(rest)
		}
		// "Name, Title"
		if m := nameComma.FindStringSubmatch(clause); m != nil {
			if n, ok := nameOf(m[1]); ok {
				if t, ok := titleLine(m[2]); ok && looksLikeTitle(t) {
					out = append(out, Person{Via: ViaBlock, Name: n, Title: t})
				}
			}
		}
	}
	if len(out) < 2 {
		return nil
	}
	return out
}

// withoutAsides drops the asides in brackets of a list of names, nested ones too
// ("Kia Tung (Solicitor (Ireland), Attorney), Jörg Eifler (StB)"), so that commas in
// them do not split it.
func withoutAsides(s string) string {
	var b strings.Builder
	depth := 0
	for _, r := range s {
		switch {
		case r == '(':
			depth++
		case r == ')' && depth > 0:
			depth--
		case depth == 0:
			b.WriteRune(r)
		}
	}
	if depth != 0 {
		return s
	}
	return b.String()
}

// listEnd takes the full stop off a name that closes a list ("Trésorier : Paul Girard.").
func listEnd(s string) string {
	if t := strings.TrimSpace(s); strings.HasSuffix(t, ".") && !strings.HasSuffix(t, "..") {
		if w := strings.Fields(t); len(w) >= 2 && len([]rune(w[len(w)-1])) > 3 {
			return strings.TrimSuffix(t, ".")
		}
	}
	return s
}

// labelled reads the names of a "Label: Name, Name and Name" list, each with the
// label as its title; nothing unless every part is a name (a degree after a name,
// "Anna Roth, PhD", belongs to it) and the names are known or the label a job title.
func labelled(label string, parts []string) []Person {
	t, tok := titleLine(label)
	if i := strings.LastIndexAny(label, ".,;"); i >= 0 {
		t, tok = titleLine(label[i+1:])
	}
	if !tok || otherField.MatchString(t+": ") {
		return nil // "Bildnachweis: A, B": credits
	}
	if one, ok := genderSingularHead(t); ok {
		t = one // "Geschäftsführer*innen: A, B": each is a Geschäftsführer
	}
	var ps []Person
	known, evidence, bad := 0, 0, 0
	for _, n := range listItems(parts) {
		if len(ps) > 0 && stripDegrees(clean(n)) == "" {
			continue // "Anna Roth, PhD"
		}
		name, ok := nameOf(listEnd(n))
		if !ok {
			name, ok = slotName(clean(listEnd(n))) // in a role's list, a name by its shape ("Tesfaye, Dawit")
		}
		if !ok {
			bad++
			continue
		}
		if knownName(name) {
			known++
		}
		if nameEvidence(name) {
			evidence++
		}
		ps = append(ps, Person{Via: ViaBlock, Name: name, Title: t})
	}
	if bad > 0 && (len(ps) < 3 || 4*bad > len(ps)) {
		return nil // one item that is no name spoils a short list, or more than one in four a long one
	}
	// A members' label ("Members:", "Mitglieder:") says the list is of people: most of
	// its names known, in the wider name model too, is enough.
	if len(ps) > 0 && (known == len(ps) || looksLikeTitle(t) || memberSingular[strings.ToLower(t)] != "" && 2*evidence >= len(ps)) {
		return ps
	}
	return nil
}

// singular is one member's title from a heading over several ("Advisors" is
// Advisor, "Formateurs référents" Formateur référent, "Vocales" Vocal, "Wijkmeesters"
// Wijkmeester): each word that is the plural of a job word or of an agent noun goes
// to the singular; other headings ("Vorstand", "Comissão Fiscal") are kept as they are.
func singular(head string) string {
	if one, ok := genderSingularHead(head); ok {
		return one
	}
	words := strings.Fields(head)
	for k, w := range words {
		if k > 0 && linkWords[strings.ToLower(w)] {
			// the body or field the role is held in stays as written ("Board of
			// Directors", "Directors of Studies"), but one holder presides over one
			// body: "Presidentes de Asociaciones" gives Presidente de Asociación
			if k == 1 && k+2 == len(words) && words[0] != strings.Fields(head)[0] && ofWords[strings.ToLower(w)] {
				words[k+1] = singularOf(words[k+1])
			}
			break
		}
		words[k] = singularWord(w)
	}
	return strings.Join(words, " ")
}

// linkWords join a role or a body to what it is of or for; the words after one are
// not the holders' plural.
var linkWords = map[string]bool{"de": true, "of": true, "des": true, "di": true, "do": true, "da": true, "dos": true, "das": true,
	"du": true, "del": true, "della": true, "delle": true, "dei": true, "degli": true, "der": true, "van": true, "von": true,
	"für": true, "for": true, "pour": true, "para": true, "per": true}

// ofWords join a role to the body it is held in ("Presidentes de Asociaciones").
var ofWords = map[string]bool{"de": true, "of": true, "des": true, "di": true, "do": true, "da": true, "dos": true, "das": true}

// ionPlurals are the plural endings of the nouns for bodies that end in -ion and
// their singulars (Asociaciones, Associações, Associations, Commissions).
var ionPlurals = [][2]string{{"ciones", "ción"}, {"siones", "sión"}, {"ções", "ção"}, {"sões", "são"}, {"ions", "ion"}}

// singularOf is the singular of the body a role is held in, after a plural role:
// each holder holds it in one ("Presidentes de Asociaciones": de Asociación).
func singularOf(w string) string {
	for _, e := range ionPlurals {
		if stem, ok := strings.CutSuffix(w, e[0]); ok && stem != "" {
			return stem + e[1]
		}
	}
	return w
}

// agentEndings end the nouns that name what a person does, across the languages read
// (Designer, Formateur, Director, Secrétaire, Tesorero, Consigliere...).
var agentEndings = []string{"er", "eur", "or", "ant", "ent", "aire", "ist", "iste", "ista", "ier", "ière", "euse", "rice",
	"eiro", "eira", "ero", "era", "ario", "aria", "ore", "ante", "ente", "ter", "ee", "ice", "ien", "ienne", "tor", "ster"}

func singularWord(w string) string {
	lw := strings.ToLower(w)
	if len([]rune(lw)) < 5 || strings.HasSuffix(lw, "ss") {
		return w
	}
	if stem, ok := strings.CutSuffix(lw, "es"); ok && (strings.HasSuffix(stem, "or") || strings.HasSuffix(stem, "al") || strings.HasSuffix(stem, "ar")) && !strings.HasSuffix(stem, "ior") {
		return w[:len(w)-2] // Vocales, Directores
	}
	one, ok := strings.CutSuffix(lw, "s")
	if !ok {
		return w
	}
	head := one[strings.LastIndex(one, "-")+1:] // "co-leads": lead
	if jobWord(one) || jobWord(head) || titleWordSet()[one] || one == "member" || one == "membre" || one == "miembro" || one == "membro" || one == "trustee" || one == "référent" {
		return w[:len(w)-1]
	}
	for _, e := range agentEndings {
		if strings.HasSuffix(one, e) {
			return w[:len(w)-1]
		}
	}
	return w
}

// leadVerbs are the verbs and auxiliaries a sentence about a person goes on with after
// the name ("is", "was", "ist", "est", "es", "è"...); a title never opens with one.
var leadVerbs = map[string]bool{"is": true, "was": true, "has": true, "had": true, "are": true, "were": true,
	"will": true, "joined": true, "serves": true, "served": true, "works": true, "worked": true, "leads": true,
	"ist": true, "war": true, "hat": true, "wird": true, "arbeitet": true, "leitet": true,
	"est": true, "était": true, "sont": true, "travaille": true, "dirige": true,
	"es": true, "era": true, "fue": true, "trabaja": true, "è": true, "sono": true, "lavora": true,
	"é": true, "foi": true, "trabalha": true, "heeft": true, "werd": true, "wordt": true, "werkt": true}

// verbLed reports whether s opens with one of leadVerbs: the rest of a sentence.
func verbLed(s string) bool {
	w, _, _ := strings.Cut(strings.TrimSpace(s), " ")
	return leadVerbs[w]
}

// bracketed is the inside of a run in round brackets ("(Joint Chair)").
func bracketed(s string) (string, bool) {
	s = strings.TrimSpace(s)
	if strings.HasPrefix(s, "(") && strings.HasSuffix(s, ")") {
		return strings.TrimSpace(s[1 : len(s)-1]), true
	}
	return "", false
}

// memberSingular is one member of a board from its list heading ("Members", "Mitglieder").
var memberSingular = map[string]string{"members": "Member", "mitglieder": "Mitglied", "membres": "Membre",
	"miembros": "Miembro", "membri": "Membro", "membros": "Membro", "leden": "Lid"}

// memberTitle is the one-member title of a short bold label over a list of names: a
// members' word ("Members") or the plural of a role ("Trustees", "Officers",
// "Vocales"); "" for anything else (a name, a body, a topic).
func memberTitle(t string) string {
	if one := memberSingular[strings.ToLower(t)]; one != "" {
		return one
	}
	words := strings.Fields(t)
	if len(words) == 0 || len(words) > 3 || strings.ContainsAny(t, ".,;:!?0123456789") {
		return ""
	}
	if _, ok := nameOf(t); ok {
		return ""
	}
	one := singular(t)
	last := strings.ToLower(strings.Fields(one)[len(words)-1])
	if one == t || !(titleWord(one) || last == "trustee" || last == "vocal") {
		return ""
	}
	return one
}

// shortLinesBetween reports whether every line between lines k and i is short (a name
// or a role, no sentence): a label over a list reaches its names, not a bio below.
func (l *layout) shortLinesBetween(k, i int) bool {
	for j := k + 1; j < i; j++ {
		if len(strings.Fields(l.lines[j].text)) > 6 {
			return false
		}
	}
	return true
}

// tabLabel is the role a tab panel holding one person names only in its label: the
// tab that controls it ("<a href=#Treasurer role=tab>Treasurer</a>", aria-controls,
// aria-labelledby) or else the panel's id ("<div class=tab-pane id=Treasurer>").
func (l *layout) tabLabel(i int, isName []bool) string {
	panel := l.lines[i].block
	for d := 0; panel != nil && d < 6; d, panel = d+1, panel.Parent {
		if panel.Type == html.ElementNode && (attr(panel, "role") == "tabpanel" || hasClass(panel, "tab-pane")) {
			break
		}
	}
	if panel == nil || panel.Type != html.ElementNode {
		return ""
	}
	sp, ok := l.span[panel]
	if !ok {
		return ""
	}
	for k := sp[0]; k < sp[1]; k++ {
		if isName[k] && k != i {
			return "" // a panel of several people: its label is a group's
		}
	}
	id, by := attr(panel, "id"), attr(panel, "aria-labelledby")
	root := panel
	for root.Parent != nil {
		root = root.Parent
	}
	var label string
	walk(root, func(n *html.Node) bool {
		if label != "" {
			return false
		}
		if n.Type == html.ElementNode && (by != "" && attr(n, "id") == by || id != "" && (attr(n, "href") == "#"+id || attr(n, "aria-controls") == id || attr(n, "data-target") == "#"+id || attr(n, "data-bs-target") == "#"+id)) {
			label = clean(textOf(n))
		}
		return true
	})
	for _, t := range []string{label, strings.NewReplacer("-", " ", "_", " ").Replace(id)} {
		if t, ok := titleLine(t); ok && looksLikeTitle(t) {
			return t
		}
	}
	return ""
}

// ledBy finds the person a sentence says leads the organisation or the team
// ("Notre entreprise est dirigée<br>par Joaquim Jorge.", "The studio is led by Jane
// Doe", "geleitet von ..."), when the name model knows the name: the sentence ends
// with it, on line i or on the line after a break. The person's title comes from the
// card around the sentence, as for a name line.
func (l *layout) ledBy(i int) (string, bool) {
	text := l.lines[i].text
	joined := false
	if i > 0 && l.lines[i-1].block == l.lines[i].block && leadClause.MatchString(l.lines[i-1].text) {
		text, joined = l.lines[i-1].text+" "+text, true
	}
	m := ledByName.FindStringSubmatch(text)
	if m == nil {
		return "", false
	}
	n, ok := nameOf(m[1])
	if !ok || !knownName(n) {
		return "", false
	}
	if joined {
		if l.prose == nil {
			l.prose = map[int]bool{}
		}
		l.prose[i-1] = true
	}
	return n, true
}

var (
	leadVerb   = `(?:dirigée?|dirigé|geleitet|led|headed|run|managed|dirigid[oa]|diretta|diretto|geleid|gerida|gerido)`
	leadBy     = `(?:par|by|von|por|da|door|pela|pelo)`
	leadClause = regexp.MustCompile(`(?i)\b` + leadVerb + `(?:\s+` + leadBy + `)?\s*$`)
	ledByName  = regexp.MustCompile(`(?i:\b` + leadVerb + `\s+` + leadBy + `)\s+(\p{Lu}[\pL'’-]+(?:\s+\p{Lu}[\pL'’-]+){1,3})\s*[.!]?$`)
)

// barRow reads a row of cells set apart by bars, empty cells between them ("Präsident|
// |Heinz Watermann| | heinz(at)example.org"): one name, one title, the rest contact
// details.
func barRow(text string) (Person, bool) {
	if !strings.Contains(text, "|") {
		return Person{}, false
	}
	var cells []string
	for _, c := range strings.Split(clean(text), "|") {
		if c = strings.TrimSpace(c); c != "" {
			cells = append(cells, c)
		}
	}
	if len(cells) < 2 || len(cells) > 4 {
		return Person{}, false
	}
	var p Person
	for _, c := range cells {
		lc := strings.ToLower(c)
		if n, ok := nameOf(c); ok && p.Name == "" {
			p.Name = n
		} else if t, ok := titleLine(c); ok && p.Title == "" && looksLikeTitle(strings.TrimLeft(t, "0123456789. ")) {
			p.Title = t
		} else if !isNoise(c) && !strings.Contains(lc, "@") && !strings.Contains(lc, "(at)") && !strings.Contains(lc, "[at]") {
			return Person{}, false
		}
	}
	p.Via = ViaBlock
	return p, p.Name != "" && p.Title != ""
}

// interimHolder is a vacant post held for now by someone ("vacant (interim: Name)",
// "vakant (kommissarisch: Name)").
var interimHolder = regexp.MustCompile(`^(?i:vacant|vacante|vakant|vacature|open|unbesetzt|à pourvoir)?\s*\(\s*(?i:interim|ad interim|a\.i\.|kommissarisch|par intérim|interino|interina)\s*:?\s*([^():]+?)\s*\)$`)
