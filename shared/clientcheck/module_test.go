package clientcheck_test

import (
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestClientModuleBuildsAlone copies the Go client module (shared/client) out of the
// repository, as a user's module cache holds it, and builds and vets it there with the
// module proxy off: it needs nothing but its own go.mod and the standard library, so a
// user's go.sum gets no line from it and its go line is the only Go version it asks for.
func TestClientModuleBuildsAlone(t *testing.T) {
	goBin, err := exec.LookPath("go")
	if err != nil {
		t.Skip("no go command")
	}
	src := filepath.Join("..", "client")
	dir := filepath.Join(t.TempDir(), "client")
	if err := copyTree(src, dir); err != nil {
		t.Fatal(err)
	}
	mod, err := os.ReadFile(filepath.Join(dir, "go.mod"))
	if err != nil {
		t.Fatal(err)
	}
	for _, line := range strings.Split(string(mod), "\n") {
		if f := strings.Fields(line); len(f) > 0 && (f[0] == "require" || f[0] == "replace") {
			t.Errorf("shared/client/go.mod: %q: the client module should need the standard library only", line)
		}
	}
	if !strings.HasPrefix(string(mod), "module github.com/firmoapi/firmo/shared/client\n") {
		t.Errorf("shared/client/go.mod does not start with the module's path:\n%s", mod)
	}
	env := append(os.Environ(), "GOWORK=off", "GOFLAGS=-mod=readonly", "GOPROXY=off", "GOTOOLCHAIN=local")
	run := func(args ...string) string {
		t.Helper()
		cmd := exec.Command(goBin, args...)
		cmd.Dir, cmd.Env = dir, env
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("go %s in a copy of shared/client: %v\n%s", strings.Join(args, " "), err, out)
		}
		return string(out)
	}
	run("build", "./...")
	run("vet", "./...")
	run("mod", "tidy", "-diff")
	deps := run("list", "-deps", "-test", "-f", "{{if not .Standard}}{{.ImportPath}}\n{{end}}", "./...")
	for _, p := range strings.Split(strings.TrimSpace(deps), "\n") {
		// "pkg [pkg.test]" is a test variant; pkg_test and pkg.test are its tests.
		p, _, _ = strings.Cut(p, " ")
		p = strings.TrimSuffix(strings.TrimSuffix(p, "_test"), ".test")
		if p != "github.com/firmoapi/firmo/shared/client" && !strings.HasPrefix(p, "github.com/firmoapi/firmo/shared/client/") {
			t.Errorf("the client module imports %s", p)
		}
	}
}

// copyTree copies the regular files under src to dst.
func copyTree(src, dst string) error {
	return filepath.WalkDir(src, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(src, path)
		target := filepath.Join(dst, rel)
		if d.IsDir() {
			return os.MkdirAll(target, 0o755)
		}
		if !d.Type().IsRegular() {
			return nil
		}
		raw, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		return os.WriteFile(target, raw, 0o644)
	})
}
