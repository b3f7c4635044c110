package testkit

import "syscall"

// childProcAttr puts a stand-in or function process in its own process group, so that
// cleanup kills everything it spawned, and has Linux kill it if the test binary dies
// first (a test timeout panics past every Cleanup), so nothing outlives the run.
func childProcAttr() *syscall.SysProcAttr {
	return &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGKILL}
}
