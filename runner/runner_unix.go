//go:build unix

package runner

import (
	"os"
	"os/exec"
	"syscall"
)

// On every Unix the child sets its own RLIMIT_CPU and runs at a nice
// value, in a process group of its own so that a stop reaches whatever it
// started too.
const (
	cpuLimit = true
	priority = true
)

func prepare(cmd *exec.Cmd) {
	if cmd.SysProcAttr == nil {
		cmd.SysProcAttr = &syscall.SysProcAttr{}
	}
	cmd.SysProcAttr.Setpgid = true
	dieWithParent(cmd.SysProcAttr)
}

// signalGroup sends SIGTERM (SIGKILL when kill) to the group p leads.
func signalGroup(p *os.Process, kill bool) {
	sig := syscall.SIGTERM
	if kill {
		sig = syscall.SIGKILL
	}
	_ = syscall.Kill(-p.Pid, sig)
}

func lowerPriority(pid, nice int) error {
	return syscall.Setpriority(syscall.PRIO_PROCESS, pid, nice)
}

// limitCPU sets this process's RLIMIT_CPU to sec seconds, soft and hard
// alike: the kernel sends SIGXCPU, then SIGKILL, there.
func limitCPU(sec int) error {
	var r syscall.Rlimit
	setRlim(&r.Cur, sec)
	setRlim(&r.Max, sec)
	return syscall.Setrlimit(syscall.RLIMIT_CPU, &r)
}

// setRlim sets an Rlimit field, uint64 on Linux and macOS, int64 on
// FreeBSD.
func setRlim[T int64 | uint64](p *T, v int) { *p = T(v) }

// diedOfCPULimit: the process ended by the signal RLIMIT_CPU sends.
func diedOfCPULimit(ps *os.ProcessState) bool {
	ws, ok := ps.Sys().(syscall.WaitStatus)
	return ok && ws.Signaled() && (ws.Signal() == syscall.SIGKILL || ws.Signal() == syscall.SIGXCPU)
}
