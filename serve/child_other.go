//go:build !unix

package serve

import (
	"errors"
	"os"
	"os/exec"
)

func ownGroup(*exec.Cmd) {}

// signalGroup kills the process: without process groups there is no
// SIGTERM to send first.
func signalGroup(pid int, _ bool) {
	if p, err := os.FindProcess(pid); err == nil {
		_ = p.Kill()
	}
}

func lowerPriority(int, int) error {
	return errors.New("no CPU priority on this system")
}
