package title

// Everyday job vocabulary for Portuguese (Portugal and Brazil), Italian and Dutch, and
// the gaps the same pass found in French, Spanish, German and English.
//
// Where the words come from: the English (and German) cue lists of lexicon.go, taken
// department by department and rank by rank and translated from general knowledge of
// how jobs are named in each language: job nouns in both genders, the function words
// (purchasing, payroll, compliance, warehouse ...) and the rank words (intern, head,
// founder, board member ...). They were written without reading testdata/holdout3.tsv
// or the misses TestHoldout3 logs; ACCURACY.md says what that measurement is worth now.
//
// Compounds: Dutch glues words together the way German does ("magazijnmedewerker",
// "kwaliteitsmanager", "afdelingshoofd"), so function words that head or start
// compounds are "*stem*" infix cues and rank words that end them are "*stem" suffix
// cues, read by headStem exactly as the German "-leiter" ones are. Same notation and
// weights as lexicon.go; buildIndex adds these tables last, so on equal weight and
// length an older cue keeps its reading.

var i18nDepartmentCues = []deptGroup{
	// Sales - Marketing.
	{SalesMarketing, wPhrase, []string{
		"desenvolvimento de negocios", "desenvolvimento de negocio", "desenvolvimento comercial",
		"sviluppo commerciale", "sviluppo business", "gerente de contas", "grandes contas", "contas chave",
		"grands comptes", "grandes cuentas", "grandi clienti", "clienti chiave", "pesquisa de mercado",
		"estudos de mercado", "estudo de mercado", "ricerche di mercato", "ricerca di mercato", "*marktonderzoek*",
		"etudes de marche", "etude de marche", "investigacion de mercados", "estudios de mercado",
		"consultor de vendas", "consultora de vendas", "consulente commerciale", "consulente vendite",
		"consulente di vendita", "diretor de arte", "diretora de arte", "director de arte", "directora de arte",
		"directeur artistique", "directrice artistique", "addetto vendite", "addetta vendite",
		"addetto alle vendite", "addetta alle vendite", "agente di commercio", "corretor de imoveis",
		"corretora de imoveis", "agente imobiliario", "agente imobiliaria", "agente immobiliare",
		"representante comercial", "representante de vendas", "pre vendas", "pre vendita", "avant vente",
		"preventa", "*makelaar*",
	}},
	{SalesMarketing, wFunction, []string{
		"venda", "vendita", "venditore", "venditrice", "venditori", "commesso", "commessa", "*verkoop*", "verkoper",
		"verkoopster", "salesmanager*", "salesmedewerker*", "salesdirect*", "salesadvis*", "salesconsult*",
		"marketer", "marketeer*",
	}},
	{SalesMarketing, wField, []string{
		"publicidade", "propaganda", "pubblicita", "*reclame*", "werbe*", "werbung", "tekstschrijver", "texter",
		"werbetexter", "redator publicitario", "redatora publicitaria", "redactor publicitario",
		"concepteur redacteur", "conceptrice redactrice", "comercio eletronico", "comercio electronico",
		"parcerias", "alianzas", "marca", "marcas", "marchio", "merk", "varejo", "retalho", "dettaglio",
		"*detailhandel*", "grande distribution",
	}},
	{SalesMarketing, wHint, []string{
		"conteudo", "conteudos", "contenuti", "contenidos", "contenu", "contenus", "criativo", "criativa",
		"creativo", "creativa", "creatief", "creatieve", "creatif", "grafico", "grafica", "graficos", "grafisch",
		"grafische", "graphiste", "graphique", "*grafiker*", "grafikdesign*", "eventos", "eventi",
		"*evenement*", "evenementiel", "evenements", "*veranstaltung*", "campanhas", "campanas", "campagne",
		"campagnes", "kampagne*", "precificacao", "tarification", "mercado", "mercato", "markt",
	}},
	{SalesMarketing, wWeak, []string{"representante", "rappresentante", "vertegenwoordiger*"}},

	// Technology.
	{Technology, wPhrase, []string{
		"administrador de sistemas", "administradora de sistemas", "administrador de redes",
		"administradora de redes", "administrador de base de dados", "administrador de banco de dados",
		"amministratore di sistema", "amministratore di sistemi", "amministratore di rete",
		"amministratore database", "*netwerkbeheer*", "*databasebeheer*", "*applicatiebeheer*",
		"analista de negocios", "analista de negocio", "analista funzionale", "business analist",
		"arquiteto de solucoes", "arquiteta de solucoes", "arquiteto de software", "arquiteta de software",
		"arquitecto de soluciones", "arquitecta de soluciones", "arquitecto de software",
		"arquitecta de software", "architetto software", "architetto del software", "architetto di soluzioni",
		"architecte solutions", "architecte solution", "architecte logiciel", "architecte technique",
		"architecte cloud", "architecte si", "cientista de dados", "*helpdesk*", "*servicedesk*",
		"sistemas de informacao", "sistemas de informacion", "sistemi informativi", "sistemi informatici",
		"*informatiesystem*", "functioneel beheer", "functioneel beheerder", "ufficio tecnico", "oficina tecnica",
		"bureau d etudes", "bureau d etude", "*datawetenschap*", "seguranca da informacao", "seguridad de la informacion",
		"seguridad informatica", "sicurezza informatica", "securite informatique",
	}},
	{Technology, wDomain, []string{
		"programmatore", "programmatrice", "programmatori", "sistemista", "sistemisti", "ti", "*webontwikkel*",
		"*webdevelop*", "*appontwikkel*", "ciberseguranca", "ciberseguridad", "cybersicherheit",
		"cybersecurite", "automatisering",
	}},
	{Technology, wField, []string{
		"engenhari*", "ingegner*", "dados", "dati", "reti", "*netwerk*", "test", "testes", "teste", "robotica",
		"robotique", "robotik", "webdesign*", "testmanag*", "testanalist*", "testautomat*", "testengineer*",
	}},
	{Technology, wHint, []string{
		"sistemi", "systemen", "automacao", "automazione", "automatizacion", "automatisation",
		"automatisierung",
	}},
	{Technology, wWeak, []string{"digitale", "digitaal", "numerique", "technisch"}},

	// Finance.
	{Finance, wPhrase, []string{
		"contas a pagar", "contas a receber", "cuentas por pagar", "cuentas a pagar", "cuentas por cobrar",
		"cuentas a cobrar", "*crediteuren*", "*debiteuren*", "*kreditor*", "*debitor*", "auditoria interna",
		"auditor interno", "auditora interna", "audit interno", "revisione interna", "revisore interno",
		"revisora interna", "interne audit", "interne auditor", "interne accountant", "fusoes e aquisicoes",
		"fusioni e acquisizioni", "fusiones y adquisiciones", "fusions et acquisitions", "controllo di gestione",
		"recupero crediti", "mercado de capitais", "mercados de capitais", "mercado de capitales",
		"mercati dei capitali", "mercati finanziari", "marches financiers", "capital markets",
	}},
	{Finance, wDomain, []string{
		"ragionier*", "controladori*", "tesourar*", "impostos", "impuestos", "imposte", "tributari*", "tributos",
		"fiscale", "fiscali", "fiscaal", "fiscalist*", "atuari*", "attuari*", "bilancio", "*belasting*",
	}},
	{Finance, wField, []string{
		"fatura*", "fattura*", "factur*", "*facturatie*", "fakturi*", "cobranca", "cobranza", "cobranzas",
		"incasso*", "recouvrement", "credito", "creditos", "krediet*", "investiment*", "inversion*",
		"investissement*", "belegging*", "bancari*", "bancaire", "bankier*", "carteira", "carteiras",
		"portafoglio", "portefeuille", "cartera", "patrimoni*", "patrimoine", "*vermogensbeh*",
	}},
	{Finance, wHint, []string{
		"risco", "riscos", "rischio", "rischi", "*risico*", "riesgo", "riesgos", "risque", "risques", "risiko*",
		"seguros", "seguradora", "assicura*", "*verzeker*", "sinistros", "sinistri",
		"siniestros", "sinistres", "*schadebehandel*", "schaden*", "fundos", "fondi", "fondsen", "fondos",
		"fonds",
	}},

	// Human Resources.
	{HumanResources, wPhrase, []string{
		"gestao de pessoas", "gestao de talentos", "departamento pessoal", "departamento de pessoal",
		"p and o", "personeel en organisatie", "aquisicao de talentos", "adquisicion de talento",
		"acquisizione talenti", "folha de pagamento", "processamento salarial", "paghe e contributi",
		"buste paga", "relacoes laborais", "relacoes trabalhistas", "relazioni industriali",
		"relaciones laborales", "relations sociales", "treinamento e desenvolvimento",
		"formacao e desenvolvimento",
	}},
	{HumanResources, wProfession, []string{"salari*", "paghe", "*vergutung*", "*verguetung*"}},
	{HumanResources, wFunction, []string{
		"hrm", "pessoas", "*werving*", "recrutamento", "recrutador*", "reclutamento", "selecao", "remunera*",
		"retribuzion*", "retribucion*", "compensacion", "beneficios", "*beloning*", "talento", "talentos",
		"talenti", "talenten", "personalgewinn*",
	}},
	{HumanResources, wField, []string{
		"formacao", "formazione", "treinamento", "formador", "formadora", "formateur", "formatrice",
		"formatore", "*opleiding*", "*weiterbildung*", "*schulung*", "ausbildungsleit*", "diversidade",
		"diversita", "diversiteit", "diversidad", "diversite", "vielfalt",
	}},

	// Legal.
	{Legal, wPhrase, []string{
		"protecao de dados", "protezione dei dati", "proteccion de datos", "protection des donnees",
		"*gegevensbescherm*", "propriedade intelectual", "proprieta intellettuale", "intellectueel eigendom",
		"propiedad intelectual", "propriete intellectuelle", "consultor juridico", "consultora juridica",
		"consultor legal", "consultora legal", "consulente legale", "asesor legal", "asesora legal",
		"cumplimiento normativo", "affari legali", "ufficio legale", "affari regolatori",
		"assuntos regulatorios", "asuntos regulatorios", "affaires reglementaires",
	}},
	{Legal, wProfession, []string{
		"*jurist*", "notai*", "procurador*", "contencioso", "contenzioso", "contentieux", "syndikus*",
		"giuridic*", "paralegale",
	}},
	{Legal, wDomain, []string{
		"dpo", "legale", "legali", "conformidade", "conformite", "conformita", "cumplimiento", "*compliance*",
		"*privacy*", "privacidade", "privacidad", "patentes", "brevett*", "brevets", "octrooi*",
	}},
	{Legal, wField, []string{
		"contratos", "contrato", "contratti", "contratto", "contrats", "contrat", "contracten", "contractbeheer*",
		"contractmanag*", "vertrag*",
	}},
	{Legal, wHint, []string{
		"regulatorio", "regulatoria", "regulatorios", "regolatorio", "regolatoria", "regolatori",
		"reglementaire", "regulatorisch*",
	}},

	// Medical - Science.
	{MedicalScience, wDomain, []string{
		"enfermeir*", "enfermag*", "infermier*", "*verpleeg*", "arts assistent", "arts in opleiding", "basisarts*",
		"jeugdarts*", "verzekeringsarts*", "sportarts*", "*tandarts*", "*dierenarts*",
		"*kinderarts*", "*bedrijfsarts*", "dokter*", "cirurgi*", "odontolog*", "odontoiatr*", "*mondhyg*",
		"*terapist*", "fysio*", "logoped*", "*patolog*", "parteira", "ostetric*", "*verloskund*", "ottico",
		"ottica", "opticien*", "oculist*", "psichiatr*", "nutricion*", "nutrizionist*", "dietist*", "dieteti*",
		"cuidador*", "badante", "*verzorg*", "operatore socio sanitario", "operatrice socio sanitaria",
		"aide soignant", "aide soignante", "auxiliaire de vie", "gerocultor*", "*geneeskund*", "*apotheek*",
	}},
	{MedicalScience, wField, []string{
		"chimic*", "chemicus", "*scheikund*", "laboratoire*", "ospedal*", "*ziekenhuis*", "pacient*",
		"pazient*",
	}},
	{MedicalScience, wHint, []string{"cientista*", "*wetenschap*", "*oloog"}},
	{MedicalScience, wWeak, []string{"saude", "sanita", "sanitari*", "salute", "*gezondheid*", "zorg*"}},

	// Research & Development.
	{ResearchDevelopment, wPhrase, []string{
		"pesquisa e desenvolvimento", "p and d", "investigacao e desenvolvimento", "i and d", "r and s",
		"onderzoek en ontwikkeling", "investigacion y desarrollo", "recherche et developpement",
		"wetenschappelijk medewerker", "wetenschappelijk onderzoeker",
	}},
	{ResearchDevelopment, wField, []string{
		"pesquisa*", "ricercat*", "*onderzoek*", "doutorand*", "dottorand*", "promovend*", "assegnista",
	}},
	{ResearchDevelopment, wHint, []string{"inova*", "ontwikkeling", "sviluppo", "desenvolvimento"}},

	// Customer Service.
	{CustomerService, wPhrase, []string{
		"atendimento ao cliente", "atendimento ao publico", "servico ao cliente", "servicos ao cliente",
		"sucesso do cliente", "experiencia do cliente", "suporte ao cliente", "relacionamento com clientes",
		"relacionamento com o cliente", "central de atendimento", "pos venda", "pos vendas", "post vendita",
		"apres vente", "after sales", "aftersales", "customer care", "suporte tecnico", "apoio tecnico",
		"supporto tecnico", "technische ondersteuning", "relazioni con i clienti", "servizio al cliente",
		"sac",
	}},
	{CustomerService, 95, []string{
		"*klantenzorg*", "*klantondersteun*", "*klantenondersteun*", "*klantenadvis*", "*klantrelatie*",
	}},
	{CustomerService, wHint, []string{"atendimento", "atendente", "atendentes"}},
	{CustomerService, wGeneric, []string{"suporte", "supporto", "assistenza", "ondersteuning"}},

	// Administration.
	{Administration, wPhrase, []string{
		"assistente executiva", "assistente executivo", "secretaria executiva", "secretario executivo",
		"assistente administrativa", "assistente administrativo", "assistente amministrativa",
		"assistente amministrativo", "assistente pessoal", "assistente personale", "asistente personal",
		"assistant personnel", "assistante personnelle", "persoonlijk assistent", "persoonlijk assistente",
		"segretaria di direzione", "segretario di direzione", "*baliemedewerk*",
	}},
	{Administration, wHint, []string{
		"*secretar*", "segretar*", "recepcao", "rececao", "*receptie*", "accoglienza", "telefonist*",
		"*kantoor*",
	}},
	{Administration, wWeak, []string{"amministrativ*"}},
	{Administration, wGeneric, []string{
		"*administrat*", "administracao", "amministrazione", "amministratore", "amministratrice",
		"impiegat*", "escriturari*", "ufficio", "escritorio",
	}},

	// Public Relations.
	{PublicRelations, wPhrase, []string{
		"relacoes publicas", "assessoria de imprensa", "relazioni pubbliche", "ufficio stampa", "addetto stampa",
		"addetta stampa", "porta voz", "relacoes institucionais", "relazioni istituzionali",
		"relaciones institucionales", "affari pubblici", "affari istituzionali", "asuntos publicos",
		"affaires publiques", "relazioni esterne", "relaciones externas", "relations exterieures",
	}},
	{PublicRelations, wProfession, []string{"*woordvoerder*", "portavoce", "*sprecher", "*sprecherin"}},
	{PublicRelations, wDomain, []string{"imprensa", "comunicacoes", "comunicazioni", "*voorlicht*"}},

	// Investor Relations.
	{InvestorRelations, wPhrase, []string{
		"relacao com investidores", "relacionamento com investidores", "relazioni con gli investitori",
		"relazioni con investitori", "relazioni investitori",
	}},
	{InvestorRelations, wDomain, []string{"ri"}},

	// Pro Services. "Assessor" (pt) is, like the Dutch "adviseur", as often an aide in a
	// named function as an adviser: any function named beside it wins.
	{ProServices, wPhrase, []string{
		"servicos profissionais", "servizi professionali", "servicios profesionales", "services professionnels",
		"revisor oficial de contas", "revisora oficial de contas", "*belastingadvis*",
	}},
	{ProServices, wProfession, []string{"consulenz*"}},
	{ProServices, wDomain, []string{"revisore", "revisori"}},
	{ProServices, wField, []string{"implementacao", "implantacao", "implementazione", "implementatie*", "implementacion"}},
	{ProServices, wWeak, []string{"assessor", "assessora", "assessores", "advies*"}},

	// Operations.
	{Operations, wPhrase, []string{
		"cadeia de abastecimento", "cadeia de suprimentos", "catena di fornitura", "catena di approvvigionamento",
		"seguranca do trabalho", "seguranca no trabalho", "saude e seguranca", "higiene e seguranca",
		"salute e sicurezza", "sicurezza sul lavoro", "sicurezza e ambiente", "seguridad y salud",
		"seguridad e higiene", "seguridad laboral", "prevencion de riesgos", "hygiene securite",
		"hygiene et securite", "prevention des risques", "*arbeitssicherheit*", "*arbeitsschutz*",
		"quality engineer", "quality engineers", "ingenieur qualite", "ingenieure qualite", "ingeniero de calidad",
		"ingeniera de calidad", "ingegnere qualita", "ingegnere della qualita", "ingegnere di qualita",
		"*kwaliteitsingenieur*", "*qualitatsingenieur*", "engenheiro de processos", "engenheira de processos",
		"engenheiro de producao", "engenheira de producao", "engenheiro de manufatura",
		"engenheira de manufatura", "ingeniero de procesos", "ingeniera de procesos", "ingeniero de produccion",
		"ingeniera de produccion", "ingegnere di processo", "ingegnere dei processi", "ingegnere di produzione",
		"*procesingenieur*", "*procesengineer*", "*prozessingenieur*", "*produktionsingenieur*",
		"ingenieur process", "ingenieure process", "ingenieur procedes", "ingenieure procedes",
		"ingenieur production", "ingenieure production", "ingenieur methodes", "ingenieure methodes",
		"controllo qualita", "controllo della qualita", "controlo de qualidade", "controle de qualidade",
		"control de calidad", "controle qualite", "assurance qualite", "garantia de qualidade",
		"garanzia di qualita", "garantia de calidad", "aseguramiento de calidad", "planejamento de demanda",
		"melhoria continua", "miglioramento continuo", "continu verbeteren", "mejora continua",
		"amelioration continue", "kontinuierliche verbesserung", "servizi generali", "servicos gerais",
		"*preventieadvis*", "agent d entretien", "agente d entretien", "addetto alle pulizie", "addetta alle pulizie",
	}},
	{Operations, wField, []string{
		"suprimentos", "abastecimento", "abastecimiento", "aprovisionamiento", "approvvigionament*",
		"approvisionn*", "bevoorrading", "*beschaffung*", "acquisti", "acquisto", "compratore", "compratrice",
		"*inkoop*", "*inkoper*", "armazem", "armazens", "armazenist*", "almoxarif*", "estoque", "estoques",
		"magazzin*", "*magazijn*", "*voorraad*", "inventari*", "producao", "fabricacao", "manufatura",
		"manifattur*", "*productie*", "empilhador*", "carrellist*", "*heftruck*", "carretiller*", "cariste",
		"stapler*", "frota", "flotta", "wagenpark", "flota", "flotte", "fuhrpark",
	}},
	{Operations, wHint, []string{
		"qualidade", "qualita", "*kwaliteit*", "stabilimento", "fabbrica", "fabrica", "*fabriek*",
		"manutenzione", "*onderhoud*", "*wartung*", "facility*", "trasport*", "spedizion*", "expedicao",
		"*expeditie*", "expedicion*", "expedition*", "*versand*", "motorista*", "autista", "autisti", "*chauffeur",
		"chofer", "operaio", "operaia", "operai", "construcao", "construccion", "edilizia", "cantiere",
		"cantieri", "bouw*", "chantier", "obra", "obras", "*veiligheid*", "mecanic*", "meccanic*",
		"mecanicien*", "*monteur", "*mechatronik*", "arbo", "arbocoordinator*", "arbodeskundig*", "encarregado", "encarregada", "mestre de obras",
		"capocantiere", "caporeparto", "capo reparto", "capoturno", "capo turno", "caposquadra", "capo squadra",
		"voorman", "uitvoerder", "*werkvoorbereid*", "embalador*", "empaquetador*", "imballat*", "inpakker*",
		"orderpicker*", "montador*", "montator*", "assemblat*",
	}},
	{Operations, wWeak, []string{
		"operador", "operadora", "operadores", "operatore", "operatrice", "operatori", "operateur", "inspetor*",
		"ispettor*", "inspecteur*", "orcamentist*", "preventivist*", "calculator", "pianificazione",
		"pianificatore", "pianificatrice", "planejamento", "planejador*", "planeador*", "planificacion",
		"planificador*", "planification", "planificateur*", "servente", "manovale", "limpeza", "limpieza",
		"pulizie", "*schoonmaak*", "schoonmaker*", "hausmeister*", "conserje", "zelador*",
	}},
	{Operations, wGeneric, []string{
		"operacional", "operazioni", "operativa", "progetti", "projecto", "projectos", "*project*", "processos",
		"processi", "processen", "procesos", "processus", "prozess*", "proces*", "tecnico", "tecnica",
		"tecnicos", "tecnicas", "tecnici", "*technicus",
	}},

	// Executive (general management: Executive only when no function is named).
	{Executive, wLeadership, []string{
		"co fondatore", "co fondatrice", "*oprichter*", "proprietari*", "titolare", "vennoot", "empreendedor*",
		"imprenditore", "imprenditrice", "ondernemer*", "strategia", "diretor presidente", "diretora presidente",
		"gerente geral", "amministratore unico", "amministratrice unica", "direttore esecutivo",
		"direttrice esecutiva", "directeur executif",
		"directrice executive", "statutair directeur", "bestuurder*", "*bestuursvoorzitter*", "bestuurslid",
		"bestuursleden", "raad van commissarissen", "raad van toezicht", "conselho de administracao",
		"membro do conselho", "conselheiro de administracao", "conselheira de administracao",
		"conselheiro independente", "conselheira independente", "consiglio di amministrazione",
		"consigliere di amministrazione", "consigliera di amministrazione", "membro del cda",
		"consejo de administracion", "miembro del consejo", "consejero independiente",
		"consejera independiente", "conseil de surveillance", "membre du conseil",
	}},

	// The employer's legal representative is, in Italy, Spain and Portugal, its owner or
	// managing director: the phrase is no Legal function.
	{Executive, wLeadership, []string{
		"legale rappresentante", "rappresentante legale", "representante legal", "representante legale",
	}},

	// Phrases that carry no department and hide the misleading word inside them: "in
	// opleiding" (in training) is no training function.
	{"", wPhrase, []string{"in opleiding"}},

	// Other: education and guarding, so that their incidental words name no department.
	{Other, wPhrase, []string{
		"controllore di volo", "controlador de trafego aereo", "controlador aereo", "controleur aerien",
		"chefe de cozinha", "jefe de cocina", "jefa de cocina", "chef de cuisine", "capo cuoco", "capocuoco",
		"guardia giurata", "guardia de seguridad", "vigilante de seguridad", "agent de securite",
		"agente de seguranca",
	}},
	{Other, wHint, []string{
		"insegnant*", "leraar", "lerares", "docent", "docenten", "vigilante", "*beveiliger*",
	}},
}

var i18nRankCues = []rankGroup{
	{rankExecutive, []string{
		"co fondatore", "co fondatrice", "*oprichter*", "proprietari*", "titolare", "vennoot", "empreendedor*",
		"imprenditore", "imprenditrice", "ondernemer*", "diretor presidente", "diretora presidente",
		"gerente geral", "amministratore unico", "amministratrice unica", "direttore esecutivo",
		"direttrice esecutiva", "directeur executif",
		"directrice executive", "statutair directeur", "bestuurder*", "*bestuursvoorzitter*", "bestuurslid",
		"bestuursleden", "raad van commissarissen", "raad van toezicht", "conselho de administracao",
		"membro do conselho", "conselheiro de administracao", "conselheira de administracao",
		"conselheiro independente", "conselheira independente", "consiglio di amministrazione",
		"consigliere di amministrazione", "consigliera di amministrazione", "membro del cda",
		"consejo de administracion", "miembro del consejo", "consejero independiente",
		"consejera independiente", "conseil de surveillance", "membre du conseil", "legale rappresentante",
		"rappresentante legale", "representante legal", "representante legale",
	}},
	{rankDirector, []string{
		"*directeur", "*directrice", "*direktor", "*direktorin", "subdiretor", "subdiretora", "vicedirett*",
		"chefe", "capo", "*hoofd", "*leider", "*leidster",
	}},
	{rankManager, []string{
		"chefe de equipa", "chefe de equipe", "chefe de turno", "chefe de projeto", "chefe de projecto",
		"chefe de obra", "chefe de secao", "chefe de seccao", "chefe de setor", "chefe de sector",
		"chefe de loja", "lider de equipe", "lider de equipa", "lider de time", "encarregado", "encarregada",
		"superintendente", "supervisore", "capo reparto", "caporeparto", "capo turno", "capoturno",
		"capo squadra", "caposquadra", "capo cantiere", "capocantiere", "capo ufficio", "capoufficio",
		"capo area", "capo progetti", "*projectleider", "*projectleidster", "*groepsleider", "*ploegleider",
		"*bedrijfsleider", "*filiaalleider", "*vestigingsleider", "leidinggevende", "voorman", "uitvoerder",
		"jefe de seccion", "jefa de seccion", "jefe de tienda", "jefa de tienda", "shift leader", "shift lead",
	}},
	{rankSenior, []string{"lider"}},
	{rankEntry, []string{
		"receptionist*", "*assistente", "ajudante", "recem formado", "recem formada", "neolaureat*",
		"specializzand*", "aios", "aide soignant", "aide soignante",
	}},
	// Words that end or start like a rank but are none: an "opleider" trains, a
	// "begeleider" coaches.
	// "Assistenza" (it) is support, not an assistant; "socio sanitario" (health and
	// social care) names no partner.
	{rankNone, []string{
		"*opleider", "*geleider", "*opleidster", "assistenza", "socio sanitario", "socio sanitaria",
		"socio sanitari", "socio assistenziale", "socio educativo", "socio educativa",
	}},
}

var i18nTraineeCues = []string{
	"aprendiz", "aprendizes", "bolsista", "estudante", "stagista", "stagisti", "tirocinant*", "apprendist*",
	"praticante", "praticanti", "borsista", "studente", "studentessa", "*stagiair*", "leerling*", "afstudeerder*",
	"in opleiding", "promovend*", "dottorand*", "doutorand*", "en practicas", "en alternance",
}
