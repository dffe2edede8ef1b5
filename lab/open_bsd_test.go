//go:build unix && !linux

package lab

import "errors"

// mkCharDevice is Linux's only: the test skips the device node elsewhere.
func mkCharDevice(string) error { return errors.ErrUnsupported }
