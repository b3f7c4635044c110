package testkit

import (
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"syscall"
	"testing"
	"time"
)

// startStandin runs the server that command(port) builds on a free loopback port until
// the test ends and returns its address. The process gets its own process group so
// that cleanup kills node and anything it spawned; its output goes to a log file shown
// when it fails to start. A free port can be taken by someone else before the server
// binds it, so it tries a few.
func startStandin(t testing.TB, name string, command func(port int) *exec.Cmd) (addr string) {
	t.Helper()
	logPath := filepath.Join(t.TempDir(), name+".log")
	var lastErr error
	for attempt := 0; attempt < 3; attempt++ {
		port, err := freeLoopbackPort()
		if err != nil {
			t.Fatalf("%s: pick a port: %v", name, err)
		}
		addr = net.JoinHostPort("127.0.0.1", strconv.Itoa(port))
		if lastErr = runStandin(t, command(port), addr, logPath); lastErr == nil {
			return addr
		}
	}
	log, _ := os.ReadFile(logPath)
	t.Fatalf("%s did not start: %v\n%s", name, lastErr, log)
	return ""
}

func runStandin(t testing.TB, cmd *exec.Cmd, addr, logPath string) error {
	log, err := os.OpenFile(logPath, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o644)
	if err != nil {
		return err
	}
	defer log.Close()
	cmd.Stdout, cmd.Stderr = log, log
	cmd.SysProcAttr = childProcAttr()
	if err := cmd.Start(); err != nil {
		return err
	}
	exited := make(chan struct{})
	go func() { cmd.Wait(); close(exited) }()
	stop := func() {
		syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
		<-exited
	}
	if err := waitListening(addr, exited, 20*time.Second); err != nil {
		stop()
		return err
	}
	t.Cleanup(stop)
	return nil
}

// repoFile is the absolute path of a file given relative to the repository root.
func repoFile(t testing.TB, rel string) string {
	t.Helper()
	root, err := toolsRepoRoot()
	if err != nil {
		t.Fatalf("find repo root: %v", err)
	}
	return filepath.Join(root, filepath.FromSlash(rel))
}
