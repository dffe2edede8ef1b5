package runner

import (
	"errors"
	"os"
	"os/exec"
)

// On Windows (and any other non-Unix) only the wall limit holds: no
// RLIMIT_CPU, nice value, resident memory read while it runs, process
// group or death signal; a stop kills the process alone.
const (
	cpuLimit       = false
	priority       = false
	memoryCap      = false
	diesWithParent = false
)

func prepare(*exec.Cmd) {}

func signalGroup(p *os.Process, _ bool) { _ = p.Kill() }

func lowerPriority(int, int) error { return errors.New("no CPU priority on this system") }

func limitCPU(int) error { return nil }

func diedOfCPULimit(*os.ProcessState) bool { return false }

func residentMB(int) (int, bool) { return 0, false }
