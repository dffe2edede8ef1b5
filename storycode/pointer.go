package storycode

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
)

// A story code that carries a learner's lock runs to hundreds of
// characters. Its pointer is short: "lab-" and the first ten hex digits
// of the code's SHA-256, the name of a file (PointerFile) that holds the
// whole code, written where locksim writes its exports. Resolve reads a
// pointer, or a path to such a file, back to the code.

// pointerRE matches a pointer: lab-, then ten hex digits.
var pointerRE = regexp.MustCompile(`^lab-[0-9a-f]{10}$`)

// Pointer is code's short pointer: "lab-" and ten hex digits of its
// SHA-256.
func Pointer(code string) string {
	sum := sha256.Sum256([]byte(code))
	return "lab-" + hex.EncodeToString(sum[:5])
}

// PointerFile is the name of the file that holds the code a pointer
// names: the pointer and ".code".
func PointerFile(pointer string) string { return pointer + ".code" }

// IsPointer reports whether s reads as a pointer.
func IsPointer(s string) bool { return pointerRE.MatchString(s) }

// Resolve turns what -story was given into a story code: a pointer is
// read from its file in dir (where exports are written); a path to a
// file that exists is read whole; anything else is taken as a code
// itself. The code read from a file must hash to the pointer it was
// asked by. Errors are one line naming the pointer or the file.
func Resolve(arg, dir string) (string, error) {
	switch {
	case IsPointer(arg):
		path := filepath.Join(dir, PointerFile(arg))
		data, err := os.ReadFile(path)
		if errors.Is(err, fs.ErrNotExist) {
			return "", fmt.Errorf("-story %s: no such story here: %s does not exist (y in a story of the lab writes it; give -export-dir if it wrote elsewhere, or the file's path)", arg, path)
		}
		if err != nil {
			return "", fmt.Errorf("-story %s: %v", arg, err)
		}
		code := strings.TrimSpace(string(data))
		if Pointer(code) != arg {
			return "", fmt.Errorf("-story %s: %s holds another story's code", arg, path)
		}
		return code, nil
	case strings.ContainsAny(arg, `/\`) || strings.HasSuffix(arg, ".code"):
		data, err := os.ReadFile(arg)
		if err != nil {
			return "", fmt.Errorf("-story %s: %v", arg, err)
		}
		return strings.TrimSpace(string(data)), nil
	}
	return arg, nil
}

// Shelf keeps story codes by their pointers in memory, for a server whose
// learners cannot reach its files: a pointer a session was given resolves
// in any later command to the same server. It holds at most its size,
// forgetting the oldest first. Safe for concurrent use.
type Shelf struct {
	mu    sync.Mutex
	size  int
	codes map[string]string
	order []string // pointers, oldest first
}

// NewShelf is a shelf of at most size codes (at least one).
func NewShelf(size int) *Shelf {
	return &Shelf{size: max(size, 1), codes: map[string]string{}}
}

// Put keeps code and returns its pointer.
func (s *Shelf) Put(code string) string {
	p := Pointer(code)
	s.mu.Lock()
	defer s.mu.Unlock()
	if _, ok := s.codes[p]; ok {
		return p
	}
	if len(s.order) >= s.size {
		delete(s.codes, s.order[0])
		s.order = s.order[1:]
	}
	s.codes[p] = code
	s.order = append(s.order, p)
	return p
}

// Get is the code kept under pointer p, and false when the shelf has none
// (never put there, or forgotten).
func (s *Shelf) Get(p string) (string, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	code, ok := s.codes[p]
	return code, ok
}
