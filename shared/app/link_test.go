package app_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// heavy are packages a Lambda links only when its family needs them, each with the
// functions allowed to link it. Anything else linking one is a composition leak: a
// function building services of a family it does not serve.
var heavy = []struct {
	pkg     string // an import path; its sub-packages count as the same
	allowed []string
	why     string
}{
	{"github.com/pemistahl/lingua-go", nil, "75 languages of models (124 MB); extract carries its own seven"},
	{"go.etcd.io/bbolt", nil, "the embedded store of the local composition"},
	{"github.com/blevesearch/bleve/v2", nil, "the embedded name index of the local composition"},
	{"github.com/firmoapi/firmo/shared/app/allapp", nil, "the composition of every family"},
	{"github.com/firmoapi/firmo/shared/app/localbackend", nil, "the embedded backend"},
	{"github.com/firmoapi/firmo/shared/world", nil, "the demo world generator"},
	{"github.com/openai/openai-go/v3", []string{"integrations", "contacts", "generation", "worker"}, "LLM calls"},
	{"github.com/anthropics/anthropic-sdk-go", []string{"integrations", "contacts", "generation", "worker"}, "LLM calls"},
	{"github.com/markusmobius/go-trafilatura", []string{"company", "generation", "worker", "scheduler"}, "page extraction"},
	{"github.com/markusmobius/go-dateparser", []string{"company", "generation", "worker", "scheduler"}, "page extraction (194 ms of init)"},
	{"github.com/firmoapi/firmo/shared/contactsearch", []string{"contacts"}, "contact search"},
	{"github.com/firmoapi/firmo/shared/hnswindex", []string{"contacts"}, "the vector graph"},
	{"github.com/firmoapi/firmo/shared/embed/ppmiembed", []string{"contacts", "datasets", "worker"}, "the built-in embedder"},
	{"github.com/opensearch-project/opensearch-go/v4", []string{"contacts", "company", "generation", "worker", "scheduler"}, "OpenSearch"},
	{"github.com/firmoapi/firmo/shared/emailfind/smtpverify", []string{"email", "worker"}, "SMTP verification"},
	{"github.com/firmoapi/firmo/shared/smtpverify", []string{"email", "worker"}, "SMTP verification"},
	{"github.com/firmoapi/firmo/shared/research", []string{"generation", "worker"}, "batch research"},
	{"github.com/firmoapi/firmo/shared/namematch", []string{"company", "generation", "worker", "scheduler"}, "name matching"},
	{"github.com/nyaruka/phonenumbers", []string{"company", "contacts", "crm", "datasets", "email", "generation", "integrations", "worker", "scheduler"}, "phone metadata (11 ms and 2.5 MB of init)"},
	{"github.com/firmoapi/firmo/shared/patternbook", []string{"contacts", "email", "generation", "worker"}, "the email pattern book (reads the contact store)"},
}

// composers lists the family composers each function's main may import (besides the
// core, shared/app); everything else it links comes through them.
var composers = map[string][]string{
	"account":      {"accountapp"},
	"queries":      {"queriesapp"},
	"integrations": {"integrationsapp"},
	"email":        {"emailapp"},
	"contacts":     {"contactsapp"},
	"company":      {"companyapp"},
	"generation":   {"generationapp"},
	"worker":       {"emailapp", "generationapp", "companyapp", "crmapp", "datasetsapp"},
	"crm":          {"crmapp"},
	"datasets":     {"datasetsapp"},
	"steps":        {},
	"scheduler":    {"companyapp"},
}

// TestFunctionsLinkOnlyTheirFamily lists, as `go build` for Lambda sees them, the
// packages every function under functions/ links, and fails when one links a heavy
// package its family does not need, or when its main imports another family's composer.
func TestFunctionsLinkOnlyTheirFamily(t *testing.T) {
	root := repoRoot(t)
	entries, err := os.ReadDir(filepath.Join(root, "functions"))
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		if !e.IsDir() || e.Name() == "local" {
			continue
		}
		fn := e.Name()
		t.Run(fn, func(t *testing.T) {
			allowed, ok := composers[fn]
			if !ok {
				t.Fatalf("functions/%s is not in this test's table: add the composers it may import", fn)
			}
			for _, imp := range goList(t, root, "{{join .Imports \"\\n\"}}", "./functions/"+fn) {
				if c, ok := strings.CutPrefix(imp, "github.com/firmoapi/firmo/shared/app/"); ok && !slices.Contains(allowed, c) {
					t.Errorf("main imports %s; functions/%s composes only %v", imp, fn, allowed)
				}
			}
			deps := goList(t, root, "{{.ImportPath}}", "-deps", "./functions/"+fn)
			for _, h := range heavy {
				if slices.Contains(h.allowed, fn) {
					continue
				}
				for _, d := range deps {
					if d == h.pkg || strings.HasPrefix(d, h.pkg+"/") {
						t.Errorf("links %s (%s), which the %s function does not need", d, h.why, fn)
						break
					}
				}
			}
		})
	}
}

// goList runs `go list` for the Lambda target (linux/arm64, no cgo, lambda.norpc).
func goList(t *testing.T, root, format string, args ...string) []string {
	t.Helper()
	cmd := exec.Command(goBinary(), append([]string{"list", "-tags", "lambda.norpc", "-f", format}, args...)...)
	cmd.Dir = root
	cmd.Env = append(os.Environ(), "GOOS=linux", "GOARCH=arm64", "CGO_ENABLED=0", "GOFLAGS=-mod=mod")
	out, err := cmd.Output()
	if err != nil {
		msg := ""
		if ee, ok := err.(*exec.ExitError); ok {
			msg = string(ee.Stderr)
		}
		t.Fatalf("go list %v: %v\n%s", args, err, msg)
	}
	return strings.Fields(string(out))
}

// goBinary is the go command on PATH, else the one beside the running toolchain's
// GOROOT (go test sets it).
func goBinary() string {
	if p, err := exec.LookPath("go"); err == nil {
		return p
	}
	return filepath.Join(os.Getenv("GOROOT"), "bin", "go")
}

func repoRoot(t *testing.T) string {
	t.Helper()
	dir, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(dir, "go.mod")); err != nil {
		t.Fatalf("repository root not found from %s: %v", dir, err)
	}
	return dir
}
