package industry

import (
	"strings"
	"sync"
)

// schemaTypes maps schema.org types (the @type of a page's JSON-LD, the itemtype of
// its microdata) and Open Graph types to the industry or sub-industry they state.
// Written by the team from schema.org's type hierarchy (Organization and
// LocalBusiness and their subclasses, schema.org version 29); types that say nothing
// about an industry (Organization, LocalBusiness, Corporation, WebSite, Place, ...)
// are left out. Keys are lower case, without the schema.org prefix. It is built on
// first use (sync.OnceValue), so it costs nothing at start-up.
var schemaTypes = sync.OnceValue(func() map[string]string {
	return map[string]string{
		// Organization subclasses
		"airline": "TRAVEL/AIRLINES", "consortium": "", "cooperative": "",
		"educationalorganization": "EDUCATION", "collegeoruniversity": "EDUCATION/UNIVERSITIES",
		"elementaryschool": "EDUCATION/SCHOOLS", "highschool": "EDUCATION/SCHOOLS", "middleschool": "EDUCATION/SCHOOLS",
		"preschool": "EDUCATION/EARLY_CHILDHOOD", "school": "EDUCATION/SCHOOLS",
		"fundingscheme": "NON_PROFIT/FOUNDATIONS", "governmentorganization": "GOVERNMENT",
		"libarysystem": "GOVERNMENT", "librarysystem": "GOVERNMENT",
		"medicalorganization": "HEALTHCARE", "diagnosticlab": "HEALTHCARE", "hospital": "HEALTHCARE/HOSPITALS_CLINICS",
		"medicalclinic": "HEALTHCARE/HOSPITALS_CLINICS", "pharmacy": "PHARMACEUTICALS/PHARMACIES", "physician": "HEALTHCARE/HOSPITALS_CLINICS",
		"veterinarycare": "HEALTHCARE/VETERINARY", "dentist": "HEALTHCARE/DENTAL", "optician": "MEDICAL_DEVICES/HEARING_VISION",
		"physiotherapy": "HEALTHCARE/PHYSIOTHERAPY", "covidtestingfacility": "HEALTHCARE",
		"newsmediaorganization": "MEDIA_ENTERTAINMENT/NEWS", "ngo": "NON_PROFIT", "nonprofit": "NON_PROFIT",
		"performinggroup": "MEDIA_ENTERTAINMENT/ARTS_CULTURE", "dancegroup": "MEDIA_ENTERTAINMENT/ARTS_CULTURE",
		"musicgroup": "MEDIA_ENTERTAINMENT/MUSIC", "theatergroup": "MEDIA_ENTERTAINMENT/ARTS_CULTURE",
		"politicalparty": "NON_PROFIT/ASSOCIATIONS", "researchorganization": "",
		"searchrescueorganization": "GOVERNMENT/PUBLIC_SAFETY", "sportsorganization": "NON_PROFIT/ASSOCIATIONS",
		"sportsteam": "MEDIA_ENTERTAINMENT", "workersunion": "NON_PROFIT/ASSOCIATIONS",
		"insuranceagency": "INSURANCE/INSURANCE_BROKERS", "travelagency": "TRAVEL/TRAVEL_AGENCIES",
		"employmentagency": "STAFFING_RECRUITING/RECRUITMENT_AGENCIES", "realestateagent": "REAL_ESTATE/RESIDENTIAL_AGENCY",
		"placeofworship": "NON_PROFIT/RELIGIOUS", "church": "NON_PROFIT/RELIGIOUS", "catholicchurch": "NON_PROFIT/RELIGIOUS",
		"mosque": "NON_PROFIT/RELIGIOUS", "synagogue": "NON_PROFIT/RELIGIOUS", "hindutemple": "NON_PROFIT/RELIGIOUS",
		"buddhisttemple": "NON_PROFIT/RELIGIOUS",
		// LocalBusiness subclasses
		"animalshelter": "NON_PROFIT/CHARITIES", "archiveorganization": "MEDIA_ENTERTAINMENT/ARTS_CULTURE",
		"automotivebusiness": "AUTOMOTIVE", "autobodyshop": "AUTOMOTIVE/REPAIR_SERVICE", "autodealer": "AUTOMOTIVE/CAR_DEALERS",
		"autopartsstore": "AUTOMOTIVE/AUTO_PARTS", "autorental": "TRAVEL/CAR_RENTAL", "autorepair": "AUTOMOTIVE/REPAIR_SERVICE",
		"autowash": "AUTOMOTIVE/REPAIR_SERVICE", "gasstation": "ENERGY/OIL_GAS", "motorcycledealer": "AUTOMOTIVE/CAR_DEALERS",
		"motorcyclerepair": "AUTOMOTIVE/REPAIR_SERVICE",
		"childcare":        "EDUCATION/EARLY_CHILDHOOD", "drycleaningorlaundry": "PERSONAL_SERVICES/CLEANING",
		"emergencyservice": "GOVERNMENT/PUBLIC_SAFETY", "firestation": "GOVERNMENT/PUBLIC_SAFETY", "policestation": "GOVERNMENT/PUBLIC_SAFETY",
		"employmentagencybusiness": "STAFFING_RECRUITING",
		"entertainmentbusiness":    "MEDIA_ENTERTAINMENT", "adultentertainment": "MEDIA_ENTERTAINMENT", "amusementpark": "MEDIA_ENTERTAINMENT/EVENTS",
		"artgallery": "MEDIA_ENTERTAINMENT/ARTS_CULTURE", "casino": "MEDIA_ENTERTAINMENT", "comedyclub": "MEDIA_ENTERTAINMENT/EVENTS",
		"movietheater": "MEDIA_ENTERTAINMENT/FILM_TV", "nightclub": "HOSPITALITY/BARS_CAFES",
		"financialservice": "FINANCIAL_SERVICES", "accountingservice": "FINANCIAL_SERVICES/ACCOUNTING_TAX",
		"automatedteller": "BANKING/RETAIL_BANKING", "bankorcreditunion": "BANKING", "bank": "BANKING", "creditunion": "BANKING/RETAIL_BANKING",
		"foodestablishment": "HOSPITALITY/RESTAURANTS", "bakery": "FOOD_BEVERAGE/BAKERY", "barorpub": "HOSPITALITY/BARS_CAFES",
		"brewery": "FOOD_BEVERAGE/BREWERY_WINERY", "cafeorcoffeeshop": "HOSPITALITY/BARS_CAFES", "distillery": "FOOD_BEVERAGE/BREWERY_WINERY",
		"fastfoodrestaurant": "HOSPITALITY/RESTAURANTS", "icecreamshop": "HOSPITALITY/BARS_CAFES", "restaurant": "HOSPITALITY/RESTAURANTS",
		"winery": "FOOD_BEVERAGE/BREWERY_WINERY", "menu": "HOSPITALITY/RESTAURANTS",
		"governmentoffice": "GOVERNMENT", "postoffice": "GOVERNMENT",
		"healthandbeautybusiness": "PERSONAL_SERVICES/HAIR_BEAUTY", "beautysalon": "PERSONAL_SERVICES/HAIR_BEAUTY",
		"dayspa": "PERSONAL_SERVICES/HAIR_BEAUTY", "hairsalon": "PERSONAL_SERVICES/HAIR_BEAUTY", "healthclub": "PERSONAL_SERVICES/FITNESS",
		"nailsalon": "PERSONAL_SERVICES/HAIR_BEAUTY", "tattooparlor": "PERSONAL_SERVICES/HAIR_BEAUTY",
		"homeandconstructionbusiness": "CONSTRUCTION/TRADES", "electrician": "CONSTRUCTION/TRADES", "generalcontractor": "CONSTRUCTION",
		"hvacbusiness": "ENERGY/HEAT_PUMPS", "housepainter": "CONSTRUCTION/TRADES", "locksmith": "CONSTRUCTION/TRADES",
		"movingcompany": "LOGISTICS/REMOVALS", "plumber": "CONSTRUCTION/TRADES", "roofingcontractor": "CONSTRUCTION/TRADES",
		"internetcafe": "HOSPITALITY/BARS_CAFES",
		"legalservice": "LEGAL_SERVICES", "attorney": "LEGAL_SERVICES/LAW_FIRMS", "notary": "LEGAL_SERVICES/NOTARIES",
		"library":         "GOVERNMENT",
		"lodgingbusiness": "HOSPITALITY", "bedandbreakfast": "HOSPITALITY/HOTELS", "campground": "HOSPITALITY/HOLIDAY_RENTALS",
		"hostel": "HOSPITALITY/HOTELS", "hotel": "HOSPITALITY/HOTELS", "motel": "HOSPITALITY/HOTELS", "resort": "HOSPITALITY/HOTELS",
		"skiresort": "HOSPITALITY/HOTELS", "vacationrental": "HOSPITALITY/HOLIDAY_RENTALS", "lodgingreservation": "HOSPITALITY/HOTELS",
		"medicalbusiness": "HEALTHCARE", "medicalspecialty": "HEALTHCARE",
		"professionalservice": "", "radiostation": "MEDIA_ENTERTAINMENT", "televisionstation": "MEDIA_ENTERTAINMENT/FILM_TV",
		"recyclingcenter": "ENVIRONMENTAL_SERVICES/RECYCLING", "selfstorage": "LOGISTICS/WAREHOUSING_FULFILLMENT",
		"shoppingcenter":         "REAL_ESTATE/COMMERCIAL_PROPERTY",
		"sportsactivitylocation": "PERSONAL_SERVICES/FITNESS", "bowlingalley": "MEDIA_ENTERTAINMENT/EVENTS",
		"exercisegym": "PERSONAL_SERVICES/FITNESS", "golfcourse": "PERSONAL_SERVICES/FITNESS", "publicswimmingpool": "PERSONAL_SERVICES/FITNESS",
		"sportsclub": "PERSONAL_SERVICES/FITNESS", "stadiumorarena": "MEDIA_ENTERTAINMENT/EVENTS", "tenniscomplex": "PERSONAL_SERVICES/FITNESS",
		"store": "RETAIL", "bikestore": "RETAIL/SPORTING_GOODS", "bookstore": "RETAIL/BOOKS_STATIONERY", "clothingstore": "RETAIL/FASHION_APPAREL",
		"computerstore": "RETAIL/ELECTRONICS_STORES", "conveniencestore": "RETAIL/GROCERY_SUPERMARKETS", "departmentstore": "RETAIL",
		"electronicsstore": "RETAIL/ELECTRONICS_STORES", "florist": "RETAIL/DIY_GARDEN", "furniturestore": "RETAIL/HOME_FURNITURE",
		"gardenstore": "RETAIL/DIY_GARDEN", "grocerystore": "RETAIL/GROCERY_SUPERMARKETS", "hardwarestore": "RETAIL/DIY_GARDEN",
		"hobbyshop": "RETAIL", "homegoodsstore": "RETAIL/HOME_FURNITURE", "jewelrystore": "CONSUMER_GOODS/JEWELRY",
		"liquorstore": "RETAIL", "mensclothingstore": "RETAIL/FASHION_APPAREL", "mobilephonestore": "RETAIL/ELECTRONICS_STORES",
		"movierentalstore": "RETAIL", "musicstore": "RETAIL", "officeequipmentstore": "RETAIL", "outletstore": "RETAIL",
		"pawnshop": "RETAIL", "petstore": "RETAIL", "shoestore": "RETAIL/FASHION_APPAREL", "sportinggoodsstore": "RETAIL/SPORTING_GOODS",
		"tireshop": "AUTOMOTIVE/AUTO_PARTS", "toystore": "RETAIL", "wholesalestore": "RETAIL",
		"touristinformationcenter": "TRAVEL", "touristtrip": "TRAVEL/TOUR_OPERATORS", "touristattraction": "TRAVEL",
		"realestatelisting": "REAL_ESTATE/RESIDENTIAL_AGENCY", "apartmentcomplex": "REAL_ESTATE",
		"farm": "AGRICULTURE/FARMING", "museum": "MEDIA_ENTERTAINMENT/ARTS_CULTURE", "musicvenue": "MEDIA_ENTERTAINMENT/MUSIC",
		"softwareapplication": "SOFTWARE", "webapplication": "SAAS", "mobileapplication": "SOFTWARE/MOBILE_APPS",
		"videogame": "MEDIA_ENTERTAINMENT/VIDEO_GAMES", "course": "EDUCATION", "educationaloccupationalprogram": "EDUCATION",
		"jobposting": "", "newsarticle": "", "product": "", "offer": "", "service": "",
		// Open Graph types (og:type) that name a business
		"restaurant.restaurant": "HOSPITALITY/RESTAURANTS", "restaurant.menu": "HOSPITALITY/RESTAURANTS",
		"music.song": "MEDIA_ENTERTAINMENT/MUSIC", "music.album": "MEDIA_ENTERTAINMENT/MUSIC",
		"video.movie": "MEDIA_ENTERTAINMENT/FILM_TV", "video.tv_show": "MEDIA_ENTERTAINMENT/FILM_TV", "books.book": "MEDIA_ENTERTAINMENT/PUBLISHING",
	}
})

// schemaType returns the taxonomy value a declared type states, or "" when it states
// none. It accepts full IRIs (https://schema.org/Dentist), prefixed names
// (schema:Dentist) and bare names, in any case.
func schemaType(t string) string {
	t = strings.TrimSpace(t)
	if i := strings.LastIndexAny(t, "/#:"); i >= 0 && !strings.Contains(t[i:], ".") {
		t = t[i+1:]
	} else if i := strings.LastIndex(t, "/"); i >= 0 {
		t = t[i+1:]
	}
	return schemaTypes()[strings.ToLower(t)]
}
