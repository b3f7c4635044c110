package testkit

import (
	"encoding/json"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"syscall"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/credentials"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
)

// dynaliteVersion is the DynamoDB stand-in of README's Tests section.
const dynaliteVersion = "4.0.0"

// Dynalite starts an in-memory dynalite (the DynamoDB stand-in) on a free loopback
// port for the life of the test and returns its endpoint URL. It installs the npm
// package into <repo>/.tools on first use; without node and npm it skips the test,
// or fails it when FIRMO_REQUIRE_STANDINS=1 (as CI sets).
func Dynalite(t testing.TB) (endpoint string) {
	t.Helper()
	bin := NodeTool(t, "dynalite", dynaliteVersion, "dynalite")
	addr := startStandin(t, "dynalite", func(port int) *exec.Cmd {
		return exec.Command(bin, "--host", "127.0.0.1", "--port", strconv.Itoa(port))
	})
	return "http://" + addr
}

// DynamoClient returns a DynamoDB client for a stand-in endpoint, with dummy static
// credentials so that nothing from the environment or ~/.aws is read.
func DynamoClient(t testing.TB, endpoint string) *dynamodb.Client {
	t.Helper()
	return dynamodb.New(dynamodb.Options{
		Region:       "us-east-1",
		Credentials:  credentials.NewStaticCredentialsProvider("firmo-test", "firmo-test", ""),
		BaseEndpoint: aws.String(endpoint),
	})
}

// NodeTool returns the path of the executable bin of npm package pkg at version,
// installed under <repo root>/.tools (npm install --prefix). Concurrent test processes
// serialize installs with a file lock. When node or npm is missing or the install fails,
// the test is skipped, or failed when FIRMO_REQUIRE_STANDINS=1.
func NodeTool(t testing.TB, pkg, version, bin string) string {
	t.Helper()
	if _, err := exec.LookPath("node"); err != nil {
		standinMissing(t, "%s needs Node.js 20+, and node is not on PATH; install it (Debian: apt-get install nodejs npm) or run make test", pkg)
	}
	root, err := toolsRepoRoot()
	if err != nil {
		t.Fatalf("find repo root: %v", err)
	}
	tools := filepath.Join(root, ".tools")
	path := filepath.Join(tools, "node_modules", ".bin", bin)
	if installedVersion(tools, pkg) == version {
		return path
	}
	if _, err := exec.LookPath("npm"); err != nil {
		standinMissing(t, "%s@%s is not installed in %s and npm is not on PATH; install npm (Debian: apt-get install npm) or run: npm install --prefix %s %s@%s", pkg, version, tools, tools, pkg, version)
	}
	if err := os.MkdirAll(tools, 0o755); err != nil {
		t.Fatalf("create %s: %v", tools, err)
	}
	unlock, err := lockFile(filepath.Join(tools, ".lock"))
	if err != nil {
		t.Fatalf("lock %s: %v", tools, err)
	}
	defer unlock()
	if installedVersion(tools, pkg) == version { // another process installed it meanwhile
		return path
	}
	out, err := exec.Command("npm", "install", "--prefix", tools, "--no-audit", "--no-fund", "--save-exact", pkg+"@"+version).CombinedOutput()
	if err != nil || installedVersion(tools, pkg) != version {
		standinMissing(t, "npm install --prefix %s %s@%s failed (%v); run it by hand with access to the npm registry:\n%s", tools, pkg, version, err, out)
	}
	return path
}

// standinMissing skips the test, or fails it where stand-ins are required (CI).
func standinMissing(t testing.TB, format string, args ...any) {
	t.Helper()
	if os.Getenv("FIRMO_REQUIRE_STANDINS") == "1" {
		t.Fatalf("stand-in required (FIRMO_REQUIRE_STANDINS=1): "+format, args...)
	}
	t.Skipf("stand-in unavailable, skipping: "+format, args...)
}

// installedVersion reads the version of pkg installed under prefix, or "".
func installedVersion(prefix, pkg string) string {
	raw, err := os.ReadFile(filepath.Join(prefix, "node_modules", pkg, "package.json"))
	if err != nil {
		return ""
	}
	var meta struct{ Version string }
	if json.Unmarshal(raw, &meta) != nil {
		return ""
	}
	return meta.Version
}

func lockFile(path string) (unlock func(), err error) {
	f, err := os.OpenFile(path, os.O_CREATE|os.O_RDWR, 0o644)
	if err != nil {
		return nil, err
	}
	if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX); err != nil {
		f.Close()
		return nil, err
	}
	return func() { syscall.Flock(int(f.Fd()), syscall.LOCK_UN); f.Close() }, nil
}

// toolsRepoRoot walks up from the working directory (a package directory under go test)
// to the directory holding go.mod.
func toolsRepoRoot() (string, error) {
	dir, err := os.Getwd()
	if err != nil {
		return "", err
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return dir, nil
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return "", errors.New("no go.mod above the working directory")
		}
		dir = parent
	}
}
