package title

import (
	"sort"
	"strings"
	"sync"
)

// The dictionary. Every entry is written in normalized form (see Normalize) and is one of:
//
//	"sales manager"  whole words, matched as a contiguous phrase
//	"financ*"        a word starting with the stem
//	"*leiter"        a word ending with the stem (German compounds put the head noun last)
//	"*vertrieb*"     a word containing the stem ("Vertriebsleiter", "Innenvertrieb")
//
// Stems exist for German compounds and for the many inflections of Romance nouns
// (abogado/abogada, developpeur/developpeuse); English is matched by whole words.

// Department cue weights. The strongest cue wins; equal weights go to the earliest word.
// The scale encodes which word names the function when a title has several:
// "Sales Operations Manager" is Sales, "IT Consultant" is Pro Services.
const (
	wPhrase     = 100 // a phrase that names the function outright ("customer success")
	wProfession = 90  // a profession that overrides its subject ("consultant", "lawyer")
	wFunction   = 85  // sales, marketing and HR words, which win over what they sell or serve
	wDomain     = 80  // the core words of a function ("finance", "medical", "software")
	wField      = 70  // broader field words ("engineer", "research", "data")
	wHint       = 60  // words that usually, not always, mean the function
	wWeak       = 50
	wGeneric    = 40 // words that qualify another function ("operations", "support", "assistant")
	wLeadership = 30 // general-management words: Executive unless a function is named
)

// deptGroup is a set of cues for one department at one weight.
type deptGroup struct {
	dept   string
	weight int
	cues   []string
}

var departmentCues = []deptGroup{
	// Phrases that settle the department on their own, including the ones that defeat
	// a misleading word inside them ("personal assistant" is not HR, "support engineer"
	// is not Technology, "market research" is not R&D).
	{SalesMarketing, wPhrase, []string{
		"business development", "business developer", "business developers", "desarrollo de negocio",
		"desarrollo de negocios", "account executive", "account executives", "account manager",
		"account management", "account director", "key account", "key accounts", "strategic account",
		"strategic accounts", "enterprise account", "enterprise accounts", "major account",
		"major accounts", "national account", "national accounts", "global account", "global accounts",
		"demand generation", "demand gen", "lead generation", "lead gen", "social media", "media buyer",
		"market research", "*marktforsch*", "solutions consultant", "solution consultant",
		"sales consultant", "sales advisor", "*verkaufsberat*", "conseiller commercial",
		"conseillere commerciale", "brand ambassador", "art director", "charge d affaires",
		"chargee d affaires", "ingenieur d affaires", "ejecutivo de cuentas", "ejecutiva de cuentas",
		"gerente de cuentas", "cuentas clave", "partner manager", "partner marketing", "channel partner",
		"sales associate", "store associate", "retail associate", "real estate agent", "estate agent",
		"real estate broker", "realtor", "asesor comercial", "asesora comercial", "consultor comercial",
		"consultora comercial", "conseiller de vente", "conseillere de vente", "media planner",
	}},
	{SalesMarketing, wFunction, []string{
		"sales", "*marketing*", "*vertrieb*", "*verkauf*", "*aussendienst*", "*einzelhandel*", "vente",
		"ventes", "venta", "ventas", "commercial", "commerciale", "commerciaux", "comercial", "comerciales",
		"vendedor", "vendedora", "vendeur", "vendeuse", "mercadeo", "mercadotecnia", "presales",
		"pre sales", "sdr", "bdr",
	}},
	{SalesMarketing, wField, []string{
		"brand", "branding", "growth", "advertis*", "publicidad", "publicite", "copywrit*", "seo", "sem",
		"ppc", "ecommerce", "e commerce", "merchandis*", "partnership", "partnerships", "alliances", "channel",
		"territory", "makler*", "*immobilienmakler*", "agent immobilier", "agente inmobiliario",
	}},
	{SalesMarketing, wHint, []string{
		"content", "creative", "graphic", "event", "events", "campaign", "campaigns", "pricing", "revenue",
		"market", "retail",
	}},
	{SalesMarketing, wWeak, []string{"account", "representative", "representatives", "rep", "reps", "community"}},

	{Technology, wPhrase, []string{
		"system administrator", "systems administrator", "database administrator", "network administrator",
		"*systemadmin*", "business analyst", "business analysts", "business intelligence",
		"solution architect", "solutions architect", "enterprise architect", "technical architect",
		"it architect", "software architect", "cloud architect", "data architect", "data scientist",
		"data science", "cientifico de datos", "cientifica de datos", "product owner", "product designer",
		"product manager", "product management", "help desk", "helpdesk", "systemes d information",
		"systeme d information", "dsi", "service desk",
	}},
	{Technology, wDomain, []string{
		"*software*", "developer", "developers", "*entwickler*", "developpeu*", "desarrollador*",
		"programmer", "programmers", "*programmier*", "programador*", "programmeu*", "it", "ict", "edv",
		"devops", "sre", "site reliability", "frontend", "front end", "backend", "back end", "full stack",
		"fullstack", "ios", "android", "scrum", "machine learning", "ml", "ai", "artificial intelligence",
		"deep learning", "nlp", "infosec", "cybersecurity", "cyber", "dba", "logiciel", "logiciels",
		"*informati*", "salesforce", "webmaster",
	}},
	{Technology, wField, []string{
		"engineer*", "*ingenieu*", "ingenier*", "technolog*", "tecnolog*", "tech", "computer", "data",
		"datos", "donnees", "daten*", "analytics", "bi", "cloud", "network", "networks", "*netzwerk*",
		"reseau", "reseaux", "redes", "database", "*datenbank*", "web", "ux", "ui", "user experience",
		"product", "*produktmanag*", "agile", "qa", "tester", "testing", "sap", "erp", "blockchain",
		"sistemas", "eng", "engg", "desktop", "*konstrukt*", "java", "python", "javascript", "typescript", "php",
		"ruby", "golang", "sql", "linux", "unix", "kubernetes", "aws", "azure", "gcp", "mainframe", "cobol",
		"robotics",
	}},
	{Technology, wHint, []string{"security", "systems", "system", "systemes", "mobile", "automation"}},
	{Technology, wWeak, []string{"digital", "technical", "technique", "technischer", "technische"}},

	{Finance, wPhrase, []string{
		"accounts payable", "accounts receivable", "fp and a", "internal audit", "internal auditor",
		"internal auditors", "auditor interno", "auditora interna", "auditoria interna", "audit interne",
		"auditeur interne", "auditrice interne", "interne revision", "personal banker", "expert comptable",
		"equity research", "investment banking", "daf", "*bankkauf*", "kaufmannischer leiter",
		"kaufmannische leiterin", "kaufmannische leitung", "m and a",
	}},
	{Finance, wDomain, []string{
		"financ*", "*finanz*", "accountant", "accountants", "accounting", "*buchhalt*", "*rechnungswesen*",
		"comptab*", "contab*", "contador", "contadora", "*controll*", "controleur", "controleuse", "treasur*",
		"tresor*", "tesorer*", "tax", "bookkeep*", "actuar*", "comptroller",
	}},
	{Finance, wField, []string{
		"steuer*", "billing", "invoic*", "loan", "loans", "underwrit*", "investment", "investments", "credit",
		"banker", "banking", "bank", "portfolio", "wealth", "fiscal", "fiscaliste", "teller", "valuation",
	}},
	{Finance, wHint, []string{
		"risk", "collections", "insurance", "*versicherung*", "claims", "fund", "funds", "equity",
	}},
	{Finance, wWeak, []string{"accounts"}},

	{HumanResources, wPhrase, []string{
		"human resources", "human resource", "ressources humaines", "recursos humanos", "rr hh",
		"learning and development", "l and d", "talent acquisition", "employee relations", "drh",
		"personalberat*", "personalentw*", "recruitment consultant", "recruitment consultants",
		"recruiting consultant", "total rewards", "labor relations", "labour relations",
	}},
	{HumanResources, wProfession, []string{"lohn*", "gehalt*"}},
	{HumanResources, wFunction, []string{
		"hr", "hrbp", "hris", "rh", "rrh", "rrhh", "people", "talent", "recrut*", "recruit*", "reclut*",
		"headhunter", "payroll", "paie", "nomina", "nominas", "compensation", "benefits", "reward", "rewards",
		"personnel",
		"personal", "personalref*", "personalleit*", "personalsach*", "personalabt*", "personalwes*",
		"personalmanag*", "personaldisp*", "personalchef*", "personaladmin*", "personalfach*",
		"personalbetreu*", "personalplan*", "personalmarket*",
	}},
	{HumanResources, wField, []string{"training", "trainer", "onboarding", "employee", "workforce", "diversity"}},

	{Legal, wPhrase, []string{
		"data protection", "*datenschutz*", "intellectual property", "asesor juridico", "asesora juridica",
		"conseiller juridique", "conseillere juridique", "legal advisor", "legal adviser", "legal consultant",
		"*rechtsberat*", "general counsel",
	}},
	{Legal, wProfession, []string{
		"lawyer", "lawyers", "attorney", "attorneys", "counsel", "paralegal", "paralegals", "solicitor",
		"barrister", "litigation", "litigator", "notar*", "jurist*", "jurid*", "avocat*", "abogad*",
		"*anwalt*", "justiziar*", "justitiar*",
	}},
	{Legal, wDomain, []string{"legal", "compliance", "privacy", "patent*", "trademark", "recht", "rechts*"}},
	{Legal, wField, []string{"contract", "contracts"}},
	{Legal, wHint, []string{"regulatory"}},

	{MedicalScience, wPhrase, []string{"clinical research"}},
	{MedicalScience, wDomain, []string{
		"*medic*", "*medizin*", "medecin*", "clinic*", "cliniq*", "klini*", "nurs*", "infirmi*", "enfermer*",
		"*krankenschwester*", "*pfleger*", "*pflegerin*", "pflege*", "physician*", "doctor", "doctors", "surgeon", "surgeons", "surgical", "*chirurg*",
		"cirujan*", "*arzt*", "pharmac*", "farmac*", "*apothek*", "dentist*", "dental", "veterin*",
		"*therap*", "*terapeut*", "psycholog*", "psicolog*", "*epidemiolog*", "*radiolog*", "*patholog*",
		"*cardiolog*", "*kardiolog*", "*oncolog*", "*onkolog*", "*neurolog*", "midwife", "hebamme",
		"sage femme", "matrona", "physio*", "optometr*", "optician*", "*optiker*", "anest*", "anaest*",
		"*anasthes*", "psychiatr*", "psiquiatr*", "pediatr*", "paediatr*", "*padiatr*", "radiograph*",
		"sonograph*", "obstetric*", "geriatr*", "internist*", "dietitian*", "dietician*", "nutritionist*",
		"phlebotom*", "emt", "caregiver*", "care assistant", "care worker", "carer",
	}},
	{MedicalScience, wField, []string{
		"chemist*", "chimist*", "quimic*", "*chemiker*", "*biolog*", "biotech*", "laborator*", "*laborant*",
		"lab", "labs", "labor", "laborleit*", "hospital", "hopital", "*krankenhaus*", "patient*",
	}},
	// Whoever practises an "-ology" is a physician or a scientist (but not a technologist,
	// which the heavier Technology stem claims).
	{MedicalScience, wHint, []string{
		"scien*", "cientific*", "*wissenschaft*", "*ologist", "*ologists", "*ologe", "*ologin", "*ologo",
		"*ologa", "*ologue", "practitioner", "practitioners",
	}},
	{MedicalScience, wWeak, []string{"health*", "sante", "salud", "*gesundheit*"}},

	{ResearchDevelopment, wPhrase, []string{
		"research and development", "r and d", "rnd", "f and e", "i plus d", "wissenschaftlicher mitarbeiter",
		"wissenschaftliche mitarbeiterin", "wissenschaftlicher mitarbeiterin",
	}},
	{ResearchDevelopment, wField, []string{
		"research*", "recherche", "chercheu*", "*forsch*", "investiga*", "postdoc*", "doktorand*",
		"doctorant*", "doctorand*", "phd",
	}},
	{ResearchDevelopment, wHint, []string{"innova*", "entwicklung"}},

	{CustomerService, wPhrase, []string{
		"customer service", "customer services", "customer support", "customer success", "customer care",
		"customer experience", "customer relations", "customer advisor", "client service", "client services",
		"client success", "call center", "call centre", "contact center", "contact centre", "technical support",
		"tech support", "support engineer", "support engineers", "service client", "service clients",
		"relation client", "relation clients", "relations clients", "conseiller clientele",
		"conseillere clientele", "charge de clientele", "chargee de clientele", "*teleconseil*",
		"atencion al cliente", "servicio al cliente", "soporte tecnico", "experiencia del cliente",
		"guest relations", "guest services",
	}},
	{CustomerService, 95, []string{ // above the Pro Services "berat" stem: a Kundenberater serves customers
		"*kundendienst*", "*kundenservice*", "*kundenbetreu*", "*kundensupport*", "*kundenberat*",
		"*kundenbeziehung*",
	}},
	{CustomerService, wHint, []string{"customer", "customers", "cliente", "clientes", "clientele"}},
	{CustomerService, wWeak, []string{"client", "clients"}},
	{CustomerService, wGeneric, []string{"support", "soporte"}},

	{Administration, wPhrase, []string{
		"executive assistant", "personal assistant", "administrative assistant", "administration assistant",
		"admin assistant", "virtual assistant", "office manager", "office administrator", "data entry",
		"front desk", "assistant de direction", "assistante de direction", "asistente de direccion",
		"secretaire de direction", "secretaire medicale", "secretaria medica",
	}},
	{Administration, wHint, []string{
		"secretar*", "secretaire", "*sekretar*", "reception*", "recepcion*", "*empfang*", "accueil",
		"standardiste", "*verwaltung*", "buro*", "pa",
	}},
	{Administration, wWeak, []string{"administrativ*", "administratif"}},
	{Administration, wGeneric, []string{
		"assistant*", "*assistent*", "asistente", "auxiliar", "office", "administration", "administracion",
		"administrator", "administrateur", "admin", "clerk", "*sachbearbeit*", "*kaufmann*", "*kauffrau*",
	}},

	{PublicRelations, wPhrase, []string{
		"public relations", "media relations", "press relations", "public affairs", "corporate affairs",
		"relations presse", "relations publiques", "relaciones publicas", "porte parole", "attache de presse",
		"attachee de presse",
	}},
	{PublicRelations, wProfession, []string{"spokesperson", "spokesman", "spokeswoman", "portavoz"}},
	{PublicRelations, wDomain, []string{
		"pr", "communications", "communication", "comms", "comunicacion", "comunicaciones",
		"*kommunikation*", "press", "*presse*", "prensa", "*offentlichkeitsarbeit*",
	}},

	{InvestorRelations, wPhrase, []string{
		"investor relations", "relations investisseurs", "relation investisseurs", "relaciones con inversores",
		"relacion con inversores", "relaciones con inversionistas", "relacion con inversionistas",
	}},
	{InvestorRelations, wDomain, []string{"ir"}},

	{ProServices, wPhrase, []string{"professional services", "commissaire aux comptes", "engagement manager"}},
	{ProServices, wProfession, []string{
		"consult*", "advisor", "advisors", "adviser", "advisory", "asesor*", "conseill*", "conseil", "*berat*",
		"*wirtschaftsprufer*",
	}},
	{ProServices, wDomain, []string{"audit*"}},
	{ProServices, wField, []string{"implementation"}},

	{Operations, wPhrase, []string{
		"supply chain", "cadena de suministro", "chaine logistique", "health and safety", "process engineer",
		"manufacturing engineer", "production engineer", "field service", "demand planner", "demand planning",
	}},
	{Operations, wField, []string{
		"*logisti*", "supply", "usine", "magasinier*", "*werksleit*", "procurement", "purchasing", "buyer", "buyers", "*einkauf*", "achat", "achats", "acheteu*",
		"compras", "comprador", "compradora", "manufacturing", "*fertigung*", "fabrication", "fabricacion",
		"production", "*produktion*", "produccion", "warehouse", "lager*", "almacen*", "entrepot", "forklift",
		"fleet", "dispatch*", "disponent*", "inventory", "ehs", "hse",
	}},
	{Operations, wHint, []string{
		"quality", "qualite", "calidad", "*qualitat*", "plant", "maintenance", "mantenimiento",
		"*instandhaltung*", "facility", "facilities", "transport*", "shipping", "driver", "drivers", "*fahrer",
		"*fahrerin", "chauffeur", "operario", "operaria", "ouvrier", "ouvriere", "atelier", "construction",
		"safety", "lean", "six sigma", "continuous improvement", "pmo", "*betriebsleit*", "planta", "*mechaniker*",
		"mechanic", "mechanics", "foreman", "forewoman", "packer", "picker", "assembler*", "assembly", "monteur*",
	}},
	{Operations, wWeak, []string{
		"operator", "operators", "conductor", "workshop", "inspector", "exploitation", "planner", "planning",
		"site", "scheduler", "estimator", "laborer", "laborers", "labourer", "labourers", "janitor", "custodian", "cleaner", "housekeeping", "reinigung*",
	}},
	{Operations, wGeneric, []string{
		"operations", "operation", "operational", "ops", "operaciones", "project", "projects", "projet",
		"projets", "proyecto", "proyectos", "*projekt*", "program", "programme", "process", "technician",
		"technicians", "technicien", "technicienne", "*techniker*",
	}},

	// Leadership words carry no function of their own: the department is Executive
	// only when nothing in the title names a function ("Geschäftsführer Vertrieb" is Sales).
	{Executive, wPhrase, []string{"owner operator"}},
	{Executive, wLeadership, []string{
		"founder*", "cofounder*", "co founder", "co founders", "fondat*", "cofondat*", "co fondateur", "co fondatrice",
		"fundador*", "cofundador*", "co fundador", "co fundadora", "*grunder*", "owner", "owners", "*inhaber*",
		"proprietaire", "propietari*", "dueno", "duena", "president", "presidente", "presidenta",
		"*prasident*", "managing director", "general manager", "gerente general", "director general",
		"directora general", "directeur general", "directrice generale", "president directeur general",
		"consejero delegado", "consejera delegada", "pdg", "dg", "dga", "*geschaftsfuhr*", "*geschaeftsfuehr*",
		"*geschaftsleit*", "*geschaeftsleit*", "*vorstand*", "*gesellschafter*", "managing partner", "partner",
		"partners", "associe", "associee", "socio", "socia", "chairman", "chairwoman", "chairperson", "chair",
		"board", "*aufsichtsrat*", "executive director", "gerant", "gerante", "entrepreneur", "unternehmer",
		"unternehmerin", "emprendedor", "emprendedora", "strategy", "strategie", "estrategia",
	}},

	// Education and trades have no department of their own; naming them keeps their
	// incidental words ("Teaching Assistant") from pulling the title into another one.
	{Other, wPhrase, []string{"personal trainer", "security guard"}},
	{Other, wHint, []string{
		"teacher*", "teaching", "*lehrer*", "professeur*", "profesor*", "professor*", "enseignant*",
		"docente", "tutor", "lecturer",
	}},

	// Phrases that carry no department and hide the misleading word inside them.
	{"", wPhrase, []string{
		"assistant manager", "assistant director", "assistant vice president", "business partner",
		"business partners", "head hunter",
	}},
}

// Seniority ranks, ordered so that the highest cue in a title wins
// ("Senior Manager" is a manager, "Assistant Director" a director).
type rank int

const (
	rankNone rank = iota
	rankEntry
	rankMid
	rankSenior
	rankManager
	rankDirector
	rankVP
	rankExecutive
)

var rankNames = [...]string{
	rankNone: "", rankEntry: EntryLevel, rankMid: MidLevel, rankSenior: SeniorIC, rankManager: Manager,
	rankDirector: Director, rankVP: VP, rankExecutive: ExecutiveLevel,
}

type rankGroup struct {
	rank rank
	cues []string
}

var rankCues = []rankGroup{
	{rankExecutive, []string{
		"chief executive", "founder*", "cofounder*", "co founder", "co founders", "fondat*", "cofondat*",
		"co fondateur", "co fondatrice", "fundador*", "cofundador*", "co fundador", "co fundadora", "*grunder*", "owner", "owners", "*inhaber*",
		"proprietaire", "propietari*", "dueno", "duena", "president", "presidente", "presidenta",
		"*prasident*", "managing director", "managing partner", "general manager", "gerente general",
		"director general", "directora general", "directeur general", "directrice generale",
		"president directeur general", "director gerente", "consejero delegado", "consejera delegada", "pdg",
		"dg", "dga", "*geschaftsfuhr*", "*geschaeftsfuehr*", "*geschaftsleitung", "*geschaftsleiter",
		"*geschaftsleiterin", "*geschaeftsleitung", "*vorstand*", "*gesellschafter*", "partner", "associe",
		"associee", "socio", "socia", "chairman", "chairwoman", "chairperson", "chair", "board member",
		"board members", "board of directors", "member of the board", "*aufsichtsrat*", "executive director",
		"executive chairman", "gerant", "gerante", "entrepreneur", "unternehmer", "unternehmerin",
		"emprendedor", "emprendedora", "general counsel",
	}},
	{rankVP, []string{
		"vp", "svp", "evp", "avp", "vice president", "vicepresident", "vice presidente", "vice presidenta",
		"vicepresidente", "vicepresidenta", "*vizeprasident*", "executive vice president",
		"senior vice president", "assistant vice president",
	}},
	{rankDirector, []string{
		"director", "directors", "directora", "directeur", "directrice", "direktor", "direktorin", "dir",
		"head", "jefe", "jefa", "subdirector", "subdirectora", "*leiter", "*leiterin", "*leitung",
		"*chefarzt", "*chefarztin", "chief of staff", "drh", "daf", "dsi", "associate general counsel",
		"deputy general counsel", "assistant general counsel", "chef de service", "cheffe de service",
		"chef de departement", "cheffe de departement", "chef de pole", "cheffe de pole",
	}},
	{rankManager, []string{
		"manager", "managers", "*manager", "*managerin", "mgr", "gerente", "gerenta", "responsable",
		"supervisor", "supervisora", "superviseur", "superviseuse", "encargado", "encargada", "subgerente",
		"team lead", "team leader", "teamlead", "*teamleiter", "*teamleiterin", "*gruppenleiter",
		"*gruppenleiterin", "*projektleiter", "*projektleiterin", "*schichtleiter", "*schichtleiterin",
		"*filialleiter", "*filialleiterin", "*bauleiter", "*bauleiterin", "chef de", "chef d", "cheffe de",
		"cheffe d", "jefe de proyecto", "jefa de proyecto", "jefe de proyectos", "jefa de proyectos",
		"jefe de equipo", "jefa de equipo", "jefe de turno", "jefa de turno", "jefe de obra", "jefa de obra",
		"assistant manager", "partner manager", "group leader", "group lead", "foreman", "forewoman",
		"*vorarbeiter", "*vorarbeiterin", "capataz", "contremaitre", "superintendent",
	}},
	{rankSenior, []string{
		"senior", "sr", "snr", "lead", "principal", "tech lead", "technical lead", "staff engineer",
		"staff software", "staff data", "staff scientist", "staff product", "staff designer", "staff developer",
		"staff machine", "staff ml", "staff research", "staff researcher", "staff security", "staff backend",
		"staff frontend", "staff site", "staff platform", "staff infrastructure", "*oberarzt", "*oberarztin",
		"confirme", "confirmee", "distinguished",
	}},
	{rankEntry, []string{
		"junior", "jr", "jnr", "assistant*", "*assistent", "*assistentin", "*assistenz*", "asistente", "auxiliar",
		"graduate", "receptionist", "receptionniste", "recepcionista", "entry level", "sales associate",
		"store associate", "retail associate", "warehouse associate", "pa", "*empfang*", "resident", "residente",
	}},
	// Words that look like a rank but are not one here: an Account Executive is not an
	// executive, a Product Owner owns no company, an HR Business Partner is no partner.
	{rankNone, []string{
		"account executive", "account executives", "business partner", "business partners", "channel partner",
		"partner marketing", "partner account", "partner success", "partner sales", "partner development",
		"partner solutions", "partner enablement", "partner relations", "partner program", "partner operations",
		"partner engineer", "product owner", "process owner", "service owner", "data owner", "system owner",
		"content owner", "lead generation", "lead gen", "head hunter", "expert comptable", "people partner",
		"talent partner", "hr partner", "finance partner", "learning partner", "recruiting partner",
		"recruitment partner", "acquisition partner",
	}},
}

// traineeCues mark people in training. They outrank everything else in the title:
// an "Intern, Office of the CEO" is an intern.
var traineeCues = []string{
	"intern", "interns", "internship", "trainee", "trainees", "apprenti*", "*praktikant*", "*werkstudent*",
	"auszubildend*", "azubi", "stagiaire", "stagiaires", "alternant", "alternante", "becari*", "practicante",
	"pasante", "student", "students", "etudiant", "etudiante", "estudiante", "doktorand*", "doctorant*",
	"doctorand*", "phd candidate",
}

// role is one C-suite position: its acronym (empty when it has none that is safe to
// use), its spelled-out forms and the department of its function.
type role struct {
	acronym string
	forms   []string
	dept    string
}

// csuite is the table of C-suite roles. An acronym shared by several roles lists the
// most common one first; that one decides the department of the bare acronym.
// Decisions: CPO is the Chief Product Officer (Chief People and Chief Privacy Officers
// have no acronym here); CCO is the Chief Commercial Officer and also the Chief Customer
// Officer; CSO covers strategy, security, sales and science; CIO, CMO, CRO and CAO
// have a second reading (investment, medical, risk, accounting).
var csuite = []role{
	{"ceo", []string{"chief executive officer"}, Executive},
	{"coo", []string{"chief operating officer", "chief operations officer"}, Operations},
	{"cfo", []string{"chief financial officer", "chief finance officer"}, Finance},
	{"cto", []string{"chief technology officer", "chief technical officer"}, Technology},
	{"cio", []string{"chief information officer"}, Technology},
	{"cio", []string{"chief investment officer"}, Finance},
	{"ciso", []string{"chief information security officer"}, Technology},
	{"cmo", []string{"chief marketing officer"}, SalesMarketing},
	{"cmo", []string{"chief medical officer"}, MedicalScience},
	{"cro", []string{"chief revenue officer"}, SalesMarketing},
	{"cro", []string{"chief risk officer"}, Finance},
	{"cpo", []string{"chief product officer"}, Technology},
	{"chro", []string{"chief human resources officer", "chief human resource officer"}, HumanResources},
	{"cco", []string{"chief commercial officer"}, SalesMarketing},
	{"cco", []string{"chief customer officer"}, CustomerService},
	{"cdo", []string{"chief data officer"}, Technology},
	{"cdo", []string{"chief digital officer"}, Technology},
	{"cso", []string{"chief strategy officer"}, Executive},
	{"cso", []string{"chief security officer"}, Technology},
	{"cso", []string{"chief sales officer"}, SalesMarketing},
	{"cso", []string{"chief scientific officer", "chief science officer"}, ResearchDevelopment},
	{"clo", []string{"chief legal officer"}, Legal},
	{"cao", []string{"chief administrative officer", "chief administration officer"}, Administration},
	{"cao", []string{"chief accounting officer"}, Finance},
	{"cbo", []string{"chief business officer"}, SalesMarketing},
	{"cgo", []string{"chief growth officer"}, SalesMarketing},
	{"cno", []string{"chief nursing officer"}, MedicalScience},
	{"", []string{"chief people officer"}, HumanResources},
	{"", []string{"chief talent officer"}, HumanResources},
	{"", []string{"chief privacy officer"}, Legal},
	{"", []string{"chief compliance officer"}, Legal},
	{"", []string{"chief communications officer", "chief communication officer"}, PublicRelations},
}

// rankRoles are the vice-president ranks. They are not C-suite roles, but a search for
// "VP" that missed "Vice President" would surprise, so the matcher expands them too.
var rankRoles = []role{
	{"vp", []string{"vice president"}, ""},
	{"svp", []string{"senior vice president"}, ""},
	{"evp", []string{"executive vice president"}, ""},
	{"avp", []string{"assistant vice president"}, ""},
}

type matchKind uint8

const (
	matchWords  matchKind = iota // a phrase of whole words
	matchPrefix                  // "stem*"
	matchSuffix                  // "*stem"
	matchInfix                   // "*stem*"
)

// cue is one compiled dictionary entry.
type cue struct {
	words  []string // for matchWords
	stem   string   // for the stem kinds
	kind   matchKind
	dept   string
	weight int
	rank   rank
}

// lexicon indexes cues for scanning a title word by word.
type lexicon struct {
	phrases map[string][]*cue // by first word, longest phrase first
	stems   []*cue
}

// index is everything the classifier and the matcher look up, compiled once on first
// use from the tables above. It is never modified after it is built.
type index struct {
	dept    lexicon
	rank    lexicon
	trainee lexicon
	// byAcronym and byForm drive acronym expansion in queries.
	byAcronym map[string][]*role
	byForm    map[string]*role
	formFirst map[string][][]string // spelled-out forms by first word, longest first
}

var compiled = sync.OnceValue(buildIndex)

func buildIndex() *index {
	ix := &index{byAcronym: map[string][]*role{}, byForm: map[string]*role{}, formFirst: map[string][][]string{}}
	var dept, rk, tr []*cue
	for _, g := range append(append(append(departmentCues[:len(departmentCues):len(departmentCues)], moreDepartmentCues...), trainDepartmentCues...), i18nDepartmentCues...) {
		for _, s := range g.cues {
			dept = append(dept, parseCue(s, g.dept, g.weight, rankNone))
		}
	}
	for i := range csuite {
		r := &csuite[i]
		for _, f := range r.forms {
			dept = append(dept, parseCue(f, r.dept, wPhrase, rankNone))
		}
		if r.acronym != "" && len(ix.byAcronym[r.acronym]) == 0 {
			// The first role listed under an acronym decides the bare acronym's department.
			dept = append(dept, parseCue(r.acronym, r.dept, wPhrase, rankNone))
			rk = append(rk, parseCue(r.acronym, "", 0, rankExecutive))
		}
		ix.addRole(r)
	}
	for i := range rankRoles {
		ix.addRole(&rankRoles[i])
	}
	for _, forms := range ix.formFirst {
		sort.SliceStable(forms, func(i, j int) bool { return len(forms[i]) > len(forms[j]) })
	}
	for _, g := range append(append(append(rankCues[:len(rankCues):len(rankCues)], moreRankCues...), trainRankCues...), i18nRankCues...) {
		for _, s := range g.cues {
			rk = append(rk, parseCue(s, "", 0, g.rank))
		}
	}
	for _, s := range append(append(traineeCues[:len(traineeCues):len(traineeCues)], trainTraineeCues...), i18nTraineeCues...) {
		tr = append(tr, parseCue(s, "", 0, rankEntry))
	}
	ix.dept, ix.rank, ix.trainee = newLexicon(dept), newLexicon(rk), newLexicon(tr)
	return ix
}

func (ix *index) addRole(r *role) {
	if r.acronym != "" {
		ix.byAcronym[r.acronym] = append(ix.byAcronym[r.acronym], r)
	}
	for _, f := range r.forms {
		ix.byForm[f] = r
		words := strings.Fields(f)
		ix.formFirst[words[0]] = append(ix.formFirst[words[0]], words)
	}
}

func parseCue(s, dept string, weight int, r rank) *cue {
	c := &cue{dept: dept, weight: weight, rank: r}
	lead, trail := strings.HasPrefix(s, "*"), strings.HasSuffix(s, "*")
	switch {
	case lead && trail:
		c.kind, c.stem = matchInfix, s[1:len(s)-1]
	case lead:
		c.kind, c.stem = matchSuffix, s[1:]
	case trail:
		c.kind, c.stem = matchPrefix, s[:len(s)-1]
	default:
		c.kind, c.words = matchWords, strings.Fields(s)
	}
	return c
}

func newLexicon(cues []*cue) lexicon {
	lx := lexicon{phrases: map[string][]*cue{}}
	for _, c := range cues {
		if c.kind == matchWords {
			lx.phrases[c.words[0]] = append(lx.phrases[c.words[0]], c)
		} else {
			lx.stems = append(lx.stems, c)
		}
	}
	for _, list := range lx.phrases {
		sort.SliceStable(list, func(i, j int) bool { return len(list[i].words) > len(list[j].words) })
	}
	return lx
}

// phraseAt returns the longest phrase cue that matches toks at position i.
func (lx *lexicon) phraseAt(toks []string, i int) *cue {
	for _, c := range lx.phrases[toks[i]] {
		if hasPhraseAt(toks, i, c.words) {
			return c
		}
	}
	return nil
}

// stemEnd reports where a stem cue ends inside word, or -1 when it does not match.
func (c *cue) stemEnd(word string) int {
	switch c.kind {
	case matchPrefix:
		if strings.HasPrefix(word, c.stem) {
			return len(c.stem)
		}
	case matchSuffix:
		if strings.HasSuffix(word, c.stem) {
			return len(word)
		}
	case matchInfix:
		if i := strings.LastIndex(word, c.stem); i >= 0 {
			return i + len(c.stem)
		}
	}
	return -1
}

func hasPhraseAt(toks []string, i int, words []string) bool {
	if i+len(words) > len(toks) {
		return false
	}
	for k, w := range words {
		if toks[i+k] != w {
			return false
		}
	}
	return true
}

// containsPhrase reports whether words occur contiguously in toks.
func containsPhrase(toks, words []string) bool {
	for i := range toks {
		if toks[i] == words[0] && hasPhraseAt(toks, i, words) {
			return true
		}
	}
	return false
}
