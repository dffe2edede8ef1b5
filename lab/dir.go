package lab

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"

	"locksim/shown"
)

// CheckPath refuses a path given to flag (-lab DIR, -grade's -out DIR)
// that holds a control character or a byte that is not UTF-8 (what
// shown.Line would show), whether it exists or not: locksim makes no
// file or directory named with bytes a terminal obeys. The caller
// escapes the path in the one line it prints.
func CheckPath(flag, path string) error {
	if shown.Line(path) != path {
		return fmt.Errorf("%s %s: the path holds control characters (escaped here); give one without", flag, path)
	}
	return nil
}

// labFiles are the names that make a directory a lab: a lock's acquire
// (in Lua or as commands) or a policy handed out alone.
var labFiles = []string{"acquire.lua", "acquire.redis", "lab.json"}

// CheckDir reports whether dir may be used as a lab that the screen saves
// into: a missing directory whose parent exists, or an empty one (the
// starter goes there), or one that
// holds a lab already (acquire.lua, acquire.redis or lab.json). Anything
// else, such as a project folder or /etc, is refused with an error naming
// what it holds, before anything is written there. A path that is a file,
// or a directory that cannot be read, is an error too, and so is a path
// with a control character or a byte that is not UTF-8 in it.
func CheckDir(dir string) error {
	if err := CheckPath("-lab", dir); err != nil {
		// the screen would make, or write into, a directory whose name a
		// terminal obeys (ESC, a right-to-left override, a newline) or
		// that is not UTF-8
		return err
	}
	entries, err := os.ReadDir(dir)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		// the starter goes into a new directory, but only its last
		// element: a mistyped path is not made into a tree of directories
		parent := filepath.Dir(filepath.Clean(dir))
		if fi, perr := os.Stat(parent); perr != nil || !fi.IsDir() {
			return fmt.Errorf("-lab %s: directory %s does not exist (locksim makes none)", dir, parent)
		}
		return nil
	case err != nil:
		return fmt.Errorf("-lab %s: %w", dir, unwrapPath(err))
	case len(entries) == 0:
		return nil
	}
	for _, name := range labFiles {
		if _, err := os.Stat(filepath.Join(dir, name)); err == nil {
			return nil
		}
	}
	return fmt.Errorf("-lab %s is not a lab: it holds %d other files and no acquire.lua, acquire.redis or lab.json; give a new or empty directory", dir, len(entries))
}

// unwrapPath is err without the path a *fs.PathError repeats.
func unwrapPath(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}
