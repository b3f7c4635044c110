package industry

import (
	"sort"
	"strings"
)

// Industry is one value of the industry enum with its sub-industries.
type Industry struct {
	Value string // uppercase enum value, e.g. SAAS
	Label string // human label, e.g. "Software as a service"
	Subs  []Sub
}

// Sub is one sub-industry: Value is PARENT/SUB, e.g. SAAS/CRM.
type Sub struct {
	Value string
	Label string
}

// taxonomy is the one definition of Firmo's industries: 39 industries and 217
// sub-industries (the count of sub-labels the service spec names). The order is the
// order of the /v1/industries listing. Lexicon cues and labelled rows are keyed by
// these values, and tests refuse any key missing here.
var taxonomy = []Industry{
	ind("SAAS", "Software as a service",
		"CRM", "CRM and sales software",
		"HR_PAYROLL", "HR and payroll software",
		"ACCOUNTING_FINANCE", "Accounting and invoicing software",
		"PROJECT_MANAGEMENT", "Project management and collaboration",
		"MARKETING_AUTOMATION", "Marketing automation",
		"ANALYTICS_BI", "Analytics and business intelligence",
		"ECOMMERCE_PLATFORM", "E-commerce platforms",
		"CUSTOMER_SUPPORT", "Customer support and help desk software"),
	ind("SOFTWARE", "Software",
		"DEVELOPER_TOOLS", "Developer tools",
		"ERP", "ERP and business management software",
		"ENTERPRISE_SOFTWARE", "Enterprise software",
		"MOBILE_APPS", "Mobile apps",
		"AI_MACHINE_LEARNING", "AI and machine learning",
		"EMBEDDED_SYSTEMS", "Embedded and industrial software",
		"CAD_ENGINEERING", "CAD, design and engineering software"),
	ind("CLOUD_COMPUTING", "Cloud computing",
		"HOSTING", "Web hosting and domains",
		"DATA_CENTERS", "Data centers and colocation",
		"INFRASTRUCTURE", "Cloud infrastructure (IaaS and PaaS)",
		"DATABASES", "Managed databases",
		"STORAGE_BACKUP", "Cloud storage and backup"),
	ind("IT_SERVICES", "IT services",
		"MANAGED_SERVICES", "Managed IT services",
		"SYSTEM_INTEGRATION", "System integration and IT installation",
		"SOFTWARE_DEVELOPMENT", "Custom software development",
		"IT_CONSULTING", "IT consulting",
		"WEB_DESIGN", "Web design and development"),
	ind("CYBERSECURITY", "Cybersecurity",
		"SECURITY_CONSULTING", "Security testing and consulting",
		"NETWORK_SECURITY", "Network and endpoint security",
		"IDENTITY_ACCESS", "Identity and access management",
		"DATA_PROTECTION", "Data protection and privacy",
		"MANAGED_DETECTION", "Managed detection and response"),
	ind("TELECOMMUNICATIONS", "Telecommunications",
		"INTERNET_PROVIDERS", "Internet service providers",
		"MOBILE_CARRIERS", "Mobile carriers",
		"VOIP_UNIFIED_COMMS", "VoIP and unified communications",
		"NETWORK_INFRASTRUCTURE", "Network infrastructure",
		"SATELLITE", "Satellite communications"),
	ind("ELECTRONICS", "Electronics",
		"SEMICONDUCTORS", "Semiconductors",
		"COMPONENTS", "Electronic components and manufacturing",
		"CONSUMER_ELECTRONICS", "Consumer electronics",
		"OPTICS_PHOTONICS", "Optics and photonics",
		"POWER_ELECTRONICS", "Power electronics"),
	ind("FINANCIAL_SERVICES", "Financial services",
		"PAYMENTS", "Payments",
		"ASSET_MANAGEMENT", "Asset and wealth management",
		"ACCOUNTING_TAX", "Accounting and tax advisory",
		"FINTECH_LENDING", "Lending and credit",
		"CRYPTO", "Crypto assets",
		"PRIVATE_EQUITY_VC", "Private equity and venture capital",
		"FINANCIAL_ADVISORY", "Financial planning and advice"),
	ind("BANKING", "Banking",
		"RETAIL_BANKING", "Retail banking",
		"PRIVATE_BANKING", "Private banking",
		"INVESTMENT_BANKING", "Investment banking",
		"COMMERCIAL_BANKING", "Commercial banking",
		"MORTGAGE_LENDING", "Mortgage lending"),
	ind("INSURANCE", "Insurance",
		"PROPERTY_CASUALTY", "Property and casualty insurance",
		"INSURANCE_BROKERS", "Insurance brokers",
		"LIFE_HEALTH", "Life and health insurance",
		"REINSURANCE", "Reinsurance",
		"INSURTECH", "Insurtech"),
	ind("REAL_ESTATE", "Real estate",
		"RESIDENTIAL_AGENCY", "Residential estate agents",
		"PROPERTY_MANAGEMENT", "Property management",
		"COMMERCIAL_PROPERTY", "Commercial property",
		"PROPERTY_DEVELOPMENT", "Property development",
		"COWORKING", "Coworking and flexible offices",
		"PROPTECH", "Property technology"),
	ind("HEALTHCARE", "Healthcare",
		"DENTAL", "Dental care",
		"HOSPITALS_CLINICS", "Hospitals and clinics",
		"ELDERLY_CARE", "Elderly and home care",
		"PHYSIOTHERAPY", "Physiotherapy and rehabilitation",
		"DIGITAL_HEALTH", "Digital health and telemedicine",
		"MENTAL_HEALTH", "Mental health",
		"VETERINARY", "Veterinary care"),
	ind("PHARMACEUTICALS", "Pharmaceuticals",
		"BIOTECH", "Biotechnology",
		"DRUG_DEVELOPMENT", "Drug development and manufacturing",
		"PHARMACIES", "Pharmacies",
		"CONTRACT_RESEARCH", "Contract research",
		"NUTRACEUTICALS", "Supplements and nutraceuticals"),
	ind("MEDICAL_DEVICES", "Medical devices",
		"DIAGNOSTICS", "Diagnostics and medical imaging",
		"SURGICAL_EQUIPMENT", "Surgical instruments and equipment",
		"ORTHOPEDICS", "Orthopedics and prosthetics",
		"DENTAL_EQUIPMENT", "Dental equipment",
		"HEARING_VISION", "Hearing and vision aids"),
	ind("EDUCATION", "Education",
		"ONLINE_LEARNING", "Online learning",
		"SCHOOLS", "Schools",
		"UNIVERSITIES", "Universities and business schools",
		"LANGUAGE_SCHOOLS", "Language schools",
		"CORPORATE_TRAINING", "Corporate and professional training",
		"EARLY_CHILDHOOD", "Childcare and early childhood education",
		"TUTORING", "Tutoring",
		"DRIVING_SCHOOLS", "Driving schools"),
	ind("RETAIL", "Retail",
		"FASHION_APPAREL", "Fashion and apparel stores",
		"GROCERY_SUPERMARKETS", "Grocery and supermarkets",
		"HOME_FURNITURE", "Home and furniture stores",
		"SPORTING_GOODS", "Sporting goods stores",
		"ELECTRONICS_STORES", "Electronics stores",
		"DIY_GARDEN", "DIY, hardware and garden centers",
		"BOOKS_STATIONERY", "Books and stationery"),
	ind("ECOMMERCE", "E-commerce",
		"ONLINE_MARKETPLACE", "Online marketplaces",
		"ONLINE_SHOP", "Online shops",
		"SUBSCRIPTION_BOXES", "Subscription boxes",
		"FOOD_DELIVERY", "Food and grocery delivery",
		"PRICE_COMPARISON", "Price comparison and deals"),
	ind("CONSUMER_GOODS", "Consumer goods",
		"COSMETICS_BEAUTY", "Cosmetics and beauty products",
		"HOUSEHOLD_PRODUCTS", "Household products",
		"JEWELRY", "Jewelry and watches",
		"TOYS", "Toys and games",
		"FASHION_BRANDS", "Fashion and footwear brands"),
	ind("FOOD_BEVERAGE", "Food and beverage",
		"BREWERY_WINERY", "Breweries, wineries and distilleries",
		"BAKERY", "Bakeries",
		"FOOD_PROCESSING", "Food processing",
		"COFFEE_TEA", "Coffee and tea",
		"CONFECTIONERY", "Confectionery and chocolate",
		"BEVERAGES", "Soft drinks and juices",
		"MEAT_DAIRY", "Meat, fish and dairy"),
	ind("HOSPITALITY", "Hospitality",
		"HOTELS", "Hotels",
		"RESTAURANTS", "Restaurants",
		"CATERING_EVENTS", "Catering",
		"BARS_CAFES", "Bars and cafés",
		"HOLIDAY_RENTALS", "Holiday rentals and campsites"),
	ind("TRAVEL", "Travel",
		"TOUR_OPERATORS", "Tour operators",
		"TRAVEL_AGENCIES", "Travel agencies",
		"AIRLINES", "Airlines",
		"CRUISES", "Cruises and ferries",
		"CAR_RENTAL", "Car rental"),
	ind("MANUFACTURING", "Manufacturing",
		"INDUSTRIAL_MACHINERY", "Industrial machinery",
		"METAL_FABRICATION", "Metal fabrication and machining",
		"PLASTICS", "Plastics and rubber",
		"PACKAGING", "Packaging",
		"TEXTILES", "Textiles",
		"INDUSTRIAL_AUTOMATION", "Industrial automation and robotics",
		"PRINTING", "Printing",
		"WOOD_PAPER", "Wood and paper products"),
	ind("AUTOMOTIVE", "Automotive",
		"CAR_DEALERS", "Car dealers",
		"AUTO_PARTS", "Auto parts and suppliers",
		"REPAIR_SERVICE", "Repair and service garages",
		"ELECTRIC_VEHICLES", "Electric vehicles",
		"VEHICLE_MANUFACTURERS", "Vehicle manufacturers"),
	ind("AEROSPACE_DEFENSE", "Aerospace and defense",
		"AIRCRAFT_COMPONENTS", "Aircraft and components",
		"DEFENSE", "Defense",
		"SPACE", "Space",
		"DRONES", "Drones",
		"AVIATION_SERVICES", "Aviation services and airports"),
	ind("CONSTRUCTION", "Construction",
		"TRADES", "Building trades",
		"RESIDENTIAL_BUILDING", "Residential building",
		"CIVIL_ENGINEERING", "Civil engineering and infrastructure",
		"ARCHITECTURE", "Architecture and interior design",
		"COMMERCIAL_BUILDING", "Commercial and industrial building",
		"BUILDING_MATERIALS", "Building materials",
		"LANDSCAPING", "Landscaping and gardening"),
	ind("ENERGY", "Energy",
		"SOLAR", "Solar energy",
		"UTILITIES", "Utilities and energy supply",
		"WIND", "Wind energy",
		"OIL_GAS", "Oil and gas",
		"EV_CHARGING", "EV charging",
		"HYDROGEN", "Hydrogen",
		"HEAT_PUMPS", "Heating and heat pumps"),
	ind("AGRICULTURE", "Agriculture",
		"FARMING", "Crop farming",
		"AGTECH", "Agricultural technology",
		"FORESTRY", "Forestry",
		"LIVESTOCK", "Livestock",
		"HORTICULTURE", "Horticulture and greenhouses",
		"AQUACULTURE", "Fishing and aquaculture"),
	ind("LOGISTICS", "Logistics",
		"FREIGHT_TRANSPORT", "Road freight and forwarding",
		"WAREHOUSING_FULFILLMENT", "Warehousing and fulfillment",
		"COURIER_PARCEL", "Courier and parcel delivery",
		"SHIPPING_MARITIME", "Shipping and ports",
		"AIR_CARGO", "Air cargo",
		"REMOVALS", "Removals and moving"),
	ind("MEDIA_ENTERTAINMENT", "Media and entertainment",
		"VIDEO_GAMES", "Video games",
		"PUBLISHING", "Book and magazine publishing",
		"FILM_TV", "Film and television",
		"MUSIC", "Music",
		"EVENTS", "Live events and festivals",
		"NEWS", "News media",
		"ARTS_CULTURE", "Arts, museums and culture"),
	ind("MARKETING_ADVERTISING", "Marketing and advertising",
		"SEO_SEM", "SEO and search marketing",
		"DIGITAL_AGENCY", "Digital and social media agencies",
		"PUBLIC_RELATIONS", "Public relations",
		"BRANDING_DESIGN", "Branding and design",
		"ADTECH", "Advertising technology",
		"MARKET_RESEARCH", "Market research"),
	ind("LEGAL_SERVICES", "Legal services",
		"LAW_FIRMS", "Law firms",
		"NOTARIES", "Notaries",
		"LEGAL_TECH", "Legal technology",
		"INTELLECTUAL_PROPERTY", "Patents and intellectual property"),
	ind("CONSULTING", "Consulting",
		"MANAGEMENT", "Management consulting",
		"SUSTAINABILITY", "Sustainability consulting",
		"ENGINEERING", "Engineering consulting",
		"HR_CONSULTING", "HR consulting",
		"COMPLIANCE_RISK", "Compliance and risk consulting"),
	ind("STAFFING_RECRUITING", "Staffing and recruiting",
		"RECRUITMENT_AGENCIES", "Recruitment agencies",
		"TEMPORARY_STAFFING", "Temporary staffing",
		"EXECUTIVE_SEARCH", "Executive search",
		"JOB_BOARDS", "Job boards"),
	ind("GOVERNMENT", "Government",
		"MUNICIPALITIES", "Municipalities",
		"AGENCIES", "Public agencies",
		"MINISTRIES", "National government and ministries",
		"PUBLIC_SAFETY", "Police, fire and civil protection"),
	ind("NON_PROFIT", "Non-profit",
		"CHARITIES", "Charities",
		"ASSOCIATIONS", "Associations and federations",
		"FOUNDATIONS", "Foundations",
		"RELIGIOUS", "Religious organizations"),
	ind("CHEMICALS", "Chemicals",
		"SPECIALTY_CHEMICALS", "Specialty chemicals",
		"PAINTS_COATINGS", "Paints and coatings",
		"PETROCHEMICALS", "Petrochemicals and plastics feedstock",
		"AGROCHEMICALS", "Fertilizers and agrochemicals"),
	ind("MINING_METALS", "Mining and metals",
		"MINING", "Mining",
		"STEEL_METALS", "Steel and metals",
		"QUARRYING", "Quarrying and aggregates",
		"PRECIOUS_METALS", "Precious metals"),
	ind("ENVIRONMENTAL_SERVICES", "Environmental services",
		"WASTE_MANAGEMENT", "Waste management",
		"RECYCLING", "Recycling",
		"WATER_TREATMENT", "Water treatment",
		"REMEDIATION", "Remediation and environmental engineering"),
	ind("PERSONAL_SERVICES", "Personal services",
		"HAIR_BEAUTY", "Hair and beauty salons",
		"FITNESS", "Gyms and fitness",
		"CLEANING", "Cleaning services",
		"FUNERAL", "Funeral services",
		"PET_SERVICES", "Pet services"),
}

// ind builds an Industry from its value, label and (sub, label) pairs.
func ind(value, label string, subs ...string) Industry {
	in := Industry{Value: value, Label: label}
	for i := 0; i+1 < len(subs); i += 2 {
		in.Subs = append(in.Subs, Sub{Value: value + "/" + subs[i], Label: subs[i+1]})
	}
	return in
}

// index maps every industry and sub-industry value to its position in taxonomy:
// parent index, and sub index within the parent (-1 for the parent itself).
type position struct{ parent, sub int }

var index = func() map[string]position {
	m := make(map[string]position, 256)
	for i, in := range taxonomy {
		m[in.Value] = position{i, -1}
		for j, s := range in.Subs {
			m[s.Value] = position{i, j}
		}
	}
	return m
}()

// Taxonomy returns every industry with its sub-industries, in listing order. The
// result is a copy: callers may keep or change it.
func Taxonomy() []Industry {
	out := make([]Industry, len(taxonomy))
	for i, in := range taxonomy {
		out[i] = in
		out[i].Subs = append([]Sub(nil), in.Subs...)
	}
	return out
}

// All returns the industry enum values in listing order.
func All() []string {
	out := make([]string, len(taxonomy))
	for i, in := range taxonomy {
		out[i] = in.Value
	}
	return out
}

// Subs returns every sub-industry value (PARENT/SUB) in listing order.
func Subs() []string {
	var out []string
	for _, in := range taxonomy {
		for _, s := range in.Subs {
			out = append(out, s.Value)
		}
	}
	return out
}

// Valid reports whether s is an industry enum value (exact, uppercase).
func Valid(s string) bool {
	p, ok := index[s]
	return ok && p.sub < 0
}

// ValidSub reports whether s is a sub-industry value (exact PARENT/SUB).
func ValidSub(s string) bool {
	p, ok := index[s]
	return ok && p.sub >= 0
}

// Label returns the human label of an industry or sub-industry value, and whether the
// value exists.
func Label(value string) (string, bool) {
	p, ok := index[value]
	switch {
	case !ok:
		return "", false
	case p.sub < 0:
		return taxonomy[p.parent].Label, true
	default:
		return taxonomy[p.parent].Subs[p.sub].Label, true
	}
}

// Parent returns the industry of a sub-industry value (SAAS for SAAS/CRM), or the
// value itself for an industry; "" when the value is unknown.
func Parent(value string) string {
	p, ok := index[value]
	if !ok {
		return ""
	}
	return taxonomy[p.parent].Value
}

// sortedKeys is the keys of m, highest value first, ties by key.
func sortedKeys(m map[string]float64) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Slice(keys, func(i, j int) bool {
		if m[keys[i]] != m[keys[j]] {
			return m[keys[i]] > m[keys[j]]
		}
		return strings.Compare(keys[i], keys[j]) < 0
	})
	return keys
}
