package people

import (
	"regexp"
	"strconv"
	"strings"
	"unicode"

	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"
)

// The page's repeated structure as evidence: a team page lists its people in sibling
// elements of one shape (the cards of a grid, the items of a list, the rows of a
// table), each name at the same place in its element. Where two or more of those
// siblings hold people the page already gives evidence for (a title, a name the model
// knows, a person class), a name-shaped line at that same place in another sibling is
// a person too, whether or not the name model knows it ("Abebe Bekele" in the card
// beside "Tigist Haile, Field Coordinator"): the repetition is the evidence.

// keep is keepWith without rescue, then with it when the first pass dropped someone
// and kept someone.
func (l *layout) keep(fs []found, isName []bool) []Person {
	none := func(int) bool { return false }
	out, at := l.keepWith(fs, isName, none)
	if len(at) == 0 || len(at) == len(fs) {
		return out
	}
	// The people who vouch for their siblings: kept, and not a section's heading (h1,
	// h2) that no name model knows, so that two headings of a page's sections kept by
	// mistake vouch for no third.
	kept, cand := make(map[int]bool, len(at)), make(map[int]bool, len(fs))
	for j, k := range at {
		if h := l.lines[k].heading; h == 0 || h > 2 || nameEvidence(out[j].Name) || l.personClass(k) {
			kept[k] = true
		}
	}
	for _, f := range fs {
		cand[f.line] = true
	}
	// The names read from one line set side by side ("A • B • C", "A; B; C"), and how
	// many of them the first pass kept.
	onLine, keptOn := map[int]int{}, map[int]int{}
	for _, f := range fs {
		onLine[f.line]++
	}
	for _, k := range at {
		keptOn[k]++
	}
	out, _ = l.keepWith(fs, isName, func(i int) bool {
		// A line of three or more names of which two are kept people, or, under a
		// heading that names the team, of two or more names with one kept.
		if keptOn[i] >= 2 && onLine[i] >= 3 || keptOn[i] >= 1 && onLine[i] >= 2 && l.underTeamHeading(i) {
			return true
		}
		// Two or more kept people at the same place in the sibling elements; or, under
		// a heading that names the team, two or more names there and one of them kept.
		return l.sameSlot(i, kept) >= 2 || l.sameSlot(i, kept) >= 1 && l.sameSlot(i, cand) >= 2 && l.underTeamHeading(i) || l.brList(i, kept, cand)
	})
	return out
}

// brList reports whether line i is one of the lines of a block set apart by <br>
// ("Anna Roth<br>Jan Hahn<br>...") of which two or more others are kept people and
// at least half are names.
func (l *layout) brList(i int, kept, cand map[int]bool) bool {
	b := l.lines[i].block
	sp := l.span[b]
	k, c, n := 0, 0, 0
	for j := sp[0]; j < sp[1]; j++ {
		if l.lines[j].block != b {
			continue
		}
		n++
		if j != i && kept[j] {
			k++
		}
		if cand[j] {
			c++
		}
	}
	return k >= 2 && 2*c >= n
}

// maxCardDepth bounds how far above a name's block its card may sit.
const maxCardDepth = 6

// sameSlot counts the sibling elements of one shape around line i that hold a line of
// set at the same place as line i sits in its own: its card's siblings, its card
// widened while it holds no other line of set.
func (l *layout) sameSlot(i int, set map[int]bool) int {
	b := l.lines[i].block
	best := 0
	var path []string // the shapes from the card down to the line's block
	for c, d := b, 0; c != nil && c.Parent != nil && c.Type == html.ElementNode && d < maxCardDepth; c, d = c.Parent, d+1 {
		if c.DataAtom == atom.Body || c.DataAtom == atom.Main || c.DataAtom == atom.Html {
			break
		}
		sp := l.span[c]
		other := false
		for k := sp[0]; k < sp[1] && !other; k++ {
			other = set[k] && k != i
		}
		if other {
			break // c holds another: it is past the card
		}
		want, shape := strings.Join(path, ">"), cardShape(c)
		n := 0
		for s := c.Parent.FirstChild; s != nil; s = s.NextSibling {
			if s == c || s.Type != html.ElementNode || cardShape(s) != shape {
				continue
			}
			ss := l.span[s]
			for k := ss[0]; k < ss[1]; k++ {
				if set[k] && l.pathBelow(l.lines[k].block, s) == want {
					n++
					break
				}
			}
		}
		best = max(best, n)
		path = append([]string{shape}, path...)
	}
	return best
}

// underTeamHeading reports whether the nearest heading above line i that is not a
// name names the team
// ("Our team", "Unsere Mitarbeiter", "L'équipe"), not a contact or about section.
func (l *layout) underTeamHeading(i int) bool {
	for k := i - 1; k >= 0; k-- {
		if l.lines[k].heading > 0 && l.lines[k].heading <= 6 {
			t := clean(l.headingText(k))
			if _, ok := nameOf(t); ok {
				continue // the heading of another person's card
			}
			return genericHeading.MatchString(t) && !notTeamHeading.MatchString(t)
		}
	}
	return false
}

// notTeamHeading are the headings genericHeading matches that head more than people.
var notTeamHeading = regexp.MustCompile(`(?i)contact|kontakt|contatti|about|über|qui sommes|quiénes|chi siamo|over ons|om oss|who we are`)

// pathBelow is the shapes from top's child down to n, as repeated builds them; "-"
// when n is not under top within maxCardDepth.
func (l *layout) pathBelow(n, top *html.Node) string {
	var path []string
	for d := 0; n != nil && n != top; n, d = n.Parent, d+1 {
		if d >= maxCardDepth {
			return "-"
		}
		path = append([]string{cardShape(n)}, path...)
	}
	if n == nil {
		return "-"
	}
	return strings.Join(path, ">")
}

// cardShape is an element's tag and classes, digits in classes set aside ("post-12"
// and "post-13" are one shape); a table cell adds its column.
func cardShape(n *html.Node) string {
	cls := strings.Fields(attr(n, "class"))
	for k, c := range cls {
		cls[k] = strings.Map(func(r rune) rune {
			if r >= '0' && r <= '9' {
				return '#'
			}
			return r
		}, c)
	}
	s := n.Data + "." + strings.Join(cls, ".")
	if n.DataAtom == atom.Td || n.DataAtom == atom.Th {
		col := 0
		for p := n.PrevSibling; p != nil; p = p.PrevSibling {
			if p.DataAtom == atom.Td || p.DataAtom == atom.Th {
				col++
			}
		}
		s += "#" + strconv.Itoa(col)
	}
	return s
}

// cardPart reports whether a footer, a button or a form is part of the page's content
// rather than a control or the page's frame: a form that wraps the page (wrapperForm);
// a footer inside a list item, a table cell or a figure, or under an element with a
// card or person class ("<article class=card><h3>Name</h3><footer>Title</footer>
// </article>"; not a blog post's footer); a button that holds lines, blocks, runs or a
// picture, sits in a heading (an accordion's header) or is a person's card ("<button
// class=member data-toggle=modal><h3>Name</h3><p>Title</p></button>"), outside a form.
func cardPart(n *html.Node) bool {
	switch n.DataAtom {
	case atom.Footer:
		for p, d := n.Parent, 0; p != nil && d < 4; p, d = p.Parent, d+1 {
			switch {
			case p.DataAtom == atom.Body || p.DataAtom == atom.Blockquote:
				return false
			case p.DataAtom == atom.Li || p.DataAtom == atom.Td || p.DataAtom == atom.Figure:
				return true
			case personish(p) || cardClass.MatchString(attr(p, "class")):
				return true
			}
		}
	case atom.Form:
		return wrapperForm(n)
	case atom.Button:
		if personish(n) || n.Parent != nil && personish(n.Parent) {
			return true
		}
		for p, d := n.Parent, 0; p != nil && d < 2; p, d = p.Parent, d+1 {
			if headingLevel(p) > 0 {
				return true // an accordion's header: "<h2><button>Name</button></h2>"
			}
		}
		held := false
		walk(n, func(c *html.Node) bool {
			held = held || c != n && c.Type == html.ElementNode && (c.DataAtom == atom.Br || c.DataAtom == atom.Img || !inlineTags[c.DataAtom] && c.DataAtom != atom.Svg)
			return !held
		})
		return held || texted(n) // a control holds one label; a card, lines, blocks or runs
	}
	return false
}

// cardClass is the class of a card in a grid.
var cardClass = regexp.MustCompile(`(?i)(^|[\s_-])(card|tile|item)([\s_-]|$)`)

// fineParts reads a line whose name and title are set apart by inline elements with
// no class ("<p>Anna Roth <span>Head of Finance</span></p>", "<p><em>Anna Roth</em>,
// Head of Finance</p>") as fromParts reads marked-up runs: one person, with a title
// that reads as one.
func fineParts(ln line) []found {
	if len(ln.fine) < 2 || len(ln.fine) == len(ln.parts) {
		return nil
	}
	fs := fromParts(ln.fine)
	if len(fs) != 1 || fs[0].p.Title == "" || !looksLikeTitle(fs[0].p.Title) {
		return nil
	}
	return fs
}

// titledName reads a line that is a role and a name with nothing between them
// ("Präsident Hans Muster", "Kassierin Erika Beispiel"), alone in its block: a role of
// one or two words that reads as a title, and a name of two or three words whose
// first the model knows as a given name and whose last it knows as a name.
func titledName(ln line) (Person, bool) {
	s := clean(ln.text)
	words := strings.Fields(s)
	if len(words) < 3 || len(words) > 5 || len(ln.parts) > 1 || strings.ContainsAny(s, ",:;()|/@.") {
		return Person{}, false
	}
	if _, ok := nameOf(s); ok {
		return Person{}, false
	}
	for k := 1; k <= 2 && len(words)-k >= 2 && len(words)-k <= 3; k++ {
		t, name := strings.Join(words[:k], " "), words[k:]
		last := strings.ToLower(name[len(name)-1])
		if !looksLikeTitle(t) || !titleWord(t) || connector[strings.ToLower(words[k-1])] || !givenWord(strings.ToLower(name[0])) || !knownWord(nameLexicon(), last, false) {
			continue
		}
		if n, ok := nameOf(strings.Join(name, " ")); ok {
			return Person{Via: ViaBlock, Name: n, Title: t}, true
		}
	}
	return Person{}, false
}

// connector words join a title to more of it ("Assistant to", "Senior Ecologist and").
var connector = map[string]bool{"and": true, "to": true, "of": true, "at": true, "for": true, "und": true, "et": true, "y": true,
	"e": true, "de": true, "du": true, "des": true, "der": true, "von": true, "bei": true, "chez": true, "en": true, "van": true}

// ownPage reports whether the page's one h1, on line i, names the person the page is
// about: a name the model knows, its title on the next line ("<h1>Anna Roth</h1><p
// class=role>Head of Finance</p>"), a person's own page linked from the team page.
func (l *layout) ownPage(i int) bool {
	n, ok := nameOf(l.lines[i].text)
	if !ok || !knownName(n) || i+1 >= len(l.lines) || l.lines[i+1].heading == 1 {
		return false
	}
	t, ok := titleLine(l.lines[i+1].text)
	return ok && looksLikeTitle(t)
}

// invisible drops the characters a page's text may carry inside words that are never
// shown: soft hyphens ("Rot&shy;h") and zero-width spaces and joiners.
var invisible = strings.NewReplacer("\u00ad", "", "\u200b", "", "\u200c", "", "\u200d", "", "\u2060", "", "\ufeff", "")

// trimMarks drops the marks a name may carry after it that are no part of it: a
// footnote's asterisk or superscript number ("Anna Roth*", "Jan Hahn¹"), symbols
// ("Mira Olsen 🌱") and a stray closing quote ("Natalie Serle’"); not a dagger,
// which marks the dead.
func trimMarks(s string) string {
	t := strings.TrimRightFunc(s, func(r rune) bool {
		return unicode.IsSpace(r) || r == '\ufe0f' || r == '\u200d' || strings.ContainsRune("*¹²³⁴⁵⁶⁷⁸⁹⁰’", r) || unicode.Is(unicode.So, r) || unicode.Is(unicode.Sk, r)
	})
	if t == strings.TrimRightFunc(s, unicode.IsSpace) {
		return s
	}
	return t
}

// joinNameRuns joins the runs of a line that each hold part of a name ("<span
// class=first>Anna</span> <span class=last>Roth</span> <span class=role>CEO</span>",
// "<span class=fname>Sophie</span> <span class=lname>Tezenas Du Montcel</span>"): a
// first run of one word, a given name the model knows that is no name alone, and the
// next one or two runs of at most three words each, that together read as a name.
func joinNameRuns(parts []string) []string {
	if len(parts) < 2 || len(strings.Fields(parts[0])) != 1 || !givenWord(strings.ToLower(parts[0])) {
		return parts
	}
	if _, alone := nameOf(parts[0]); alone {
		return parts
	}
	for n := min(3, len(parts)); n >= 2; n-- {
		ok := true
		for _, p := range parts[1:n] {
			ok = ok && len(strings.Fields(p)) <= 3
		}
		if !ok {
			continue
		}
		if _, ok := nameOf(strings.Join(parts[:n], " ")); ok {
			return append([]string{strings.Join(parts[:n], " ")}, parts[n:]...)
		}
	}
	return parts
}

// termBracket is a term in brackets after a role ("Ordförande (2 år):", "Kassier (bis
// 2026)"): a bracket that holds a number, at the end of the run.
var termBracket = regexp.MustCompile(`\s*\([^()]*[0-9][^()]*\)\s*:?\s*$`)

// listItems splits the items of a list that name two people who share a family name
// ("Aleš a Luděk Finstrle", "Bessie and Max Simon") into one item each. In a list of
// names the shape is enough: no name model is asked.
func listItems(parts []string) []string {
	var out []string
	for _, p := range parts {
		if a, b, ok := sharedItem(clean(p)); ok {
			out = append(out, a, b)
			continue
		}
		out = append(out, p)
	}
	return out
}

// sharedItem reads "Given and Given Family" as two names by its shape.
func sharedItem(p string) (string, string, bool) {
	m := sharedSep.FindStringSubmatch(p)
	if m == nil || len(strings.Fields(m[3])) > 2 {
		return "", "", false
	}
	a, ok1 := nameOf(m[1] + " " + m[3])
	b, ok2 := nameOf(m[2] + " " + m[3])
	return a, b, ok1 && ok2
}

// sharedItems writes the comma-separated items of a list that name two people who
// share a family name as two items ("Jan Drábek, Aleš a Luděk Finstrle" is "Jan
// Drábek, Aleš Finstrle, Luděk Finstrle"), before the list is split at its "and"s.
func sharedItems(list string) string {
	items := strings.Split(list, ",")
	if len(items) < 2 {
		return list
	}
	for k, it := range items {
		if a, b, ok := sharedItem(clean(it)); ok {
			items[k] = " " + a + ", " + b
		}
	}
	return strings.Join(items, ",")
}

// labelRuns reads a line of two or more role labels set apart as runs, each followed
// by the names that hold it ("<b>Ärzte:</b> Anna Roth, Jan Hahn <b>Lager:</b> Eva
// Bauer"): the labels end with a colon; every label must give at least one name.
func labelRuns(parts []string) []Person {
	labels := 0
	for _, p := range parts {
		if strings.HasSuffix(p, ":") {
			labels++
		}
	}
	if labels < 2 || !strings.HasSuffix(parts[0], ":") {
		return nil
	}
	var out []Person
	for k := 0; k < len(parts); {
		label, rest := strings.TrimSuffix(parts[k], ":"), []string{}
		for k++; k < len(parts) && !strings.HasSuffix(parts[k], ":"); k++ {
			rest = append(rest, parts[k])
		}
		ps := labelled(label, listSep.Split(strings.TrimSpace(sharedItems(withoutAsides(strings.Join(rest, " ")))), -1))
		if len(ps) == 0 {
			return nil
		}
		out = append(out, ps...)
	}
	return out
}

// smallAbbrev is an abbreviation in small letters ("inż.", "hab.", "med.").
var smallAbbrev = regexp.MustCompile(`^\p{Ll}{1,5}\.$`)

// stackedHonorific reports whether words[0], after an honorific, is more of the
// stack: a small abbreviation ("Dr inż.", "dr hab."), or a university's initials
// between two honorifics ("Prof. UW dr hab.").
func stackedHonorific(words []string) bool {
	w := words[0]
	if smallAbbrev.MatchString(w) && !particles[strings.TrimSuffix(w, ".")] {
		return true
	}
	if r := []rune(w); len(r) >= 2 && len(r) <= 4 && strings.ToUpper(w) == w && len(words) > 3 {
		next := honorificKey(words[1])
		return honorificWords[next] || smallAbbrev.MatchString(words[1])
	}
	return false
}

// yearLed is a name after a year ("2008 Artur Kruszelnicki", a roster by year of
// joining).
var yearLed = regexp.MustCompile(`^(?:1[89]|20)[0-9]{2}\s*[:–-]?\s+(\p{Lu}.+)$`)

// letterChain is a post-nominal of three or more dotted capitals after a name
// ("D.P.M", "M.P.H."); two ("J.R.") may be initials.
var letterChain = regexp.MustCompile(`^\p{Lu}\.\p{Lu}\.\p{Lu}(?:\.\p{Lu})*\.?,?$`)

// bioVerbs go on from a name that opens a bio, beside leadVerbs ("Jamal El-Debais
// holds an MBA", "Anna Roth a rejoint", "Jan Hahn heeft").
var bioVerbs = map[string]bool{"holds": true, "brings": true, "founded": true, "graduated": true, "studied": true, "started": true,
	"began": true, "grew": true, "oversees": true, "manages": true, "heads": true, "lead": true, "led": true, "gründete": true,
	"studierte": true, "verantwortet": true, "a": true, "ha": true, "tiene": true, "tem": true, "dirige": true, "fonde": true,
	"fondé": true, "fundó": true, "fundou": true}

// bioLead reads a bio that opens with the name of the person it is about ("Hakim
// Alhusan is a veteran in ... Mr. Alhusan held ..."): a paragraph of eight words or
// more, two to four words that read as a name, then a verb, and the name's given or
// family name again further on, or a personal pronoun ("She leads ..."). The title is
// the one the bio states, if any.
func bioLead(text string) (Person, bool) {
	words := strings.Fields(text)
	if len(words) < 8 {
		return Person{}, false
	}
	for n := 2; n <= 4; n++ {
		v := strings.ToLower(words[n])
		if !leadVerbs[v] && !bioVerbs[v] {
			continue
		}
		name, ok := nameOf(strings.Join(words[:n], " "))
		if !ok || honorificWords[honorificKey(words[0])] || honorificWords[honorificKey(strings.Fields(name)[0])] {
			return Person{}, false // "Dre Lemire est psychiatre": a family name alone
		}
		nw := strings.Fields(name)
		given, family := nw[0], nw[len(nw)-1]
		again := false
		for _, w := range words[n+1:] {
			w = strings.Trim(w, ".,;:!?()'’")
			again = again || strings.EqualFold(w, given) || strings.EqualFold(w, family)
		}
		for _, w := range words[n+1:] {
			again = again || thirdPersonPronouns[strings.ToLower(strings.Trim(w, ".,;:!?()"))]
		}
		if !again {
			return Person{}, false
		}
		return Person{Via: ViaBlock, Name: name, Title: bioTitle(text)}, true
	}
	return Person{}, false
}

// headerRow reports whether tr, the first of a table's rows, is its header row
// written as an ordinary row: two or more cells, all of them th, or all set in
// capitals while a later row is not, and fewer than half of them names ("<tr><td>IMIE I NAZWISKO</td><td>KONTAKT</td>
// </tr>"): column labels, not a person.
func headerRow(rows []*html.Node) bool {
	filled, th, caps, named := 0, 0, 0, 0
	for k := rows[0].FirstChild; k != nil; k = k.NextSibling {
		if k.DataAtom != atom.Td && k.DataAtom != atom.Th {
			continue
		}
		t := textOf(k)
		if strings.TrimSpace(t) == "" {
			continue
		}
		filled++
		if _, ok := nameOf(t); ok {
			named++
		}
		if k.DataAtom == atom.Th {
			th++
		}
		if strings.ToUpper(t) == t && strings.ToLower(t) != t {
			caps++
		}
	}
	if filled < 2 || th < filled && caps < filled || 2*named >= filled {
		return false // names in a row, their titles in the next, are people
	}
	if th == filled {
		return true
	}
	for _, r := range rows[1:] {
		if t := textOf(r); strings.ToUpper(t) != t {
			return true
		}
	}
	return false
}

// tableRows are the rows of a table, across thead and tbody, not those of a table
// inside a cell.
func tableRows(table *html.Node) []*html.Node {
	var rows []*html.Node
	walk(table, func(n *html.Node) bool {
		if n != table && n.DataAtom == atom.Table {
			return false
		}
		if n.DataAtom == atom.Tr {
			rows = append(rows, n)
		}
		return true
	})
	return rows
}

// markHeaderRows flags the lines of tables' header rows (headerRow): no one's name.
func (l *layout) markHeaderRows() {
	header := map[*html.Node]bool{} // by table: its first row when that is a header
	for i := range l.lines {
		c := tableCell(l.lines[i].block)
		if c == nil || l.lines[i].skip {
			continue
		}
		table := c.Parent
		for table != nil && table.DataAtom != atom.Table {
			table = table.Parent
		}
		if table == nil {
			continue
		}
		first, ok := header[table]
		if !ok {
			if rows := tableRows(table); len(rows) > 0 && headerRow(rows) {
				first = true
				header[rows[0]] = true
			}
			header[table] = first
		}
		if first && header[c.Parent] {
			l.lines[i].skip = true
		}
	}
}

// roleColumns unmarks the names read in a table's role column: a cell in a row with a
// name in another cell, whose column holds, in two or more other rows with a name in
// another cell, no name ("V-ce Prezes" over "Skarbnik" and "Sekretarz", beside the
// holders' names).
func (l *layout) roleColumns(isName []bool, names []string) {
	for i := range l.lines {
		if names[i] == "" || !l.nameInRow(i, isName) {
			continue
		}
		c := tableCell(l.lines[i].block)
		if c == nil {
			continue
		}
		col := 0
		for p := c.PrevSibling; p != nil; p = p.PrevSibling {
			if p.Type == html.ElementNode {
				col += colspan(p)
			}
		}
		table := c.Parent
		for table != nil && table.DataAtom != atom.Table {
			table = table.Parent
		}
		if table == nil {
			continue
		}
		filled, named := 0, 0 // cells of the column in rows that name someone elsewhere
		for _, r := range tableRows(table) {
			cell := l.cellAt(r, col)
			if r == c.Parent || cell == nil || cell == c {
				continue
			}
			sp, rs := l.span[cell], l.span[r]
			beside := false
			for k := rs[0]; k < rs[1] && !beside; k++ {
				beside = isName[k] && (k < sp[0] || k >= sp[1])
			}
			for k := sp[0]; k < sp[1] && beside; k++ {
				if l.lines[k].skip {
					continue
				}
				filled++
				if isName[k] {
					named++
				}
			}
		}
		if filled >= 2 && named == 0 {
			isName[i], names[i] = false, ""
			if l.slot == nil {
				l.slot = map[int]bool{}
			}
			l.slot[i] = true // the role of the name beside it, whatever its words
		}
	}
}

// slottedParts reads the lines of marked-up runs whose first run is a name only by its
// shape (a name in capitals the model does not know, "YOSHIO AKUZAWA", or family
// name first), in the slot where two or more other lines of the page were read as
// people: the name and the title run after it.
func (l *layout) slottedParts(isName []bool) []found {
	count := map[string]int{}
	for i := range l.lines {
		if isName[i] {
			count[l.rosterKey(i)]++
		}
	}
	var out []found
	for i, ln := range l.lines {
		if isName[i] || ln.skip || len(ln.parts) < 2 || count[l.rosterKey(i)] < 2 || inMenu(ln.block) {
			continue
		}
		t, ok := slotName(ln.parts[0])
		if !ok {
			continue
		}
		fs := fromParts(append([]string{t}, ln.parts[1:]...))
		if len(fs) != 1 || fs[0].p.Title == "" || !looksLikeTitle(fs[0].p.Title) {
			continue
		}
		f := fs[0]
		f.line, f.strong = i, true
		l.contacts(&f.p, i, true)
		isName[i] = true
		out = append(out, f)
	}
	return out
}

// wrapperForm reports whether a form wraps most of the page's text, as ASP.NET Web
// Forms pages wrap the whole body ("<form id=form1 runat=server>"): content, not a
// form to fill in. Its fields and buttons stay unread.
func wrapperForm(n *html.Node) bool {
	body := n.Parent
	for body != nil && body.DataAtom != atom.Body {
		body = body.Parent
	}
	if body == nil {
		return false
	}
	in := len(strings.Join(strings.Fields(textOf(n)), " "))
	all := len(strings.Join(strings.Fields(textOf(body)), " "))
	return in >= 300 && 5*in >= 3*all
}

// alumniBody is a body of the organisation named after its alumni ("Alumni Council
// Co-Chairs", "Alumni Relations"): its members are current, the section is no list
// of former members.
var alumniBody = regexp.MustCompile(`(?i)\balumni\s+(?:council|committee|board|relations|association|network|chapter|engagement|ambassadors?|co-?chairs?|chairs?|coordinators?|officers?|managers?|liaisons?|representatives?)\b`)

// regionCodes are the postal codes of the US states and Canada's provinces, written
// after a town ("Baltimore, MD", "Newtown Square, PA"): no initials.
var regionCodes = func() map[string]bool {
	m := map[string]bool{}
	for _, c := range strings.Fields("AL AK AZ AR CA CO CT DE FL GA HI ID IL IN IA KS KY LA ME MD MA MI MN MS MO MT NE NV NH NJ NM NY NC ND OH OK OR PA RI SC SD TN TX UT VT VA WA WV WI WY DC PR ON QC BC AB MB SK NS NB NL PE") {
		m[c] = true
	}
	return m
}()

// nounWords counts the words that end like nouns of phrases (nounWord) and are no
// given name ("Asunción", "Concepción" are).
func nounWords(words []string) int {
	n := 0
	for _, w := range words {
		if nounWord(w) && !givenWord(strings.ToLower(w)) {
			n++
		}
	}
	return n
}

// townState reports whether a line is a town and its state's postal code ("Chapel
// Hill, NC", "Newtown Square, PA 19073"): where a person lives, not a person.
func townState(s string) bool {
	town, st, ok := strings.Cut(clean(s), ",")
	if !ok || town == "" || strings.Count(s, ",") != 1 {
		return false
	}
	f := strings.Fields(st)
	if len(f) == 0 || len(f) > 2 || !regionCodes[f[0]] {
		return false
	}
	if len(f) == 2 && strings.Trim(f[1], "0123456789-") != "" {
		return false
	}
	return len(strings.Fields(town)) <= 4
}

// degreeCodes are the state codes that are also degrees after a name ("Jane Smith,
// MD", "John Doe, PA" for a physician assistant, "D.C." written "DC").
var degreeCodes = map[string]bool{"MD": true, "PA": true, "DC": true}

// townLine is townState for line i, save a first line of its block that ends in a
// degree code: "Jane Smith, MD" heads its card, "Baltimore, MD" sits under a name.
func (l *layout) townLine(i int) bool {
	s := l.lines[i].text
	if !townState(s) {
		return false
	}
	f := strings.Fields(s)
	first := i == 0 || l.lines[i-1].block != l.lines[i].block
	return !(first && degreeCodes[f[len(f)-1]])
}

// firmFirst is a line that opens with a firm's name and its legal form after a comma
// ("Price Waterhouse Coopers, LLP, Advisory Senior Associate"): a job held at a firm.
var firmFirst = regexp.MustCompile(`^\s*(?:[^,\s]+\s+){0,5}[^,\s]+,\s*(?:LLP|LLC|L\.L\.C\.|Inc\.?|Ltd\.?|GmbH|AG|S\.A\.|SAS|SARL|B\.V\.|N\.V\.|PLC|Pty)(?:[\s,.]|$)`)

// cutTerm drops a term of office at the end of a line (trailingTerm), looked for only
// when the line's end holds a digit.
func cutTerm(s string) string {
	if !strings.ContainsAny(s[max(0, len(s)-24):], "0123456789") {
		return s
	}
	return trailingTerm.ReplaceAllString(s, "")
}

// trailingTerm is a term of office at the end of a line ("Sindri Viborg 2 ár",
// "formaður 1 ár", "Kassier (2 Jahre)"): no part of a name or a title.
var trailingTerm = regexp.MustCompile(`(?i)[\s,]+\(?[0-9]{1,2}\s+(?:år|ár|years?|yrs?\.?|jahre?|ans?|años?|anni|anno|anos|ano|jaar|vuotta|évre|év|lat|let|roky|roku)\)?\.?$`)

// thirdPersonPronouns are the personal pronouns a bio goes on with about its person
// (titles.go's bioPronouns also hold the first person, which opens a sentence but
// never carries a bio on).
var thirdPersonPronouns = map[string]bool{"she": true, "he": true, "sie": true, "er": true, "elle": true, "il": true, "ella": true,
	"él": true, "lei": true, "lui": true, "zij": true, "hij": true, "ela": true, "ele": true}

// parenPeople are the people a sentence lists as "Name (Role)", two or more ("The
// board consists of Anna Roth (Chair), Jan Hahn (Treasurer) and Eva Bauer
// (Secretary)."): each role one that reads as a title.
func parenPeople(text string) []Person {
	var out []Person
	if strings.Count(text, "(") < 2 {
		return nil
	}
	for _, m := range parenPerson.FindAllStringSubmatch(text, -1) {
		n, ok := nameOf(m[1])
		t, tok := titleLine(m[2])
		if !ok || !tok || !looksLikeTitle(t) {
			continue
		}
		out = append(out, Person{Via: ViaBlock, Name: n, Title: t})
	}
	if len(out) < 2 {
		return nil
	}
	return out
}

var parenPerson = regexp.MustCompile(`((?:\p{Lu}[\pL'’.-]*\s+){1,3}\p{Lu}[\pL'’-]+)\s*\(([^()]{2,60})\)`)

// ownBios drops the bios that sit in the card of a name read on another line (the
// card's own bio, "<h3>Chris Chilies</h3><p>Chris Chiles serves as ...</p>"): the
// card's name is the person.
func (l *layout) ownBios(bios []found, isName []bool) []found {
	kept := bios[:0]
	for _, f := range bios {
		card := false
		for n, d := l.lines[f.line].block, 0; n != nil && d < 3 && !card; n, d = n.Parent, d+1 {
			if n.DataAtom == atom.Body || n.DataAtom == atom.Main {
				break
			}
			sp := l.span[n]
			for k := sp[0]; k < sp[1] && !card; k++ {
				card = k != f.line && isName[k]
			}
		}
		if !card {
			kept = append(kept, f)
		}
	}
	return kept
}

// nameCased reports whether w is written as a name is: a capital, then small letters
// ("Meng", not "MEng" or "M.Eng."): after a given name alone it is the family name,
// whatever degree it also spells.
func nameCased(w string) bool {
	rs := []rune(w)
	if len(rs) < 2 || !unicode.IsUpper(rs[0]) {
		return false
	}
	for _, r := range rs[1:] {
		if !unicode.IsLower(r) {
			return false
		}
	}
	return true
}

// fullWord is a text that ends with a word of three letters or more, no abbreviation
// that a dot would end ("Lugo", not "J" or "Jr").
var fullWord = regexp.MustCompile(`[\s\p{L}]\p{Lu}\p{Ll}{2,}$`)

// copula joins a role to the names that hold it in a sentence ("Geschäftsführer sind
// Anna Roth und Jan Hahn", "The board consists of ...", "Le bureau est composé de
// ...", "La junta está formada por ...").
var copula = regexp.MustCompile(`(?i)^(.{2,80}?)\s+(?:besteht aus|bestehen aus|consists of|is made up of|est composée? de|sont composés de|está formad[oa] por|están formados por|é composto por|é composta por|è composto da|è composta da|bestaat uit|sind|ist|are|is|sont|est|son|es|zijn|são|é|sono|è)\s+(.+?)\.?$`)

// copulaPeople reads a sentence that names a role, then its holders: all of them
// names ("Geschäftsführer sind Anna Roth und Jan Hahn.", the role a title), or names
// and their roles in turn ("Le bureau est composé de Claire Durand, présidente, Paul
// Martin, trésorier, et Sophie Bernard, secrétaire.").
func copulaPeople(text string) []Person {
	if n := len(strings.Fields(text)); n < 4 || n > 60 {
		return nil
	}
	m := copula.FindStringSubmatch(clean(text))
	if m == nil {
		return nil
	}
	items := listSep.Split(strings.TrimSpace(m[2]), -1)
	for k, it := range items {
		items[k] = leadConj.ReplaceAllString(it, "") // ", et Sophie Bernard"
	}
	var names []string
	for _, it := range items {
		n, ok := nameOf(it)
		if !ok {
			names = nil
			break
		}
		names = append(names, n)
	}
	if len(names) > 0 {
		head := strings.Fields(m[1])
		t, ok := titleLine(strings.Join(head[max(0, len(head)-4):], " "))
		if !ok || !looksLikeTitle(t) {
			return nil
		}
		var out []Person
		for _, n := range names {
			out = append(out, Person{Via: ViaBlock, Name: n, Title: t})
		}
		return out
	}
	if len(items) < 4 || len(items)%2 != 0 {
		return nil
	}
	var out []Person
	for k := 0; k < len(items); k += 2 {
		n, ok := nameOf(items[k])
		t, tok := titleLine(items[k+1])
		if !ok || !tok || !looksLikeTitle(t) {
			return nil
		}
		out = append(out, Person{Via: ViaBlock, Name: n, Title: t})
	}
	return out
}

// leadConj is a conjunction left at the start of a list's last item after its comma.
var leadConj = regexp.MustCompile(`^(?:and|und|et|y|e|en|og|och|i|a)\s+`)

// singleLetters reports whether every word is one letter ("C E O", "A B C").
func singleLetters(words []string) bool {
	for _, w := range words {
		if len([]rune(strings.TrimSuffix(w, "."))) != 1 {
			return false
		}
	}
	return true
}

// gluedInitials are two or three initials written together ("J.R.", "W.G.").
var gluedInitials = regexp.MustCompile(`^(?:\p{Lu}\.){2,3}$`)

// enumerated is a name after an item's number ("1. Anna Roth", "(2) Jan Hahn").
var enumerated = regexp.MustCompile(`^(?:[0-9]{1,2}[.)]|\([0-9]{1,2}\))\s+(\p{Lu}.+)$`)

// roleCommaName reads "Role, Name" ("CEO, Anna Roth", "Head of Sales, Eva Bauer"):
// a role that reads as a title and is no name, then a name the model knows.
func roleCommaName(s string) (Person, bool) {
	role, name, ok := strings.Cut(s, ",")
	if !ok || strings.Contains(name, ",") || len(strings.Fields(role)) > 6 {
		return Person{}, false
	}
	t, tok := titleLine(role)
	if !tok || !looksLikeTitle(t) || !titleWord(t) && strings.ToUpper(t) != t {
		return Person{}, false
	}
	if _, isName := nameOf(role); isName {
		return Person{}, false
	}
	n, ok := nameOf(strings.TrimSpace(name))
	if !ok || !knownName(n) || looksLikeTitle(n) {
		return Person{}, false
	}
	return Person{Via: ViaBlock, Name: n, Title: t}, true
}

// nameByTitle reads "Name / Title" and "Name: Title" ("Anna Roth / Geschäftsführerin",
// "Jan Hahn: CTO"): a name on the left, and on the right a title that is no name.
func nameByTitle(s string) (Person, bool) {
	for _, sep := range []string{" / ", ": "} {
		left, right, ok := strings.Cut(s, sep)
		if !ok || strings.Contains(right, sep) {
			continue
		}
		n, ok := nameOf(left)
		if !ok {
			continue
		}
		t, tok := titleLine(right)
		if !tok || !looksLikeTitle(t) {
			continue
		}
		if _, isName := nameOf(right); isName {
			continue
		}
		return Person{Via: ViaBlock, Name: n, Title: t}, true
	}
	return Person{}, false
}

// phoneLead opens a part of a line that gives a phone number ("Tel. 0123 45678").
var phoneLead = regexp.MustCompile(`(?i)^(?:tel|tél|phone|telefon|teléfono|telefono|mobil|mobile|handy|fax|cell|móvil)\.?:?\s*\+?[0-9]`)

// nameWithContacts reads a name followed by its ways of contact and nothing else
// ("Anna Roth, Tel. 0123 45678, anna@acme.de"): the name, its contacts read by the
// caller.
func nameWithContacts(s string) (string, bool) {
	parts := strings.Split(s, ",")
	if len(parts) < 2 {
		return "", false
	}
	for _, p := range parts[1:] {
		p = strings.TrimSpace(p)
		if !emailRe.MatchString(p) && !phoneLead.MatchString(p) && !phoneRe.MatchString(p) {
			return "", false
		}
	}
	return nameOf(parts[0])
}

// Column labels of a table that writes each person's given and family names in cells
// of their own ("Last name | First name | Position"), and of its role column.
var (
	givenColumn  = regexp.MustCompile(`(?i)^(?:first ?name|given ?name|forename|vorname|prénom|prenom|nombre|nome|voornaam|fornavn|förnamn|etunimi|imię|imie|jméno|keresztnév)s?$`)
	familyColumn = regexp.MustCompile(`(?i)^(?:last ?name|surname|family ?name|nachname|familienname|name|nom|nom de famille|apellidos?|cognome|achternaam|sobrenome|apelido|etternavn|efternamn|sukunimi|nazwisko|příjmení|vezetéknév)s?$`)
	roleColumn   = regexp.MustCompile(`(?i)^(?:position|title|job title|role|function|funktion|fonction|poste|cargo|puesto|ruolo|funzione|functie|stilling|befattning|titel|tätigkeit|aufgabe|stanowisko)$`)
)

// splitNameTables reads the tables whose header names a given-name column and a
// family-name column: each row below is a person, with the row's role cell as title.
func splitNameTables(doc *html.Node) []Person {
	var out []Person
	walk(doc, func(n *html.Node) bool {
		if n.Type != html.ElementNode || skippedTags[n.DataAtom] {
			return n.Type != html.ElementNode || !skippedTags[n.DataAtom]
		}
		if n.DataAtom != atom.Table {
			return true
		}
		rows := tableRows(n)
		if len(rows) < 2 {
			return false
		}
		given, family, role := -1, -1, -1
		for k, c := range rowCells(rows[0]) {
			switch t := clean(textOf(c)); {
			case givenColumn.MatchString(t):
				given = k
			case familyColumn.MatchString(t):
				family = k
			case roleColumn.MatchString(t):
				role = k
			}
		}
		if given < 0 || family < 0 {
			return false
		}
		for _, r := range rows[1:] {
			cs := rowCells(r)
			if given >= len(cs) || family >= len(cs) {
				continue
			}
			n, ok := nameOf(clean(textOf(cs[given])) + " " + clean(textOf(cs[family])))
			if !ok {
				continue
			}
			p := Person{Via: ViaBlock, Name: n}
			if role >= 0 && role < len(cs) {
				if t, ok := titleLine(clean(textOf(cs[role]))); ok {
					p.Title = t
				}
			}
			out = append(out, p)
		}
		return false
	})
	return out
}

// rowCells are a row's td and th cells.
func rowCells(tr *html.Node) []*html.Node {
	var cs []*html.Node
	for c := tr.FirstChild; c != nil; c = c.NextSibling {
		if c.DataAtom == atom.Td || c.DataAtom == atom.Th {
			cs = append(cs, c)
		}
	}
	return cs
}

// inlineCard reports whether a link or a span is a card of a run of them: it holds two
// or more elements with text, and so does a sibling of its tag beside it ("<a
// href=/p/1><small>Head of Finance</small><span>Anna Roth</span></a><a ...>").
func inlineCard(n *html.Node) bool {
	if n.DataAtom != atom.A && n.DataAtom != atom.Span || !texted(n) {
		return false
	}
	for _, s := range []*html.Node{prevElement(n), nextElement(n)} {
		if s != nil && s.DataAtom == n.DataAtom && texted(s) {
			return true
		}
	}
	return false
}

// texted reports whether n holds two or more child elements with text.
func texted(n *html.Node) bool {
	k := 0
	for c := n.FirstChild; c != nil && k < 2; c = c.NextSibling {
		if c.Type == html.ElementNode && strings.TrimSpace(textOf(c)) != "" {
			k++
		}
	}
	return k >= 2
}

// thingHeading is a section heading that lists things, not people ("Our projects",
// "Unsere Leistungen", "Nos réalisations"): it gives no title, and no sign that the
// names under it are people.
var thingHeading = regexp.MustCompile(`(?i)(?:^|\s)(?:projects?|products?|solutions?|clients?|customers?|references?|news|events?|publications?|portfolio|case studies|brands?|programmes?|programs?|projekte|produkte|standorte|kunden|referenzen|veranstaltungen|projets|produits|réalisations|proyectos|productos|clientes|eventos|progetti|prodotti|clienti|projecten|producten|klanten)$`)

// ourServices is a heading of the services a firm offers ("Our services", "Unsere
// Leistungen"); "Technical Services" may head a department's people.
var ourServices = regexp.MustCompile(`(?i)^(?:our|unsere|nos|nuestros|i nostri|onze|nossos)\s+(?:services|leistungen|dienstleistungen|prestations|servicios|servizi|diensten|serviços)$`)

// sectionSignature is line i's block signature with the section it sits in
// (sectionHead): cards of one shape with titles in the team's section are
// no evidence for cards of that shape in the projects' section below.
func (l *layout) sectionSignature(i int) string {
	return signature(l.lines[i].block) + "@" + strconv.Itoa(l.sectionHead(i))
}

// sectionHead is the line of the nearest h1 or h2 above line i that is no name (a
// person's own heading opens no section), or -1.
func (l *layout) sectionHead(i int) int {
	for k := i - 1; k >= 0; k-- {
		if h := l.lines[k].heading; h == 1 || h == 2 {
			if _, ok := nameOf(l.lines[k].text); !ok {
				return k
			}
		}
	}
	return -1
}

// thingSection reports whether line i sits under a section heading (the nearest h1
// or h2 above) that lists things (thingHeading): a roster of names there is no
// evidence that they are people ("Our projects": "Green Valley", "Silver Line").
func (l *layout) thingSection(i int) bool {
	k := l.sectionHead(i)
	return k >= 0 && thingHead(clean(l.headingText(k)))
}

// thingHead reports whether a heading lists things, not people (thingHeading,
// ourServices).
func thingHead(heading string) bool {
	return thingHeading.MatchString(headingRole(heading)) || ourServices.MatchString(heading)
}

// capsRuns reads names in capitals that no name model knows ("ABEBE BEKELE") where
// the page repeats them: three or more such lines at the same place in sibling
// elements, each with a line right after it that reads as a title.
func (l *layout) capsRuns(isName []bool, names []string, slotted map[int]bool) {
	cand := map[int]string{}
	for i, ln := range l.lines {
		w := clean(ln.text)
		if isName[i] || ln.skip || ln.heading == 1 || strings.ToUpper(w) != w || inMenu(ln.block) {
			continue
		}
		t := titleCase(w)
		if t == w || !IsName(t) || looksLikeTitle(t) || titleWord(t) || i+1 >= len(l.lines) || isName[i+1] {
			continue
		}
		if tt, ok := l.titleAt(i + 1); !ok || !looksLikeTitle(tt) {
			continue
		}
		cand[i] = t
	}
	if len(cand) < 3 {
		return
	}
	set := make(map[int]bool, len(cand))
	for i := range cand {
		set[i] = true
	}
	for i, t := range cand {
		if l.sameSlot(i, set) >= 2 {
			isName[i], names[i], slotted[i] = true, t, true
		}
	}
}

// teamSection reports whether the section line i sits in (the nearest h1 or h2
// above) is headed as the team's ("Team", "Meet the team", "Unser Team").
func (l *layout) teamSection(i int) bool {
	k := l.sectionHead(i)
	if k < 0 {
		return false
	}
	t := clean(l.headingText(k))
	return genericHeading.MatchString(t) && !notTeamHeading.MatchString(t)
}

// bylineWords open a byline before a name ("By Anna Roth", "Par Claire Durand").
var bylineWords = map[string]bool{"By": true, "by": true, "Par": true, "par": true, "Por": true, "por": true}

// semiSep sets apart the items of a list written with semicolons.
var semiSep = regexp.MustCompile(`\s*;\s*`)

// semiList reads a line that is only names, two or more, set apart by semicolons
// ("Pieter van Dijk; Sanne de Vries; Joost Bakker", "Roth, Anna; Hahn, Jan"): each
// a person without a title; nothing when a part is no name.
func semiList(text string) []Person {
	parts := semiSep.Split(strings.Trim(clean(text), ";"), -1)
	if len(parts) < 2 || strings.Contains(text, ":") {
		return nil
	}
	named := 0
	for _, part := range parts {
		if _, ok := nameOf(part); ok {
			named++
		}
	}
	out := make([]Person, 0, len(parts))
	for _, part := range parts {
		n, ok := nameOf(part)
		if !ok {
			if n, ok = listSlotName(part, named); !ok {
				return nil
			}
		}
		out = append(out, Person{Via: ViaBlock, Name: n})
	}
	return out
}

// listSlotName reads an item of a list set apart by bullets, bars or semicolons that
// nameOf does not take as a name by its shape alone ("TÓTH, Krisztina", "XINYI
// ZHAO"), when another item of the list is a name: the list's slot says name. The
// keep pass still asks the model or the list's kept names to vouch for it.
func listSlotName(item string, named int) (string, bool) {
	if named == 0 {
		return "", false
	}
	return slotName(strings.TrimSpace(item))
}

// nameArticles are the Arabic articles written in small letters and joined to a family
// name by a hyphen ("al-Rashid", "el-Amin"). French and Italian elisions ("d'Ormesson")
// are left out: "Val d'Aosta" and "Maison d'Hôtes" are places.
var nameArticles = []string{"al-", "el-", "ad-", "ar-", "as-", "ash-", "at-", "az-", "an-"}

// articled reports whether w is a family name after its article in small letters
// ("al-Rashid"): the rest a capitalised word.
func articled(w string) bool {
	for _, a := range nameArticles {
		if rest, ok := strings.CutPrefix(w, a); ok {
			return len([]rune(rest)) >= 2 && capitalised(rest)
		}
	}
	return false
}
