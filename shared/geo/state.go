package geo

import (
	"strings"
	"unicode"

	"golang.org/x/text/unicode/norm"
)

// ResolveState resolves a state value under one country (alpha-2, any case) to its full
// ISO 3166-2 code. The value may be
//   - the full code, any case ("US-CA", "us-ca"), of a subdivision of that country;
//   - the bare suffix ("CA" under US, "9" under AT);
//   - a name, compared case-, accent- and punctuation-insensitively: the ISO name
//     ("Baden-Württemberg" also as "baden wurttemberg" or "Baden-Wuerttemberg"), a variant
//     derived from it ("Comunidad de Madrid", "Catalunya", "Cataluña" for ES-CT) or a
//     listed English name ("Bavaria", see englishNames).
//
// Some names repeat inside a country across levels (Bangladesh's divisions and their
// districts) or within one level (two Estonian "Rakvere" municipalities). A name then
// resolves to the subdivision nearest the top of the hierarchy; at equal depth the ISO
// name beats a derived or English name, and then the smallest code wins. So "Madrid" is
// the autonomous community ES-MD, not the province ES-M.
func ResolveState(country, value string) (string, bool) {
	cc := strings.ToUpper(strings.TrimSpace(country))
	v := strings.TrimSpace(value)
	if len(cc) != 2 || v == "" {
		return "", false
	}
	ix := tables()
	upper := strings.ToUpper(v)
	if i, ok := ix.subdivision[upper]; ok && subdivisions[i].Country == cc {
		return subdivisions[i].Code, true
	}
	if i, ok := ix.subdivision[cc+"-"+upper]; ok {
		return subdivisions[i].Code, true
	}
	if i, ok := ix.names[nameKey{cc, fold(v)}]; ok {
		return subdivisions[i].Code, true
	}
	return "", false
}

// StateName returns the display name (see Subdivision.DisplayName) of the subdivision a
// value resolves to under country, as ResolveState resolves it: StateName("US", "CA") is
// "California".
func StateName(country, value string) (string, bool) {
	code, ok := ResolveState(country, value)
	if !ok {
		return "", false
	}
	s, _ := LookupSubdivision(code)
	return s.DisplayName(), true
}

// ResolveStates implements the state filters of the API reference (person_state, filter_state):
// each value, an ISO 3166-2 code or a name, is resolved under every selected country
// after region aliases are expanded. A value resolving under several countries is kept
// for each ("Limburg" under BENELUX gives BE-VLI and NL-LI); a value resolving under none
// is dropped, not rejected. Unknown country values are skipped here; validating them is
// ExpandCountries' job. With no country selected only full codes ("US-CA") are kept,
// because names and bare suffixes mean nothing without a country.
//
// The result holds full codes without duplicates, in the order of values and then of
// countries; nil when nothing resolves.
func ResolveStates(countries []string, values []string) []string {
	selected := expand(countries, nil)
	var out []string
	seen := make(map[string]bool)
	add := func(code string) {
		if !seen[code] {
			seen[code] = true
			out = append(out, code)
		}
	}
	for _, v := range values {
		if len(selected) == 0 {
			if s, ok := LookupSubdivision(v); ok {
				add(s.Code)
			}
			continue
		}
		for _, cc := range selected {
			if code, ok := ResolveState(cc, v); ok {
				add(code)
			}
		}
	}
	return out
}

type nameKey struct{ country, name string }

// Kinds of name, best first, for choosing between subdivisions that share a name.
const (
	isoName = iota
	derivedName
)

type nameCandidate struct{ pos, depth, kind int }

func (a nameCandidate) beats(b nameCandidate) bool {
	if a.depth != b.depth {
		return a.depth < b.depth
	}
	if a.kind != b.kind {
		return a.kind < b.kind
	}
	return a.pos < b.pos
}

// buildNames indexes every subdivision under the folded forms of all its names.
func buildNames(byCode map[string]int) map[nameKey]int {
	english := make(map[string][]string)
	for _, e := range englishNames {
		english[e.code] = append(english[e.code], strings.Split(e.names, "|")...)
	}
	best := make(map[nameKey]nameCandidate, 2*len(subdivisions))
	offer := func(key nameKey, c nameCandidate) {
		if key.name == "" {
			return
		}
		if cur, ok := best[key]; !ok || c.beats(cur) {
			best[key] = c
		}
	}
	for i, s := range subdivisions {
		depth := depthOf(s, byCode)
		offer(nameKey{s.Country, fold(s.Name)}, nameCandidate{i, depth, isoName})
		for _, n := range append(nameVariants(s), english[s.Code]...) {
			offer(nameKey{s.Country, fold(n)}, nameCandidate{i, depth, derivedName})
			if t, ok := transliterateUmlauts(n); ok {
				offer(nameKey{s.Country, fold(t)}, nameCandidate{i, depth, derivedName})
			}
		}
		if t, ok := transliterateUmlauts(s.Name); ok {
			offer(nameKey{s.Country, fold(t)}, nameCandidate{i, depth, derivedName})
		}
	}
	names := make(map[nameKey]int, len(best))
	for k, c := range best {
		names[k] = c.pos
	}
	return names
}

// depthOf counts the parents above s; the data has at most two levels, and the bound
// guards against a cycle.
func depthOf(s Subdivision, byCode map[string]int) int {
	depth := 0
	for p := s.Parent; p != "" && depth < 10; depth++ {
		i, ok := byCode[p]
		if !ok {
			break
		}
		p = subdivisions[i].Parent
	}
	return depth
}

// nameVariants derives the other names a subdivision goes by from how iso-codes writes
// its name:
//   - "Catalunya [Cataluña]", "Cardiff [Caerdydd GB-CRD]": each name on its own (the code
//     in the bracket is dropped);
//   - "Sofia (stolitsa)": also without the parenthesis;
//   - "Haute-Sangha / Mambéré-Kadéï": each side;
//   - "Madrid, Comunidad de", "Bristol, City of": the natural order ("Comunidad de Madrid")
//     and the bare name ("Madrid"), unless the part after the comma continues a list
//     ("Armagh City, Banbridge and Craigavon");
//   - Chinese provinces and municipalities: without "Sheng", "Shi" or "SAR".
func nameVariants(s Subdivision) []string {
	var forms []string
	base, alts := splitBrackets(s.Name)
	for _, f := range append([]string{base}, alts...) {
		forms = append(forms, f)
		if p := stripParens(f); p != f {
			forms = append(forms, p)
		}
		if strings.Contains(f, " / ") {
			forms = append(forms, strings.Split(f, " / ")...)
		}
	}
	var out []string
	for _, f := range forms {
		f = strings.TrimSpace(f)
		out = append(out, f)
		if inv, ok := uninvert(f); ok {
			bare, _, _ := strings.Cut(f, ",")
			out = append(out, inv, strings.TrimSpace(bare))
		}
	}
	if s.Country == "CN" {
		for _, suffix := range []string{" Sheng", " Shi", " SAR"} {
			if n, ok := strings.CutSuffix(s.Name, suffix); ok {
				out = append(out, n)
			}
		}
	}
	return out
}

// splitBrackets splits "Name [Alt XX-YYY]" into "Name" and ["Alt"].
func splitBrackets(name string) (string, []string) {
	open := strings.IndexByte(name, '[')
	end := strings.LastIndexByte(name, ']')
	if open < 0 || end < open {
		return name, nil
	}
	alt := strings.TrimSpace(name[open+1 : end])
	if i := strings.LastIndexByte(alt, ' '); i >= 0 && isSubdivisionCode(alt[i+1:]) {
		alt = alt[:i]
	}
	return strings.TrimSpace(name[:open] + name[end+1:]), []string{alt}
}

func stripBrackets(name string) string {
	base, _ := splitBrackets(name)
	return base
}

// isSubdivisionCode reports whether s looks like "GB-CRD".
func isSubdivisionCode(s string) bool {
	cc, rest, ok := strings.Cut(s, "-")
	if !ok || len(cc) != 2 || rest == "" || len(rest) > 3 {
		return false
	}
	return strings.IndexFunc(s, func(r rune) bool { return !(r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '-') }) < 0
}

func stripParens(name string) string {
	open := strings.IndexByte(name, '(')
	end := strings.LastIndexByte(name, ')')
	if open < 0 || end < open {
		return name
	}
	return strings.Join(strings.Fields(name[:open]+name[end+1:]), " ")
}

// uninvert turns ISO's inverted "Name, Designation" into "Designation Name". A comma
// followed by a list ("Newry, Mourne and Down") is no inversion.
func uninvert(name string) (string, bool) {
	before, after, ok := strings.Cut(name, ",")
	if !ok || strings.Contains(after, ",") {
		return "", false
	}
	after = strings.TrimSpace(after)
	for _, conj := range []string{" and ", " y ", " et ", " und "} {
		if strings.Contains(" "+after+" ", conj) {
			return "", false
		}
	}
	return after + " " + strings.TrimSpace(before), true
}

// transliterateUmlauts writes German umlauts as two letters, the way people type
// "Baden-Wuerttemberg" without a German keyboard.
func transliterateUmlauts(s string) (string, bool) {
	if !strings.ContainsAny(s, "äöüÄÖÜ") {
		return "", false
	}
	return strings.NewReplacer("ä", "ae", "ö", "oe", "ü", "ue", "Ä", "Ae", "Ö", "Oe", "Ü", "Ue").Replace(s), true
}

// fold reduces a name to a comparison key: lower case, accents and apostrophes removed,
// letters without a decomposition spelled out (ß -> ss, ł -> l), and every other run of
// punctuation or space turned into one space. "Baden-Württemberg", "BADEN WURTTEMBERG"
// and "baden-wurttemberg" all fold to "baden wurttemberg".
func fold(s string) string {
	var b strings.Builder
	gap := false
	for _, r := range norm.NFD.String(s) {
		if unicode.Is(unicode.Mn, r) || isApostrophe(r) {
			continue
		}
		r = unicode.ToLower(r)
		if !unicode.IsLetter(r) && !unicode.IsDigit(r) {
			gap = true
			continue
		}
		if gap && b.Len() > 0 {
			b.WriteByte(' ')
		}
		gap = false
		if spelled, ok := spellOut(r); ok {
			b.WriteString(spelled)
		} else {
			b.WriteRune(r)
		}
	}
	return b.String()
}

func isApostrophe(r rune) bool {
	switch r {
	case '\'', '’', '‘', 'ʼ', 'ʻ', '`', '´':
		return true
	}
	return false
}

// spellOut maps lower-case letters that Unicode does not decompose into base letters.
func spellOut(r rune) (string, bool) {
	switch r {
	case 'ß':
		return "ss", true
	case 'æ':
		return "ae", true
	case 'œ':
		return "oe", true
	case 'ø':
		return "o", true
	case 'ł':
		return "l", true
	case 'đ', 'ð':
		return "d", true
	case 'ı':
		return "i", true
	case 'ə', 'ǝ':
		return "e", true
	case 'þ':
		return "th", true
	case 'ħ':
		return "h", true
	}
	return "", false
}
