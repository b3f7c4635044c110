// Command corpusgen writes the training corpus of the built-in embedder (corpus.txt) from the
// word lists below: job titles built from seniority patterns and function names, profile
// lines pairing titles with skills, skill lists and short summaries, in English, German,
// French and Spanish. A seeded PRNG makes the output reproducible:
//
//	go generate ./shared/embed/ppmiembed
//
// What the embedder learns is which words share contexts: a function's names in four
// languages, its roles and its skills keep each other's company, so they end up near each
// other; seniority words appear with every function, so they carry little weight.
package main

import (
	"bufio"
	"flag"
	"fmt"
	"log"
	"math/rand/v2"
	"os"
	"strings"
)

// group is one professional function with its vocabulary.
type group struct {
	name   string
	chiefs []string            // executive titles of the function (acronyms and spelled out)
	fn     map[string][]string // function names per language, as they follow "Head of" etc.
	roles  map[string][]string // individual-contributor role nouns per language
	skills []string
	topics map[string][]string // what a summary says the person works on, per language
}

var groups = []group{
	{
		name:   "engineering",
		chiefs: []string{"CTO", "Chief Technology Officer", "VP Engineering", "Chief Architect"},
		fn: map[string][]string{
			"en": {"Engineering", "Software Engineering", "Software Development", "Platform Engineering", "Backend Engineering", "Frontend Engineering", "Development", "Technology", "Infrastructure", "DevOps", "Site Reliability Engineering", "Cloud Engineering"},
			"de": {"Softwareentwicklung", "Entwicklung", "Engineering", "Technik", "Technologie", "Plattformentwicklung", "IT-Entwicklung"},
			"fr": {"de l'ingénierie", "du développement logiciel", "des développements", "technique", "de l'ingénierie logicielle", "de la plateforme"},
			"es": {"Ingeniería", "Desarrollo de Software", "Tecnología", "Ingeniería de Software", "Desarrollo", "Plataforma"},
		},
		roles: map[string][]string{
			"en": {"Software Engineer", "Software Developer", "Backend Engineer", "Frontend Developer", "Full Stack Developer", "DevOps Engineer", "Site Reliability Engineer", "Platform Engineer", "Cloud Engineer", "Mobile Developer", "Programmer", "Engineer"},
			"de": {"Softwareentwickler", "Softwareentwicklerin", "Entwickler", "Entwicklerin", "Softwareingenieur", "Backend-Entwickler", "Informatiker", "Anwendungsentwickler"},
			"fr": {"Ingénieur logiciel", "Développeur", "Développeuse", "Développeur backend", "Ingénieur DevOps", "Développeur full stack", "Ingénieur développement"},
			"es": {"Desarrollador de software", "Desarrolladora", "Ingeniero de software", "Programador", "Desarrollador backend", "Ingeniero DevOps", "Desarrollador full stack"},
		},
		skills: []string{"Go", "Golang", "Java", "Python", "TypeScript", "JavaScript", "React", "Node.js", "Kubernetes", "Docker", "AWS", "GCP", "Azure", "Terraform", "Microservices", "Distributed Systems", "PostgreSQL", "Kafka", "CI/CD", "Git", "Linux", "REST APIs", "gRPC", "Rust", "C++", "Software Architecture", "Scalability", "Cloud Native", "Agile", "Scrum", "System Design", "Observability"},
		topics: map[string][]string{
			"en": {"building scalable backend systems", "cloud infrastructure", "software architecture", "distributed systems", "developer tooling", "platform reliability", "web applications", "API design"},
			"de": {"Softwareentwicklung", "Cloud-Infrastruktur", "Softwarearchitektur", "verteilten Systemen", "Webanwendungen"},
			"fr": {"le développement logiciel", "l'architecture logicielle", "les infrastructures cloud", "les applications web"},
			"es": {"desarrollo de software", "arquitectura de software", "infraestructura cloud", "aplicaciones web"},
		},
	},
	{
		name:   "data",
		chiefs: []string{"CDO", "Chief Data Officer", "Chief Analytics Officer"},
		fn: map[string][]string{
			"en": {"Data Science", "Data Engineering", "Machine Learning", "Artificial Intelligence", "Analytics", "Data", "Business Intelligence", "AI"},
			"de": {"Data Science", "Datenanalyse", "Künstliche Intelligenz", "Maschinelles Lernen", "Daten"},
			"fr": {"de la data", "de l'intelligence artificielle", "de la science des données", "analytique"},
			"es": {"Ciencia de Datos", "Inteligencia Artificial", "Analítica", "Datos", "Aprendizaje Automático"},
		},
		roles: map[string][]string{
			"en": {"Data Scientist", "Data Engineer", "Machine Learning Engineer", "ML Engineer", "Data Analyst", "AI Engineer", "Analytics Engineer", "BI Developer", "Research Scientist"},
			"de": {"Data Scientist", "Datenanalyst", "Dateningenieur", "Machine Learning Engineer", "Datenwissenschaftler"},
			"fr": {"Data Scientist", "Ingénieur data", "Analyste de données", "Ingénieur machine learning"},
			"es": {"Científico de datos", "Ingeniero de datos", "Analista de datos", "Ingeniero de machine learning"},
		},
		skills: []string{"Python", "SQL", "Machine Learning", "Deep Learning", "PyTorch", "TensorFlow", "scikit-learn", "Spark", "Airflow", "dbt", "Snowflake", "BigQuery", "Statistics", "NLP", "Computer Vision", "Pandas", "Data Modeling", "ETL", "Tableau", "Power BI", "LLMs", "MLOps", "Feature Engineering", "A/B Testing"},
		topics: map[string][]string{
			"en": {"machine learning models", "data pipelines", "predictive analytics", "natural language processing", "data warehousing", "recommendation systems"},
			"de": {"Datenanalyse", "maschinellem Lernen", "Datenpipelines", "Business Intelligence"},
			"fr": {"l'apprentissage automatique", "l'analyse de données", "les pipelines de données"},
			"es": {"aprendizaje automático", "análisis de datos", "modelos predictivos"},
		},
	},
	{
		name:   "it",
		chiefs: []string{"CIO", "Chief Information Officer", "CISO", "Chief Information Security Officer", "Chief Security Officer"},
		fn: map[string][]string{
			"en": {"IT", "Information Technology", "IT Operations", "Information Security", "Cybersecurity", "IT Infrastructure", "Enterprise Systems", "Network Engineering", "Security"},
			"de": {"IT", "Informationstechnik", "IT-Sicherheit", "Informationssicherheit", "IT-Infrastruktur", "Netzwerktechnik"},
			"fr": {"des systèmes d'information", "informatique", "de la sécurité informatique", "de la cybersécurité", "des infrastructures"},
			"es": {"Sistemas", "Tecnologías de la Información", "Ciberseguridad", "Seguridad Informática", "Infraestructura TI"},
		},
		roles: map[string][]string{
			"en": {"System Administrator", "Network Engineer", "Security Engineer", "Security Analyst", "IT Specialist", "Help Desk Technician", "Systems Engineer", "IT Administrator", "Penetration Tester", "SOC Analyst"},
			"de": {"Systemadministrator", "Netzwerkadministrator", "IT-Administrator", "Fachinformatiker", "IT-Sicherheitsexperte", "Systemingenieur"},
			"fr": {"Administrateur systèmes", "Ingénieur réseau", "Technicien informatique", "Analyste sécurité", "Administrateur réseau"},
			"es": {"Administrador de sistemas", "Ingeniero de redes", "Técnico informático", "Analista de seguridad", "Técnico de sistemas"},
		},
		skills: []string{"Active Directory", "Windows Server", "Linux", "Networking", "Cisco", "Firewalls", "VMware", "Microsoft 365", "ITIL", "SIEM", "ISO 27001", "Penetration Testing", "Incident Response", "Identity Management", "Endpoint Security", "Azure AD", "Backup", "Vulnerability Management", "SOC 2", "Zero Trust"},
		topics: map[string][]string{
			"en": {"IT infrastructure", "network security", "information security", "enterprise systems", "identity and access management"},
			"de": {"IT-Infrastruktur", "Netzwerksicherheit", "Informationssicherheit"},
			"fr": {"la sécurité des systèmes d'information", "les infrastructures informatiques"},
			"es": {"seguridad informática", "infraestructura de sistemas"},
		},
	},
	{
		name:   "product",
		chiefs: []string{"CPO", "Chief Product Officer", "VP Product"},
		fn: map[string][]string{
			"en": {"Product", "Product Management", "Product Design", "UX", "User Experience", "Research and Development", "R&D", "Innovation"},
			"de": {"Produktmanagement", "Produkt", "Forschung und Entwicklung", "Produktentwicklung", "Innovation"},
			"fr": {"produit", "de la recherche et développement", "de l'innovation", "du design produit"},
			"es": {"Producto", "Investigación y Desarrollo", "I+D", "Innovación", "Diseño de Producto"},
		},
		roles: map[string][]string{
			"en": {"Product Manager", "Product Owner", "Product Designer", "UX Designer", "UX Researcher", "R&D Engineer", "Research Engineer", "Innovation Manager"},
			"de": {"Produktmanager", "Product Owner", "Produktdesigner", "Entwicklungsingenieur", "UX-Designer"},
			"fr": {"Chef de produit", "Product Owner", "Designer UX", "Ingénieur R&D", "Ingénieur recherche"},
			"es": {"Gerente de producto", "Product Owner", "Diseñador UX", "Ingeniero de I+D", "Investigador"},
		},
		skills: []string{"Product Strategy", "Roadmapping", "User Research", "Figma", "Prototyping", "Jira", "Product Discovery", "A/B Testing", "Design Thinking", "Prioritization", "OKRs", "Wireframing", "Usability Testing", "Market Research", "Product Analytics", "Patents"},
		topics: map[string][]string{
			"en": {"product strategy", "user experience", "product discovery", "new product development", "research and development"},
			"de": {"Produktentwicklung", "Produktstrategie", "Forschung und Entwicklung"},
			"fr": {"la stratégie produit", "l'expérience utilisateur", "la recherche et le développement"},
			"es": {"estrategia de producto", "experiencia de usuario", "investigación y desarrollo"},
		},
	},
	{
		name:   "sales",
		chiefs: []string{"CRO", "Chief Revenue Officer", "CCO", "Chief Commercial Officer", "Chief Sales Officer"},
		fn: map[string][]string{
			"en": {"Sales", "Business Development", "Account Management", "Revenue", "Partnerships", "Inside Sales", "Enterprise Sales", "Channel Sales", "Key Accounts", "Commercial"},
			"de": {"Vertrieb", "Verkauf", "Key Account Management", "Geschäftsentwicklung", "Vertriebsinnendienst", "Außendienst"},
			"fr": {"commercial", "des ventes", "du développement commercial", "grands comptes", "des partenariats"},
			"es": {"Ventas", "Desarrollo de Negocio", "Comercial", "Cuentas Clave", "Alianzas"},
		},
		roles: map[string][]string{
			"en": {"Account Executive", "Sales Representative", "Sales Development Representative", "SDR", "BDR", "Business Development Representative", "Account Manager", "Sales Engineer", "Key Account Manager", "Salesperson", "Sales Consultant"},
			"de": {"Vertriebsmitarbeiter", "Vertriebsleiter", "Außendienstmitarbeiter", "Key Account Manager", "Verkäufer", "Vertriebsbeauftragter", "Kundenberater"},
			"fr": {"Commercial", "Ingénieur commercial", "Chargé d'affaires", "Responsable grands comptes", "Attaché commercial", "Business Developer"},
			"es": {"Ejecutivo de ventas", "Comercial", "Representante de ventas", "Ejecutivo de cuentas", "Vendedor", "Asesor comercial"},
		},
		skills: []string{"Negotiation", "Salesforce", "HubSpot", "Pipeline Management", "Prospecting", "Cold Calling", "Lead Generation", "Closing", "B2B Sales", "SaaS Sales", "Solution Selling", "CRM", "Forecasting", "Account Planning", "Quota Attainment", "Territory Management", "MEDDIC", "Upselling", "Contract Negotiation", "Sales Operations"},
		topics: map[string][]string{
			"en": {"B2B sales", "enterprise software sales", "new business acquisition", "revenue growth", "account management", "building sales teams"},
			"de": {"Vertrieb", "Neukundengewinnung", "Key Account Management", "B2B-Vertrieb"},
			"fr": {"la vente B2B", "le développement commercial", "la prospection", "la gestion de grands comptes"},
			"es": {"ventas B2B", "desarrollo de negocio", "captación de clientes", "gestión de cuentas"},
		},
	},
	{
		name:   "marketing",
		chiefs: []string{"CMO", "Chief Marketing Officer", "Chief Brand Officer", "Chief Growth Officer"},
		fn: map[string][]string{
			"en": {"Marketing", "Digital Marketing", "Growth", "Brand", "Demand Generation", "Content Marketing", "Product Marketing", "Performance Marketing", "Marketing Communications"},
			"de": {"Marketing", "Onlinemarketing", "Markenführung", "Produktmarketing", "Marketingkommunikation"},
			"fr": {"marketing", "du marketing digital", "de la marque", "de la communication marketing", "acquisition"},
			"es": {"Marketing", "Marketing Digital", "Marca", "Crecimiento", "Comunicación de Marketing"},
		},
		roles: map[string][]string{
			"en": {"Marketing Manager", "Growth Marketer", "Content Strategist", "SEO Specialist", "Brand Manager", "Marketing Specialist", "Copywriter", "Social Media Manager", "Product Marketing Manager", "Marketing Coordinator"},
			"de": {"Marketingmanager", "Online-Marketing-Manager", "Marketingreferent", "Texter", "Social-Media-Manager"},
			"fr": {"Chargé de marketing", "Chef de projet marketing", "Responsable marketing", "Rédacteur", "Community manager"},
			"es": {"Especialista en marketing", "Responsable de marketing", "Redactor", "Community manager", "Técnico de marketing"},
		},
		skills: []string{"SEO", "SEM", "Google Ads", "Content Marketing", "Social Media", "Email Marketing", "Marketing Automation", "Marketo", "Brand Strategy", "Copywriting", "Google Analytics", "Demand Generation", "Campaign Management", "Paid Social", "Go-to-Market", "Positioning", "Account-Based Marketing", "Events"},
		topics: map[string][]string{
			"en": {"digital marketing", "brand building", "demand generation", "content strategy", "growth marketing", "go-to-market strategy"},
			"de": {"Onlinemarketing", "Markenaufbau", "Content-Marketing", "Leadgenerierung"},
			"fr": {"le marketing digital", "la stratégie de marque", "la génération de leads"},
			"es": {"marketing digital", "estrategia de marca", "generación de demanda"},
		},
	},
	{
		name:   "finance",
		chiefs: []string{"CFO", "Chief Financial Officer", "Finance Director", "Treasurer"},
		fn: map[string][]string{
			"en": {"Finance", "Accounting", "Financial Planning and Analysis", "FP&A", "Controlling", "Treasury", "Tax", "Audit", "Corporate Finance"},
			"de": {"Finanzen", "Rechnungswesen", "Controlling", "Buchhaltung", "Finanzbuchhaltung", "Steuern", "Treasury"},
			"fr": {"financier", "de la comptabilité", "administratif et financier", "du contrôle de gestion", "fiscal", "de la trésorerie"},
			"es": {"Finanzas", "Contabilidad", "Control de Gestión", "Tesorería", "Fiscal", "Administración y Finanzas"},
		},
		roles: map[string][]string{
			"en": {"Accountant", "Financial Analyst", "Controller", "Financial Controller", "Tax Manager", "Auditor", "Bookkeeper", "Payroll Accountant", "Treasury Analyst", "FP&A Analyst", "Accounts Payable Specialist"},
			"de": {"Buchhalter", "Buchhalterin", "Controller", "Finanzanalyst", "Steuerberater", "Bilanzbuchhalter", "Wirtschaftsprüfer"},
			"fr": {"Comptable", "Contrôleur de gestion", "Analyste financier", "Auditeur", "Trésorier", "Expert-comptable"},
			"es": {"Contable", "Contador", "Analista financiero", "Controller", "Auditor", "Tesorero", "Asesor fiscal"},
		},
		skills: []string{"Financial Modeling", "Budgeting", "Forecasting", "IFRS", "US GAAP", "SAP", "Excel", "Financial Reporting", "Cash Flow", "Tax Compliance", "Audit", "Consolidation", "Variance Analysis", "Accounts Payable", "Accounts Receivable", "Month-End Close", "Treasury Management", "Valuation", "M&A", "Cost Accounting"},
		topics: map[string][]string{
			"en": {"financial planning", "corporate finance", "financial reporting", "budgeting and forecasting", "audit and compliance", "tax"},
			"de": {"Finanzbuchhaltung", "Controlling", "Jahresabschluss", "Finanzplanung"},
			"fr": {"la comptabilité", "le contrôle de gestion", "la finance d'entreprise", "le reporting financier"},
			"es": {"contabilidad", "finanzas corporativas", "control de gestión", "planificación financiera"},
		},
	},
	{
		name:   "legal",
		chiefs: []string{"CLO", "Chief Legal Officer", "General Counsel", "Chief Compliance Officer"},
		fn: map[string][]string{
			"en": {"Legal", "Legal Affairs", "Compliance", "Contracts", "Intellectual Property", "Regulatory Affairs", "Privacy", "Corporate Law"},
			"de": {"Recht", "Rechtsabteilung", "Compliance", "Vertragsmanagement", "Datenschutz"},
			"fr": {"juridique", "des affaires juridiques", "de la conformité", "du droit des affaires"},
			"es": {"Legal", "Asesoría Jurídica", "Cumplimiento Normativo", "Asuntos Legales", "Protección de Datos"},
		},
		roles: map[string][]string{
			"en": {"Lawyer", "Attorney", "Corporate Counsel", "Legal Counsel", "Paralegal", "Compliance Officer", "Contract Manager", "Data Protection Officer", "Solicitor", "Associate Attorney"},
			"de": {"Rechtsanwalt", "Rechtsanwältin", "Jurist", "Syndikusanwalt", "Justiziar", "Datenschutzbeauftragter"},
			"fr": {"Avocat", "Avocate", "Juriste", "Juriste d'entreprise", "Responsable conformité", "Notaire"},
			"es": {"Abogado", "Abogada", "Asesor jurídico", "Jurista", "Responsable de cumplimiento", "Procurador"},
		},
		skills: []string{"Contract Law", "Corporate Law", "Litigation", "GDPR", "Compliance", "Legal Research", "Intellectual Property", "Employment Law", "M&A Transactions", "Regulatory", "Negotiation of Contracts", "Due Diligence", "Data Privacy", "Trademark", "Legal Writing", "Corporate Governance"},
		topics: map[string][]string{
			"en": {"corporate law", "commercial contracts", "regulatory compliance", "data protection", "intellectual property"},
			"de": {"Vertragsrecht", "Gesellschaftsrecht", "Datenschutzrecht", "Compliance"},
			"fr": {"le droit des sociétés", "les contrats commerciaux", "la conformité réglementaire"},
			"es": {"derecho mercantil", "contratos", "cumplimiento normativo", "protección de datos"},
		},
	},
	{
		name:   "hr",
		chiefs: []string{"CHRO", "Chief Human Resources Officer", "Chief People Officer", "HR Director"},
		fn: map[string][]string{
			"en": {"Human Resources", "HR", "People", "People Operations", "Talent Acquisition", "Recruiting", "Talent", "Learning and Development", "Compensation and Benefits"},
			"de": {"Personal", "Personalwesen", "Human Resources", "Personalentwicklung", "Recruiting", "Personalabteilung"},
			"fr": {"des ressources humaines", "RH", "du recrutement", "des talents", "de la formation"},
			"es": {"Recursos Humanos", "RRHH", "Personas", "Selección", "Talento", "Formación"},
		},
		roles: map[string][]string{
			"en": {"Recruiter", "Talent Acquisition Specialist", "HR Business Partner", "HR Generalist", "HR Manager", "People Partner", "Payroll Specialist", "Technical Recruiter", "Sourcer", "Learning Specialist"},
			"de": {"Personalreferent", "Personalreferentin", "Recruiter", "Personalsachbearbeiter", "HR Business Partner", "Lohnbuchhalter"},
			"fr": {"Chargé de recrutement", "Recruteur", "Gestionnaire de paie", "Chargé RH", "HR Business Partner", "Chargée de recrutement"},
			"es": {"Técnico de selección", "Reclutador", "Técnico de RRHH", "Responsable de nóminas", "HR Business Partner"},
		},
		skills: []string{"Recruiting", "Talent Acquisition", "Employer Branding", "Onboarding", "Payroll", "Employee Relations", "Performance Management", "Compensation", "Benefits", "Workday", "HRIS", "Labor Law", "Sourcing", "Interviewing", "Learning and Development", "Organizational Development", "Succession Planning", "Diversity and Inclusion"},
		topics: map[string][]string{
			"en": {"talent acquisition", "people operations", "employee engagement", "HR strategy", "recruiting and onboarding"},
			"de": {"Personalgewinnung", "Personalentwicklung", "Arbeitsrecht", "Recruiting"},
			"fr": {"le recrutement", "la gestion des ressources humaines", "la marque employeur"},
			"es": {"selección de personal", "gestión del talento", "recursos humanos"},
		},
	},
	{
		name:   "operations",
		chiefs: []string{"COO", "Chief Operating Officer", "Chief Supply Chain Officer"},
		fn: map[string][]string{
			"en": {"Operations", "Supply Chain", "Logistics", "Procurement", "Manufacturing", "Production", "Purchasing", "Facilities", "Quality"},
			"de": {"Betrieb", "Logistik", "Einkauf", "Produktion", "Lieferkette", "Qualitätsmanagement", "Fertigung"},
			"fr": {"des opérations", "de la logistique", "des achats", "de la production", "de la supply chain", "qualité"},
			"es": {"Operaciones", "Logística", "Compras", "Producción", "Cadena de Suministro", "Calidad"},
		},
		roles: map[string][]string{
			"en": {"Operations Manager", "Logistics Coordinator", "Buyer", "Procurement Specialist", "Supply Chain Analyst", "Production Planner", "Plant Manager", "Warehouse Manager", "Quality Engineer", "Operations Analyst"},
			"de": {"Einkäufer", "Logistiker", "Produktionsleiter", "Disponent", "Qualitätsingenieur", "Lagerleiter", "Betriebsleiter"},
			"fr": {"Acheteur", "Logisticien", "Responsable de production", "Ingénieur qualité", "Chef d'atelier", "Approvisionneur"},
			"es": {"Comprador", "Técnico de logística", "Jefe de planta", "Ingeniero de calidad", "Planificador de producción", "Jefe de almacén"},
		},
		skills: []string{"Supply Chain Management", "Lean", "Six Sigma", "Procurement", "Logistics", "Inventory Management", "ERP", "SAP MM", "Process Improvement", "Vendor Management", "Operations Management", "Demand Planning", "Warehouse Management", "Quality Management", "ISO 9001", "Kaizen", "Sourcing Strategy", "Manufacturing"},
		topics: map[string][]string{
			"en": {"supply chain optimization", "operational excellence", "logistics", "procurement", "lean manufacturing"},
			"de": {"Logistik", "Einkauf", "Prozessoptimierung", "Produktion"},
			"fr": {"la supply chain", "l'excellence opérationnelle", "les achats"},
			"es": {"cadena de suministro", "excelencia operativa", "logística", "compras"},
		},
	},
	{
		name:   "customer",
		chiefs: []string{"Chief Customer Officer", "Chief Experience Officer", "VP Customer Success"},
		fn: map[string][]string{
			"en": {"Customer Success", "Customer Support", "Customer Service", "Customer Experience", "Client Services", "Support", "Technical Support"},
			"de": {"Kundenservice", "Kundenbetreuung", "Kundendienst", "Customer Success", "Support"},
			"fr": {"du service client", "de la relation client", "du support client", "de l'expérience client"},
			"es": {"Atención al Cliente", "Servicio al Cliente", "Experiencia de Cliente", "Soporte"},
		},
		roles: map[string][]string{
			"en": {"Customer Success Manager", "Customer Support Specialist", "Support Engineer", "Customer Service Representative", "Client Services Associate", "Onboarding Specialist", "Technical Support Engineer", "Call Center Agent", "Support Lead"},
			"de": {"Kundenbetreuer", "Kundenberaterin", "Servicetechniker", "Supportmitarbeiter", "Kundenservicemitarbeiter"},
			"fr": {"Conseiller clientèle", "Chargé de clientèle", "Technicien support", "Customer Success Manager", "Téléconseiller"},
			"es": {"Agente de atención al cliente", "Técnico de soporte", "Customer Success Manager", "Gestor de clientes", "Teleoperador"},
		},
		skills: []string{"Customer Success", "Customer Support", "Zendesk", "Intercom", "Customer Retention", "Onboarding", "Churn Reduction", "Net Promoter Score", "Ticketing", "Troubleshooting", "Client Relationship Management", "Renewals", "Customer Satisfaction", "Service Level Agreements", "Escalation Management", "Customer Journey"},
		topics: map[string][]string{
			"en": {"customer success", "customer retention", "support operations", "customer experience", "client onboarding"},
			"de": {"Kundenbetreuung", "Kundenzufriedenheit", "Kundenservice"},
			"fr": {"la relation client", "la satisfaction client", "le support client"},
			"es": {"atención al cliente", "satisfacción del cliente", "experiencia de cliente"},
		},
	},
	{
		name:   "medical",
		chiefs: []string{"Chief Medical Officer", "Chief Scientific Officer", "Medical Director"},
		fn: map[string][]string{
			"en": {"Medical Affairs", "Clinical Research", "Clinical Operations", "Medicine", "Life Sciences", "Pharmacovigilance", "Research", "Laboratory", "Biology", "Chemistry", "Nursing"},
			"de": {"Medizin", "Klinische Forschung", "Labor", "Forschung", "Pharmakovigilanz", "Pflege"},
			"fr": {"médical", "de la recherche clinique", "scientifique", "du laboratoire", "des affaires médicales"},
			"es": {"Médico", "Investigación Clínica", "Laboratorio", "Asuntos Médicos", "Investigación", "Enfermería"},
		},
		roles: map[string][]string{
			"en": {"Clinical Research Associate", "Medical Science Liaison", "Physician", "Nurse", "Pharmacist", "Research Scientist", "Biologist", "Chemist", "Lab Technician", "Clinical Trial Manager", "Biostatistician", "Doctor"},
			"de": {"Arzt", "Ärztin", "Krankenschwester", "Apotheker", "Biologe", "Chemiker", "Laborant", "Wissenschaftler", "Studienkoordinator"},
			"fr": {"Médecin", "Infirmier", "Infirmière", "Pharmacien", "Chercheur", "Biologiste", "Technicien de laboratoire", "Attaché de recherche clinique"},
			"es": {"Médico", "Enfermera", "Farmacéutico", "Investigador clínico", "Biólogo", "Químico", "Técnico de laboratorio"},
		},
		skills: []string{"Clinical Trials", "GCP", "Pharmacology", "Oncology", "Biotechnology", "Regulatory Submissions", "Medical Writing", "Pharmacovigilance", "Molecular Biology", "Biostatistics", "Drug Development", "Patient Care", "Laboratory Techniques", "Immunology", "Epidemiology", "Clinical Data Management", "FDA", "EMA", "Genomics"},
		topics: map[string][]string{
			"en": {"clinical research", "drug development", "medical affairs", "clinical trials", "life sciences research", "patient care"},
			"de": {"klinischer Forschung", "Arzneimittelentwicklung", "Medizin", "Biotechnologie"},
			"fr": {"la recherche clinique", "le développement de médicaments", "les sciences de la vie"},
			"es": {"investigación clínica", "desarrollo de fármacos", "ciencias de la vida"},
		},
	},
	{
		name:   "admin",
		chiefs: []string{"Chief Administrative Officer", "Chief of Staff", "Office Director"},
		fn: map[string][]string{
			"en": {"Administration", "Office Management", "Facilities", "Executive Support", "Office"},
			"de": {"Verwaltung", "Sekretariat", "Büro", "Assistenz", "Office Management"},
			"fr": {"administratif", "de l'administration", "des services généraux", "du secrétariat"},
			"es": {"Administración", "Oficina", "Secretaría", "Servicios Generales"},
		},
		roles: map[string][]string{
			"en": {"Office Manager", "Executive Assistant", "Administrative Assistant", "Receptionist", "Personal Assistant", "Office Administrator", "Secretary", "Data Entry Clerk", "Clerk"},
			"de": {"Sekretärin", "Assistentin der Geschäftsführung", "Bürokauffrau", "Sachbearbeiter", "Empfangsmitarbeiter", "Teamassistenz"},
			"fr": {"Assistante de direction", "Secrétaire", "Assistant administratif", "Agent d'accueil", "Office manager"},
			"es": {"Secretaria", "Asistente de dirección", "Administrativo", "Recepcionista", "Auxiliar administrativo"},
		},
		skills: []string{"Microsoft Office", "Scheduling", "Calendar Management", "Travel Arrangements", "Office Administration", "Data Entry", "Filing", "Minute Taking", "Event Coordination", "Reception", "Correspondence", "Expense Reports", "Facilities Management", "Document Management"},
		topics: map[string][]string{
			"en": {"office administration", "executive support", "calendar and travel management", "office operations"},
			"de": {"Büroorganisation", "Assistenz der Geschäftsführung", "Verwaltung"},
			"fr": {"la gestion administrative", "l'assistanat de direction"},
			"es": {"gestión administrativa", "asistencia de dirección"},
		},
	},
	{
		name:   "pr",
		chiefs: []string{"Chief Communications Officer", "Communications Director", "VP Communications"},
		fn: map[string][]string{
			"en": {"Public Relations", "PR", "Communications", "Corporate Communications", "Media Relations", "Public Affairs", "Press"},
			"de": {"Unternehmenskommunikation", "Pressearbeit", "Kommunikation", "Öffentlichkeitsarbeit", "PR"},
			"fr": {"de la communication", "des relations presse", "des relations publiques", "de la communication corporate"},
			"es": {"Comunicación", "Relaciones Públicas", "Prensa", "Comunicación Corporativa"},
		},
		roles: map[string][]string{
			"en": {"Press Officer", "Public Relations Manager", "Communications Specialist", "Spokesperson", "Media Relations Manager", "PR Specialist", "Communications Manager", "Speechwriter"},
			"de": {"Pressesprecher", "Pressereferent", "Kommunikationsmanager", "PR-Berater", "Redakteur"},
			"fr": {"Attaché de presse", "Chargé de communication", "Porte-parole", "Responsable communication", "Chargée de relations presse"},
			"es": {"Jefe de prensa", "Portavoz", "Técnico de comunicación", "Responsable de comunicación", "Gabinete de prensa"},
		},
		skills: []string{"Media Relations", "Press Releases", "Crisis Communications", "Public Relations", "Corporate Communications", "Internal Communications", "Storytelling", "Reputation Management", "Speechwriting", "Public Affairs", "Media Training", "Press Conferences", "Stakeholder Communications"},
		topics: map[string][]string{
			"en": {"media relations", "corporate communications", "crisis communications", "reputation management", "press relations"},
			"de": {"Pressearbeit", "Unternehmenskommunikation", "Krisenkommunikation"},
			"fr": {"les relations presse", "la communication de crise", "la communication corporate"},
			"es": {"relaciones con los medios", "comunicación corporativa", "comunicación de crisis"},
		},
	},
	{
		name:   "ir",
		chiefs: []string{"Head of Investor Relations", "VP Investor Relations", "Investor Relations Director"},
		fn: map[string][]string{
			"en": {"Investor Relations", "IR", "Shareholder Relations", "Capital Markets", "Shareholder Communications"},
			"de": {"Investor Relations", "Kapitalmarktkommunikation", "Aktionärsbeziehungen"},
			"fr": {"des relations investisseurs", "de la communication financière", "des relations actionnaires"},
			"es": {"Relación con Inversores", "Relaciones con Inversores", "Mercado de Capitales", "Relación con Accionistas"},
		},
		roles: map[string][]string{
			"en": {"Investor Relations Manager", "Investor Relations Analyst", "IR Associate", "Shareholder Services Specialist", "Capital Markets Analyst"},
			"de": {"Investor Relations Manager", "Referent Investor Relations", "Kapitalmarktanalyst"},
			"fr": {"Chargé de relations investisseurs", "Analyste relations investisseurs", "Responsable communication financière"},
			"es": {"Analista de relación con inversores", "Responsable de relación con inversores"},
		},
		skills: []string{"Investor Relations", "Capital Markets", "Earnings Calls", "Financial Communications", "Shareholder Engagement", "Equity Research", "Annual Report", "ESG Reporting", "Roadshows", "Valuation", "SEC Filings", "Investor Presentations", "IPO"},
		topics: map[string][]string{
			"en": {"investor relations", "shareholder communications", "capital markets", "earnings communications", "IPO readiness"},
			"de": {"Kapitalmarktkommunikation", "Investor Relations", "Hauptversammlung"},
			"fr": {"la communication financière", "les relations investisseurs"},
			"es": {"relación con inversores", "mercados de capitales"},
		},
	},
	{
		name:   "consulting",
		chiefs: []string{"Managing Partner", "Partner", "Head of Professional Services"},
		fn: map[string][]string{
			"en": {"Professional Services", "Consulting", "Advisory", "Implementation", "Solutions", "Delivery", "Management Consulting"},
			"de": {"Beratung", "Unternehmensberatung", "Professional Services", "Implementierung"},
			"fr": {"du conseil", "des services professionnels", "de l'accompagnement", "de l'intégration"},
			"es": {"Consultoría", "Servicios Profesionales", "Asesoría", "Implantación"},
		},
		roles: map[string][]string{
			"en": {"Consultant", "Management Consultant", "Solutions Consultant", "Implementation Consultant", "Business Analyst", "Advisor", "Engagement Manager", "Project Manager", "Solutions Architect"},
			"de": {"Berater", "Beraterin", "Unternehmensberater", "Projektleiter", "IT-Berater", "SAP-Berater"},
			"fr": {"Consultant", "Consultante", "Chef de projet", "Consultant fonctionnel", "Auditeur conseil"},
			"es": {"Consultor", "Consultora", "Jefe de proyecto", "Consultor funcional", "Asesor"},
		},
		skills: []string{"Management Consulting", "Project Management", "Stakeholder Management", "Business Analysis", "Change Management", "Strategy", "Process Mapping", "Implementation", "PMP", "PRINCE2", "Requirements Gathering", "Client Management", "Workshops", "Solution Design", "Business Process Reengineering"},
		topics: map[string][]string{
			"en": {"management consulting", "digital transformation projects", "client implementations", "business process improvement"},
			"de": {"Unternehmensberatung", "Transformationsprojekten", "Projektmanagement"},
			"fr": {"le conseil en stratégie", "la conduite du changement", "la gestion de projet"},
			"es": {"consultoría estratégica", "gestión de proyectos", "transformación digital"},
		},
	},
	{
		name:   "executive",
		chiefs: []string{"CEO", "Chief Executive Officer", "Founder", "Co-Founder", "President", "Managing Director", "Owner", "Geschäftsführer", "Geschäftsführerin", "Vorstandsvorsitzender", "Inhaber", "PDG", "Président-directeur général", "Directeur général", "Gérant", "Fondateur", "Consejero Delegado", "Director General", "Fundador", "Presidente"},
		fn: map[string][]string{
			"en": {"Executive Leadership", "Management", "Strategy", "Corporate Development", "General Management"},
			"de": {"Geschäftsleitung", "Unternehmensführung", "Strategie", "Vorstand"},
			"fr": {"de la direction générale", "de la stratégie", "général"},
			"es": {"Dirección General", "Estrategia", "Gerencia", "Alta Dirección"},
		},
		roles: map[string][]string{
			"en": {"Entrepreneur", "Founder", "Business Owner", "Executive", "Board Member"},
			"de": {"Unternehmer", "Gründer", "Gesellschafter", "Vorstandsmitglied"},
			"fr": {"Entrepreneur", "Fondateur", "Dirigeant", "Chef d'entreprise"},
			"es": {"Emprendedor", "Fundador", "Empresario", "Consejero"},
		},
		skills: []string{"Leadership", "Strategic Planning", "Fundraising", "Venture Capital", "Board Relations", "P&L Management", "Mergers and Acquisitions", "Business Strategy", "Executive Management", "Entrepreneurship", "Team Building", "Corporate Governance", "Vision", "Scaling Startups"},
		topics: map[string][]string{
			"en": {"building and scaling companies", "company strategy", "fundraising", "leading executive teams", "general management"},
			"de": {"Unternehmensführung", "Unternehmensaufbau", "Strategie"},
			"fr": {"la direction d'entreprise", "la stratégie d'entreprise", "la création d'entreprise"},
			"es": {"dirección de empresas", "estrategia empresarial", "creación de empresas"},
		},
	},
	{
		name:   "education",
		chiefs: []string{"Dean", "Principal", "Head of School"},
		fn: map[string][]string{
			"en": {"Education", "Teaching", "Training", "Academic Affairs"},
			"de": {"Bildung", "Lehre", "Schulung", "Weiterbildung"},
			"fr": {"de l'enseignement", "pédagogique", "de la formation"},
			"es": {"Educación", "Docencia", "Formación"},
		},
		roles: map[string][]string{
			"en": {"Teacher", "Professor", "Lecturer", "Trainer", "Tutor", "Instructional Designer"},
			"de": {"Lehrer", "Lehrerin", "Dozent", "Professor", "Trainer"},
			"fr": {"Enseignant", "Professeur", "Formateur", "Maître de conférences"},
			"es": {"Profesor", "Profesora", "Docente", "Formador", "Maestro"},
		},
		skills: []string{"Teaching", "Curriculum Development", "E-Learning", "Classroom Management", "Instructional Design", "Coaching", "Public Speaking", "Mentoring", "Lesson Planning", "Higher Education"},
		topics: map[string][]string{
			"en": {"teaching", "curriculum design", "adult education", "academic research"},
			"de": {"Lehre", "Erwachsenenbildung", "Weiterbildung"},
			"fr": {"l'enseignement", "la formation des adultes"},
			"es": {"la docencia", "la formación de adultos"},
		},
	},
}

// Seniority patterns per language: {F} is a function name, {R} a role noun.
var patterns = map[string][]string{
	"en": {
		"VP {F}", "VP of {F}", "Vice President of {F}", "Vice President, {F}", "SVP {F}", "Senior Vice President {F}", "EVP {F}",
		"Head of {F}", "Director of {F}", "{F} Director", "Senior Director, {F}", "Global Head of {F}",
		"{F} Manager", "Manager, {F}", "{F} Team Lead", "Lead {R}", "{R} Team Lead",
		"Senior {R}", "Sr. {R}", "Principal {R}", "Staff {R}", "{R}", "{R}", "{R} II",
		"Junior {R}", "Associate {R}", "{F} Intern", "Graduate {R}", "{F} Trainee",
	},
	"de": {
		"Leiter {F}", "Leiterin {F}", "Bereichsleiter {F}", "Abteilungsleiter {F}", "Teamleiter {F}", "Head of {F}", "Direktor {F}",
		"Senior {R}", "{R}", "{R}", "Junior {R}", "Werkstudent {F}", "Praktikant {F}", "Trainee {F}", "Referent {F}",
	},
	"fr": {
		"Directeur {F}", "Directrice {F}", "Vice-président {F}", "Responsable {F}", "Chef du service {F}", "Manager {F}",
		"{R} senior", "{R}", "{R}", "{R} junior", "Stagiaire {F}", "Alternant {F}",
	},
	"es": {
		"Director de {F}", "Directora de {F}", "Vicepresidente de {F}", "Jefe de {F}", "Gerente de {F}", "Responsable de {F}", "Coordinador de {F}",
		"{R} sénior", "{R}", "{R}", "{R} junior", "Becario de {F}", "Técnico de {F}",
	},
}

// Summary templates per language.
var summaries = map[string][]string{
	"en": {
		"{R} with {N} years of experience in {T} and {T2}. Skilled in {S1}, {S2} and {S3}.",
		"Experienced {R} focused on {T}. Background in {S1} and {S2}.",
		"{TITLE} at a growing company, passionate about {T}, {S1} and {S2}.",
		"I lead {F} and work on {T}; day to day I use {S1}, {S2} and {S3}.",
	},
	"de": {
		"{R} mit {N} Jahren Erfahrung in {T}. Schwerpunkte: {S1}, {S2} und {S3}.",
		"{TITLE} mit Leidenschaft für {T} sowie {S1} und {S2}.",
		"Verantwortlich für {F}; Erfahrung mit {S1}, {S2}.",
	},
	"fr": {
		"{R} avec {N} ans d'expérience dans {T}. Compétences : {S1}, {S2}, {S3}.",
		"{TITLE}, passionné par {T} ; expertise en {S1} et {S2}.",
		"En charge {F}, je travaille sur {T} avec {S1} et {S2}.",
	},
	"es": {
		"{R} con {N} años de experiencia en {T}. Habilidades: {S1}, {S2} y {S3}.",
		"{TITLE} apasionado por {T}, con experiencia en {S1} y {S2}.",
		"Responsable de {F}; trabajo en {T} con {S1} y {S2}.",
	},
}

var langs = []string{"en", "de", "fr", "es"}

// langWeight: English dominates real profile data; the others still get enough lines to learn.
var langWeight = map[string]int{"en": 5, "de": 2, "fr": 2, "es": 2}

func main() {
	out := flag.String("o", "corpus.txt", "output file")
	perGroup := flag.Int("n", 260, "lines per function group")
	flag.Parse()
	f, err := os.Create(*out)
	if err != nil {
		log.Fatal(err)
	}
	w := bufio.NewWriter(f)
	fmt.Fprintln(w, "# Training corpus of the built-in embedder. Generated by internal/corpusgen: do not edit.")
	rng := rand.New(rand.NewPCG(2024, 4))
	for _, g := range groups {
		for i := 0; i < *perGroup; i++ {
			fmt.Fprintln(w, line(rng, g, i))
		}
	}
	if err := w.Flush(); err != nil {
		log.Fatal(err)
	}
	if err := f.Close(); err != nil {
		log.Fatal(err)
	}
}

// line makes the i-th line of a group, cycling through the line kinds.
func line(rng *rand.Rand, g group, i int) string {
	lang := pickLang(rng)
	switch i % 6 {
	case 0, 1:
		return title(rng, g, lang)
	case 2:
		return title(rng, g, lang) + " | " + strings.Join(pickN(rng, g.skills, 3+rng.IntN(4)), ", ")
	case 3:
		if rng.IntN(3) == 0 {
			return pick(rng, g.chiefs) + " | " + strings.Join(pickN(rng, g.skills, 3), ", ") + " | " + pick(rng, g.topics["en"])
		}
		return strings.Join(pickN(rng, g.skills, 4+rng.IntN(4)), ", ")
	default:
		return summary(rng, g, lang)
	}
}

func title(rng *rand.Rand, g group, lang string) string {
	if rng.IntN(8) == 0 {
		return pick(rng, g.chiefs)
	}
	p := pick(rng, patterns[lang])
	p = strings.ReplaceAll(p, "{F}", pick(rng, g.fn[lang]))
	return strings.ReplaceAll(p, "{R}", pick(rng, g.roles[lang]))
}

func summary(rng *rand.Rand, g group, lang string) string {
	s := pick(rng, summaries[lang])
	sk := pickN(rng, g.skills, 3)
	topics := g.topics[lang]
	r := strings.NewReplacer(
		"{R}", pick(rng, g.roles[lang]),
		"{TITLE}", title(rng, g, lang),
		"{F}", pick(rng, g.fn[lang]),
		"{N}", fmt.Sprint(2+rng.IntN(20)),
		"{T2}", pick(rng, topics),
		"{T}", pick(rng, topics),
		"{S1}", sk[0], "{S2}", sk[1], "{S3}", sk[2],
	)
	return r.Replace(s)
}

func pickLang(rng *rand.Rand) string {
	total := 0
	for _, l := range langs {
		total += langWeight[l]
	}
	n := rng.IntN(total)
	for _, l := range langs {
		if n < langWeight[l] {
			return l
		}
		n -= langWeight[l]
	}
	return "en"
}

func pick(rng *rand.Rand, xs []string) string { return xs[rng.IntN(len(xs))] }

// pickN picks n distinct items (fewer if the list is shorter).
func pickN(rng *rand.Rand, xs []string, n int) []string {
	idx := rng.Perm(len(xs))
	out := make([]string, 0, n)
	for _, i := range idx[:min(n, len(xs))] {
		out = append(out, xs[i])
	}
	return out
}
