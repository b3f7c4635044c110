package geo

import (
	"slices"
	"strings"

	"github.com/firmoapi/firmo/shared/apperr"
)

// m49 assigns every ISO 3166-1 country except Antarctica (AQ) to its sub-region of the UN
// M49 standard ("Standard country or area codes for statistical use"), the neutral basis
// of the continental region aliases. Taiwan, absent from M49, is placed in Eastern Asia.
var m49 = []struct{ code, name, members string }{
	{"015", "Northern Africa", "DZ EG EH LY MA SD TN"},
	{"014", "Eastern Africa", "BI DJ ER ET IO KE KM MG MU MW MZ RE RW SC SO SS TF TZ UG YT ZM ZW"},
	{"017", "Middle Africa", "AO CD CF CG CM GA GQ ST TD"},
	{"018", "Southern Africa", "BW LS NA SZ ZA"},
	{"011", "Western Africa", "BF BJ CI CV GH GM GN GW LR ML MR NE NG SH SL SN TG"},
	{"029", "Caribbean", "AG AI AW BB BL BQ BS CU CW DM DO GD GP HT JM KN KY LC MF MQ MS PR SX TC TT VC VG VI"},
	{"013", "Central America", "BZ CR GT HN MX NI PA SV"},
	{"005", "South America", "AR BO BR BV CL CO EC FK GF GS GY PE PY SR UY VE"},
	{"021", "Northern America", "BM CA GL PM US"},
	{"143", "Central Asia", "KG KZ TJ TM UZ"},
	{"030", "Eastern Asia", "CN HK JP KP KR MN MO TW"},
	{"035", "South-eastern Asia", "BN ID KH LA MM MY PH SG TH TL VN"},
	{"034", "Southern Asia", "AF BD BT IN IR LK MV NP PK"},
	{"145", "Western Asia", "AE AM AZ BH CY GE IL IQ JO KW LB OM PS QA SA SY TR YE"},
	{"151", "Eastern Europe", "BG BY CZ HU MD PL RO RU SK UA"},
	{"154", "Northern Europe", "AX DK EE FI FO GB GG IE IM IS JE LT LV NO SE SJ"},
	{"039", "Southern Europe", "AD AL BA ES GI GR HR IT ME MK MT PT RS SI SM VA"},
	{"155", "Western Europe", "AT BE CH DE FR LI LU MC NL"},
	{"053", "Australia and New Zealand", "AU CC CX HM NF NZ"},
	{"054", "Melanesia", "FJ NC PG SB VU"},
	{"057", "Micronesia", "FM GU KI MH MP NR PW UM"},
	{"061", "Polynesia", "AS CK NU PF PN TK TO TV WF WS"},
}

// M49 groups used by the region aliases.
const (
	europe   = "151 154 039 155"
	africa   = "015 014 017 018 011"
	oceania  = "053 054 057 061"
	latinAm  = "029 013 005"
	asiaEast = "143 030 035 034" // Asia without Western Asia
)

// regionDefs is the one table of region aliases; Region documents each membership.
var regionDefs = []struct {
	code, name, subregions, countries, except string
}{
	{code: "ANZ", name: "Australia and New Zealand", countries: "AU NZ"},
	{code: "APAC", name: "Asia-Pacific", subregions: asiaEast + " " + oceania, except: "IR"},
	{code: "ASEAN", name: "Association of Southeast Asian Nations", countries: "BN ID KH LA MM MY PH SG TH TL VN"},
	{code: "BENELUX", name: "Belgium, Netherlands, Luxembourg", countries: "BE LU NL"},
	{code: "CEE", name: "Central and Eastern Europe", subregions: "151", countries: "AL BA EE HR LT LV ME MK RS SI"},
	{code: "DACH", name: "Germany, Austria, Switzerland", countries: "AT CH DE"},
	{code: "EMEA", name: "Europe, the Middle East and Africa", subregions: europe + " " + africa + " 145", countries: "IR"},
	{code: "EU", name: "European Union", countries: "AT BE BG CY CZ DE DK EE ES FI FR GR HR HU IE IT LT LU LV MT NL PL PT RO SE SI SK"},
	{code: "GCC", name: "Gulf Cooperation Council", countries: "AE BH KW OM QA SA"},
	{code: "LATAM", name: "Latin America and the Caribbean", subregions: latinAm},
	{code: "MENA", name: "Middle East and North Africa", subregions: "145 015", countries: "IR", except: "AM AZ CY GE TR"},
	{code: "NORDICS", name: "Nordic countries", countries: "AX DK FI FO GL IS NO SE"},
}

// Region is a named group of countries usable wherever alpha-2 country codes are
// (person_country, filter_country and their negations). Memberships build on the UN M49
// sub-regions (see m49):
//
//	ANZ      Australia, New Zealand
//	APAC     Asia-Pacific: M49 Central, Eastern, South-eastern and Southern Asia without
//	         Iran, plus Oceania
//	ASEAN    the 11 members of the Association of Southeast Asian Nations (Timor-Leste
//	         joined in October 2025)
//	BENELUX  Belgium, Netherlands, Luxembourg
//	CEE      Central and Eastern Europe: M49 Eastern Europe (so Belarus, Moldova, Russia
//	         and Ukraine too), the Baltic states and the Western Balkans with Croatia and
//	         Slovenia
//	DACH     Germany, Austria, Switzerland
//	EMEA     M49 Europe and Africa, Western Asia (which includes the Caucasus, Cyprus and
//	         Turkey) and Iran; with APAC and the Americas it covers every country except
//	         Antarctica
//	EU       the 27 member states of the European Union
//	GCC      the six members of the Gulf Cooperation Council
//	LATAM    Latin America and the Caribbean (M49), including dependent territories
//	MENA     the Middle East (Western Asia without the Caucasus, Cyprus and Turkey, plus
//	         Iran) and North Africa (M49 Northern Africa)
//	NORDICS  Denmark, Finland, Iceland, Norway, Sweden, and the Faroe Islands, Greenland
//	         and Åland (Greenland is Nordic here but, as in M49, American, not EMEA)
type Region struct {
	Code      string   // "DACH"
	Name      string   // "Germany, Austria, Switzerland"
	Countries []string // alpha-2 codes, sorted
}

// Regions returns every region alias, sorted by code.
func Regions() []Region {
	out := make([]Region, 0, len(regionDefs))
	for _, d := range regionDefs {
		r, _ := LookupRegion(d.code)
		out = append(out, r)
	}
	return out
}

// LookupRegion returns the region with the given code, any case.
func LookupRegion(code string) (Region, bool) {
	code = strings.ToUpper(strings.TrimSpace(code))
	members, ok := tables().regions[code]
	if !ok {
		return Region{}, false
	}
	for _, d := range regionDefs {
		if d.code == code {
			return Region{Code: d.code, Name: d.name, Countries: slices.Clone(members)}, true
		}
	}
	return Region{}, false
}

func buildRegions() map[string][]string {
	bySub := make(map[string][]string, len(m49))
	for _, s := range m49 {
		bySub[s.code] = strings.Fields(s.members)
	}
	regions := make(map[string][]string, len(regionDefs))
	for _, d := range regionDefs {
		var members []string
		for _, sub := range strings.Fields(d.subregions) {
			members = append(members, bySub[sub]...)
		}
		members = append(members, strings.Fields(d.countries)...)
		except := strings.Fields(d.except)
		members = slices.DeleteFunc(members, func(c string) bool { return slices.Contains(except, c) })
		slices.Sort(members)
		regions[d.code] = slices.Compact(members)
	}
	return regions
}

// ExpandCountries validates a country filter and expands its region aliases: each value
// is an ISO 3166-1 alpha-2 code or a region code (see regionDefs), any case. The result
// holds upper-case alpha-2 codes without duplicates, in the order of the values, a
// region's members in alphabetical order. An unknown value is an apperr.Invalid error
// naming it; ExpandCountriesField also names the request parameter.
func ExpandCountries(values []string) ([]string, error) {
	return ExpandCountriesField("", values)
}

// ExpandCountriesField is ExpandCountries for the request parameter field.
func ExpandCountriesField(field string, values []string) ([]string, error) {
	var bad error
	out := expand(values, func(v string) {
		if bad == nil {
			bad = apperr.Invalid(field, "%q is neither an ISO 3166-1 alpha-2 country code nor a region code (%s).", v, regionList())
		}
	})
	if bad != nil {
		return nil, bad
	}
	return out, nil
}

// expand expands values, calling unknown (when not nil) for each value that is neither a
// country nor a region, and skipping it.
func expand(values []string, unknown func(string)) []string {
	ix := tables()
	var out []string
	seen := make(map[string]bool)
	add := func(cc string) {
		if !seen[cc] {
			seen[cc] = true
			out = append(out, cc)
		}
	}
	for _, v := range values {
		code := strings.ToUpper(strings.TrimSpace(v))
		if members, ok := ix.regions[code]; ok {
			for _, cc := range members {
				add(cc)
			}
			continue
		}
		if _, ok := LookupCountry(code); ok {
			add(code)
			continue
		}
		if unknown != nil {
			unknown(v)
		}
	}
	return out
}

func regionList() string {
	codes := make([]string, len(regionDefs))
	for i, d := range regionDefs {
		codes[i] = d.code
	}
	return strings.Join(codes, ", ")
}
