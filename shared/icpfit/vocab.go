package icpfit

import (
	"sort"
	"strings"
	"sync"

	"github.com/firmoapi/firmo/shared/gazetteer"
	"github.com/firmoapi/firmo/shared/geo"
	"github.com/firmoapi/firmo/shared/industry"
)

// The vocabularies criteria are read with. Industry and sub-industry labels come from
// shared/industry's taxonomy, country, region and state names from shared/geo; the
// synonyms below add the words people write in ICPs ("SaaS", "consultancy", "law
// firm") and the technologies Firmo can see (homepage vendors and mail providers).

// industrySynonyms maps a phrase to the industry and sub-industry values it accepts.
var industrySynonyms = map[string][]string{
	"saas":                       {"SAAS", "SOFTWARE"},
	"software":                   {"SOFTWARE", "SAAS"},
	"software company":           {"SOFTWARE", "SAAS"},
	"software vendor":            {"SOFTWARE", "SAAS"},
	"tech company":               {"SOFTWARE", "SAAS", "IT_SERVICES", "CLOUD_COMPUTING"},
	"technology company":         {"SOFTWARE", "SAAS", "IT_SERVICES", "CLOUD_COMPUTING"},
	"it company":                 {"IT_SERVICES"},
	"it service provider":        {"IT_SERVICES"},
	"it services":                {"IT_SERVICES"},
	"msp":                        {"IT_SERVICES/MANAGED_SERVICES", "IT_SERVICES"},
	"managed service provider":   {"IT_SERVICES/MANAGED_SERVICES", "IT_SERVICES"},
	"systems integrator":         {"IT_SERVICES/SYSTEM_INTEGRATION", "IT_SERVICES"},
	"consultancy":                {"CONSULTING", "IT_SERVICES/IT_CONSULTING"},
	"consultancies":              {"CONSULTING", "IT_SERVICES/IT_CONSULTING"},
	"consulting firm":            {"CONSULTING", "IT_SERVICES/IT_CONSULTING"},
	"consultants":                {"CONSULTING", "IT_SERVICES/IT_CONSULTING"},
	"consulting":                 {"CONSULTING", "IT_SERVICES/IT_CONSULTING"},
	"agency":                     {"MARKETING_ADVERTISING"},
	"agencies":                   {"MARKETING_ADVERTISING"},
	"marketing agency":           {"MARKETING_ADVERTISING"},
	"advertising agency":         {"MARKETING_ADVERTISING"},
	"digital agency":             {"MARKETING_ADVERTISING"},
	"marketing":                  {"MARKETING_ADVERTISING"},
	"fintech":                    {"FINANCIAL_SERVICES", "BANKING"},
	"finance":                    {"FINANCIAL_SERVICES", "BANKING", "INSURANCE"},
	"financial":                  {"FINANCIAL_SERVICES", "BANKING", "INSURANCE"},
	"financial services":         {"FINANCIAL_SERVICES", "BANKING", "INSURANCE"},
	"financial services firm":    {"FINANCIAL_SERVICES", "BANKING", "INSURANCE"},
	"bank":                       {"BANKING", "FINANCIAL_SERVICES"},
	"banks":                      {"BANKING", "FINANCIAL_SERVICES"},
	"insurer":                    {"INSURANCE"},
	"healthcare":                 {"HEALTHCARE", "MEDICAL_DEVICES", "PHARMACEUTICALS"},
	"healthcare provider":        {"HEALTHCARE"},
	"health care":                {"HEALTHCARE"},
	"hospital":                   {"HEALTHCARE"},
	"clinic":                     {"HEALTHCARE"},
	"clinics":                    {"HEALTHCARE"},
	"medical practice":           {"HEALTHCARE"},
	"retail":                     {"RETAIL", "ECOMMERCE"},
	"retailer":                   {"RETAIL", "ECOMMERCE"},
	"retailers":                  {"RETAIL", "ECOMMERCE"},
	"shop":                       {"RETAIL", "ECOMMERCE"},
	"online shop":                {"ECOMMERCE", "RETAIL"},
	"ecommerce":                  {"ECOMMERCE", "RETAIL"},
	"e commerce":                 {"ECOMMERCE", "RETAIL"},
	"manufacturer":               {"MANUFACTURING"},
	"manufacturers":              {"MANUFACTURING"},
	"manufacturing":              {"MANUFACTURING"},
	"industrial":                 {"MANUFACTURING"},
	"logistics":                  {"LOGISTICS"},
	"logistics company":          {"LOGISTICS"},
	"logistics provider":         {"LOGISTICS"},
	"freight":                    {"LOGISTICS"},
	"shipping":                   {"LOGISTICS"},
	"transport":                  {"LOGISTICS"},
	"real estate":                {"REAL_ESTATE"},
	"property":                   {"REAL_ESTATE"},
	"proptech":                   {"REAL_ESTATE"},
	"education":                  {"EDUCATION"},
	"edtech":                     {"EDUCATION"},
	"school":                     {"EDUCATION"},
	"schools":                    {"EDUCATION"},
	"training provider":          {"EDUCATION"},
	"hospitality":                {"HOSPITALITY", "TRAVEL"},
	"hotel":                      {"HOSPITALITY"},
	"hotels":                     {"HOSPITALITY"},
	"restaurant":                 {"HOSPITALITY", "FOOD_BEVERAGE"},
	"restaurants":                {"HOSPITALITY", "FOOD_BEVERAGE"},
	"legal":                      {"LEGAL_SERVICES"},
	"legal services":             {"LEGAL_SERVICES"},
	"law firm":                   {"LEGAL_SERVICES"},
	"law firms":                  {"LEGAL_SERVICES"},
	"lawyers":                    {"LEGAL_SERVICES"},
	"construction":               {"CONSTRUCTION"},
	"construction company":       {"CONSTRUCTION"},
	"builder":                    {"CONSTRUCTION"},
	"builders":                   {"CONSTRUCTION"},
	"contractor":                 {"CONSTRUCTION"},
	"contractors":                {"CONSTRUCTION"},
	"recruiter":                  {"STAFFING_RECRUITING"},
	"recruiting":                 {"STAFFING_RECRUITING"},
	"staffing":                   {"STAFFING_RECRUITING"},
	"cybersecurity":              {"CYBERSECURITY"},
	"security":                   {"CYBERSECURITY"},
	"cloud":                      {"CLOUD_COMPUTING", "SAAS"},
	"telco":                      {"TELECOMMUNICATIONS"},
	"nonprofit":                  {"NON_PROFIT"},
	"non profit":                 {"NON_PROFIT"},
	"charity":                    {"NON_PROFIT"},
	"public sector organisation": {"GOVERNMENT"},
}

// technology is a product Firmo can detect on a company: the registrable domains its
// scripts, frames or mail exchangers are served from.
type technology struct {
	Name    string
	Aliases []string
	Domains []string
}

// technologies are the products a criterion can name ("uses HubSpot", "on Microsoft
// 365"). Homepage vendors come from the profile's record (FromRecord), mail providers
// from mx_provider.
var technologies = []technology{
	{"HubSpot", nil, []string{"hs-scripts.com", "hubspot.com", "hsforms.net", "hs-analytics.net"}},
	{"Salesforce", []string{"pardot"}, []string{"salesforce.com", "force.com", "pardot.com"}},
	{"Stripe", nil, []string{"stripe.com"}},
	{"Intercom", nil, []string{"intercom.io", "intercomcdn.com"}},
	{"Segment", nil, []string{"segment.com", "segment.io"}},
	{"Hotjar", nil, []string{"hotjar.com"}},
	{"Cookiebot", nil, []string{"cookiebot.com"}},
	{"Shopify", nil, []string{"shopify.com", "myshopify.com"}},
	{"jQuery", nil, []string{"jquery.com"}},
	{"Cloudflare", []string{"cdnjs"}, []string{"cloudflare.com"}},
	{"Zendesk", nil, []string{"zdassets.com", "zendesk.com"}},
	{"Adobe Fonts", []string{"typekit"}, []string{"typekit.net"}},
	{"Vimeo", nil, []string{"vimeo.com"}},
	{"YouTube", nil, []string{"youtube.com"}},
	{"Google Maps", nil, []string{"googleapis.com"}},
	{"Google Analytics", []string{"google tag manager", "gtag", "gtm"}, []string{"googletagmanager.com", "google-analytics.com"}},
	{"Booking.com", []string{"booking com", "booking"}, []string{"booking.com"}},
	{"Doctolib", nil, []string{"doctolib.fr"}},
	{"Google Workspace", []string{"g suite", "gsuite", "gmail", "google mail"}, []string{"google.com"}},
	{"Microsoft 365", []string{"office 365", "o365", "m365", "outlook", "exchange online", "microsoft email"}, []string{"outlook.com"}},
	{"Proofpoint", nil, []string{"pphosted.com"}},
	{"Mimecast", nil, []string{"mimecast.com"}},
	{"Zoho", []string{"zoho mail"}, []string{"zoho.com", "zoho.eu"}},
	{"GoDaddy", []string{"godaddy email"}, []string{"secureserver.net"}},
	{"IONOS", []string{"1and1", "1und1"}, []string{"ionos.de", "ionos.com"}},
	{"OVHcloud", []string{"ovh"}, []string{"ovh.net"}},
	{"Strato", nil, []string{"rzone.de"}},
}

// Technologies lists the product names a criterion can name, in a fixed order.
func Technologies() []string {
	out := make([]string, len(technologies))
	for i, t := range technologies {
		out[i] = t.Name
	}
	return out
}

// TechnologyDomains returns the domains a product is detected by ("" name: none).
func TechnologyDomains(name string) []string {
	for _, t := range technologies {
		if strings.EqualFold(t.Name, name) {
			return append([]string(nil), t.Domains...)
		}
	}
	return nil
}

// modelPhrases maps business-model phrases to labels of industry.BusinessModels.
var modelPhrases = map[string][]string{
	"b2b": {"B2B"}, "b2c": {"B2C"}, "b2g": {"B2G"}, "g2b": {"G2B"}, "g2c": {"G2C"}, "d2c": {"D2C"}, "dtc": {"D2C"},
	"c2c": {"C2C"}, "c2b": {"C2B"},
	"direct to consumer": {"D2C"}, "sells to businesses": {"B2B"}, "sell to businesses": {"B2B"},
	"business customers": {"B2B"}, "business to business": {"B2B"}, "business clients": {"B2B"},
	"consumer facing": {"B2C", "D2C"}, "sells to consumers": {"B2C", "D2C"}, "consumers": {"B2C", "D2C"},
	"consumer brand": {"B2C", "D2C"}, "business to consumer": {"B2C"},
	"public sector": {"B2G"}, "government customers": {"B2G"}, "sells to government": {"B2G"}, "government clients": {"B2G"},
	"marketplace": {"C2C"},
}

// stateCountries are the countries whose states or provinces criteria may name (not
// France or the United Kingdom, whose subdivisions share the names of their cities).
var stateCountries = []string{"US", "CA", "AU", "DE", "AT", "CH", "ES", "IT", "BR", "MX", "BE", "NL"}

// phraseKind is what a vocabulary phrase constrains.
type phraseKind int

const (
	phraseIndustry phraseKind = iota
	phraseCountry
	phraseState
	phraseModel
	phraseTech
)

// phrase is one entry of the phrase table: its folded words and what it means.
type phrase struct {
	words  []string
	kind   phraseKind
	values []string // industry values, alpha-2 codes, subdivision codes, model labels, or a technology name
	label  string   // how evidence names it
}

// phrases is the table every criterion is read with, longest phrases first.
var phrases = sync.OnceValue(buildPhrases)

func buildPhrases() []phrase {
	var out []phrase
	seen := map[string]bool{}
	add := func(text string, k phraseKind, label string, values ...string) {
		f := gazetteer.Fold(text)
		if f == "" || seen[f] {
			return
		}
		seen[f] = true
		out = append(out, phrase{words: strings.Fields(f), kind: k, values: values, label: label})
	}
	// Technologies and business models first: "Booking.com" is a product, "B2B" a model.
	for _, t := range technologies {
		add(t.Name, phraseTech, t.Name, t.Name)
		for _, a := range t.Aliases {
			add(a, phraseTech, t.Name, t.Name)
		}
	}
	for _, k := range sortedKeys(modelPhrases) {
		add(k, phraseModel, strings.Join(modelPhrases[k], "/"), modelPhrases[k]...)
	}
	for _, k := range sortedKeys(industrySynonyms) {
		add(k, phraseIndustry, k, industrySynonyms[k]...)
	}
	for _, in := range industry.Taxonomy() {
		add(in.Label, phraseIndustry, in.Value, in.Value)
		add(strings.ReplaceAll(in.Value, "_", " "), phraseIndustry, in.Value, in.Value)
		for _, s := range in.Subs {
			add(s.Label, phraseIndustry, s.Value, s.Value)
		}
	}
	countryNames := map[string]bool{}
	for _, c := range geo.Countries() {
		for _, n := range []string{c.DisplayName(), c.Name, c.OfficialName} {
			if n != "" {
				add(n, phraseCountry, c.Alpha2, c.Alpha2)
				countryNames[gazetteer.Fold(n)] = true
			}
		}
	}
	for _, a := range [][2]string{{"united states of america", "US"}, {"america", "US"}, {"usa", "US"}, {"u s", "US"},
		{"united kingdom", "GB"}, {"uk", "GB"}, {"britain", "GB"}, {"great britain", "GB"}, {"england", "GB"}, {"holland", "NL"},
		{"the netherlands", "NL"}, {"deutschland", "DE"}, {"osterreich", "AT"}, {"schweiz", "CH"}, {"suisse", "CH"}, {"espana", "ES"}, {"italia", "IT"}, {"brasil", "BR"}} {
		add(a[0], phraseCountry, a[1], a[1])
	}
	for _, r := range geo.Regions() {
		add(r.Code, phraseCountry, r.Code, r.Countries...)
		add(r.Name, phraseCountry, r.Code, r.Countries...)
	}
	for _, a := range [][2]string{{"europe", "EMEA"}, {"european union", "EU"}, {"nordic", "NORDICS"}, {"scandinavia", "NORDICS"}, {"latin america", "LATAM"}, {"north america", "US CA"}} {
		var cs []string
		if r, ok := geo.LookupRegion(a[1]); ok {
			cs = r.Countries
		} else {
			cs = strings.Fields(a[1])
		}
		if a[0] == "europe" {
			cs = europeOnly(cs)
		}
		add(a[0], phraseCountry, a[0], cs...)
	}
	for _, cc := range stateCountries {
		for _, s := range geo.Subdivisions(cc) {
			if s.Parent != "" {
				continue
			}
			n := gazetteer.Fold(s.DisplayName())
			if len(n) < 4 || countryNames[n] {
				continue
			}
			add(s.DisplayName(), phraseState, s.DisplayName(), s.Code)
		}
	}
	sort.SliceStable(out, func(i, j int) bool { return len(out[i].words) > len(out[j].words) })
	return out
}

// europeOnly keeps the European members of EMEA (its African and West Asian members
// are not "Europe").
func europeOnly(cs []string) []string {
	eu := map[string]bool{}
	for _, code := range []string{"EU", "NORDICS", "CEE", "DACH", "BENELUX"} {
		if r, ok := geo.LookupRegion(code); ok {
			for _, c := range r.Countries {
				eu[c] = true
			}
		}
	}
	for _, c := range []string{"GB", "IE", "CH", "NO", "IS", "LI", "MC", "AD", "SM", "VA", "MT", "AL", "BA", "ME", "MK", "RS", "UA", "MD", "BY"} {
		eu[c] = true
	}
	var out []string
	for _, c := range cs {
		if eu[c] {
			out = append(out, c)
		}
	}
	return out
}

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}
