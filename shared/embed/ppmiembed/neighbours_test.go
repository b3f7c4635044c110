package ppmiembed_test

import (
	"context"
	"slices"
	"testing"

	"github.com/firmoapi/firmo/shared/embed/ppmiembed"
)

func TestNeighbours(t *testing.T) {
	e := ppmiembed.New()
	tests := []struct {
		word     string
		k        int
		minCos   float32
		contains []string // must be among the answer
		none     bool     // the answer must be empty
	}{
		{word: "Customer", k: 3, minCos: 0.8, contains: []string{"retention", "success"}},
		{word: "Windows", k: 1, minCos: 0.8, contains: []string{"server"}},
		{word: "marketing", k: 10, minCos: 0.8, contains: []string{"content", "social", "brand"}},
		{word: "kubernetes", k: 5, minCos: 0.8, none: true},     // its nearest, kafka, is at 0.77
		{word: "Zyxwvutronics", k: 5, minCos: 0, none: true},    // outside the vocabulary
		{word: "customer success", k: 5, minCos: 0, none: true}, // not one word
		{word: "the", k: 5, minCos: 0, none: true},              // a stopword
		{word: "customer", k: 0, minCos: 0, none: true},
	}
	for _, tt := range tests {
		t.Run(tt.word, func(t *testing.T) {
			got := e.Neighbours(tt.word, tt.k, tt.minCos)
			t.Logf("%v", got)
			if tt.none {
				if len(got) != 0 {
					t.Fatalf("Neighbours(%q) = %v, want none", tt.word, got)
				}
				return
			}
			if len(got) > tt.k {
				t.Fatalf("%d neighbours, want at most %d", len(got), tt.k)
			}
			for _, w := range tt.contains {
				if !slices.Contains(got, w) {
					t.Errorf("Neighbours(%q) = %v, want %q among them", tt.word, got, w)
				}
			}
			// Every neighbour is as near as promised, nearest first, and not the word itself;
			// the cosines are checked on Embed's vectors, independently of the method.
			vs, err := e.Embed(context.Background(), append([]string{tt.word}, got...))
			if err != nil {
				t.Fatal(err)
			}
			prev := 2.0
			for i, w := range got {
				c := cos(vs[0], vs[i+1])
				if c < float64(tt.minCos)-1e-4 || c > prev+1e-4 {
					t.Errorf("%q at cosine %.3f: below %.2f or out of order (previous %.3f)", w, c, tt.minCos, prev)
				}
				if w == tt.word {
					t.Errorf("the word itself is among its neighbours")
				}
				prev = c
			}
		})
	}
	if a, b := e.Neighbours("Mktg.", 5, 0.8), e.Neighbours("marketing", 5, 0.8); !slices.Equal(a, b) || len(a) == 0 {
		t.Errorf("abbreviation: Mktg. gives %v, marketing %v", a, b)
	}
}

// BenchmarkNeighbours measures one lookup (a scan of the vocabulary), paid per summary
// word of a contact search.
func BenchmarkNeighbours(b *testing.B) {
	e := ppmiembed.New()
	e.Warm()
	for b.Loop() {
		e.Neighbours("customer", 3, 0.8)
	}
}
