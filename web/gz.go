package web

import (
	"bytes"
	"compress/gzip"
	"errors"
	"io"
	"io/fs"
	"path"
	"strings"
	"time"
)

// gzipped is an embedded tree in which a file stored compressed, as
// NAME.gz, reads as NAME, its bytes inflated: xterm.js, 488 KB as
// published and already minified, is a quarter of that gzipped, and the
// binary carries the smaller. Nothing else sees the .gz: Open and ReadDir
// name the file as served, with its inflated size.
type gzipped struct{ fs.FS }

// gzSuffix marks a file stored compressed.
const gzSuffix = ".gz"

// Open opens name, inflating NAME.gz for NAME.
func (g gzipped) Open(name string) (fs.File, error) {
	if strings.HasSuffix(name, gzSuffix) {
		return nil, &fs.PathError{Op: "open", Path: name, Err: fs.ErrNotExist}
	}
	f, err := g.FS.Open(name)
	if errors.Is(err, fs.ErrNotExist) {
		data, gzErr := g.inflate(name)
		if gzErr != nil {
			return nil, err // no NAME.gz either: the first error says so
		}
		return &inflated{Reader: bytes.NewReader(data), info: inflatedInfo{name: path.Base(name), size: int64(len(data))}}, nil
	}
	if err != nil {
		return nil, err
	}
	if d, ok := f.(fs.ReadDirFile); ok {
		return gzDir{ReadDirFile: d, g: g, dir: name}, nil
	}
	return f, nil
}

// ReadDir lists dir as Open serves it.
func (g gzipped) ReadDir(dir string) ([]fs.DirEntry, error) {
	es, err := fs.ReadDir(g.FS, dir)
	if err != nil {
		return nil, err
	}
	return g.entries(dir, es), nil
}

// inflate is NAME.gz's bytes inflated.
func (g gzipped) inflate(name string) ([]byte, error) {
	f, err := g.FS.Open(name + gzSuffix)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	r, err := gzip.NewReader(f)
	if err != nil {
		return nil, err
	}
	return io.ReadAll(r)
}

// entries renames each NAME.gz in dir's entries NAME.
func (g gzipped) entries(dir string, es []fs.DirEntry) []fs.DirEntry {
	for i, e := range es {
		if name, ok := strings.CutSuffix(e.Name(), gzSuffix); ok && !e.IsDir() {
			es[i] = fs.FileInfoToDirEntry(lazyInfo{g: g, name: path.Join(dir, name)})
		}
	}
	return es
}

// gzDir is a directory of a gzipped tree, read as Open serves it.
type gzDir struct {
	fs.ReadDirFile
	g   gzipped
	dir string
}

func (d gzDir) ReadDir(n int) ([]fs.DirEntry, error) {
	es, err := d.ReadDirFile.ReadDir(n)
	return d.g.entries(d.dir, es), err
}

// inflated is an open file stored compressed: its inflated bytes.
type inflated struct {
	*bytes.Reader
	info inflatedInfo
}

func (f *inflated) Stat() (fs.FileInfo, error) { return f.info, nil }
func (f *inflated) Close() error               { return nil }

// inflatedInfo is an inflated file's: a plain file, read-only, of its
// inflated size, with no time (as every embedded file has none).
type inflatedInfo struct {
	name string
	size int64
}

func (i inflatedInfo) Name() string       { return i.name }
func (i inflatedInfo) Size() int64        { return i.size }
func (i inflatedInfo) Mode() fs.FileMode  { return 0o444 }
func (i inflatedInfo) ModTime() time.Time { return time.Time{} }
func (i inflatedInfo) IsDir() bool        { return false }
func (i inflatedInfo) Sys() any           { return nil }

// lazyInfo is a directory entry's info for a file stored compressed: its
// size is known once it is inflated, which a listing seldom asks.
type lazyInfo struct {
	g    gzipped
	name string
}

func (i lazyInfo) Name() string { return path.Base(i.name) }
func (i lazyInfo) Size() int64 {
	data, err := i.g.inflate(i.name)
	if err != nil {
		return 0
	}
	return int64(len(data))
}
func (i lazyInfo) Mode() fs.FileMode  { return 0o444 }
func (i lazyInfo) ModTime() time.Time { return time.Time{} }
func (i lazyInfo) IsDir() bool        { return false }
func (i lazyInfo) Sys() any           { return nil }
