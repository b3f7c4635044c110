package company

import (
	"math"
	"strconv"
	"strings"

	"github.com/firmoapi/firmo/shared/apperr"
	"github.com/firmoapi/firmo/shared/gazetteer"
	"github.com/firmoapi/firmo/shared/geo"
)

// EmployeeBuckets are the API reference's employees values, smallest first.
var EmployeeBuckets = []string{"1-10", "11-50", "51-200", "201-500", "501-1000", "1001-5000", "5001-10000", "10001+"}

// employeeBounds[i] is the largest head count of EmployeeBuckets[i].
var employeeBounds = []int{10, 50, 200, 500, 1000, 5000, 10000}

// RevenueBuckets are the API reference's revenue_range values; RevenueUnknown is "N/A".
var RevenueBuckets = []string{"<1M", "1-10M", "10-100M", "100M-1B", ">1B"}

// RevenueUnknown is the revenue_range of a company whose revenue is not known.
const RevenueUnknown = "N/A"

// EmployeeBucket reads a head count ("37", "1,200") or a bucket ("11-50", "10,001+")
// and returns the bucket. Empty input is ("", nil): unknown.
func EmployeeBucket(raw string) (string, error) {
	s := strings.NewReplacer(",", "", " ", "", "_", "", "–", "-").Replace(strings.TrimSpace(raw))
	if s == "" {
		return "", nil
	}
	for _, b := range EmployeeBuckets {
		if s == b {
			return b, nil
		}
	}
	n, err := strconv.Atoi(strings.TrimSuffix(s, "+"))
	if err != nil || n < 1 {
		return "", apperr.Invalid("employees", "%q is neither a head count nor one of %s", raw, strings.Join(EmployeeBuckets, ", "))
	}
	for i, max := range employeeBounds {
		if n <= max {
			return EmployeeBuckets[i], nil
		}
	}
	return EmployeeBuckets[len(EmployeeBuckets)-1], nil
}

// RevenueBucket reads an annual revenue amount in US dollars ("2500000", "$2.5M",
// "1.2B", "750k") or a bucket ("10-100M") and returns the bucket; empty is N/A.
func RevenueBucket(raw string) (string, error) {
	s := strings.ToUpper(strings.NewReplacer(",", "", " ", "", "$", "", "USD", "", "–", "-").Replace(strings.TrimSpace(raw)))
	if s == "" || s == "N/A" || s == "NA" {
		return RevenueUnknown, nil
	}
	for _, b := range RevenueBuckets {
		if s == strings.ToUpper(b) {
			return b, nil
		}
	}
	mult := 1.0
	switch {
	case strings.HasSuffix(s, "K"):
		mult, s = 1e3, s[:len(s)-1]
	case strings.HasSuffix(s, "M"):
		mult, s = 1e6, s[:len(s)-1]
	case strings.HasSuffix(s, "B"):
		mult, s = 1e9, s[:len(s)-1]
	}
	v, err := strconv.ParseFloat(s, 64)
	if err != nil || v < 0 || math.IsInf(v, 0) || math.IsNaN(v) {
		return "", apperr.Invalid("revenue_range", "%q is neither an amount in US dollars nor one of %s, N/A", raw, strings.Join(RevenueBuckets, ", "))
	}
	switch v *= mult; {
	case v < 1e6:
		return "<1M", nil
	case v < 1e7:
		return "1-10M", nil
	case v < 1e8:
		return "10-100M", nil
	case v < 1e9:
		return "100M-1B", nil
	}
	return ">1B", nil
}

// CountryCode resolves a country given as alpha-2, alpha-3 or English name to its
// alpha-2 code.
func CountryCode(raw string) (string, error) {
	s := strings.TrimSpace(raw)
	if s == "" {
		return "", nil
	}
	if c, ok := geo.LookupCountry(s); ok {
		return c.Alpha2, nil
	}
	if c, ok := geo.LookupCountryAlpha3(s); ok {
		return c.Alpha2, nil
	}
	f := gazetteer.Fold(s)
	for _, c := range geo.Countries() {
		if f == gazetteer.Fold(c.Name) || (c.CommonName != "" && f == gazetteer.Fold(c.CommonName)) || (c.OfficialName != "" && f == gazetteer.Fold(c.OfficialName)) {
			return c.Alpha2, nil
		}
	}
	if alias, ok := countryAliases[f]; ok {
		return alias, nil
	}
	return "", apperr.Invalid("country", "%q is not an ISO 3166-1 country code or name", raw)
}

// countryAliases are everyday names that differ from the ISO names.
var countryAliases = map[string]string{
	"usa": "US", "united states of america": "US", "america": "US", "uk": "GB",
	"great britain": "GB", "england": "GB", "scotland": "GB", "wales": "GB",
	"holland": "NL", "the netherlands": "NL", "deutschland": "DE", "espana": "ES",
	"italia": "IT", "brasil": "BR", "mexico": "MX", "osterreich": "AT", "schweiz": "CH",
	"suisse": "CH", "belgique": "BE", "belgie": "BE", "nederland": "NL",
}

// geocode is the result of resolving an address.
type geocode struct {
	State     string // full subdivision name, or the raw value when it does not resolve
	Lat, Lon  *float64
	Precision *string
}

// resolveAddress names the state and places the address through the gazetteer. A city
// match gives its centre (precision "city"); the state then also comes from the
// gazetteer when the row had none.
func resolveAddress(country, state, city string) geocode {
	var g geocode
	if country != "" && state != "" {
		if name, ok := geo.StateName(country, state); ok {
			g.State = name
		} else {
			g.State = state
		}
	}
	if country == "" || city == "" {
		return g
	}
	p, ok := gazetteer.Lookup(country, city)
	if !ok {
		return g
	}
	lat, lon, prec := p.Lat, p.Lon, gazetteer.PrecisionCity
	g.Lat, g.Lon, g.Precision = &lat, &lon, &prec
	if g.State == "" {
		if s, ok := geo.LookupSubdivision(p.State); ok {
			g.State = s.DisplayName()
		}
	}
	return g
}

// industryList reads the raw industry column: uppercase enum values separated by
// ";", "|" or ",".
func industryList(raw string) ([]string, error) {
	var out []string
	for _, f := range strings.FieldsFunc(raw, func(r rune) bool { return r == ';' || r == '|' || r == ',' }) {
		v := strings.ToUpper(strings.TrimSpace(f))
		v = strings.NewReplacer(" ", "_", "-", "_", "&", "AND").Replace(v)
		if v == "" {
			continue
		}
		for _, r := range v {
			if !(r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '_' || r == '/') {
				return nil, apperr.Invalid("industry", "%q is not an industry enum value (uppercase letters, digits and _)", f)
			}
		}
		out = append(out, v)
	}
	return out, nil
}
