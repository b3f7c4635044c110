package langid

import (
	"errors"
	"fmt"
	"math"
	"os"
	"sync"
	"testing"

	"github.com/firmoapi/firmo/shared/extract/langid/internal/modelfile"
)

// TestMain checks, before any test can decode them, that loading the package left
// the models undecoded: binaries that never detect a language pay nothing for them.
func TestMain(m *testing.M) {
	if n := decodes.Load(); n != 0 {
		fmt.Fprintf(os.Stderr, "package initialisation decoded the models %d times, want 0\n", n)
		os.Exit(1)
	}
	os.Exit(m.Run())
}

func TestLazyModelConcurrentFirstUse(t *testing.T) {
	before := decodes.Load()
	get := lazyModel(modelData)
	models := make([]*model, 16)
	var wg sync.WaitGroup
	for i := range models {
		wg.Add(1)
		go func() {
			defer wg.Done()
			models[i] = get()
		}()
	}
	wg.Wait()
	if n := decodes.Load() - before; n != 1 {
		t.Errorf("%d concurrent first calls decoded %d times, want 1", len(models), n)
	}
	for i, m := range models {
		if m == nil || m != models[0] {
			t.Fatalf("goroutine %d got model %p, goroutine 0 got %p", i, m, models[0])
		}
	}
}

func TestEmbeddedModels(t *testing.T) {
	m, err := decode(modelData)
	if err != nil {
		t.Fatal(err)
	}
	if len(m.rows) < 30000 {
		t.Errorf("%d n-grams, want the 38,000-odd of lingua's seven models", len(m.rows))
	}
	tests := []struct {
		ngram string
		lang  lang
		known bool
	}{
		{"the", eng, true},
		{"sch", deu, true},
		{"ß", deu, true},
		{"ß", por, false}, // Portuguese text never had one
		{"ñ", spa, true},
		{"ij", nld, true},
	}
	for _, tt := range tests {
		r := m.row(tt.ngram)
		if r < 0 {
			t.Errorf("%q: no row", tt.ngram)
			continue
		}
		lp := m.logp[int(r)*int(numLangs)+int(tt.lang)]
		if known := lp != absent; known != tt.known {
			t.Errorf("%q in %s: known %v, want %v", tt.ngram, codes[tt.lang], known, tt.known)
		}
		if lp != absent && (lp > 0 || math.IsInf(lp, 0) || math.IsNaN(lp)) {
			t.Errorf("%q in %s: log probability %v", tt.ngram, codes[tt.lang], lp)
		}
	}
}

func TestDecodeRejects(t *testing.T) {
	other, err := modelfile.Encode(&modelfile.Model{
		Languages: []string{"eng", "fin"},
		Ngrams:    []string{"a"},
		Prob:      []float64{0.5, 0.25},
	})
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name string
		data []byte
	}{
		{"empty", nil},
		{"truncated", modelData[:len(modelData)/2]},
		{"other languages", other},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if _, err := decode(tt.data); err == nil {
				t.Error("decode succeeded, want an error")
			}
		})
	}
	if _, err := decode(nil); !errors.Is(err, modelfile.ErrCorrupt) {
		t.Errorf("decode(nil) error = %v, want ErrCorrupt", err)
	}
}

func TestLazyModelPanicsOnBadData(t *testing.T) {
	defer func() {
		if recover() == nil {
			t.Error("no panic on damaged embedded data")
		}
	}()
	lazyModel([]byte("not models"))()
}
