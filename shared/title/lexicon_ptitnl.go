package title

// Portuguese, Italian and Dutch cues, and a few German, French and Spanish ones the
// team pages of the demo world's seven languages showed missing (contact generation
// reads titles in every language its companies publish). Same notation and weights as
// lexicon.go; buildIndex adds these after the main tables.

var moreDepartmentCues = []deptGroup{
	{SalesMarketing, wPhrase, []string{
		"executivo de contas", "executiva de contas", "gestor de contas", "gestora de contas", "commercieel directeur",
		"commerciele directeur", "ufficio vendite",
	}},
	{SalesMarketing, wFunction, []string{"vendas", "vendite", "verkoop", "commercieel", "commerciele", "commerciale", "*marketing*"}},
	{SalesMarketing, wWeak, []string{"*accountmanager*"}},
	{Technology, wPhrase, []string{
		"technisch directeur", "technische directeur", "direttore tecnico", "direttrice tecnica", "diretor de tecnologia",
		"diretora de tecnologia", "diretor tecnico", "diretora tecnica",
	}},
	{Technology, wDomain, []string{"tecnologia", "*productmanag*", "*softwareontwikkel*", "*ontwikkelaar*", "sviluppatore", "sviluppatrice", "desenvolvedor*", "programmatore"}},
	{Technology, wField, []string{"produto", "prodotto", "produit", "producto", "ingegnere", "engenheiro", "engenheira"}},
	{CustomerService, wPhrase, []string{"responsabile clienti", "gestor de clientes", "gestora de clientes", "apoio ao cliente", "servizio clienti", "assistenza clienti"}},
	{CustomerService, 95, []string{"*klantadvis*", "*klantenservice*", "*klantcontact*"}},
	{CustomerService, wHint, []string{"clienti", "klant", "klanten"}},
	{HumanResources, wPhrase, []string{"risorse umane", "recursos humanos", "personeelszaken"}},
	{HumanResources, wFunction, []string{"hr"}},
	{Finance, wDomain, []string{"financeira", "financeiro", "finanziaria", "finanziario", "financieel", "financiele", "contabilita", "contabilidade", "boekhoud*"}},
	{Operations, wHint, []string{"betrieb", "operacoes", "operativa", "operativo", "operationeel", "operationele", "operations*"}},
	{Administration, wPhrase, []string{
		"assistente de direcao", "assistente di direzione", "assistente della direzione", "officemanager",
		"office manager", "directiesecretaresse", "assistenz der geschaftsfuhrung", "assistenz der geschaeftsfuehrung",
	}},
	{Administration, wGeneric, []string{"assistente", "*assistenz*"}},
	{Executive, wLeadership, []string{
		"amministratore delegato", "amministratrice delegata", "diretor executivo", "diretora executiva", "diretor geral",
		"diretora geral", "algemeen directeur", "algemene directeur", "directeur general", "direttore generale",
		"direttrice generale", "presidente executivo",
	}},
}

var moreRankCues = []rankGroup{
	{rankExecutive, []string{
		"amministratore delegato", "amministratrice delegata", "diretor executivo", "diretora executiva", "diretor geral",
		"diretora geral", "algemeen directeur", "algemene directeur", "direttore generale", "direttrice generale",
		"presidente executivo",
	}},
	{rankDirector, []string{"diretor", "diretora", "direttore", "direttrice", "directeur", "directrice", "directie"}},
	{rankManager, []string{
		"gestor", "gestora", "responsavel", "responsabile", "jefe de producto", "jefa de producto", "chef de produit",
		"cheffe de produit", "*productmanager", "*accountmanager", "*officemanager", "*marketingmanager",
	}},
	{rankEntry, []string{"assistente"}},
}
