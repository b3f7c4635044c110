package namematch

import "testing"

func TestTokenSim(t *testing.T) {
	cases := []struct {
		a, b     string
		min, max float64
	}{
		{"acme", "acme", 1, 1},
		{"abc", "abd", 0, 0},             // short tokens must be equal
		{"3m", "4m", 0, 0},               // tokens with digits must be equal
		{"route66", "route67", 0, 0},     // ...however long
		{"softwar", "software", 0.9, 1},  // one edit
		{"smiht", "smith", 0.9, 1},       // a transposition is one edit
		{"keystone", "keystome", 0.9, 1}, // one substitution
		{"airbnb", "airbus", 0, 0},       // two edits in six letters: another word
		{"manuf", "manufacturing", 0.8, 0.8},
		{"muller", "mueller", 0.9, 1},
		{"bianchi", "rossi", 0, 0},
	}
	for _, c := range cases {
		t.Run(c.a+"/"+c.b, func(t *testing.T) {
			if got := tokenSim(c.a, c.b); got < c.min || got > c.max {
				t.Errorf("tokenSim(%q, %q) = %.3f, want in [%.2f, %.2f]", c.a, c.b, got, c.min, c.max)
			}
			if tokenSim(c.a, c.b) != tokenSim(c.b, c.a) {
				t.Errorf("tokenSim is not symmetric for %q, %q", c.a, c.b)
			}
		})
	}
}

func TestOSAAndJaroWinkler(t *testing.T) {
	cases := []struct {
		a, b string
		d    int
		jw   float64
	}{
		{"martha", "marhta", 1, 0.961},
		{"dwayne", "duane", 2, 0.84},
		{"dixon", "dicksonx", 4, 0.813},
		{"", "abc", 3, 0},
	}
	for _, c := range cases {
		if got := osa([]rune(c.a), []rune(c.b)); got != c.d {
			t.Errorf("osa(%q, %q) = %d, want %d", c.a, c.b, got, c.d)
		}
		if got := jaroWinkler([]rune(c.a), []rune(c.b)); got < c.jw-0.001 || got > c.jw+0.001 {
			t.Errorf("jaroWinkler(%q, %q) = %.3f, want %.3f", c.a, c.b, got, c.jw)
		}
	}
}

// The similarity rules, as orderings between pairs: the first pair must be more
// similar than the second.
func TestSimilarityOrderings(t *testing.T) {
	sim := func(a, b string) float64 { return Similarity(Normalize(a, true), Normalize(b, true)) }
	cases := []struct {
		name           string
		more, lessThan [2]string
	}{
		{"same words in order beat another order", [2]string{"Rossi & Bianchi", "Rossi e Bianchi SRL"}, [2]string{"Rossi & Bianchi", "Bianchi & Rossi"}},
		{"a shorter name of the same firm beats a conflicting word", [2]string{"ASML", "ASML Holding"}, [2]string{"Smith Software", "Smith Logistics"}},
		{"a typo beats a different distinctive word", [2]string{"Smiht Software", "Smith Software"}, [2]string{"Smith Software", "Jones Software"}},
		{"split words are nearly equal", [2]string{"Coca Cola", "CocaCola"}, [2]string{"Coca Cola", "Cola Coca Bottling"}},
		{"an acronym beats unrelated initials", [2]string{"IBM", "International Business Machines"}, [2]string{"IBM", "Icebreaker Moldova"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			hi, lo := sim(c.more[0], c.more[1]), sim(c.lessThan[0], c.lessThan[1])
			if hi <= lo {
				t.Errorf("S(%q, %q) = %.3f should exceed S(%q, %q) = %.3f", c.more[0], c.more[1], hi, c.lessThan[0], c.lessThan[1], lo)
			}
		})
	}
	if got := sim("Acme Corp.", "ACME, Inc."); got != 1 {
		t.Errorf("names equal after normalization: S = %.3f, want 1", got)
	}
	if got := sim("Bianchi & Rossi", "Rossi & Bianchi"); got >= 1-OrderPenalty+0.001 || got < 0.9 {
		t.Errorf("reordered names: S = %.3f, want just below %.2f", got, 1-OrderPenalty)
	}
}

// The confidence formula's anchors (documented in confidence.go).
func TestConfidenceAnchors(t *testing.T) {
	cases := []struct {
		z    float64
		want int
	}{
		{NameSlope * (1 - NameCenter), 90},
		{0, 50},
		{NameSlope*(1-NameCenter) + countryAgree + cityAgree + phoneAgree, 100},
		{NameSlope * (0.5 - NameCenter), 18},
	}
	for _, c := range cases {
		if got := confidence(c.z); got != c.want {
			t.Errorf("confidence(%.2f) = %d, want %d", c.z, got, c.want)
		}
	}
	if prior(800) != PriorMax || prior(0) != 0 || prior(5000) != PriorMax {
		t.Errorf("prior: %v %v %v", prior(800), prior(0), prior(5000))
	}
}
