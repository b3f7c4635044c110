package gazetteer

import (
	"math"
	"testing"

	"github.com/firmoapi/firmo/shared/geo"
)

func TestLookup(t *testing.T) {
	tests := []struct {
		country, city string
		wantName      string
		wantOK        bool
	}{
		{"DE", "München", "München", true},
		{"de", "munich", "München", true},
		{"DE", "MUENCHEN", "München", true},
		{"DE", "Frankfurt", "Frankfurt am Main", true},
		{"FR", "  paris ", "Paris", true},
		{"CH", "Genf", "Genève", true},
		{"CH", "geneve", "Genève", true},
		{"NL", "'s-Gravenhage", "Den Haag", true},
		{"NL", "the hague", "Den Haag", true},
		{"MX", "ciudad de mexico", "Ciudad de México", true},
		{"BR", "SAO PAULO", "São Paulo", true},
		{"US", "München", "", false}, // the right name in the wrong country
		{"DE", "Atlantis", "", false},
		{"", "Paris", "", false},
	}
	for _, tt := range tests {
		t.Run(tt.country+"/"+tt.city, func(t *testing.T) {
			got, ok := Lookup(tt.country, tt.city)
			if ok != tt.wantOK || got.Name != tt.wantName {
				t.Fatalf("Lookup(%q, %q) = %q, %v; want %q, %v", tt.country, tt.city, got.Name, ok, tt.wantName, tt.wantOK)
			}
		})
	}
}

// TestTable checks every row against the ISO tables and plausible coordinates, so a typo
// in the hand-written table fails here rather than putting a company in the sea.
func TestTable(t *testing.T) {
	// Rough bounding boxes (lat min, lat max, lon min, lon max) of each country.
	boxes := map[string][4]float64{
		"US": {24, 50, -125, -66}, "GB": {49, 61, -9, 2}, "IE": {51, 56, -11, -5},
		"CA": {41, 70, -141, -52}, "AU": {-44, -10, 112, 154}, "DE": {47, 55.1, 5.8, 15.1},
		"AT": {46.3, 49.1, 9.5, 17.2}, "CH": {45.8, 47.9, 5.9, 10.5}, "FR": {41, 51.2, -5, 9.6},
		"BE": {49.5, 51.6, 2.5, 6.5}, "ES": {35, 44, -10, 4.4}, "MX": {14, 33, -118, -86},
		"PT": {36.9, 42.2, -9.6, -6.1}, "BR": {-34, 6, -74, -34}, "IT": {36.6, 47.1, 6.6, 18.6},
		"NL": {50.7, 53.6, 3.3, 7.3},
	}
	for _, p := range places {
		if _, ok := geo.LookupCountry(p.Country); !ok {
			t.Errorf("%s: unknown country %s", p.Name, p.Country)
		}
		if s, ok := geo.LookupSubdivision(p.State); !ok || s.Country != p.Country {
			t.Errorf("%s: state %s is not a subdivision of %s", p.Name, p.State, p.Country)
		}
		b, ok := boxes[p.Country]
		if !ok {
			t.Errorf("%s: no bounding box for %s", p.Name, p.Country)
			continue
		}
		if p.Lat < b[0] || p.Lat > b[1] || p.Lon < b[2] || p.Lon > b[3] || math.IsNaN(p.Lat) {
			t.Errorf("%s (%s): %.4f,%.4f outside the country", p.Name, p.Country, p.Lat, p.Lon)
		}
		if p.Zip == "" {
			t.Errorf("%s: no postal code", p.Name)
		}
	}
	if got := len(Countries()); got < 16 {
		t.Errorf("%d countries, want at least 16", got)
	}
}

func TestFold(t *testing.T) {
	tests := map[string]string{
		"Düsseldorf":        "dusseldorf",
		"  São   Paulo  ":   "sao paulo",
		"Frankfurt-am-Main": "frankfurt am main",
		"Gießen":            "giessen",
		"'s-Gravenhage":     "s gravenhage",
	}
	for in, want := range tests {
		if got := Fold(in); got != want {
			t.Errorf("Fold(%q) = %q, want %q", in, got, want)
		}
	}
}
