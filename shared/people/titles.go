package people

import (
	"strings"
	"unicode"
	"unicode/utf8"

	"golang.org/x/net/html"

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
	c := title.Classify(next)
	return c.Department != title.Other || c.Seniority != title.MidLevel
}

// siblingTitle is the title in the element after a name's item (a dd after its dt, a
// paragraph after a name heading): elements that hold only lines of no title (a
// degree, a handle) are passed over, and a title broken over lines of its element is
// joined. The element holds the title and nothing else; "" when it does not.
func (l *layout) siblingTitle(it *html.Node, isName []bool) string {
	e := nextElement(it)
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
			noise = isNoise(l.lines[j].text)
		}
		if noise {
			continue // "<h4>Name</h4><p>Ph.D.</p><p>Title</p>"
		}
		t, ok := titleLine(l.lines[sp[0]].text)
		if !ok || !looksLikeTitle(t) {
			return ""
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
