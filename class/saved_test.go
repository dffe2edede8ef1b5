package class

import (
	"bytes"
	"context"
	"errors"
	"os"
	"path/filepath"
	"testing"
	"time"
)

// TestReadSaved: a class a -serve-dir hub saved reads back, its rows by
// name and offline, and the file is left as it was (a server may be
// serving the class); a code with no file is ErrNoClass.
func TestReadSaved(t *testing.T) {
	dir := t.TempDir()
	now := time.Date(2026, 12, 1, 9, 0, 0, 0, time.UTC)
	h, err := OpenDir(dir, 0, func() time.Time { return now })
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	info, err := h.OpenNamed(ctx, "lead", "tuesday")
	if err != nil {
		t.Fatal(err)
	}
	for _, m := range []Member{{ID: "b", Name: "Zed", Role: Student, Online: true, Seen: now}, {ID: "a", Name: "Ada", Role: Student, Online: true, Seen: now}} {
		if err := h.Put(ctx, info.Code, m); err != nil {
			t.Fatal(err)
		}
	}
	if err := h.Close(); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, info.Code+".json")
	before, _ := os.ReadFile(path)
	got, ms, err := ReadSaved(dir, info.Code)
	if err != nil {
		t.Fatal(err)
	}
	if got.Code != info.Code || got.Name != "tuesday" || len(ms) != 2 || ms[0].Name != "Ada" || ms[1].Name != "Zed" || ms[0].Online || ms[0].V != RowVersion {
		t.Errorf("read %+v, %+v", got, ms)
	}
	if after, _ := os.ReadFile(path); !bytes.Equal(before, after) {
		t.Error("reading the class changed its file")
	}
	if _, _, err := ReadSaved(dir, "zzzzz"); !errors.Is(err, ErrNoClass) {
		t.Errorf("a code with no file: %v, want ErrNoClass", err)
	}
	if _, _, err := ReadSaved(dir, "../x"); !errors.Is(err, ErrNoClass) {
		t.Errorf("a path for a code: %v, want ErrNoClass", err)
	}
	if err := os.WriteFile(filepath.Join(dir, "zzzzz.json"), []byte("{"), 0o600); err != nil {
		t.Fatal(err)
	}
	if _, _, err := ReadSaved(dir, "zzzzz"); err == nil || errors.Is(err, ErrNoClass) {
		t.Errorf("a file that is not a class: %v, want an error saying so", err)
	}
}
