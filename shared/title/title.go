// Package title classifies job titles into Firmo's department and seniority values and
// matches titles against the contact-search `title` filter.
//
// # Classification
//
// Classify reads English, German, French and Spanish titles with a dictionary of cues
// (lexicon.go). A title is normalized first (see Normalize): lower case, accents folded,
// punctuation tolerant, so "Sr. V.P., Ventas" and "sr vp ventas" read the same. Everything
// after "at", "@", "bei" or "chez" names the employer and is ignored; so is whatever follows
// "Assistant to", "Assistentin der" and the like, which names the boss, not the job.
//
// Department: every cue names a department with a weight; the heaviest cue in the title
// wins and ties go to the earliest word. The weights encode which word names the function
// when several appear: "Sales Operations Manager" is Sales - Marketing, "IT Consultant" is
// Pro Services, "Marketing Assistant" is Sales - Marketing, "Medical Sales Representative"
// is Sales - Marketing. C-suite titles whose function is a department take that department
// (CTO: Technology, CFO: Finance, COO: Operations, CMO: Sales - Marketing, CHRO: Human
// Resources, General Counsel: Legal), with seniority executive; CEO and the general-
// management titles (Founder, Owner, President, Managing Director, Geschäftsführer,
// Vorstand, PDG, Directeur Général, Director General, Gerente General, Consejero Delegado,
// Partner) are Executive only when no function is named ("Geschäftsführer Vertrieb" and
// "Vorstand Finanzen" take their function). A title with no function cue is Executive
// when its seniority is director or above and Other below.
//
// Deliberate department choices: lawyers, attorneys and counsel are Legal, as is
// compliance; consultants, advisors and external auditors are Pro Services whatever
// their subject ("IT Consultant", "Tax Advisor", "Steuerberater"), except sales roles
// named consultant ("Sales Consultant", "Solutions Consultant"), which are Sales -
// Marketing; internal audit is Finance; payroll is Human Resources; product management,
// UX and UI design, data science and all engineering disciplines are Technology unless a
// phrase says otherwise ("Sales Engineer", "Support Engineer", "Process Engineer");
// graphic, brand and content work is Sales - Marketing; research is Research &
// Development and clinical research Medical - Science; communications and press are
// Public Relations while marketing communications is Sales - Marketing.
//
// Seniority: every rank cue in the title is read and the highest wins ("Senior Manager"
// is manager, "Assistant Director" is director, "Sr. VP" is vp), except that trainee words
// (Intern, Trainee, Praktikant, Werkstudent, Stagiaire, Alternant, Becario, Student ...)
// decide on their own. Ranks, highest first: executive (C-suite acronyms and any "Chief
// ... Officer", founders, owners, presidents, partners, board members, managing and
// general directors in all four languages), vp (VP, SVP, EVP, AVP, Vice President,
// Vizepräsident, Vice-président, Vicepresidente), director (Director, Head of, Directeur,
// Direktor, Leiter and "-leiter" compounds, Jefe), manager (Manager, Gerente, Responsable,
// Supervisor, Team Lead, Teamleiter, Projektleiter, Chef de projet, Jefe de proyecto),
// senior_ic (Senior, Sr, Lead, Principal, Staff engineer and the like, Oberarzt, confirmé),
// entry_level (Junior, Assistant, Auxiliar, Graduate, Receptionist and the trainee words),
// and mid_level when no rank word appears. Seniority follows the rank the title states,
// not the person's real reporting line: an Account Manager is a manager, an Account
// Executive is mid_level, an Executive Assistant is entry_level.
//
// In German compounds the last part is the head noun, so "Vorstandsassistentin" is an
// assistant (entry_level) and "Vertriebsleiter" a director.
//
// # Matching
//
// ParseQuery implements the API reference's title filter; see Query.
//
// ACCURACY.md reports the classifier's accuracy on the labelled set in testdata.
package title

import (
	"slices"
	"strings"
)

// The 15 canonical department values of the API reference (case-sensitive).
const (
	Operations          = "Operations"
	Executive           = "Executive"
	Technology          = "Technology"
	SalesMarketing      = "Sales - Marketing"
	Finance             = "Finance"
	Legal               = "Legal"
	HumanResources      = "Human Resources"
	MedicalScience      = "Medical - Science"
	CustomerService     = "Customer Service"
	ResearchDevelopment = "Research & Development"
	Administration      = "Administration"
	PublicRelations     = "Public Relations"
	InvestorRelations   = "Investor Relations"
	ProServices         = "Pro Services"
	Other               = "Other"
)

// The 7 seniority values of the API reference, highest first.
const (
	ExecutiveLevel = "executive"
	VP             = "vp"
	Director       = "director"
	Manager        = "manager"
	SeniorIC       = "senior_ic"
	MidLevel       = "mid_level"
	EntryLevel     = "entry_level"
)

var departments = [...]string{
	Operations, Executive, Technology, SalesMarketing, Finance, Legal, HumanResources,
	MedicalScience, CustomerService, ResearchDevelopment, Administration, PublicRelations,
	InvestorRelations, ProServices, Other,
}

var seniorities = [...]string{ExecutiveLevel, VP, Director, Manager, SeniorIC, MidLevel, EntryLevel}

// Departments returns the 15 canonical department values in the API reference's order.
// The slice is a copy: callers may keep or modify it.
func Departments() []string { return slices.Clone(departments[:]) }

// Seniorities returns the 7 seniority values, highest first. The slice is a copy.
func Seniorities() []string { return slices.Clone(seniorities[:]) }

// ValidDepartment reports whether s is one of the 15 department values, compared
// exactly: the API reference answers 422 to "sales - marketing".
func ValidDepartment(s string) bool { return slices.Contains(departments[:], s) }

// ValidSeniority reports whether s is one of the 7 seniority values, compared exactly.
func ValidSeniority(s string) bool { return slices.Contains(seniorities[:], s) }

// Result is the classification of one title.
type Result struct {
	Department string // one of Departments()
	Seniority  string // one of Seniorities()
}

// Classify returns the department and seniority of a job title. It never fails: a title
// it cannot read is Other and mid_level.
func Classify(title string) Result {
	ix := compiled()
	toks := jobWords(tokens(title))
	r := seniorityOf(ix, toks)
	return Result{Department: departmentOf(ix, toks, r), Seniority: rankNames[r]}
}

// employerMarkers introduce the employer in titles such as "Engineer at Acme".
var employerMarkers = map[string]bool{"at": true, "bei": true, "chez": true}

// bossMarkers follow an assistant word and introduce whom the assistant works for:
// "Assistant to the CEO", "Assistentin der Geschäftsführung", "Assistante du PDG".
// Romance "de" is absent on purpose: "Asistente de Marketing" names a function.
var bossMarkers = map[string]bool{"to": true, "of": true, "der": true, "fur": true, "du": true}

// jobWords drops the words that describe the employer or the boss rather than the job.
func jobWords(toks []string) []string {
	for i := 1; i < len(toks); i++ {
		if employerMarkers[toks[i]] {
			toks = toks[:i]
			break
		}
	}
	for i := 0; i+1 < len(toks); i++ {
		if isAssistantWord(toks[i]) && bossMarkers[toks[i+1]] {
			return toks[:i+1]
		}
	}
	return toks
}

func isAssistantWord(w string) bool {
	return strings.HasPrefix(w, "assistant") || strings.Contains(w, "assisten") || w == "asistente" ||
		strings.HasPrefix(w, "secretar") || strings.Contains(w, "sekretar") || w == "pa"
}

// departmentOf picks the heaviest department cue; r breaks the no-cue case.
func departmentOf(ix *index, toks []string, r rank) string {
	best, bestWeight := "", 0
	consider := func(c *cue) {
		// Neutral phrases (no department) only hide the words inside them.
		if c.dept != "" && c.weight > bestWeight {
			best, bestWeight = c.dept, c.weight
		}
	}
	for i := 0; i < len(toks); {
		if c := ix.dept.phraseAt(toks, i); c != nil {
			consider(c)
			i += len(c.words)
			continue
		}
		for _, c := range ix.dept.stems {
			if c.stemEnd(toks[i]) >= 0 {
				consider(c)
			}
		}
		i++
	}
	if best != "" {
		return best
	}
	if r >= rankDirector {
		return Executive
	}
	return Other
}

// seniorityOf returns the highest rank named in toks, rankEntry for trainees and
// rankMid when no rank word appears.
func seniorityOf(ix *index, toks []string) rank {
	for i := range toks {
		if i > 0 && toks[i-1] == "post" {
			continue // "post-doctorante" has finished the doctorate
		}
		if ix.trainee.phraseAt(toks, i) != nil || headStem(&ix.trainee, toks[i]) != nil {
			return rankEntry
		}
	}
	best := rankNone
	for i := 0; i < len(toks); {
		if n := chiefOfficerAt(toks, i); n > 0 {
			best = max(best, rankExecutive)
			i += n
			continue
		}
		if c := ix.rank.phraseAt(toks, i); c != nil {
			best = max(best, c.rank)
			i += len(c.words)
			continue
		}
		if c := headStem(&ix.rank, toks[i]); c != nil {
			best = max(best, c.rank)
		}
		i++
	}
	if best == rankNone {
		return rankMid
	}
	return best
}

// headStem returns the stem cue that is the head of a (German compound) word: the one
// ending last, and of those the longest. "Vorstandsassistentin" is an assistant, not a
// board member; "Teamleiter" is a team lead, not any Leiter.
func headStem(lx *lexicon, word string) *cue {
	var best *cue
	bestEnd := -1
	for _, c := range lx.stems {
		end := c.stemEnd(word)
		if end < 0 {
			continue
		}
		if end > bestEnd || (end == bestEnd && len(c.stem) > len(best.stem)) {
			best, bestEnd = c, end
		}
	}
	return best
}

// chiefOfficerAt returns how many words a "Chief ... Officer" title spans at i, or 0.
// Any such title is C-suite, including the ones the acronym table does not list
// ("Chief Sustainability Officer"). "Chief Engineer" and "Chief of Staff" are not.
func chiefOfficerAt(toks []string, i int) int {
	if toks[i] != "chief" {
		return 0
	}
	for j := i + 1; j < len(toks) && j <= i+5; j++ {
		if toks[j] == "officer" {
			return j - i + 1
		}
	}
	return 0
}
