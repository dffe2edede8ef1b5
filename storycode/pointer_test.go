package storycode

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestPointer: a code's pointer is short and names the file that holds
// it; Resolve reads it back from that file, or from the file's path, and
// refuses a missing file or one holding another code. Anything else is
// a code as given.
func TestPointer(t *testing.T) {
	code := "lab." + strings.Repeat("0123456789abcdef", 40)
	p := Pointer(code)
	if !IsPointer(p) || len(p) != 14 || Pointer(code+"x") == p {
		t.Fatalf("pointer %q: it should be lab- and ten hex digits, and differ for another code", p)
	}
	dir := t.TempDir()
	path := filepath.Join(dir, PointerFile(p))
	if err := os.WriteFile(path, []byte(code+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, arg := range []string{p, path} {
		got, err := Resolve(arg, dir)
		if err != nil || got != code {
			t.Errorf("Resolve(%q) = %.40q, %v; want the code", arg, got, err)
		}
	}
	if got, err := Resolve("release.1abc", dir); err != nil || got != "release.1abc" {
		t.Errorf("a code itself should come back as it is: %q, %v", got, err)
	}
	if _, err := Resolve("lab-0000000000", dir); err == nil || !strings.Contains(err.Error(), "does not exist") {
		t.Errorf("a pointer with no file should say so: %v", err)
	}
	other := Pointer("lab.other")
	if err := os.WriteFile(filepath.Join(dir, PointerFile(other)), []byte(code), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := Resolve(other, dir); err == nil || !strings.Contains(err.Error(), "another story") {
		t.Errorf("a file holding another code should be refused: %v", err)
	}
}

// TestShelf: a shelf gives back the code put under a pointer, forgets the
// oldest past its size, and keeps a code put twice once.
func TestShelf(t *testing.T) {
	s := NewShelf(2)
	a, b, c := s.Put("lab.a"), s.Put("lab.b"), ""
	if got, ok := s.Get(a); !ok || got != "lab.a" || a != Pointer("lab.a") {
		t.Fatalf("Get(%s) = %q, %v", a, got, ok)
	}
	s.Put("lab.a") // already there: nothing is forgotten
	c = s.Put("lab.c")
	if _, ok := s.Get(a); ok {
		t.Error("past its size the shelf should forget the oldest")
	}
	for p, want := range map[string]string{b: "lab.b", c: "lab.c"} {
		if got, ok := s.Get(p); !ok || got != want {
			t.Errorf("Get(%s) = %q, %v; want %q", p, got, ok, want)
		}
	}
}
