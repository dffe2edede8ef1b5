//go:build unix && !linux

package runner

import "syscall"

// macOS and FreeBSD (and the other BSDs) report a process's resident
// memory only once it has ended (getrusage), and locksim asks for no
// death signal there: RLIMIT_CPU and the wall limit bound an orphan.
const (
	memoryCap      = false
	diesWithParent = false
)

func dieWithParent(*syscall.SysProcAttr) {}

func residentMB(int) (int, bool) { return 0, false }
