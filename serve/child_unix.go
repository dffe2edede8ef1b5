//go:build unix

package serve

import (
	"os/exec"
	"syscall"
)

// ownGroup puts the command's process in a process group of its own, so a
// stop reaches whatever it started too.
func ownGroup(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
}

// signalGroup sends SIGTERM (SIGKILL when kill) to the group pid leads.
func signalGroup(pid int, kill bool) {
	sig := syscall.SIGTERM
	if kill {
		sig = syscall.SIGKILL
	}
	_ = syscall.Kill(-pid, sig)
}

// lowerPriority sets the process's nice value.
func lowerPriority(pid, nice int) error {
	return syscall.Setpriority(syscall.PRIO_PROCESS, pid, nice)
}
