package lab

import (
	"os/exec"
	"syscall"
)

// dieWithParent has the kernel kill the child when the process that
// started it ends, however it ends (strictly, when the OS thread that
// started it does: Go's runtime keeps its threads unless a goroutine
// locked to one ends, and neither locksim nor its libraries lock one).
func dieWithParent(cmd *exec.Cmd) {
	if cmd.SysProcAttr == nil {
		cmd.SysProcAttr = &syscall.SysProcAttr{}
	}
	cmd.SysProcAttr.Pdeathsig = syscall.SIGKILL
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
