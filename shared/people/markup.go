package people

// The markup helpers the readers share: block signatures, person classes, and the
// shapes of emails and phone numbers.

import (
	"regexp"
	"sort"
	"strings"

	"golang.org/x/net/html"
)

func signature(n *html.Node) string {
	cls := strings.Fields(attr(n, "class"))
	sort.Strings(cls)
	return n.Data + "." + strings.Join(cls, ".")
}

var personClass = regexp.MustCompile(`(?i)member|person|people|team|staff|profile|leader|employee|mitarbeiter|equipe|equipo|membre|integrante|miembro|persoon|bio|crew|colleague|medewerker|ansatt|board|founder|director|executive|vcard`)

func personish(n *html.Node) bool { return personClass.MatchString(attr(n, "class")) }

var (
	emailRe = regexp.MustCompile(`[A-Za-z0-9._%+\-]+@[A-Za-z0-9.\-]+\.[A-Za-z]{2,}`)
	phoneRe = regexp.MustCompile(`^\+?[0-9][0-9 ()./\-]{6,}[0-9]$`)
	// phoneLabel is what a phone number may be introduced by ("Tel.:", "Phone ").
	phoneLabel = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZéèó.: "
)

func nextElement(n *html.Node) *html.Node {
	for c := n.NextSibling; c != nil; c = c.NextSibling {
		if c.Type == html.ElementNode {
			return c
		}
	}
	return nil
}

func prevElement(n *html.Node) *html.Node {
	for c := n.PrevSibling; c != nil; c = c.PrevSibling {
		if c.Type == html.ElementNode {
			return c
		}
	}
	return nil
}
