package testkit

import (
	"errors"
	"fmt"
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
// when it fails to start.
func startStandin(t testing.TB, name string, command func(port int) *exec.Cmd) (addr string) {
	t.Helper()
	logPath := filepath.Join(t.TempDir(), name+".log")
	return startOnFreePort(t, name, logPath, func(port int, addr string) error {
		return runProcess(t, command(port), logPath, func(exited <-chan struct{}) error {
			return waitListening(addr, exited, 20*time.Second)
		}, nil)
	})
}

// startOnFreePort calls start with a free loopback port and its address until it
// succeeds, three times at most, since a free port can be taken by someone else
// before the server binds it. It returns the address that worked; when none did it
// fails the test with the last error and the log at logPath.
func startOnFreePort(t testing.TB, name, logPath string, start func(port int, addr string) error) (addr string) {
	t.Helper()
	var lastErr error
	for attempt := 0; attempt < 3; attempt++ {
		port, err := freeLoopbackPort()
		if err != nil {
			t.Fatalf("%s: pick a port: %v", name, err)
		}
		addr = net.JoinHostPort("127.0.0.1", strconv.Itoa(port))
		if lastErr = start(port, addr); lastErr == nil {
			return addr
		}
	}
	log, _ := os.ReadFile(logPath)
	t.Fatalf("%s did not start: %v\n%s", name, lastErr, log)
	return ""
}

// runProcess starts cmd in a process group of its own (childProcAttr) with its output
// appended to logPath and waits until ready, given a channel closed when the process
// exits, returns nil. The group is killed when the test ends, or at once when ready
// fails. A non-nil graceful signal is sent first and given 5 s, for servers that stop
// their own children (Postfix's master).
func runProcess(t testing.TB, cmd *exec.Cmd, logPath string, ready func(exited <-chan struct{}) error, graceful os.Signal) error {
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
		if graceful != nil {
			cmd.Process.Signal(graceful)
			select {
			case <-exited:
			case <-time.After(5 * time.Second):
			}
		}
		syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
		<-exited
	}
	if err := ready(exited); err != nil {
		stop()
		return err
	}
	t.Cleanup(stop)
	return nil
}

// waitListening polls addr until it accepts a connection, the process exits, or the timeout.
func waitListening(addr string, exited <-chan struct{}, timeout time.Duration) error {
	return poll(exited, timeout, "not listening on "+addr, func() bool {
		c, err := net.DialTimeout("tcp", addr, 200*time.Millisecond)
		if err != nil {
			return false
		}
		c.Close()
		return true
	})
}

// poll calls ready every 50 ms until it reports true, the process exits (exited is
// closed), or timeout passes; notReady says what was missing then.
func poll(exited <-chan struct{}, timeout time.Duration, notReady string, ready func() bool) error {
	deadline := time.Now().Add(timeout)
	for time.Now().Before(deadline) {
		select {
		case <-exited:
			return errors.New("process exited before listening")
		default:
		}
		if ready() {
			return nil
		}
		time.Sleep(50 * time.Millisecond)
	}
	return fmt.Errorf("%s after %s", notReady, timeout)
}

func freeLoopbackPort() (int, error) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return 0, err
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port, nil
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
