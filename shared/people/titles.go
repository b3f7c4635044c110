package people

import (
	"regexp"
	"strings"
	"unicode"
	"unicode/utf8"

	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"

	"github.com/firmoapi/firmo/shared/title"
)

// This file holds the title rules that read the lines around a name by what they say:
// which line goes on with a title broken over lines, and which element after a name's
// own holds its title.

// titleJoin are the words a line of a title broken over lines ends with when the
// title goes on in the next line ("Head of<br>Research").
var titleJoin = map[string]bool{"of": true, "for": true, "and": true, "&": true, "de": true, "des": true, "du": true, "et": true,
	"für": true, "und": true, "der": true, "y": true, "e": true, "del": true, "di": true, "della": true, "en": true, "van": true,
	"voor": true, "-": true, "–": true, "/": true, "to": true}

// continuesTitle reports whether a line after a title line goes on with the title
// ("Directrice<br>et Neuropsychologue", "Geschäftsführerin<br>Vertrieb und
// Marketing", "Member Delegate<br>Group Chair"), not a detail of the card that
// follows it (a town, "Paris, France"; an employer): the line opens in lower case
// or with a joining word, the line before ends with one, or it names a function or
// a rank itself (the job-title model or the job words know it).
func continuesTitle(prev, next string) bool {
	pw := strings.Fields(prev)
	if len(pw) > 0 && (titleJoin[strings.ToLower(pw[len(pw)-1])] || strings.HasSuffix(prev, ",")) {
		return true
	}
	if townLine.MatchString(next) || (outsideJob(next) || employerJob(next)) && !outsideJob(prev) {
		return false // "Sicklerville, NJ"; "Gidus Solutions, LLC, Consultant": where, and a job held elsewhere
	}
	r, _ := utf8.DecodeRuneInString(next)
	if unicode.IsLower(r) || r == '&' || r == '(' {
		return true
	}
	nw := strings.Fields(next)
	if len(nw) == 0 {
		return false
	}
	if titleWord(next) || agentNoun(nw[len(nw)-1]) {
		return true
	}
	if len(nw) <= 2 && strings.ToUpper(next) == next && len(next) <= 9 || len(nw) == 1 && compassWords[strings.ToLower(next)] || regionLine(nw) {
		return true // "Head of Sales<br>EMEA", "Leiter<br>R&D", "Vertrieb<br>Süd", "Managing Director<br>Europe": a region or unit
	}
	c := title.Classify(next)
	return c.Department != title.Other || c.Seniority != title.MidLevel
}

// townLine is a town with its state or country code ("Sicklerville, NJ", "Medford,
// MA", "Lyon, FR").
var townLine = regexp.MustCompile(`^\p{Lu}[\pL .'-]+,\s*\p{Lu}{2}$`)

// siblingTitle is the title in the element after a name's item (a dd after its dt, a
// paragraph after a name heading): elements that hold only lines of no title (a
// degree, a handle) are passed over, and a title broken over lines of its element is
// joined. The element holds the title and nothing else; "" when it does not.
func (l *layout) siblingTitle(it *html.Node, isName []bool) string {
	e := nextElement(it)
	detail := false // an element of one line that reads as no title was passed over
	for hops := 0; e != nil && hops < 4; hops, e = hops+1, nextElement(e) {
		sp, ok := l.span[e]
		if !ok || sp[1] <= sp[0] {
			continue // an image, a rule
		}
		if isName[sp[0]] || l.lines[sp[0]].heading > 0 {
			return ""
		}
		noise := true
		for j := sp[0]; j < sp[1] && noise; j++ {
			noise = isNoise(l.lines[j].text) || qualificationLine(l.lines[j].text)
		}
		if noise {
			continue // "<h4>Name</h4><p>Ph.D.</p><p>Title</p>"
		}
		t, ok := titleLine(l.lines[sp[0]].text)
		slotted := l.slotRoles(l.rosterKey(sp[0]), isName) // the shape that holds roles after the page's names
		if ok && !titleishLine(t) && !slotted && !detail && sp[1] == sp[0]+1 {
			detail = true
			continue // "<h4>Name</h4><p>München</p><p>Title</p>": a detail, then the title
		}
		if !ok || !titleishLine(t) && !slotted {
			return "" // no title by its words, nor in the shape that holds titles after the page's names
		}
		end := sp[0] + 1
		for ; end < sp[1] && !isName[end]; end++ {
			more, ok := titleLine(l.lines[end].text)
			if !ok || !continuesTitle(l.lines[end-1].text, more) {
				break
			}
			t += " " + more
		}
		if end < sp[1] {
			return "" // the element goes on with other text: a bio, not a title
		}
		return t
	}
	return ""
}

// bioLeads are the words after which a bio states a role: the copula ("Anna is the
// ...", "ist", "est", "es", "è", "é", "is"), "as" in its languages ("works as ...",
// "arbeitet als ...", "comme", "como", "come"), and the first person ("I am", "Ich
// bin", "je suis", "soy", "sono", "ik ben", "sou").
var bioLeads = map[string]bool{"is": true, "as": true, "am": true, "became": true, "ist": true, "als": true, "bin": true, "wurde": true,
	"est": true, "comme": true, "suis": true, "es": true, "como": true, "soy": true, "è": true, "come": true, "sono": true,
	"ben": true, "é": true, "sou": true}

// bioFillers come between the lead and the role: articles, possessives, adverbs of
// time ("ist seit 2014 Geschäftsführerin", "is currently the ...").
var bioFillers = map[string]bool{"the": true, "our": true, "a": true, "an": true, "its": true, "their": true, "currently": true, "now": true, "also": true,
	"der": true, "die": true, "das": true, "unser": true, "unsere": true, "ein": true, "eine": true, "derzeit": true, "zurzeit": true, "aktuell": true, "heute": true, "auch": true, "bereits": true, "ebenfalls": true,
	"le": true, "la": true, "l'": true, "notre": true, "un": true, "une": true, "actuellement": true, "aussi": true, "également": true,
	"el": true, "nuestro": true, "nuestra": true, "una": true, "actualmente": true, "también": true,
	"il": true, "lo": true, "nostro": true, "nostra": true, "attualmente": true, "anche": true,
	"de": true, "het": true, "onze": true, "een": true, "momenteel": true, "ook": true,
	"o": true, "nosso": true, "nossa": true, "um": true, "uma": true}

// bioSince open a time adverbial before the role ("seit 2014", "seit Februar 2015",
// "since 2019"); it is passed over.
var bioSince = map[string]bool{"seit": true, "since": true, "depuis": true, "desde": true, "dal": true, "sinds": true, "dès": true}

// bioLinks join the words of a role ("Head of Operations", "Referentin für
// Öffentlichkeitsarbeit", "chef de projet"); the role goes on past one only when the
// next word is in lower case or names a function.
var bioLinks = map[string]bool{"of": true, "for": true, "für": true, "de": true, "du": true, "des": true, "di": true, "della": true, "del": true,
	"van": true, "voor": true, "do": true, "da": true, "dos": true, "dei": true, "degli": true, "delle": true, "dello": true, "to": true, "der": true, "en": true, "and": true, "und": true, "et": true, "y": true, "e": true, "&": true}

// bioConj are the conjunctions among bioLinks.
var bioConj = map[string]bool{"and": true, "und": true, "et": true, "y": true, "e": true, "en": true, "&": true}

// bioFormer open a post held before, not the current role.
var bioFormer = map[string]bool{"ex": true, "ex-": true, "former": true, "formerly": true, "ehemaliger": true, "ehemalige": true, "ancien": true,
	"ancienne": true, "antiguo": true, "antigua": true, "antigo": true, "antiga": true, "voormalig": true, "voormalige": true, "previously": true}

// bioStops end a role: an employer or a place ("at", "bei", "chez"), a time, a
// relative clause.
var bioStops = map[string]bool{"at": true, "bei": true, "beim": true, "bij": true, "chez": true, "presso": true, "with": true, "mit": true, "in": true, "im": true,
	"à": true, "au": true, "aux": true, "dans": true, "na": true, "no": true, "nel": true, "nella": true, "who": true, "which": true, "that": true, "since": true,
	"seit": true, "depuis": true, "desde": true, "dal": true, "sinds": true, "on": true, "the": true, "a": true, "an": true, "is": true, "was": true, "has": true,
	"qui": true, "que": true, "die": true, "das": true, "within": true, "auprès": true, "al": true, "alla": true, "sul": true}

// bioRole is the role a bio states after a lead word in its first two sentences
// ("Michael ist Senior Trainer beim ...", "Knut arbeitet seit Februar 2015 als
// studentische Aushilfe bei ...", "Jo is the Head of Operations of Acme"), when it
// reads as a job title (the job-title model, the job words, or an agent noun in
// capitals); "" otherwise. The role ends where the employer, a place, a time or the
// sentence begins.
func bioRole(bio string) string {
	sentences := strings.SplitAfterN(bio, ". ", 3)
	words := strings.Fields(strings.Join(sentences[:min(2, len(sentences))], ""))
	for i := 0; i < len(words); i++ {
		if !bioLeads[strings.ToLower(strings.Trim(words[i], ",;:"))] || strings.ContainsAny(words[i], ".;:") {
			continue
		}
		j := i + 1
		for j < len(words) {
			w := strings.ToLower(words[j])
			if bioSince[w] {
				j++
				for j < len(words) && j-i <= 5 && (strings.ContainsAny(words[j], "0123456789") || monthLike(words[j])) {
					j++
				}
				continue
			}
			if bioFillers[w] || strings.HasPrefix(w, "l'") && len(w) > 2 && bioRoleWord(words[j][2:]) {
				if strings.HasPrefix(w, "l'") {
					words[j] = words[j][2:]
					break
				}
				j++
				continue
			}
			break
		}
		if t := bioPhrase(words[j:]); t != "" {
			return t
		}
	}
	return ""
}

// bioPhrase reads a role from the words that open it, and checks it reads as one.
func bioPhrase(ws []string) string {
	var out []string
	for k := 0; k < len(ws) && len(out) < 7; k++ {
		w := ws[k]
		core := strings.TrimRight(w, ".,;:!?)")
		lc := strings.ToLower(core)
		if core == "" || strings.ContainsAny(core, "0123456789(\"“") {
			break
		}
		if len(out) > 0 {
			if bioLinks[lc] {
				if k+1 >= len(ws) || core != w {
					break
				}
				next := strings.TrimRight(ws[k+1], ".,;:!?)")
				r, _ := utf8.DecodeRuneInString(next)
				lower := unicode.IsLower(r) && !bioStops[strings.ToLower(next)] && !bioFillers[strings.ToLower(next)]
				// "Research and Development": a conjunction after a function goes on with a capital
				conj := bioConj[lc] && unicode.IsUpper(r) && bioRoleWord(out[len(out)-1])
				if !lower && !conj && !bioRoleWord(next) {
					break
				}
			} else if bioStops[lc] {
				break
			} else if r, _ := utf8.DecodeRuneInString(core); unicode.IsLower(r) && (len([]rune(core)) <= 3 || strings.HasSuffix(lc, "lich") || strings.HasSuffix(lc, "ig")) {
				break // a short function word, or a German adjective after the role ("als Projektleiterin verantwortlich für")
			}
		}
		out = append(out, core)
		if core != w {
			break // the clause ends with this word
		}
	}
	for len(out) > 0 && bioLinks[strings.ToLower(out[len(out)-1])] {
		out = out[:len(out)-1]
	}
	if len(out) == 0 || len(out) > 6 || bioFormer[strings.ToLower(out[0])] {
		return "" // none, or a post held before ("ex Fiscal Adjunto", "former Director")
	}
	t := strings.Join(out, " ")
	last := out[len(out)-1]
	if r, _ := utf8.DecodeRuneInString(t); looksLikeTitle(t) || unicode.IsUpper(r) && agentNoun(last) {
		return t
	}
	return ""
}

// bioRoleWord reports whether w names a function or a rank (the job words, or a
// department or rank the job-title model knows).
func bioRoleWord(w string) bool {
	w = strings.TrimRight(w, ".,;:!?)")
	if w == "" {
		return false
	}
	if titleWord(w) {
		return true
	}
	c := title.Classify(w)
	return c.Department != title.Other || c.Seniority != title.MidLevel
}

// monthLike reports whether w is a month's name in the page languages (their first
// three letters), as in "seit Februar 2015".
func monthLike(w string) bool {
	lw := []rune(strings.ToLower(w))
	if len(lw) < 3 {
		return false
	}
	switch string(lw[:3]) {
	case "jan", "feb", "fév", "fev", "mar", "mär", "apr", "avr", "abr", "may", "mai", "mag", "mei", "jun", "jui", "giu", "jul", "lug", "aug", "aoû", "ago", "sep", "set", "oct", "okt", "ott", "nov", "dec", "déc", "dez", "dic":
		return true
	}
	return false
}

// headsSection reports whether the heading on line k, right above a card that ends
// before line end, heads a section with more names after that card before the next
// heading: the section's heading, not the label of the card right under it. Its role,
// if any, is given to the cards that state none (sectionOf).
func (l *layout) headsSection(k, end int, isName []bool) bool {
	if l.lines[k].heading == 0 {
		return false
	}
	for j := end; j < len(l.lines); j++ {
		if l.lines[j].heading > 0 && !isName[j] {
			return false
		}
		if isName[j] {
			return true
		}
	}
	return false
}

// labelsLead reports whether the line k right after the name on line i is the label
// of the next card, not the name's own title: the page alternates labels and names
// in lines of two shapes ("<h5>Treasurer</h5><h4>Name</h4><h5>Chair</h5><h4>Name
// </h4>"), and the run opens with a label.
func (l *layout) labelsLead(i, k int, isName []bool) bool {
	if k != i+1 || i < 1 || isName[k] || k+1 >= len(l.lines) || !isName[k+1] {
		return false
	}
	kn, kl := l.rosterKey(i), l.rosterKey(k)
	if kn == kl || l.rosterKey(i-1) != kl || isName[i-1] {
		return false
	}
	j := i - 1 // the earliest line of the alternating run
	for j-1 >= 0 {
		want, name := kl, false
		if (i-(j-1))%2 == 0 {
			want, name = kn, true
		}
		if l.rosterKey(j-1) != want || isName[j-1] != name {
			break
		}
		j--
	}
	return !isName[j]
}

// genderPlurals end German plurals written for all genders ("Geschäftsführer*innen",
// "Beisitzer:innen", "ReferentInnen"); the singular given is the stem, as pages
// and readers name one holder ("Geschäftsführer").
var genderPlurals = []string{"*innen", ":innen", "_innen", "/innen", "(innen)", "Innen"}

// genderSingular is the stem of a German all-gender plural and true, or w and false.
func genderSingular(w string) (string, bool) {
	for _, g := range genderPlurals {
		if stem, ok := strings.CutSuffix(w, g); ok && len([]rune(stem)) >= 3 {
			if r, _ := utf8.DecodeLastRuneInString(stem); unicode.IsLower(r) {
				return stem, true
			}
		}
	}
	return w, false
}

// genderSingularHead gives a heading whose last word is an all-gender plural in the
// singular: the noun's stem, and an adjective before it in its masculine singular
// ("Vertretungsberechtigte Geschäftsführer*innen": Vertretungsberechtigter
// Geschäftsführer); ok is false when the heading holds no such plural.
func genderSingularHead(head string) (string, bool) {
	words := strings.Fields(head)
	if len(words) == 0 {
		return head, false
	}
	last, ok := genderSingular(words[len(words)-1])
	if !ok {
		return head, false
	}
	words[len(words)-1] = last
	for k := len(words) - 2; k >= 0; k-- {
		w := words[k]
		if r, _ := utf8.DecodeRuneInString(w); !unicode.IsUpper(r) || !strings.HasSuffix(w, "e") {
			break
		}
		words[k] = w + "r"
	}
	return strings.Join(words, " "), true
}

// composedOf is a sentence that opens a list by saying what body its people make up
// ("Il Consiglio Direttivo in carica è composto da:", "The Board consists of:", "Der
// Vorstand besteht aus:"): the body before the verb.
var composedOf = regexp.MustCompile(`(?i)^(.+?)\s+(?:(?:è|e|est|está|esta|é|is|ist)\s+(?:attualmente\s+|actuellement\s+|actualmente\s+|currently\s+)?(?:composto|composta|composé|composée|compuesto|compuesta|composto|composta|formado|formada|formé|formée|made up|composed)\s+(?:da|de|por|of|par|from|aus)|consists\s+of|comprises|besteht\s+aus|setzt\s+sich\s+(?:wie\s+folgt\s+)?(?:zusammen\s+)?aus|se\s+compose\s+de|se\s+compone\s+de|bestaat\s+uit)(?:\s+(?:the\s+following|following|i\s+seguenti|les\s+suivants|folgenden\s+\pL+|los\s+siguientes))?\s*:$`)

// bodyArticles open a body's name in a sentence.
var bodyArticles = map[string]bool{"il": true, "la": true, "lo": true, "le": true, "l'": true, "the": true, "our": true, "der": true, "die": true, "das": true,
	"unser": true, "unsere": true, "el": true, "o": true, "a": true, "het": true, "de": true, "notre": true, "nuestro": true, "nuestra": true}

// composedBody is the body a list-opening sentence names (composedOf), when it reads
// as a board or council (boardHeading); "" otherwise.
func composedBody(s string) string {
	m := composedOf.FindStringSubmatch(strings.TrimSpace(s))
	if m == nil {
		return ""
	}
	words := strings.Fields(m[1])
	for len(words) > 0 && bodyArticles[strings.ToLower(words[0])] {
		words = words[1:]
	}
	for len(words) > 0 { // "in carica", "actual", "current": the body's name ends at its last capital
		if r, _ := utf8.DecodeRuneInString(words[len(words)-1]); unicode.IsUpper(r) {
			break
		}
		words = words[:len(words)-1]
	}
	if len(words) == 0 || len(words) > 5 {
		return ""
	}
	if r, _ := utf8.DecodeRuneInString(words[0]); !unicode.IsUpper(r) {
		return ""
	}
	body := strings.Join(words, " ")
	if !boardHeading(body) {
		return ""
	}
	return body
}

// webName is a web address or a site's domain in running text ("erbrechtsinfo.ch").
var webName = regexp.MustCompile(`(?i)(?:^|\s)(?:https?://|www\.)?[\pL0-9-]+\.(?:com|org|net|io|ch|de|at|fr|es|it|nl|be|eu|uk|info|pt|no|se|dk)(?:/\S*)?(?:\s|$)`)

// trailingRun reports whether the last run of a line after a title is no part of it:
// a link's label (noise) or a run that names a web site ("Partnerin von
// erbrechtsinfo.ch").
func trailingRun(s string) bool { return isNoise(s) || webName.MatchString(s) }

// biosUnderBoards gives the people of a board's section whose title came from their
// bio the section's role: under "Board of Trustees" or "Consiglio Direttivo", the
// post a bio states ("è amministratore delegato di Impresa ... spa") is mostly held
// elsewhere, and the heading says what the person is here. A heading that names a
// role ("Les Fondateurs") yields to the bio, which may say more ("Co-fondateur").
func (l *layout) biosUnderBoards(fs []found) {
	for k, f := range fs {
		if !f.bio {
			continue
		}
		if head, _ := l.sectionOf(f.line, l.lines[f.line].heading, true); head != "" && boardWords.MatchString(head) {
			fs[k].p.Title = singular(head)
		}
	}
}

// roleHeader is a table header that names the column of titles.
var roleHeader = regexp.MustCompile(`(?i)^(?:positions?|title|job title|titel|roles?|rolle|roll|funktion|function|fonction|poste|cargo|ruolo|functie|stilling|befattning|funkce|funkcja|stanowisko|tehtävä|designation|amt)$`)

// rowRole is the title in the name's table row under a header that names the
// column of titles ("Position", "Funktion", "Stanowisko"), whatever its words and
// numbers ("Biology 101 & 102 Course Coordinator"); "" when the row has none. The
// header is the table's first row, in th or td cells.
func (l *layout) rowRole(i int, isName []bool) string {
	cell := tableCell(l.lines[i].block)
	if cell == nil {
		return ""
	}
	tr := cell.Parent
	table := tr.Parent
	for table != nil && table.DataAtom != atom.Table {
		table = table.Parent
	}
	if table == nil {
		return ""
	}
	var head *html.Node
	walk(table, func(n *html.Node) bool {
		if head == nil && n.DataAtom == atom.Tr {
			head = n
		}
		return head == nil
	})
	if head == nil || head == tr {
		return ""
	}
	col := 0
	for c := head.FirstChild; c != nil; c = c.NextSibling {
		if c.Type != html.ElementNode {
			continue
		}
		if sp, ok := l.span[c]; ok && sp[1] == sp[0]+1 && roleHeader.MatchString(strings.TrimSuffix(clean(l.lines[sp[0]].text), ":")) {
			rc := l.cellAt(tr, col)
			if rc == nil || rc == cell {
				return ""
			}
			sp2, ok := l.span[rc]
			if !ok || sp2[1] <= sp2[0] || isName[sp2[0]] {
				return ""
			}
			t := strings.TrimSpace(contactAside.ReplaceAllString(clean(l.lines[sp2[0]].text), ""))
			if t == "" || len(t) > 110 || isNoise(t) {
				return ""
			}
			return t
		}
		col += colspan(c)
	}
	return ""
}

// degreeToken reports whether w is an academic degree written as a chain of
// abbreviations that opens with a degree ("B.Sc.Pharm.", "B.Sc.-Wirt.-Inf.",
// "M.Sc.Eng.", "Dipl.-Kfm.", "B.A."), besides the degrees and chains listed
// (isDegreeChain).
func degreeToken(w string) bool {
	w = strings.Trim(w, ",;")
	if isDegreeChain(w) || degreeWords[honorificKey(w)] {
		return true
	}
	lw := strings.ToLower(w)
	if strings.HasPrefix(lw, "dipl.") || strings.HasPrefix(lw, "dipl-") {
		return true
	}
	if !strings.HasSuffix(w, ".") {
		return false
	}
	parts := strings.FieldsFunc(lw, func(r rune) bool { return r == '.' || r == '-' })
	if len(parts) < 2 || !degreeWords[parts[0]+"."+parts[1]] && !degreeWords[parts[0]+parts[1]] {
		return false
	}
	for _, p := range parts[2:] {
		if len([]rune(p)) > 6 {
			return false
		}
	}
	return true
}

// qualificationLine reports whether a line beside a name states a degree, not the
// role: it opens with a degree ("B.Sc.-Wirt.-Inf.", "B.A. in Management", "Dipl.
// Inform. Med. (FH)", "M.Sc., MBA").
func qualificationLine(s string) bool {
	w, _, _ := strings.Cut(strings.TrimSpace(s), " ")
	return w != "" && degreeToken(w) || degreeWordsLine.MatchString(strings.TrimSpace(s))
}

// degreeWordsLine is a degree written out in words ("Licenciada en Derecho",
// "Diplom-Kauffrau", "Master en Finance", "Laurea in Economia", "Bachelor of Arts").
var degreeWordsLine = regexp.MustCompile(`(?i)^(?:(?:licenciad[oa]s?|graduad[oa]s?|diplomad[oa]s?|diplômée?|titulad[oa]s?|egresad[oa]s?|máster|master|bachelor|magister|mestre|mestrado|licence|licenciatura|laurea|laureat[oa]|doctor|doctora|docteur|doktor|dottore|dottoressa|ph\.?\s?d\.?)\s+(?:en|in|of|em|der|da|de|di|ès|es|of\s+arts|of\s+science)\b|diplom-\pL+|dipl\.-\pL+)`)

// registration is a professional registration or licence number shown beside a
// title ("OAB/BA nº 76052", "Reg.-Nr. 1234", "Licence : 334219G").
var registration = regexp.MustCompile(`(?i)(?:\bn[º°o]\.?\s*\d|\bnr\.?\s*\d|#\s*\d|\breg(?:\.|istr\S*)|\boab\b|\blicen[cs]e\b|\bmatr[íi]cula\b|\bcolegiad[oa]\b)`)

// withoutRegistration cuts the registration number from a title set apart by a bar
// ("OAB/BA nº 76052 | Sócia do Arize Áspera Advocacia": Sócia do ...).
func withoutRegistration(s string) string {
	parts := barSep.Split(s, -1)
	if len(parts) < 2 {
		return s
	}
	var kept []string
	for _, p := range parts {
		if !(strings.ContainsAny(p, "0123456789") && registration.MatchString(p)) {
			kept = append(kept, p)
		}
	}
	if len(kept) == 0 || len(kept) == len(parts) {
		return s
	}
	return strings.Join(kept, " | ")
}

// roleClassed reports whether an element's class says it holds a role
// ("job-title", "position"), also when the class is written in camel case
// ("eksperciItemFunction", "teamMemberRole").
func roleClassed(n *html.Node) bool {
	c := attr(n, "class")
	if roleClass.MatchString(c) {
		return true
	}
	var b strings.Builder
	prev := ' '
	for _, r := range c {
		if unicode.IsUpper(r) && unicode.IsLower(prev) {
			b.WriteByte(' ')
		}
		b.WriteRune(r)
		prev = r
	}
	return b.String() != c && roleClass.MatchString(b.String())
}

// bioOpener is the role a bio opens with, as a sentence or a clause of its own
// ("Kierownik projektów EEN. Ekspert w ...", "Head of Product, she joined in 2019
// ..."): at most six words, no verb, reading as a job title; "" otherwise.
func bioOpener(bio string) string {
	bio = strings.TrimSpace(bio)
	end := len(bio)
	if i := strings.Index(bio, ". "); i >= 0 {
		end = i
	}
	if i := strings.Index(bio, ", "); i >= 0 && i < end {
		end = i
	}
	t := strings.TrimSuffix(strings.TrimSpace(bio[:end]), ".")
	words := strings.Fields(t)
	if len(words) == 0 || len(words) > 6 || end == len(bio) || strings.ContainsAny(t, "0123456789():;\"“") {
		return ""
	}
	if r, _ := utf8.DecodeRuneInString(t); !unicode.IsUpper(r) {
		return ""
	}
	for _, w := range words {
		if leadVerbs[strings.ToLower(w)] || bioLeads[strings.ToLower(w)] {
			return ""
		}
	}
	if first := strings.ToLower(words[0]); givenWord(first) || bioPronouns[first] {
		return "" // "Ewa spent ten years in logistics": a sentence about the person
	}
	if _, ok := nameOf(t); ok {
		return "" // the name the bio opens with
	}
	if !looksLikeTitle(t) {
		return ""
	}
	return t
}

// bioPronouns open a sentence about the person, not a role.
var bioPronouns = map[string]bool{"he": true, "she": true, "they": true, "i": true, "we": true, "er": true, "sie": true, "ich": true, "il": true, "elle": true,
	"je": true, "él": true, "ella": true, "yo": true, "lui": true, "lei": true, "io": true, "hij": true, "zij": true, "ik": true, "ele": true, "eu": true}

// employerJob reports whether a line names an employer and then the job held there
// ("Gidus Solutions, LLC, Consultant", "Bentley Systems, Senior Marketing Manager"):
// after its last comma a job title, before it capitalised words with no job word.
func employerJob(s string) bool {
	i := strings.LastIndex(s, ", ")
	if i <= 0 {
		return false
	}
	head, tail := s[:i], s[i+2:]
	if !titleWord(tail) && !looksLikeTitle(tail) || titleWord(head) {
		return false
	}
	caps := 0
	for _, w := range strings.Fields(head) {
		if r, _ := utf8.DecodeRuneInString(w); unicode.IsUpper(r) || unicode.IsDigit(r) {
			caps++
		}
	}
	return caps >= 2
}

// titleish reports whether a line reads as a job title by its words: the job-title
// model or the job words know it, or it ends in an agent noun ("Kassierer").
func titleish(t string) bool {
	w := strings.Fields(t)
	return len(w) > 0 && (looksLikeTitle(t) || titleWord(t) || agentNounAny(w[len(w)-1]))
}

// agentNounAny is agentNoun with the feminine forms of German and the Iberian
// languages ("Kassenprüferin", "Administradora", "Contadora").
func agentNounAny(w string) bool {
	if agentNoun(w) {
		return true
	}
	lw := strings.ToLower(strings.Trim(w, ".,;"))
	for _, e := range []string{"erin", "orin", "eurin", "istin", "entin", "antin"} {
		if strings.HasSuffix(lw, e) && len([]rune(lw)) >= 7 {
			return true
		}
	}
	for _, e := range []string{"adora", "edora", "idora", "tora"} {
		if strings.HasSuffix(lw, e) && len([]rune(lw)) >= 7 {
			return true
		}
	}
	return false
}

// titleAfterDetail is the title line after line k of a card, when line k holds a
// detail that reads as no title (a town, "Acme Holding GmbH") and the next line of
// the card, not a name, reads as one ("Name / München / Geschäftsführer"). A line in
// the role slot of the page's cards is kept.
func (l *layout) titleAfterDetail(k int, t string, end int, isName []bool) (int, string, bool) {
	if l.slot[k] || titleish(t) || l.slotRoles(l.rosterKey(k), isName) {
		return 0, "", false
	}
	for j := k + 1; j < end && j <= k+2 && !isName[j] && l.lines[j].heading == 0; j++ {
		if isNoise(l.lines[j].text) {
			continue
		}
		if t2, ok := l.titleAt(j); ok && roleWorded(t2) && !outsideJob(t2) && !employerJob(t2) {
			return j, t2, true
		}
		break
	}
	return 0, "", false
}

// roleWorded reports whether a line names a role by its words, not only a field or
// department: a job word, an agent noun, or a rank the job-title model reads
// ("Projectleider", "Office Manager"; not "Service de consultation").
func roleWorded(t string) bool {
	w := strings.Fields(t)
	if len(w) == 0 {
		return false
	}
	return titleWord(t) || agentNounAny(w[0]) || agentNounAny(w[len(w)-1]) || title.Classify(t).Seniority != title.MidLevel
}

// slotRoles reports whether two or more lines of the element shape key, each right
// after a name, read as roles: the page's title slot, whatever one card's line says.
func (l *layout) slotRoles(key string, isName []bool) bool {
	n := 0
	for k := 1; k < len(l.lines) && n < 2; k++ {
		if isName[k-1] && !isName[k] && l.rosterKey(k) == key && titleish(clean(l.lines[k].text)) {
			n++
		}
	}
	return n >= 2
}

// smallNumberInRole reports whether w, a number in a line of words, is a small one
// (a grade, a tier, a year group: at most two digits, or a range of them) in a line
// that names a role ("Head of Tier 2 Support", "Teacher (Grades 3–5)", "Leiterin
// Kita 2"), not a street number, a year or a phone.
func smallNumberInRole(words []string, w string) bool {
	for _, part := range strings.FieldsFunc(strings.Trim(w, "-–/.,+()"), func(r rune) bool { return r == '-' || r == '–' || r == '/' }) {
		if len(part) > 2 || strings.Trim(part, "0123456789") != "" {
			return false
		}
	}
	var rest []string
	for _, x := range words {
		if !strings.ContainsAny(x, "0123456789") {
			rest = append(rest, x)
		}
	}
	line := strings.Join(rest, " ")
	return len(rest) > 0 && !strings.Contains(line, ":") && !tenureWord.MatchString(line) && roleWorded(line)
}

// tenureWord names a span of time: a number beside it is a term or experience ("2
// años", "27 years in B2B software"), not part of a role.
var tenureWord = regexp.MustCompile(`(?i)(?:^|\s)(?:years?|yrs?|jahre?n?|ans?|années?|años?|anni|anno|jaar|jaren|år|months?|monate?n?|mois|meses|mesi|maanden)(?:\s|$)`)

// termAside is a term of office in brackets after a role ("Ordförande (2 år)",
// "Beisitzer (bis 2026)", "Vocal (2 años)", "Socio Senior (dal 1974)"): no part of
// the title.
var termAside = regexp.MustCompile(`(?i)\s*[(\[]\s*(?:bis\s+|until\s+|jusqu'en\s+|hasta\s+|dal\s+|since\s+|seit\s+|depuis\s+|desde\s+|ab\s+|sinds\s+|siden\s+|from\s+)?\d{1,4}\s*(?:years?|yrs?|jahre?|ans?|años?|anni|jaar|år)?\s*[)\]]\s*$`)

// titleishLine is looksLikeTitle for a line that may hold a small number or a slash
// between two roles ("Geschäftsführer / CEO", "Head of Tier 2 Support").
func titleishLine(t string) bool {
	if titleish(t) {
		return true
	}
	var ws []string
	for _, w := range strings.Fields(strings.NewReplacer("/", " ", "|", " ").Replace(t)) {
		if !strings.ContainsAny(w, "0123456789") {
			ws = append(ws, w)
		}
	}
	return len(ws) > 0 && looksLikeTitle(strings.Join(ws, " "))
}

// clauseWords are the pronouns and verbs that make a label a clause ("We are:",
// "Wir sind:", "Nous sommes :", "Our team is:"), not the name of a role or body.
var clauseWords = map[string]bool{"we": true, "are": true, "is": true, "wir": true, "sind": true, "ist": true, "nous": true, "sommes": true,
	"sont": true, "est": true, "somos": true, "son": true, "es": true, "siamo": true, "sono": true, "è": true, "wij": true, "zijn": true,
	"vi": true, "er": true, "är": true, "include": true, "includes": true, "meet": true}

// clauseLabel reports whether a label or heading is a clause that opens a list
// rather than a role or body.
func clauseLabel(t string) bool {
	for k, w := range strings.Fields(strings.TrimSuffix(strings.TrimSpace(t), ":")) {
		lw := strings.ToLower(w)
		if (clauseWords[lw] || leadVerbs[lw]) && (w == lw || k == 0) {
			return true // a verb in lower case, or a pronoun opening the label; not "Région Est"
		}
	}
	return false
}

// boilerplate reports whether line k holds text the page repeats on two or more
// cards and that names no role ("Trabajemos juntos", "Let's work together" under
// every name): a call to action, not the card's title.
func (l *layout) boilerplate(k int) bool {
	if k < 0 {
		return false
	}
	if l.repeats == nil {
		l.repeats = map[string]int{}
		for _, ln := range l.lines {
			l.repeats[strings.ToLower(ln.text)]++
		}
	}
	t := l.lines[k].text
	return l.repeats[strings.ToLower(t)] >= 2 && !titleish(clean(t))
}

// sinceStatement is a sentence that is only a role and the year it was taken up
// ("Chair since 2016.", "Formand siden 2016.", "Kassenwartin seit 2019").
var sinceStatement = regexp.MustCompile(`^(\p{Lu}[\pL'’&-]*(?:\s+[\pL'’&-]+){0,4})\s+(?:since|seit|siden|sedan|depuis|desde|dal|sinds|from)\s+((?:19|20)\d\d)\.?$`)

// latestRole is the role of a card's line made of "Role since YEAR" sentences: the
// one taken up last ("Medlem af Bestyrelsen siden 2010. Formand siden 2016." gives
// Formand); "" when a sentence of the line is anything else.
func latestRole(s string) string {
	best, year := "", ""
	for _, sent := range strings.Split(strings.TrimSpace(s), ". ") {
		m := sinceStatement.FindStringSubmatch(strings.TrimSpace(sent))
		if m == nil {
			return ""
		}
		if first := strings.ToLower(strings.Fields(m[1])[0]); bioPronouns[first] || leadVerbs[first] || givenWord(first) {
			return ""
		}
		if m[2] >= year {
			best, year = m[1], m[2]
		}
	}
	return best
}

// sameRankSection is the heading a run of name headings of one rank sits under when
// that heading has the same rank ("<h3>Audit Committee</h3><h3>Name</h3><h3>Name
// </h3>"): the nearest heading before line i of its rank that is no name, with only
// name headings of that rank (and their cards' lines) between, when it names a board
// or the holders of a role; "" otherwise.
func (l *layout) sameRankSection(i int, isName []bool) string {
	rank := l.lines[i].heading
	if rank == 0 || rank > 6 {
		return ""
	}
	for k := i - 1; k >= 0; k-- {
		h := l.lines[k].heading
		if h == 0 {
			continue
		}
		if h < rank {
			return ""
		}
		if h > rank {
			continue
		}
		if isName[k] {
			continue
		}
		t := clean(l.headingText(k))
		if genericHeading.MatchString(t) || clauseLabel(t) || len(strings.Fields(t)) > 6 || !boardHeading(t) {
			return ""
		}
		return headingRole(t)
	}
	return ""
}

// withoutEmployer cuts the employer a title names after its last comma when that part
// is an organisation by its words ("Geschäftsführerin, Acme GmbH", "Associate
// Professor, University of Montpellier") and the part before reads as a role: the
// page's own people are listed with their role, the firm is the page's.
func withoutEmployer(t string) string {
	i := strings.LastIndex(t, ", ")
	if i <= 0 {
		return t
	}
	head, tail := t[:i], t[i+2:]
	if !orgWords.MatchString(" "+tail) || orgWords.MatchString(" "+head) || !titleish(head) {
		return t
	}
	return head
}

// membersWord names a body's members in a sentence that opens a list of them.
var membersWord = regexp.MustCompile(`(?i)(?:^|\s)(?:members|mitglieder\pL*|membres|miembros|membri|membros|leden|medlemmer|medlemmene|medlemmar|medlemmerne)(?:\s|:|$)`)

// membersSentence reports whether a list-opening sentence says the list holds the
// members of the body the section is about ("Utvalget består i tillegg av disse
// medlemmene:", "The committee also has these members:"): the section's heading, above
// it, names the body.
func membersSentence(s string) bool { return membersWord.MatchString(s) }

// rowLabel is the role in the cell before a name's cell in its table row, when that
// cell holds no name and reads as a title ("<tr><td>Vocales</td><td>Luis Gil<br>Eva
// Sanz</td></tr>"); where the name's cell holds two or more names the role is given
// in the singular (Vocal). "" when there is none.
func (l *layout) rowLabel(i int, isName []bool) string {
	cell := tableCell(l.lines[i].block)
	if cell == nil {
		return ""
	}
	csp, ok := l.span[cell]
	if !ok {
		return ""
	}
	names := 0
	for j := csp[0]; j < csp[1]; j++ {
		if isName[j] {
			names++
		}
	}
	for c := prevElement(cell); c != nil; c = prevElement(c) {
		sp, ok := l.span[c]
		if !ok || sp[1] <= sp[0] {
			continue
		}
		for j := sp[0]; j < sp[1]; j++ {
			if isName[j] {
				return ""
			}
		}
		t, ok := titleLine(l.lines[sp[0]].text)
		if !ok || sp[1]-sp[0] > 2 || !titleish(t) && !titleish(singular(t)) {
			return ""
		}
		if names >= 2 {
			return singular(t)
		}
		return t
	}
	return ""
}

// regionWords name the world's regions a role may cover ("Europe", "North America",
// "Asia Pacific", "Lateinamerika"), unlike a town.
var regionWords = map[string]bool{"europe": true, "europa": true, "america": true, "americas": true, "amérique": true, "amerika": true,
	"américa": true, "asia": true, "asie": true, "asien": true, "pacific": true, "africa": true, "afrique": true, "afrika": true,
	"middle": true, "east": true, "nordics": true, "benelux": true, "dach": true, "emea": true, "apac": true, "latam": true,
	"latin": true, "lateinamerika": true, "latinoamérica": true, "iberia": true, "scandinavia": true, "skandinavien": true,
	"north": true, "south": true, "west": true, "central": true, "western": true, "eastern": true, "northern": true, "southern": true,
	"oceania": true, "international": true, "global": true, "worldwide": true, "weltweit": true}

// regionLine reports whether a line's words all name a region ("Europe", "North
// America").
func regionLine(ws []string) bool {
	if len(ws) == 0 || len(ws) > 3 {
		return false
	}
	for _, w := range ws {
		if !regionWords[strings.ToLower(strings.Trim(w, ",."))] {
			return false
		}
	}
	return true
}

// nameAside is a name with a bracketed aside in a list ("Anna Roth (Vorsitzende)").
var nameAside = regexp.MustCompile(`([^(),;:]+?)\s*\(([^()]{2,60})\)`)

// asideRoles are the roles a list gives its names in brackets ("Vertreten durch den
// Vorstand: Anna Roth (Vorsitzende), Jonas Wirth (Kassenwart)"), by name key: each
// person's own role, over the list's label.
func asideRoles(list string) map[string]string {
	out := map[string]string{}
	for _, m := range nameAside.FindAllStringSubmatch(list, -1) {
		n, ok := nameOf(strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(m[1]), "und ")))
		if !ok {
			continue
		}
		if t, ok := titleLine(m[2]); ok && titleish(t) {
			out[NameKey(n)] = t
		}
	}
	return out
}

// boardOffice reports whether a card's title is an office held on the board itself
// ("Chair", "Treasurer", "Vice-Chair", "Vorsitzender"): short, every word a job word,
// no organisation. Under a board whose cards state jobs held elsewhere it is kept.
func boardOffice(t string) bool {
	ws := strings.Fields(strings.ToLower(t))
	if len(ws) == 0 || len(ws) > 3 || outsideJob(t) {
		return false
	}
	for _, w := range ws {
		w = strings.Trim(w, ",.;()")
		if !jobWord(w) && w != "&" && w != "and" && w != "und" && w != "et" && w != "y" && w != "of" && w != "the" {
			return false
		}
	}
	return true
}

// titleAcronyms are the acronyms that are titles ("CEO", "CISO", "SVP", "HR"); any
// other short run of capitals after a name's comma is a post-nominal ("MSW", "LCSW",
// "RN", "PMP").
var titleAcronyms = map[string]bool{"ceo": true, "cto": true, "cfo": true, "coo": true, "cmo": true, "cio": true, "ciso": true, "cpo": true,
	"cro": true, "cco": true, "cdo": true, "chro": true, "cso": true, "vp": true, "svp": true, "evp": true, "avp": true, "gm": true,
	"hr": true, "pr": true, "it": true, "qa": true, "ux": true, "ui": true, "pdg": true, "dg": true, "dga": true, "rrhh": true}

// postNominalLetters reports whether s, after a name's comma, is only post-nominal letters:
// short runs of capitals, dots or hyphens that name no title ("MSW", "MSW, LCSW",
// "PA-C", "R.N.").
func postNominalLetters(s string) bool {
	parts := strings.Split(s, ",")
	for _, p := range parts {
		p = strings.TrimSpace(p)
		letters := strings.NewReplacer(".", "", "-", "").Replace(p)
		if len(letters) < 2 || len(letters) > 6 || strings.ToUpper(letters) != letters || strings.ContainsAny(p, " 0123456789") {
			return false
		}
		if strings.IndexFunc(letters, func(r rune) bool { return !unicode.IsUpper(r) }) >= 0 || titleAcronyms[strings.ToLower(letters)] {
			return false
		}
	}
	return len(parts) > 0
}

// firstPartTitle is the first part of a run set apart by dashes or bars when the rest
// is contact detail ("Vertrieb – Tel. 030 1234567", "Buchhaltung | maria@acme.example"):
// the part reads as a title and every later part is noise or a phone.
func firstPartTitle(s string) (string, bool) {
	parts := nameSepSplit.Split(s, -1)
	if len(parts) < 2 {
		parts = barSep.Split(s, -1)
	}
	if len(parts) < 2 {
		return "", false
	}
	for _, p := range parts[1:] {
		if !isNoise(p) && !isNoise(strings.TrimSpace(strings.TrimLeft(p, phoneLabel))) {
			return "", false
		}
	}
	return titleLine(parts[0])
}

// leadingBracket is the inside of a run in round brackets, or of the bracket that
// opens a run with contact detail after it ("(Prokurist) – Tel. 030 7654321").
func leadingBracket(s string) (string, bool) {
	if in, ok := bracketed(s); ok {
		return in, true
	}
	s = strings.TrimSpace(s)
	if !strings.HasPrefix(s, "(") {
		return "", false
	}
	end := strings.Index(s, ")")
	if end < 0 {
		return "", false
	}
	rest := strings.TrimSpace(strings.TrimLeft(s[end+1:], "–—-|· "))
	if rest != "" && !isNoise(rest) && !isNoise(strings.TrimSpace(strings.TrimLeft(rest, phoneLabel))) {
		return "", false
	}
	return strings.TrimSpace(s[1:end]), true
}
