package lab

import (
	"os/exec"
	"syscall"
)

// dieWithParent has the kernel kill the child when the process that
// started it ends, however it ends.
func dieWithParent(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Pdeathsig: syscall.SIGKILL}
}

// limitCPU sets this process's RLIMIT_CPU to sec seconds, soft and hard
// alike: the kernel kills it (SIGKILL) there.
func limitCPU(sec int) error {
	return syscall.Setrlimit(syscall.RLIMIT_CPU, &syscall.Rlimit{Cur: uint64(sec), Max: uint64(sec)})
}

// lowerPriority sets the process's nice value.
func lowerPriority(pid, nice int) error {
	return syscall.Setpriority(syscall.PRIO_PROCESS, pid, nice)
}
