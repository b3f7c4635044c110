package testkit

import (
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"strings"
	"testing"
)

// BuildLambda compiles a main package into a `bootstrap` executable for this machine,
// the way deployed functions are built (CGO_ENABLED=0, -tags lambda.norpc) but for the
// host's architecture, and returns its path. pkg is an import path or a path relative
// to the repository root ("./functions/worker"). The Go build cache keeps repeated
// builds cheap, so every test gets its own copy.
func BuildLambda(t testing.TB, pkg string) string {
	t.Helper()
	root, err := toolsRepoRoot()
	if err != nil {
		t.Fatalf("find repo root: %v", err)
	}
	goBin, err := exec.LookPath("go")
	if err != nil {
		goBin = filepath.Join(os.Getenv("GOROOT"), "bin", "go")
	}
	out := filepath.Join(t.TempDir(), path.Base(strings.TrimSuffix(pkg, "/")), "bootstrap")
	cmd := exec.Command(goBin, "build", "-tags", "lambda.norpc", "-trimpath", "-o", out, pkg)
	cmd.Dir = root
	cmd.Env = append(os.Environ(), "CGO_ENABLED=0")
	if msg, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("build lambda %s: %v\n%s", pkg, err, msg)
	}
	return out
}
