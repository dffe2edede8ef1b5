package lab

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestSaveMakesNoTree: Save makes a missing directory's last element, as
// -lab allows, but refuses a missing parent with an error naming it, and
// leaves no directory behind.
func TestSaveMakesNoTree(t *testing.T) {
	root := t.TempDir()
	l := Starter()
	fresh := filepath.Join(root, "fresh")
	if err := l.Save(fresh); err != nil {
		t.Fatalf("a new directory in an existing one: %v", err)
	}
	if _, err := Load(fresh); err != nil {
		t.Errorf("the lock saved in a new directory does not load: %v", err)
	}
	deep := filepath.Join(root, "typo", "lab")
	err := l.Save(deep)
	if err == nil || !strings.Contains(err.Error(), filepath.Join(root, "typo")+" does not exist") {
		t.Errorf("a missing parent: %v, want it refused, naming %s", err, filepath.Join(root, "typo"))
	}
	if _, err := os.Stat(filepath.Join(root, "typo")); !os.IsNotExist(err) {
		t.Errorf("Save made the missing parent: %v", err)
	}
}
