package main

import (
	"bufio"
	"encoding/json"
	"fmt"

	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"
)

// These tests run the real firmo binary, as a user would.

var (
	buildOnce sync.Once
	binPath   string
	buildErr  error
)

// buildFirmo builds the firmo binary once for all tests of the package.
func buildFirmo(t *testing.T) string {
	t.Helper()
	if testing.Short() {
		t.Skip("builds and runs the binary")
	}
	buildOnce.Do(func() {
		dir, err := os.MkdirTemp("", "firmo-bin-")
		if err != nil {
			buildErr = err
			return
		}
		binPath = filepath.Join(dir, "firmo")
		if out, err := exec.Command("go", "build", "-o", binPath, ".").CombinedOutput(); err != nil {
			buildErr = fmt.Errorf("go build: %v\n%s", err, out)
		}
	})
	if buildErr != nil {
		t.Fatal(buildErr)
	}
	return binPath
}

func TestMain(m *testing.M) {
	code := m.Run()
	if binPath != "" {
		os.RemoveAll(filepath.Dir(binPath))
	}
	os.Exit(code)
}

func freeAddr(t *testing.T) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	return ln.Addr().String()
}

type server struct {
	cmd    *exec.Cmd
	addr   string
	stdout string
}

func start(t *testing.T, bin, dataDir, addr string, extraEnv ...string) *server {
	t.Helper()
	cmd := exec.Command(bin, "serve")
	cmd.Env = append(os.Environ(), append([]string{"FIRMO_DATA_DIR=" + dataDir, "FIRMO_ADDR=" + addr, "FIRMO_LOG_LEVEL=warn", "FIRMO_SEED_COMPANIES=40"}, extraEnv...)...)
	stdout, _ := cmd.StdoutPipe()
	cmd.Stderr = io.Discard
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	s := &server{cmd: cmd, addr: addr}
	t.Cleanup(func() { cmd.Process.Kill(); cmd.Wait() })
	lines := make(chan string, 100)
	go func() {
		sc := bufio.NewScanner(stdout)
		for sc.Scan() {
			lines <- sc.Text()
		}
		close(lines)
	}()
	deadline := time.After(90 * time.Second)
	var out strings.Builder
	for {
		select {
		case l, ok := <-lines:
			if !ok {
				t.Fatalf("firmo serve exited early:\n%s", out.String())
			}
			out.WriteString(l + "\n")
			if strings.HasPrefix(l, "API reference:") {
				s.stdout = out.String()
				go func() {
					for range lines {
					}
				}()
				return s
			}
		case <-deadline:
			t.Fatalf("firmo serve did not start:\n%s", out.String())
		}
	}
}

func (s *server) get(t *testing.T, method, path, key string) (int, map[string]any) {
	t.Helper()
	req, _ := http.NewRequest(method, "http://"+s.addr+path, nil)
	if key != "" {
		req.Header.Set("x-service-key", key)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var body map[string]any
	json.NewDecoder(resp.Body).Decode(&body)
	return resp.StatusCode, body
}

func TestKill9KeepsAccountsAndDemoKey(t *testing.T) {
	bin := buildFirmo(t)
	dir := t.TempDir()
	addr := freeAddr(t)
	s := start(t, bin, dir, addr)
	raw, err := os.ReadFile(filepath.Join(dir, "demo-api-key"))
	if err != nil {
		t.Fatal(err)
	}
	demoKey := strings.TrimSpace(string(raw))
	if !strings.Contains(s.stdout, demoKey) {
		t.Fatalf("banner does not print the demo key:\n%s", s.stdout)
	}
	if code, _ := s.get(t, "GET", "/v1/account", demoKey); code != 200 {
		t.Fatalf("demo key: %d", code)
	}
	code, created := s.get(t, "POST", "/v1/account/keys", demoKey)
	if code != 201 {
		t.Fatalf("create key: %d %v", code, created)
	}
	newKey := created["key"].(string)

	s.cmd.Process.Signal(syscall.SIGKILL)
	s.cmd.Wait()

	s2 := start(t, bin, dir, addr)
	for _, k := range []string{demoKey, newKey} {
		if code, body := s2.get(t, "GET", "/v1/account", k); code != 200 {
			t.Fatalf("after kill -9, key %s...: %d %v", k[:13], code, body)
		}
	}
	// The key is printed on the start that issued it only; the file keeps it.
	if strings.Contains(s2.stdout, demoKey) {
		t.Fatalf("restart printed the demo key again:\n%s", s2.stdout)
	}
	if raw, err := os.ReadFile(filepath.Join(dir, "demo-api-key")); err != nil || strings.TrimSpace(string(raw)) != demoKey {
		t.Fatalf("restart changed the demo key file: %q %v", raw, err)
	}
}

func TestGracefulShutdown(t *testing.T) {
	bin := buildFirmo(t)
	s := start(t, bin, t.TempDir(), freeAddr(t), "FIRMO_DEMO_API_KEY=graceful-demo-key-000001")
	if code, _ := s.get(t, "GET", "/healthz", ""); code != 200 {
		t.Fatalf("healthz %d", code)
	}
	s.cmd.Process.Signal(syscall.SIGTERM)
	done := make(chan error, 1)
	go func() { done <- s.cmd.Wait() }()
	select {
	case err := <-done:
		if err != nil {
			t.Fatalf("exit after SIGTERM: %v", err)
		}
	case <-time.After(20 * time.Second):
		t.Fatal("no exit after SIGTERM")
	}
}

func TestKeysCommand(t *testing.T) {
	bin := buildFirmo(t)
	dir := t.TempDir()
	env := append(os.Environ(), "FIRMO_DATA_DIR="+dir)
	run := func(args ...string) (string, string, error) {
		cmd := exec.Command(bin, args...)
		cmd.Env = env
		var out, errb strings.Builder
		cmd.Stdout, cmd.Stderr = &out, &errb
		err := cmd.Run()
		return strings.TrimSpace(out.String()), errb.String(), err
	}
	member, _, err := run("keys", "create", "--org", "Umbrella", "--plan", "STARTER", "--role", "member")
	if err != nil || !strings.HasPrefix(member, "fk_") {
		t.Fatalf("keys create = %q, %v", member, err)
	}
	if _, stderr, err := run("keys", "create", "--plan", "PRO"); err == nil || !strings.Contains(stderr, "--org") {
		t.Fatalf("missing --org: %v %s", err, stderr)
	}
	if _, stderr, err := run("keys", "create", "--org", "X", "--plan", "GOLD"); err == nil || !strings.Contains(stderr, "plan") {
		t.Fatalf("bad plan: %v %s", err, stderr)
	}
	s := start(t, bin, dir, freeAddr(t))
	code, acct := s.get(t, "GET", "/v1/account", member)
	if code != 200 || acct["plan"] != "STARTER" || acct["role"] != "member" {
		t.Fatalf("member account: %d %v", code, acct)
	}
	if code, body := s.get(t, "POST", "/v1/account/keys", member); code != 403 || body["error"] == nil {
		t.Fatalf("member creating a key: %d %v", code, body)
	}
	s.cmd.Process.Kill()
	s.cmd.Wait()
	prefix := member[:13]
	if out, stderr, err := run("keys", "revoke", prefix); err != nil || !strings.Contains(out, prefix) {
		t.Fatalf("revoke: %q %s %v", out, stderr, err)
	}
	s = start(t, bin, dir, freeAddr(t))
	if code, _ := s.get(t, "GET", "/v1/account", member); code != 401 {
		t.Fatalf("revoked key: %d", code)
	}
	if out, _, _ := run("version"); !strings.HasPrefix(out, "firmo ") {
		t.Fatalf("version = %q", out)
	}

}

// On an empty data dir firmo serve listens before the demo world is loaded: /healthz
// answers at once, /readyz and the routes that need the world answer 503 with
// Retry-After until it is, then contact search answers (README "The demo world").
func TestFirstStartServesWhileSeeding(t *testing.T) {
	bin := buildFirmo(t)
	dir := t.TempDir()
	// 300 companies take seconds to seed, so the first requests below come before
	// the world is loaded.
	s := start(t, bin, dir, freeAddr(t), "FIRMO_SEED_COMPANIES=300")
	key := strings.TrimSpace(readFile(t, filepath.Join(dir, "demo-api-key")))
	if code, _ := s.get(t, "GET", "/healthz", ""); code != 200 {
		t.Fatalf("healthz while seeding: %d", code)
	}
	if code, _ := s.get(t, "GET", "/v1/account", key); code != 200 {
		t.Fatalf("account while seeding: %d", code)
	}
	for _, path := range []string{"/readyz", "/v1/contacts/count"} {
		resp := s.do(t, "GET", path, key)
		if resp.StatusCode != 503 || resp.Header.Get("Retry-After") == "" {
			t.Fatalf("%s while seeding: %d, Retry-After %q", path, resp.StatusCode, resp.Header.Get("Retry-After"))
		}
	}
	deadline := time.Now().Add(3 * time.Minute)
	for {
		code, _ := s.get(t, "GET", "/readyz", "")
		if code == 200 {
			break
		}
		if code != 503 || time.Now().After(deadline) {
			t.Fatalf("readyz: %d", code)
		}
		time.Sleep(200 * time.Millisecond)
	}
	if code, body := s.get(t, "GET", "/v1/contacts/count", key); code != 200 || body["count"] == nil {
		t.Fatalf("contact count once ready: %d %v", code, body)
	}
}

// An operator can create and revoke keys with firmo keys while firmo serve runs on
// the same data dir: the command goes through the server's admin socket.
func TestKeysCommandWhileServing(t *testing.T) {
	bin := buildFirmo(t)
	dir := t.TempDir()
	s := start(t, bin, dir, freeAddr(t), "FIRMO_SEED_COMPANIES=0")
	st, err := os.Stat(filepath.Join(dir, "firmo.sock"))
	if err != nil || st.Mode().Perm() != 0o600 {
		t.Fatalf("admin socket: %v %v", st, err)
	}
	run := func(args ...string) (string, string, error) {
		cmd := exec.Command(bin, args...)
		cmd.Env = append(os.Environ(), "FIRMO_DATA_DIR="+dir)
		var out, errb strings.Builder
		cmd.Stdout, cmd.Stderr = &out, &errb
		err := cmd.Run()
		return strings.TrimSpace(out.String()), errb.String(), err
	}
	key, stderr, err := run("keys", "create", "--org", "Initech", "--plan", "PRO")
	if err != nil || !strings.HasPrefix(key, "fk_") {
		t.Fatalf("keys create while serving = %q, %v\n%s", key, err, stderr)
	}
	if code, acct := s.get(t, "GET", "/v1/account", key); code != 200 || acct["plan"] != "PRO" || acct["organization"] != "Initech" {
		t.Fatalf("new key: %d %v", code, acct)
	}
	if _, stderr, err := run("keys", "revoke", "fk_nonexisting"); err == nil || !strings.Contains(stderr, "firmo:") {
		t.Fatalf("revoking an unknown key: %v %s", err, stderr)
	}
	if out, stderr, err := run("keys", "revoke", key[:13]); err != nil || !strings.Contains(out, key[:13]) {
		t.Fatalf("keys revoke while serving = %q, %v\n%s", out, err, stderr)
	}
	if code, _ := s.get(t, "GET", "/v1/account", key); code != 401 {
		t.Fatalf("revoked key: %d", code)
	}
}

func readFile(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func (s *server) do(t *testing.T, method, path, key string) *http.Response {
	t.Helper()
	req, _ := http.NewRequest(method, "http://"+s.addr+path, nil)
	if key != "" {
		req.Header.Set("x-service-key", key)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	return resp
}
