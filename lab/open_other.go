//go:build !unix && !windows

package lab

import "os"

// openNoFollow opens path: a system with neither O_NOFOLLOW nor reparse
// points (Plan 9, WebAssembly) has its link refused by ReadLabFile's
// Lstat, and a file swapped after it by the SameFile check.
func openNoFollow(path string) (*os.File, error) { return os.Open(path) }
