package serve

import (
	"locksim/serve/termtest"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestKeyFile: a key in the file is found, one not in it is not; a file
// that is missing or has a line that is not a key grants nothing and
// says where.
func TestKeyFile(t *testing.T) {
	in, out := termtest.NewKey(t), termtest.NewKey(t)
	path := filepath.Join(t.TempDir(), "instructors")
	writeKeys(t, path, in)
	f := &keyFile{path: path}
	if ok, err := f.Has(in.PublicKey()); !ok || err != nil {
		t.Fatalf("a listed key: %v, %v", ok, err)
	}
	if ok, err := f.Has(out.PublicKey()); ok || err != nil {
		t.Fatalf("a key not listed: %v, %v", ok, err)
	}
	if err := os.WriteFile(path, []byte("# a comment\n\nnot a key\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if ok, err := f.Has(in.PublicKey()); ok || err == nil || !strings.Contains(err.Error(), "line 3") {
		t.Fatalf("a bad line: %v, %v", ok, err)
	}
	os.Remove(path)
	if ok, err := f.Has(in.PublicKey()); ok || err == nil {
		t.Fatalf("a missing file: %v, %v", ok, err)
	}
}
