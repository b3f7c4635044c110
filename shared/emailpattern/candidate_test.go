package emailpattern

import (
	"errors"
	"reflect"
	"slices"
	"testing"

	"github.com/firmoapi/firmo/shared/apperr"
)

func TestFold(t *testing.T) {
	tests := []struct{ in, want string }{
		{"Jürgen", "jurgen"},
		{"Straße", "strasse"},
		{"Søren", "soren"},
		{"Ærøskøbing", "aeroskobing"},
		{"Łukasz", "lukasz"},
		{"Đorđe", "dorde"},
		{"François", "francois"},
		{"O'Brien", "obrien"},
		{"Zoë", "zoe"},
		{"Ólafur Þór", "olafurthor"},
		{"İlker", "ilker"},
		{"Иван", ""},
		{"  Anna  ", "anna"},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			if got := Fold(tt.in); got != tt.want {
				t.Errorf("Fold(%q) = %q, want %q", tt.in, got, tt.want)
			}
		})
	}
}

func TestForms(t *testing.T) {
	tests := []struct {
		name   string
		raw    string
		german bool
		isLast bool
		want   []string
	}{
		{"simple", "Smith", false, true, []string{"smith"}},
		{"hyphenated first", "Mary-Jane", false, false, []string{"maryjane", "mary", "mary-jane"}},
		{"particles", "van der Berg", false, true, []string{"vanderberg", "berg", "van-der-berg"}},
		{"double surname", "García Márquez", false, true, []string{"garciamarquez", "garcia", "marquez", "garcia-marquez"}},
		{"only particles kept", "De La", false, true, []string{"dela", "de", "la", "de-la"}},
		{"german spelling", "Müller", true, true, []string{"muller", "mueller"}},
		{"german off", "Müller", false, true, []string{"muller"}},
		{"no letters", "—", false, true, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := []string(forms(tt.raw, tt.german, false, tt.isLast))
			if !reflect.DeepEqual(got, tt.want) {
				t.Errorf("forms(%q) = %q, want %q", tt.raw, got, tt.want)
			}
		})
	}
}

func TestParseTemplate(t *testing.T) {
	tests := []struct {
		in   string
		want Template
	}{
		{"{first}.{last}", "{first}.{last}"},
		{"{FIRST}.{LAST}", "{first}.{last}"},
		{"{first}.{last}@acme.com", "{first}.{last}"},
		{"{first_initial}{last}", "{f}{last}"},
		{"first.last", "{first}.{last}"},
		{"flast", "{f}{last}"},
		{"firstlast", "{first}{last}"},
		{"first", "{first}"},
		{"f.last", "{f}.{last}"},
		{"first_last", "{first}_{last}"},
		{"lastf", "{last}{f}"},
		{"last.first", "{last}.{first}"},
		{"first.l", "{first}.{l}"},
		{"last", "{last}"},
		{"l.first", "{l}.{first}"},
		{"firstl", "{first}{l}"},
		{"f_last", "{f}_{last}"},
		{"first-last", "{first}-{last}"},
		{"fl", "{f}{l}"},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			got, err := ParseTemplate("known_pattern", tt.in)
			if err != nil {
				t.Fatalf("ParseTemplate(%q): %v", tt.in, err)
			}
			if got != tt.want {
				t.Errorf("ParseTemplate(%q) = %q, want %q", tt.in, got, tt.want)
			}
		})
	}
	for _, bad := range []string{"", "   ", "{middle}.{last}", "first..last", ".first", "first.", "john.smith", "{first", "@acme.com", "first.last.first.last"} {
		t.Run("bad "+bad, func(t *testing.T) {
			_, err := ParseTemplate("known_pattern", bad)
			var ae *apperr.Error
			if !errors.As(err, &ae) || ae.Kind != apperr.ErrInvalid || ae.Field != "known_pattern" {
				t.Fatalf("ParseTemplate(%q) error = %v, want a 422 naming known_pattern", bad, err)
			}
		})
	}
}

func TestCommonTemplatesParse(t *testing.T) {
	seen := map[Template]bool{}
	for _, tmpl := range CommonTemplates {
		got, err := ParseTemplate("t", string(tmpl))
		if err != nil || got != tmpl {
			t.Errorf("CommonTemplates entry %q is not canonical: %q, %v", tmpl, got, err)
		}
		if seen[tmpl] {
			t.Errorf("CommonTemplates lists %q twice", tmpl)
		}
		seen[tmpl] = true
	}
}

func TestApply(t *testing.T) {
	tests := []struct {
		tmpl        Template
		first, last string
		want        string
	}{
		{"{first}.{last}", "jane", "doe", "jane.doe"},
		{"{f}{last}", "jane", "doe", "jdoe"},
		{"{last}{f}", "jane", "doe", "doej"},
		{"{first}.{l}", "jane", "doe", "jane.d"},
		{"{l}.{first}", "jane", "doe", "d.jane"},
		{"{f}{l}", "jane", "doe", "jd"},
		{"{first}.{last}", "jane", "", ""},
		{"{first}", "jane", "", "jane"},
	}
	for _, tt := range tests {
		t.Run(string(tt.tmpl), func(t *testing.T) {
			if got := tt.tmpl.Apply(tt.first, tt.last); got != tt.want {
				t.Errorf("%s.Apply(%q, %q) = %q, want %q", tt.tmpl, tt.first, tt.last, got, tt.want)
			}
		})
	}
}

func emails(cs []Candidate) []string {
	out := make([]string, len(cs))
	for i, c := range cs {
		out[i] = c.Email
	}
	return out
}

func TestCandidatesOrder(t *testing.T) {
	got, err := Candidates(Person{First: "Jane", Last: "Doe", Domain: "Acme.com"}, Verify)
	if err != nil {
		t.Fatal(err)
	}
	want := []string{
		"jane.doe@acme.com", "jdoe@acme.com", "janedoe@acme.com", "jane@acme.com", "j.doe@acme.com",
		"jane_doe@acme.com", "doej@acme.com", "doe.jane@acme.com", "jane.d@acme.com",
	}
	if !reflect.DeepEqual(emails(got), want) {
		t.Errorf("Candidates = %q\nwant %q", emails(got), want)
	}
	for _, c := range got {
		if c.Tier != TierCommon {
			t.Errorf("%s tier = %s, want %s", c.Email, c.Tier, TierCommon)
		}
	}
}

func TestCandidatesKnownAndCompanyFirst(t *testing.T) {
	got, err := Candidates(Person{First: "Jane", Last: "Doe", Domain: "acme.com", Known: "{last}.{first}", Company: "{f}.{last}"}, Verify)
	if err != nil {
		t.Fatal(err)
	}
	if len(got) < 3 {
		t.Fatalf("got %d candidates", len(got))
	}
	wantHead := []Candidate{
		{Email: "doe.jane@acme.com", Local: "doe.jane", Pattern: "{last}.{first}", Tier: TierKnown},
		{Email: "j.doe@acme.com", Local: "j.doe", Pattern: "{f}.{last}", Tier: TierCompany},
		{Email: "jane.doe@acme.com", Local: "jane.doe", Pattern: "{first}.{last}", Tier: TierCommon},
	}
	if !reflect.DeepEqual(got[:3], wantHead) {
		t.Errorf("head = %+v\nwant %+v", got[:3], wantHead)
	}
	// The known and company addresses are not repeated among the common ones.
	seen := map[string]bool{}
	for _, c := range got {
		if seen[c.Email] {
			t.Errorf("%s listed twice", c.Email)
		}
		seen[c.Email] = true
	}
}

func TestCandidatesMultiPartNames(t *testing.T) {
	tests := []struct {
		name        string
		first, last string
		depth       Depth
		want        []string // must all be present
		absent      []string
	}{
		{"particles", "Pieter", "van der Berg", Verify,
			[]string{"pieter.vanderberg@x.com", "pvanderberg@x.com", "pieter.berg@x.com", "pberg@x.com", "pieter.van-der-berg@x.com"}, nil},
		{"spanish double surname", "José", "García Márquez", Verify,
			[]string{"jose.garciamarquez@x.com", "jose.garcia@x.com", "jgarcia@x.com"}, nil},
		{"hyphenated first", "Mary-Jane", "Smith", Verify,
			[]string{"maryjane.smith@x.com", "mary.smith@x.com", "mary-jane.smith@x.com", "msmith@x.com"}, nil},
		{"diacritics spelt both ways", "Jürgen", "Groß", Verify,
			[]string{"jurgen.gross@x.com", "jgross@x.com", "juergen.gross@x.com"}, nil},
		{"german spelling on escalate", "Jürgen", "Müller", Escalate,
			[]string{"jurgen.muller@x.com", "juergen.mueller@x.com", "jmueller@x.com"}, nil},
		{"nordic", "Søren", "Kierkegård", Verify,
			[]string{"soren.kierkegard@x.com"}, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := Candidates(Person{First: tt.first, Last: tt.last, Domain: "x.com"}, tt.depth)
			if err != nil {
				t.Fatal(err)
			}
			list := emails(got)
			for _, w := range tt.want {
				if !slices.Contains(list, w) {
					t.Errorf("missing %s in %q", w, list)
				}
			}
			for _, a := range tt.absent {
				if slices.Contains(list, a) {
					t.Errorf("unexpected %s in %q", a, list)
				}
			}
		})
	}
}

// Letters with two ASCII spellings (ü: u or ue, ø: o or oe, å: a or aa) are spelt both
// ways in the default round, in the order the domain's addresses show.
func TestCandidatesTransliterated(t *testing.T) {
	for _, c := range []struct {
		spelling      Spelling
		first, second string
	}{
		{SpellingUnknown, "s.muller@x.com", "s.mueller@x.com"},
		{SpellingFolded, "s.muller@x.com", "s.mueller@x.com"},
		{SpellingTransliterated, "s.mueller@x.com", "s.muller@x.com"},
	} {
		got, err := Candidates(Person{First: "Sören", Last: "Müller", Domain: "x.com", Company: "{f}.{last}", Spelling: c.spelling}, Verify)
		if err != nil {
			t.Fatal(err)
		}
		list := emails(got)
		if len(list) < 2 || list[0] != c.first || list[1] != c.second {
			t.Errorf("spelling %d: candidates %q; want %s, then %s", c.spelling, list, c.first, c.second)
		}
	}
	got, _ := Candidates(Person{First: "Søren", Last: "Kierkegård", Domain: "x.com"}, Verify)
	for _, w := range []string{"soren.kierkegard@x.com", "soeren.kierkegaard@x.com"} {
		if !slices.Contains(emails(got), w) {
			t.Errorf("missing %s in %q", w, emails(got))
		}
	}
}

// LearnAll learns how a domain's addresses spell ü from the addresses of people whose
// names have one.
func TestLearnSpelling(t *testing.T) {
	learned, _ := LearnAll([]Observation{
		{Domain: "beta.de", Name: "Jörg Müller", Email: "jmueller@beta.de"},
		{Domain: "beta.de", Name: "Eva Kühn", Email: "ekuehn@beta.de"},
		{Domain: "beta.de", Name: "Max Weber", Email: "mweber@beta.de"},
		{Domain: "gamma.de", Name: "Jörg Müller", Email: "jmuller@gamma.de"},
		{Domain: "gamma.de", Name: "Max Weber", Email: "mweber@gamma.de"},
		{Domain: "delta.de", Name: "Max Weber", Email: "mweber@delta.de"},
		{Domain: "delta.de", Name: "Anna Schmidt", Email: "aschmidt@delta.de"},
	})
	for d, want := range map[string]Spelling{"beta.de": SpellingTransliterated, "gamma.de": SpellingFolded, "delta.de": SpellingUnknown} {
		if got := learned[d].Spelling; got != want {
			t.Errorf("%s: spelling %d, want %d", d, got, want)
		}
		if got := learned[d].Pattern().Spelling; got != want {
			t.Errorf("%s: Pattern().Spelling %d, want %d", d, got, want)
		}
	}
}

func TestCandidatesEscalateAddsMore(t *testing.T) {
	p := Person{First: "Jane", Last: "Doe", Domain: "acme.com"}
	v, _ := Candidates(p, Verify)
	e, _ := Candidates(p, Escalate)
	if len(e) <= len(v) {
		t.Fatalf("escalate gives %d candidates, verify %d: want more", len(e), len(v))
	}
	if !reflect.DeepEqual(emails(e[:len(v)]), emails(v)) {
		t.Errorf("escalate must start with the verify candidates:\n%q\n%q", emails(e[:len(v)]), emails(v))
	}
	for _, want := range []string{"jd@acme.com", "doe_j@acme.com", "d.jane@acme.com"} {
		if !slices.Contains(emails(e), want) {
			t.Errorf("escalate lacks %s", want)
		}
	}
}

func TestCandidatesBounded(t *testing.T) {
	got, err := Candidates(Person{First: "Ana María José", Last: "de la Cruz y García-López", Domain: "x.com"}, Escalate)
	if err != nil {
		t.Fatal(err)
	}
	if len(got) == 0 || len(got) > maxCandidates {
		t.Fatalf("got %d candidates, want 1..%d", len(got), maxCandidates)
	}
}

func TestCandidatesUnusableName(t *testing.T) {
	for _, tt := range []struct{ first, last, field string }{
		{"Иван", "Petrov", "first_name"},
		{"Ivan", "Петров", "last_name"},
		{"", "Doe", "first_name"},
	} {
		t.Run(tt.field, func(t *testing.T) {
			_, err := Candidates(Person{First: tt.first, Last: tt.last, Domain: "x.com"}, Verify)
			var ae *apperr.Error
			if !errors.As(err, &ae) || ae.Field != tt.field {
				t.Fatalf("error = %v, want a 422 naming %s", err, tt.field)
			}
		})
	}
}
