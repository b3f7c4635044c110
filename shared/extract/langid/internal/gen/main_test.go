package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/firmoapi/firmo/shared/extract/langid/internal/modelfile"
)

// committed is the file langid embeds.
const committed = "../../models.bin"

// TestCommittedModelsUpToDate regenerates the models from the lingua-go module that
// go.mod requires and compares them with the committed file, so a lingua upgrade or
// a generator change cannot leave a stale models.bin behind.
func TestCommittedModelsUpToDate(t *testing.T) {
	dir, err := moduleDir()
	if err != nil {
		t.Skipf("lingua-go's models are not at hand, so models.bin cannot be checked: %v", err)
	}
	out := filepath.Join(t.TempDir(), "models.bin")
	if err := run(dir, out); err != nil {
		t.Fatal(err)
	}
	got, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	want, err := os.ReadFile(committed)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("models.bin is stale (%d bytes, regenerated %d): run go generate ./shared/extract/langid", len(want), len(got))
	}
}

func TestGeneratedContent(t *testing.T) {
	data, err := os.ReadFile(committed)
	if err != nil {
		t.Fatal(err)
	}
	m, err := modelfile.Decode(data)
	if err != nil {
		t.Fatal(err)
	}
	if len(m.Languages) != len(languages) {
		t.Fatalf("languages %v, want %d", m.Languages, len(languages))
	}
	for l, lang := range languages {
		if m.Languages[l] != lang.code {
			t.Errorf("column %d is %s, want %s", l, m.Languages[l], lang.code)
		}
	}
	// Each language's unigram probabilities are relative frequencies: they sum to 1.
	for l := range m.Languages {
		sum := 0.0
		for i, g := range m.Ngrams {
			if len([]rune(g)) == 1 {
				sum += m.Prob[i*len(m.Languages)+l]
			}
		}
		if sum < 0.999 || sum > 1.001 {
			t.Errorf("%s: unigram probabilities sum to %v, want 1", m.Languages[l], sum)
		}
	}
}

func TestGenerateErrors(t *testing.T) {
	missing := filepath.Join(t.TempDir(), "nowhere")
	_, err := generate(missing)
	if err == nil || !strings.Contains(err.Error(), filepath.Join("language-models", "en", "unigrams.pb.bin.zip")) {
		t.Errorf("generate(%q) error = %v, want it to name the missing model file", missing, err)
	}
	broken := t.TempDir()
	path := filepath.Join(broken, "language-models", "en")
	if err := os.MkdirAll(path, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(path, "unigrams.pb.bin.zip"), []byte("not a zip"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := generate(broken); err == nil || !strings.Contains(err.Error(), "unigrams.pb.bin.zip") {
		t.Errorf("generate on a broken zip: error = %v, want it to name the file", err)
	}
}
