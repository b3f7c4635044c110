package emailpattern

import (
	"math"
	"testing"
)

func TestInferPattern(t *testing.T) {
	tests := []struct {
		name     string
		contacts []Known
		want     Pattern
		ok       bool
	}{
		{
			name: "first.last majority",
			contacts: []Known{
				{"Anna", "Berg", "anna.berg@acme.com"},
				{"Jürgen", "Groß", "jurgen.gross@acme.com"},
				{"Pieter", "van der Berg", "pieter.vanderberg@acme.com"},
				{"Tom", "Lee", "tlee@acme.com"},
			},
			want: Pattern{Template: "{first}.{last}", Domain: "acme.com", Confidence: 3.0 / 5, Guess: "jane.doe@acme.com", Matches: 3, Samples: 4},
			ok:   true,
		},
		{
			name: "flast with german spelling and noise",
			contacts: []Known{
				{"Jörg", "Müller", "jmueller@beta.de"},
				{"Sven", "Olsen", "solsen@beta.de"},
				{"Info", "", "info@beta.de"}, // no last name: not a sample
				{"Eva", "Kühn", "eva.k2@beta.de"},
			},
			want: Pattern{Template: "{f}{last}", Domain: "beta.de", Confidence: 2.0 / 4, Guess: "jdoe@beta.de", Matches: 2, Samples: 3},
			ok:   true,
		},
		{
			name: "tie goes to the more common template",
			contacts: []Known{
				{"Ann", "Ray", "ann.ray@c.io"},
				{"Bob", "Kay", "bkay@c.io"},
			},
			want: Pattern{Template: "{first}.{last}", Domain: "c.io", Confidence: 1.0 / 3, Guess: "jane.doe@c.io", Matches: 1, Samples: 2},
			ok:   true,
		},
		{
			name: "single example",
			contacts: []Known{
				{"Li", "Wu", "wu.li@d.cn"},
			},
			want: Pattern{Template: "{last}.{first}", Domain: "d.cn", Confidence: 0.5, Guess: "doe.jane@d.cn", Matches: 1, Samples: 1},
			ok:   true,
		},
		{
			name:     "nothing matches",
			contacts: []Known{{"Ann", "Ray", "sales@c.io"}, {"Bob", "Kay", "not-an-address"}},
			ok:       false,
		},
		{name: "no contacts", ok: false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, ok := InferPattern(tt.contacts)
			if ok != tt.ok {
				t.Fatalf("ok = %v, want %v (%+v)", ok, tt.ok, got)
			}
			if !ok {
				return
			}
			if math.Abs(got.Confidence-tt.want.Confidence) > 1e-9 {
				t.Errorf("confidence = %v, want %v", got.Confidence, tt.want.Confidence)
			}
			got.Confidence = tt.want.Confidence
			if got != tt.want {
				t.Errorf("got %+v\nwant %+v", got, tt.want)
			}
		})
	}
}

func TestInferPatternConfidenceGrows(t *testing.T) {
	var contacts []Known
	prev := 0.0
	for i, name := range []string{"ann", "bob", "cid", "dan", "eve", "fay", "gus", "hal", "ivy"} {
		contacts = append(contacts, Known{First: name, Last: "smith", Email: name + ".smith@acme.com"})
		p, ok := InferPattern(contacts)
		if !ok {
			t.Fatalf("no pattern after %d contacts", i+1)
		}
		if p.Confidence <= prev || p.Confidence >= 1 {
			t.Fatalf("after %d contacts confidence = %v, previous %v: want strictly growing below 1", i+1, p.Confidence, prev)
		}
		prev = p.Confidence
	}
	if math.Abs(prev-0.9) > 1e-9 {
		t.Errorf("nine of nine: confidence = %v, want 0.9", prev)
	}
}

func TestPatternAddress(t *testing.T) {
	p := Pattern{Template: "{f}{last}", Domain: "acme.com"}
	if got, want := p.Address(), "{f}{last}@acme.com"; got != want {
		t.Errorf("Address() = %q, want %q", got, want)
	}
}
