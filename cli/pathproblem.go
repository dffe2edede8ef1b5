package cli

import (
	"errors"
	"io/fs"
	"os"
)

// fileProblem is what keeps path from being read as a file ("no such
// file", "it is a directory", …), or "" when nothing does.
func fileProblem(path string) string {
	fi, err := os.Stat(path)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return "no such file"
	case err != nil:
		return "cannot read it (" + errors.Unwrap(err).Error() + ")"
	case fi.IsDir():
		return "it is a directory, not a file"
	}
	return ""
}

// dirProblem is what keeps path from being the lab's directory ("no
// such directory", "it is a file, …"), or "" when nothing does.
func dirProblem(path string) string {
	fi, err := os.Stat(path)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return "no such directory"
	case err != nil:
		return "cannot read it (" + errors.Unwrap(err).Error() + ")"
	case !fi.IsDir():
		return "it is a file, not a directory: give the directory of acquire.lua or acquire.redis"
	}
	return ""
}
