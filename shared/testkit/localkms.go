package testkit

import (
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"strconv"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/credentials"
	"github.com/aws/aws-sdk-go-v2/service/kms"
	"github.com/google/uuid"
)

// The KMS stand-in of README's Tests section: local-kms, built from its Go module at this
// pseudo-version (the Makefile's tools target pins the same one).
const (
	LocalKMSModule  = "github.com/nsmithuk/local-kms"
	LocalKMSVersion = "v0.0.0-20260228092603-2a5e92d09ab6"
)

// KMSStandin is a running local-kms holding one symmetric (AES-256) key.
type KMSStandin struct {
	Endpoint string // http://127.0.0.1:<port>
	KeyID    string // the key's id
	KeyARN   string // arn:aws:kms:<StandinRegion>:<StandinAccount>:key/<KeyID>
	Alias    string // alias/firmo-test, naming the same key
}

// LocalKMS starts local-kms on a free port for the life of the test, its database in a
// temporary directory and one AES key seeded from a YAML file (KMS_SEED_PATH) with
// fresh key material, so that every test gets a key of its own. local-kms listens on
// every interface (it takes only a port); clients use the loopback address. The binary
// is built once into <repo>/.tools/go (see GoTool); without it the test is skipped, or
// failed under FIRMO_REQUIRE_STANDINS=1.
func LocalKMS(t testing.TB) KMSStandin {
	t.Helper()
	bin := GoTool(t, LocalKMSModule, LocalKMSVersion)
	dir := t.TempDir()
	material := make([]byte, 32)
	if _, err := rand.Read(material); err != nil {
		t.Fatal(err)
	}
	k := KMSStandin{KeyID: uuid.NewString(), Alias: "alias/firmo-test"}
	k.KeyARN = "arn:aws:kms:" + StandinRegion + ":" + StandinAccount + ":key/" + k.KeyID
	seed := fmt.Sprintf("Keys:\n  Symmetric:\n    Aes:\n      - Metadata:\n          KeyId: %s\n          Description: firmo test key\n        BackingKeys:\n          - %s\nAliases:\n  - AliasName: %s\n    TargetKeyId: %s\n",
		k.KeyID, hex.EncodeToString(material), k.Alias, k.KeyID)
	seedPath := filepath.Join(dir, "seed.yaml")
	if err := os.WriteFile(seedPath, []byte(seed), 0o600); err != nil {
		t.Fatal(err)
	}
	addr := startStandin(t, "local-kms", func(port int) *exec.Cmd {
		cmd := exec.Command(bin)
		cmd.Env = append(os.Environ(),
			"PORT="+strconv.Itoa(port),
			"KMS_SEED_PATH="+seedPath,
			// A database per attempt: a failed start may leave the last one locked.
			"KMS_DATA_PATH="+filepath.Join(dir, "data-"+strconv.Itoa(port)),
			"KMS_REGION="+StandinRegion,
			"KMS_ACCOUNT_ID="+StandinAccount,
		)
		return cmd
	})
	k.Endpoint = "http://" + addr
	return k
}

// KMSClient returns a KMS client for a stand-in endpoint with dummy credentials.
func KMSClient(t testing.TB, endpoint string) *kms.Client {
	t.Helper()
	return kms.New(kms.Options{
		Region:       StandinRegion,
		Credentials:  credentials.NewStaticCredentialsProvider("firmo-test", "firmo-test", ""),
		BaseEndpoint: aws.String(endpoint),
	})
}

// GoToolPath is where GoTool (and `make tools`) installs the main package module at
// version: <repo>/.tools/go/<name>-<version>/<name>, one directory per version so that
// a changed pin builds afresh.
func GoToolPath(root, module, version string) string {
	name := path.Base(module)
	return filepath.Join(root, ".tools", "go", name+"-"+version, name)
}

// GoTool returns the path of the command built from the main package module at
// version, building it with `go install module@version` on first use (from the module
// cache, or the Go module proxy). Concurrent test processes serialize builds with a
// file lock. When the go command is missing or the build fails the test is skipped, or
// failed under FIRMO_REQUIRE_STANDINS=1.
func GoTool(t testing.TB, module, version string) string {
	t.Helper()
	root, err := toolsRepoRoot()
	if err != nil {
		t.Fatalf("find repo root: %v", err)
	}
	bin := GoToolPath(root, module, version)
	if isExecutable(bin) {
		return bin
	}
	goBin, err := exec.LookPath("go")
	if err != nil {
		if goBin = filepath.Join(os.Getenv("GOROOT"), "bin", "go"); !isExecutable(goBin) {
			standinMissing(t, "%s is not built and the go command is not on PATH; run make tools", bin)
		}
	}
	goDir := filepath.Join(root, ".tools", "go")
	if err := os.MkdirAll(goDir, 0o755); err != nil {
		t.Fatalf("create %s: %v", goDir, err)
	}
	unlock, err := lockFile(filepath.Join(goDir, ".lock"))
	if err != nil {
		t.Fatalf("lock %s: %v", goDir, err)
	}
	defer unlock()
	if isExecutable(bin) { // another process built it meanwhile
		return bin
	}
	// Built into a temporary GOBIN and renamed into place, so that a process checking
	// without the lock never runs a half-written binary.
	tmp, err := os.MkdirTemp(goDir, ".install-")
	if err != nil {
		t.Fatalf("create build dir: %v", err)
	}
	defer os.RemoveAll(tmp)
	cmd := exec.Command(goBin, "install", module+"@"+version)
	cmd.Dir = tmp
	// GOFLAGS cleared: flags meant for this repository (-mod=vendor) break `go install
	// module@version`, which ignores the current module anyway.
	cmd.Env = append(os.Environ(), "GOBIN="+tmp, "GOFLAGS=", "GOWORK=off", "CGO_ENABLED=0")
	out, err := cmd.CombinedOutput()
	built := filepath.Join(tmp, filepath.Base(bin))
	if err != nil || !isExecutable(built) {
		standinMissing(t, "go install %s@%s failed (%v); run make tools with access to the Go module proxy:\n%s", module, version, err, out)
	}
	if err := os.MkdirAll(filepath.Dir(bin), 0o755); err != nil {
		t.Fatalf("create %s: %v", filepath.Dir(bin), err)
	}
	if err := os.Rename(built, bin); err != nil {
		t.Fatalf("install %s: %v", bin, err)
	}
	return bin
}

func isExecutable(p string) bool {
	st, err := os.Stat(p)
	return err == nil && st.Mode().IsRegular() && st.Mode().Perm()&0o111 != 0
}
