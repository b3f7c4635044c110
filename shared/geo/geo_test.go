package geo

import (
	"slices"
	"sort"
	"testing"
)

func TestLookupCountry(t *testing.T) {
	tests := []struct {
		in     string
		want   string // alpha-3, "" when not found
		wantOK bool
	}{
		{"DE", "DEU", true},
		{"de", "DEU", true},
		{" us ", "USA", true},
		{"GB", "GBR", true},
		{"UK", "", false}, // not an ISO code
		{"DEU", "", false},
		{"XX", "", false},
		{"", "", false},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			got, ok := LookupCountry(tt.in)
			if ok != tt.wantOK || got.Alpha3 != tt.want {
				t.Errorf("LookupCountry(%q) = %q, %v; want %q, %v", tt.in, got.Alpha3, ok, tt.want, tt.wantOK)
			}
		})
	}
}

func TestLookupCountryAlpha3(t *testing.T) {
	tests := []struct {
		in, want string
		wantOK   bool
	}{
		{"DEU", "DE", true},
		{"usa", "US", true},
		{"DE", "", false},
		{"XXX", "", false},
	}
	for _, tt := range tests {
		got, ok := LookupCountryAlpha3(tt.in)
		if ok != tt.wantOK || got.Alpha2 != tt.want {
			t.Errorf("LookupCountryAlpha3(%q) = %q, %v; want %q, %v", tt.in, got.Alpha2, ok, tt.want, tt.wantOK)
		}
	}
}

func TestCountryFields(t *testing.T) {
	got, _ := LookupCountry("KR")
	want := Country{Alpha2: "KR", Alpha3: "KOR", Numeric: "410", Name: "Korea, Republic of", CommonName: "South Korea"}
	if got != want {
		t.Errorf("LookupCountry(KR) = %+v, want %+v", got, want)
	}
	if got, want := got.DisplayName(), "South Korea"; got != want {
		t.Errorf("DisplayName() = %q, want %q", got, want)
	}
	de, _ := LookupCountry("DE")
	if got, want := de.DisplayName(), "Germany"; got != want {
		t.Errorf("DisplayName() = %q, want %q", got, want)
	}
}

func TestCountries(t *testing.T) {
	all := Countries()
	if len(all) < 249 {
		t.Errorf("len(Countries()) = %d, want at least 249", len(all))
	}
	if !sort.SliceIsSorted(all, func(i, j int) bool { return all[i].Alpha2 < all[j].Alpha2 }) {
		t.Error("Countries() is not sorted by alpha-2")
	}
	all[0].Name = "changed"
	if again := Countries(); again[0].Name == "changed" {
		t.Error("Countries() returns the package's own slice")
	}
}

func TestLookupSubdivision(t *testing.T) {
	tests := []struct {
		in   string
		want Subdivision
	}{
		{"US-CA", Subdivision{Code: "US-CA", Country: "US", Name: "California", Type: "State"}},
		{"us-ca", Subdivision{Code: "US-CA", Country: "US", Name: "California", Type: "State"}},
		{"DE-BW", Subdivision{Code: "DE-BW", Country: "DE", Name: "Baden-Württemberg", Type: "Land"}},
		// iso-codes writes this parent as a bare suffix ("NX")...
		{"AZ-NV", Subdivision{Code: "AZ-NV", Country: "AZ", Name: "Naxçıvan", Type: "Municipality", Parent: "AZ-NX"}},
		// ...and this one as a full code.
		{"GB-ABC", Subdivision{Code: "GB-ABC", Country: "GB", Name: "Armagh City, Banbridge and Craigavon", Type: "District", Parent: "GB-NIR"}},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			got, ok := LookupSubdivision(tt.in)
			if !ok || got != tt.want {
				t.Errorf("LookupSubdivision(%q) = %+v, %v; want %+v", tt.in, got, ok, tt.want)
			}
		})
	}
	if _, ok := LookupSubdivision("US-XX"); ok {
		t.Error("LookupSubdivision(US-XX) found something")
	}
}

func TestEveryParentExists(t *testing.T) {
	for _, s := range subdivisions {
		if s.Parent == "" {
			continue
		}
		p, ok := LookupSubdivision(s.Parent)
		if !ok || p.Country != s.Country {
			t.Errorf("%s: parent %q is not a subdivision of %s", s.Code, s.Parent, s.Country)
		}
	}
}

func TestSubdivisions(t *testing.T) {
	us := Subdivisions("us")
	if len(us) < 50 {
		t.Fatalf("len(Subdivisions(us)) = %d, want at least 50", len(us))
	}
	for _, s := range us {
		if s.Country != "US" {
			t.Errorf("Subdivisions(us) holds %s", s.Code)
		}
	}
	if got := Subdivisions("AQ"); got != nil {
		t.Errorf("Subdivisions(AQ) = %v, want nil", got)
	}
	if got := Subdivisions("ZZ"); got != nil {
		t.Errorf("Subdivisions(ZZ) = %v, want nil", got)
	}
	if got, want := us[0].Suffix(), "AK"; got != want {
		t.Errorf("Suffix() = %q, want %q", got, want)
	}
}

func TestSubdivisionDisplayName(t *testing.T) {
	tests := []struct{ code, want string }{
		{"US-CA", "California"},
		{"ES-CT", "Catalunya"},
		{"ES-MD", "Comunidad de Madrid"},
		{"GB-BST", "City of Bristol"},
		{"GB-DUR", "County Durham"},
		{"GB-CRF", "Cardiff"},
		{"GB-VGL", "The Vale of Glamorgan"},
		{"US-VI", "U.S. Virgin Islands"},
		{"BE-WAL", "Région wallonne"},
		{"GB-NMD", "Newry, Mourne and Down"}, // a list, not an inversion
		{"BG-22", "Sofia (stolitsa)"},
	}
	for _, tt := range tests {
		t.Run(tt.code, func(t *testing.T) {
			s, ok := LookupSubdivision(tt.code)
			if !ok {
				t.Fatalf("no subdivision %s", tt.code)
			}
			if got := s.DisplayName(); got != tt.want {
				t.Errorf("DisplayName() = %q, want %q", got, tt.want)
			}
		})
	}
}

func TestLanguages(t *testing.T) {
	tests := []struct {
		in, want639_2, want639_1 string
		ok                       bool
	}{
		{"en", "eng", "en", true},
		{"EN", "eng", "en", true},
		{"de", "deu", "de", true},
		{"fr", "fra", "fr", true},
		{"zh", "zho", "zh", true},
		{"eng", "eng", "en", true},
		{"deu", "deu", "de", true},
		{"ger", "deu", "de", true}, // bibliographic form accepted
		{"fre", "fra", "fr", true},
		{"nl", "nld", "nl", true},
		{"xx", "", "", false},
		{"", "", "", false},
		{"qaa-qtz", "", "", false},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			got, ok := Language639_2(tt.in)
			if ok != tt.ok || got != tt.want639_2 {
				t.Errorf("Language639_2(%q) = %q, %v; want %q, %v", tt.in, got, ok, tt.want639_2, tt.ok)
			}
			got, ok = Language639_1(tt.in)
			if ok != tt.ok || got != tt.want639_1 {
				t.Errorf("Language639_1(%q) = %q, %v; want %q, %v", tt.in, got, ok, tt.want639_1, tt.ok)
			}
		})
	}
	// A language with no two-letter code.
	if got, ok := Language639_2("haw"); !ok || got != "haw" {
		t.Errorf(`Language639_2("haw") = %q, %v; want "haw", true`, got, ok)
	}
	if got, ok := Language639_1("haw"); ok {
		t.Errorf(`Language639_1("haw") = %q, true; want false`, got)
	}
	l, ok := LookupLanguage("ger")
	want := Language{Alpha2: "de", Alpha3: "deu", Bibliographic: "ger", Name: "German"}
	if !ok || l != want {
		t.Errorf("LookupLanguage(ger) = %+v, %v; want %+v", l, ok, want)
	}
}

// Every ISO 639-1 code must map to a T code and back.
func TestLanguageRoundTrip(t *testing.T) {
	n := 0
	for _, l := range languages {
		if l.Alpha2 == "" {
			continue
		}
		n++
		t3, ok := Language639_2(l.Alpha2)
		if !ok || t3 != l.Alpha3 {
			t.Errorf("Language639_2(%q) = %q, %v; want %q", l.Alpha2, t3, ok, l.Alpha3)
		}
		if back, ok := Language639_1(t3); !ok || back != l.Alpha2 {
			t.Errorf("Language639_1(%q) = %q, %v; want %q", t3, back, ok, l.Alpha2)
		}
	}
	if n < 180 {
		t.Errorf("%d languages have a 639-1 code, want at least 180", n)
	}
}

func TestRegionsSorted(t *testing.T) {
	codes := make([]string, 0)
	for _, r := range Regions() {
		codes = append(codes, r.Code)
		if !slices.IsSorted(r.Countries) || len(r.Countries) == 0 {
			t.Errorf("%s members %v are empty or unsorted", r.Code, r.Countries)
		}
	}
	want := []string{"ANZ", "APAC", "ASEAN", "BENELUX", "CEE", "DACH", "EMEA", "EU", "GCC", "LATAM", "MENA", "NORDICS"}
	if !slices.Equal(codes, want) {
		t.Errorf("region codes = %v, want the API reference's %v", codes, want)
	}
}
