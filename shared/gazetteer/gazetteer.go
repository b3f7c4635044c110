// Package gazetteer resolves a postal address to coordinates without a network: an
// embedded table of the business cities of the demo world's countries (see places.go),
// looked up by country and city name, case-, accent- and punctuation-insensitively and
// under the city's other spellings ("Munich", "München", "Muenchen").
//
// A match gives the city centre, so its precision is "city". The table knows no streets
// or postal-code areas, so Firmo never claims a finer precision than that; an address
// whose city is not in the table gets no coordinates.
package gazetteer

import (
	"strings"
	"sync"
	"unicode"

	"golang.org/x/text/runes"
	"golang.org/x/text/transform"
	"golang.org/x/text/unicode/norm"
)

// Place is a city of the table.
type Place struct {
	Country string   // ISO 3166-1 alpha-2
	Name    string   // the local name, as addresses in the country write it
	Alt     []string // other spellings
	State   string   // ISO 3166-2 code of the first-level subdivision
	Lat     float64
	Lon     float64
	Zip     string // a postal code of the centre
}

// PrecisionCity is the geo_precision of a city-centre match.
const PrecisionCity = "city"

type key struct{ country, name string }

var index = sync.OnceValue(func() map[key]int {
	m := make(map[key]int, 3*len(places))
	for i, p := range places {
		for _, n := range append([]string{p.Name}, p.Alt...) {
			k := key{p.Country, Fold(n)}
			if _, dup := m[k]; !dup {
				m[k] = i
			}
		}
	}
	return m
})

// Lookup finds the city named city in country (alpha-2, any case).
func Lookup(country, city string) (Place, bool) {
	i, ok := index()[key{strings.ToUpper(strings.TrimSpace(country)), Fold(city)}]
	if !ok {
		return Place{}, false
	}
	return places[i], true
}

// Cities returns the places of one country in table order.
func Cities(country string) []Place {
	cc := strings.ToUpper(country)
	var out []Place
	for _, p := range places {
		if p.Country == cc {
			out = append(out, p)
		}
	}
	return out
}

// Countries lists the countries the table covers, in table order.
func Countries() []string {
	var out []string
	seen := map[string]bool{}
	for _, p := range places {
		if !seen[p.Country] {
			seen[p.Country] = true
			out = append(out, p.Country)
		}
	}
	return out
}

// Fold reduces a name to its comparison form: lower case, accents removed, "ß" as
// "ss", punctuation and repeated spaces collapsed to one space.
func Fold(s string) string {
	t := transform.Chain(norm.NFD, runes.Remove(runes.In(unicode.Mn)), norm.NFC)
	out, _, err := transform.String(t, strings.ToLower(s))
	if err != nil {
		out = strings.ToLower(s)
	}
	out = strings.ReplaceAll(out, "ß", "ss")
	var b strings.Builder
	space := false
	for _, r := range out {
		if unicode.IsLetter(r) || unicode.IsDigit(r) {
			if space && b.Len() > 0 {
				b.WriteByte(' ')
			}
			space = false
			b.WriteRune(r)
			continue
		}
		if r != '\'' {
			space = true
		}
	}
	return b.String()
}
