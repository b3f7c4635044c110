// Command gen writes langid's models.bin from the language models of lingua-go
// (github.com/pemistahl/lingua-go, Apache-2.0): the unigram, bigram and trigram
// models of the seven languages langid answers, in the layout of package modelfile.
//
// lingua-go's module holds these models as zipped protobuf files under
// language-models/<ISO 639-1>/; this command reads them from the module cache, so the
// detector ships 1.2 MB of models instead of lingua's 124 MB for 75 languages.
//
// Usage (from shared/extract/langid, through go generate):
//
//	go run ./internal/gen [-lingua DIR] [-out models.bin]
//
// Without -lingua the module directory is found with `go list -m`, at the version
// go.mod requires. The same models always give the same bytes.
package main

import (
	"archive/zip"
	"bytes"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"unicode/utf8"

	"github.com/pemistahl/lingua-go/serialization"
	"google.golang.org/protobuf/proto"

	"github.com/firmoapi/firmo/shared/extract/langid/internal/modelfile"
)

const linguaModule = "github.com/pemistahl/lingua-go"

// languages lists the models to take, in langid's column order: the ISO 639-2/T code
// langid answers and the ISO 639-1 code naming lingua's model directory.
var languages = []struct{ code, dir string }{
	{"eng", "en"},
	{"deu", "de"},
	{"fra", "fr"},
	{"spa", "es"},
	{"por", "pt"},
	{"ita", "it"},
	{"nld", "nl"},
}

// orderNames are lingua's file names for the n-gram orders langid uses.
var orderNames = []string{1: "unigrams", 2: "bigrams", 3: "trigrams"}

func main() {
	dir := flag.String("lingua", "", "lingua-go module directory (default: found with go list -m)")
	out := flag.String("out", "models.bin", "file to write")
	flag.Parse()
	if err := run(*dir, *out); err != nil {
		fmt.Fprintln(os.Stderr, "langid/internal/gen:", err)
		os.Exit(1)
	}
}

func run(dir, out string) error {
	if dir == "" {
		var err error
		if dir, err = moduleDir(); err != nil {
			return err
		}
	}
	data, err := generate(dir)
	if err != nil {
		return err
	}
	return os.WriteFile(out, data, 0o644)
}

// moduleDir asks the go command where lingua-go's module lives in the module cache.
func moduleDir() (string, error) {
	cmd := exec.Command("go", "list", "-m", "-json", linguaModule)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		return "", fmt.Errorf("go list -m %s: %v: %s", linguaModule, err, stderr.Bytes())
	}
	var mod struct{ Dir string }
	if err := json.Unmarshal(out, &mod); err != nil {
		return "", fmt.Errorf("go list -m %s: %w", linguaModule, err)
	}
	if mod.Dir == "" {
		return "", fmt.Errorf("%s is not in the module cache: run go mod download %s", linguaModule, linguaModule)
	}
	return mod.Dir, nil
}

// generate reads the models under dir and returns the encoded file.
func generate(dir string) ([]byte, error) {
	perLang := make([]map[string]float64, len(languages))
	all := map[string]bool{}
	for l, lang := range languages {
		probs, err := readLanguage(dir, lang.dir)
		if err != nil {
			return nil, err
		}
		perLang[l] = probs
		for g := range probs {
			all[g] = true
		}
	}
	return modelfile.Encode(matrix(perLang, all))
}

// matrix lays the languages' models side by side, one row per distinct n-gram.
func matrix(perLang []map[string]float64, all map[string]bool) *modelfile.Model {
	m := &modelfile.Model{Ngrams: make([]string, 0, len(all))}
	for _, lang := range languages {
		m.Languages = append(m.Languages, lang.code)
	}
	for g := range all {
		m.Ngrams = append(m.Ngrams, g)
	}
	sort.Strings(m.Ngrams)
	m.Prob = make([]float64, len(m.Ngrams)*len(languages))
	for i, g := range m.Ngrams {
		for l, probs := range perLang {
			m.Prob[i*len(languages)+l] = probs[g] // 0 where the language lacks g
		}
	}
	return m
}

// readLanguage merges one language's models of every order; an n-gram's length
// tells its order, so one map holds them all.
func readLanguage(dir, lang string) (map[string]float64, error) {
	probs := map[string]float64{}
	for order := 1; order <= modelfile.MaxOrder; order++ {
		path := filepath.Join(dir, "language-models", lang, orderNames[order]+".pb.bin.zip")
		if err := readModel(path, order, probs); err != nil {
			return nil, fmt.Errorf("%s: %w", path, err)
		}
	}
	return probs, nil
}

// readModel adds the n-grams of one zipped protobuf model to probs, checking that
// the file holds what its name says.
func readModel(path string, order int, probs map[string]float64) error {
	raw, err := unzipOnly(path)
	if err != nil {
		return err
	}
	var model serialization.SerializableLanguageModel
	if err := proto.Unmarshal(raw, &model); err != nil {
		return err
	}
	if int(model.NgramLength) != order {
		return fmt.Errorf("holds %d-grams, want %d-grams", model.NgramLength, order)
	}
	n := 0
	for _, set := range model.NgramSets {
		for _, g := range set.Ngrams {
			if utf8.RuneCountInString(g) != order {
				return fmt.Errorf("n-gram %q is not %d runes long", g, order)
			}
			if _, dup := probs[g]; dup {
				return fmt.Errorf("n-gram %q appears twice", g)
			}
			probs[g] = set.Probability
			n++
		}
	}
	if n != int(model.TotalNgrams) {
		return fmt.Errorf("holds %d n-grams, its header says %d", n, model.TotalNgrams)
	}
	return nil
}

// unzipOnly returns the content of a zip archive's single file.
func unzipOnly(path string) ([]byte, error) {
	zr, err := zip.OpenReader(path)
	if err != nil {
		return nil, err
	}
	defer zr.Close()
	if len(zr.File) != 1 {
		return nil, errors.New("want a zip archive of exactly one file")
	}
	f, err := zr.File[0].Open()
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return io.ReadAll(f)
}
