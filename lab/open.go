package lab

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
)

// MaxPartSize is the most a lab file (a part, lab.json) may hold: a lock's
// part is a few hundred bytes, and a grader reading thirty students'
// directories must not read a 100 MB file, or /dev/zero, to find that out.
const MaxPartSize = 64 << 10

// RefusedFile is ReadLabFile's error for a file the lab will not read: a
// symlink, a FIFO, a device or a directory where a file should be, or a
// file over MaxPartSize. Its text is one line naming the file; nothing of
// the file's content is in it.
type RefusedFile struct {
	File string // the file's name in the lab directory: "release.redis"
	Why  string // "is a symlink", "holds 104857600 bytes, over the lab's 65536"
}

func (e *RefusedFile) Error() string { return e.File + " " + e.Why }

// LabFile is a lab file as ReadLabFile read it: Text with a leading UTF-8
// byte order mark dropped (BOM then set) and CRLF line ends read as LF.
type LabFile struct {
	Text string
	BOM  bool
}

// ReadLabFile reads the lab file name in dir, and is the only way the lab
// reads a learner's directory. It looks at the name first (Lstat: a
// symlink is refused, never followed), then opens it without following a
// link and without waiting on a FIFO (O_NOFOLLOW|O_NONBLOCK where the
// system has them; on Windows a reparse point is refused), checks that
// what it opened is the regular file it looked at (so a file swapped for a
// link between the two is refused too), and reads at most MaxPartSize
// bytes. A missing file is an error wrapping fs.ErrNotExist; a file the
// lab refuses is a *RefusedFile; any other error is the system's, naming
// the file.
func ReadLabFile(dir, name string) (LabFile, error) {
	path := filepath.Join(dir, name)
	st, err := os.Lstat(path)
	if err != nil {
		return LabFile{}, err
	}
	if err := refuseKind(name, st); err != nil {
		return LabFile{}, err
	}
	if st.Size() > MaxPartSize {
		return LabFile{}, tooBig(name, st.Size())
	}
	f, err := openNoFollow(path)
	if err != nil {
		if errors.Is(err, errLink) {
			return LabFile{}, &RefusedFile{File: name, Why: "is a symlink or a reparse point: the lab reads only a plain file"}
		}
		return LabFile{}, err
	}
	defer f.Close()
	ost, err := f.Stat()
	if err != nil {
		return LabFile{}, err
	}
	if err := refuseKind(name, ost); err != nil {
		return LabFile{}, err
	}
	if !os.SameFile(st, ost) {
		return LabFile{}, &RefusedFile{File: name, Why: "changed while the lab was opening it"}
	}
	data, err := io.ReadAll(io.LimitReader(f, MaxPartSize+1))
	if err != nil {
		return LabFile{}, fmt.Errorf("%s: %w", name, unwrapPath(err))
	}
	if len(data) > MaxPartSize {
		return LabFile{}, tooBig(name, max(ost.Size(), int64(len(data))))
	}
	var out LabFile
	if b, ok := bytes.CutPrefix(data, []byte("\ufeff")); ok {
		data, out.BOM = b, true
	}
	out.Text = string(bytes.ReplaceAll(data, []byte("\r\n"), []byte("\n")))
	return out, nil
}

// refuseKind refuses anything but a regular file.
func refuseKind(name string, st fs.FileInfo) error {
	m := st.Mode()
	var why string
	switch {
	case m&fs.ModeSymlink != 0:
		why = "is a symlink: the lab reads only a plain file, never what a link points at"
	case m&fs.ModeNamedPipe != 0:
		why = "is a FIFO (named pipe): the lab reads only a plain file"
	case m&fs.ModeDevice != 0, m&fs.ModeCharDevice != 0:
		why = "is a device: the lab reads only a plain file"
	case m.IsDir():
		why = "is a directory: the lab reads only a plain file"
	case !m.IsRegular():
		why = "is not a plain file (a socket or another special file): the lab reads only a plain file"
	default:
		return nil
	}
	return &RefusedFile{File: name, Why: why}
}

func tooBig(name string, size int64) error {
	return &RefusedFile{File: name, Why: fmt.Sprintf("holds %d bytes, over the lab's limit of %d (64 KB) for one file", size, MaxPartSize)}
}

// errLink is openNoFollow's error for a link it will not follow.
var errLink = errors.New("a link")
