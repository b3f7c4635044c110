package title

import (
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/firmoapi/firmo/shared/apperr"
)

func TestQueryMatch(t *testing.T) {
	tests := []struct {
		name  string
		terms []string
		title string
		want  bool
	}{
		// Acronyms and spelled-out forms match each other unless quoted.
		{"acronym finds spelled-out", []string{"CTO"}, "Chief Technology Officer", true},
		{"acronym finds synonym form", []string{"cto"}, "Chief Technical Officer, EMEA", true},
		{"spelled-out finds acronym", []string{"Chief Technology Officer"}, "Co-Founder & CTO", true},
		{"spelled-out finds its synonym", []string{"chief technical officer"}, "Chief Technology Officer", true},
		{"acronym with dots", []string{"C.F.O."}, "Chief Financial Officer", true},
		{"title with dots", []string{"cfo"}, "C.F.O.", true},
		{"quoted acronym does not expand", []string{`"CTO"`}, "Chief Technology Officer", false},
		{"quoted acronym matches itself", []string{`"CTO"`}, "Founder/CTO", true},
		{"quoted form does not expand", []string{`"chief technology officer"`}, "CTO", false},
		{"ambiguous acronym finds every reading", []string{"CCO"}, "Chief Customer Officer", true},
		{"form does not find a sibling reading", []string{"Chief Customer Officer"}, "Chief Commercial Officer", false},
		{"form finds its ambiguous acronym", []string{"Chief Customer Officer"}, "CCO", true},
		{"CPO is the product officer", []string{"CPO"}, "Chief Product Officer", true},
		{"CPO is not the people officer", []string{"CPO"}, "Chief People Officer", false},
		{"vp expands", []string{"VP"}, "Senior Vice President, Sales", true},
		{"vice president finds vp", []string{"vice president sales"}, "VP Sales", true},
		{"acronym inside a longer term", []string{"cto europe"}, "Chief Technology Officer Europe", true},
		// Word boundaries, case and accents.
		{"cto is not in director", []string{"cto"}, "Director", false},
		{"ceo is not in ceos", []string{"ceo"}, "Office of the CEOs", false},
		{"dev is not developer", []string{"dev"}, "Developer", false},
		{"case insensitive", []string{"SALES"}, "sales manager", true},
		{"accent insensitive", []string{"geschaftsfuhrer"}, "Geschäftsführer", true},
		{"accented query", []string{"Directeur Général"}, "directeur general adjoint", true},
		{"punctuation tolerant", []string{"head of sales"}, "Head-of-Sales (EMEA)", true},
		// Unquoted words in any order, quoted phrases exact.
		{"words any order", []string{"sales manager"}, "Manager, Sales", true},
		{"quoted phrase order matters", []string{`"sales manager"`}, "Manager, Sales", false},
		{"quoted phrase", []string{`"head of sales"`}, "VP and Head of Sales", true},
		{"quoted phrase must be contiguous", []string{`"head of sales"`}, "Head of Inside Sales", false},
		{"typographic quotes", []string{"“head of sales”"}, "Head of Inside Sales", false},
		{"all words needed", []string{"sales manager"}, "Sales Director", false},
		// OR across terms.
		{"any term", []string{"cfo", "controller"}, "Financial Controller", true},
		{"no term", []string{"cfo", "controller"}, "Accountant", false},
		// Required terms.
		{"required and optional both", []string{"+marketing", "director", "head"}, "Marketing Director", true},
		{"required without optional", []string{"+marketing", "director", "head"}, "Marketing Manager", false},
		{"optional without required", []string{"+marketing", "director", "head"}, "Sales Director", false},
		{"only required terms are an AND", []string{"+sales", "+director"}, "Director of Sales", true},
		{"only required terms, one missing", []string{"+sales", "+director"}, "Sales Manager", false},
		{"required quoted", []string{`+"vice president"`, "sales"}, "Vice President Sales", true},
		{"required quoted does not expand", []string{`+"vice president"`, "sales"}, "VP Sales", false},
		{"required acronym expands", []string{"+cfo"}, "Chief Financial Officer", true},
		{"space after plus", []string{"+ cfo"}, "CFO", true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			q, err := ParseQuery(tt.terms)
			if err != nil {
				t.Fatalf("ParseQuery(%q): %v", tt.terms, err)
			}
			if got := q.Match(tt.title); got != tt.want {
				t.Errorf("ParseQuery(%q).Match(%q) = %v, want %v", tt.terms, tt.title, got, tt.want)
			}
		})
	}
}

func TestParseQueryErrors(t *testing.T) {
	tests := []struct {
		name  string
		terms []string
	}{
		{"no terms", nil},
		{"empty term", []string{""}},
		{"blank term", []string{"cto", "   "}},
		{"plus only", []string{"+"}},
		{"empty quotes", []string{`""`}},
		{"blank quotes", []string{`+"  "`}},
		{"punctuation only", []string{"--"}},
		{"quote inside", []string{`vp "sales"`}},
		{"unbalanced quote", []string{`"head of sales`}},
		{"double plus", []string{"++cto"}},
		{"too long", []string{strings.Repeat("a", MaxTermLen+1)}},
		{"too many", slices.Repeat([]string{"cto"}, MaxTerms+1)},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := ParseQuery(tt.terms)
			if err == nil {
				t.Fatalf("ParseQuery(%q) = nil error, want invalid", tt.terms)
			}
			var ae *apperr.Error
			if !errors.As(err, &ae) || !errors.Is(err, apperr.ErrInvalid) || ae.Field != "title" {
				t.Errorf("ParseQuery(%q) error = %v, want apperr.Invalid on field title", tt.terms, err)
			}
			if got := apperr.Status(err); got != 422 {
				t.Errorf("status = %d, want 422", got)
			}
		})
	}
}

func TestTermAccessors(t *testing.T) {
	q, err := ParseQuery([]string{`+"Head of Sales"`, "CTO", "sales manager"})
	if err != nil {
		t.Fatal(err)
	}
	terms := q.Terms()
	tests := []struct {
		name               string
		term               Term
		wantText           string
		wantReq, wantQuote bool
		wantGroups         [][]string
	}{
		{"quoted required", terms[0], "Head of Sales", true, true, [][]string{{"head of sales"}}},
		{"acronym", terms[1], "CTO", false, false, [][]string{{"cto", "chief technology officer", "chief technical officer"}}},
		{"words", terms[2], "sales manager", false, false, [][]string{{"sales"}, {"manager"}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tm := tt.term
			if tm.Text() != tt.wantText || tm.Required() != tt.wantReq || tm.Quoted() != tt.wantQuote {
				t.Errorf("got text %q required %v quoted %v, want %q %v %v", tm.Text(), tm.Required(), tm.Quoted(), tt.wantText, tt.wantReq, tt.wantQuote)
			}
			if got := tm.Groups(); !slices.EqualFunc(got, tt.wantGroups, slices.Equal[[]string]) {
				t.Errorf("Groups() = %q, want %q", got, tt.wantGroups)
			}
		})
	}
}

func TestZeroQueryMatchesNothing(t *testing.T) {
	var q Query
	if q.Match("CEO") {
		t.Error("zero Query matched")
	}
}

func BenchmarkQueryMatch(b *testing.B) {
	q, err := ParseQuery([]string{"cto", `+"vice president"`, "head of engineering"})
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		q.Match("Senior Vice President, Chief Technology Officer")
	}
}
