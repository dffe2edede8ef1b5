package runner

import (
	"bufio"
	"os"
	"strconv"
	"strings"
	"syscall"
)

// Linux reports a process's resident memory while it runs (/proc), and
// kills a child when its parent dies (Pdeathsig).
const (
	memoryCap      = true
	diesWithParent = true
)

// dieWithParent has the kernel kill the child when the process that
// started it ends, however it ends (strictly, when the OS thread that
// started it does: Go's runtime keeps its threads unless a goroutine
// locked to one ends, and neither locksim nor its libraries lock one).
func dieWithParent(a *syscall.SysProcAttr) { a.Pdeathsig = syscall.SIGKILL }

// residentMB reads a process's resident memory (VmRSS) from
// /proc/PID/status, in MB.
func residentMB(pid int) (int, bool) {
	f, err := os.Open("/proc/" + strconv.Itoa(pid) + "/status")
	if err != nil {
		return 0, false
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		rest, ok := strings.CutPrefix(sc.Text(), "VmRSS:")
		if !ok {
			continue
		}
		kb, err := strconv.Atoi(strings.TrimSuffix(strings.TrimSpace(rest), " kB"))
		if err != nil {
			return 0, false
		}
		return kb / 1024, true
	}
	return 0, false
}
