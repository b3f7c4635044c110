package people

import (
	"encoding/json"
	"regexp"
	"strings"

	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"
)

// jsonLD reads schema.org Person objects from every application/ld+json script,
// wherever they sit (top level, @graph, an Organization's employee, founder or member).
func jsonLD(doc *html.Node) []Person {
	var out []Person
	walk(doc, func(n *html.Node) bool {
		if n.DataAtom != atom.Script || !strings.Contains(strings.ToLower(attr(n, "type")), "ld+json") {
			return true
		}
		var v any
		if err := json.Unmarshal([]byte(textOf(n)), &v); err == nil {
			collectLD(v, &out, 0, "")
		}
		return false
	})
	return out
}

// bylineKeys hold the people who wrote, edited or published a page: a page's author
// is not thereby one of the organisation's people, so such a Person counts only with
// a job title of its own.
var bylineKeys = map[string]bool{"author": true, "creator": true, "editor": true, "contributor": true, "publisher": true,
	"reviewedBy": true, "copyrightHolder": true, "sdPublisher": true, "maintainer": true, "translator": true, "commenter": true}

// collectLD gathers the Persons of a JSON-LD value; key is the property it sits under.
func collectLD(v any, out *[]Person, depth int, key string) {
	if depth > 12 {
		return
	}
	switch t := v.(type) {
	case []any:
		for _, e := range t {
			collectLD(e, out, depth+1, key)
		}
	case map[string]any:
		if isLDPerson(t["@type"]) {
			if p := ldPerson(t); !bylineKeys[key] || p.Title != "" {
				*out = append(*out, p)
			}
		}
		for k, e := range t {
			if k != "@context" {
				collectLD(e, out, depth+1, k)
			}
		}
	}
}

func isLDPerson(t any) bool {
	switch v := t.(type) {
	case string:
		return v == "Person" || strings.HasSuffix(v, "/Person")
	case []any:
		for _, e := range v {
			if isLDPerson(e) {
				return true
			}
		}
	}
	return false
}

func ldPerson(m map[string]any) Person {
	p := Person{Via: ViaJSONLD, Name: ldString(m["name"]), Title: ldString(m["jobTitle"]), Email: ldString(m["email"])}
	if p.Name == "" {
		p.Name = strings.TrimSpace(ldString(m["givenName"]) + " " + ldString(m["familyName"]))
	}
	for k, v := range m {
		if p.Title == "" && strings.EqualFold(k, "jobTitle") {
			p.Title = ldString(v) // "jobtitle": the property's name in the wrong case
		}
	}
	if p.Title == "" {
		if role, ok := m["hasOccupation"].(map[string]any); ok {
			p.Title = ldString(role["name"])
		}
	}
	for _, u := range ldStrings(m["sameAs"], m["url"]) {
		if strings.Contains(strings.ToLower(u), "linkedin.com/in/") && p.LinkedInURL == "" {
			p.LinkedInURL = u
		}
	}
	p.rawPhones = ldStrings(m["telephone"])
	return p
}

// ldString is a JSON-LD value as one string: the first of a list, an object's name
// or @value.
func ldString(v any) string {
	switch t := v.(type) {
	case string:
		return t
	case []any:
		if len(t) > 0 {
			return ldString(t[0])
		}
	case map[string]any:
		if s := ldString(t["@value"]); s != "" {
			return s
		}
		return ldString(t["name"])
	}
	return ""
}

func ldStrings(vs ...any) []string {
	var out []string
	for _, v := range vs {
		switch t := v.(type) {
		case string:
			out = append(out, t)
		case []any:
			for _, e := range t {
				if s, ok := e.(string); ok {
					out = append(out, s)
				}
			}
		}
	}
	return out
}

// microdata reads itemscope elements typed schema.org/Person, and RDFa elements
// typeof Person (vocab schema.org, or schema:Person): the itemprops (RDFa
// properties) inside them, not those of nested items.
func microdata(doc *html.Node) []Person {
	var out []Person
	walk(doc, func(n *html.Node) bool {
		if n.Type != html.ElementNode || !isMicrodataPerson(n) && !isRDFaPerson(n) {
			return true
		}
		p := Person{Via: ViaMicrodata}
		var given, family string
		props(n, func(prop string, e *html.Node) {
			v := propValue(e)
			switch prop {
			case "name":
				p.Name = v
			case "givenName":
				given = v
			case "familyName":
				family = v
			case "jobTitle":
				p.Title = v
			case "email":
				p.Email = v
			case "telephone":
				p.rawPhones = append(p.rawPhones, strings.TrimPrefix(v, "tel:"))
			case "sameAs", "url":
				if strings.Contains(strings.ToLower(v), "linkedin.com/in/") {
					p.LinkedInURL = v
				}
			}
		})
		if p.Name == "" {
			p.Name = strings.TrimSpace(given + " " + family)
		}
		out = append(out, p)
		return true // a Person may nest another item; its own props were read above
	})
	return out
}

func isMicrodataPerson(n *html.Node) bool {
	return hasAttr(n, "itemscope") && strings.HasSuffix(strings.TrimRight(attr(n, "itemtype"), "/"), "schema.org/Person")
}

func isRDFaPerson(n *html.Node) bool {
	for _, t := range strings.Fields(attr(n, "typeof")) {
		if t == "Person" || t == "schema:Person" || strings.HasSuffix(strings.TrimRight(t, "/"), "schema.org/Person") {
			return true
		}
	}
	return false
}

// props calls fn for every itemprop (or RDFa property, its schema: prefix off) under
// item that belongs to it (not to a nested itemscope or typeof).
func props(item *html.Node, fn func(prop string, n *html.Node)) {
	for c := item.FirstChild; c != nil; c = c.NextSibling {
		if c.Type != html.ElementNode {
			continue
		}
		p := attr(c, "itemprop")
		if p == "" {
			p = attr(c, "property")
		}
		for _, name := range strings.Fields(p) {
			name = strings.TrimPrefix(strings.TrimPrefix(name, "schema:"), "https://schema.org/")
			fn(name, c)
		}
		if !hasAttr(c, "itemscope") && !hasAttr(c, "typeof") {
			props(c, fn)
		}
	}
}

// propValue is a microdata property's value: content, href or the text.
func propValue(n *html.Node) string {
	if v, ok := attrOK(n, "content"); ok {
		return v
	}
	switch n.DataAtom {
	case atom.A, atom.Link:
		h := attr(n, "href")
		if strings.HasPrefix(strings.ToLower(h), "mailto:") || strings.HasPrefix(strings.ToLower(h), "tel:") || strings.HasPrefix(h, "http") {
			return h
		}
	}
	return textOf(n)
}

// hcards reads classic vCard (class vcard: fn, title or role, email, tel, url) and
// microformats2 h-card (p-name, p-job-title or p-role, u-email, p-tel, u-url).
func hcards(doc *html.Node) []Person {
	var out []Person
	walk(doc, func(n *html.Node) bool {
		if n.Type != html.ElementNode || !(hasClass(n, "vcard") || hasClass(n, "h-card")) {
			return true
		}
		p := Person{Via: ViaHCard}
		walk(n, func(e *html.Node) bool {
			if e == n || e.Type != html.ElementNode {
				return true
			}
			if hasClass(e, "vcard") || hasClass(e, "h-card") {
				return false // a nested card (an employer's org card) is its own
			}
			switch {
			case hasClass(e, "fn") || hasClass(e, "p-name"):
				if p.Name == "" {
					p.Name = textOf(e)
				}
			case hasClass(e, "title") || hasClass(e, "role") || hasClass(e, "p-job-title") || hasClass(e, "p-role"):
				if p.Title == "" {
					p.Title = textOf(e)
				}
			case hasClass(e, "email") || hasClass(e, "u-email"):
				if h := attr(e, "href"); h != "" {
					p.Email = h
				} else {
					p.Email = textOf(e)
				}
			case hasClass(e, "tel") || hasClass(e, "p-tel"):
				p.rawPhones = append(p.rawPhones, strings.TrimPrefix(firstNonEmpty(attr(e, "href"), textOf(e)), "tel:"))
			case hasClass(e, "url") || hasClass(e, "u-url"):
				if h := attr(e, "href"); strings.Contains(strings.ToLower(h), "linkedin.com/in/") {
					p.LinkedInURL = h
				}
			}
			return true
		})
		out = append(out, p)
		return false
	})
	return out
}

// walk visits n and its descendants depth first; fn returns false to skip a node's
// children.
func walk(n *html.Node, fn func(*html.Node) bool) {
	if !fn(n) {
		return
	}
	for c := n.FirstChild; c != nil; c = c.NextSibling {
		walk(c, fn)
	}
}

func attrOK(n *html.Node, key string) (string, bool) {
	for _, a := range n.Attr {
		if a.Key == key {
			return strings.TrimSpace(a.Val), true
		}
	}
	return "", false
}

func attr(n *html.Node, key string) string { v, _ := attrOK(n, key); return v }

func hasAttr(n *html.Node, key string) bool { _, ok := attrOK(n, key); return ok }

func hasClass(n *html.Node, class string) bool {
	for _, c := range strings.Fields(attr(n, "class")) {
		if c == class {
			return true
		}
	}
	return false
}

// textOf is the text under n, words separated by single spaces; scripts and styles
// are skipped unless n is one.
func textOf(n *html.Node) string {
	var b strings.Builder
	var rec func(*html.Node)
	rec = func(c *html.Node) {
		switch {
		case c.Type == html.TextNode:
			b.WriteString(c.Data)
			b.WriteByte(' ')
		case c.Type == html.ElementNode && c != n && (c.DataAtom == atom.Script || c.DataAtom == atom.Style):
			return
		case c.Type == html.ElementNode && c.DataAtom == atom.Br:
			b.WriteByte('\n')
		}
		for k := c.FirstChild; k != nil; k = k.NextSibling {
			rec(k)
		}
	}
	rec(n)
	if n.DataAtom == atom.Script {
		return strings.TrimSpace(b.String())
	}
	return strings.Join(strings.Fields(b.String()), " ")
}

func firstNonEmpty(a, b string) string {
	if strings.TrimSpace(a) != "" {
		return a
	}
	return b
}

// Text is the visible text of a page (scripts and styles left out), words separated by
// single spaces: what a reader of the page sees, for checking that a name occurs there.
func Text(pageHTML string) string {
	if len(pageHTML) > maxHTML {
		pageHTML = pageHTML[:maxHTML]
	}
	doc, err := html.Parse(strings.NewReader(pageHTML))
	if err != nil {
		return ""
	}
	var body *html.Node
	walk(doc, func(n *html.Node) bool {
		if n.DataAtom == atom.Body {
			body = n
			return false
		}
		return body == nil
	})
	if body == nil {
		body = doc
	}
	return textOf(body)
}

// Attributes that carry a person's name and role on one element: a web component whose
// text is drawn by script (`<contact-info name="Anna Roth" role="Kassenwartin">`) or a
// card whose data-* attributes hold what an overlay shows (`<a data-name="Anna Roth"
// data-position="CFO">`).
var (
	nameAttrs = []string{"name", "data-name", "fullname", "full-name", "data-fullname", "data-full-name", "person", "data-person", "data-title"}
	roleAttrs = []string{"role", "data-role", "position", "data-position", "jobtitle", "job-title", "data-jobtitle", "data-job-title",
		"function", "data-function", "funktion", "data-funktion", "title", "data-subtitle"}
)

// ordinalLead ranks a role ("1. Vorsitzender", "2nd Vice Chair").
var ordinalLead = regexp.MustCompile(`^(?:[1-9]\.|[1-9](?:ste|de|e|ème|er|re|st|nd|rd|th|º|ª))\s+`)

// attributePeople reads the people named in an element's attributes: a name attribute
// that reads as a personal name and, on the same element, a role attribute that reads as
// a job title (an ARIA role such as "tab" does not), or a data-position of any text (the
// person then without a title). Form fields and meta tags hold no people.
func attributePeople(doc *html.Node) []Person {
	var out []Person
	walk(doc, func(n *html.Node) bool {
		if n.Type != html.ElementNode || skippedTags[n.DataAtom] && n.DataAtom != atom.Img || n.DataAtom == atom.Input || n.DataAtom == atom.Meta {
			return n.Type != html.ElementNode || !skippedTags[n.DataAtom]
		}
		for _, nk := range nameAttrs {
			v, ok := attrOK(n, nk)
			if !ok {
				continue
			}
			name, ok := nameOf(v)
			if !ok {
				continue
			}
			for _, rk := range roleAttrs {
				if rk == nk {
					continue
				}
				if r, ok := attrOK(n, rk); ok && r != "" {
					if t, ok := titleLine(r); ok && (looksLikeTitle(t) || looksLikeTitle(ordinalLead.ReplaceAllString(t, ""))) {
						out = append(out, Person{Via: ViaBlock, Name: name, Title: t})
						return true
					}
					if rk != "role" && rk != "title" && rk != "function" {
						// a data-position the title reader does not take ("CEO / Co-Founder,
						// Fishline Inc."): the pair still says person
						out = append(out, Person{Via: ViaBlock, Name: name})
						return true
					}
				}
			}
		}
		return true
	})
	return out
}
