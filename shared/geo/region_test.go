package geo

import (
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/firmoapi/firmo/shared/apperr"
)

func TestExpandCountries(t *testing.T) {
	tests := []struct {
		name string
		in   []string
		want []string
	}{
		{"nil", nil, nil},
		{"codes keep their order", []string{"US", "de", " fr "}, []string{"US", "DE", "FR"}},
		{"duplicates dropped", []string{"US", "us", "US"}, []string{"US"}},
		{"region", []string{"DACH"}, []string{"AT", "CH", "DE"}},
		{"region any case", []string{"benelux"}, []string{"BE", "LU", "NL"}},
		{"region then overlapping code", []string{"DACH", "DE", "US"}, []string{"AT", "CH", "DE", "US"}},
		{"code then overlapping region", []string{"DE", "DACH"}, []string{"DE", "AT", "CH"}},
		{"two regions", []string{"ANZ", "BENELUX"}, []string{"AU", "NZ", "BE", "LU", "NL"}},
		{"GCC", []string{"GCC"}, []string{"AE", "BH", "KW", "OM", "QA", "SA"}},
		{"NORDICS", []string{"NORDICS"}, []string{"AX", "DK", "FI", "FO", "GL", "IS", "NO", "SE"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := ExpandCountries(tt.in)
			if err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(got, tt.want) {
				t.Errorf("ExpandCountries(%q) = %v, want %v", tt.in, got, tt.want)
			}
		})
	}
}

func TestExpandCountriesInvalid(t *testing.T) {
	tests := []struct {
		name string
		in   []string
		bad  string
	}{
		{"unknown code", []string{"US", "XX"}, `"XX"`},
		{"alpha-3", []string{"DEU"}, `"DEU"`},
		{"country name", []string{"Germany"}, `"Germany"`},
		{"empty", []string{""}, `""`},
		{"first bad value is named", []string{"QQ", "ZZ"}, `"QQ"`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := ExpandCountriesField("person_country", tt.in)
			if err == nil {
				t.Fatalf("ExpandCountriesField(%q) = %v, want error", tt.in, got)
			}
			var e *apperr.Error
			if !errors.As(err, &e) || !errors.Is(err, apperr.ErrInvalid) {
				t.Fatalf("error %v is not an apperr.Invalid", err)
			}
			if e.Field != "person_country" {
				t.Errorf("Field = %q, want person_country", e.Field)
			}
			if !strings.Contains(e.Message, tt.bad) || !strings.Contains(e.Message, "EMEA") {
				t.Errorf("Message %q should name %s and list the region codes", e.Message, tt.bad)
			}
		})
	}
	if _, err := ExpandCountries([]string{"XX"}); !errors.Is(err, apperr.ErrInvalid) {
		t.Errorf("ExpandCountries(XX) error = %v, want apperr.ErrInvalid", err)
	}
}

func TestEUHas27Members(t *testing.T) {
	eu := members(t, "EU")
	if len(eu) != 27 {
		t.Errorf("EU has %d members, want 27", len(eu))
	}
	for _, out := range []string{"GB", "CH", "NO"} {
		if slices.Contains(eu, out) {
			t.Errorf("EU contains %s", out)
		}
	}
}

func TestRegionMembership(t *testing.T) {
	tests := []struct {
		region     string
		has, lacks []string
	}{
		{"ANZ", []string{"AU", "NZ"}, []string{"PG"}},
		{"APAC", []string{"CN", "JP", "IN", "AU", "SG", "KZ", "FJ"}, []string{"IR", "AE", "TR", "RU", "US"}},
		{"ASEAN", []string{"SG", "VN", "TL"}, []string{"CN", "PG"}},
		{"CEE", []string{"PL", "CZ", "EE", "RO", "RS", "UA"}, []string{"DE", "AT", "FI"}},
		{"EMEA", []string{"GB", "DE", "ZA", "NG", "AE", "SA", "IL", "TR", "IR", "RU", "GE"}, []string{"US", "BR", "IN", "CN", "KZ", "AQ"}},
		{"LATAM", []string{"MX", "BR", "AR", "CU", "PR"}, []string{"US", "CA", "ES"}},
		{"MENA", []string{"AE", "SA", "EG", "MA", "IR", "IL", "DZ"}, []string{"TR", "CY", "GE", "NG"}},
		{"NORDICS", []string{"DK", "FI", "IS", "NO", "SE"}, []string{"EE", "DE"}},
	}
	for _, tt := range tests {
		t.Run(tt.region, func(t *testing.T) {
			m := members(t, tt.region)
			for _, c := range tt.has {
				if !slices.Contains(m, c) {
					t.Errorf("%s lacks %s", tt.region, c)
				}
			}
			for _, c := range tt.lacks {
				if slices.Contains(m, c) {
					t.Errorf("%s contains %s", tt.region, c)
				}
			}
		})
	}
}

func TestRegionSubsets(t *testing.T) {
	tests := []struct{ sub, super string }{
		{"GCC", "MENA"}, {"GCC", "EMEA"}, {"ASEAN", "APAC"}, {"ANZ", "APAC"}, {"DACH", "EMEA"},
		{"BENELUX", "EU"}, {"NORDICS", "EMEA"}, {"CEE", "EMEA"}, {"EU", "EMEA"}, {"MENA", "EMEA"},
	}
	for _, tt := range tests {
		super := members(t, tt.super)
		for _, c := range members(t, tt.sub) {
			// Greenland is Nordic but, in M49, North American.
			if !slices.Contains(super, c) && !(tt.sub == "NORDICS" && c == "GL") {
				t.Errorf("%s member %s is not in %s", tt.sub, c, tt.super)
			}
		}
	}
}

// Every country except Antarctica is in exactly one M49 sub-region, and so in exactly
// one of EMEA, APAC and the Americas.
func TestM49CoversEveryCountryOnce(t *testing.T) {
	seen := make(map[string]string)
	for _, s := range m49 {
		for _, c := range strings.Fields(s.members) {
			if _, ok := LookupCountry(c); !ok {
				t.Errorf("M49 %s lists unknown country %s", s.code, c)
			}
			if prev, dup := seen[c]; dup {
				t.Errorf("%s is in M49 %s and %s", c, prev, s.code)
			}
			seen[c] = s.code
		}
	}
	for _, c := range countries {
		if _, ok := seen[c.Alpha2]; !ok && c.Alpha2 != "AQ" {
			t.Errorf("%s (%s) has no M49 sub-region", c.Alpha2, c.Name)
		}
	}

	americas := append(members(t, "LATAM"), "BM", "CA", "GL", "PM", "US")
	emea, apac := members(t, "EMEA"), members(t, "APAC")
	for _, c := range countries {
		n := 0
		for _, group := range [][]string{emea, apac, americas} {
			if slices.Contains(group, c.Alpha2) {
				n++
			}
		}
		if want := 1; c.Alpha2 != "AQ" && n != want {
			t.Errorf("%s is in %d of EMEA, APAC and the Americas, want %d", c.Alpha2, n, want)
		}
	}
}

func TestRegionMembersAreCountries(t *testing.T) {
	for _, r := range Regions() {
		for _, c := range r.Countries {
			if _, ok := LookupCountry(c); !ok {
				t.Errorf("region %s lists unknown country %s", r.Code, c)
			}
		}
		if _, ok := LookupCountry(r.Code); ok {
			t.Errorf("region code %s collides with a country code", r.Code)
		}
	}
}

func TestLookupRegion(t *testing.T) {
	r, ok := LookupRegion("dach")
	if !ok || r.Code != "DACH" || !slices.Equal(r.Countries, []string{"AT", "CH", "DE"}) {
		t.Errorf("LookupRegion(dach) = %+v, %v", r, ok)
	}
	r.Countries[0] = "XX"
	if again, _ := LookupRegion("DACH"); again.Countries[0] != "AT" {
		t.Error("LookupRegion returns the package's own slice")
	}
	if _, ok := LookupRegion("DE"); ok {
		t.Error("LookupRegion(DE) found a region")
	}
}

func members(t *testing.T, region string) []string {
	t.Helper()
	r, ok := LookupRegion(region)
	if !ok {
		t.Fatalf("no region %s", region)
	}
	return r.Countries
}
