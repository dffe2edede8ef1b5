//go:build unix

package lab

import (
	"errors"
	"os"
	"syscall"
)

// openNoFollow opens path for reading without following a symlink in its
// last element (O_NOFOLLOW: ELOOP) and without waiting for a FIFO's writer
// (O_NONBLOCK), so a file swapped after ReadLabFile's Lstat is refused
// rather than followed or waited on.
func openNoFollow(path string) (*os.File, error) {
	f, err := os.OpenFile(path, os.O_RDONLY|syscall.O_NOFOLLOW|syscall.O_NONBLOCK, 0)
	if errors.Is(err, syscall.ELOOP) || errors.Is(err, syscall.EMLINK) {
		// EMLINK is FreeBSD's answer to O_NOFOLLOW on a link
		return nil, errLink
	}
	return f, err
}
