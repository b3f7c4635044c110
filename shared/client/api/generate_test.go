package api

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// generator is the oapi-codegen command, run from the Go module proxy at its pinned
// version (the same as in doc.go's go:generate line).
const generator = "github.com/oapi-codegen/oapi-codegen/v2/cmd/oapi-codegen@v2.8.2"

// TestGeneratedTypesMatchTheReference runs oapi-codegen on ../openapi.json with
// oapi-codegen.yaml and fails when its output is not types.gen.go byte for byte. When
// the generator cannot be fetched (no Go command, no module proxy) the test is skipped,
// or failed under FIRMO_REQUIRE_STANDINS=1 (make test).
func TestGeneratedTypesMatchTheReference(t *testing.T) {
	goBin, err := exec.LookPath("go")
	if err != nil {
		unavailable(t, "no go command: "+err.Error())
	}
	// Fetch first, so that only a fetch failure can skip the test.
	module, _, _ := strings.Cut(generator, "/cmd/")
	fetch := exec.Command(goBin, "mod", "download", module+"@v2.8.2")
	fetch.Env = goEnv()
	if out, err := fetch.CombinedOutput(); err != nil {
		unavailable(t, "oapi-codegen v2.8.2 cannot be fetched: "+err.Error()+": "+string(out))
	}
	out := filepath.Join(t.TempDir(), "types.gen.go")
	gen := exec.Command(goBin, "run", generator, "-config", "oapi-codegen.yaml", "-o", out, filepath.Join("..", "openapi.json"))
	gen.Env = goEnv()
	if msg, err := gen.CombinedOutput(); err != nil {
		t.Fatalf("oapi-codegen: %v\n%s", err, msg)
	}
	got, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	want, err := os.ReadFile("types.gen.go")
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, want) {
		t.Fatalf("types.gen.go is not what oapi-codegen writes from ../openapi.json (%d bytes generated, %d committed, first difference at line %d): run `go generate ./...` in shared/client",
			len(got), len(want), firstDiffLine(got, want))
	}
}

// goEnv is the environment for the go commands: outside any workspace and without the
// caller's GOFLAGS (a -mod flag does not apply to `go run pkg@version`).
func goEnv() []string {
	return append(os.Environ(), "GOFLAGS=", "GOWORK=off")
}

func unavailable(t *testing.T, why string) {
	t.Helper()
	if os.Getenv("FIRMO_REQUIRE_STANDINS") == "1" {
		t.Fatal(why)
	}
	t.Skip(why)
}

func firstDiffLine(a, b []byte) int {
	la, lb := bytes.Split(a, []byte("\n")), bytes.Split(b, []byte("\n"))
	for i := range min(len(la), len(lb)) {
		if !bytes.Equal(la[i], lb[i]) {
			return i + 1
		}
	}
	return min(len(la), len(lb)) + 1
}
