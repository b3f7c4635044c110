//go:build !linux

package testkit

import "syscall"

// childProcAttr puts a stand-in or function process in its own process group, so that
// cleanup kills everything it spawned.
func childProcAttr() *syscall.SysProcAttr {
	return &syscall.SysProcAttr{Setpgid: true}
}
