package langid

import (
	"bufio"
	"math/rand/v2"
	"os"
	"strings"
	"testing"
	"unicode"

	"github.com/pemistahl/lingua-go"
)

// TestMatchesLingua holds the detector to its claim: on the paragraph test set and
// thousands of generated texts (mixed languages, mixed scripts, accents, 'ß', random
// letters, long texts) it answers what lingua-go's low-accuracy mode, restricted to
// the same seven languages, answers. The only texts left out are those where lingua
// itself answers at random (see dominantScript).
func TestMatchesLingua(t *testing.T) {
	if testing.Short() {
		t.Skip("builds lingua-go's detector, which is slow to load")
	}
	ref := linguaDetector()
	texts := parityTexts(t)
	differ, skipped := 0, 0
	for _, text := range texts {
		if latinTiesForMost(words(text)) {
			skipped++
			continue
		}
		got, _ := Detect(text)
		if want := ref(text); got != want {
			differ++
			t.Errorf("Detect(%q) = %q, lingua says %q", text, got, want)
		}
		if differ >= 20 {
			t.Fatal("too many differences")
		}
	}
	t.Logf("%d texts compared, %d left out as lingua's random cases", len(texts)-skipped, skipped)
}

// linguaDetector returns lingua's answer as a code, or "" for none.
func linguaDetector() func(string) string {
	langs := map[lingua.Language]string{
		lingua.English: "eng", lingua.German: "deu", lingua.French: "fra", lingua.Spanish: "spa",
		lingua.Portuguese: "por", lingua.Italian: "ita", lingua.Dutch: "nld",
	}
	var from []lingua.Language
	for l := range langs {
		from = append(from, l)
	}
	d := lingua.NewLanguageDetectorBuilder().FromLanguages(from...).
		WithLowAccuracyMode().WithPreloadedLanguageModels().Build()
	return func(text string) string {
		l, ok := d.DetectLanguageOf(text)
		if !ok {
			return ""
		}
		return langs[l]
	}
}

// latinTiesForMost reports texts where Latin and another script count the most
// words alike: lingua then picks the script at random, this detector picks Latin.
func latinTiesForMost(ws []string) bool {
	counts := map[int]int{}
	most := 0
	for _, w := range ws {
		if s := wordScript(w); s >= 0 {
			counts[s]++
			most = max(most, counts[s])
		}
	}
	tied := 0
	latin := false
	for s, n := range counts {
		if n == most {
			tied++
			latin = latin || scripts[s] == unicode.Latin
		}
	}
	return latin && tied > 1 && tied < len(counts)
}

func parityTexts(t *testing.T) []string {
	t.Helper()
	texts := paragraphTexts(t)
	vocab := strings.Fields(strings.Join(texts, " "))
	foreign := []string{"γειά", "мир", "東", "の", "アイ", "한국", "שלום", "سلام", "東京の", "xß東", "ßの", "2024", "straße", "groß", "über", "ação", "ça", "é"}
	letters := []rune("abcdefghijklmnopqrstuvwxyzäöüßéèêëàâçîïôûùñáíóúãõìò東のアΓЖ ,.'-")
	r := rand.New(rand.NewPCG(2024, 7))
	for range 3000 {
		texts = append(texts, wordMix(r, vocab, nil, 1+r.IntN(12)))
		texts = append(texts, wordMix(r, vocab, foreign, 1+r.IntN(8)))
		texts = append(texts, randomLetters(r, letters, 1+r.IntN(40)))
	}
	for range 300 {
		texts = append(texts, wordMix(r, vocab, nil, 100)) // beyond extract's 600-byte sample
	}
	return texts
}

func paragraphTexts(t *testing.T) []string {
	t.Helper()
	f, err := os.Open("../testdata/paragraphs.tsv")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var texts []string
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if lang, text, ok := strings.Cut(sc.Text(), "\t"); ok && !strings.HasPrefix(lang, "#") {
			texts = append(texts, text)
		}
	}
	if err := sc.Err(); err != nil || len(texts) == 0 {
		t.Fatalf("read paragraphs: %d texts, %v", len(texts), err)
	}
	return texts
}

// wordMix joins n words drawn from vocab and, half the time when given, from foreign.
func wordMix(r *rand.Rand, vocab, foreign []string, n int) string {
	ws := make([]string, n)
	for i := range ws {
		if foreign != nil && r.IntN(2) == 0 {
			ws[i] = foreign[r.IntN(len(foreign))]
		} else {
			ws[i] = vocab[r.IntN(len(vocab))]
		}
	}
	return strings.Join(ws, " ")
}

func randomLetters(r *rand.Rand, letters []rune, n int) string {
	rs := make([]rune, n)
	for i := range rs {
		rs[i] = letters[r.IntN(len(letters))]
	}
	return string(rs)
}
