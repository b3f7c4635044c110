package title

import (
	"slices"
	"strings"
	"testing"
)

func TestClassify(t *testing.T) {
	tests := []struct {
		title     string
		wantDept  string
		wantLevel string
	}{
		// C-suite: the function decides the department, the rank is executive.
		{"CEO", Executive, ExecutiveLevel},
		{"CTO", Technology, ExecutiveLevel},
		{"CFO", Finance, ExecutiveLevel},
		{"Chief People Officer", HumanResources, ExecutiveLevel},
		{"Chief Sustainability Officer", Executive, ExecutiveLevel}, // not in the table: still C-suite
		{"C.T.O.", Technology, ExecutiveLevel},
		{"Co-Founder & CTO", Technology, ExecutiveLevel},
		{"Geschäftsführer", Executive, ExecutiveLevel},
		{"Geschaeftsfuehrer", Executive, ExecutiveLevel},
		{"Geschäftsführer Vertrieb", SalesMarketing, ExecutiveLevel},
		{"Vorstand Finanzen", Finance, ExecutiveLevel},
		{"PDG", Executive, ExecutiveLevel},
		{"Directeur Général", Executive, ExecutiveLevel},
		{"Director General", Executive, ExecutiveLevel},
		{"Gerente General", Executive, ExecutiveLevel},
		{"Consejero Delegado", Executive, ExecutiveLevel},
		{"Owner", Executive, ExecutiveLevel},
		// VP variants.
		{"V.P. Sales", SalesMarketing, VP},
		{"S.V.P., Engineering", Technology, VP},
		{"EVP Operations", Operations, VP},
		{"Vizepräsident Personal", HumanResources, VP},
		{"Vice-présidente Marketing", SalesMarketing, VP},
		{"Senior Vice President", Executive, VP},
		// Director level.
		{"Head of Legal", Legal, Director},
		{"Dir. Finance", Finance, Director},
		{"Directrice Commerciale", SalesMarketing, Director},
		{"Vertriebsleiter", SalesMarketing, Director},
		{"Jefe de Ventas", SalesMarketing, Director},
		{"Assistant Director", Executive, Director},
		// Manager level.
		{"Teamleiter Kundenservice", CustomerService, Manager},
		{"Gerente de Ventas", SalesMarketing, Manager},
		{"Responsable Marketing", SalesMarketing, Manager},
		{"Senior Manager, Finance", Finance, Manager},
		{"Sr. Mgr. Marketing", SalesMarketing, Manager},
		// Senior individual contributors.
		{"Sr. Software Engineer", Technology, SeniorIC},
		{"Principal Consultant", ProServices, SeniorIC},
		{"Staff Data Scientist", Technology, SeniorIC},
		{"Lead Developer", Technology, SeniorIC},
		// Entry level and trainees.
		{"Praktikant Marketing", SalesMarketing, EntryLevel},
		{"Stagiaire Ventes", SalesMarketing, EntryLevel},
		{"Becario de Recursos Humanos", HumanResources, EntryLevel},
		{"Junior Accountant", Finance, EntryLevel},
		{"Intern, Office of the CEO", Executive, EntryLevel},
		{"Assistant", Administration, EntryLevel},
		{"Executive Assistant to the CEO", Administration, EntryLevel},
		{"Assistentin der Geschäftsführung", Administration, EntryLevel},
		{"Vorstandsassistentin", Administration, EntryLevel},
		// Mid level and words that only look like ranks.
		{"Account Executive", SalesMarketing, MidLevel},
		{"Product Owner", Technology, MidLevel},
		{"HR Business Partner", HumanResources, MidLevel},
		{"Lead Generation Specialist", SalesMarketing, MidLevel},
		{"Staff Accountant", Finance, MidLevel},
		{"Ejecutivo de Ventas", SalesMarketing, MidLevel},
		// Department keywords in four languages.
		{"Entwickler", Technology, MidLevel},
		{"Développeur", Technology, MidLevel},
		{"Desarrollador", Technology, MidLevel},
		{"IT Specialist", Technology, MidLevel},
		{"Buchhaltung", Finance, MidLevel},
		{"Comptable", Finance, MidLevel},
		{"Contable", Finance, MidLevel},
		{"Leiter Personal", HumanResources, Director},
		{"Responsable RH", HumanResources, Manager},
		{"Técnico de Recursos Humanos", HumanResources, MidLevel},
		{"People Operations Specialist", HumanResources, MidLevel},
		{"Leiter Recht", Legal, Director},
		{"Juriste", Legal, MidLevel},
		{"Abogado", Legal, MidLevel},
		{"Lawyer", Legal, MidLevel},
		{"Arzt", MedicalScience, MidLevel},
		{"Médecin", MedicalScience, MidLevel},
		{"Médico", MedicalScience, MidLevel},
		{"Pharmacist", MedicalScience, MidLevel},
		{"Kundendienst", CustomerService, MidLevel},
		{"Support Agent", CustomerService, MidLevel},
		{"Forschung", ResearchDevelopment, MidLevel},
		{"R & D Engineer", ResearchDevelopment, MidLevel},
		{"Office Assistant", Administration, EntryLevel},
		{"Presse", PublicRelations, MidLevel},
		{"Investor Relations", InvestorRelations, MidLevel},
		{"Berater", ProServices, MidLevel},
		{"Auditor", ProServices, MidLevel},
		{"Supply Chain Analyst", Operations, MidLevel},
		{"Produktion", Operations, MidLevel},
		// The employer is not part of the job.
		{"Engineer at Marketing Corp", Technology, MidLevel},
		{"Entwickler bei Vertriebs GmbH", Technology, MidLevel},
		// Nothing recognisable.
		{"", Other, MidLevel},
		{"Wizard", Other, MidLevel},
		{"!!!", Other, MidLevel},
	}
	for _, tt := range tests {
		t.Run(tt.title, func(t *testing.T) {
			got := Classify(tt.title)
			want := Result{Department: tt.wantDept, Seniority: tt.wantLevel}
			if got != want {
				t.Errorf("Classify(%q) = %+v, want %+v", tt.title, got, want)
			}
		})
	}
}

func TestNormalize(t *testing.T) {
	tests := []struct{ in, want string }{
		{"Sr. V.P., Sales", "sr vp sales"},
		{"S.V.P. Engineering", "svp engineering"},
		{"Dir.Marketing", "dir marketing"},
		{"R&D", "r and d"},
		{"Geschäftsführerin", "geschaftsfuhrerin"},
		{"Straße", "strasse"},
		{"Directrice Générale", "directrice generale"},
		{"Diseñador", "disenador"},
		{"Cre\u0301ateur", "createur"}, // decomposed accent
		{"Chief-Technology-Officer (CTO)", "chief technology officer cto"},
		{"CEO @ Acme", "ceo at acme"},
		{"I+D", "i plus d"},
		{"  ", ""},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			if got := Normalize(tt.in); got != tt.want {
				t.Errorf("Normalize(%q) = %q, want %q", tt.in, got, tt.want)
			}
		})
	}
}

func TestCanonicalLists(t *testing.T) {
	if got := len(Departments()); got != 15 {
		t.Errorf("len(Departments()) = %d, want 15", got)
	}
	if got, want := Seniorities(), []string{"executive", "vp", "director", "manager", "senior_ic", "mid_level", "entry_level"}; !slices.Equal(got, want) {
		t.Errorf("Seniorities() = %v, want %v", got, want)
	}
	d := Departments()
	d[0] = "changed"
	if Departments()[0] != Operations {
		t.Error("Departments() returned shared storage")
	}
	tests := []struct {
		in   string
		want bool
	}{
		{"Sales - Marketing", true},
		{"Research & Development", true},
		{"Other", true},
		{"sales - marketing", false},
		{"Sales-Marketing", false},
		{"Marketing", false},
		{"", false},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			if got := ValidDepartment(tt.in); got != tt.want {
				t.Errorf("ValidDepartment(%q) = %v, want %v", tt.in, got, tt.want)
			}
		})
	}
}

// TestClassifyAlwaysCanonical guards the contract that every result is a spec value.
func TestClassifyAlwaysCanonical(t *testing.T) {
	for _, title := range []string{"", "x", "Chief", "Officer", "Head", "at", "Assistant to", "+", "post", "CEO at"} {
		got := Classify(title)
		if !ValidDepartment(got.Department) || !ValidSeniority(got.Seniority) {
			t.Errorf("Classify(%q) = %+v, not canonical", title, got)
		}
	}
}

// TestLexiconNormalized checks that every dictionary entry is written the way Normalize
// writes titles: an entry with capitals, accents or punctuation would never match.
func TestLexiconNormalized(t *testing.T) {
	check := func(where, entry string) {
		t.Helper()
		bare := strings.Trim(entry, "*")
		if bare == "" || Normalize(bare) != bare {
			t.Errorf("%s entry %q is not normalized (want %q)", where, entry, Normalize(bare))
		}
		if strings.Contains(entry, "*") && strings.Contains(bare, " ") {
			t.Errorf("%s entry %q: a stem must be a single word", where, entry)
		}
	}
	for _, g := range departmentCues {
		if g.dept != "" && !ValidDepartment(g.dept) {
			t.Errorf("department group with invalid department %q", g.dept)
		}
		for _, c := range g.cues {
			check("department", c)
		}
	}
	for _, g := range rankCues {
		for _, c := range g.cues {
			check("rank", c)
		}
	}
	for _, c := range traineeCues {
		check("trainee", c)
	}
	for _, r := range append(append([]role(nil), csuite...), rankRoles...) {
		if r.acronym != "" {
			check("acronym", r.acronym)
		}
		for _, f := range r.forms {
			check("role", f)
		}
	}
	for _, r := range csuite {
		if !ValidDepartment(r.dept) {
			t.Errorf("role %v has invalid department", r.forms)
		}
		for _, f := range r.forms {
			// Classification relies on chiefOfficerAt for the executive rank of every form.
			if words := strings.Fields(f); chiefOfficerAt(words, 0) != len(words) {
				t.Errorf("role form %q is not a Chief ... Officer title", f)
			}
		}
	}
}

func BenchmarkClassify(b *testing.B) {
	titles := []string{
		"Senior Software Engineer", "Vice President, Marketing", "Geschäftsführerin",
		"Responsable des Ressources Humaines", "Jefe de Proyecto", "Executive Assistant to the CEO",
		"Chief Technology Officer", "Sr. Mgr. Customer Success (EMEA) at Acme Corp",
	}
	b.ReportAllocs()
	for i := 0; b.Loop(); i++ {
		Classify(titles[i%len(titles)])
	}
}
