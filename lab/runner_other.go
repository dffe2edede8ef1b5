//go:build !linux

package lab

import (
	"errors"
	"os/exec"
)

// Elsewhere than Linux the child has no OS limits of its own: the
// parent's watch (wall time, and memory where /proc exists) still kills
// it.

func dieWithParent(*exec.Cmd) {}

func limitCPU(int) error { return nil }

func lowerPriority(int, int) error { return errors.New("no CPU priority on this system") }
