//go:build unix

package store

import (
	"os/exec"
	"syscall"
)

// ownGroup puts redis-server in a process group of its own, so that
// killGroup also kills the child it forks to rewrite the AOF or save a
// snapshot.
func ownGroup(cmd *exec.Cmd) { cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true} }

func killGroup(cmd *exec.Cmd) {
	syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
	cmd.Process.Kill()
}
