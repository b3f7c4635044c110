package namematch

import "strings"

// legalList holds legal forms as Normalize sees them after folding, punctuation and
// initials ("S.p.A." is "spa", "S. de R.L. de C.V." is "s de rl de cv", "Sp. z o.o."
// is "sp zoo", "GmbH & Co. KG" is "gmbh co kg"). Forms are stripped from the end of a
// name repeatedly, so combinations need no entry of their own.
var legalList = []string{
	// English-speaking countries
	"inc", "incorporated", "corp", "corporation", "co", "company", "cos", "llc", "l l c", "llp", "lllp", "lp",
	"pllc", "pc", "pa", "ltd", "limited", "plc", "public limited company", "pty", "pty ltd", "proprietary limited",
	"pvt", "pvt ltd", "private limited", "pte", "pte ltd", "ulc", "dac", "clg", "uc", "cic", "nl", "na", "fsb",
	"co ltd", "ltd co", "company limited", "unlimited", "lc", "chtd", "chartered",
	// legal forms written out
	"aktiengesellschaft", "gesellschaft mit beschrankter haftung", "kommanditgesellschaft", "societe anonyme",
	"societe par actions simplifiee", "societe a responsabilite limitee", "sociedad anonima", "sociedad limitada",
	"societa per azioni", "societa a responsabilita limitata", "sociedade anonima", "naamloze vennootschap",
	"besloten vennootschap", "aktiebolag", "aktieselskab", "aksjeselskap", "osakeyhtio", "spolka akcyjna",
	// German-speaking countries
	"gmbh", "mbh", "gesmbh", "ag", "kg", "kgaa", "ohg", "gbr", "ug", "ug haftungsbeschrankt", "haftungsbeschrankt",
	"ev", "eg", "ek", "ekfm", "partg", "partgmbb", "se", "stiftung",
	// French-, Italian-, Spanish-, Portuguese-speaking countries, Benelux
	"sa", "sas", "sasu", "sarl", "eurl", "snc", "scs", "sca", "sci", "selarl", "scop", "gie", "cie", "et cie",
	"spa", "srl", "srls", "sapa", "sas", "ss", "scarl", "scrl", "onlus",
	"sl", "slu", "sll", "sau", "scoop", "cia", "y cia", "sa de cv", "sab de cv", "sapi de cv", "s de rl de cv",
	"s de rl", "de cv", "sc", "ac", "ltda", "lda", "me", "epp", "eireli", "sa nv", "nv sa",
	"bv", "nv", "vof", "cv", "bvba", "cvba", "sprl", "asbl", "vzw", "cooperatie ua", "ua",
	// Nordic and Baltic countries
	"ab", "ab publ", "publ", "hb", "kb", "as", "asa", "aps", "is", "amba", "oy", "oyj", "ky", "ehf", "hf", "sf", "ou",
	"sia", "uab",
	// Central and Eastern Europe
	"sp zoo", "spzoo", "sa", "sk", "spj", "sro", "spol sro", "vos", "doo", "dd", "ad", "ead", "ood", "eood",
	"kft", "zrt", "nyrt", "bt", "sa rl", "srl", "ooo", "zao", "oao", "pao", "ao", "tov", "pp", "jsc", "ojsc", "cjsc", "pjsc",
	// Asia, Middle East, Africa
	"kk", "kabushiki kaisha", "gk", "godo kaisha", "yk", "yugen kaisha", "jusik hoesa", "sdn bhd", "bhd", "berhad",
	"tbk", "pt tbk", "pcl", "wll", "spc", "fzc", "fze", "fz llc", "llc fz", "saog", "saoc", "sal", "pjs", "bsc",
	"ltd sti", "as", "sti", "nig ltd",
}

// legalAffixes are legal forms written without a space (CJK scripts), longest first.
var legalAffixes = []string{"股份有限公司", "有限责任公司", "有限責任公司", "株式会社", "有限会社", "合同会社", "合資会社",
	"合名会社", "有限公司", "股份公司", "주식회사", "유한회사"}

// legalPrefixList are legal forms written before the name (PT Astra, OOO Romashka).
var legalPrefixList = []string{"pt", "cv", "ooo", "zao", "oao", "pao", "tov", "pp", "ud", "ооо", "зао", "оао", "пао", "ао", "ип", "тов"}

var (
	legalForms     = set(legalList)
	legalPrefixes  = set(legalPrefixList)
	maxLegalTokens = func() int {
		n := 0
		for _, f := range legalList {
			n = max(n, len(strings.Fields(f)))
		}
		return n
	}()
)

// abbreviations maps an abbreviation or a variant spelling to the one word Normalize
// writes for it (non-strict matching only). Both sides of a comparison go through it,
// so "Intl Mfg Svcs" and "International Manufacturing Services" are the same name, as
// are "Technologies" and "Tech". The entries are common business abbreviations; ones
// with several readings (ind, res, sci, co) are left out.
var abbreviations = expandTable(map[string][]string{
	"international":      {"intl", "internatl", "internat", "intnl"},
	"national":           {"natl", "nat"},
	"corporation":        {"corpn"},
	"manufacturing":      {"mfg", "mfng", "manuf", "manufact"},
	"manufacturers":      {"mfrs", "mfr", "manufacturer"},
	"technology":         {"tech", "techn", "technol", "techs", "technologies", "technologie", "technologien"},
	"services":           {"svcs", "svc", "srvcs", "srvc", "servs", "serv", "service"},
	"associates":         {"assoc", "assocs", "assoc's", "asso", "associate"},
	"association":        {"assn", "assns"},
	"brothers":           {"bros", "bro", "brother"},
	"group":              {"grp", "grps", "groups"},
	"holdings":           {"hldgs", "hldg", "hldngs", "holding"},
	"management":         {"mgmt", "mgt", "mngmt", "mngt"},
	"systems":            {"sys", "syst", "systs", "system"},
	"center":             {"ctr", "cntr", "centre", "centres", "centers"},
	"department":         {"dept", "dpt"},
	"development":        {"dev", "devel", "devt"},
	"engineering":        {"eng", "engg", "engr", "engrg", "engin"},
	"financial":          {"fin", "finl", "fncl"},
	"insurance":          {"ins", "insur"},
	"laboratories":       {"lab", "labs", "laboratory", "labo", "labor"},
	"medical":            {"med"},
	"products":           {"prod", "prods", "product"},
	"pharmaceuticals":    {"pharm", "pharma", "pharmaceutical", "pharms"},
	"university":         {"univ"},
	"industries":         {"inds", "indus", "industry", "industrial"},
	"electric":           {"elec", "elect", "electrical"},
	"solutions":          {"sol", "soln", "solns", "sols", "solution"},
	"communications":     {"comm", "comms", "commun", "communication"},
	"enterprises":        {"ent", "ents", "enterprise", "entps"},
	"distribution":       {"dist", "distr", "distrib", "distributors", "distributor"},
	"american":           {"amer"},
	"marketing":          {"mktg", "mkt"},
	"partners":           {"ptnrs", "ptrs", "prtnrs", "partner", "ptnr"},
	"consulting":         {"consult", "cnslt", "consultants", "consultant", "consultancy"},
	"construction":       {"constr", "constrn", "constructions"},
	"properties":         {"props", "prop", "property", "ppty", "pptys"},
	"investments":        {"invest", "invst", "investment"},
	"general":            {"gen", "genl"},
	"government":         {"govt", "gov"},
	"hospital":           {"hosp"},
	"institute":          {"inst", "instit"},
	"power":              {"pwr"},
	"realty":             {"rlty"},
	"transport":          {"transp", "transportation"},
	"warehouse":          {"whse", "whs"},
	"mount":              {"mt"},
	"fort":               {"ft"},
	"academy":            {"acad"},
	"chemicals":          {"chem", "chemical"},
	"electronics":        {"elecs", "electronic"},
	"equipment":          {"equip", "eqpt"},
	"federal":            {"fed"},
	"health":             {"hlth"},
	"information":        {"info"},
	"professional":       {"prof"},
	"telecommunications": {"telecom", "telecomm", "telecoms"},
	"logistics":          {"logistic"},
	"networks":           {"network", "ntwks"},
	"gebruder":           {"gebr"},
	"compagnie":          {"cie"},
	"software":           {"sw"},
	"capital":            {"cap"},
	"resources":          {"rsrcs"},
	"research":           {"rsrch"},
	"securities":         {"secs"},
})

// stopwords carry little weight in a comparison and are skipped in acronyms.
var stopwords = set([]string{"of", "the", "for", "at", "in", "on", "de", "la", "le", "les", "du", "des", "der", "die",
	"das", "den", "dem", "von", "van", "vom", "zum", "zur", "del", "di", "da", "do", "dos", "della", "delle", "dei",
	"degli", "al", "el", "los", "las", "a", "i", "o"})

// generic are words many company names share (industries, sectors and "group" in the
// languages of Firmo's data): they count half as much as a distinctive word, so
// "Smith Software" and "Smith Logistics" are not near-equal names. Listed in the form
// Normalize writes (folded, abbreviations expanded).
var generic = set([]string{
	// English (canonical forms of the abbreviation table included)
	"international", "national", "global", "worldwide", "corporation", "manufacturing", "manufacturers", "technology",
	"services", "associates", "association", "brothers", "group", "holdings", "management", "systems", "center",
	"development", "engineering", "financial", "finance", "insurance", "laboratories", "medical", "products",
	"pharmaceuticals", "industries", "electric", "solutions", "communications", "enterprises", "distribution",
	"marketing", "partners", "consulting", "construction", "properties", "investments", "general", "realty",
	"transport", "logistics", "networks", "software", "capital", "resources", "research", "digital", "labs",
	"health", "healthcare", "care", "clinic", "store", "stores", "shop", "goods", "market", "markets", "works",
	"freight", "cargo", "estates", "homes", "education", "learning", "school", "academy", "institute", "hotel",
	"hotels", "hospitality", "inn", "resort", "resorts", "law", "legal", "attorneys", "lawyers", "builders",
	"building", "contractors", "media", "creative", "agency", "wealth", "it", "bank", "trading", "energy",
	"company", "trust", "studio", "design", "foods", "food", "retail", "supply", "consultants", "advisors",
	"ventures", "innovations", "labs", "data", "cloud", "online", "web", "net", "express", "plus", "pro",
	// German
	"gruppe", "holding", "technik", "systemhaus", "netzwerke", "finanz", "vermogen", "gesundheit", "praxis",
	"medizin", "pflege", "handel", "markt", "warenhaus", "maschinenbau", "metallbau", "werke", "werk", "logistik",
	"spedition", "transporte", "immobilien", "wohnbau", "haus", "grund", "akademie", "bildung", "institut",
	"schule", "gasthof", "gastronomie", "rechtsanwalte", "kanzlei", "recht", "bau", "bauunternehmen", "hochbau",
	"bauwerk", "kreativ", "agentur", "beratung", "dienstleistungen", "verwaltung", "service",
	// French
	"groupe", "logiciels", "systemes", "informatique", "reseaux", "conseil", "patrimoine", "sante", "medical",
	"clinique", "soins", "boutique", "maison", "marche", "commerce", "industrie", "mecanique", "usinage",
	"ateliers", "logistique", "transports", "fret", "immobilier", "habitat", "foncier", "residences", "academie",
	"formation", "ecole", "auberge", "hotellerie", "avocats", "cabinet", "juridique", "associes", "batiment",
	"travaux", "btp", "creation", "agence",
	// Spanish and Portuguese
	"grupo", "sistemas", "informatica", "tecnologia", "redes", "soluciones", "finanzas", "patrimonio",
	"asesores", "salud", "clinica", "medica", "cuidados", "tienda", "hogar", "mercado", "comercial", "industrias",
	"mecanizados", "ingenieria", "talleres", "logistica", "cargas", "envios", "inmobiliaria", "viviendas",
	"propiedades", "hogares", "instituto", "escuela", "posada", "hosteleria", "abogados", "bufete", "asociados",
	"construcciones", "obras", "edificacion", "constructora", "creativos", "agencia", "servicios", "solucoes",
	"financas", "investimentos", "saude", "loja", "casa", "comercio", "metalomecanica", "engenharia", "fabrica",
	"expresso", "imobiliaria", "habitacao", "imoveis", "lar", "formacao", "escola", "hotelaria", "advogados",
	"sociedade", "juridico", "construcoes", "edificacoes", "construtora", "criativa", "servicos", "consultoria",
	// Italian
	"gruppo", "digitale", "sistemi", "tecnologie", "reti", "soluzioni", "finanza", "capitali", "patrimoni",
	"consulenza", "salute", "cura", "negozio", "mercato", "commercio", "officine", "meccanica", "lavorazioni",
	"trasporti", "spedizioni", "immobiliare", "case", "abitare", "residenze", "accademia", "formazione",
	"istituto", "scuola", "locanda", "ospitalita", "avvocati", "studio", "legale", "associati", "costruzioni",
	"edilizia", "cantieri", "impresa", "creativa", "agenzia", "servizi",
	// Dutch
	"groep", "digitaal", "ict", "automatisering", "netwerken", "diensten", "kapitaal", "advies", "zorg",
	"gezondheid", "medisch", "kliniek", "winkel", "wonen", "techniek", "fabrieken", "metaal", "logistiek",
	"vracht", "expeditie", "makelaardij", "vastgoed", "huizen", "academie", "opleidingen", "instituut",
	"herberg", "horeca", "advocaten", "advocatenkantoor", "juridisch", "bouw", "bouwbedrijf", "aannemers",
	"bouwgroep", "creatief", "bureau",
})

func set(list []string) map[string]bool {
	m := make(map[string]bool, len(list))
	for _, s := range list {
		m[s] = true
	}
	return m
}

func expandTable(canon map[string][]string) map[string]string {
	m := map[string]string{}
	for word, variants := range canon {
		for _, v := range variants {
			m[v] = word
		}
	}
	return m
}

// tokenWeight is how much a token counts in a comparison: 1 for a distinctive word,
// 0.5 for a generic one, 0.25 for a stopword.
func tokenWeight(t string) float64 {
	switch {
	case stopwords[t]:
		return 0.25
	case generic[t]:
		return 0.5
	}
	return 1
}
