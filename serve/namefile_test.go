package serve

import (
	"os"
	"path/filepath"
	"testing"
)

// TestNameFileCleaned: a name.json kept by an older locksim (or written
// by hand) with a right-to-left override, an isolate and an ESC in its
// name gives the name as the prompt keeps it (CleanName): the class's
// roster and the watch lines never get it raw.
func TestNameFileCleaned(t *testing.T) {
	dir := t.TempDir()
	id := Identity{ID: "k1", KeyHash: "k1"}
	if err := os.MkdirAll(filepath.Join(dir, "k1"), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "k1", "name.json"), []byte(`{"name":" Mal\u202elory\u2066 \u001b[2J "}`), 0o600); err != nil {
		t.Fatal(err)
	}
	st := &students{dir: dir, byKey: map[string]*student{}}
	if name, asked := st.get(id).Name(); name != "Mallory [2J" || !asked {
		t.Errorf("the kept name reads %q (asked %t), want %q", name, asked, "Mallory [2J")
	}
}
