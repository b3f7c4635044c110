package langid

import (
	"slices"
	"testing"
)

func TestWords(t *testing.T) {
	tests := []struct {
		text string
		want []string
	}{
		{"", nil},
		{"Hello, World! 42", []string{"hello", "world"}},
		{"l'équipe d’Arnaud", []string{"l", "équipe", "d", "arnaud"}},
		{"東京abc", []string{"東", "京", "abc"}},
		// A run of letters swallows the Han that follows, as lingua's pattern does.
		{"abc東京 x", []string{"abc東京", "x"}},
		{"한국 ΓΕΙΑ", []string{"한", "국", "γεια"}},
	}
	for _, tt := range tests {
		if got := words(tt.text); !slices.Equal(got, tt.want) {
			t.Errorf("words(%q) = %q, want %q", tt.text, got, tt.want)
		}
	}
}

func TestTrigrams(t *testing.T) {
	tests := []struct {
		word string
		want []string
	}{
		{"ab", nil},
		{"abc", []string{"abc"}},
		{"straße", []string{"str", "tra", "raß", "aße"}},
		{"été", []string{"été"}},
	}
	for _, tt := range tests {
		if got := slices.Collect(trigrams(tt.word)); !slices.Equal(got, tt.want) {
			t.Errorf("trigrams(%q) = %q, want %q", tt.word, got, tt.want)
		}
	}
}

func TestUniqueLetterRule(t *testing.T) {
	tests := []struct {
		text          string
		want          lang
		settled, isOK bool
	}{
		{"straße", deu, true, true},
		{"große straße", deu, true, true},
		{"große straße und mehr", 0, false, false}, // half the words have no vote
		{"abc東京の", 0, true, false},                 // Han and kana in one word: Japanese
		{"東京の会社", 0, false, false},                 // Han or kana alone: not asked about
		{"the company", 0, false, false},
	}
	for _, tt := range tests {
		l, settled, ok := uniqueLetterRule(words(tt.text))
		if settled != tt.settled || ok != tt.isOK || (ok && l != tt.want) {
			t.Errorf("%q: %s, settled %v, ok %v; want %s, %v, %v", tt.text, codes[l%numLangs], settled, ok, codes[tt.want], tt.settled, tt.isOK)
		}
	}
}

func TestCandidates(t *testing.T) {
	tests := []struct {
		text string
		want langSet
	}{
		{"the company builds software", allLangs},
		{"über öl", set(deu, spa)},            // ü: German, Spanish; ö: German
		{"ação não", set(fra, por)},           // ã: Portuguese; ç: French, Portuguese
		{"mañana señor de la casa", allLangs}, // ñ in fewer than half the words
		{"crème brûlée", set(fra, ita, por, spa)},
		{"Καλημέρα σας", 0},
		{"γειά world", allLangs}, // one word in each script: no script dominates
		{"γειά hello world", allLangs},
		{"γειά γεια world", 0},
	}
	for _, tt := range tests {
		if got := candidates(words(tt.text)); got != tt.want {
			t.Errorf("candidates(%q) = %07b, want %07b", tt.text, got, tt.want)
		}
	}
}

func TestLangSetOnly(t *testing.T) {
	if l, ok := set(ita).only(); !ok || l != ita {
		t.Errorf("set(ita).only() = %v, %v", l, ok)
	}
	for _, s := range []langSet{0, set(eng, deu), allLangs} {
		if _, ok := s.only(); ok {
			t.Errorf("%07b.only() reports one language", s)
		}
	}
}
