package namematch_test

import (
	"context"
	"encoding/csv"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"testing"
	"unicode"

	"golang.org/x/text/runes"
	"golang.org/x/text/transform"
	"golang.org/x/text/unicode/norm"

	"github.com/firmoapi/firmo/shared/company"
	"github.com/firmoapi/firmo/shared/namematch"
)

// The labelled evaluation (ACCURACY.md). The index holds the first 2,000 companies of
// the demo world (seed 42) and the hand-made set of real companies
// (testdata/real_companies.jsonl). Three query sets run against it at the default
// threshold (50):
//
//   - damaged: names of world companies with realistic damage (typos, a dropped or
//     changed legal form, abbreviations, word order, accents and case, missing
//     location); the expected answer is the company the name came from;
//   - real: hand-written variants of the real companies' names (testdata/real_queries.csv);
//   - absent: real companies that are not in the index: any answer is a false match.
//
// Top-1 precision is correct top answers / answered queries (absent queries that get
// an answer count as wrong answers in the real set); recall is correct top answers /
// queries whose company is in the index.

const (
	evalCompanies   = 2000
	evalPerDamage   = 70
	precisionFloor  = 0.95
	recallFloor     = 0.90
	realRecallFloor = 0.85
)

// evalQuery is one labelled query.
type evalQuery struct {
	kind string // damage kind, "real" or "absent"
	q    namematch.Query
	want string // expected domain, "" for absent companies
}

type tally struct{ queries, answered, correct, positives int }

func (t *tally) add(q evalQuery, got string) {
	t.queries++
	if q.want != "" {
		t.positives++
	}
	if got != "" {
		t.answered++
		if got == q.want {
			t.correct++
		}
	}
}

func (t tally) precision() float64 {
	if t.answered == 0 {
		return 1
	}
	return float64(t.correct) / float64(t.answered)
}

func (t tally) recall() float64 {
	if t.positives == 0 {
		return 1
	}
	return float64(t.correct) / float64(t.positives)
}

func TestEvaluation(t *testing.T) {
	if testing.Short() {
		t.Skip("the evaluation derives 2,000 companies")
	}
	worldRecs, _ := worldRecords(t, evalCompanies)
	real := realRecords(t)
	f := newFixture(t, append(append([]company.Record(nil), worldRecs...), real...), namematch.Options{})

	queries := damagedQueries(t, worldRecs, append(worldRecs, real...))
	queries = append(queries, realQueries(t)...)

	ctx := context.Background()
	byKind := map[string]*tally{}
	var damaged, realSet tally
	var misses []string
	for _, q := range queries {
		a, err := f.matcher.Match(ctx, q.q)
		if err != nil {
			t.Fatalf("match %+v: %v", q.q, err)
		}
		got := ""
		if len(a.Matches) > 0 {
			got = a.Matches[0].Profile.Domain
		}
		if byKind[q.kind] == nil {
			byKind[q.kind] = &tally{}
		}
		byKind[q.kind].add(q, got)
		switch q.kind {
		case "real", "absent":
			realSet.add(q, got)
		default:
			damaged.add(q, got)
		}
		if got != q.want {
			conf := 0
			if len(a.Matches) > 0 {
				conf = a.Matches[0].Confidence
			}
			misses = append(misses, fmt.Sprintf("%-12s %-50q country=%-2s city=%-16q want=%-28s got=%s (%d)", q.kind, q.q.Name, q.q.Country, q.q.City, q.want, got, conf))
		}
	}
	kinds := make([]string, 0, len(byKind))
	for k := range byKind {
		kinds = append(kinds, k)
	}
	sort.Strings(kinds)
	var b strings.Builder
	fmt.Fprintf(&b, "\n| Set | Queries | Answered | Correct top-1 | Precision | Recall |\n|---|---|---|---|---|---|\n")
	row := func(name string, t tally) {
		fmt.Fprintf(&b, "| %s | %d | %d | %d | %.3f | %.3f |\n", name, t.queries, t.answered, t.correct, t.precision(), t.recall())
	}
	for _, k := range kinds {
		row(k, *byKind[k])
	}
	row("**damaged (all kinds)**", damaged)
	row("**real + absent**", realSet)
	t.Log(b.String())
	for _, m := range misses {
		t.Log("miss: " + m)
	}
	if p := damaged.precision(); p < precisionFloor {
		t.Errorf("damaged set: top-1 precision %.3f < floor %.2f", p, precisionFloor)
	}
	if r := damaged.recall(); r < recallFloor {
		t.Errorf("damaged set: recall %.3f < floor %.2f", r, recallFloor)
	}
	if p := realSet.precision(); p < precisionFloor {
		t.Errorf("real set: top-1 precision %.3f < floor %.2f", p, precisionFloor)
	}
	if r := realSet.recall(); r < realRecallFloor {
		t.Errorf("real set: recall %.3f < floor %.2f", r, realRecallFloor)
	}
}

// ---- damaged world names ----

// worldLegal are the legal forms the demo world writes (shared/world/countries.go),
// longest first so "GmbH & Co. KG" is found before "KG".
var worldLegal = []string{"S. de R.L. de C.V.", "S.A. de C.V.", "GmbH & Co. KG", "Pty Ltd", "S.r.l.", "S.p.A.",
	"GmbH", "Inc.", "Corp.", "Ltd.", "Ltd", "LLC", "PLC", "LLP", "DAC", "SAS", "SARL", "Sàrl", "SRL", "S.L.",
	"S.A.", "Lda.", "Ltda.", "B.V.", "N.V.", "AG", "KG", "SA", "BV", "NV"}

// otherLegal replaces a legal form by another a data entry clerk might write.
var otherLegal = map[string][]string{
	"Inc.": {"LLC", "Corp.", "Incorporated", "Co."}, "LLC": {"Inc.", "L.L.C."}, "Corp.": {"Inc.", "Corporation"},
	"Ltd": {"Limited", "PLC", "Ltd."}, "Ltd.": {"Limited", "Ltd"}, "PLC": {"Ltd", "plc"}, "LLP": {"Ltd"}, "DAC": {"Ltd"},
	"Pty Ltd": {"Pty. Ltd.", "Limited"}, "GmbH": {"AG", "mbH", "GmbH & Co. KG"}, "AG": {"GmbH", "Aktiengesellschaft"},
	"GmbH & Co. KG": {"GmbH", "KG"}, "KG": {"GmbH & Co. KG", "GmbH"}, "SA": {"S.A.", "SAS"}, "Sàrl": {"SARL", "S.à r.l."},
	"SAS": {"S.A.S.", "SA", "SARL"}, "SARL": {"S.A.R.L.", "SAS"}, "SRL": {"S.R.L.", "SA"}, "BV": {"B.V.", "NV"},
	"NV": {"N.V.", "SA"}, "S.L.": {"SL", "S.A."}, "S.A.": {"SA", "S.L."}, "S.A. de C.V.": {"SA de CV", "S. de R.L. de C.V."},
	"S. de R.L. de C.V.": {"S.A. de C.V.", "S de RL de CV"}, "Lda.": {"Lda", "S.A."}, "Ltda.": {"Ltda", "S.A."},
	"S.r.l.": {"Srl", "S.p.A.", "SRL"}, "S.p.A.": {"SpA", "S.r.l."}, "B.V.": {"BV", "N.V."}, "N.V.": {"NV", "B.V."},
}

// abbreviate are words of world names and the abbreviations people write for them.
var abbreviate = map[string][]string{
	"Systems": {"Sys", "Syst"}, "Manufacturing": {"Mfg", "Mfg."}, "Engineering": {"Eng", "Engg"},
	"Industries": {"Inds", "Indus."}, "Properties": {"Props", "Ppty"}, "Partners": {"Ptnrs", "Prtnrs"},
	"Tech": {"Technologies", "Technology"}, "Consulting": {"Consult", "Consultants"}, "Labs": {"Lab", "Laboratories"},
	"Construction": {"Constr", "Constr."}, "IT Solutions": {"IT Solns", "IT Sol"}, "Networks": {"Ntwks", "Network"},
	"Institute": {"Inst", "Inst."}, "Academy": {"Acad"}, "Medical": {"Med"}, "Logistics": {"Logistic"},
	"Management": {"Mgmt"}, "Services": {"Svcs"}, "Capital": {"Cap"}, "Software": {"SW"},
	"Technik": {"Technologie"}, "Tecnologia": {"Tech"}, "Tecnologie": {"Tech"}, "Associados": {"Assoc"},
	"Associés": {"Assoc"}, "Asociados": {"Assoc"}, "Associati": {"Assoc"},
}

var damageKinds = []string{"typo", "legal_dropped", "legal_changed", "abbreviation", "word_order", "accents_case", "no_location", "two_typos", "combined"}

// damagedQueries draws evalPerDamage companies per damage kind. Only companies whose
// normalized name is unique in the index are drawn: for a name shared by several
// companies no answer is "the" right one.
func damagedQueries(t *testing.T, from, all []company.Record) []evalQuery {
	t.Helper()
	// Names are compared up to word order: "Rossi & Bianchi" and "Bianchi & Rossi"
	// are two firms, and a word-order damage makes one the other.
	key := func(name string) string {
		toks := slices.Clone(namematch.Normalize(name, true).Tokens)
		sort.Strings(toks)
		return strings.Join(toks, " ")
	}
	count := map[string]int{}
	for _, r := range all {
		keys := map[string]bool{key(r.Raw.Name): true}
		for _, a := range r.Raw.AlternateNames {
			keys[key(a)] = true
		}
		for k := range keys {
			count[k]++
		}
	}
	var unique []company.Record
	for _, r := range from {
		if count[key(r.Raw.Name)] == 1 && r.Raw.Name != "" {
			unique = append(unique, r)
		}
	}
	if len(unique) < evalPerDamage*len(damageKinds)/2 {
		t.Fatalf("only %d of %d world companies have a unique name", len(unique), len(from))
	}
	rng := rand.New(rand.NewPCG(7, 11))
	rng.Shuffle(len(unique), func(i, j int) { unique[i], unique[j] = unique[j], unique[i] })
	var out []evalQuery
	next := 0
	for _, kind := range damageKinds {
		made := 0
		for made < evalPerDamage && next < len(unique) {
			r := unique[next]
			next++
			name, ok := damage(rng, kind, r.Raw.Name)
			if !ok {
				continue
			}
			if rng.IntN(100) < 30 && kind != "accents_case" && kind != "combined" {
				name, _ = damage(rng, "accents_case", name) // a second, mild damage
			}
			q := namematch.Query{Name: name}
			if kind != "no_location" && kind != "combined" {
				switch k := rng.IntN(10); {
				case k < 3: // name only
				case k < 6:
					q.Country = r.Profile.Address.Country
				default:
					q.Country, q.City = r.Profile.Address.Country, r.Raw.City
				}
			}
			out = append(out, evalQuery{kind: kind, q: q, want: r.Domain})
			made++
		}
	}
	return out
}

// damage applies one kind of damage to a name; false when the kind does not apply.
func damage(rng *rand.Rand, kind, name string) (string, bool) {
	switch kind {
	case "typo":
		return typo(rng, name)
	case "legal_dropped":
		if base, legal := splitLegal(name); legal != "" {
			return base, true
		}
	case "legal_changed":
		if base, legal := splitLegal(name); legal != "" && len(otherLegal[legal]) > 0 {
			return base + " " + pick(rng, otherLegal[legal]), true
		}
	case "abbreviation":
		for _, long := range sortedKeys(abbreviate) {
			if i := strings.Index(name, long); i >= 0 {
				return name[:i] + pick(rng, abbreviate[long]) + name[i+len(long):], true
			}
		}
		if strings.Contains(name, " & ") {
			return strings.Replace(name, " & ", pick(rng, []string{" and ", " + ", " und ", " et ", " y ", " e ", " en "}), 1), true
		}
	case "word_order":
		base, legal := splitLegal(name)
		if a, b, ok := strings.Cut(base, " & "); ok {
			return strings.TrimSpace(b + " & " + a + " " + legal), true
		}
		words := strings.Fields(base)
		if len(words) == 2 {
			return strings.TrimSpace(words[1] + " " + words[0] + " " + legal), true
		}
	case "accents_case":
		switch rng.IntN(3) {
		case 0:
			return strings.ToUpper(foldAccents(name)), true
		case 1:
			return strings.ToLower(strings.NewReplacer("ü", "ue", "ö", "oe", "ä", "ae", "ß", "ss").Replace(name)), true
		}
		return strings.NewReplacer(" & ", "&", ".", "", ",", "").Replace(foldAccents(name)), true
	case "no_location":
		if base, legal := splitLegal(name); legal != "" && rng.IntN(2) == 0 {
			return base, true
		}
		return name, true
	case "two_typos":
		first, ok := typo(rng, name)
		if !ok {
			return "", false
		}
		return typo(rng, first)
	case "combined":
		// A typo, the legal form changed or dropped, and the words reordered or
		// abbreviated when the name allows it.
		out, ok := typo(rng, name)
		if !ok {
			return "", false
		}
		if rng.IntN(2) == 0 {
			out, _ = damage(rng, "legal_dropped", out)
		} else if changed, ok := damage(rng, "legal_changed", out); ok {
			out = changed
		}
		for _, k := range []string{"word_order", "abbreviation"} {
			if d, ok := damage(rng, k, out); ok && rng.IntN(2) == 0 {
				out = d
			}
		}
		return out, true
	}
	return "", false
}

// typo makes one keyboard-like error (swap, drop, double or substitute a letter) in a
// word of four or more letters that is not the legal form.
func typo(rng *rand.Rand, name string) (string, bool) {
	base, legal := splitLegal(name)
	words := strings.Fields(base)
	var long []int
	for i, w := range words {
		if len([]rune(w)) >= 4 {
			long = append(long, i)
		}
	}
	if len(long) == 0 {
		return "", false
	}
	i := long[rng.IntN(len(long))]
	r := []rune(words[i])
	p := 1 + rng.IntN(len(r)-2) // keep the first letter, as people mostly do
	switch rng.IntN(4) {
	case 0:
		r[p], r[p+1] = r[p+1], r[p]
	case 1:
		r = append(r[:p], r[p+1:]...)
	case 2:
		r = append(r[:p+1], r[p:]...)
	default:
		r[p] = neighbour(r[p])
	}
	words[i] = string(r)
	return strings.TrimSpace(strings.Join(words, " ") + " " + legal), true
}

var keyboard = map[rune]string{'a': "sq", 'b': "vn", 'c': "xv", 'd': "sf", 'e': "wr", 'f': "dg", 'g': "fh", 'h': "gj",
	'i': "uo", 'j': "hk", 'k': "jl", 'l': "k", 'm': "n", 'n': "bm", 'o': "ip", 'p': "o", 'q': "w", 'r': "et", 's': "ad",
	't': "ry", 'u': "yi", 'v': "cb", 'w': "qe", 'x': "zc", 'y': "tu", 'z': "x"}

func neighbour(r rune) rune {
	lower := unicode.ToLower(r)
	if n, ok := keyboard[lower]; ok {
		nr := []rune(n)[0]
		if unicode.IsUpper(r) {
			return unicode.ToUpper(nr)
		}
		return nr
	}
	return 'e'
}

// allLegal are the world's legal forms and their replacements, longest first.
var allLegal = func() []string {
	seen := map[string]bool{}
	var out []string
	for _, l := range worldLegal {
		seen[l] = true
		out = append(out, l)
	}
	for _, alts := range otherLegal {
		for _, l := range alts {
			if !seen[l] {
				seen[l] = true
				out = append(out, l)
			}
		}
	}
	sort.SliceStable(out, func(i, j int) bool { return len(out[i]) > len(out[j]) })
	return out
}()

func splitLegal(name string) (base, legal string) {
	for _, l := range allLegal {
		if strings.HasSuffix(name, " "+l) {
			return strings.TrimSuffix(name, " "+l), l
		}
	}
	return name, ""
}

func foldAccents(s string) string {
	t := transform.Chain(norm.NFD, runes.Remove(runes.In(unicode.Mn)), norm.NFC)
	out, _, _ := transform.String(t, s)
	return out
}

func pick(rng *rand.Rand, list []string) string { return list[rng.IntN(len(list))] }

func sortedKeys(m map[string][]string) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

// ---- real companies ----

func realQueries(t *testing.T) []evalQuery {
	t.Helper()
	f, err := os.Open(filepath.Join("testdata", "real_queries.csv"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	rows, err := csv.NewReader(f).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	var out []evalQuery
	for _, r := range rows[1:] {
		kind := "real"
		if r[3] == "" {
			kind = "absent"
		}
		out = append(out, evalQuery{kind: kind, q: namematch.Query{Name: r[0], Country: r[1], City: r[2]}, want: r[3]})
	}
	return out
}
