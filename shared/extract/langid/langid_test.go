package langid_test

import (
	"slices"
	"sync"
	"testing"

	"github.com/firmoapi/firmo/shared/extract/langid"
)

func TestDetect(t *testing.T) {
	tests := []struct{ want, text string }{
		{"eng", "We help small businesses send invoices and get paid faster."},
		{"deu", "Wir entwickeln Software für kleine und mittlere Unternehmen."},
		{"fra", "Nous fabriquons des meubles en bois massif dans notre atelier."},
		{"spa", "Ofrecemos asesoría fiscal y contable a pequeñas empresas de la región."},
		{"por", "A nossa equipa desenvolve soluções de pagamento para o comércio eletrónico."},
		{"ita", "La nostra azienda produce macchine per il confezionamento alimentare."},
		{"nld", "Wij ontwikkelen software voor woningcorporaties in heel Nederland."},
		// Settled by rule before any model: of the seven, only German writes 'ß'.
		{"deu", "Straße"},
		{"deu", "WIR ENTWICKELN SOFTWARE FÜR KLEINE UND MITTLERE UNTERNEHMEN."},
	}
	for _, tt := range tests {
		t.Run(tt.want+" "+tt.text, func(t *testing.T) {
			got, ok := langid.Detect(tt.text)
			if !ok || got != tt.want {
				t.Errorf("Detect = %q, %v; want %q, true", got, ok, tt.want)
			}
		})
	}
}

func TestDetectUndetermined(t *testing.T) {
	for _, text := range []string{
		"",
		" \n\t ",
		"12345 67 89 !?",
		"ab",    // fewer than three letters
		"ok go", // letters, but no word long enough for a trigram
		"東京都渋谷区の会社です。私たちはソフトウェアを作っています。",                 // Japanese: Han and kana
		"Καλημέρα σας, είμαστε μια εταιρεία λογισμικού.", // Greek script
		"Мы разрабатываем программное обеспечение.",      // Cyrillic script
		"\xff\xfe\xfd", // not UTF-8
	} {
		if got, ok := langid.Detect(text); ok {
			t.Errorf("Detect(%q) = %q, want no answer", text, got)
		}
	}
}

func TestLanguages(t *testing.T) {
	want := []string{"eng", "deu", "fra", "spa", "por", "ita", "nld"}
	got := langid.Languages()
	if !slices.Equal(got, want) {
		t.Fatalf("Languages() = %v, want %v", got, want)
	}
	got[0] = "changed"
	if langid.Languages()[0] != "eng" {
		t.Error("Languages returns the package's own slice")
	}
}

// TestConcurrentDetect has many goroutines load and detect at once (run with -race);
// TestLazyModelConcurrentFirstUse races the decoding itself.
func TestConcurrentDetect(t *testing.T) {
	const text = "Wij ontwikkelen software voor woningcorporaties in heel Nederland."
	var wg sync.WaitGroup
	got := make([]string, 16)
	for i := range got {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if i%2 == 0 {
				langid.Load()
			}
			got[i], _ = langid.Detect(text)
		}()
	}
	wg.Wait()
	for i, g := range got {
		if g != "nld" {
			t.Errorf("goroutine %d: Detect = %q, want nld", i, g)
		}
	}
}

func BenchmarkDetect(b *testing.B) {
	const text = "Founded in 2009 in Manchester, our family-run bakery supplies fresh bread to cafés and hotels across the North West. We deliver every morning before seven and bake to order for events."
	langid.Load()
	for b.Loop() {
		langid.Detect(text)
	}
}
