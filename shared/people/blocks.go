package people

import (
	"regexp"
	"sort"
	"strings"

	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"
)

// blocks reads the repeated name-and-title blocks of team pages: sibling elements of
// one shape (same tag and classes: cards, list items, table rows, dt/dd pairs) each
// showing a name followed by a title (or a title followed by a name). A lone block
// counts when its classes say it is a person ("member", "person", "team"...), or when
// it holds nothing but a name followed by a title.
func blocks(doc *html.Node) []Person {
	var out []Person
	walk(doc, func(n *html.Node) bool {
		if n.Type != html.ElementNode || n.DataAtom == atom.Script || n.DataAtom == atom.Style || n.DataAtom == atom.Head {
			return n.DataAtom != atom.Script && n.DataAtom != atom.Style && n.DataAtom != atom.Head
		}
		groups := map[string][]*html.Node{}
		var order []string
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			if c.Type != html.ElementNode || c.DataAtom == atom.Dd {
				continue
			}
			sig := signature(c)
			if _, ok := groups[sig]; !ok {
				order = append(order, sig)
			}
			groups[sig] = append(groups[sig], c)
		}
		for _, sig := range order {
			g := groups[sig]
			lone := len(g) < 2 && !personish(g[0]) && !personish(n)
			for _, m := range g {
				if p, ok := readBlock(m, lone); ok {
					out = append(out, p)
				}
			}
		}
		return true
	})
	return out
}

func signature(n *html.Node) string {
	cls := strings.Fields(attr(n, "class"))
	sort.Strings(cls)
	return n.Data + "." + strings.Join(cls, ".")
}

var personClass = regexp.MustCompile(`(?i)member|person|people|team|staff|profile|leader|employee|mitarbeiter|equipe|equipo|bio`)

func personish(n *html.Node) bool { return personClass.MatchString(attr(n, "class")) }

var (
	emailRe = regexp.MustCompile(`[A-Za-z0-9._%+\-]+@[A-Za-z0-9.\-]+\.[A-Za-z]{2,}`)
	phoneRe = regexp.MustCompile(`^\+?[0-9][0-9 ()./\-]{6,}[0-9]$`)
	// separators between a name and a title written on one line.
	// phoneLabel is what a phone number may be introduced by ("Tel.:", "Phone ").
	phoneLabel = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZéèó.: "
	lineSep    = regexp.MustCompile(`\s+[–—|·-]\s+|,\s+`)
)

// readBlock reads one block: the first text that is a name, and the title next to it.
// A lone block (no siblings of its shape, no person class) must be just that: the
// name, then the title, and little else.
func readBlock(m *html.Node, lone bool) (Person, bool) {
	if containerTags[m.DataAtom] {
		return Person{}, false
	}
	segs, p := segments(m)
	if m.DataAtom == atom.Dt {
		if dd := nextElement(m); dd != nil && dd.DataAtom == atom.Dd {
			more, q := segments(dd)
			segs = append(segs, more...)
			p = merge(p, q)
		}
	}
	if lone && (len(segs) > 3 || len(segs) < 2 || !IsName(segs[0]) || !looksLikeTitle(clean(segs[1]))) {
		return Person{}, false
	}
	if len(segs) > 4 || countNames(segs) > 1 {
		return Person{}, false // a container (of blocks, or a list): members are read one by one
	}
	// The name leads the block, or follows the title: "Name, Title" or "Title, Name".
	for i, s := range segs[:min(len(segs), 2)] {
		if IsName(s) {
			p.Name = s
			switch {
			case i+1 < len(segs) && looksLikeTitle(clean(segs[i+1])):
				p.Title = segs[i+1]
			case i > 0 && looksLikeTitle(clean(segs[i-1])):
				p.Title = segs[i-1]
			default:
				continue
			}
			return p, true
		}
		// "Anna Müller, Head of Sales" or "Anna Müller – CEO" on one line.
		if loc := lineSep.FindStringIndex(s); loc != nil {
			name, rest := s[:loc[0]], s[loc[1]:]
			if IsName(clean(name)) && looksLikeTitle(clean(rest)) {
				p.Name, p.Title = name, rest
				return p, true
			}
		}
	}
	return Person{}, false
}

// segments splits a block into its text runs, taking emails, phones and LinkedIn
// links aside as the person's contact fields.
func segments(m *html.Node) ([]string, Person) {
	p := Person{Via: ViaBlock}
	var segs []string
	var cur strings.Builder
	flush := func() {
		if s := strings.Join(strings.Fields(cur.String()), " "); s != "" {
			segs = append(segs, s)
		}
		cur.Reset()
	}
	var rec func(n *html.Node)
	rec = func(n *html.Node) {
		switch n.Type {
		case html.TextNode:
			cur.WriteString(n.Data)
			cur.WriteByte(' ')
			return
		case html.ElementNode:
		default:
			return
		}
		switch n.DataAtom {
		case atom.Script, atom.Style, atom.Img, atom.Svg:
			return
		case atom.A:
			href := attr(n, "href")
			lh := strings.ToLower(href)
			switch {
			case strings.HasPrefix(lh, "mailto:"):
				if p.Email == "" {
					p.Email = href
				}
				flush()
				return
			case strings.HasPrefix(lh, "tel:"):
				p.rawPhones = append(p.rawPhones, strings.TrimPrefix(href, href[:4]))
				flush()
				return
			case strings.Contains(lh, "linkedin.com/in/"):
				if p.LinkedInURL == "" {
					p.LinkedInURL = href
				}
				flush()
				return
			}
		case atom.Br:
			flush()
			return
		}
		inline := n.DataAtom == atom.Span || n.DataAtom == atom.Strong || n.DataAtom == atom.B || n.DataAtom == atom.Em || n.DataAtom == atom.I || n.DataAtom == atom.A
		if !inline {
			flush()
		}
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			rec(c)
		}
		if !inline || n.DataAtom == atom.Strong || n.DataAtom == atom.B {
			flush()
		}
	}
	rec(m)
	flush()
	kept := segs[:0]
	for _, s := range segs {
		switch {
		case emailRe.MatchString(s) && len(strings.Fields(s)) <= 3:
			if p.Email == "" {
				p.Email = emailRe.FindString(s)
			}
		case phoneRe.MatchString(strings.TrimLeft(s, phoneLabel)):
			p.rawPhones = append(p.rawPhones, s)
		default:
			kept = append(kept, s)
		}
	}
	return kept, p
}

func nextElement(n *html.Node) *html.Node {
	for c := n.NextSibling; c != nil; c = c.NextSibling {
		if c.Type == html.ElementNode {
			return c
		}
	}
	return nil
}

func countNames(segs []string) int {
	n := 0
	for _, s := range segs {
		if IsName(s) {
			n++
		} else if loc := lineSep.FindStringIndex(s); loc != nil && IsName(clean(s[:loc[0]])) {
			n++
		}
	}
	return n
}

// containerTags hold blocks; they are never one person's block themselves.
var containerTags = map[atom.Atom]bool{atom.Ul: true, atom.Ol: true, atom.Table: true, atom.Tbody: true, atom.Thead: true,
	atom.Dl: true, atom.Nav: true, atom.Main: true, atom.Body: true, atom.Header: true, atom.Footer: true, atom.Form: true,
	atom.Select: true, atom.Html: true}
