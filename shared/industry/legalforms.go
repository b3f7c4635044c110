package industry

import (
	"regexp"
	"strings"
	"sync"
)

// legalForm is a statement of a page about what kind of body runs it: the legal
// form or status that imprints, footers and about pages name (a German "e.V." is a
// registered association, a "gGmbH" a non-profit company, a "Körperschaft des
// öffentlichen Rechts" a public-law body). Such a statement counts like a declared
// schema.org type: it adds typeBoost to the value's industry and makes its
// sub-industry the first within it, and it tips a page rather than decides it (a
// university is a public-law body too, and its vocabulary still says EDUCATION).
type legalForm struct {
	hints []string // lower-case words one of which the text must contain for re to run
	re    *regexp.Regexp
	value string
	// heads: the form counts only in the page's own statements (the first
	// statementTexts texts statedForms gets: title, description, headings), where a
	// site says what it is, not in running text, where a web agency names its clients'.
	heads bool
}

// statementTexts is how many of statedForms's texts are the page's statements.
const statementTexts = 3

// legalForms are written by the team from the legal forms and statuses of the seven
// languages' countries: only forms that a for-profit company never bears. Forms
// that companies and non-profits share (a VAT number, a Dutch "stichting", a
// register number of the Chamber of Commerce) are left out, and so is a company's
// own form (GmbH, SARL, Ltd): a footer names the web agency's as often as its own.
// Built on first use.
var legalForms = sync.OnceValue(func() []legalForm {
	forms := []struct{ hints, pattern, value string }{
		// Registered associations and non-profit statuses.
		{"e.v.|e. v.|verein", `\be\.\s?V\.(\s|$|[,;)])|\beingetragene[rn]? Verein`, "NON_PROFIT/ASSOCIATIONS"},
		{"1901|non lucratif", `(?i)\bassociation (de )?(la )?loi( du 1er juillet)? 1901\b|\bassociation à but non lucratif\b`, "NON_PROFIT/ASSOCIATIONS"},
		{"asbl|vzw", `\bASBL\b|\bVZW\b|\bvzw\b`, "NON_PROFIT/ASSOCIATIONS"},
		{"onlus|promozione sociale|terzo settore|volontariato", `\bONLUS\b|(?i)\bassociazione di promozione sociale\b|\bente del terzo settore\b|\borganizzazione di volontariato\b`, "NON_PROFIT/ASSOCIATIONS"},
		{"lucro|lucrativos", `(?i)\bsin (á|a)nimo de lucro\b|\bsin fines de lucro\b|\bsem fins lucrativos\b`, "NON_PROFIT/ASSOCIATIONS"},
		{"ipss|solidariedade", `\bIPSS\b|(?i)\binstitui(ç|c)(ã|a)o particular de solidariedade social\b`, "NON_PROFIT/CHARITIES"},
		{"profit|winstoogmerk", `(?i)\bnon-?profit organi[sz]ation\b|\bnot-for-profit organi[sz]ation\b|\bvereniging zonder winstoogmerk\b`, "NON_PROFIT/ASSOCIATIONS"},
		{"charity|501", `(?i)\bregistered charity\b|\bcharity (no\.?|number|reg(istration)?\.? no\.?)\s*:?\s*\d|\b501\s?\(c\)\s?\(3\)`, "NON_PROFIT/CHARITIES"},
		{"anbi|algemeen nut", `\bANBI\b|(?i)\balgemeen nut beogende instelling\b`, "NON_PROFIT/CHARITIES"},
		{"ggmbh|gug|gag|gemeinnützige", `\bgGmbH\b|\bgUG\b|\bgAG\b|(?i)\bgemeinnützige (gmbh|ug|ag|genossenschaft)\b`, "NON_PROFIT/CHARITIES"},
		{"stiftung|utilité publique", `(?i)\b(rechtsfähige|gemeinnützige) stiftung\b|\bstiftung (des )?bürgerlichen rechts\b|\bfondation reconnue d'utilité publique\b`, "NON_PROFIT/FOUNDATIONS"},
		{"utilité publique", `(?i)\breconnue? d['’]utilité publique\b`, "NON_PROFIT/ASSOCIATIONS"},
		// Public-law bodies.
		{"öffentlichen rechts", `(?i)\b(körperschaft|anstalt) des öffentlichen rechts\b`, "GOVERNMENT/AGENCIES"},
		{"établissement public", `(?i)(^|[^\pL])établissement public (à caractère administratif|administratif|local|national)\b`, "GOVERNMENT/AGENCIES"},
		{"pubblico|autónomo|autonomo|público|publico|bestuursorgaan", `(?i)\bente pubblico\b|\bente di diritto pubblico\b|\borganismo aut(ó|o)nomo\b|\bentidad de derecho p(ú|u)blico\b|\bpessoa coletiva de direito p(ú|u)blico\b|\bzelfstandig bestuursorgaan\b`, "GOVERNMENT/AGENCIES"},
		{"official website", `(?i)\b(an )?official website of the (state|city|county|government|municipality|town)\b`, "GOVERNMENT"},
		// The same statement of a municipality's own site in the other languages, in
		// the page's title, description or headings only (heads).
		{"+officiel|oficial|ufficiale|istituzionale|offizielle|officiële", `(?i)\b(site|portail) officiel de la (commune|ville|mairie)\b|\b(sitio|portal) (web )?oficial del (ayuntamiento|municipio)\b|\bsito (web )?(ufficiale|istituzionale) del comune\b|\boffizielle (website|internetseite|homepage) der (gemeinde|stadt)\b|\bofficiële website van de gemeente\b|\b(site|portal) oficial da (câmara municipal|prefeitura)\b`, "GOVERNMENT/MUNICIPALITIES"},
	}
	out := make([]legalForm, len(forms))
	for i, f := range forms {
		hints, heads := strings.CutPrefix(f.hints, "+")
		out[i] = legalForm{hints: strings.Split(hints, "|"), re: regexp.MustCompile(f.pattern), value: f.value, heads: heads}
	}
	return out
})

// statedForms are the values of the legal forms texts state, each once: the page's
// title, description and headings first, then its running text and legal notice. A
// form's expression runs only on texts holding one of its hints (most pages hold none).
func statedForms(texts ...string) []string {
	var out []string
	seen := map[string]bool{}
	lower := make([]string, len(texts))
	for i, t := range texts {
		lower[i] = strings.ToLower(t)
	}
	for _, f := range legalForms() {
		if seen[f.value] {
			continue
		}
		for i, t := range texts {
			if f.heads && i >= statementTexts {
				break
			}
			if hinted(lower[i], f.hints) && f.re.MatchString(t) {
				seen[f.value] = true
				out = append(out, f.value)
				break
			}
		}
	}
	return out
}

func hinted(lower string, hints []string) bool {
	for _, h := range hints {
		if strings.Contains(lower, h) {
			return true
		}
	}
	return false
}
