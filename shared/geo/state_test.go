package geo

import (
	"slices"
	"strings"
	"testing"
)

func TestResolveState(t *testing.T) {
	tests := []struct {
		name, country, value string
		want                 string // "" when it must not resolve
	}{
		{"full code", "US", "US-CA", "US-CA"},
		{"full code lower case", "us", "us-ca", "US-CA"},
		{"bare suffix", "US", "CA", "US-CA"},
		{"bare suffix lower case", "US", "ca", "US-CA"},
		{"numeric suffix", "AT", "9", "AT-9"},
		{"name", "US", "California", "US-CA"},
		{"name lower case", "US", "california", "US-CA"},
		{"name upper case with spaces", "US", "  NEW YORK ", "US-NY"},
		{"Georgia under US", "US", "Georgia", "US-GA"},
		{"accent-insensitive", "DE", "Baden-Wurttemberg", "DE-BW"},
		{"accented input", "DE", "baden-württemberg", "DE-BW"},
		{"punctuation-insensitive", "DE", "Baden Württemberg", "DE-BW"},
		{"umlaut transliterated", "DE", "Baden-Wuerttemberg", "DE-BW"},
		{"umlaut transliterated Thüringen", "DE", "Thueringen", "DE-TH"},
		{"local name", "DE", "Bayern", "DE-BY"},
		{"English name", "DE", "Bavaria", "DE-BY"},
		{"English name two words", "DE", "north rhine-westphalia", "DE-NW"},
		{"ß", "DE", "Nordrhein-Westfalen", "DE-NW"},
		{"accent folded Zürich", "CH", "Zurich", "CH-ZH"},
		{"English Geneva", "CH", "Geneva", "CH-GE"},
		{"bracket first name", "ES", "Catalunya", "ES-CT"},
		{"bracket second name", "ES", "Cataluña", "ES-CT"},
		{"bracket second name unaccented", "ES", "cataluna", "ES-CT"},
		{"ISO name with bracket", "ES", "Catalunya [Cataluña]", "ES-CT"},
		{"English Catalonia", "ES", "Catalonia", "ES-CT"},
		{"uninverted", "ES", "Comunidad de Madrid", "ES-MD"},
		{"ISO inverted", "ES", "Madrid, Comunidad de", "ES-MD"},
		{"bare name prefers top level", "ES", "Madrid", "ES-MD"},
		{"province under its own suffix", "ES", "M", "ES-M"},
		{"apostrophe-insensitive", "IT", "Val dAoste", "IT-23"},
		{"apostrophe", "IT", "Val d'Aoste", "IT-23"},
		{"Welsh alternative name", "GB", "Caerdydd", "GB-CRF"},
		{"parenthesis dropped", "BG", "Sofia (stolitsa)", "BG-22"},
		{"ISO name beats derived at equal depth", "BG", "Sofia", "BG-23"},
		{"County Durham", "GB", "County Durham", "GB-DUR"},
		{"list is not inverted", "GB", "Newry, Mourne and Down", "GB-NMD"},
		{"slash alternative", "GW", "Bolama", "GW-BL"},
		{"top level beats district", "BD", "Dhaka", "BD-C"},
		{"top level beats municipality", "AZ", "Naxcivan", "AZ-NX"},
		{"dotless i and schwa folded", "AZ", "Lənkəran", "AZ-LA"},
		{"Chinese province without Sheng", "CN", "Guangdong", "CN-GD"},
		{"Chinese municipality without Shi", "CN", "Beijing", "CN-BJ"},
		{"Polish ł and ś", "PL", "lodzkie", "PL-10"},
		{"Polish ś", "PL", "Slaskie", "PL-24"},
		{"Canadian province", "CA", "Quebec", "CA-QC"},
		{"Canadian province accented", "CA", "Québec", "CA-QC"},
		{"code of another country", "DE", "US-CA", ""},
		{"name of another country", "DE", "California", ""},
		{"unknown name", "US", "Atlantis", ""},
		{"empty value", "US", "", ""},
		{"blank value", "US", "   ", ""},
		{"unknown country", "XX", "CA", ""},
		{"region is not a country here", "EU", "Bayern", ""},
		{"country itself is no state", "GE", "Georgia", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, ok := ResolveState(tt.country, tt.value)
			if got != tt.want || ok != (tt.want != "") {
				t.Errorf("ResolveState(%q, %q) = %q, %v; want %q", tt.country, tt.value, got, ok, tt.want)
			}
		})
	}
}

func TestStateName(t *testing.T) {
	tests := []struct {
		country, value, want string
	}{
		{"US", "CA", "California"},
		{"US", "US-NY", "New York"},
		{"us", "georgia", "Georgia"},
		{"DE", "BY", "Bayern"},
		{"DE", "Bavaria", "Bayern"},
		{"ES", "MD", "Comunidad de Madrid"},
		{"ES", "CT", "Catalunya"},
	}
	for _, tt := range tests {
		t.Run(tt.country+"/"+tt.value, func(t *testing.T) {
			got, ok := StateName(tt.country, tt.value)
			if !ok || got != tt.want {
				t.Errorf("StateName(%q, %q) = %q, %v; want %q", tt.country, tt.value, got, ok, tt.want)
			}
		})
	}
	if got, ok := StateName("US", "ZZ"); ok {
		t.Errorf(`StateName("US", "ZZ") = %q, true; want false`, got)
	}
}

func TestResolveStates(t *testing.T) {
	tests := []struct {
		name      string
		countries []string
		values    []string
		want      []string
	}{
		{"Georgia under US", []string{"US"}, []string{"Georgia"}, []string{"US-GA"}},
		{"Georgia under US and the country Georgia", []string{"US", "GE"}, []string{"Georgia"}, []string{"US-GA"}},
		{"name under two selected countries is kept for both", []string{"BE", "NL"}, []string{"Limburg"}, []string{"BE-VLI", "NL-LI"}},
		{"same through a region alias", []string{"BENELUX"}, []string{"limburg"}, []string{"BE-VLI", "NL-LI"}},
		{"bare suffix under two countries", []string{"US", "AU"}, []string{"WA"}, []string{"US-WA", "AU-WA"}},
		{"full code under its country only", []string{"US", "AU"}, []string{"AU-WA"}, []string{"AU-WA"}},
		{"unresolvable values dropped", []string{"US"}, []string{"Atlantis", "CA", "Bavaria"}, []string{"US-CA"}},
		{"nothing resolves", []string{"US"}, []string{"Atlantis"}, nil},
		{"full code of an unselected country dropped", []string{"DE"}, []string{"US-CA", "Bayern"}, []string{"DE-BY"}},
		{"duplicates collapse", []string{"US"}, []string{"CA", "California", "us-ca"}, []string{"US-CA"}},
		{"order of values then countries", []string{"DACH"}, []string{"Wien", "Bern", "Berlin"}, []string{"AT-9", "CH-BE", "DE-BE"}},
		{"no country: full codes only", nil, []string{"US-CA", "California", "CA", "de-by"}, []string{"US-CA", "DE-BY"}},
		{"unknown countries skipped", []string{"XX", "US"}, []string{"CA"}, []string{"US-CA"}},
		{"only unknown countries: full codes only", []string{"XX"}, []string{"US-TX", "Texas"}, []string{"US-TX"}},
		{"no values", []string{"US"}, nil, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := ResolveStates(tt.countries, tt.values)
			if !slices.Equal(got, tt.want) {
				t.Errorf("ResolveStates(%q, %q) = %q, want %q", tt.countries, tt.values, got, tt.want)
			}
		})
	}
}

func TestFold(t *testing.T) {
	tests := []struct{ in, want string }{
		{"Baden-Württemberg", "baden wurttemberg"},
		{"  BADEN   WÜRTTEMBERG ", "baden wurttemberg"},
		{"K'akheti", "kakheti"},
		{"Provence-Alpes-Côte-d’Azur", "provence alpes cote dazur"},
		{"Nafarroako Foru Komunitatea*", "nafarroako foru komunitatea"},
		{"Łódzkie", "lodzkie"},
		{"Straße", "strasse"},
		{"Naxçıvan", "naxcivan"},
		{"Kǝngǝrli", "kengerli"},
		{"//Karas", "karas"},
		{"Région de Bruxelles-Capitale", "region de bruxelles capitale"},
		{"", ""},
	}
	for _, tt := range tests {
		if got := fold(tt.in); got != tt.want {
			t.Errorf("fold(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

func TestNameVariants(t *testing.T) {
	tests := []struct {
		code string
		want []string // must all be present
	}{
		{"ES-CT", []string{"Catalunya", "Cataluña"}},
		{"GB-CRF", []string{"Cardiff", "Caerdydd"}},
		{"ES-MD", []string{"Comunidad de Madrid", "Madrid"}},
		{"US-VI", []string{"U.S. Virgin Islands", "Virgin Islands"}},
		{"RU-TA", []string{"Respublika Tatarstan", "Tatarstan"}},
		{"CF-HS", []string{"Haute-Sangha", "Mambéré-Kadéï"}},
		{"PH-01", []string{"Ilocos"}},
		{"CN-SH", []string{"Shanghai"}},
		{"CN-HK", []string{"Hong Kong"}},
	}
	for _, tt := range tests {
		t.Run(tt.code, func(t *testing.T) {
			s, ok := LookupSubdivision(tt.code)
			if !ok {
				t.Fatalf("no subdivision %s", tt.code)
			}
			got := nameVariants(s)
			for _, w := range tt.want {
				if !slices.Contains(got, w) {
					t.Errorf("nameVariants(%q) = %q, missing %q", s.Name, got, w)
				}
			}
		})
	}
	// Lists joined by a comma are not inversions: "Banbridge and Craigavon Armagh City"
	// must not appear.
	s, _ := LookupSubdivision("GB-ABC")
	for _, v := range nameVariants(s) {
		if strings.HasPrefix(v, "Banbridge") {
			t.Errorf("nameVariants(%q) holds the inversion %q", s.Name, v)
		}
	}
}

// Each English name must exist, resolve to its own subdivision, and not take over a name
// another subdivision of the country carries officially.
func TestEnglishNames(t *testing.T) {
	for _, e := range englishNames {
		s, ok := LookupSubdivision(e.code)
		if !ok {
			t.Errorf("englishNames lists unknown code %s", e.code)
			continue
		}
		for _, n := range strings.Split(e.names, "|") {
			if got, ok := ResolveState(s.Country, n); !ok || got != e.code {
				t.Errorf("ResolveState(%s, %q) = %q, %v; want %s", s.Country, n, got, ok, e.code)
			}
			for _, other := range Subdivisions(s.Country) {
				if other.Code != e.code && fold(other.Name) == fold(n) {
					t.Errorf("English name %q of %s is the ISO name of %s", n, e.code, other.Code)
				}
			}
		}
	}
}

// Every subdivision must be reachable by its own code, suffix and ISO name (the name
// possibly resolving to a higher-level namesake).
func TestEverySubdivisionResolves(t *testing.T) {
	for _, s := range subdivisions {
		for _, v := range []string{s.Code, s.Suffix()} {
			if got, ok := ResolveState(s.Country, v); !ok || got != s.Code {
				t.Errorf("ResolveState(%s, %q) = %q, %v; want %s", s.Country, v, got, ok, s.Code)
			}
		}
		got, ok := ResolveState(s.Country, s.Name)
		if !ok {
			t.Errorf("ResolveState(%s, %q) does not resolve", s.Country, s.Name)
			continue
		}
		if got != s.Code {
			winner, _ := LookupSubdivision(got)
			if depthOf(winner, tables().subdivision) > depthOf(s, tables().subdivision) {
				t.Errorf("name %q of %s resolves to the deeper %s", s.Name, s.Code, got)
			}
		}
	}
}
