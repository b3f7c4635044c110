package world

// country is how companies of one country look: the language of their sites (by city
// where a country has several), domain endings and legal forms.
type country struct {
	Code     string
	Weight   int               // relative share of companies
	Lang     string            // the main language
	CityLang map[string]string // city name -> language, where it differs
	TLDs     []string          // weighted by repetition
	Legal    []string          // legal forms, weighted by repetition
	Mail     []mxWeight        // mail providers, weighted
}

type mxWeight struct {
	kind   mxKind
	weight int
}

// mailCommon is the provider mix most countries share; local hosters are added per
// country.
var mailCommon = []mxWeight{{mxGoogle, 32}, {mxMicrosoft, 30}, {mxProofpoint, 3}, {mxMimecast, 3}, {mxZoho, 2}, {mxSelfHosted, 5}, {mxNullMX, 3}, {mxNoRecords, 2}, {mxServFail, 1}}

func withLocal(local ...mxWeight) []mxWeight {
	return append(append([]mxWeight(nil), mailCommon...), local...)
}

var countries = []country{
	{Code: "US", Weight: 24, Lang: "en", TLDs: []string{"com", "com", "com", "com", "io", "co", "us"}, Legal: []string{"Inc.", "Inc.", "LLC", "LLC", "Corp."}, Mail: withLocal(mxWeight{mxGoDaddy, 4})},
	{Code: "GB", Weight: 8, Lang: "en", TLDs: []string{"co.uk", "co.uk", "co.uk", "com", "uk"}, Legal: []string{"Ltd", "Ltd", "Ltd", "PLC", "LLP"}, Mail: withLocal(mxWeight{mxGoDaddy, 2})},
	{Code: "IE", Weight: 2, Lang: "en", TLDs: []string{"ie", "ie", "com"}, Legal: []string{"Ltd", "Ltd", "DAC"}, Mail: mailCommon},
	{Code: "CA", Weight: 3, Lang: "en", CityLang: map[string]string{"Montreal": "fr"}, TLDs: []string{"ca", "ca", "com"}, Legal: []string{"Inc.", "Ltd.", "Corp."}, Mail: mailCommon},
	{Code: "AU", Weight: 3, Lang: "en", TLDs: []string{"com.au", "com.au", "com"}, Legal: []string{"Pty Ltd", "Pty Ltd", "Ltd"}, Mail: mailCommon},
	{Code: "DE", Weight: 12, Lang: "de", TLDs: []string{"de", "de", "de", "de", "com", "eu"}, Legal: []string{"GmbH", "GmbH", "GmbH", "AG", "GmbH & Co. KG", "KG"}, Mail: withLocal(mxWeight{mxIONOS, 8}, mxWeight{mxStrato, 5})},
	{Code: "AT", Weight: 3, Lang: "de", TLDs: []string{"at", "at", "co.at", "com"}, Legal: []string{"GmbH", "GmbH", "AG", "KG"}, Mail: withLocal(mxWeight{mxIONOS, 3})},
	{Code: "CH", Weight: 3, Lang: "de", CityLang: map[string]string{"Genève": "fr"}, TLDs: []string{"ch", "ch", "ch", "com"}, Legal: []string{"AG", "GmbH", "SA", "Sàrl"}, Mail: mailCommon},
	{Code: "FR", Weight: 9, Lang: "fr", TLDs: []string{"fr", "fr", "fr", "com", "eu"}, Legal: []string{"SAS", "SAS", "SARL", "SA"}, Mail: withLocal(mxWeight{mxOVH, 10})},
	{Code: "BE", Weight: 3, Lang: "fr", CityLang: map[string]string{"Antwerpen": "nl", "Gent": "nl"}, TLDs: []string{"be", "be", "com", "eu"}, Legal: []string{"SRL", "SA", "BV", "NV"}, Mail: withLocal(mxWeight{mxOVH, 3})},
	{Code: "ES", Weight: 7, Lang: "es", TLDs: []string{"es", "es", "es", "com"}, Legal: []string{"S.L.", "S.L.", "S.L.", "S.A."}, Mail: withLocal(mxWeight{mxOVH, 2})},
	{Code: "MX", Weight: 3, Lang: "es", TLDs: []string{"com.mx", "com.mx", "mx", "com"}, Legal: []string{"S.A. de C.V.", "S.A. de C.V.", "S. de R.L. de C.V."}, Mail: withLocal(mxWeight{mxGoDaddy, 3})},
	{Code: "PT", Weight: 3, Lang: "pt", TLDs: []string{"pt", "pt", "com"}, Legal: []string{"Lda.", "Lda.", "S.A."}, Mail: mailCommon},
	{Code: "BR", Weight: 5, Lang: "pt", TLDs: []string{"com.br", "com.br", "com.br", "com"}, Legal: []string{"Ltda.", "Ltda.", "S.A."}, Mail: withLocal(mxWeight{mxGoDaddy, 2})},
	{Code: "IT", Weight: 7, Lang: "it", TLDs: []string{"it", "it", "it", "com", "eu"}, Legal: []string{"S.r.l.", "S.r.l.", "S.r.l.", "S.p.A."}, Mail: withLocal(mxWeight{mxOVH, 2})},
	{Code: "NL", Weight: 6, Lang: "nl", TLDs: []string{"nl", "nl", "nl", "com", "eu"}, Legal: []string{"B.V.", "B.V.", "B.V.", "N.V."}, Mail: withLocal(mxWeight{mxIONOS, 2})},
}

// Industries are the true industries the world writes text for (uppercase enum values;
// the pipeline's classifier has to find them from the text).
var Industries = []string{
	"SOFTWARE", "IT_SERVICES", "FINANCIAL_SERVICES", "HEALTHCARE", "RETAIL", "MANUFACTURING",
	"LOGISTICS", "REAL_ESTATE", "EDUCATION", "HOSPITALITY", "LEGAL_SERVICES", "CONSTRUCTION",
	"MARKETING_ADVERTISING",
}

// models are the business models each industry's companies have, weighted.
var models = map[string][]string{
	"SOFTWARE":              {"B2B", "B2B", "B2B", "B2C"},
	"IT_SERVICES":           {"B2B", "B2B", "B2B", "B2G"},
	"FINANCIAL_SERVICES":    {"B2B", "B2C", "B2C"},
	"HEALTHCARE":            {"B2C", "B2C", "B2C", "B2G"},
	"RETAIL":                {"B2C", "B2C", "D2C", "D2C"},
	"MANUFACTURING":         {"B2B", "B2B", "B2B", "B2G"},
	"LOGISTICS":             {"B2B", "B2B", "B2B", "B2C"},
	"REAL_ESTATE":           {"B2C", "B2C", "B2B"},
	"EDUCATION":             {"B2C", "B2C", "B2B", "B2G"},
	"HOSPITALITY":           {"B2C", "B2C", "B2C", "B2B"},
	"LEGAL_SERVICES":        {"B2B", "B2B", "B2C"},
	"CONSTRUCTION":          {"B2B", "B2C", "B2G", "B2G"},
	"MARKETING_ADVERTISING": {"B2B", "B2B", "B2B", "B2G"},
}

// subdomainsOf are the hosts besides the apex and www that an industry's companies run.
var subdomainsOf = map[string][]string{
	"SOFTWARE":              {"app", "api", "docs", "status", "blog", "auth", "dashboard"},
	"IT_SERVICES":           {"portal", "support", "remote", "vpn", "mail"},
	"FINANCIAL_SERVICES":    {"portal", "login", "clients", "secure"},
	"HEALTHCARE":            {"termine", "portal", "booking"},
	"RETAIL":                {"shop", "cdn", "images", "checkout", "m"},
	"MANUFACTURING":         {"portal", "shop", "b2b", "mail"},
	"LOGISTICS":             {"tracking", "portal", "edi", "api"},
	"REAL_ESTATE":           {"listings", "portal", "blog"},
	"EDUCATION":             {"learn", "moodle", "portal", "shop"},
	"HOSPITALITY":           {"booking", "events", "blog"},
	"LEGAL_SERVICES":        {"portal", "mail"},
	"CONSTRUCTION":          {"portal", "projects", "mail"},
	"MARKETING_ADVERTISING": {"blog", "clients", "staging", "cdn"},
}

// vendor is a third-party service a site embeds, by the script or frame URL it loads.
type vendor struct {
	url    string
	weight int      // percent of companies that embed it
	boost  []string // industries that use it three times as often
}

var vendors = []vendor{
	{"https://www.googletagmanager.com/gtag/js?id=G-%s", 55, nil},
	{"https://js.hs-scripts.com/%s.js", 12, []string{"SOFTWARE", "MARKETING_ADVERTISING", "IT_SERVICES"}},
	{"https://widget.intercom.io/widget/%s", 6, []string{"SOFTWARE"}},
	{"https://js.stripe.com/v3/", 6, []string{"SOFTWARE", "RETAIL"}},
	{"https://cdn.segment.com/analytics.js/v1/%s/analytics.min.js", 4, []string{"SOFTWARE"}},
	{"https://static.hotjar.com/c/hotjar-%s.js", 10, []string{"RETAIL", "MARKETING_ADVERTISING"}},
	{"https://consent.cookiebot.com/uc.js?cbid=%s", 18, nil},
	{"https://cdn.shopify.com/s/files/1/%s/theme.js", 5, []string{"RETAIL"}},
	{"https://code.jquery.com/jquery-3.7.1.min.js", 20, nil},
	{"https://cdnjs.cloudflare.com/ajax/libs/lodash.js/4.17.21/lodash.min.js", 8, nil},
	{"https://static.zdassets.com/ekr/snippet.js?key=%s", 5, []string{"SOFTWARE", "IT_SERVICES"}},
	{"https://use.typekit.net/%s.js", 7, []string{"MARKETING_ADVERTISING"}},
	{"https://player.vimeo.com/api/player.js", 4, []string{"MARKETING_ADVERTISING", "HOSPITALITY"}},
	{"https://www.youtube.com/embed/%s", 8, []string{"EDUCATION", "HOSPITALITY"}},
	{"https://maps.googleapis.com/maps/api/js?key=%s", 10, []string{"REAL_ESTATE", "HOSPITALITY", "HEALTHCARE"}},
	{"https://www.booking.com/affiliate/%s.js", 2, []string{"HOSPITALITY"}},
	{"https://app.doctolib.fr/widget/%s.js", 2, []string{"HEALTHCARE"}},
}
