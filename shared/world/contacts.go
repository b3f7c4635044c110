package world

import (
	"context"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/nyaruka/phonenumbers"

	"github.com/firmoapi/firmo/shared/contact"
)

// streamContacts is the random stream of a company's contacts; it is independent of the
// company's other streams, so adding contacts changed no company.
const streamContacts = 50

// MaxContactsPerCompany bounds a company's contacts; persona ids are company index x
// 100 + 1 + k, so they are stable whatever the world's size.
const MaxContactsPerCompany = 99

// role is a job title in one language with the skills such a person lists. The
// department and seniority are NOT given: Firmo derives them from the title.
type role struct {
	title  string
	skills []string
}

// roles per language; Portuguese, Italian and Dutch companies use the English list (the
// title classifier covers English, German, French and Spanish).
var roles = map[string][]role{
	"en": {
		{"Chief Executive Officer", []string{"strategy", "leadership", "fundraising"}},
		{"CTO", []string{"software architecture", "cloud", "engineering management"}},
		{"Chief Financial Officer", []string{"financial planning", "ifrs", "treasury"}},
		{"VP Engineering", []string{"engineering management", "kubernetes", "go"}},
		{"VP Sales", []string{"b2b sales", "negotiation", "salesforce"}},
		{"Head of Software Development", []string{"software development", "java", "agile"}},
		{"Director of Marketing", []string{"digital marketing", "seo", "brand strategy"}},
		{"Sales Manager", []string{"b2b sales", "crm", "account management"}},
		{"Account Executive", []string{"b2b sales", "prospecting", "hubspot"}},
		{"Senior Software Engineer", []string{"go", "python", "distributed systems"}},
		{"Software Engineer", []string{"javascript", "react", "sql"}},
		{"Data Scientist", []string{"machine learning", "python", "statistics"}},
		{"HR Manager", []string{"recruiting", "employee relations", "payroll"}},
		{"Recruiter", []string{"recruiting", "sourcing", "interviewing"}},
		{"Controller", []string{"accounting", "reporting", "excel"}},
		{"Accountant", []string{"bookkeeping", "accounting", "tax"}},
		{"Customer Success Manager", []string{"customer success", "onboarding", "retention"}},
		{"Customer Support Specialist", []string{"customer support", "zendesk", "troubleshooting"}},
		{"Operations Manager", []string{"operations", "process improvement", "logistics"}},
		{"General Counsel", []string{"contracts", "compliance", "corporate law"}},
		{"Office Manager", []string{"office administration", "scheduling", "procurement"}},
		{"Marketing Intern", []string{"social media", "content writing", "canva"}},
		{"Product Manager", []string{"product management", "roadmapping", "user research"}},
		{"IT Administrator", []string{"networking", "windows server", "it support"}},
		{"Public Relations Manager", []string{"media relations", "press releases", "communications"}},
	},
	"de": {
		{"Geschäftsführer", []string{"strategie", "führung", "unternehmensentwicklung"}},
		{"Technischer Leiter", []string{"software architecture", "cloud", "engineering management"}},
		{"Leiterin Finanzen", []string{"finanzplanung", "controlling", "hgb"}},
		{"Vertriebsleiter", []string{"b2b vertrieb", "verhandlung", "salesforce"}},
		{"Leiter Softwareentwicklung", []string{"software development", "java", "agile"}},
		{"Marketing Managerin", []string{"online marketing", "seo", "markenführung"}},
		{"Softwareentwickler", []string{"java", "python", "sql"}},
		{"Senior Softwareentwickler", []string{"go", "kubernetes", "distributed systems"}},
		{"Kundenbetreuerin", []string{"kundenservice", "crm", "beschwerdemanagement"}},
		{"Personalreferentin", []string{"recruiting", "personalentwicklung", "lohnabrechnung"}},
		{"Produktmanager", []string{"product management", "roadmapping", "user research"}},
		{"Key Account Manager", []string{"key account management", "b2b vertrieb", "verhandlung"}},
		{"Assistenz der Geschäftsführung", []string{"office management", "organisation", "korrespondenz"}},
		{"Buchhalterin", []string{"buchhaltung", "datev", "jahresabschluss"}},
		{"Leiter Betrieb", []string{"operations", "prozessoptimierung", "logistik"}},
		{"Werkstudent Marketing", []string{"social media", "content", "canva"}},
		{"Justiziar", []string{"vertragsrecht", "compliance", "gesellschaftsrecht"}},
		{"Vorstand", []string{"strategie", "führung", "investor relations"}},
	},
	"fr": {
		{"Directeur Général", []string{"stratégie", "leadership", "levée de fonds"}},
		{"Directeur Technique", []string{"architecture logicielle", "cloud", "management"}},
		{"Directrice Financière", []string{"contrôle de gestion", "trésorerie", "ifrs"}},
		{"Directeur Commercial", []string{"vente b2b", "négociation", "salesforce"}},
		{"Responsable Marketing", []string{"marketing digital", "seo", "communication"}},
		{"Ingénieur Logiciel", []string{"java", "python", "sql"}},
		{"Développeur Senior", []string{"go", "kubernetes", "systèmes distribués"}},
		{"Chargée de Clientèle", []string{"relation client", "crm", "support"}},
		{"Responsable des Ressources Humaines", []string{"recrutement", "paie", "relations sociales"}},
		{"Chef de Produit", []string{"product management", "roadmap", "recherche utilisateur"}},
		{"Comptable", []string{"comptabilité", "fiscalité", "clôture"}},
		{"Juriste", []string{"droit des contrats", "conformité", "droit des sociétés"}},
		{"Assistante de Direction", []string{"administration", "organisation", "planning"}},
		{"Stagiaire Marketing", []string{"réseaux sociaux", "rédaction", "canva"}},
		{"Responsable des Opérations", []string{"opérations", "logistique", "amélioration continue"}},
	},
	"es": {
		{"Director General", []string{"estrategia", "liderazgo", "financiación"}},
		{"Director de Tecnología", []string{"arquitectura de software", "cloud", "gestión de equipos"}},
		{"Directora Financiera", []string{"planificación financiera", "tesorería", "ifrs"}},
		{"Director Comercial", []string{"ventas b2b", "negociación", "salesforce"}},
		{"Responsable de Marketing", []string{"marketing digital", "seo", "comunicación"}},
		{"Ingeniero de Software", []string{"java", "python", "sql"}},
		{"Desarrollador Senior", []string{"go", "kubernetes", "sistemas distribuidos"}},
		{"Atención al Cliente", []string{"atención al cliente", "crm", "soporte"}},
		{"Responsable de Recursos Humanos", []string{"selección de personal", "nóminas", "relaciones laborales"}},
		{"Jefe de Producto", []string{"product management", "roadmap", "investigación de usuarios"}},
		{"Contable", []string{"contabilidad", "impuestos", "cierre contable"}},
		{"Abogada", []string{"contratos", "cumplimiento normativo", "derecho mercantil"}},
		{"Asistente de Dirección", []string{"administración", "organización", "agenda"}},
		{"Becario de Marketing", []string{"redes sociales", "redacción", "canva"}},
		{"Gerente de Operaciones", []string{"operaciones", "logística", "mejora continua"}},
	},
}

// summaryTemplates are profile summaries; {title}, {company}, {years}, {s1}, {s2}. A
// person with one skill takes the template of the same index in oneSkillTemplates ("in
// sales and sales" read as the generator's slip it was).
var (
	summaryTemplates = []string{
		"{title} at {company}. {years} years of experience in {s1} and {s2}.",
		"Experienced {title} focused on {s1}, {s2} and building great teams.",
		"I work as {title} at {company}, where I lead work on {s1}. Previously {s2}.",
	}
	oneSkillTemplates = []string{
		"{title} at {company}. {years} years of experience in {s1}.",
		"Experienced {title} focused on {s1} and building great teams.",
		"I work as {title} at {company}, where I lead work on {s1}.",
	}
)

// ContactRows generates the contacts of a company, as `firmo ingest contacts` reads
// them: the people of its team page (same names, titles and emails) and more of its
// staff, about 20 for a company of 20 or more. Titles are in the company's language;
// emails (for about half of the people) follow the company's address pattern; phones are
// raw national or international strings, some mobile; about one in eight start dates is
// unknown.
func (w *World) ContactRows(i int, c Company) []contact.Row {
	s := w.skel[i]
	r := w.rng(i, streamContacts)
	lx := lexicons()[s.lang]
	rs := roles[s.lang]
	if rs == nil {
		rs = roles["en"]
	}
	pattern := teamPattern(c.Truth.Team)
	n := min(max(1, s.employees), 16+r.IntN(9))
	asOf := w.opts.AsOf
	var out []contact.Row
	seen := map[string]bool{}
	for k := 0; len(out) < n && k < 3*n; k++ {
		var first, last, title, email string
		if k < len(c.Truth.Team) {
			p := c.Truth.Team[k]
			first, last, _ = strings.Cut(p.Name, " ")
			title, email = p.Title, p.Email
		} else {
			first = pick(r, lx.list(pick(r, []string{"first.m", "first.f"})))
			last = pick(r, lx.list("last"))
			title = pick(r, rs).title
			if pattern != "" && r.IntN(2) == 0 {
				email = localPart(pattern, first, last) + "@" + s.domain
			}
		}
		if seen[first+" "+last] {
			continue
		}
		seen[first+" "+last] = true
		skills := skillsFor(r, rs, title)
		row := contact.Row{
			PersonaID: jsonOf(int64(i)*100 + int64(len(out)) + 1),
			Name:      first + " " + last, Title: title, Domain: s.domain, Email: email,
			Country: s.country.Code, State: s.place.State, Skills: jsonOf(skills),
		}
		if r.IntN(10) == 0 { // remote staff: another country of the world, no state
			row.Country, row.State = pick(r, countries).Code, ""
		}
		var phones []string
		if r.IntN(3) > 0 {
			if p := mobileNumber(r, row.Country); p != "" {
				phones = append(phones, p)
			}
		}
		if r.IntN(3) == 0 {
			if p := phoneNumber(r, row.Country); p != "" {
				phones = append(phones, p)
			}
		}
		if len(phones) > 0 {
			row.Phone = jsonOf(phones)
		}
		if r.IntN(4) > 0 {
			row.LinkedinURL = fmt.Sprintf("https://www.linkedin.com/in/%s-%s-%x", slug(first, true), slug(last, true), r.Uint32()&0xffffff)
			row.Connections = jsonOf(int64(r.IntN(1500)))
		}
		years := 1 + r.IntN(20)
		if r.IntN(8) > 0 {
			start := asOf.AddDate(0, 0, -r.IntN(365*12)-1)
			row.JobstartDate = start.Format(time.DateOnly)
		}
		if r.IntN(10) > 0 {
			ti := r.IntN(len(summaryTemplates)) // pick's draw: every other row stays as it was
			t := summaryTemplates[ti]
			if len(skills) == 1 {
				t = oneSkillTemplates[ti]
			}
			row.Summary = strings.NewReplacer("{title}", title, "{company}", s.name, "{years}", fmt.Sprint(years),
				"{s1}", skills[0], "{s2}", skills[len(skills)-1]).Replace(t)
		}
		out = append(out, row)
	}
	return out
}

// teamPattern recovers the email pattern the team page used, "" when no one has an email.
func teamPattern(team []Person) string {
	for _, p := range team {
		if p.Email == "" {
			continue
		}
		first, last, _ := strings.Cut(p.Name, " ")
		local, _, _ := strings.Cut(p.Email, "@")
		for _, pat := range emailPatterns {
			if localPart(pat, first, last) == local {
				return pat
			}
		}
	}
	return ""
}

// skillsFor gives a title's skills from its role, or two of another role's when the
// title is not in the list (team-page titles), plus sometimes a common one.
func skillsFor(r *rand.Rand, rs []role, title string) []string {
	var base []string
	for _, ro := range rs {
		if ro.title == title {
			base = ro.skills
		}
	}
	if base == nil {
		base = pick(r, rs).skills
	}
	out := append([]string(nil), base[:1+r.IntN(len(base))]...)
	if r.IntN(3) == 0 {
		out = append(out, pick(r, []string{"project management", "english", "microsoft office", "teamwork"}))
	}
	return out
}

// mobileNumber is a valid mobile number of a country, written nationally or in
// international form.
func mobileNumber(r *rand.Rand, cc string) string {
	ex := phonenumbers.GetExampleNumberForType(cc, phonenumbers.MOBILE)
	if ex == nil {
		return ""
	}
	nsn := phonenumbers.GetNationalSignificantNumber(ex)
	for try := 0; try < 50; try++ {
		digits := []byte(nsn)
		for k := max(len(digits)/2, 1); k < len(digits); k++ {
			digits[k] = byte('0' + r.IntN(10))
		}
		n, err := phonenumbers.Parse(string(digits), cc)
		if err != nil || !phonenumbers.IsValidNumber(n) {
			continue
		}
		if r.IntN(3) == 0 {
			return phonenumbers.Format(n, phonenumbers.INTERNATIONAL)
		}
		return phonenumbers.Format(n, phonenumbers.NATIONAL)
	}
	return ""
}

func jsonOf(v any) json.RawMessage {
	b, _ := json.Marshal(v)
	return b
}

// SeedContacts stores the world's contacts (ContactRows of every company) through the
// ingest validation, so a generator bug shows as an error, never as a bad record.
// Seeding again changes nothing. Companies are generated and validated on every core
// but one while this goroutine stores them, one put at a time: persona ids come from
// the rows, so the order changes nothing stored, and a single writer commits each put
// at once, where concurrent writers wait for each other's batch (the embedded store's
// group commit). onCompany, when set, is called after each company's contacts are
// stored, one call at a time.
func SeedContacts(ctx context.Context, store *contact.Store, w *World, onCompany func()) (int, error) {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	type people struct { // one company's contacts
		raws []contact.Raw
		err  error
	}
	out := make(chan people, 64)
	var next atomic.Int64
	var wg sync.WaitGroup
	for range max(1, runtime.GOMAXPROCS(0)-1) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				i := int(next.Add(1) - 1)
				if i >= w.Len() || ctx.Err() != nil {
					return
				}
				var c people
				for _, row := range w.ContactRows(i, w.Company(i)) {
					raw, err := contact.Validate(row)
					if err != nil {
						c.err = fmt.Errorf("world contact of %s: %w", w.Domain(i), err)
						break
					}
					c.raws = append(c.raws, raw)
				}
				select {
				case out <- c:
				case <-ctx.Done():
					return
				}
				if c.err != nil {
					return
				}
			}
		}()
	}
	go func() { wg.Wait(); close(out) }()
	n := 0
	var maxID int64
	for c := range out {
		if c.err != nil {
			return n, c.err
		}
		if err := ctx.Err(); err != nil {
			return n, err
		}
		for _, raw := range c.raws {
			if _, err := store.Put(ctx, raw); err != nil {
				return n, err
			}
			maxID = max(maxID, raw.PersonaID)
			n++
		}
		if onCompany != nil {
			onCompany()
		}
	}
	if err := ctx.Err(); err != nil {
		return n, err
	}
	return n, store.ClaimID(ctx, maxID)
}
