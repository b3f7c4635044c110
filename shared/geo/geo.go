// Package geo holds Firmo's geographic and language reference data: ISO 3166-1 countries,
// ISO 3166-2 subdivisions, ISO 639 languages and the region aliases of the country
// filters (EU, DACH, EMEA, ...), with the lookups the API needs to validate and resolve
// user input.
//
// Languages are written as ISO 639-2 codes in their terminology (T) form ("deu", "fra",
// "zho"), the form ISO 639-3 and most software use; the bibliographic (B) forms ("ger",
// "fre", "chi"), which differ for 20 languages, are accepted on input.
//
// The ISO tables in tables_gen.go are generated from Debian's iso-codes JSON by
// `go generate ./shared/geo` (see internal/gen) and committed, so nothing is read at run
// time. Lookup indexes are built on first use.
package geo

//go:generate go run ./internal/gen -dir /usr/share/iso-codes/json -out tables_gen.go

import (
	"strings"
	"sync"
)

// Country is an ISO 3166-1 entry.
type Country struct {
	Alpha2       string // "DE"
	Alpha3       string // "DEU"
	Numeric      string // "276"
	Name         string // ISO short name: "Korea, Republic of"
	CommonName   string // when iso-codes gives one: "South Korea"
	OfficialName string // when iso-codes gives one: "Federal Republic of Germany"
}

// DisplayName is the name to show people: the common name when there is one.
func (c Country) DisplayName() string {
	if c.CommonName != "" {
		return c.CommonName
	}
	return c.Name
}

// Subdivision is an ISO 3166-2 entry.
type Subdivision struct {
	Code    string // "US-CA"
	Country string // "US"
	Name    string // ISO name, often in the local language: "Bayern", "Madrid, Comunidad de"
	Type    string // "State", "Land", "Province", ...
	Parent  string // full code of the enclosing subdivision, "" for a top-level one
}

// Suffix is the part of the code after the country: "CA" for "US-CA".
func (s Subdivision) Suffix() string { return s.Code[len(s.Country)+1:] }

// DisplayName is the ISO name made readable for an address: a bracketed alternative is
// dropped and an inverted designation is put back in order, so "Catalunya [Cataluña]"
// reads "Catalunya" and "Madrid, Comunidad de" reads "Comunidad de Madrid".
func (s Subdivision) DisplayName() string {
	name := stripBrackets(s.Name)
	if inverted, ok := uninvert(name); ok {
		return inverted
	}
	return name
}

// Countries returns every ISO 3166-1 country, sorted by alpha-2 code.
func Countries() []Country { return append([]Country(nil), countries...) }

// LookupCountry returns the country with the given alpha-2 code, any case. (The type
// holds the name Country, hence Lookup.)
func LookupCountry(alpha2 string) (Country, bool) {
	return lookupCountry(alpha2, 2)
}

// LookupCountryAlpha3 returns the country with the given alpha-3 code, any case.
func LookupCountryAlpha3(alpha3 string) (Country, bool) {
	return lookupCountry(alpha3, 3)
}

func lookupCountry(code string, size int) (Country, bool) {
	code = strings.ToUpper(strings.TrimSpace(code))
	i, ok := tables().country[code]
	if !ok || len(code) != size {
		return Country{}, false
	}
	return countries[i], true
}

// LookupSubdivision returns the subdivision with the given ISO 3166-2 code ("US-CA"),
// any case.
func LookupSubdivision(code string) (Subdivision, bool) {
	i, ok := tables().subdivision[strings.ToUpper(strings.TrimSpace(code))]
	if !ok {
		return Subdivision{}, false
	}
	return subdivisions[i], true
}

// Subdivisions returns the subdivisions of a country (alpha-2, any case) sorted by code;
// nil when the country has none or is unknown.
func Subdivisions(country string) []Subdivision {
	r := tables().byCountry[strings.ToUpper(strings.TrimSpace(country))]
	if r.end == 0 {
		return nil
	}
	return append([]Subdivision(nil), subdivisions[r.start:r.end]...)
}

// index holds the lookup maps over the generated tables.
type index struct {
	country     map[string]int // alpha-2 and alpha-3 -> position in countries
	subdivision map[string]int // code -> position in subdivisions
	byCountry   map[string]span
	names       map[nameKey]int // (country, folded name) -> position in subdivisions
	language    map[string]int  // 639-1, 639-2/T and 639-2/B -> position in languages
	regions     map[string][]string
}

type span struct{ start, end int }

// tables builds the indexes once, on first use, so importing geo costs nothing.
var tables = sync.OnceValue(func() *index {
	ix := &index{
		country:     make(map[string]int, 2*len(countries)),
		subdivision: make(map[string]int, len(subdivisions)),
		byCountry:   make(map[string]span),
		language:    make(map[string]int, 2*len(languages)),
	}
	for i, c := range countries {
		ix.country[c.Alpha2] = i
		ix.country[c.Alpha3] = i
	}
	for i, s := range subdivisions {
		ix.subdivision[s.Code] = i
		r := ix.byCountry[s.Country]
		if r.end == 0 {
			r.start = i
		}
		r.end = i + 1
		ix.byCountry[s.Country] = r
	}
	ix.names = buildNames(ix.subdivision)
	for i, l := range languages {
		for _, code := range []string{l.Alpha2, l.Alpha3, l.Bibliographic} {
			if code != "" {
				ix.language[code] = i
			}
		}
	}
	ix.regions = buildRegions()
	return ix
})
